"""The unweighted fast paths of roc_auc and average_precision against scikit-learn and the kernel.

``binary_ap`` takes a short path when no tie run holds two positives (each
positive is its own step, ties with negatives only move where the step
starts); it must give the value of the general step path and of the curve
kernel bit for bit, and scikit-learn's to rounding. The two-thread sort is
forced on small inputs by lowering ``_PARALLEL_ROWS``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

import scorekit as sk
from scorekit.classification import _curve_kernel as kc
from scorekit.classification import _sortkeys

SEEDS = st.integers(0, 2**32 - 1)


def _negative_ties(
    rng: np.random.Generator, n: int, distinct_positives: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Continuous scores, some zeros of both signs, then negatives moved onto other rows' scores.

    ``distinct_positives``: no two positives share a score (ties hold negatives and at most one
    positive); otherwise zeros may tie positives too.
    """
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[:2] = [False, True]
    s = rng.normal(0.0, float(rng.choice([1e-3, 1.0, 1e6])), n)
    s[rng.random(n) < 0.05] = 0.0
    s[rng.random(n) < 0.05] = -0.0
    neg, pos = np.flatnonzero(~y), np.flatnonzero(y)
    if distinct_positives:
        s[pos] = rng.permutation(pos.size) + rng.random(pos.size) * 0.5
    moved = neg[rng.random(neg.size) < 0.3]
    s[moved] = s[rng.choice(np.r_[pos, neg], moved.size)]  # negatives tie with anything
    return y, s


def _general_ap(y: np.ndarray, s: np.ndarray) -> float:
    """The step path of ``binary_ap`` (every tie run with positives as one step), forced."""
    r = _sortkeys.sort_rows(y, s)
    where_pos = np.flatnonzero(r.positive)
    first, last = kc._tie_runs(r)
    lo = np.searchsorted(where_pos, first, "left")
    hi = np.searchsorted(where_pos, last, "right")
    return kc._ap_steps(where_pos, first, lo, hi, s.size)


@given(seed=SEEDS)
def test_ap_with_ties_among_negatives_only(seed):
    rng = np.random.default_rng(seed)
    y, s = _negative_ties(rng, int(rng.integers(2, 300)), bool(rng.random() < 0.7))
    got = sk.average_precision(y, s)
    assert got == kc.ap_from_curve(kc.curve_from_chunk(y, s))
    assert got == _general_ap(y, s)
    assert got == pytest.approx(average_precision_score(y, s), rel=1e-12, abs=1e-15)
    assert sk.roc_auc(y, s) == kc.auc_from_curve(kc.curve_from_chunk(y, s))


def test_ap_negative_ties_worked_example():
    # decreasing: 0.9 (pos), 0.5 (pos, neg), 0.4 (neg, neg), 0.3 (pos): one positive per step;
    # steps: P = 1/1 at 0.9, 2/3 at 0.5, 3/6 at 0.3; AP = (1 + 2/3 + 1/2) / 3 = 13/18
    y = np.array([1, 1, 0, 0, 0, 1], dtype=bool)
    s = np.array([0.9, 0.5, 0.5, 0.4, 0.4, 0.3])
    assert sk.average_precision(y, s) == pytest.approx(13 / 18, rel=1e-15)
    assert sk.average_precision(y, s) == _general_ap(y, s)


@given(seed=SEEDS)
def test_two_thread_sort_forced_on_small_inputs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    y, s = _negative_ties(rng, n, bool(rng.random() < 0.5))
    if rng.random() < 0.3:
        s = -s  # all signs: the other key modes
    before = (sk.roc_auc(y, s), sk.average_precision(y, s), kc.curve_from_chunk(y, s))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_sortkeys, "_PARALLEL_ROWS", 2)
        keys = rng.integers(0, 2**63, n, dtype=np.int64).view(np.uint64) * np.uint64(2)
        want = np.sort(keys)
        _sortkeys.sort_uint64(keys)
        assert np.array_equal(keys, want)
        after = (sk.roc_auc(y, s), sk.average_precision(y, s), kc.curve_from_chunk(y, s))
    assert after[:2] == before[:2]
    for field in ("scores", "pos", "neg"):
        assert np.array_equal(getattr(after[2], field), getattr(before[2], field))
    assert after[0] == pytest.approx(roc_auc_score(y, s), rel=1e-12)
    assert after[1] == pytest.approx(average_precision_score(y, s), rel=1e-12, abs=1e-15)


@given(seed=SEEDS)
def test_unique_inverse_two_threads_equals_numpy_unique(seed):
    # the two-thread order (forced on small inputs) is numpy.unique's: values and ranks,
    # with ties, both zeros (-0.0 and 0.0 are one value, given as 0.0) and both signs
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    s = np.round(rng.normal(size=n), int(rng.integers(0, 4)))
    s[rng.random(n) < 0.1] = -0.0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_sortkeys, "_PARALLEL_ROWS", 2)
        uniq, rank = _sortkeys.unique_inverse(s)
    want_uniq, want_rank = np.unique(s, return_inverse=True)
    np.testing.assert_array_equal(uniq, want_uniq)
    assert not np.signbit(uniq[uniq == 0]).any()
    np.testing.assert_array_equal(rank, want_rank)
    assert rank.dtype == np.int64
    np.testing.assert_array_equal(uniq[rank], s)
