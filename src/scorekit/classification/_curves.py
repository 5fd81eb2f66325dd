"""Score-based binary metrics (ROC, PR, AUC, AP, KS, ...): validation and the public functions.

Every value comes from the sorted-curve kernel of :mod:`._curve_kernel`
(``CurveState``, rows -> state, merge, state -> value), which
``scorekit.stream.BinaryCurve`` and the Dask layer share; ``roc_auc`` and
``average_precision`` take its fast paths for unweighted rows (one
``np.sort`` of packed keys, no curve built, the same value). This module
validates the inputs once and averages binary values over the columns of
multilabel and multiclass problems.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codes import distinct
from .._errors import LabelError, ParameterError, ProbabilityRangeError, ShapeError
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray
from .._validation import (
    as_array,
    binary_target,
    check_option,
    checked_rows,
    labels_1d,
    scores_1d,
    scores_2d,
    type_of_target,
    undefined,
)
from ._curve_kernel import (
    CurveState,
    bep_from_curve,
    binary_ap,
    binary_auc,
    curve_from_chunk,
    ks_from_curve,
    partial_auc_from_curve,
    pr_from_curve,
    rank_loss_from_curve,
    roc_from_curve,
)
from ._labels import encode, given_labels
from ._multilabel_ranking import _row_ranks

__all__ = [
    "average_precision",
    "break_even_point",
    "gini",
    "ks_statistic",
    "pr_auc",
    "precision_recall_curve",
    "rank_loss",
    "roc_auc",
    "roc_curve",
]

# ---------------------------------------------------------------- validation


def _positives(
    y: AnyArray, pos_label: Any, name: str = "y_true", classes: AnyArray | None = None
) -> BoolArray:
    """Boolean positives (the rule of :func:`scorekit._validation.binary_target`), cheaply.

    ``classes``, when known, are the sorted distinct labels of ``y``.
    """
    if pos_label is None and y.dtype.kind == "b":
        return y
    if pos_label is None and y.dtype.kind in "iuf" and y.size:
        if classes is not None:
            if classes.dtype.kind in "biuf" and set(classes.tolist()) <= {0, 1}:
                return np.asarray(y == 1)
        else:
            lo, hi = y.min(), y.max()
            if lo >= 0 and hi <= 1 and (y.dtype.kind != "f" or ((y == 0) | (y == 1)).all()):
                return np.asarray(y == 1)
    classes = distinct(y) if classes is None else classes
    return binary_target(y, pos_label, name, classes=classes)


def _binary_inputs(
    y_true: ArrayLike,
    y_score: ArrayLike,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    nan_policy: str,
    score_name: str = "y_score",
    classes: AnyArray | None = None,
) -> tuple[BoolArray, FloatArray, FloatArray | None]:
    """Validate a binary problem: positives, finite 1-D scores, checked weights.

    ``classes``: the distinct labels of ``y_true`` when the caller already has them.
    """
    y = labels_1d(y_true, "y_true")
    s = scores_1d(y_score, score_name)
    n = y.shape[0]
    y, s, w = checked_rows(nan_policy, sample_weight, (score_name,), y_true=y, **{score_name: s})
    return _positives(y, pos_label, classes=classes if y.shape[0] == n else None), s, w


# ---------------------------------------------------------------- averaging (multilabel, ovr)


_AVERAGES = (None, "micro", "macro", "weighted", "samples")


def _average_labels(
    metric: Any, y: BoolArray, s: FloatArray, w: FloatArray | None, average: str | None
) -> float | FloatArray:
    """scikit-learn's ``_average_binary_score`` over the columns of an indicator matrix."""
    if average == "micro":
        return float(metric(y.ravel(), s.ravel(), None if w is None else np.repeat(w, y.shape[1])))
    if average == "samples":
        return _samples_average(metric, y, s, w)
    scores = np.array([metric(y[:, j], s[:, j], w) for j in range(y.shape[1])])
    if average is None:
        return scores
    if average == "weighted":
        support = y.sum(axis=0) if w is None else (y * w[:, None]).sum(axis=0)
        if np.isclose(support.sum(), 0.0):
            return 0.0
        return float(np.average(np.where(support == 0, 0.0, scores), weights=support))
    return float(np.mean(scores))


def _samples_average(metric: Any, y: BoolArray, s: FloatArray, w: FloatArray | None) -> float:
    """Per-row AUC or AP from one row-wise sort (``_row_ranks``), averaged with ``w``.

    Other per-row metrics (the partial AUC) are computed row by row.
    """
    if metric is not binary_auc and metric is not binary_ap:
        rows = np.array([metric(y[i], s[i], None) for i in range(y.shape[0])])
        return float(np.average(rows if w is None else np.where(w == 0, 0.0, rows), weights=w))
    r = _row_ranks(y, s)
    n_pos = r.y.sum(axis=1).astype(np.float64)
    n_neg = y.shape[1] - n_pos
    if metric is binary_auc:
        below = n_neg[:, None] - (r.ge - r.pos_ge) + (r.ge - r.gt - (r.pos_ge - r.pos_gt)) / 2
        with np.errstate(invalid="ignore", divide="ignore"):
            rows = np.where(r.y, below, 0.0).sum(axis=1) / (n_pos * n_neg)
        if np.any((n_pos == 0) | (n_neg == 0)):
            undefined("roc_auc", "only one class is present in some rows of y_true")
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            rows = np.where(r.y, r.pos_ge / r.ge, 0.0).sum(axis=1) / n_pos
        if np.any(n_pos == 0):
            rows[n_pos == 0] = undefined("average_precision", "no positive in some rows", 0.0)
    if w is not None:
        rows = np.where(w == 0, 0.0, rows)
    return float(np.average(rows, weights=w))


def _indicator(y: AnyArray, s: FloatArray) -> BoolArray:
    if type_of_target(y) != "multilabel-indicator":
        raise ShapeError(f"y_true is 2-D but not a 0/1 indicator matrix (shape {y.shape})")
    if s.shape != y.shape:
        raise ShapeError(f"y_score has shape {s.shape} but y_true has shape {y.shape}")
    return np.asarray(y == 1)


def _score_matrix(
    y_score: ArrayLike, y: AnyArray, nan_policy: str, sample_weight: ArrayLike | None
) -> tuple[AnyArray, FloatArray, FloatArray | None]:
    s = scores_2d(y_score, "y_score")
    y, s, w = checked_rows(nan_policy, sample_weight, ("y_score",), y_true=y, y_score=s)
    return y, s, w


# ---------------------------------------------------------------- public functions


def roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
    nan_policy: str = "raise",
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Receiver operating characteristic: ``(fpr, tpr, thresholds)``.

    One point per distinct score (a score >= threshold is predicted positive),
    preceded by ``(0, 0)`` at threshold ``+inf``; equal to scikit-learn's
    ``roc_curve(..., drop_intermediate=False)`` (the default here). A class
    absent from ``y_true`` makes its rate ``nan`` with ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels in {0, 1}, {-1, 1} or bool, unless ``pos_label`` is given.
    y_score : array-like of shape (n_samples,)
        Higher means more likely positive.
    pos_label, sample_weight, drop_intermediate, nan_policy
        As scikit-learn; ``nan_policy="omit"`` drops rows with NaN scores.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    y, s, w = _binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy)
    return roc_from_curve(curve_from_chunk(y, s, w), drop_intermediate=drop_intermediate)


def precision_recall_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
    nan_policy: str = "raise",
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Precision and recall at each distinct score: ``(precision, recall, thresholds)``.

    As scikit-learn: thresholds increase, recall decreases, and a final point
    ``(precision=1, recall=0)`` without threshold is appended. Without any
    positive, recall is 1 everywhere (``UndefinedMetricWarning``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    drop_intermediate : bool, default=False
        Drop the points that do not change the curve's shape.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    y, s, w = _binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy)
    return pr_from_curve(curve_from_chunk(y, s, w), drop_intermediate=drop_intermediate)


def roc_auc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Area under the ROC curve (binary, multiclass one-vs-rest / one-vs-one, multilabel).

    .. math:: \mathrm{AUC} = \frac{1}{W_+ W_-} \sum_{i:y_i=1} \sum_{j:y_j=0}
              w_i w_j \big([s_i > s_j] + \tfrac12 [s_i = s_j]\big)

    Computed by sorting, never pair by pair; ties count one half. Options as
    scikit-learn's ``roc_auc_score``: ``max_fpr`` gives the McClish-corrected
    partial AUC; a 1-D multiclass ``y_true`` needs ``y_score`` of shape
    (n, n_classes) with rows summing to 1 and ``multi_class="ovr"`` (average
    micro/macro/weighted/None) or ``"ovo"`` (Hand & Till; macro/weighted);
    a 2-D indicator ``y_true`` is multilabel (average micro, macro, weighted,
    samples or None). ``labels`` (sorted) names the columns of a multiclass
    ``y_score``. Beyond scikit-learn, ``pos_label`` names the positive class of
    a binary problem (required unless labels are {0, 1}, {-1, 1} or bool).
    One class present: ``nan`` and ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    max_fpr : float, default=None
        Standardised partial AUC up to this false positive rate (McClish).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        One-vs-rest or one-vs-one averaging of a multiclass problem.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Positives score 0.35 and 0.8, negatives 0.1 and 0.4; 3 of 4 pairs are in order:

    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    check_option(average, "average", _AVERAGES)
    check_option(multi_class, "multi_class", ("raise", "ovr", "ovo"))
    if max_fpr is not None and not 0 < max_fpr <= 1:
        raise ParameterError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    y = as_array(y_true, "y_true")
    score = as_array(y_score, "y_score")
    metric = binary_auc
    if max_fpr is not None and max_fpr != 1:
        metric = _partial_metric(max_fpr)
    if y.ndim == 2 and y.shape[1] > 1:
        y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
        return _average_labels(metric, _indicator(y, s), s, w, average)
    y = labels_1d(y, "y_true")
    classes = distinct(y)
    n_classes = classes.size if labels is None else np.asarray(labels).size
    if n_classes > 2 or (score.ndim == 2 and score.shape[1] > 2):
        if metric is not binary_auc:
            raise ParameterError("max_fpr (partial AUC) is not available for multiclass y_true")
        if multi_class == "raise":
            raise ParameterError(
                'y_true is multiclass: pass multi_class="ovr" or "ovo" (and y_score of '
                "shape (n_samples, n_classes))"
            )
        return _multiclass_auc(y, score, labels, multi_class, average, sample_weight, nan_policy)
    y_pos, s, w = _binary_inputs(y, score, sample_weight, pos_label, nan_policy, classes=classes)
    return float(metric(y_pos, s, w))


def _partial_metric(max_fpr: float) -> Any:
    def partial_auc(y: BoolArray, s: FloatArray, w: FloatArray | None) -> float:
        return partial_auc_from_curve(curve_from_chunk(y, s, w), max_fpr)

    return partial_auc


def _multiclass_auc(
    y: AnyArray,
    score: AnyArray,
    labels: ArrayLike | None,
    multi_class: str,
    average: str | None,
    sample_weight: ArrayLike | None,
    nan_policy: str,
) -> float | FloatArray:
    if score.ndim != 2:
        raise ShapeError(
            f"y_true is multiclass, so y_score must have shape (n_samples, n_classes); got {score.shape}"
        )
    y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
    allowed = (
        ("micro", "macro", "weighted", None) if multi_class == "ovr" else ("macro", "weighted")
    )
    check_option(average, f"average (multiclass, multi_class={multi_class!r})", allowed)
    if not np.allclose(1, s.sum(axis=1)):
        raise ProbabilityRangeError(
            "y_score rows must be probabilities summing to 1 for multiclass roc_auc"
        )
    classes = _class_columns(y, labels, s.shape[1], "y_score")
    codes = encode(y, classes, "y_true")
    if multi_class == "ovr":
        onehot = codes[:, None] == np.arange(classes.size)
        return _average_labels(binary_auc, onehot, s, w, average)
    if w is not None:
        raise ParameterError('sample_weight is not supported with multi_class="ovo"')
    present = np.flatnonzero(np.bincount(codes, minlength=classes.size))
    pair_scores, prevalence = [], []
    for i, a in enumerate(present):  # Hand & Till: a loop over pairs of classes
        for b in present[i + 1 :]:
            rows = (codes == a) | (codes == b)
            is_a = codes[rows] == a
            auc_ab = binary_auc(is_a, s[rows, a], None) + binary_auc(~is_a, s[rows, b], None)
            pair_scores.append(auc_ab / 2)
            prevalence.append(rows.mean())
    weights = np.array(prevalence) if average == "weighted" else None
    return float(np.average(pair_scores, weights=weights))


def _class_columns(y: AnyArray, labels: ArrayLike | None, n_columns: int, name: str) -> AnyArray:
    """Classes naming the columns of a score matrix: sorted ``labels`` or those of ``y``."""
    classes = given_labels(labels)
    if classes is None:
        classes = distinct(y)
        if classes.size != n_columns:
            raise LabelError(
                f"y_true has {classes.size} classes but {name} has {n_columns} columns; "
                "pass labels= to name every column"
            )
        return classes
    if not np.array_equal(np.sort(classes), classes):
        raise LabelError(f"labels must be sorted (the columns of {name} follow sorted labels)")
    if classes.size != n_columns:
        raise LabelError(f"labels has {classes.size} entries but {name} has {n_columns} columns")
    return classes


def average_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Average precision, the step-wise area under the PR curve.

    .. math:: \mathrm{AP} = \sum_n (R_n - R_{n-1}) P_n

    over the distinct scores in decreasing order (not interpolated; tied scores
    form one step), as scikit-learn's ``average_precision_score``: multilabel
    indicator ``y_true`` with average micro/macro/weighted/samples/None, and a
    1-D multiclass ``y_true`` binarised over its classes (``y_score`` of shape
    (n, n_classes)). No positive: 0 with ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Ranked 0.8 (pos), 0.4 (neg), 0.35 (pos), 0.1: AP = ½·1 + ½·⅔ = 0.8333...

    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    check_option(average, "average", _AVERAGES)
    y = as_array(y_true, "y_true")
    score = as_array(y_score, "y_score")
    if y.ndim == 2 and y.shape[1] > 1:
        _fixed_pos_label(pos_label, "multilabel-indicator")
        y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
        return _average_labels(binary_ap, _indicator(y, s), s, w, average)
    y = labels_1d(y, "y_true")
    classes = distinct(y)
    if classes.size > 2:
        _fixed_pos_label(pos_label, "multiclass")
        if score.ndim != 2 or score.shape[1] != classes.size:
            raise ShapeError(
                f"y_true has {classes.size} classes, so y_score must have shape "
                f"(n_samples, {classes.size}); got {score.shape}"
            )
        y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
        onehot = encode(y, classes)[:, None] == np.arange(classes.size)
        return _average_labels(binary_ap, onehot, s, w, average)
    y_pos, s, w = _binary_inputs(y, score, sample_weight, pos_label, nan_policy, classes=classes)
    return binary_ap(y_pos, s, w)


def _fixed_pos_label(pos_label: Any, kind: str) -> None:
    """scikit-learn's rule: ``pos_label`` is 1 (or left None) for a multilabel or multiclass y_true."""
    if pos_label is not None and not (
        isinstance(pos_label, (int, float, np.number)) and pos_label == 1
    ):
        raise ParameterError(
            f"pos_label={pos_label!r}: the positive label is fixed to 1 for a {kind} y_true; "
            "leave pos_label None"
        )


def _binary_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    nan_policy: str,
) -> CurveState:
    return curve_from_chunk(*_binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy))


def pr_auc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Trapezoidal area under the precision-recall curve: scikit-learn's ``auc(recall, precision)``.

    Linear interpolation between the points of :func:`precision_recall_curve`
    (final point ``(recall 0, precision 1)`` included); more optimistic than
    :func:`average_precision`, which is the step-wise sum.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Points (recall, precision): (0, 1), (.5, 1), (.5, .5), (1, 2/3), (1, .5);
    area = .5·1 + 0 + .5·(.5 + 2/3)/2 = 0.7917

    >>> round(pr_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.7917
    """
    from ._operating import pr_auc_from_curve  # the state -> value kernel, shared with BinaryCurve

    return pr_auc_from_curve(_binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy))


def gini(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Gini coefficient (accuracy ratio) of a binary scorer: 2·AUC − 1, in [−1, 1].

    Ties count one half, as in :func:`roc_auc`; one class present: ``nan``
    with ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    >>> gini([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])  # AUC 0.75
    0.5
    """
    y, s, w = _binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy)
    return 2 * binary_auc(y, s, w) - 1


def rank_loss(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Share of (positive, negative) pairs ordered wrongly, ties one half: 1 − AUC.

    .. math:: \frac{1}{W_+ W_-} \sum_{i:y_i=1} \sum_{j:y_j=0}
              w_i w_j \big([s_i < s_j] + \tfrac12 [s_i = s_j]\big)

    Counted from the sorted curve, not as ``1 - roc_auc``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Pairs (pos, neg): (.35, .4) is wrong, the other three right:

    >>> rank_loss([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.25
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return rank_loss_from_curve(c)


def ks_statistic(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Kolmogorov–Smirnov statistic of a binary scorer: max over thresholds of TPR − FPR.

    The largest vertical gap between the ROC curve and the diagonal (the one-
    sided two-sample KS statistic of the negatives' against the positives'
    scores, ``scipy.stats.ks_2samp(neg, pos, alternative="greater")``); at
    least 0, as the point (0, 0) counts. One class present: ``nan`` with a warning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    At threshold 0.8: TPR .5, FPR 0; at 0.35: TPR 1, FPR .5; the gap is .5:

    >>> ks_statistic([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return ks_from_curve(c)


def break_even_point(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Precision-recall break-even point: the precision where precision equals recall.

    The PR curve is walked from the highest threshold down, starting at
    (recall 0, precision 1); at the first point where precision − recall ≤ 0
    the value is that point's precision if the gap is exactly 0, otherwise the
    crossing of the straight segment from the previous point (linear
    interpolation of precision and recall between the two bracketing points).
    Without ties this is the precision at rank R (R-precision). No positive:
    ``nan`` with ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Points: (R .5, P 1) then, with the tie at .5, (R 1, P ⅔); gaps .5 and −⅓,
    so t = .5 / (.5 + ⅓) = .6 and P = 1 + .6·(⅔ − 1) = 0.8:

    >>> round(break_even_point([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1]), 12)
    0.8
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return bep_from_curve(c)
