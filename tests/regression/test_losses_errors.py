"""Issue 18 regression metrics: bad input raises a ScorekitError naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk
from scorekit import DomainError, ParameterError, ShapeError


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: sk.msle([-1.0, 2.0], [1.0, 2.0]), DomainError, "y_true.*-1"),
        (lambda: sk.rmsle([1.0, 2.0], [1.0, -3.0]), DomainError, "y_pred.*-1"),
        (lambda: sk.mean_poisson_deviance([-1.0, 2.0], [1.0, 2.0]), DomainError, "y_true"),
        (lambda: sk.mean_poisson_deviance([1.0, 2.0], [0.0, 2.0]), DomainError, "y_pred"),
        (lambda: sk.mean_gamma_deviance([0.0, 2.0], [1.0, 2.0]), DomainError, "y_true"),
        (lambda: sk.mean_tweedie_deviance([1.0], [-1.0], power=-1), DomainError, "y_pred"),
        (lambda: sk.mean_tweedie_deviance([1.0], [1.0], power=0.5), ParameterError, "power"),
        (lambda: sk.mean_tweedie_deviance([1.0], [1.0], power="1"), ParameterError, "power"),
        (lambda: sk.mean_tweedie_deviance([[1.0, 2.0]], [[1.0, 2.0]]), ShapeError, "single"),
        (lambda: sk.d2_tweedie([0.0, 1.0], [1.0, 1.0], power=2), DomainError, "y_true"),
        (lambda: sk.d2_tweedie([[1.0, 2.0]], [[1.0, 2.0]]), ShapeError, "single"),
        (lambda: sk.mean_pinball_loss([1.0], [1.0], alpha=1.5), ParameterError, "alpha"),
        (lambda: sk.d2_pinball([1.0, 2.0], [1.0, 2.0], alpha=-0.1), ParameterError, "alpha"),
        (
            lambda: sk.d2_absolute_error(
                [[1.0, 2.0], [2, 3]], [[1.0, 2.0], [2, 3]], multioutput="variance_weighted"
            ),
            ParameterError,
            "multioutput",
        ),
        (lambda: sk.smape([1.0, np.nan], [1.0, 2.0]), sk.NonFiniteError, "y_true"),
        (lambda: sk.wmape([1.0, 2.0], [1.0]), sk.LengthMismatchError, "y_pred"),
        (
            lambda: sk.pearson([1.0, 2.0], [1.0, 2.0], sample_weight=[0, 0]),
            sk.EmptyInputError,
            "sums to zero",
        ),
        (lambda: sk.concordance_correlation([], []), sk.ScorekitError, "y_true is empty"),
        (
            lambda: sk.pearson([1.0, 2.0], [1.0, 2.0], sample_weight=[-1, 2]),
            sk.NegativeWeightError,
            "sample_weight",
        ),
    ],
)
def test_bad_input_raises(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_inputs_are_not_modified():
    y, p, w = np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.0, 2.5]), np.array([1.0, 2.0, 3.0])
    copies = y.copy(), p.copy(), w.copy()
    for fn in (sk.msle, sk.smape, sk.wmape, sk.pearson, sk.d2_pinball, sk.mean_gamma_deviance):
        fn(y, p, sample_weight=w)
    for a, b in zip((y, p, w), copies, strict=True):
        np.testing.assert_array_equal(a, b)


def test_worked_examples_by_hand():
    # MSLE: ln(1 + 0) − ln(1 + 3) = −ln 4; one row.
    assert sk.msle([0.0], [3.0]) == np.log1p(3.0) ** 2
    # Poisson: y = 2, ŷ = 1: 2(2 ln 2 − 2 + 1) = 4 ln 2 − 2.
    assert sk.mean_poisson_deviance([2.0], [1.0]) == pytest.approx(4 * np.log(2) - 2, rel=1e-15)
    # Pinball α = 0.25: errors +2 (cost 0.5) and −2 (cost 1.5): mean 1.0.
    assert sk.mean_pinball_loss([3.0, 1.0], [1.0, 3.0], alpha=0.25) == 1.0
    # WMAPE: (1 + 1) / (2 + 6); SMAPE: 2·1/3 and 2·1/11 averaged.
    assert sk.wmape([2.0, 6.0], [3.0, 5.0]) == 0.25
    assert sk.smape([2.0, 6.0], [3.0, 5.0]) == pytest.approx((2 / 5 + 2 / 11) / 2, rel=1e-15)
    # Pearson of a line is ±1 exactly; CCC of identical columns is 1.
    assert sk.pearson([1.0, 2.0, 3.0], [5.0, 3.0, 1.0]) == -1.0
    assert sk.concordance_correlation([1.0, 2.0, 4.0], [1.0, 2.0, 4.0]) == 1.0
