"""Operating points of a binary scorer: precision at a recall, TPR at an FPR, DET curve, EER.

Every function here reads the one sorted curve state (:class:`CurveState`: the
distinct scores, decreasing, with the positive and negative weight at each),
so ``scorekit.stream.BinaryCurve`` computes the same values from a stream. The
candidate operating points are the thresholds at the distinct scores, a score
``>= t`` counting as positive; the ROC-based ones (sensitivity, specificity,
TPR, EER) also have the point where nothing is positive (threshold ``inf``),
as torchmetrics' ROC starts at (0, 0).

Tie rules (documented per function) are torchmetrics': among points with the
same best value, the precision/recall pair prefers the higher second value and
then the higher threshold; the ROC-based ones take the first point in order of
decreasing threshold.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._errors import ParameterError
from .._typing import ArrayLike, FloatArray
from .._validation import undefined
from ._curve_kernel import CurveState, pr_from_curve
from ._curves import _binary_curve

__all__ = [
    "OperatingPoint",
    "det_curve",
    "equal_error_rate",
    "precision_at_recall",
    "recall_at_precision",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
    "tpr_at_fpr",
]


class OperatingPoint(NamedTuple):
    """The value at the chosen operating point and its threshold (``score >= threshold``)."""

    value: float
    threshold: float


def _rate(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ParameterError(f"{name} must be a number in [0, 1]; got {value!r}")
    v = float(value)
    if not 0.0 <= v <= 1.0:
        raise ParameterError(f"{name} must be in [0, 1]; got {v}")
    return v


def _pr_points(c: CurveState) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Precision, recall and threshold at every distinct score (decreasing thresholds)."""
    tps, fps = np.cumsum(c.pos), np.cumsum(c.neg)
    if tps.size == 0 or tps[-1] <= 0:
        undefined("recall", "no positive rows: recall is undefined")
        nan = np.full(tps.size, np.nan)
        return nan, nan, c.scores
    precision = tps / (tps + fps)
    return precision, tps / tps[-1], c.scores


def _roc_points(c: CurveState) -> tuple[FloatArray, FloatArray, FloatArray]:
    """FPR, TPR and threshold with the all-negative point first (threshold ``inf``)."""
    tps = np.concatenate(([0.0], np.cumsum(c.pos)))
    fps = np.concatenate(([0.0], np.cumsum(c.neg)))
    thresholds = np.concatenate(([np.inf], c.scores))
    if tps[-1] <= 0 or fps[-1] <= 0:
        missing = "positive" if tps[-1] <= 0 else "negative"
        undefined("roc", f"no {missing} rows: the ROC curve is undefined")
        nan = np.full(tps.size, np.nan)
        return nan, nan, thresholds
    return fps / fps[-1], tps / tps[-1], thresholds


def _best(primary: FloatArray, secondary: FloatArray, thresholds: FloatArray, ok: Any) -> int:
    """Index of the largest (primary, secondary, threshold) among ``ok`` (lexicographic)."""
    idx = np.flatnonzero(ok)
    order = np.lexsort((thresholds[idx], secondary[idx], primary[idx]))
    return int(idx[order[-1]])


def precision_at_recall_from_curve(c: CurveState, min_recall: float) -> OperatingPoint:
    """Highest precision among the thresholds whose recall is ``>= min_recall`` (state -> value)."""
    precision, recall, thresholds = _pr_points(c)
    ok = recall >= min_recall
    if not ok.any():
        return OperatingPoint(0.0, float("nan"))
    i = _best(precision, recall, thresholds, ok)
    if precision[i] == 0.0:
        return OperatingPoint(0.0, float("nan"))
    return OperatingPoint(float(precision[i]), float(thresholds[i]))


def recall_at_precision_from_curve(c: CurveState, min_precision: float) -> OperatingPoint:
    """Highest recall among the thresholds whose precision is ``>= min_precision``."""
    precision, recall, thresholds = _pr_points(c)
    ok = precision >= min_precision
    if not ok.any():
        return OperatingPoint(0.0, float("nan"))
    i = _best(recall, precision, thresholds, ok)
    if recall[i] == 0.0:
        return OperatingPoint(0.0, float("nan"))
    return OperatingPoint(float(recall[i]), float(thresholds[i]))


def _first_max(values: FloatArray, ok: Any, thresholds: FloatArray) -> OperatingPoint:
    """The largest of ``values`` where ``ok``, at its first (highest-threshold) point."""
    if not ok.any():
        return OperatingPoint(0.0, float("inf"))
    masked = np.where(ok, values, -np.inf)
    i = int(np.argmax(masked))
    return OperatingPoint(float(values[i]), float(thresholds[i]))


def sensitivity_at_specificity_from_curve(c: CurveState, min_specificity: float) -> OperatingPoint:
    """Highest TPR among the points whose specificity (1 − FPR) is ``>= min_specificity``."""
    fpr, tpr, thresholds = _roc_points(c)
    return _first_max(tpr, (1.0 - fpr) >= min_specificity, thresholds)


def specificity_at_sensitivity_from_curve(c: CurveState, min_sensitivity: float) -> OperatingPoint:
    """Highest specificity (1 − FPR) among the points whose TPR is ``>= min_sensitivity``."""
    fpr, tpr, thresholds = _roc_points(c)
    return _first_max(1.0 - fpr, tpr >= min_sensitivity, thresholds)


def tpr_at_fpr_from_curve(c: CurveState, max_fpr: float) -> OperatingPoint:
    """Highest TPR among the points whose FPR is ``<= max_fpr``."""
    fpr, tpr, thresholds = _roc_points(c)
    return _first_max(tpr, fpr <= max_fpr, thresholds)


def equal_error_rate_from_curve(c: CurveState) -> float:
    """(FPR + FNR) / 2 at the ROC point where |FPR − FNR| is smallest (the first such point)."""
    fpr, tpr, _ = _roc_points(c)
    if np.isnan(fpr).all():
        return float("nan")
    i = int(np.argmin(np.abs(fpr - (1.0 - tpr))))
    return float((fpr[i] + (1.0 - tpr[i])) / 2)


def pr_auc_from_curve(c: CurveState) -> float:
    """Trapezoidal area under the precision-recall curve (state -> value of :func:`scorekit.pr_auc`)."""
    precision, recall, _ = pr_from_curve(c)
    return float(np.sum((recall[:-1] - recall[1:]) * (precision[:-1] + precision[1:]) / 2))


def det_curve_from_curve(c: CurveState) -> tuple[FloatArray, FloatArray, FloatArray]:
    """scikit-learn's DET curve (FPR, FNR, thresholds increasing) from the state."""
    tps = np.concatenate(([0.0], np.cumsum(c.pos)))
    fps = np.concatenate(([0.0], np.cumsum(c.neg)))
    thresholds = np.concatenate(([np.inf], c.scores))
    if c.scores.size == 0:
        raise ParameterError("sample_weight sums to 0: the detection error tradeoff is not defined")
    if tps[-1] <= 0 or fps[-1] <= 0:
        raise ParameterError(
            "y_true has one class only: the detection error tradeoff curve is not defined"
        )
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    last = int(np.searchsorted(tps, tps[-1])) + 1
    sl = slice(max(first, 0), last)
    return (
        fps[sl][::-1] / fps[-1],
        (tps[-1] - tps[sl])[::-1] / tps[-1],
        thresholds[sl][::-1],
    )


# ---------------------------------------------------------------- public functions


def precision_at_recall(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_recall: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> OperatingPoint:
    """Highest precision at a recall of at least ``min_recall``, and its threshold.

    Over the thresholds at the distinct scores: among those with recall
    ``>= min_recall`` the highest precision; ties go to the higher recall, then
    the higher threshold (torchmetrics' ``binary_precision_at_fixed_recall``
    without binning). No such threshold, or a best precision of 0, gives
    ``(0.0, nan)``. Answers scikit-learn issue #20266.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    min_recall : float
        The smallest recall allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    OperatingPoint
        ``(value, threshold)``.

    Examples
    --------
    Scores 0.8 (pos), 0.4 (neg), 0.35 (pos), 0.1 (neg): at threshold 0.35 recall is 1
    and precision 2/3:

    >>> precision_at_recall([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_recall=1.0)
    OperatingPoint(value=0.6666666666666666, threshold=0.35)
    """
    limit = _rate("min_recall", min_recall)
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return precision_at_recall_from_curve(c, limit)


def recall_at_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_precision: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> OperatingPoint:
    """Highest recall at a precision of at least ``min_precision``, and its threshold.

    Ties go to the higher precision, then the higher threshold (torchmetrics'
    ``binary_recall_at_fixed_precision``); none, or a best recall of 0, gives
    ``(0.0, nan)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    min_precision : float
        The smallest precision allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> recall_at_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_precision=1.0)
    OperatingPoint(value=0.5, threshold=0.8)
    """
    limit = _rate("min_precision", min_precision)
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return recall_at_precision_from_curve(c, limit)


def sensitivity_at_specificity(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_specificity: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> OperatingPoint:
    """Highest sensitivity (TPR) at a specificity of at least ``min_specificity``.

    Over the ROC points, the all-negative point (threshold ``inf``) first; ties
    go to the first point, the highest threshold (torchmetrics'
    ``binary_sensitivity_at_specificity``, whose first point has threshold 1.0
    for probabilities where scorekit says ``inf``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    min_specificity : float
        The smallest specificity allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> sensitivity_at_specificity([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_specificity=0.5)
    OperatingPoint(value=1.0, threshold=0.35)
    """
    limit = _rate("min_specificity", min_specificity)
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return sensitivity_at_specificity_from_curve(c, limit)


def specificity_at_sensitivity(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_sensitivity: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> OperatingPoint:
    """Highest specificity (1 − FPR) at a sensitivity of at least ``min_sensitivity``.

    Tie rule as :func:`sensitivity_at_specificity`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    min_sensitivity : float
        The smallest sensitivity allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> specificity_at_sensitivity([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_sensitivity=0.5)
    OperatingPoint(value=1.0, threshold=0.8)
    """
    limit = _rate("min_sensitivity", min_sensitivity)
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return specificity_at_sensitivity_from_curve(c, limit)


def tpr_at_fpr(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    max_fpr: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> OperatingPoint:
    """Highest TPR at a false positive rate of at most ``max_fpr`` (the ROC read at an FPR).

    Tie rule as :func:`sensitivity_at_specificity`: the first point, the highest
    threshold reaching that TPR. ``tpr_at_fpr(..., max_fpr=f)`` equals
    ``sensitivity_at_specificity(..., min_specificity=1 - f)`` up to the rounding of ``1 - f``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    max_fpr : float
        The largest false positive rate allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> tpr_at_fpr([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_fpr=0.0)
    OperatingPoint(value=0.5, threshold=0.8)
    """
    limit = _rate("max_fpr", max_fpr)
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return tpr_at_fpr_from_curve(c, limit)


def det_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Detection error tradeoff: false positive and false negative rates per threshold.

    As :func:`sklearn.metrics.det_curve` (``drop_intermediate=False``): the
    thresholds increase, from the last one where the FNR is 0 to the first
    where the FPR is 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    fpr, fnr, thresholds : ndarray

    Examples
    --------
    >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thresholds.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    return det_curve_from_curve(
        _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    )


def equal_error_rate(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> float:
    r"""Equal error rate: where the false positive and false negative rates meet.

    .. math:: \mathrm{EER} = \tfrac12 (\mathrm{FPR}_i + \mathrm{FNR}_i),\quad
              i = \arg\min_i |\mathrm{FPR}_i - \mathrm{FNR}_i|

    over the ROC points (the all-negative point first; the first minimiser),
    as torchmetrics' ``binary_eer``; no interpolation between points.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, bool, or two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; a score ``>= threshold`` counts as positive.
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : label, default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> equal_error_rate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    """
    return equal_error_rate_from_curve(
        _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    )
