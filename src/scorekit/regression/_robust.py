"""Order-statistic regression metrics (one-shot only: a median is not a moment)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._typing import ArrayLike, FloatArray
from .._validation import zero_weight_error
from ._inputs import average_outputs, output_weights, regression_inputs

__all__ = ["median_absolute_error"]

_EPS = float(np.finfo(np.float64).eps)


def _weighted_quantile(values: FloatArray, weights: FloatArray, q: float) -> float:
    """Weighted ``q``-quantile with the "averaged inverted CDF" rule of scikit-learn 1.9.

    Sorted by value, the cumulative weight is compared with ``q`` times the total
    (the next float above 0 when that is 0): the first value whose cumulative
    weight reaches it is taken, unless it reaches it exactly (within float64 eps),
    in which case it is averaged with the next value of positive weight
    (``_weighted_percentile(..., average=True)``). With unit weights and q = 0.5
    this is the ordinary median.

    >>> _weighted_quantile(np.array([1.0, 2.0, 3.0, 4.0]), np.ones(4), 0.5)
    2.5
    >>> _weighted_quantile(np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 5.0]), 0.5)
    3.0
    """
    order = np.argsort(values)
    cdf = np.cumsum(weights[order])
    rank = q * cdf[-1]
    if rank == 0:
        rank = float(np.nextafter(0.0, 1.0))
    last = cdf.shape[0] - 1
    i = min(int(np.searchsorted(cdf, rank)), last)
    if cdf[i] - rank > _EPS:
        return float(values[order[i]])
    j = min(i + 1, last)
    if weights[order[j]] == 0:  # skip zero-weight values, as scikit-learn does
        j = int(np.searchsorted(cdf, cdf[i], side="right"))
        if j > last:
            j = i
    return float((values[order[i]] + values[order[j]]) / 2)


def _weighted_median(values: FloatArray, weights: FloatArray) -> float:
    """:func:`_weighted_quantile` at 0.5."""
    return _weighted_quantile(values, weights, 0.5)


def median_absolute_error(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    multioutput: Any = "uniform_average",
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Median absolute error (scikit-learn's ``median_absolute_error``).

    .. math:: \operatorname{median}_w |y_i - \hat y_i|

    Unweighted: ``numpy.median`` of the absolute errors (an even count averages
    the two middle values). Weighted: the weighted median of scikit-learn 1.9
    (``_weighted_percentile(..., average=True)``, "averaged inverted CDF"),
    which equals the unweighted median for unit weights. One-shot only: there
    is no streaming state for a median.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    sample_weight : array-like of shape (n_samples,), default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    float or ndarray of shape (n_outputs,)

    Examples
    --------
    Absolute errors 0.5, 0.5, 0 and 1 sort to 0, 0.5, 0.5, 1; the middle two average to 0.5:

    >>> median_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    if w is not None and not w.sum() > 0:
        raise zero_weight_error()
    err = np.abs(y - p)
    if w is None:
        per_output = np.asarray(np.median(err, axis=0), dtype=np.float64)
    else:
        per_output = np.array([_weighted_median(col, w) for col in err.T])
    return average_outputs(per_output, weights)
