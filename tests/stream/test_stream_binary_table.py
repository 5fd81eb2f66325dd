"""BinaryCurve's code table (unweighted chunks of exact decimal scores counted in place).

The table is taken by chunks of ``_COUNT_ROWS`` rows or more (and by buffered
rows when they are flushed); it refuses chunks of another decimal scale or
ones that would make it span more than ``TABLE_CODES`` codes, which then go
through the curve and merge path. Every mix must equal the one-shot functions
bit for bit, so both limits are forced small here on small inputs.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score
from stream_support import feed, json_roundtrip, outcome, pickle_roundtrip, same
from test_stream_binary import _methods

import scorekit as sk
from scorekit.classification import _code_counts
from scorekit.classification._code_counts import CodeTable
from scorekit.classification._sortkeys import decimal_codes
from scorekit.stream import BinaryCurve
from scorekit.stream import _binary as binary_module

SEEDS = st.integers(0, 2**32 - 1)


def _decimal_rows(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores rounded to 0-3 decimals, a different rounding (scale) in each stretch of rows."""
    s = rng.normal(0.0, float(rng.choice([0.5, 3.0, 50.0])), n)
    edges = np.sort(rng.integers(0, n + 1, 4))
    for i, (a, b) in enumerate(zip(np.r_[0, edges], np.r_[edges, n], strict=True)):
        s[a:b] = np.round(s[a:b], int(rng.integers(0, 4)) if i else 2)
    s[rng.random(n) < 0.05] = -0.0
    y = (rng.random(n) < 0.4).astype(int)
    return y, s


@contextlib.contextmanager
def small_limits():
    """Every chunk is counted at once; the table spans at most 40 codes."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(binary_module, "_COUNT_ROWS", 1)
        mp.setattr(binary_module, "TABLE_CODES", 40)
        mp.setattr(_code_counts, "TABLE_CODES", 40)
        yield


@given(seed=SEEDS)
def test_counted_chunks_equal_one_shot_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    y, s = _decimal_rows(rng, n)
    if rng.random() < 0.3:
        y[:] = int(rng.integers(0, 2))  # one class
    with small_limits():
        acc = feed(BinaryCurve, (y, s), rng)
        if rng.random() < 0.5:
            acc = pickle_roundtrip(acc) if rng.random() < 0.5 else json_roundtrip(acc)
    pairs = {k: (outcome(f), outcome(lambda m=m: m(acc))) for k, (f, m) in _methods(y, s).items()}
    differ = [k for k, ((want, w1), (got, w2)) in pairs.items() if not same(got, want) or w1 != w2]
    assert differ == []  # values bit for bit, and the same warnings


@given(seed=SEEDS)
def test_counted_and_sorted_chunks_mix(seed):
    # continuous chunks (not counted), weighted chunks and decimal ones in one stream
    rng = np.random.default_rng(seed)
    y, s = _decimal_rows(rng, 300)
    s[100:150] = rng.random(50)
    w = np.where(rng.random(300) < 0.5, 1.0, 3.0)
    acc = BinaryCurve()
    with small_limits():
        for a, b, weighted in (
            (0, 60, False),
            (60, 120, True),
            (120, 200, False),
            (200, 300, False),
        ):
            acc.update(y[a:b], s[a:b], sample_weight=w[a:b] if weighted else None)
            assert acc.n_distinct == np.unique(s[:b] + 0.0).size  # read mid-stream, then go on
    used = np.r_[np.ones(60), w[60:120], np.ones(180)]
    assert acc.roc_auc() == sk.roc_auc(y, s, sample_weight=used)
    assert acc.average_precision() == sk.average_precision(y, s, sample_weight=used)


def test_large_chunks_are_counted_without_copies():
    # default limits: 1e5-row chunks of 1e-4 scores go straight to the table, which grows
    rng = np.random.default_rng(7)
    acc = BinaryCurve()
    parts = []
    for lo, hi in ((0.2, 0.5), (0.0, 0.3), (0.4, 1.0), (0.1, 0.2)):
        s = np.round(rng.uniform(lo, hi, 100_000), 4)
        y = rng.random(s.size) < s
        acc.update(y, s)
        parts.append((y, s))
        assert acc._table is not None
        assert not acc._buffer
    y = np.concatenate([p[0] for p in parts])
    s = np.concatenate([p[1] for p in parts])
    assert acc.roc_auc() == sk.roc_auc(y, s)
    assert acc.average_precision() == sk.average_precision(y, s)
    assert acc.roc_auc() == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert acc.average_precision() == pytest.approx(average_precision_score(y, s), rel=1e-12)


def test_code_table_grows_and_refuses():
    s1, s2 = np.array([0.5, 0.25]), np.array([1.5, -0.75])
    table = CodeTable.start(np.array([True, False]), decimal_codes(s1))
    assert table.add(np.array([False, True]), decimal_codes(s2))  # grows both ways
    assert not table.add(np.array([True]), decimal_codes(np.array([0.1])))  # scale 10, not 100
    c = table.curve()
    assert c.scores.tolist() == [1.5, 0.5, 0.25, -0.75]
    assert c.pos.tolist() == [0.0, 1.0, 0.0, 1.0]
    assert c.neg.tolist() == [1.0, 0.0, 1.0, 0.0]
