"""Confusion matrices and the metrics read from the whole matrix.

confusion_matrix, multilabel_confusion_matrix, accuracy, balanced_accuracy,
cohen_kappa, matthews_corrcoef and hamming_loss: validation here, the maths in
the kernels of :mod:`._counts_state`. Re-exported by :mod:`._counts`.
"""

from __future__ import annotations

import numpy as np

from .._errors import ParameterError, ShapeError
from .._typing import AnyArray, ArrayLike
from .._validation import check_option, undefined
from ._counts_exact import int_matrix
from ._counts_input import (
    Targets,
    counts_for_labels,
    indicator_columns,
    matrix_for_labels,
    one_d_counts,
    targets,
)
from ._counts_state import (
    CM_MAX_CELLS,
    ConfusionState,
    _accuracy_from_counts,
    _balanced_accuracy_from_counts,
    _confusion_state,
    _hamming_from_counts,
    _kappa_from_confusion,
    _kappa_from_counts,
    _mcc_from_counts,
    _multilabel_counts,
    _normalize_confusion,
)

__all__ = [
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "confusion_matrix",
    "hamming_loss",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
]


def _one_d(tg: Targets, metric: str) -> Targets:
    if tg.multilabel:
        raise ShapeError(
            f"{metric} needs 1-D labels, not multilabel indicator matrices"
            + ("; use multilabel_confusion_matrix" if metric == "confusion_matrix" else "")
        )
    return tg


def _matrix(
    tg: Targets, labels: ArrayLike | None, name_true: str, *, integer: bool = False
) -> AnyArray:
    """Confusion matrix of 1-D targets; with ``labels``, those rows and columns only.

    Samples whose true or predicted label is not in ``labels`` drop out. With
    ``integer`` and integer weights, the exact int64 matrix.
    """
    codes = tg.codes
    if codes is None:  # pragma: no cover - callers pass 1-D targets
        raise ShapeError("1-D labels are needed")
    state = _confusion_state(codes, tg.weights, tg.raw_weights)
    if integer and state.cells is not None:
        state = ConfusionState(int_matrix(state.cells, state.classes.size), state.classes)

    def true_rows() -> AnyArray:
        counts = state if tg.weights is None else _confusion_state(codes, None)
        rows: AnyArray = counts.matrix.sum(axis=1)
        return rows

    return matrix_for_labels(state, labels, name_true, true_rows)


def confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize: str | None = None,
) -> AnyArray:
    """Confusion matrix C, C[i, j] = weight of samples of true class i predicted as j.

    As :func:`sklearn.metrics.confusion_matrix`: classes are the sorted union
    of both arrays, or ``labels`` in the order given (samples with another
    label are left out; at least one label must occur in ``y_true``). int64
    for unit or integer weights, float64 otherwise. ``normalize``: "true"
    divides rows, "pred" columns, "all" the total (0/0 gives 0). Unlike
    scikit-learn, a 1×1 result does not warn.

    One ``np.bincount(true * k + pred)``; integer labels are coded by an offset,
    without sorting. Weighted cells are exact sums rounded once (the same for
    any order or chunking of the rows); integer weights are summed as integers,
    beyond 2**53 too, and a cell past 2**63 − 1 raises instead of wrapping.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    normalize : bool or str
        See above.

    Examples
    --------
    >>> confusion_matrix(["cat", "dog", "dog", "cat"], ["cat", "dog", "cat", "cat"])
    array([[2, 0],
           [1, 1]])
    """
    check_option(normalize, "normalize", (None, "true", "pred", "all"))
    tg = _one_d(targets(y_true, y_pred, sample_weight), "confusion_matrix")
    cm = _matrix(tg, labels, "y_true", integer=tg.int_weights)
    return _normalize_confusion(cm, normalize)


def multilabel_confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    samplewise: bool = False,
) -> AnyArray:
    """One-vs-rest 2×2 matrices ``[[tn, fp], [fn, tp]]``, one per class (or per sample).

    As :func:`sklearn.metrics.multilabel_confusion_matrix`: for 1-D labels one
    matrix per class (sorted, or ``labels`` in order, absent ones all-negative);
    for indicator matrices one per column (``labels`` are column indices), or
    one per row with ``samplewise=True``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    samplewise : bool, default=False
        One 2×2 matrix per sample (multilabel) instead of per class.

    Examples
    --------
    >>> multilabel_confusion_matrix([0, 1, 1], [1, 1, 0]).tolist()
    [[[1, 1], [1, 0]], [[0, 1], [1, 1]]]
    """
    tg = targets(y_true, y_pred, sample_weight)
    if tg.multilabel:
        t, p = indicator_columns(tg, labels)
        c = _multilabel_counts(t, p, tg.weights, samplewise=samplewise)
    else:
        if samplewise:
            raise ParameterError("samplewise=True is only available for multilabel targets")
        c = counts_for_labels(one_d_counts(tg), labels)
    return np.stack([c.tn, c.fp, c.fn, c.tp], axis=-1).reshape(-1, 2, 2)


def accuracy(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Share of samples predicted exactly right (multilabel: every label of the row right).

    As :func:`sklearn.metrics.accuracy_score`; ``normalize=False`` gives the
    (weighted) number of right samples.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    normalize : bool or str
        See above.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.

    Examples
    --------
    >>> accuracy([0, 1, 2, 2], [0, 2, 2, 2])
    0.75
    """
    tg = targets(y_true, y_pred, sample_weight)
    if not tg.multilabel:
        return _accuracy_from_counts(one_d_counts(tg), normalize=normalize)
    right = np.all(tg.indicator_true == tg.indicator_pred, axis=1)
    w = tg.weights
    hits = float(right.sum()) if w is None else float(w @ right)
    if not normalize:
        return hits
    total = float(tg.n) if w is None else float(w.sum())
    return undefined("accuracy", "the sample weights sum to zero") if total == 0 else hits / total


def balanced_accuracy(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    adjusted: bool = False,
) -> float:
    r"""Mean recall over the classes of ``y_true``.

    .. math:: \mathrm{BA} = \frac1K \sum_k \frac{tp_k}{tp_k + fn_k},\quad
              \text{adjusted: } \frac{\mathrm{BA} - 1/K}{1 - 1/K}

    As :func:`sklearn.metrics.balanced_accuracy_score`. Classes that occur only
    in ``y_pred`` have no recall: they are left out, with an
    :class:`UndefinedMetricWarning` (a UserWarning in scikit-learn). With one
    class in ``y_true`` the adjusted score divides by zero: −inf (nan when every
    sample is right), as in scikit-learn, with a warning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    adjusted : bool, default=False
        Rescale so that chance scores 0 (scikit-learn's ``adjusted``).

    Examples
    --------
    Recall 1/2 for class 0 and 1 for class 1:

    >>> balanced_accuracy([0, 0, 1, 1], [0, 1, 1, 1])
    0.75
    """
    tg = _one_d(targets(y_true, y_pred, sample_weight), "balanced_accuracy")
    return _balanced_accuracy_from_counts(one_d_counts(tg), adjusted=adjusted)


def cohen_kappa(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    weights: str | None = None,
    sample_weight: ArrayLike | None = None,
    replace_undefined_by: float = float("nan"),
) -> float:
    r"""Cohen's kappa: agreement of two raters beyond chance.

    .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}
              = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}}

    O is the confusion matrix of ``y1`` against ``y2``, E the outer product of
    its margins over n; w = 1 off the diagonal (``weights=None``), |i − j|
    ("linear") or (i − j)² ("quadratic"), i and j the positions of the classes
    in the sorted labels (or in ``labels``). As
    :func:`sklearn.metrics.cohen_kappa_score`; undefined (warning,
    ``replace_undefined_by``) when the raters share only one label.

    Parameters
    ----------
    y1 : array-like of shape (n_samples,)
        Labels of the first rater.
    y2 : array-like of shape (n_samples,)
        Labels of the second rater.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    weights : str or array-like, default=None
        See above.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    replace_undefined_by : float, default=nan
        The value where the metric is undefined.

    Examples
    --------
    p_o = 3/4, p_e = (2·1 + 2·3)/16 = 1/2, κ = (3/4 − 1/2)/(1 − 1/2):

    >>> cohen_kappa(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    0.5
    """
    check_option(weights, "weights", (None, "linear", "quadratic"))
    tg = _one_d(targets(y1, y2, sample_weight, ("y1", "y2")), "cohen_kappa")
    codes = tg.codes
    if labels is None and weights is None and codes is not None:
        k = codes.classes.size
        if k * k > CM_MAX_CELLS:
            return _kappa_from_counts(one_d_counts(tg), replace_undefined_by=replace_undefined_by)
    cm = _matrix(tg, labels, "y1")
    return _kappa_from_confusion(cm, weights=weights, replace_undefined_by=replace_undefined_by)


def matthews_corrcoef(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
) -> float:
    r"""Matthews correlation coefficient (multiclass: Gorodkin's R_K).

    .. math:: \mathrm{MCC} = \frac{c\,s - \sum_k p_k t_k}
              {\sqrt{(s^2 - \sum_k p_k^2)(s^2 - \sum_k t_k^2)}}

    s samples, c right, t_k and p_k the true and predicted totals of class k;
    for two classes (tp·tn − fp·fn)/√((tp+fp)(tp+fn)(tn+fp)(tn+fn)). As
    :func:`sklearn.metrics.matthews_corrcoef`: 0 (no warning) when undefined.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.

    Examples
    --------
    tp = tn = 2, fp = fn = 1: (4 − 1) / √(3·3·3·3) = 1/3:

    >>> round(matthews_corrcoef([1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0]), 12)
    0.333333333333
    """
    tg = _one_d(targets(y_true, y_pred, sample_weight), "matthews_corrcoef")
    return _mcc_from_counts(one_d_counts(tg))


def hamming_loss(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
) -> float:
    """Share of wrong labels: wrong samples / n for 1-D labels, wrong cells / (n × L) for multilabel.

    As :func:`sklearn.metrics.hamming_loss`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.

    Examples
    --------
    >>> hamming_loss([[0, 1], [1, 1]], [[0, 0], [1, 1]])
    0.25
    """
    tg = targets(y_true, y_pred, sample_weight)
    if not tg.multilabel:
        return _hamming_from_counts(one_d_counts(tg))
    t, p = tg.indicator_true, tg.indicator_pred
    if t is None or p is None:  # pragma: no cover - multilabel targets have both
        raise ShapeError("indicator matrices are needed")
    return _hamming_from_counts(_multilabel_counts(t, p, tg.weights), n_outputs=t.shape[1])
