r"""D² scores: the fraction of a deviance (or pinball loss) explained, as scikit-learn.

``d2_pinball`` and ``d2_absolute_error`` compare the model's pinball loss with
that of the constant ``alpha``-quantile of ``y_true`` (scikit-learn 1.9's weighted
percentile, "averaged inverted CDF"); ``d2_tweedie`` compares the Tweedie
deviance with that of the weighted mean of ``y_true``. Both losses are exact
weighted sums and ``1 − num/den`` is rounded once. These are one-shot only: the
quantile of ``y_true`` is an order statistic, not a sum, so no accumulator keeps
a mergeable state for ``d2_pinball`` / ``d2_absolute_error`` (it would have to
keep every row); ``d2_tweedie`` needs the exact mean of ``y_true`` before the
deviance of that mean can be summed, i.e. two passes, and is one-shot too.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .._typing import ArrayLike, FloatArray
from .._validation import undefined
from ._inputs import output_weights, regression_inputs
from ._losses import (
    _one_output,
    check_alpha,
    check_power,
    loss_sums,
    mean_of_sums,
    pinball_values,
    tweedie_values,
)
from ._moments import _explained_fraction, _fraction_score
from ._robust import _weighted_quantile

__all__ = ["d2_absolute_error", "d2_pinball", "d2_tweedie"]


def d2_pinball(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    alpha: float = 0.5,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""D² of the pinball loss (scikit-learn's ``d2_pinball_score``).

    .. math:: D^2 = 1 - \frac{L_\alpha(y, \hat y)}{L_\alpha(y, q_\alpha(y))}

    ``q_α(y)`` is the weighted ``alpha``-quantile of each ``y_true`` column.
    A zero numerator gives 1, a zero denominator 0 (scikit-learn's
    ``force_finite``); fewer than two rows warn and give ``nan``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    alpha : float in [0, 1], default=0.5
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    y = 1, 2, 3, 4 has median 2.5 (losses 0.5·(1.5 + 0.5 + 0.5 + 1.5)/4 = 0.5);
    predicting y − 0.5 costs 0.25:

    >>> d2_pinball([1.0, 2.0, 3.0, 4.0], [0.5, 1.5, 2.5, 3.5])
    0.5
    """
    a = check_alpha(alpha)
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    output_weights(multioutput, y.shape[1])
    if y.shape[0] < 2:
        return undefined("d2_pinball", "D^2 needs at least two samples")
    weights = np.ones(y.shape[0]) if w is None else w
    quantile = np.array([_weighted_quantile(col, weights, a) for col in y.T])
    num, _ = loss_sums(pinball_values(y, p, a), w)
    den, _ = loss_sums(pinball_values(y, np.broadcast_to(quantile, y.shape), a), w)
    return _explained_fraction(
        [_fraction_of(x) for x in num], [_fraction_of(x) for x in den], multioutput, True
    )


def d2_absolute_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""D² of the absolute error (scikit-learn's ``d2_absolute_error_score``).

    .. math:: D^2 = 1 - \frac{\sum_i w_i |y_i - \hat y_i|}{\sum_i w_i |y_i - \operatorname{median}_w(y)|}

    :func:`d2_pinball` with ``alpha=0.5``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    multioutput : {"raw_values", "uniform_average", "variance_weighted"} or array-like
        How the outputs of a 2-D target are combined.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    >>> d2_absolute_error([1.0, 2.0, 3.0, 4.0], [0.5, 1.5, 2.5, 3.5])
    0.5
    """
    return d2_pinball(
        y_true, y_pred, sample_weight=sample_weight, alpha=0.5, multioutput=multioutput,
        nan_policy=nan_policy,
    )  # fmt: skip


def d2_tweedie(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    power: float = 0.0,
    nan_policy: str = "raise",
) -> float:
    r"""D² of the Tweedie deviance (scikit-learn's ``d2_tweedie_score``), one output.

    .. math:: D^2 = 1 - \frac{\sum_i w_i d_p(y_i, \hat y_i)}{\sum_i w_i d_p(y_i, \bar y_w)}

    ``power=0`` is R². No ``force_finite``: a constant ``y_true`` gives ``nan``
    or ``-inf`` as scikit-learn does; fewer than two rows warn and give ``nan``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
    power : float, default=0
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    ``power=0``: 1 − SSE/SST = 1 − 2/8 for y = 1, 3, 5 predicted 2, 3, 4:

    >>> d2_tweedie([1.0, 3.0, 5.0], [2.0, 3.0, 4.0])
    0.75
    """
    q = check_power(power)
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    _one_output(y, "d2_tweedie")
    if y.shape[0] < 2:
        tweedie_values(y, p, q)  # the domain is still checked
        return undefined("d2_tweedie", "D^2 needs at least two samples")
    num, _ = loss_sums(tweedie_values(y, p, q), w)
    mean = mean_of_sums(*loss_sums(y, w))
    den, _ = loss_sums(tweedie_values(y, np.broadcast_to(mean, y.shape), q), w)
    return _fraction_score(_fraction_of(num[0]), _fraction_of(den[0]), False)


def _fraction_of(s: int | float) -> Fraction | float:
    """An exact sum as a Fraction (units of 2**-1074 cancel in the ratios), float if not finite."""
    return s if isinstance(s, float) else Fraction(s)
