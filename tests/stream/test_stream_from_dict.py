"""from_dict treats a state as input: every malformed field raises a StateError naming it."""

from __future__ import annotations

import copy
import json
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorekit as sk
from scorekit import ScorekitError, StateError
from scorekit.stream import (
    BinaryCurve,
    ConfusionMatrix,
    Contingency,
    GroupedCurve,
    MetricSet,
    RankingAccumulator,
    RegressionLosses,
    RegressionMoments,
)
from scorekit.stream._base import encode_array

QRELS = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}


def _filled():
    """One accumulator of each kind with data in it, and the metric calls that read its state."""
    y, s = [0, 1, 1, 0, 1], [0.1, 0.8, 0.4, 0.4, 0.9]
    return [
        (
            BinaryCurve().update(y, s, sample_weight=[1, 2, 0.5, 1, 1]),
            ["roc_auc", "average_precision"],
        ),
        (BinaryCurve(bins=4).update(y, s), ["roc_auc", "log_loss"]),
        (
            ConfusionMatrix().update(["a", "b", "a"], ["a", "a", "b"]),
            ["accuracy", "confusion_matrix"],
        ),
        (ConfusionMatrix().update([0, 1, 2], [0, 2, 2], sample_weight=[0.5, 1, 2]), ["accuracy"]),
        (RegressionMoments().update([1.0, 2.0, 4.0], [1.5, 2.0, 3.0]), ["mae", "r2"]),
        (RegressionLosses().update([1.0, 2.0, 4.0], [1.5, 2.0, 3.0]), ["msle", "pearson"]),
        (Contingency().update([0, 0, 1, 2], ["a", "b", "b", "b"]), ["adjusted_rand_index"]),
        (GroupedCurve().update(y, s, groups=["u", "u", "v", "v", "w"]), ["gauc"]),
        (
            MetricSet(["roc_auc", "accuracy"], score=True, pred=True).update(y, s, [0, 1, 1, 1, 0]),
            ["values"],
        ),
        (
            RankingAccumulator(QRELS, ["P@1", "AP"]).update(
                ["q1", "q1", "q2"], ["d1", "d2", "d3"], [0.3, 0.5, 0.1]
            ),
            ["evaluate"],
        ),
    ]


FILLED = _filled()
IDS = [f"{type(acc).__name__}-{i}" for i, (acc, _) in enumerate(FILLED)]


def _read(acc, methods):
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in methods:
            value = getattr(acc, m)()
            if isinstance(value, dict):
                value = sorted(value.items())
            out.append(
                value.mean()
                if hasattr(value, "mean") and not isinstance(value, np.ndarray)
                else value
            )
    return out


@pytest.mark.parametrize(("acc", "methods"), FILLED, ids=IDS)
def test_clean_state_round_trips(acc, methods):
    d = json.loads(json.dumps(acc.to_dict()))
    back = type(acc).from_dict(d)
    np.testing.assert_equal(_read(back, methods), _read(acc, methods))


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(
        ["<f8", "<i8", "|b1", ">f8", "O", "str", "0x1p+0", "nan", "-inf", "AAAA", "@@", "12"]
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize(("acc", "methods"), FILLED, ids=IDS)
def test_random_corruption_raises_a_scorekit_error_or_reads_cleanly(acc, methods, data):
    d = json.loads(json.dumps(acc.to_dict()))
    # Qrels grades are checked by Qrels.from_dict (tests/ranking); here the accumulator's own fields
    paths = [p for p in _paths(d) if p and p[:2] != ("params", "qrels")]
    path = data.draw(st.sampled_from(paths))
    action = data.draw(st.sampled_from(["replace", "delete", "add", "truncate"]))
    corrupt = copy.deepcopy(d)
    parent = corrupt
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "replace":
        parent[last] = data.draw(JUNK)
    elif action == "delete":
        del parent[last]
    elif action == "add":
        target = parent[last]
        if isinstance(target, dict):
            target[data.draw(st.text(min_size=1, max_size=5))] = data.draw(JUNK)
        else:
            parent[last] = [target, target]
    elif isinstance(parent[last], str):
        parent[last] = parent[last][: data.draw(st.integers(0, max(0, len(parent[last]) - 1)))]
    try:
        back = type(acc).from_dict(corrupt)
    except ScorekitError:
        return
    try:  # accepted: a valid state, whose metrics read without a raw exception
        _read(back, methods)
        type(acc).from_dict(json.loads(json.dumps(back.to_dict())))
    except ScorekitError:
        pass


def _binary_state(**curve):
    d = BinaryCurve().update([0, 1, 1], [0.2, 0.4, 0.9]).to_dict()
    d["state"]["curve"].update({k: encode_array(np.asarray(v)) for k, v in curve.items()})
    return d


def test_unsorted_curve_is_refused():
    with pytest.raises(StateError, match=r"state\.curve\.scores must be strictly decreasing"):
        BinaryCurve.from_dict(_binary_state(scores=[0.2, 0.4, 0.9]))


def test_negative_or_mismatched_weights_are_refused():
    with pytest.raises(StateError, match=r"state\.curve\.pos holds negative values"):
        BinaryCurve.from_dict(_binary_state(pos=[1.0, -1.0, 0.0]))
    with pytest.raises(StateError, match=r"state\.curve: fields differ in length"):
        BinaryCurve.from_dict(_binary_state(neg=[1.0]))
    with pytest.raises(StateError, match=r"state\.curve\.neg\.dtype must be one of <f8"):
        BinaryCurve.from_dict(_binary_state(neg=np.array([1, 0, 0], dtype=np.int32)))


def test_bad_base64_absurd_and_truncated_sizes_are_refused():
    d = BinaryCurve().update([0, 1], [0.2, 0.4]).to_dict()
    scores = d["state"]["curve"]["scores"]
    for shape, text, match in (
        ([10**15], scores["base64"], r"shape must be 1 sizes in \[0, 2\*\*40\]"),
        ([2**40], scores["base64"], "base64 must be the base64 text of"),
        ([2], scores["base64"][:-4], "base64 must be the base64 text of"),
        ([2], "!" * len(scores["base64"]), "base64 is not valid base64"),
        ([-1], scores["base64"], "shape must be"),
        ("2", scores["base64"], "shape must be"),
    ):
        bad = copy.deepcopy(d)
        bad["state"]["curve"]["scores"].update(shape=shape, base64=text)
        with pytest.raises(StateError, match=rf"state\.curve\.scores\.{match}"):
            BinaryCurve.from_dict(bad)


def test_missing_and_extra_keys_name_the_field():
    d = ConfusionMatrix().update([0, 1], [1, 1]).to_dict()
    bad = copy.deepcopy(d)
    del bad["state"]["confusion"]["counts"]
    with pytest.raises(StateError, match=r"state\.confusion has the wrong keys \(missing counts\)"):
        ConfusionMatrix.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["state"]["extra"] = 1
    with pytest.raises(StateError, match=r"state has the wrong keys \(unknown extra\)"):
        ConfusionMatrix.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["params"] = {"colour": "red"}
    with pytest.raises(StateError, match="params"):
        ConfusionMatrix.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["state"]["confusion"]["counts"] = encode_array(np.array([[1, -1], [0, 0]]))
    with pytest.raises(StateError, match=r"state\.confusion\.counts holds negative values"):
        ConfusionMatrix.from_dict(bad)
    bad["state"]["confusion"]["counts"] = encode_array(np.array([[1, 1, 1]]))
    with pytest.raises(StateError, match=r"must have shape \(2, 2\)"):
        ConfusionMatrix.from_dict(bad)


def test_out_of_range_codes_and_sums_are_refused():
    d = Contingency().update([0, 0, 1], [1, 0, 0]).to_dict()
    bad = copy.deepcopy(d)
    bad["state"]["contingency"]["rows"] = encode_array(np.array([0, 0, 7]))
    with pytest.raises(StateError, match=r"state\.contingency\.rows holds codes outside \[0, 2\)"):
        Contingency.from_dict(bad)
    m = RegressionMoments().update([1.0, 2.0], [1.0, 3.0]).to_dict()
    bad = copy.deepcopy(m)
    bad["state"]["moments"]["sse"] = ["-5"]
    with pytest.raises(StateError, match=r"state\.moments\.sse must not be negative"):
        RegressionMoments.from_dict(bad)
    bad["state"]["moments"]["sse"] = ["9" * 5000]
    with pytest.raises(StateError, match=r"state\.moments\.sse must be an exact-sum string"):
        RegressionMoments.from_dict(bad)
    bad = copy.deepcopy(m)
    bad["state"]["moments"]["n"] = True
    with pytest.raises(StateError, match=r"state\.moments\.n must be an integer"):
        RegressionMoments.from_dict(bad)


def test_grouped_offsets_must_fit_the_rows():
    d = GroupedCurve().update([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4], groups=[1, 1, 2, 2]).to_dict()
    bad = copy.deepcopy(d)
    bad["state"]["curve"]["offsets"] = encode_array(np.array([0, 3, 2]))
    with pytest.raises(StateError, match=r"state\.curve\.offsets"):
        GroupedCurve.from_dict(bad)


def test_state_error_is_a_parameter_error_for_old_callers():
    assert issubclass(StateError, sk.ParameterError)
