"""Validation of regression inputs and of the ``multioutput`` option, shared by the family.

Public functions call :func:`regression_inputs` once; the kernels in
``_moments`` and ``_robust`` take the float64 arrays it returns and never
validate. :func:`output_weights` and :func:`average_outputs` implement
scikit-learn's ``multioutput`` semantics for every regression metric.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import (
    NegativeWeightError,
    NonFiniteError,
    ParameterError,
    ShapeError,
)
from .._typing import ArrayLike, FloatArray
from .._validation import (
    as_array,
    check_option,
    check_same_length,
    checked_rows,
    scores_2d,
    weights_1d,
)

__all__: list[str] = []

#: Options of the error metrics (scikit-learn has no ``variance_weighted`` for them).
ERROR_OPTIONS = ("raw_values", "uniform_average")
#: Options of R² and explained variance.
FRACTION_OPTIONS = ("raw_values", "uniform_average", "variance_weighted")


def regression_inputs(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    sample_weight: ArrayLike | None,
    nan_policy: str,
    *,
    check_finite: bool = True,
) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    """Check and convert ``y_true``, ``y_pred`` and ``sample_weight``.

    Returns 2-D float64 arrays of shape (n_samples, n_outputs) (a 1-D input is
    one output) and 1-D weights or ``None``. Raises when the lengths or the
    numbers of outputs differ, on NaN/inf (``nan_policy="raise"``) and on
    empty input. Weights summing to zero are checked where a metric is
    computed (:func:`zero_weight_error`), so that a chunk of zero weight can
    be added to a stream whose other chunks have weight. With
    ``check_finite=False`` the NaN/inf check of the rows and the check of the
    weights' values are left to the caller (which must then call
    :func:`~scorekit._validation.finite_rows` before trusting any non-finite
    sum, and :func:`~scorekit._validation.check_weights` before returning a
    value: ``_moments._moments_checked`` does both).

    >>> yt, yp, w = regression_inputs([1, 2], [[1.5], [2.0]], None, "raise")
    >>> yt.shape, yp.shape, w
    ((2, 1), (2, 1), None)
    """
    yt = scores_2d(y_true, "y_true")
    yp = scores_2d(y_pred, "y_pred")
    check_same_length(y_true=yt, y_pred=yp)  # before the outputs: a length error first
    if yt.shape[1] != yp.shape[1]:
        raise ShapeError(f"y_true has {yt.shape[1]} outputs (columns) but y_pred has {yp.shape[1]}")
    if yt.shape[1] == 0:
        raise ShapeError(f"y_true has no outputs (shape {yt.shape})")
    check_option(nan_policy, "nan_policy", ("raise", "omit"))
    if check_finite:
        return checked_rows(nan_policy, sample_weight, ("y_true", "y_pred"), y_true=yt, y_pred=yp)
    yt, yp, _ = checked_rows(nan_policy, None, (), y_true=yt, y_pred=yp)
    return yt, yp, weights_1d(sample_weight, yt.shape[0], values=False)


def output_weights(
    multioutput: Any, n_outputs: int, allowed: tuple[str, ...] = ERROR_OPTIONS
) -> str | FloatArray:
    """Validate ``multioutput``: one of ``allowed`` or one non-negative weight per output.

    >>> output_weights("raw_values", 2)
    'raw_values'
    >>> output_weights([1, 3], 2)
    array([1., 3.])
    """
    if isinstance(multioutput, str):
        check_option(multioutput, "multioutput", allowed)
        return multioutput
    if multioutput is None:
        raise ParameterError(
            f"multioutput=None is not one of {', '.join(map(repr, allowed))} or an array of weights"
        )
    arr = as_array(multioutput, "multioutput")
    if arr.dtype.kind not in "biuf":
        raise ParameterError(f"multioutput weights must be numbers, got dtype {arr.dtype}")
    arr = np.asarray(arr, dtype=np.float64)
    if n_outputs == 1:
        raise ParameterError(
            "multioutput weights are useful only with several outputs; y_true has one output"
        )
    if arr.shape != (n_outputs,):
        raise ShapeError(
            f"multioutput has shape {arr.shape}; one weight per output ({n_outputs}) is needed"
        )
    if not np.isfinite(arr).all():
        raise NonFiniteError("multioutput contains NaN or infinite weights")
    if (arr < 0).any():
        raise NegativeWeightError(f"multioutput contains {int((arr < 0).sum())} negative weights")
    if not arr.sum() > 0:
        raise ParameterError("multioutput weights sum to zero")
    return arr


def average_outputs(values: FloatArray, weights: str | FloatArray) -> float | FloatArray:
    """Combine per-output values as ``multioutput`` says (weights from :func:`output_weights`).

    ``"variance_weighted"`` is resolved by the caller into an array.

    >>> average_outputs(np.array([1.0, 3.0]), "uniform_average")
    2.0
    >>> average_outputs(np.array([1.0, 3.0]), np.array([3.0, 1.0]))
    1.5
    """
    if isinstance(weights, str):
        if weights == "raw_values":
            return values
        return float(np.mean(values))
    return float(np.average(values, weights=weights))
