"""kendall_tau / spearman against scipy and the pair-by-pair definition; rank_correlation RC."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as ss

import scorekit.ranking._correlation as corr
from scorekit._errors import (
    EmptyInputError,
    LengthMismatchError,
    NegativeWeightError,
    NonFiniteError,
    ShapeError,
    UndefinedMetricWarning,
)
from scorekit.ranking import kendall_tau, rank_correlation, spearman


def _pairs(t, s):
    t, s = np.asarray(t, float), np.asarray(s, float)
    iu = np.triu_indices(len(t), 1)
    return iu, np.sign(np.subtract.outer(s, s) * np.subtract.outer(t, t))[iu]


def _tau_b_pairwise(a, b):
    iu, sg = _pairs(a, b)
    a, b = np.asarray(a, float), np.asarray(b, float)
    untied_a = np.count_nonzero(np.subtract.outer(a, a)[iu])
    untied_b = np.count_nonzero(np.subtract.outer(b, b)[iu])
    return sg.sum() / math.sqrt(untied_a * untied_b)


def _rc_pairwise(t, s, w=None):
    iu, sg = _pairs(t, s)
    ww = np.ones(sg.size) if w is None else np.asarray(w, float)[iu]
    return float(ww @ (1 + sg) / (2 * ww.sum()))


def _vectors(seed):
    rng = np.random.default_rng(seed)
    for n in (2, 3, 10, 57, 300):
        yield rng.integers(0, 4, n).astype(float), rng.integers(0, 6, n).astype(float)  # heavy ties
        a = rng.random(n)
        yield a, a + rng.normal(0, 0.3, n)  # continuous, correlated
        yield 1e9 + rng.integers(0, 5, n), 1e-9 * rng.integers(0, 5, n)  # magnitudes


@pytest.mark.reference
@pytest.mark.parametrize("seed", range(3))
def test_kendall_spearman_equal_scipy_and_definition(seed):
    for a, b in _vectors(seed):
        if np.ptp(a) == 0 or np.ptp(b) == 0:
            continue
        tau = kendall_tau(a, b)
        assert tau == pytest.approx(ss.kendalltau(a, b).statistic, abs=1e-12)
        assert tau == pytest.approx(_tau_b_pairwise(a, b), abs=1e-12)
        assert spearman(a, b) == pytest.approx(ss.spearmanr(a, b).statistic, abs=1e-12)
        assert isinstance(tau, float)


@pytest.mark.parametrize("seed", range(3))
def test_rank_correlation_equals_pairwise_definition(seed):
    rng = np.random.default_rng(seed)
    for t, s in _vectors(seed):
        n = len(t)
        assert rank_correlation(t, s) == pytest.approx(_rc_pairwise(t, s), abs=1e-12)
        w = rng.random((n, n)) * (rng.random((n, n)) < 0.7)
        w[0, 1] = 1.0
        expected = _rc_pairwise(t, s, w)
        assert rank_correlation(t, s, w) == pytest.approx(expected, abs=1e-12)
        assert rank_correlation(t, s, lambda u, v, w=w: w[u, v]) == pytest.approx(
            expected, abs=1e-12
        )
        # unit weights given explicitly take the O(n^2) path and agree with the count path
        assert rank_correlation(t, s, np.ones((n, n))) == pytest.approx(
            rank_correlation(t, s), abs=1e-12
        )


def test_rank_correlation_in_blocks(monkeypatch):
    monkeypatch.setattr(corr, "_BLOCK_ELEMENTS", 37)
    rng = np.random.default_rng(4)
    t, s = rng.integers(0, 5, 83), rng.random(83)
    w = rng.random((83, 83))
    assert rank_correlation(t, s, w) == pytest.approx(_rc_pairwise(t, s, w), abs=1e-12)
    seen = []

    def weight(u, v):
        seen.append(np.c_[u, v])
        return 1.0 / (1 + np.minimum(u, v))

    expected = _rc_pairwise(t, s, 1.0 / (1 + np.minimum.outer(np.arange(83), np.arange(83))))
    assert rank_correlation(t, s, weight) == pytest.approx(expected, abs=1e-12)
    pairs = np.vstack(seen)
    assert len(pairs) == 83 * 82 // 2
    assert np.all(pairs[:, 0] < pairs[:, 1])
    assert len({tuple(p) for p in pairs.tolist()}) == len(pairs)  # every pair exactly once


def test_worked_examples():
    # t = (1, 2, 3, 4), s = (1, 3, 2, 4): of the 6 pairs only (2, 3) is discordant.
    # tau = (5 - 1) / 6 = 2/3; RC = (5 x 2 + 1 x 0) / (2 x 6) = 5/6.
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(2 / 3, abs=1e-15)
    assert rank_correlation([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(5 / 6, abs=1e-15)
    # Spearman: rank differences (0, -1, 1, 0): 1 - 6 x 2 / (4 x 15) = 0.8.
    assert spearman([10, 20, 30, 40], [1, 3, 2, 4]) == pytest.approx(0.8, abs=1e-15)
    # A tie: t = (1, 1, 2), s = (1, 2, 3): pair (0, 1) tied in t scores 1/2, the other two
    # concordant: RC = (1 + 2 + 2) / 6 = 5/6. tau-b = 2 / sqrt(2 x 3) = 0.8165.
    assert rank_correlation([1, 1, 2], [1, 2, 3]) == pytest.approx(5 / 6, abs=1e-15)
    assert kendall_tau([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / math.sqrt(6), abs=1e-15)
    # Weights 3 on the discordant pair (1, 2), 1 elsewhere: (5 x 2 + 0) / (2 x 8) = 0.625.
    w = np.ones((4, 4))
    w[1, 2] = 3
    assert rank_correlation([1, 2, 3, 4], [1, 3, 2, 4], w) == 0.625
    # Reversed order: every pair discordant.
    assert rank_correlation([1, 2, 3], [3, 2, 1]) == 0.0
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0


def test_rc_is_half_plus_half_tau_a():
    rng = np.random.default_rng(9)
    t, s = rng.integers(0, 10, 2000), rng.integers(0, 10, 2000)
    _iu, sg = _pairs(t, s)
    assert rank_correlation(t, s) == pytest.approx(0.5 + sg.mean() / 2, abs=1e-12)


def test_large_input_against_scipy():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 1000, 200_000)
    b = a + rng.integers(0, 3000, 200_000)
    assert kendall_tau(a, b) == pytest.approx(ss.kendalltau(a, b).statistic, abs=1e-12)
    assert spearman(a, b) == pytest.approx(ss.spearmanr(a, b).statistic, abs=1e-12)


def test_constant_input_is_undefined():
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(kendall_tau([1, 1, 1], [1, 2, 3]))
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(spearman([1, 2, 3], [5, 5, 5]))
    # RC with a constant vector: every pair tied, 1/2
    assert rank_correlation([1, 1, 1], [1, 2, 3]) == 0.5
    with pytest.warns(UndefinedMetricWarning, match="sum to 0"):
        assert math.isnan(rank_correlation([1, 2, 3], [1, 2, 3], np.zeros((3, 3))))
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(rank_correlation([1], [1]))


def test_inputs_untouched():
    a, b = np.array([3.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0])
    kendall_tau(a, b), spearman(a, b), rank_correlation(a, b, np.ones((3, 3)))
    assert a.tolist() == [3.0, 1.0, 2.0]
    assert b.tolist() == [1.0, 2.0, 3.0]


def test_error_lengths_differ():
    with pytest.raises(LengthMismatchError):
        kendall_tau([1, 2, 3], [1, 2])
    with pytest.raises(LengthMismatchError):
        rank_correlation([1, 2, 3], [1, 2])


def test_error_empty():
    with pytest.raises(EmptyInputError):
        spearman([], [])


def test_error_nan():
    with pytest.raises(NonFiniteError, match="b contains 1 NaN"):
        spearman([1, 2, 3], [1, np.nan, 3])


def test_error_weight_matrix_shape():
    with pytest.raises(ShapeError, match="n×n"):
        rank_correlation([1, 2, 3], [1, 2, 3], np.ones((2, 2)))


def test_error_negative_weights():
    with pytest.raises(NegativeWeightError):
        rank_correlation([1, 2, 3], [1, 2, 3], -np.ones((3, 3)))


def test_error_weight_callable_wrong_length():
    with pytest.raises(LengthMismatchError, match="one weight per pair"):
        rank_correlation([1, 2, 3], [1, 2, 3], lambda u, v: np.ones(2))


def test_error_weight_callable_nan():
    with pytest.raises(NonFiniteError):
        rank_correlation([1, 2, 3], [1, 2, 3], lambda u, v: u * np.nan)
