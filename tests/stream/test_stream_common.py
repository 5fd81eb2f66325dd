"""What every accumulator shares: consume(), empty accumulators, the JSON-safe encoding."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import numpy as np
import pytest
from stream_support import json_roundtrip, pickle_roundtrip

import scorekit as sk
from scorekit._errors import EmptyInputError, ParameterError
from scorekit.stream import (
    BinaryCurve,
    ConfusionMatrix,
    Contingency,
    GroupedCurve,
    RegressionMoments,
    consume,
)
from scorekit.stream._base import decode_array, encode_array, encode_float

ALL = [BinaryCurve, ConfusionMatrix, Contingency, GroupedCurve, RegressionMoments]


@pytest.mark.parametrize("cls", ALL)
def test_empty_accumulators_round_trip(cls):
    acc = cls()
    for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
        assert type(back) is cls
    assert repr(acc).startswith(cls.__name__ + "(")


@pytest.mark.parametrize("cls", ALL)
def test_merging_an_empty_accumulator_changes_nothing(cls):
    rng = np.random.default_rng(0)
    args = {
        BinaryCurve: ([0, 1, 1], [0.2, 0.4, 0.9]),
        ConfusionMatrix: ([0, 1, 1], [0, 1, 0]),
        Contingency: ([0, 1, 1], [0, 1, 0]),
        GroupedCurve: ([0, 1, 1], [0.2, 0.4, 0.9], [1, 1, 2]),
        RegressionMoments: ([0.5, 1.0, 2.0], rng.random(3)),
    }[cls]
    acc = cls().update(*args)
    before = acc.to_dict()
    assert acc.merge(cls()).to_dict() == before
    assert cls().merge(acc).to_dict() == before


def test_consume_tuples_and_mappings():
    chunks = [([0, 1], [0.2, 0.7]), {"y_true": [1, 0], "y_score": [0.6, 0.3]}]
    assert consume(BinaryCurve(), chunks).roc_auc() == 1.0


def test_consume_a_generator_with_a_progress_hook():
    rng = np.random.default_rng(1)
    y, s = rng.integers(0, 2, 1000), rng.random(1000)
    gen = ((y[i : i + 100], s[i : i + 100]) for i in range(0, 1000, 100))
    seen = []
    acc = consume(
        BinaryCurve(), gen, progress=lambda done, total: seen.append((done, total)), total=10
    )
    assert acc.roc_auc() == sk.roc_auc(y, s)
    assert seen == [(i, 10) for i in range(1, 11)]


def test_consume_bad_progress_raises():
    with pytest.raises(ParameterError, match="progress"):
        consume(BinaryCurve(), [], progress="yes")


def test_stream_is_loaded_without_dask_or_rich():
    code = (
        "import sys, scorekit.stream as s; s.consume(s.BinaryCurve(), [([0, 1], [0.1, 0.2])]); "
        "print('dask' in sys.modules, 'rich' in sys.modules, 'distributed' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_encoding_is_exact_and_json_safe():
    a = np.array([0.1, -0.0, np.nan, np.inf, 5e-324, 1.7976931348623157e308])
    d = encode_array(a)
    back = decode_array(json.loads(json.dumps(d, allow_nan=False)))
    assert back.tobytes() == a.tobytes()
    for arr in (np.array([3, -2], dtype=np.int32), np.array([True]), np.array(["x", "yz"])):
        again = decode_array(json.loads(json.dumps(encode_array(arr))))
        assert again.dtype.kind == arr.dtype.kind
        assert again.tolist() == arr.tolist()
    assert encode_float(float("nan")) == "nan"


def test_encoding_refuses_objects():
    with pytest.raises(ParameterError, match="dtype"):
        encode_array(np.array([object()]))


def test_to_dict_is_plain_json():
    acc = ConfusionMatrix(labels=np.array(["a", "b"])).update(["a", "b"], ["b", "b"])
    text = json.dumps(acc.to_dict(), allow_nan=False)
    back = ConfusionMatrix.from_dict(json.loads(text))
    assert back.labels.tolist() == ["a", "b"]
    assert back.confusion_matrix().tolist() == [[0, 1], [0, 1]]


def test_from_dict_not_a_dict_raises():
    with pytest.raises(ParameterError, match="from_dict"):
        RegressionMoments.from_dict([1, 2])  # type: ignore[arg-type]


def test_pickle_keeps_pending_merges():
    acc = GroupedCurve()
    for i in range(9):  # several pending states on the merge stack
        acc.update([0, 1], [0.01 * i, 0.5], [i, i])
    back = pickle.loads(pickle.dumps(acc))
    assert back.gauc() == acc.gauc() == 1.0
    assert back.n_groups == 9


def test_metric_before_data_raises():
    with pytest.raises(EmptyInputError):
        GroupedCurve().group_table()
