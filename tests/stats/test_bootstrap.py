"""bootstrap_ci against scipy.stats.bootstrap (identical resamples) and against DeLong."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
import scipy.stats as ss

import scorekit.stats._bootstrap as boot
from scorekit._errors import (
    EmptyInputError,
    LengthMismatchError,
    ParameterError,
    ScorekitError,
    UndefinedMetricWarning,
)
from scorekit.stats import bootstrap_ci
from scorekit.stats._delong import placements


def _auc(y, s, sample_weight=None):
    """Local exact AUC (ties one half) via pairwise comparison; nan with one class."""
    y = np.asarray(y).astype(bool)
    s = np.asarray(s, float)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    wp, wn = w[y], w[~y]
    if wp.sum() == 0 or wn.sum() == 0:
        return math.nan
    x, z = s[y][:, None], s[~y][None, :]
    psi = (x > z) + 0.5 * (x == z)
    return float(wp @ psi @ wn / (wp.sum() * wn.sum()))


def _auc_by_ranks(y, s):
    """Unweighted AUC from midranks (Mann-Whitney), O(n log n), for larger samples."""
    y = np.asarray(y).astype(bool)
    r = ss.rankdata(s)
    m = y.sum()
    return (r[y].sum() - m * (m + 1) / 2) / (m * (len(y) - m))


def _data(n, seed, ties=True):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    y[:2], y[2:4] = 1, 0
    s = rng.normal(y * 0.8, 1)
    return y, np.round(s, 1) if ties else s


@pytest.mark.reference
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_generic_equals_scipy_bootstrap(method):
    rng = np.random.default_rng(0)
    x, y = rng.exponential(size=60), rng.normal(size=60)

    def stat(a, b):
        return float(np.mean(a) - np.median(b))

    ours = bootstrap_ci(stat, x, y, n_resamples=800, confidence=0.9, seed=42, method=method)
    ref = ss.bootstrap(
        (x, y),
        stat,
        paired=True,
        vectorized=False,
        n_resamples=800,
        confidence_level=0.9,
        method=method,
        rng=np.random.default_rng(42),
    ).confidence_interval
    assert ours == pytest.approx((ref.low, ref.high), abs=1e-12)


@pytest.mark.reference
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_auc_fast_path_equals_scipy_bootstrap(method):
    y, s = _data(150, 1)
    ours = bootstrap_ci("roc_auc", y, s, n_resamples=600, seed=7, method=method)
    ref = ss.bootstrap(
        (y, s),
        _auc,
        paired=True,
        vectorized=False,
        n_resamples=600,
        method=method,
        rng=np.random.default_rng(7),
    ).confidence_interval
    assert ours == pytest.approx((ref.low, ref.high), abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_auc_fast_path_equals_generic_path_with_weights(method):
    y, s = _data(120, 2)
    w = np.random.default_rng(2).integers(0, 4, 120).astype(float)
    fast = bootstrap_ci("roc_auc", y, s, n_resamples=400, seed=1, method=method, sample_weight=w)
    slow = bootstrap_ci(_auc, y, s, n_resamples=400, seed=1, method=method, sample_weight=w)
    assert fast == pytest.approx(slow, abs=1e-12)


def test_auc_fast_path_string_labels_and_pos_label():
    y, s = _data(100, 3)
    labels = np.where(y == 1, "pos", "neg")
    got = bootstrap_ci("roc_auc", labels, s, n_resamples=300, seed=0, pos_label="pos")
    assert got == bootstrap_ci("roc_auc", y, s, n_resamples=300, seed=0)


def test_scorekit_roc_auc_is_recognised_by_identity(monkeypatch):
    curves = sys.modules["scorekit.classification._curves"]
    y, s = _data(80, 4)
    fake = getattr(curves, "roc_auc", None)
    if fake is None:  # scorekit.roc_auc not written yet: stand in for it

        def fake(y_true, y_score, *, sample_weight=None, pos_label=None):
            return _auc(y_true, y_score, sample_weight)

        monkeypatch.setattr(curves, "roc_auc", fake, raising=False)

    def no_generic(*args, **kwargs):
        raise AssertionError("the generic path ran")

    expected = bootstrap_ci("roc_auc", y, s, n_resamples=200, seed=3)
    monkeypatch.setattr(boot, "_generic_resamples", no_generic)
    assert bootstrap_ci(fake, y, s, n_resamples=200, seed=3) == expected
    # a look-alike function is not the fast path
    with pytest.raises(AssertionError, match="generic path"):
        bootstrap_ci(lambda a, b: fake(a, b), y, s, n_resamples=10, seed=3)


def test_auc_interval_agrees_with_delong_at_4000():
    # Bootstrap and DeLong estimate the same sampling variance; their 95% intervals
    # should agree to within sampling error (here: 10% of the interval's width).
    rng = np.random.default_rng(10)
    n = 4000
    y = (rng.random(n) < 0.3).astype(int)
    a = np.round(rng.normal(y * 1.0, 1), 2)
    b = a + rng.normal(0, 0.8, n)
    # One AUC, fast path: DeLong's variance is var(V10)/m + var(V01)/n.
    v10, v01 = placements(y.astype(bool), a)
    auc = v10.mean()
    se = math.sqrt(v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size)
    width = 2 * 1.959964 * se
    lo, hi = bootstrap_ci("roc_auc", y, a, n_resamples=2000, seed=0)
    assert abs(lo - (auc - width / 2)) < 0.1 * width
    assert abs(hi - (auc + width / 2)) < 0.1 * width
    # The difference of two correlated AUCs (joint resampling) against delong_test's interval.
    from scorekit.stats import delong_test

    d = delong_test(y, a, b)
    lo, hi = bootstrap_ci(
        lambda t, p, q: _auc_by_ranks(t, p) - _auc_by_ranks(t, q), y, a, b, n_resamples=600, seed=0
    )
    width = d.ci_high - d.ci_low
    assert abs(lo - d.ci_low) < 0.12 * width
    assert abs(hi - d.ci_high) < 0.12 * width


def test_seed_reproducible():
    y, s = _data(200, 5)
    one = bootstrap_ci("roc_auc", y, s, n_resamples=300, seed=11, method="bca")
    assert one == bootstrap_ci("roc_auc", y, s, n_resamples=300, seed=11, method="bca")
    assert one != bootstrap_ci("roc_auc", y, s, n_resamples=300, seed=12, method="bca")
    gen = bootstrap_ci(np.mean, s, n_resamples=300, seed=np.random.default_rng(11))
    assert gen == bootstrap_ci(np.mean, s, n_resamples=300, seed=11)


def test_many_blocks(monkeypatch):
    # Small blocks: the same resamples drawn in several calls still give a valid interval
    monkeypatch.setattr(boot, "_BLOCK_ELEMENTS", 500)
    y, s = _data(100, 6)
    fast = bootstrap_ci("roc_auc", y, s, n_resamples=57, seed=2)
    slow = bootstrap_ci(_auc, y, s, n_resamples=57, seed=2)
    assert fast == pytest.approx(slow, abs=1e-12)


def test_percentile_worked_example():
    # Resamples of (0, 10) have mean 0, 5 or 10 with probabilities 1/4, 1/2, 1/4; a 50%
    # interval from many resamples is the 25% and 75% quantiles: 0-5 and 5-10 borders.
    lo, hi = bootstrap_ci(np.mean, [0.0, 10.0], n_resamples=4000, confidence=0.5, seed=0)
    assert 0.0 <= lo <= 5.0 <= hi <= 10.0
    assert bootstrap_ci(np.mean, [2.0, 2.0, 2.0], seed=0, method="bca") == (2.0, 2.0)


def test_undefined_resamples_are_dropped_with_a_warning():
    y = np.array([1, 0, 0, 0, 0, 1, 0, 0])
    s = np.array([0.9, 0.1, 0.3, 0.2, 0.5, 0.4, 0.6, 0.7])
    with pytest.warns(UndefinedMetricWarning, match="undefined .nan. on"):
        fast = bootstrap_ci("roc_auc", y, s, n_resamples=300, seed=0)
    with pytest.warns(UndefinedMetricWarning, match="undefined .nan. on"):
        slow = bootstrap_ci(_auc, y, s, n_resamples=300, seed=0)
    assert fast == pytest.approx(slow, abs=1e-12)


def test_one_class_data_gives_nan():
    with pytest.warns(UndefinedMetricWarning):
        lo, hi = bootstrap_ci("roc_auc", [1, 1, 1], [0.1, 0.2, 0.3], n_resamples=20, seed=0)
    assert math.isnan(lo)
    assert math.isnan(hi)


def test_inputs_untouched():
    y, s = _data(50, 7)
    y0, s0 = y.copy(), s.copy()
    bootstrap_ci("roc_auc", y, s, n_resamples=50, seed=0, method="bca")
    bootstrap_ci(_auc, y, s, n_resamples=50, seed=0, method="bca")
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s, s0)


def test_error_unknown_method():
    with pytest.raises(ParameterError, match="method='student'"):
        bootstrap_ci(np.mean, [1.0, 2.0], method="student")


@pytest.mark.parametrize("confidence", [0, 1, 95])
def test_error_confidence(confidence):
    with pytest.raises(ParameterError, match="confidence"):
        bootstrap_ci(np.mean, [1.0, 2.0], confidence=confidence)


def test_error_n_resamples():
    with pytest.raises(ParameterError, match="n_resamples"):
        bootstrap_ci(np.mean, [1.0, 2.0], n_resamples=0)


def test_error_lengths_differ():
    with pytest.raises(LengthMismatchError):
        bootstrap_ci(_auc, [0, 1, 1], [0.1, 0.2])


def test_error_no_arrays():
    with pytest.raises(ParameterError, match="at least one data array"):
        bootstrap_ci(np.mean)


def test_error_empty():
    with pytest.raises(EmptyInputError):
        bootstrap_ci(np.mean, [])


def test_error_unknown_metric_name():
    with pytest.raises(ParameterError, match="metric='auc'"):
        bootstrap_ci("auc", [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])


def test_roc_auc_name_outside_the_fast_path_calls_scorekit_roc_auc():
    curves = sys.modules["scorekit.classification._curves"]
    if getattr(curves, "roc_auc", None) is None:
        pytest.skip("scorekit.roc_auc is not available yet")
    y, s = _data(60, 8)
    kw = {"n_resamples": 50, "seed": 0, "max_fpr": 0.5}
    assert bootstrap_ci("roc_auc", y, s, **kw) == bootstrap_ci(curves.roc_auc, y, s, **kw)
    with pytest.raises(ScorekitError):  # multiclass needs multi_class= and 2-D scores
        bootstrap_ci("roc_auc", [0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4])


def test_error_metric_not_scalar():
    with pytest.raises(ParameterError, match="scalar"):
        bootstrap_ci(lambda x: np.asarray(x) * 2, [1.0, 2.0, 3.0], n_resamples=5)
