"""delong_test against a direct O(n²) implementation of DeLong et al. (1988)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

from scorekit._errors import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NonFiniteError,
    ParameterError,
    UndefinedMetricWarning,
)
from scorekit.stats import delong_test


def delong_pairwise(y, a, b, alpha=0.05):
    """The definition: placement values from every (positive, negative) pair."""
    y = np.asarray(y, bool)
    v10, v01, aucs = [], [], []
    for s in (np.asarray(a, float), np.asarray(b, float)):
        x, z = s[y][:, None], s[~y][None, :]
        psi = (x > z) + 0.5 * (x == z)  # m x n kernel, ties one half
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
        aucs.append(psi.mean())
    m, n = len(v10[0]), len(v01[0])
    s10, s01 = np.cov(np.vstack(v10)), np.cov(np.vstack(v01))  # ddof = 1
    var = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / m + (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / n
    se = math.sqrt(var)
    diff = aucs[0] - aucs[1]
    z = diff / se
    half = norm.ppf(1 - alpha / 2) * se
    return aucs[0], aucs[1], z, 2 * norm.sf(abs(z)), diff - half, diff + half


@pytest.mark.reference
@pytest.mark.parametrize("seed", range(6))
def test_equals_pairwise_definition_on_tied_data(seed):
    rng = np.random.default_rng(seed)
    n = [7, 40, 150, 400, 900, 60][seed]
    y = rng.random(n) < [0.5, 0.3, 0.1, 0.6, 0.5, 0.5][seed]
    y[:2], y[2:4] = True, False
    a = np.round(rng.normal(y * 0.8, 1), 1)  # heavy ties within and across classes
    b = rng.integers(0, 4, n) + y * rng.integers(0, 2, n)
    if seed == 5:
        a, b = a * 1e9 + 3e12, b * 1e-9  # huge and tiny magnitudes
    r = delong_test(y.astype(int), a, b, alpha=0.1)
    ref = delong_pairwise(y, a, b, alpha=0.1)
    got = (r.auc_a, r.auc_b, r.z, r.p_value, r.ci_low, r.ci_high)
    assert got == pytest.approx(ref, abs=1e-9, rel=1e-9)
    assert (r.n_pos, r.n_neg) == (int(y.sum()), int((~y).sum()))
    assert r.diff == pytest.approx(r.auc_a - r.auc_b, abs=1e-15)


def test_auc_equals_sklearn():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 500)
    a, b = np.round(rng.random(500) + y * 0.3, 2), rng.random(500)
    r = delong_test(y, a, b)
    assert r.auc_a == pytest.approx(sklearn_metrics.roc_auc_score(y, a), abs=1e-12)
    assert r.auc_b == pytest.approx(sklearn_metrics.roc_auc_score(y, b), abs=1e-12)


def test_worked_example():
    # Positives score (0.9, 0.6) and (0.8, 0.7) under (a, b); negatives (0.5, 0.8), (0.1, 0.2).
    # a ranks every positive above every negative: V10 = (1, 1), V01 = (1, 1), AUC 1.
    # b: 0.6 and 0.7 each beat 0.2 only: V10 = (1/2, 1/2); negative 0.8 is beaten by no
    # positive, 0.2 by both: V01 = (0, 1); AUC 1/2. Only var(V01_b) = 1/2 is non-zero, so
    # var(diff) = (1/2) / 2 = 1/4, se = 1/2, z = (1 - 1/2) / (1/2) = 1,
    # p = 2 (1 - Phi(1)) = 0.3173105, interval 1/2 -+ 1.959964 x 1/2.
    r = delong_test([1, 1, 0, 0], [0.9, 0.8, 0.5, 0.1], [0.6, 0.7, 0.8, 0.2])
    assert (r.auc_a, r.auc_b, r.se, r.z) == (1.0, 0.5, 0.5, 1.0)
    assert r.p_value == pytest.approx(0.31731050786291415, abs=1e-12)
    assert (r.ci_low, r.ci_high) == pytest.approx((0.5 - 0.979981992, 0.5 + 0.979981992), abs=1e-8)


def test_symmetry_and_identical_scores():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 300)
    a, b = rng.random(300) + y * 0.2, rng.random(300)
    ab, ba = delong_test(y, a, b), delong_test(y, b, a)
    assert ab.z == pytest.approx(-ba.z)
    assert ab.p_value == pytest.approx(ba.p_value)
    same = delong_test(y, a, a)
    assert (same.z, same.p_value, same.ci_low, same.ci_high) == (0.0, 1.0, 0.0, 0.0)


def test_string_labels_with_pos_label_and_inputs_untouched():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 80)
    a, b = rng.random(80), rng.random(80)
    a0 = a.copy()
    labels = np.where(y == 1, "spam", "ham")
    assert delong_test(labels, a, b, pos_label="spam") == delong_test(y, a, b)
    np.testing.assert_array_equal(a, a0)


def test_one_class_warns_and_gives_nan():
    with pytest.warns(UndefinedMetricWarning, match="only one class"):
        r = delong_test([1, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1])
    assert math.isnan(r.auc_a)
    assert math.isnan(r.p_value)


def test_single_positive_warns_for_the_variance():
    with pytest.warns(UndefinedMetricWarning, match="2 of each"):
        r = delong_test([1, 0, 0], [0.9, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert (r.auc_a, r.auc_b) == (1.0, 0.0)
    assert math.isnan(r.z)


def test_error_lengths_differ():
    with pytest.raises(LengthMismatchError, match="score_b"):
        delong_test([0, 1, 1], [0.1, 0.2, 0.3], [0.1, 0.2])


def test_error_empty():
    with pytest.raises(EmptyInputError):
        delong_test([], [], [])


def test_error_nan_score():
    with pytest.raises(NonFiniteError, match="score_a"):
        delong_test([0, 1, 1], [0.1, np.nan, 0.3], [0.1, 0.2, 0.3])


def test_error_labels_not_binary():
    with pytest.raises(LabelError):
        delong_test([0, 1, 2], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3])


def test_error_alpha():
    with pytest.raises(ParameterError, match="alpha"):
        delong_test([0, 1, 1], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3], alpha=1.5)
