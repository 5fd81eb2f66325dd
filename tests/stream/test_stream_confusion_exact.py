"""Weighted confusion counts are exact sums: streamed == one-shot bit for bit, correctly rounded.

Issue 12: fractional weights used to differ in the last bit between chunkings, and integer
weights above 2**53 were summed in float64 (int64 totals wrapped).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import feed, outcome, same
from test_stream_confusion import _cases

import scorekit as sk
from scorekit._errors import ParameterError
from scorekit.stream import ConfusionMatrix

SEEDS = st.integers(0, 2**32 - 1)
KINDS = st.sampled_from(["fractional", "integer", "int_dtype", "tiny", "huge", "mixed"])


def _weights(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    if kind == "fractional":
        w = rng.random(n) * 2
    elif kind == "integer":  # integer-valued floats beyond 2**53: float sums round
        w = rng.integers(0, 2**60, n).astype(np.float64)
    elif kind == "int_dtype":
        return rng.integers(0, 2**56, n)
    elif kind == "tiny":
        w = rng.random(n) * 1e-300
    elif kind == "huge":
        w = rng.random(n) * 1e300
    else:
        w = np.ldexp(rng.random(n), rng.integers(-200, 200, n))
    w[rng.random(n) < 0.1] = 0.0
    return w


def _labels(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    k = int(rng.integers(2, 5))
    t = rng.integers(0, k, n)
    return t, np.where(rng.random(n) < 0.6, t, rng.integers(0, k, n))


def _exact_cells(t, p, w) -> dict[tuple[int, int], Fraction]:
    cells: dict[tuple[int, int], Fraction] = {}
    for a, b, x in zip(t.tolist(), p.tolist(), w.tolist(), strict=True):
        cells[a, b] = cells.get((a, b), Fraction(0)) + Fraction(x)
    return cells


@given(seed=SEEDS, kind=KINDS)
def test_streamed_equals_one_shot_bit_for_bit(seed, kind):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, int(rng.integers(1, 150)))
    w = _weights(rng, t.size, kind)
    acc = feed(ConfusionMatrix, (t, p), rng, sample_weight=w)
    for name, one_shot, method in _cases(t, p, w):
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        assert same(got, expected), name
        if isinstance(expected, np.ndarray):
            assert got.dtype == expected.dtype, name
        assert got_warned == warned, name


@given(seed=SEEDS, kind=KINDS)
def test_cells_are_correctly_rounded_exact_sums(seed, kind):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, int(rng.integers(1, 150)))
    w = _weights(rng, t.size, kind)
    cm = sk.confusion_matrix(t, p, sample_weight=w)
    classes = np.unique(np.r_[t, p])
    exact = _exact_cells(t, p, w)
    for i, a in enumerate(classes.tolist()):
        for j, b in enumerate(classes.tolist()):
            value = exact.get((a, b), Fraction(0))
            if w.dtype.kind == "i":
                assert cm.dtype == np.int64
                assert int(cm[i, j]) == value
            else:
                assert cm[i, j] == float(value)  # Fraction → float rounds once, correctly


def test_integer_weights_above_2_53_are_exact():
    w = np.array([2**53 + 1, 2**53 + 1, 3, 2**62], dtype=np.int64)
    t, p = np.array([0, 0, 1, 1]), np.array([0, 0, 1, 0])
    cm = sk.confusion_matrix(t, p, sample_weight=w)
    assert cm.dtype == np.int64
    assert cm.tolist() == [[2**54 + 2, 0], [2**62, 3]]  # float64 summing gives 2**54 in [0, 0]
    acc = ConfusionMatrix().update(t[:1], p[:1], sample_weight=w[:1])
    acc.merge(ConfusionMatrix().update(t[1:], p[1:], sample_weight=w[1:]))
    assert acc.confusion_matrix().tolist() == cm.tolist()
    unsigned = np.array([2**63 + 5, 1], dtype=np.uint64)  # beyond int64 per row, not per cell
    with pytest.raises(ParameterError, match=r"sample_weight.*2\*\*63"):
        sk.confusion_matrix([0, 1], [0, 1], sample_weight=unsigned)


def test_int64_overflow_raises_instead_of_wrapping():
    w = np.array([2**62, 2**62, 1], dtype=np.int64)  # sums to 2**63 in cell [0, 0]
    with pytest.raises(ParameterError, match="sample_weight"):
        sk.confusion_matrix([0, 0, 1], [0, 0, 1], sample_weight=w)
    acc = ConfusionMatrix().update([0, 0, 1], [0, 0, 1], sample_weight=w)
    with pytest.raises(ParameterError, match="sample_weight"):
        acc.confusion_matrix()
    # the float matrix of the metrics stays available: cells rounded once
    assert acc.accuracy() == sk.accuracy([0, 0, 1], [0, 0, 1], sample_weight=w) == 1.0


def test_many_classes_path_agrees_with_the_matrix_path(monkeypatch):
    # Past CM_MAX_CELLS the one-shot counts per class without the k × k table: same bits.
    from scorekit.classification import _counts_state

    rng = np.random.default_rng(2)
    t, p = _labels(rng, 300)
    w = _weights(rng, t.size, "mixed")
    want = [sk.f1(t, p, sample_weight=w, average=a) for a in ("micro", "macro", "weighted")]
    want.append(sk.accuracy(t, p, sample_weight=w))
    monkeypatch.setattr(_counts_state, "CM_MAX_CELLS", 1)
    got = [sk.f1(t, p, sample_weight=w, average=a) for a in ("micro", "macro", "weighted")]
    got.append(sk.accuracy(t, p, sample_weight=w))
    assert got == want


def test_worked_example_ten_tenths():
    # Ten rows of weight 0.1 in one cell: float64 summing left to right gives
    # 0.9999999999999999; the exact sum 10 × 0.1000000000000000055... rounds to 1.0,
    # in one shot and in any chunking.
    t = p = np.zeros(10, dtype=int)
    w = np.full(10, 0.1)
    assert sk.confusion_matrix(t, p, sample_weight=w).tolist() == [[1.0]]
    acc = ConfusionMatrix()
    for i in range(10):
        acc.update(t[i : i + 1], p[i : i + 1], sample_weight=w[i : i + 1])
    assert acc.confusion_matrix().tolist() == [[1.0]]
