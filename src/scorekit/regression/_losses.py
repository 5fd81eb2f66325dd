r"""Regression losses that are weighted means of a per-row value, summed exactly.

MSLE and RMSLE, the Tweedie deviances (Poisson, gamma, any power), the pinball
loss, SMAPE and WMAPE. Each per-row value is computed with scikit-learn's (or
torchmetrics') own float64 expression; the weighted sums are exact
(:class:`scorekit._exactsum.ExactSums`, products ``w·v`` through Dekker's
error-free product) and each mean is rounded once, so the result is the correctly
rounded weighted mean of those per-row values (scikit-learn's ``np.average``
agrees to its own rounding). :func:`loss_sums` is the mergeable state that
:class:`scorekit.stream.RegressionLosses` keeps.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .._errors import DomainError, ParameterError, ShapeError
from .._exactsum import UNIT_EXP, ExactSum, ExactSums, as_fraction, to_float, two_product
from .._typing import ArrayLike, FloatArray
from .._validation import zero_weight_error
from ._inputs import average_outputs, output_weights, regression_inputs

__all__ = [
    "mean_gamma_deviance",
    "mean_pinball_loss",
    "mean_poisson_deviance",
    "mean_tweedie_deviance",
    "msle",
    "rmsle",
    "smape",
    "wmape",
]

#: torchmetrics' epsilon for SMAPE and WMAPE denominators.
TM_EPS = 1.17e-06


def loss_sums(values: FloatArray, w: FloatArray | None) -> tuple[list[ExactSum], ExactSum]:
    """Exact ``Σ w·v`` per column of ``values`` (n, k) and exact ``Σ w`` (n rows unweighted)."""
    n, k = values.shape
    acc = ExactSums(k + 1)
    with np.errstate(all="ignore"):
        if w is not None:
            acc.add(k, np.ascontiguousarray(w))
        for j in range(k):
            col = np.ascontiguousarray(values[:, j])
            if w is None:
                acc.add(j, col)
            else:
                for part in two_product(w, col):
                    acc.add(j, part)
    totals = acc.result()
    return totals[:k], (n << UNIT_EXP) if w is None else totals[k]


def exact_ratio(num: ExactSum, den: ExactSum) -> float:
    """``num / den`` rounded once (floats only after an overflow to inf/nan)."""
    if isinstance(num, float) or isinstance(den, float):
        with np.errstate(all="ignore"):
            return float(np.float64(to_float(num)) / np.float64(to_float(den)))
    return float(Fraction(num, den)) if den else float("nan")


def mean_of_sums(sums: list[ExactSum], weight: ExactSum) -> FloatArray:
    """Per-column ``Σ w·v / Σ w``, each rounded once; a zero total weight raises."""
    if not (isinstance(weight, float) or weight > 0):
        raise zero_weight_error()
    return np.array([exact_ratio(s, weight) for s in sums])


def weighted_means(values: FloatArray, w: FloatArray | None) -> FloatArray:
    """Correctly rounded weighted mean of each column of ``values``."""
    return mean_of_sums(*loss_sums(values, w))


def _above(x: FloatArray, bound: float, name: str, what: str, strict: bool = True) -> None:
    bad = (x <= bound) if strict else (x < bound)
    if bad.any():
        raise DomainError(f"{name} has {int(bad.sum())} values {what}")


def log_error_values(y: FloatArray, p: FloatArray) -> FloatArray:
    """``(log1p(y) − log1p(ŷ))²`` per row; raises unless every value is above −1."""
    _above(y, -1.0, "y_true", "<= -1 (MSLE needs log1p of every value)")
    _above(p, -1.0, "y_pred", "<= -1 (MSLE needs log1p of every value)")
    d: FloatArray = np.log1p(y) - np.log1p(p)
    return d * d


def check_power(power: Any) -> float:
    """A Tweedie power: a real number ``<= 0`` or ``>= 1``."""
    if isinstance(power, bool) or not isinstance(power, (int, float, np.integer, np.floating)):
        raise ParameterError(f"power={power!r} must be a real number <= 0 or >= 1")
    value = float(power)
    if not np.isfinite(value) or 0 < value < 1:
        raise ParameterError(f"power={power!r} must be a real number <= 0 or >= 1")
    return value


def tweedie_values(y: FloatArray, p: FloatArray, power: float) -> FloatArray:
    """Unit Tweedie deviance per row, scikit-learn's expression; domain checked."""
    what = f"outside the domain of the Tweedie deviance with power={power:g}"
    if power < 0:
        _above(p, 0.0, "y_pred", f"<= 0: {what}")
    elif 1 <= power < 2:
        _above(y, 0.0, "y_true", f"< 0: {what}", strict=False)
        _above(p, 0.0, "y_pred", f"<= 0: {what}")
    elif power >= 2:
        _above(y, 0.0, "y_true", f"<= 0: {what}")
        _above(p, 0.0, "y_pred", f"<= 0: {what}")
    q = power
    with np.errstate(all="ignore"):
        if q < 0:
            dev = 2 * (
                np.power(np.where(y > 0, y, 0.0), 2 - q) / ((1 - q) * (2 - q))
                - y * np.power(p, 1 - q) / (1 - q)
                + np.power(p, 2 - q) / (2 - q)
            )
        elif q == 0:
            dev = (y - p) ** 2
        elif q == 1:
            from scipy.special import xlogy  # here: scipy.special is slow to import

            dev = 2 * (xlogy(y, y / p) - y + p)
        elif q == 2:
            dev = 2 * (np.log(p / y) + y / p - 1)
        else:
            dev = 2 * (
                np.power(y, 2 - q) / ((1 - q) * (2 - q))
                - y * np.power(p, 1 - q) / (1 - q)
                + np.power(p, 2 - q) / (2 - q)
            )
    out: FloatArray = np.asarray(dev, dtype=np.float64)
    return out


def check_alpha(alpha: Any) -> float:
    """A quantile level in [0, 1] (scikit-learn's range for the pinball loss)."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)):
        raise ParameterError(f"alpha={alpha!r} must be a number in [0, 1]")
    if not 0 <= float(alpha) <= 1:
        raise ParameterError(f"alpha={alpha!r} must be a number in [0, 1]")
    return float(alpha)


def pinball_values(y: FloatArray, p: FloatArray, alpha: float) -> FloatArray:
    """Pinball loss per row: ``α·d`` above, ``(α − 1)·d`` below (``d = y − ŷ``), sklearn's expression."""
    diff = y - p
    sign = (diff >= 0).astype(np.float64)
    out: FloatArray = alpha * sign * diff - (1 - alpha) * (1 - sign) * diff
    return out


def smape_values(y: FloatArray, p: FloatArray) -> FloatArray:
    """``2·|ŷ − y| / max(|y| + |ŷ|, 1.17e-6)`` per row (torchmetrics)."""
    out: FloatArray = 2 * (np.abs(p - y) / np.maximum(np.abs(y) + np.abs(p), TM_EPS))
    return out


def _one_output(y: FloatArray, name: str) -> None:
    if y.shape[1] != 1:
        raise ShapeError(f"{name} supports a single output; got {y.shape[1]} outputs")


def msle(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Mean squared logarithmic error (scikit-learn's ``mean_squared_log_error``).

    .. math:: \mathrm{MSLE} = \frac{\sum_i w_i (\ln(1 + y_i) - \ln(1 + \hat y_i))^2}{\sum_i w_i}

    Every value must be above −1 (else :class:`~scorekit.DomainError`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    ``ln(1 + 0) − ln(1 + (e − 1)) = −1`` on the one row:

    >>> msle([0.0], [np.e - 1])
    1.0
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    return average_outputs(weighted_means(log_error_values(y, p), w), weights)


def rmsle(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Root mean squared logarithmic error (scikit-learn's ``root_mean_squared_log_error``).

    .. math:: \mathrm{RMSLE} = \sqrt{\mathrm{MSLE}}

    The root is taken per output, then averaged (as scikit-learn). Parameters
    are those of :func:`msle`.

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
    >>> rmsle([0.0, 0.0], [np.e - 1, np.e - 1])
    1.0
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    return average_outputs(np.sqrt(weighted_means(log_error_values(y, p), w)), weights)


def mean_tweedie_deviance(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    power: float = 0.0,
    nan_policy: str = "raise",
) -> float:
    r"""Mean Tweedie deviance (scikit-learn's ``mean_tweedie_deviance``), one output.

    .. math:: d_p(y, \hat y) = 2\Big(\frac{\max(y, 0)^{2-p}}{(1-p)(2-p)}
              - \frac{y\,\hat y^{1-p}}{1-p} + \frac{\hat y^{2-p}}{2-p}\Big)

    with the limits ``(y − ŷ)²`` (p = 0), ``2(y ln(y/ŷ) − y + ŷ)`` (p = 1, Poisson)
    and ``2(ln(ŷ/y) + y/ŷ − 1)`` (p = 2, gamma). ``power`` must be ``<= 0`` or
    ``>= 1``; the domain (``ŷ > 0`` for p < 0 or p >= 1, ``y >= 0`` for
    1 <= p < 2, ``y > 0`` for p >= 2) is checked (:class:`~scorekit.DomainError`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
    power : float, default=0
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    Gamma (p = 2) of y = 1, ŷ = 2: ``2(ln 2 + 1/2 − 1)``:

    >>> round(mean_tweedie_deviance([1.0], [2.0], power=2), 12)  # 2(0.693147… − 0.5)
    0.38629436112
    """
    q = check_power(power)
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    _one_output(y, "mean_tweedie_deviance")
    return float(weighted_means(tweedie_values(y, p, q), w)[0])


def mean_poisson_deviance(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Mean Poisson deviance: :func:`mean_tweedie_deviance` with ``power=1``.

    .. math:: \frac{1}{\sum w}\sum_i w_i\, 2\big(y_i \ln(y_i/\hat y_i) - y_i + \hat y_i\big)

    ``y_true >= 0`` and ``y_pred > 0``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    y = 0, ŷ = 3 gives 2·3:

    >>> mean_poisson_deviance([0.0], [3.0])
    6.0
    """
    return mean_tweedie_deviance(
        y_true, y_pred, sample_weight=sample_weight, power=1, nan_policy=nan_policy
    )


def mean_gamma_deviance(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Mean gamma deviance: :func:`mean_tweedie_deviance` with ``power=2``.

    .. math:: \frac{1}{\sum w}\sum_i w_i\, 2\big(\ln(\hat y_i / y_i) + y_i/\hat y_i - 1\big)

    ``y_true > 0`` and ``y_pred > 0``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    >>> mean_gamma_deviance([2.0, 3.0], [2.0, 3.0])
    0.0
    """
    return mean_tweedie_deviance(
        y_true, y_pred, sample_weight=sample_weight, power=2, nan_policy=nan_policy
    )


def mean_pinball_loss(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    alpha: float = 0.5,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Mean pinball (quantile) loss (scikit-learn's ``mean_pinball_loss``).

    .. math:: L_\alpha = \frac{1}{\sum w}\sum_i w_i\big(\alpha \max(d_i, 0)
              + (1 - \alpha)\max(-d_i, 0)\big), \quad d_i = y_i - \hat y_i

    ``alpha = 0.5`` is half the MAE.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    alpha : float in [0, 1], default=0.5
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    Under-prediction by 2 at α = 0.9 costs 1.8, over-prediction by 2 costs 0.2:

    >>> mean_pinball_loss([3.0, 1.0], [1.0, 3.0], alpha=0.9)
    1.0
    """
    a = check_alpha(alpha)
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    return average_outputs(weighted_means(pinball_values(y, p, a), w), weights)


def smape(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Symmetric mean absolute percentage error (torchmetrics' definition, in [0, 2]).

    .. math:: \mathrm{SMAPE} = \frac{1}{\sum w}\sum_i w_i
              \frac{2\,|\hat y_i - y_i|}{\max(|y_i| + |\hat y_i|, \epsilon)},
              \quad \epsilon = 1.17\cdot 10^{-6}

    torchmetrics' ``symmetric_mean_absolute_percentage_error`` (no factor 100;
    ``sample_weight`` extends it as a weighted mean; outputs are averaged as
    ``multioutput`` says, torchmetrics pools them).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    y = 1, ŷ = 3: 2·2 / 4 = 1; y = ŷ = 0: 0 (the denominator is ε):

    >>> smape([1.0, 0.0], [3.0, 0.0])
    0.5
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    return average_outputs(weighted_means(smape_values(y, p), w), weights)


def wmape(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Weighted mean absolute percentage error (torchmetrics' definition).

    .. math:: \mathrm{WMAPE} = \frac{\sum_i w_i |y_i - \hat y_i|}{\max(\sum_i w_i |y_i|, \epsilon)},
              \quad \epsilon = 1.17\cdot 10^{-6}

    torchmetrics' ``weighted_mean_absolute_percentage_error`` (the "weights" are
    the actuals ``|y|``; ``sample_weight`` multiplies both sums). Both sums are
    exact, the ratio rounded once.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    Absolute errors 1 + 1 over actuals 2 + 6:

    >>> wmape([2.0, 6.0], [3.0, 5.0])
    0.25
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    return average_outputs(wmape_from_sums(*wmape_sums(y, p, w)), weights)


def wmape_sums(
    y: FloatArray, p: FloatArray, w: FloatArray | None
) -> tuple[list[ExactSum], list[ExactSum]]:
    """Exact ``Σ w·|y − ŷ|`` and ``Σ w·|y|`` per output."""
    k = y.shape[1]
    sums, _ = loss_sums(np.concatenate([np.abs(y - p), np.abs(y)], axis=1), w)
    return sums[:k], sums[k:]


def wmape_from_sums(errors: list[ExactSum], actuals: list[ExactSum]) -> FloatArray:
    """``Σ w|e| / max(Σ w|y|, ε)`` per output, rounded once."""
    eps = Fraction(TM_EPS)
    out = []
    for e, a in zip(errors, actuals, strict=True):
        if isinstance(e, float) or isinstance(a, float):
            out.append(exact_ratio(e, a))
            continue
        den = max(as_fraction(a), eps)
        out.append(float(as_fraction(e) / den))
    return np.array(out)
