"""Count-based classification metrics: precision, recall, F-beta, specificity, Jaccard, E.

Each public function validates once (:mod:`._counts_input`), reduces the
targets to per-class counts and calls a kernel of :mod:`._counts_state`.
scikit-learn's semantics throughout: ``average`` (None, "binary", "micro",
"macro", "weighted", "samples"), ``labels`` (order kept; labels absent from
the data score with zero counts), ``pos_label`` (used by ``average="binary"``
only), ``zero_division`` ("warn": 0 with :class:`UndefinedMetricWarning`; 0;
1; ``nan``, which the averages skip) and ``sample_weight``.

The matrix-based metrics (confusion matrices, accuracy, kappa, MCC, Hamming)
live in :mod:`._counts_matrix` and are re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._errors import ParameterError
from .._typing import ArrayLike, FloatArray
from ._counts_input import setwise_counts, targets, zero_division_value
from ._counts_matrix import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    confusion_matrix,
    hamming_loss,
    matthews_corrcoef,
    multilabel_confusion_matrix,
)
from ._counts_state import (
    PRF,
    ClassCounts,
    _jaccard_from_counts,
    _prf_from_counts,
    _specificity_from_counts,
    returns_score,
)

__all__ = [
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "confusion_matrix",
    "e_measure",
    "f1",
    "fbeta",
    "hamming_loss",
    "jaccard",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision",
    "precision_recall_fscore_support",
    "recall",
    "specificity",
]

Label = Any  # a class label: int, bool, str (or float)


def _counts(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    labels: ArrayLike | None,
    pos_label: Label,
    average: str | None,
    sample_weight: ArrayLike | None,
    zero_division: Any,
) -> tuple[ClassCounts, FloatArray | None]:
    zero_division_value(zero_division)
    tg = targets(y_true, y_pred, sample_weight)
    c = setwise_counts(tg, labels=labels, pos_label=pos_label, average=average)
    return c, tg.weights


def _check_beta(beta: float) -> None:
    if not isinstance(beta, (int, float)) or math.isnan(beta) or beta < 0:
        raise ParameterError(f"beta={beta!r} must be a number >= 0 (inf gives recall)")


def precision_recall_fscore_support(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float = 1.0,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = None,
    warn_for: Sequence[str] = PRF,
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    r"""Precision, recall, F-beta and support, per class or averaged.

    .. math:: P = \frac{tp}{tp + fp},\quad R = \frac{tp}{tp + fn},\quad
              F_\beta = \frac{(1 + \beta^2)\,tp}{(1 + \beta^2)\,tp + \beta^2 fn + fp}

    Same results as :func:`sklearn.metrics.precision_recall_fscore_support`.
    F is computed from the counts, so it is 0 (not undefined) when tp = 0 and
    tp + fp + fn > 0. Averages: "micro" pools the counts, "macro" is the plain
    mean over classes, "weighted" weights by support, "samples" averages per
    sample (multilabel). ``warn_for`` names the ratios that warn when undefined.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    beta : float, default=1.0
        Weight of recall against precision.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    warn_for : tuple of str
        The metrics that warn when undefined (scikit-learn's ``warn_for``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Returns
    -------
    precision, recall, fbeta : float or ndarray
        Arrays (one entry per class) when ``average=None``, else floats.
    support : ndarray or None
        Weight of true samples per class (int for unit weights); None when averaged.

    Examples
    --------
    Classes 0 and 1: tp = (1, 3), predicted (3, 3), true (3, 3):

    >>> p, r, f, s = precision_recall_fscore_support([0, 0, 0, 1, 1, 1], [0, 1, 0, 1, 1, 0])
    >>> p.tolist(), s.tolist()
    ([0.6666666666666666, 0.6666666666666666], [3, 3])
    """
    _check_beta(beta)
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    return _prf_from_counts(
        c, average=average, beta=beta, zero_division=zero_division, warn_for=warn_for,
        sample_weight=w,
    )  # fmt: skip


@returns_score
def precision(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""Precision tp / (tp + fp): the share of predicted positives that are right.

    As :func:`sklearn.metrics.precision_score`; undefined (``zero_division``)
    for a class never predicted. Options as :func:`precision_recall_fscore_support`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    tp = 3, fp = 1:

    >>> precision([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.75
    """
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    opts = {"average": average, "zero_division": zero_division, "sample_weight": w}
    return _prf_from_counts(c, warn_for=("precision",), **opts)[0]


@returns_score
def recall(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""Recall (sensitivity, true-positive rate) tp / (tp + fn).

    As :func:`sklearn.metrics.recall_score`; undefined (``zero_division``) for
    a class absent from ``y_true``. Options as :func:`precision_recall_fscore_support`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    tp = 3, fn = 2:

    >>> recall([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.6
    """
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    opts = {"average": average, "zero_division": zero_division, "sample_weight": w}
    return _prf_from_counts(c, warn_for=("recall",), **opts)[1]


@returns_score
def fbeta(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""F-beta score, the weighted harmonic mean of precision and recall.

    .. math:: F_\beta = \frac{(1 + \beta^2)\,tp}{(1 + \beta^2)\,tp + \beta^2 fn + fp}

    As :func:`sklearn.metrics.fbeta_score`: ``beta`` > 1 favours recall,
    ``beta=0`` is precision, ``beta=inf`` recall. Undefined (``zero_division``)
    only when tp + fp + fn = 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    beta : float, default=1.0
        Weight of recall against precision.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    tp = 3, fp = 1, fn = 2, beta = 2: 5·3 / (5·3 + 4·2 + 1) = 15/24:

    >>> fbeta([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0], beta=2)
    0.625
    """
    _check_beta(beta)
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    opts = {"average": average, "zero_division": zero_division, "sample_weight": w}
    return _prf_from_counts(c, beta=beta, warn_for=("f-score",), **opts)[2]


@returns_score
def f1(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""F1 score 2 tp / (2 tp + fp + fn), the harmonic mean of precision and recall.

    As :func:`sklearn.metrics.f1_score`; :func:`fbeta` with ``beta=1``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    tp = 3, fp = 1, fn = 2: 6 / 9:

    >>> f1([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.6666666666666666
    """
    return fbeta(
        y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division,
    )  # fmt: skip


@returns_score
def e_measure(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    alpha: float = 0.5,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""Van Rijsbergen's effectiveness measure E = 1 − F_β (lower is better).

    .. math:: E = 1 - \frac{1}{\alpha / P + (1 - \alpha) / R}
              = 1 - F_\beta,\quad \alpha = \frac{1}{1 + \beta^2}

    ``alpha`` in [0, 1]: 1 gives 1 − precision, 0 gives 1 − recall, 0.5 gives
    1 − F1. Averages, ``labels`` and ``pos_label`` as :func:`fbeta`; an average
    of E is 1 − the average of F_β. ``zero_division`` is the value given to an
    undefined F_β, so an undefined E is 1 − ``zero_division``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    alpha : float
        See the formula above.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    P = 3/4, R = 3/5, α = 0.5: E = 1 − 1/(0.5·4/3 + 0.5·5/3) = 1 − 2/3:

    >>> round(e_measure([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0]), 12)
    0.333333333333
    """
    if not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1:
        raise ParameterError(f"alpha={alpha!r} must be a number in [0, 1]")
    beta = math.inf if alpha == 0 else math.sqrt(1 / alpha - 1)
    f = fbeta(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        sample_weight=sample_weight, zero_division=zero_division,
    )  # fmt: skip
    return 1.0 - f


@returns_score
def specificity(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""Specificity (true-negative rate) tn / (tn + fp): the recall of "not this class".

    Per class, the binary specificity equals scikit-learn's recall of the
    negative class. Averaged exactly as recall: "micro" pools tn and fp,
    "macro" is the plain mean, "weighted" weights by each class's support
    (tp + fn, as recall does), "samples" per sample (multilabel). Undefined
    (``zero_division``) for a class that every sample belongs to.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    tn = 1, fp = 1:

    >>> specificity([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.5
    """
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    return _specificity_from_counts(
        c, average=average, zero_division=zero_division, sample_weight=w
    )


@returns_score
def jaccard(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""Jaccard index tp / (tp + fp + fn): intersection over union of true and predicted.

    As :func:`sklearn.metrics.jaccard_score`, which does not accept
    ``zero_division=nan``; here it is accepted and, as in the precision family,
    the averages leave out the classes where the index is ``nan``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        How per-class values are combined (None: one value per class).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    tp = 3, fp = 1, fn = 2: 3 / 6:

    >>> jaccard([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.5
    """
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    return _jaccard_from_counts(c, average=average, zero_division=zero_division, sample_weight=w)
