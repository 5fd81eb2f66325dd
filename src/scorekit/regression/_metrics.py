"""Moment-based regression metrics: validation, then the kernels of ``_moments``.

Each function equals its scikit-learn counterpart (named in the docstring) to
rounding (ours is correctly rounded: every sum is exact, see ``_moments``), with the same ``sample_weight`` and ``multioutput`` semantics:
``"raw_values"`` returns one value per output, ``"uniform_average"`` their mean,
an array their weighted mean; R² and explained variance also take
``"variance_weighted"`` (weights = the variance of each ``y_true`` column).
Differences: NaN/inf rows raise unless ``nan_policy="omit"``; negative or
all-zero weights (``sample_weight`` or ``multioutput``) raise; a constant
``y_true`` column has a variance of exactly 0 even when its mean is not
representable (three 0.1s), where scikit-learn divides by ~1e-33.
"""

from __future__ import annotations

from typing import Any

from .._errors import ShapeError
from .._typing import ArrayLike, FloatArray
from ._inputs import FRACTION_OPTIONS, output_weights, regression_inputs
from ._moments import (
    _explained_variance_from_moments,
    _mae_from_moments,
    _mape_from_moments,
    _max_error_from_moments,
    _moments,
    _moments_checked,
    _mse_from_moments,
    _r2_from_moments,
    _rmse_from_moments,
)

__all__ = ["explained_variance", "mae", "mape", "max_error", "mse", "r2", "rmse"]


def mae(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Mean absolute error (scikit-learn's ``mean_absolute_error``).

    .. math:: \mathrm{MAE} = \frac{\sum_i w_i |y_i - \hat y_i|}{\sum_i w_i}

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        An array with ``multioutput="raw_values"``.

    Examples
    --------
    Errors 0.5, 0.5, 0 and 1 average to 2 / 4:

    >>> mae([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    >>> mae([[1, 2], [3, 4]], [[1, 4], [2, 4]], multioutput="raw_values")
    array([0.5, 1. ])
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy, check_finite=False)
    multioutput = output_weights(multioutput, y.shape[1])
    return _mae_from_moments(_moments_checked(y, p, w, nan_policy, ("sae",)), multioutput)


def mse(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Mean squared error (scikit-learn's ``mean_squared_error``).

    .. math:: \mathrm{MSE} = \frac{\sum_i w_i (y_i - \hat y_i)^2}{\sum_i w_i}

    Parameters and conventions are :func:`mae`'s.

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
    Squared errors 0.25, 0.25, 0 and 1 average to 1.5 / 4:

    >>> mse([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.375
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy, check_finite=False)
    multioutput = output_weights(multioutput, y.shape[1])
    return _mse_from_moments(_moments_checked(y, p, w, nan_policy, ("sse",)), multioutput)


def rmse(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Root mean squared error (scikit-learn's ``root_mean_squared_error``).

    .. math:: \mathrm{RMSE} = \sqrt{\mathrm{MSE}}

    With several outputs the root is taken per output, then the roots are
    averaged (scikit-learn's convention). Parameters and conventions are :func:`mae`'s.

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
    Errors −3 and 3 give MSE (9 + 9) / 2 = 9, whose root is 3:

    >>> rmse([0, 0], [3, -3])
    3.0
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy, check_finite=False)
    multioutput = output_weights(multioutput, y.shape[1])
    return _rmse_from_moments(_moments_checked(y, p, w, nan_policy, ("sse",)), multioutput)


def mape(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Mean absolute percentage error (scikit-learn's ``mean_absolute_percentage_error``).

    .. math:: \mathrm{MAPE} = \frac{\sum_i w_i |y_i - \hat y_i| / \max(|y_i|, \epsilon)}
              {\sum_i w_i}

    A fraction, not a percentage (0.25 is 25 %). ε is the float64 machine
    epsilon, so ``y_true == 0`` gives a huge but finite term, as in
    scikit-learn. Parameters and conventions are :func:`mae`'s.

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
    Relative errors 0.5/1, 0/2 and 1/4 average to 0.75 / 3:

    >>> mape([1, 2, 4], [1.5, 2, 3])
    0.25
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    multioutput = output_weights(multioutput, y.shape[1])
    return _mape_from_moments(_moments(y, p, w, need=("sape",)), multioutput)


def max_error(y_true: ArrayLike, y_pred: ArrayLike, *, nan_policy: str = "raise") -> float:
    r"""Largest absolute residual (scikit-learn's ``max_error``).

    .. math:: \max_i |y_i - \hat y_i|

    Single output only: 2-D input with several columns raises ``ShapeError``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    >>> max_error([3, 2, 7, 1], [4, 2, 7, 1])
    1.0
    """
    y, p, _ = regression_inputs(y_true, y_pred, None, nan_policy)
    if y.shape[1] != 1:
        raise ShapeError(f"max_error supports a single output; got {y.shape[1]} outputs")
    return _max_error_from_moments(_moments(y, p, None, need=("max_abs_err",)))


def r2(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    force_finite: bool = True,
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Coefficient of determination R² (scikit-learn's ``r2_score``).

    .. math:: R^2 = 1 - \frac{\sum_i w_i (y_i - \hat y_i)^2}{\sum_i w_i (y_i - \bar y_w)^2}

    Sums are exact and the ratio is rounded once, so values around 1e9 lose
    no digits. Conventions (scikit-learn's): with
    ``force_finite=True`` a constant ``y_true`` column scores 1.0 when predicted
    exactly and 0.0 otherwise (instead of NaN / −inf); fewer than two samples
    warn ``UndefinedMetricWarning`` and return NaN. ``multioutput`` may also be
    ``"variance_weighted"``. Other parameters are those of :func:`mae`.
    Unlike scikit-learn, a constant column is detected exactly (``r2([0.1] * 3,
    [0.1, 0.2, 0.1])`` is 0.0 here, about −1.7e31 there).

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
    force_finite : bool, default=True
        Constant targets give 1.0 or 0.0 instead of nan or -inf, as scikit-learn.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    ``y_true`` = 1, 2, 3, 4 has mean 2.5 and Σ(y − ȳ)² = 5; one error of 1 gives
    1 − 1/5:

    >>> r2([1, 2, 3, 4], [1, 2, 3, 5])
    0.8
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy, check_finite=False)
    multioutput = output_weights(multioutput, y.shape[1], FRACTION_OPTIONS)
    state = _moments_checked(y, p, w, nan_policy, ("sse", "m2_true"))
    return _r2_from_moments(state, multioutput, force_finite)


def explained_variance(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    force_finite: bool = True,
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Explained variance (scikit-learn's ``explained_variance_score``).

    .. math:: \mathrm{EV} = 1 - \frac{\operatorname{Var}_w(y - \hat y)}{\operatorname{Var}_w(y)}

    Unlike R², a constant bias is not penalised. ``force_finite`` and
    ``multioutput`` as in :func:`r2` (no minimum number of samples).

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
    force_finite : bool, default=True
        Constant targets give 1.0 or 0.0 instead of nan or -inf, as scikit-learn.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Residuals −1, −1, −1, −2 have mean −1.25 and Σ(e − ē)² = 0.75, against
    Σ(y − ȳ)² = 5 for ``y_true`` = 1, 2, 3, 4: EV = 1 − 0.75/5:

    >>> explained_variance([1, 2, 3, 4], [2, 3, 4, 6])
    0.85
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy, check_finite=False)
    multioutput = output_weights(multioutput, y.shape[1], FRACTION_OPTIONS)
    state = _moments_checked(y, p, w, nan_policy, ("m2_err", "m2_true"))
    return _explained_variance_from_moments(state, multioutput, force_finite)
