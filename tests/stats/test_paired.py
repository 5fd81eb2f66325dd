"""paired_test against scipy.stats and exact enumeration; corrections on hand-computed examples."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as ss

from scorekit._errors import (
    EmptyInputError,
    LengthMismatchError,
    NonFiniteError,
    OmittedRowsWarning,
    ParameterError,
    ScorekitError,
)
from scorekit.stats import bonferroni, holm, paired_test

pytestmark = pytest.mark.reference


def _cases(seed: int, count: int):
    """Random paired vectors: coarse grids (ties and zero differences), continuous, shifted."""
    rng = np.random.default_rng(seed)
    sizes = [2, 5, 10, 14, 30, 50, 51, 300]
    for i in range(count):
        n = sizes[i % len(sizes)]
        kind = i % 4
        if kind == 0:  # ties and zeros
            a, b = rng.integers(0, 5, n) / 4, rng.integers(0, 5, n) / 4
        elif kind == 1:  # continuous: exact null distribution for n <= 50
            a, b = rng.random(n), rng.random(n)
        elif kind == 2:  # shifted, with ties
            a = np.round(rng.normal(0.3, 1, n), 1)
            b = np.round(rng.normal(0, 1, n), 1)
        else:  # huge magnitudes with a small shift
            a = 1e9 + rng.integers(0, 50, n) * 1e3
            b = 1e9 + rng.integers(0, 50, n) * 1e3
        if np.all(a == b) or np.ptp(a - b) == 0:
            continue
        yield a, b


@pytest.mark.parametrize("seed", range(4))
def test_t_test_equals_scipy_ttest_rel(seed):
    for a, b in _cases(seed, 60):
        r = paired_test(a, b, test="t")
        ref = ss.ttest_rel(a, b)
        assert r.p_value == pytest.approx(ref.pvalue, abs=1e-9, rel=1e-9)
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-9)
        lo, hi = ref.confidence_interval(0.95)
        assert (r.ci_low, r.ci_high) == pytest.approx((lo, hi), rel=1e-9, abs=1e-9)


def test_wilcoxon_equals_scipy_defaults():
    seen = set()
    for a, b in _cases(0, 64):
        d = a - b
        if not np.any(d != 0):
            continue
        r = paired_test(a, b, test="wilcoxon")
        ref = ss.wilcoxon(a, b)  # zero_method="wilcox", correction=False, method="auto"
        assert r.p_value == pytest.approx(ref.pvalue, abs=1e-9)
        assert r.statistic == pytest.approx(ref.statistic, abs=1e-9)
        _, counts = np.unique(np.abs(d[d != 0]), return_counts=True)
        seen.add((len(d) > 50, bool((counts > 1).any() or (d == 0).any()), len(d) <= 13))
    # n = 13 with ties: the largest size scipy enumerates (slow in scipy, so one case)
    a, b = (
        np.array([0.5, 0.5, 1, 2, 2, 3, 0, 1, 4, 4, 5, 1, 2.0]),
        np.array([0, 1, 0.5, 2, 1, 0, 1, 0, 2, 3, 3, 1, 0.0]),
    )
    assert paired_test(a, b, test="wilcoxon").p_value == pytest.approx(
        ss.wilcoxon(a, b).pvalue, abs=1e-9
    )
    # every branch of scipy's method="auto" was exercised
    assert {
        (False, False, False),
        (False, True, True),
        (False, True, False),
        (True, True, False),
    } <= seen


@pytest.mark.parametrize("seed", range(4))
def test_sign_test_equals_binomtest(seed):
    for a, b in _cases(seed, 60):
        k, m = int(np.sum(a > b)), int(np.sum(a != b))
        r = paired_test(a, b, test="sign")
        assert r.statistic == k
        assert r.p_value == pytest.approx(ss.binomtest(k, m, 0.5).pvalue, abs=1e-9)


def test_sign_test_every_k_up_to_60():
    for m in range(1, 61):
        for k in range(m + 1):
            a = np.r_[np.ones(k), -np.ones(m - k), 0.0, 0.0]
            r = paired_test(a, np.zeros(m + 2), test="sign")
            assert r.p_value == pytest.approx(ss.binomtest(k, m, 0.5).pvalue, abs=1e-12)


def test_worked_examples():
    # Differences 1, 2, 3: mean 2, sd 1, t = 2 / (1/sqrt 3) = 2 sqrt 3 on 2 df. The t(2)
    # CDF is 1/2 + t / (2 sqrt(2 + t^2)), so p = 1 - sqrt(12/14) = 1 - sqrt(6/7) = 0.0741799.
    r = paired_test([2, 4, 6], [1, 2, 3], test="t")
    assert r.statistic == pytest.approx(2 * math.sqrt(3), rel=1e-12)
    assert r.p_value == pytest.approx(1 - math.sqrt(6 / 7), abs=1e-12)
    assert (r.mean_a, r.mean_b, r.diff, r.effect_size) == (4.0, 2.0, 2.0, 2.0)
    # The t(2) quantile has the closed form (2q - 1) / sqrt(2 q (1 - q)); q = 0.975 gives
    # 0.95 / sqrt(0.04875) = 4.30265, so the interval is 2 -+ 4.30265 / sqrt 3.
    q = 0.95 / math.sqrt(2 * 0.975 * 0.025)
    assert (r.ci_low, r.ci_high) == pytest.approx(
        (2 - q / math.sqrt(3), 2 + q / math.sqrt(3)), rel=1e-12
    )
    # Wilcoxon, d = 1..5 all positive: R+ = 15 is the largest of 2^5 = 32 equally likely
    # sums, so p = 2 / 32 = 0.0625; the statistic is min(R+, R-) = 0.
    r = paired_test([1, 2, 3, 4, 5], [0, 0, 0, 0, 0], test="wilcoxon")
    assert (r.statistic, r.p_value) == (0.0, 0.0625)
    # Sign test, 8 of 10 positive: p = 2 (1 + 10 + 45) / 1024 = 0.109375.
    r = paired_test([1] * 8 + [0] * 2 + [5], [0] * 8 + [1] * 2 + [5], test="sign")
    assert (r.statistic, r.p_value) == (8.0, pytest.approx(0.109375, abs=1e-15))
    # Randomization, d = (1, 2, 3): |sum| >= 6 only for all signs + or all - : 2 of 8.
    r = paired_test([1, 2, 3], [0, 0, 0], test="randomization")
    assert r.p_value == 0.25


def _exact_randomization_p(d):
    n = d.size
    flips = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)
    sums = np.abs(flips @ d)
    return np.mean(sums >= abs(d.sum()) - 1e-9)


@pytest.mark.parametrize("n", [4, 9, 13, 14])
def test_randomization_matches_full_enumeration(n):
    rng = np.random.default_rng(n)
    for trial in range(3):
        a = np.round(rng.normal(0.4 * trial, 1, n), 1)  # coarse values: exact ties in |sum|
        b = np.round(rng.normal(0, 1, n), 1)
        exact = _exact_randomization_p(a - b)
        r = paired_test(a, b, test="randomization", n_resamples=10_000, seed=trial)
        if 2**n <= 10_000:  # every sign assignment enumerated: the exact fraction
            assert r.p_value == pytest.approx(exact, abs=1e-12)
        else:  # Monte Carlo (count + 1) / (R + 1): within 4 standard errors
            se = math.sqrt(exact * (1 - exact) / 10_000)
            assert abs(r.p_value - exact) <= 4 * se + 2 / 10_001
        assert r.statistic == pytest.approx(np.mean(a - b))


def test_randomization_monte_carlo_small_n_resamples():
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.2, 1, 12), rng.normal(0, 1, 12)
    exact = _exact_randomization_p(a - b)
    r = paired_test(a, b, test="randomization", n_resamples=4000, seed=1)
    assert abs(r.p_value - exact) <= 4 * math.sqrt(exact * (1 - exact) / 4000) + 1 / 4001
    assert r == paired_test(a, b, test="randomization", n_resamples=4000, seed=1)


def test_bootstrap_test_definition():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.3, 1, 40), rng.normal(0, 1, 40)
    d = a - b
    r = paired_test(a, b, test="bootstrap", n_resamples=2000, seed=5, alpha=0.1)
    # Same draws as the implementation (one block): rows of indices into the differences.
    idx = np.random.default_rng(5).integers(0, 40, size=(2000, 40))
    means = d[idx].mean(axis=1)
    assert (r.ci_low, r.ci_high) == pytest.approx(
        tuple(np.quantile(means, [0.05, 0.95])), rel=1e-12
    )
    # Studentized, shifted to the null: t* = mean(d* - mean d) / (sd(d*) / sqrt n).
    shifted = (d - d.mean())[idx]
    t_star = shifted.mean(axis=1) / (shifted.std(axis=1, ddof=1) / math.sqrt(40))
    t_obs = d.mean() / (d.std(ddof=1) / math.sqrt(40))
    assert r.p_value == pytest.approx((np.sum(np.abs(t_star) >= abs(t_obs)) + 1) / 2001, abs=1e-12)
    assert r.statistic == pytest.approx(t_obs)
    # and it agrees with the t-test within sampling error on normal data
    assert abs(r.p_value - paired_test(a, b).p_value) < 0.05


def test_effect_size_and_means():
    rng = np.random.default_rng(11)
    a, b = rng.random(30), rng.random(30)
    for test in ("t", "wilcoxon", "sign", "randomization", "bootstrap"):
        r = paired_test(a, b, test=test, n_resamples=500)
        d = a - b
        assert r.effect_size == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
        assert (r.mean_a, r.mean_b, r.n, r.test) == (
            pytest.approx(a.mean()),
            pytest.approx(b.mean()),
            30,
            test,
        )
        assert r.ci_low < r.diff < r.ci_high
        assert r.to_dict()["significant"] == (r.p_value < 0.05)


def test_identical_and_constant_differences():
    for test in ("t", "wilcoxon", "sign", "randomization", "bootstrap"):
        r = paired_test([0.1, 0.5, 0.7], [0.1, 0.5, 0.7], test=test, n_resamples=100)
        assert (r.statistic, r.p_value, r.effect_size) == (0.0, 1.0, 0.0)
    r = paired_test([2, 3, 4], [1, 2, 3], test="t")
    assert (r.statistic, r.p_value, r.effect_size) == (math.inf, 0.0, math.inf)


def test_seed_reproducible_and_inputs_untouched():
    rng = np.random.default_rng(2)
    a, b = rng.random(25), rng.random(25)
    a0, b0 = a.copy(), b.copy()
    for test in ("randomization", "bootstrap"):
        assert paired_test(a, b, test=test, seed=4) == paired_test(a, b, test=test, seed=4)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


def test_nan_policy_omit():
    with pytest.warns(OmittedRowsWarning):
        r = paired_test([1.0, np.nan, 3.0, 5.0], [0.0, 1.0, 1.0, 1.0], nan_policy="omit")
    assert r == paired_test([1.0, 3.0, 5.0], [0.0, 1.0, 1.0])


# ------------------------------------------------------------------ errors


def test_error_lengths_differ():
    with pytest.raises(LengthMismatchError, match="a has 3 entries but b has 2"):
        paired_test([1, 2, 3], [1, 2])


def test_error_fewer_than_two_pairs():
    with pytest.raises(EmptyInputError, match="at least 2 pairs"):
        paired_test([1.0], [2.0])


def test_error_unknown_test():
    with pytest.raises(ParameterError, match="test='z'"):
        paired_test([1, 2], [2, 3], test="z")


def test_error_nan_scores():
    with pytest.raises(NonFiniteError, match="a contains 1 NaN"):
        paired_test([1, np.nan, 3], [1, 2, 3])


@pytest.mark.parametrize("alpha", [0, 1, -0.5, 2])
def test_error_alpha(alpha):
    with pytest.raises(ParameterError, match="alpha"):
        paired_test([1, 2, 3], [2, 2, 2], alpha=alpha)


@pytest.mark.parametrize("n_resamples", [0, -5, 2.5])
def test_error_n_resamples(n_resamples):
    with pytest.raises(ParameterError, match="n_resamples"):
        paired_test([1, 2, 3], [2, 2, 2], test="bootstrap", n_resamples=n_resamples)


# ------------------------------------------------------------------ corrections


def test_holm_and_bonferroni_hand_example():
    p = [0.01, 0.04, 0.03, 0.005]
    # Bonferroni: times m = 4.
    assert bonferroni(p) == pytest.approx([0.04, 0.16, 0.12, 0.02], abs=1e-15)
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04;
    # running maximum 0.02, 0.03, 0.06, 0.06; back in input order:
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)


def test_corrections_cap_at_one():
    # Holm: 0.3 x 2 = 0.6, then max(0.6, 0.6 x 1) = 0.6; Bonferroni 0.6 x 2 = 1.2 -> 1.
    assert holm([0.6, 0.3]).tolist() == pytest.approx([0.6, 0.6])
    assert bonferroni([0.6, 0.3]).tolist() == pytest.approx([1.0, 0.6])
    assert holm([0.9, 0.8, 0.95]).tolist() == [1.0, 1.0, 1.0]


def test_holm_properties():
    rng = np.random.default_rng(0)
    for _ in range(50):
        p = rng.random(int(rng.integers(1, 20))) ** 3
        h, bf = holm(p), bonferroni(p)
        assert np.all(h <= bf + 1e-15)
        assert np.all(h >= p)
        order = np.argsort(p, kind="stable")
        assert np.all(np.diff(h[order]) >= 0)  # monotone in the raw p-values
        assert np.all(h <= 1)


def test_corrections_errors():
    with pytest.raises(ScorekitError, match="pvalues must lie in"):
        holm([0.5, 1.5])
    with pytest.raises(NonFiniteError):
        bonferroni([np.nan, 0.1])
    assert holm([]).shape == (0,)
