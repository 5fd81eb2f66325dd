"""Calibration: the reliability curve and the expected calibration error, from one binning.

Kernel: :func:`_bin_edges` (uniform or quantile edges), :func:`_calibration_bins`
(rows -> :class:`CalibrationBins`: count, Σ probability and Σ outcome per bin),
:func:`_merge_calibration_bins` (adds; exact for fixed edges, i.e. the uniform
strategy — quantile edges depend on all the data), and the two values
:func:`_curve_from_bins` and :func:`_ece_from_bins`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._typing import ArrayLike, BoolArray, FloatArray
from .._validation import check_count, check_option, check_probabilities
from ._curves import _binary_inputs

__all__ = ["calibration_curve", "expected_calibration_error"]  # + the curve-state kernel below


@dataclass(frozen=True, slots=True)
class CalibrationBins:
    """Per bin: number of rows, sum of predicted probabilities, number of positives."""

    count: FloatArray
    prob_sum: FloatArray
    pos_sum: FloatArray


def _bin_edges(p: FloatArray, n_bins: int, strategy: str) -> FloatArray:
    """``n_bins + 1`` edges: evenly spaced on [0, 1], or the quantiles of ``p`` (``np.percentile``)."""
    if strategy == "quantile":
        return np.asarray(np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100))
    return np.linspace(0.0, 1.0, n_bins + 1)


def _calibration_bins(y: BoolArray, p: FloatArray, edges: FloatArray) -> CalibrationBins:
    """Rows -> bins; a value on an inner edge falls in the lower bin (scikit-learn's rule)."""
    n_bins = edges.size - 1
    ids = np.searchsorted(edges[1:-1], p)
    return CalibrationBins(
        np.bincount(ids, minlength=n_bins).astype(np.float64),
        np.bincount(ids, weights=p, minlength=n_bins).astype(np.float64),
        np.bincount(ids, weights=y, minlength=n_bins).astype(np.float64),
    )


def _merge_calibration_bins(a: CalibrationBins, b: CalibrationBins) -> CalibrationBins:
    """Bins of the concatenated rows (same edges)."""
    return CalibrationBins(a.count + b.count, a.prob_sum + b.prob_sum, a.pos_sum + b.pos_sum)


def _curve_from_bins(b: CalibrationBins) -> tuple[FloatArray, FloatArray]:
    """``(prob_true, prob_pred)`` over the non-empty bins."""
    full = b.count != 0
    return b.pos_sum[full] / b.count[full], b.prob_sum[full] / b.count[full]


def _ece_from_bins(b: CalibrationBins) -> float:
    """Σ_b (n_b / N) |acc_b − conf_b| over the non-empty bins."""
    prob_true, prob_pred = _curve_from_bins(b)
    share = b.count[b.count != 0] / b.count.sum()
    return float(np.sum(share * np.abs(prob_true - prob_pred)))


def _sorted_quantiles(values: FloatArray, counts: FloatArray, q: FloatArray) -> FloatArray:
    """``np.percentile(rows, 100 q)`` of rows given as distinct values with their counts.

    ``values`` increase; ``counts`` are whole numbers. The linear method's
    interpolation, without expanding the rows.
    """
    cum = np.cumsum(counts)
    n = float(cum[-1])
    h = (n - 1.0) * q
    lo = np.floor(h)
    t = h - lo
    a = values[np.searchsorted(cum, lo, side="right")]
    b = values[np.searchsorted(cum, np.minimum(lo + 1.0, n - 1.0), side="right")]
    diff = b - a
    out: FloatArray = np.where(t >= 0.5, b - diff * (1.0 - t), a + diff * t)
    return out


def calibration_edges_from_curve(c: Any, n_bins: int, strategy: str) -> FloatArray:
    """The bin edges of :func:`calibration_curve` from a curve state (quantiles: whole weights)."""
    if strategy != "quantile":
        return np.linspace(0.0, 1.0, n_bins + 1)
    scores = np.asarray(c.scores, dtype=np.float64)[::-1]  # increasing
    total = (np.asarray(c.pos, dtype=np.float64) + np.asarray(c.neg, dtype=np.float64))[::-1]
    return _sorted_quantiles(scores, total, np.linspace(0, 1, n_bins + 1))


def calibration_bins_from_curve(c: Any, edges: FloatArray) -> CalibrationBins:
    """The bins of :func:`calibration_curve` from a curve state: no pass over the rows.

    The state holds the distinct scores with their positive and negative
    weights; each bin's sum of probabilities is Σ score × count, equal to the
    row sum up to rounding.
    """
    scores = np.asarray(c.scores, dtype=np.float64)
    pos = np.asarray(c.pos, dtype=np.float64)
    total = pos + np.asarray(c.neg, dtype=np.float64)
    n_bins = edges.size - 1
    ids = np.searchsorted(edges[1:-1], scores)
    return CalibrationBins(
        np.bincount(ids, weights=total, minlength=n_bins).astype(np.float64),
        np.bincount(ids, weights=scores * total, minlength=n_bins).astype(np.float64),
        np.bincount(ids, weights=pos, minlength=n_bins).astype(np.float64),
    )


def _binned(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    n_bins: int,
    strategy: str,
    pos_label: Any,
    nan_policy: str,
) -> CalibrationBins:
    n_bins = check_count(n_bins, "n_bins")
    check_option(strategy, "strategy", ("uniform", "quantile"))
    y, p, _ = _binary_inputs(y_true, y_prob, None, pos_label, nan_policy, "y_prob")
    check_probabilities(p, "y_prob")
    return _calibration_bins(y, p, _bin_edges(p, int(n_bins), strategy))


def calibration_curve(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    n_bins: int = 10,
    strategy: str = "uniform",
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> tuple[FloatArray, FloatArray]:
    """Reliability curve ``(prob_true, prob_pred)``, as ``sklearn.calibration.calibration_curve``.

    Probabilities are put in ``n_bins`` bins — equal widths on [0, 1]
    (``"uniform"``) or the quantiles of ``y_prob`` (``"quantile"``, via
    ``np.percentile``); a value on an inner edge goes to the lower bin. For each
    non-empty bin: the fraction of positives and the mean predicted probability.
    (scikit-learn's default is 5 bins; 10 here.)

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities.
    n_bins : int, default=10
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins, or bins of equal counts.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Bins [0, .5] and (.5, 1]: .1, .2, .4 with one positive; .8, .9 with two:

    >>> t, p = calibration_curve([0, 0, 1, 1, 1], [0.1, 0.2, 0.4, 0.8, 0.9], n_bins=2)
    >>> t.round(4).tolist(), p.round(4).tolist()
    ([0.3333, 1.0], [0.2333, 0.85])
    """
    return _curve_from_bins(_binned(y_true, y_prob, n_bins, strategy, pos_label, nan_policy))


def expected_calibration_error(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    n_bins: int = 10,
    strategy: str = "uniform",
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> float:
    r"""Expected calibration error of binary probabilities.

    .. math:: \mathrm{ECE} = \sum_b \frac{n_b}{N} \, |\mathrm{acc}_b - \mathrm{conf}_b|

    over the non-empty bins of :func:`calibration_curve` (same ``n_bins`` and
    ``strategy``), where acc_b is the fraction of positives in bin b, conf_b the
    mean predicted probability and n_b its number of rows.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities.
    n_bins : int, default=10
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins, or bins of equal counts.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    With the bins of :func:`calibration_curve`'s example: 3/5·|⅓ − .2333| + 2/5·|1 − .85| = 0.12

    >>> round(expected_calibration_error([0, 0, 1, 1, 1], [0.1, 0.2, 0.4, 0.8, 0.9], n_bins=2), 12)
    0.12
    """
    return _ece_from_bins(_binned(y_true, y_prob, n_bins, strategy, pos_label, nan_policy))
