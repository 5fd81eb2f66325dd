"""Kernels of the count-based classification metrics: confusion state -> value.

Every count metric is a pure function of a confusion state. For 1-D labels the
state is the ``k × k`` confusion matrix (:class:`ConfusionState`, rows true,
columns predicted), built by one ``np.bincount(true * k + pred)``; its per-class
reduction is :class:`ClassCounts` (``tp``, predicted and true totals, and the
total weight, from which ``fp``, ``fn`` and ``tn`` follow). Multilabel targets
give :class:`ClassCounts` directly, per label, or per sample for
``average="samples"``.

The ``*_from_confusion`` functions take a matrix (and, where labels are
selected, the positions of the selected labels), the ``*_from_counts``
functions a :class:`ClassCounts`; neither validates. Streaming and Dask front
ends merge states with :func:`_merge_confusion` and call the same functions.
Weighted cells are exact sums (:mod:`._counts_exact`), so merged states equal
one-shot states bit for bit whatever the weights.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, Union

import numpy as np

from .._errors import ParameterError, UndefinedMetricWarning
from .._limbs import SegmentSums
from .._typing import AnyArray, BoolArray, FloatArray, IntArray
from .._validation import undefined
from ._counts_exact import (
    class_sums,
    class_sums_of_rows,
    counted_cells,
    merge_cells,
    rounded_matrix,
    select_cells,
    weighted_cells,
)
from ._labels import encode

__all__: list[str] = []

#: Largest number of cells of a confusion matrix built by one ``np.bincount``.
CM_MAX_CELLS = 1 << 22
PRF = ("precision", "recall", "f-score")


@dataclass(frozen=True, slots=True)
class LabelCodes:
    """1-D labels as integer codes into ``classes``.

    ``true`` and ``pred`` hold codes in ``[0, classes.size)``. When ``dense`` is
    false, some entries of ``classes`` may occur in neither array (the gaps of
    an integer range coded by offset); :func:`_confusion_state` drops them.
    """

    true: IntArray
    pred: IntArray
    classes: AnyArray
    dense: bool


@dataclass(frozen=True, slots=True)
class ConfusionState:
    """Confusion matrix over ``classes`` (rows true, columns predicted).

    ``matrix`` is int64 for unit weights and float64 for weighted counts; then
    ``cells`` holds every cell as an exact sum (row-major), ``matrix`` its rounding.
    """

    matrix: AnyArray
    classes: AnyArray
    cells: SegmentSums | None = None


@dataclass(frozen=True, slots=True)
class ClassCounts:
    """One-vs-rest counts per class (or per sample for ``average="samples"``).

    ``pred`` = tp + fp, ``true`` = tp + fn (the support); ``total`` is the
    weight of all samples (per sample, ``weight × n_labels``), so
    ``tn = total − pred − true + tp``.
    """

    classes: AnyArray
    tp: AnyArray
    pred: AnyArray
    true: AnyArray
    total: Any

    @property
    def tn(self) -> AnyArray:
        """True negatives: weight of samples neither true nor predicted in the class."""
        return np.asarray(self.total - self.pred - self.true + self.tp)

    @property
    def fp(self) -> AnyArray:
        """False positives."""
        return np.asarray(self.pred - self.tp)

    @property
    def fn(self) -> AnyArray:
        """False negatives."""
        return np.asarray(self.true - self.tp)

    def take(self, positions: IntArray, extra: AnyArray | None = None) -> ClassCounts:
        """The counts of the classes at ``positions``.

        Positions past the end are the classes ``extra`` (labels absent from the
        data), with zero counts.
        """
        n_extra = 0 if extra is None else extra.size

        def pick(a: AnyArray) -> AnyArray:
            if n_extra:
                a = np.concatenate([a, np.zeros(n_extra, dtype=a.dtype)])
            return a[positions]

        classes = self.classes
        if extra is not None and n_extra:
            classes = np.concatenate([classes, extra])
        return ClassCounts(
            classes[positions], pick(self.tp), pick(self.pred), pick(self.true), self.total
        )


# ---------------------------------------------------------------- chunk -> state


def _confusion_state(
    codes: LabelCodes, weights: FloatArray | None, int_weights: AnyArray | None = None
) -> ConfusionState:
    """Confusion matrix of coded labels: ``np.bincount(true * k + pred)``.

    With ``weights``, every cell is an exact sum (``int_weights``: the same
    weights as given, integers, summed as integers) rounded once. Classes that
    occur in neither array (gaps of offset coding) are dropped; a class seen only
    with zero weight is kept, as scikit-learn keeps it.
    """
    k = codes.classes.size
    key = codes.true * k
    key += codes.pred
    seen = np.bincount(key, minlength=k * k).reshape(k, k)
    keep = None if codes.dense else seen.any(axis=0) | seen.any(axis=1)
    if keep is not None and keep.all():
        keep = None
    classes = codes.classes if keep is None else codes.classes[keep]
    if weights is None:
        return ConfusionState(seen if keep is None else seen[np.ix_(keep, keep)], classes)
    cells = weighted_cells(key, k * k, weights, int_weights)
    if keep is not None:
        cells = select_cells(cells, k, np.flatnonzero(keep))
    return ConfusionState(rounded_matrix(cells, classes.size), classes, cells)


def _counts_of_state(state: ConfusionState) -> ClassCounts:
    """Per-class counts of a confusion state (exact sums of cells when weighted)."""
    if state.cells is None:
        return _counts_from_confusion(state.matrix, state.classes)
    return ClassCounts(state.classes, *class_sums(state.cells, state.classes.size))


def _class_counts(
    codes: LabelCodes, weights: FloatArray | None, int_weights: AnyArray | None = None
) -> ClassCounts:
    """Per-class counts of coded labels.

    From the confusion matrix when it is small, else (many classes) from three
    sums of length k (``np.bincount``, or exact sums with weights).
    """
    k = codes.classes.size
    if k * k <= CM_MAX_CELLS or not codes.dense:
        return _counts_of_state(_confusion_state(codes, weights, int_weights))
    if weights is not None:
        sums = class_sums_of_rows(codes.true, codes.pred, k, weights, int_weights)
        return ClassCounts(codes.classes, *sums)
    hit = codes.true == codes.pred
    return ClassCounts(
        codes.classes,
        np.bincount(codes.true[hit], minlength=k),
        np.bincount(codes.pred, minlength=k),
        np.bincount(codes.true, minlength=k),
        codes.true.size,
    )


def _multilabel_counts(
    y_true: BoolArray, y_pred: BoolArray, weights: FloatArray | None, *, samplewise: bool = False
) -> ClassCounts:
    """Counts per label (columns) of indicator matrices, or per sample (rows)."""
    both = y_true & y_pred
    n, n_labels = y_true.shape
    if samplewise:
        tp, pred, true = (np.count_nonzero(m, axis=1) for m in (both, y_pred, y_true))
        if weights is None:
            return ClassCounts(np.arange(n), tp, pred, true, np.full(n, n_labels))
        return ClassCounts(
            np.arange(n), tp * weights, pred * weights, true * weights, weights * n_labels
        )
    if weights is None:
        tp, pred, true = (np.count_nonzero(m, axis=0) for m in (both, y_pred, y_true))
        return ClassCounts(np.arange(n_labels), tp, pred, true, n)
    return ClassCounts(
        np.arange(n_labels),
        weights @ both,
        weights @ y_pred,
        weights @ y_true,
        float(weights.sum()),
    )


# ---------------------------------------------------------------- state ⊕ state


def _merge_confusion(a: ConfusionState, b: ConfusionState) -> ConfusionState:
    """Sum of two confusion states over the sorted union of their classes.

    If either is weighted, the cells are added exactly (row counts as cells).
    """
    same = a.classes.shape == b.classes.shape and np.array_equal(a.classes, b.classes)
    classes = a.classes if same else np.union1d(a.classes, b.classes)
    k = classes.size
    if a.cells is not None or b.cells is not None:
        ca = counted_cells(a.matrix) if a.cells is None else a.cells
        cb = counted_cells(b.matrix) if b.cells is None else b.cells
        pos_a = np.arange(k) if same else encode(a.classes, classes, "classes")
        pos_b = np.arange(k) if same else encode(b.classes, classes, "classes")
        cells = merge_cells(ca, pos_a, cb, pos_b, k)
        return ConfusionState(rounded_matrix(cells, k), classes, cells)
    if same:
        return ConfusionState(a.matrix + b.matrix, a.classes)
    cm = np.zeros((k, k), dtype=np.result_type(a.matrix, b.matrix))
    for s in (a, b):
        pos = encode(s.classes, classes, "classes")
        cm[np.ix_(pos, pos)] += s.matrix
    return ConfusionState(cm, classes)


def _counts_from_confusion(cm: AnyArray, classes: AnyArray | None = None) -> ClassCounts:
    """Per-class one-vs-rest counts of a confusion matrix.

    >>> c = _counts_from_confusion(np.array([[3, 1], [2, 4]]))
    >>> c.tp.tolist(), c.pred.tolist(), c.true.tolist(), c.tn.tolist()
    ([3, 4], [5, 5], [4, 6], [4, 3])
    """
    if classes is None:
        classes = np.arange(cm.shape[0])
    return ClassCounts(classes, np.diagonal(cm).copy(), cm.sum(axis=0), cm.sum(axis=1), cm.sum())


def _take_square(cm: AnyArray, positions: IntArray) -> AnyArray:
    """``cm[positions][:, positions]``, positions past the end selecting zero rows/columns."""
    k = cm.shape[0]
    top = int(positions.max(initial=-1)) + 1
    if top > k:
        padded = np.zeros((top, top), dtype=cm.dtype)
        padded[:k, :k] = cm
        cm = padded
    return cm[np.ix_(positions, positions)]


# ---------------------------------------------------------------- state -> value


def _warn_prf(average: str | None, modifier: str, msg_start: str, result_size: int) -> None:
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if result_size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{msg_start} ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. "
        "Use `zero_division` parameter to control this behavior.",
        UndefinedMetricWarning,
        stacklevel=5,
    )


P = ParamSpec("P")
Score = Union[float, FloatArray]  # noqa: UP007 - a runtime alias  # one value, or one per class (``average=None``)


def returns_score(fn: Callable[P, Any]) -> Callable[P, Score]:
    """Type a count metric's result: a Python float, or a float64 array per class."""

    @functools.wraps(fn)
    def typed(*args: P.args, **kwargs: P.kwargs) -> Score:
        out = fn(*args, **kwargs)
        if np.ndim(out) == 0:
            return float(out)
        arr: FloatArray = np.asarray(out, dtype=np.float64)
        return arr

    return typed


def _divide(
    num: AnyArray,
    den: AnyArray,
    metric: str,
    modifier: str,
    average: str | None,
    warn_for: Sequence[str],
    zero_division: Any,
) -> FloatArray:
    """``num / den``; where ``den == 0`` the ``zero_division`` value, warning for "warn"."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    mask = den == 0
    result: FloatArray = num / np.where(mask, 1.0, den)
    if not mask.any():
        return result
    warn = isinstance(zero_division, str)
    result[mask] = 0.0 if warn else float(zero_division)
    if warn and metric in warn_for:
        _warn_prf(average, modifier, f"{metric.capitalize()} is", result.shape[0])
    return result


def _nanaverage(a: FloatArray, weights: AnyArray | None) -> float:
    """Weighted mean ignoring NaN; all-zero weights fall back to the plain mean (sklearn)."""
    mask = np.isnan(a)
    if a.size == 0 or mask.all():
        return float("nan")
    a = a[~mask]
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)[~mask]
        if w.sum() != 0:
            return float(np.average(a, weights=w))
    return float(a.mean())


def _average_weights(c: ClassCounts, average: str | None, sample_weight: Any) -> AnyArray | None:
    if average == "weighted":
        return np.asarray(c.true)
    if average == "samples":
        return None if sample_weight is None else np.asarray(sample_weight)
    return None


def _micro(average: str | None, *arrays: AnyArray) -> tuple[AnyArray, ...]:
    if average != "micro":
        return arrays
    return tuple(np.sum(a, keepdims=True).reshape(1) for a in arrays)


def _prf_from_counts(
    c: ClassCounts,
    *,
    average: str | None,
    beta: float = 1.0,
    zero_division: Any = "warn",
    warn_for: Sequence[str] = PRF,
    sample_weight: FloatArray | None = None,
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support, per class or averaged (sklearn's rules).

    ``average="binary"`` expects ``c`` to hold the positive class only;
    ``"samples"`` expects per-sample counts and ``sample_weight`` as their weights.
    Averages ignore classes whose value is ``nan`` (``zero_division=nan``).
    """
    tp, pred, true = _micro(average, c.tp, c.pred, c.true)
    precision = _divide(tp, pred, "precision", "predicted", average, warn_for, zero_division)
    recall = _divide(tp, true, "recall", "true", average, warn_for, zero_division)
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        b2 = beta**2
        num = (1 + b2) * np.asarray(tp, dtype=np.float64)
        den = b2 * np.asarray(true, dtype=np.float64) + np.asarray(pred, dtype=np.float64)
        f = _divide(num, den, "f-score", "true nor predicted", average, warn_for, zero_division)
    if average is None:
        return precision, recall, f, c.true
    w = _average_weights(c, average, sample_weight)
    return _nanaverage(precision, w), _nanaverage(recall, w), _nanaverage(f, w), None


def _prf_from_confusion(
    cm: AnyArray, *, select: IntArray | None = None, **options: Any
) -> tuple[Any, Any, Any, Any]:
    """:func:`_prf_from_counts` of a confusion matrix, for the classes at ``select``."""
    c = _counts_from_confusion(cm)
    return _prf_from_counts(c if select is None else c.take(select), **options)


#: numerator, denominator (attributes of the counts) and what is missing when it is 0
RATIOS: dict[str, tuple[str, str, str]] = {
    "specificity": ("tn", "negatives", "negative"),
    "false_positive_rate": ("fp", "negatives", "negative"),
    "false_negative_rate": ("fn", "true", "true"),
    "false_discovery_rate": ("fp", "pred", "predicted"),
    "false_omission_rate": ("fn", "predicted_negatives", "predicted negative"),
    "negative_predictive_value": ("tn", "predicted_negatives", "predicted negative"),
}


def _count(c: ClassCounts, name: str) -> Any:
    if name == "negatives":
        return c.total - np.asarray(c.true)
    if name == "predicted_negatives":
        return c.total - np.asarray(c.pred)
    return np.asarray(getattr(c, name))


def ratio_from_counts(
    name: str,
    c: ClassCounts,
    *,
    average: str | None,
    zero_division: Any = "warn",
    sample_weight: Any = None,
) -> Any:
    """The ratio ``name`` of :data:`RATIOS` per class, or averaged (state -> value)."""
    num_name, den_name, missing = RATIOS[name]
    num, den = _micro(average, _count(c, num_name), _count(c, den_name))
    label = name.replace("_", " ")
    value = _divide(num, den, label, missing, average, (label,), zero_division)
    if average is None:
        return value
    return _nanaverage(value, _average_weights(c, average, sample_weight))


def _specificity_from_counts(
    c: ClassCounts,
    *,
    average: str | None,
    zero_division: Any = "warn",
    sample_weight: FloatArray | None = None,
) -> Any:
    """True-negative rate tn / (tn + fp), per class or averaged as recall is."""
    return ratio_from_counts(
        "specificity", c, average=average, zero_division=zero_division, sample_weight=sample_weight
    )


def _jaccard_from_counts(
    c: ClassCounts,
    *,
    average: str | None,
    zero_division: Any = "warn",
    sample_weight: FloatArray | None = None,
) -> Any:
    """Jaccard index tp / (tp + fp + fn), per class or averaged as precision is."""
    num, den = _micro(average, c.tp, c.pred + c.true - c.tp)
    j = _divide(num, den, "jaccard", "true or predicted", average, ("jaccard",), zero_division)
    if average is None:
        return j
    return _nanaverage(j, _average_weights(c, average, sample_weight))


def _accuracy_from_counts(c: ClassCounts, *, normalize: bool = True) -> float:
    """Share (or weight, ``normalize=False``) of samples on the diagonal."""
    correct = float(np.sum(c.tp))
    if not normalize:
        return correct
    if c.total == 0:
        return undefined("accuracy", "the sample weights sum to zero")
    return correct / float(c.total)


def _accuracy_from_confusion(cm: AnyArray, *, normalize: bool = True) -> float:
    """Accuracy of a confusion matrix: trace / sum."""
    return _accuracy_from_counts(_counts_from_confusion(cm), normalize=normalize)


def _balanced_accuracy_from_counts(c: ClassCounts, *, adjusted: bool = False) -> float:
    """Mean recall over the classes present in y_true; chance-adjusted if asked."""
    true = np.asarray(c.true, dtype=np.float64)
    keep = true != 0
    if not keep.all():
        warnings.warn(
            "y_pred contains classes not in y_true (or only with zero weight); balanced "
            "accuracy leaves them out",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    if not keep.any():
        return undefined("balanced_accuracy", "no sample of y_true has a positive weight")
    score = float(np.mean(c.tp[keep] / true[keep]))
    if adjusted:
        if keep.sum() == 1:  # (score − 1) / 0, as scikit-learn computes it
            value = -math.inf if score < 1 else math.nan
            return undefined("adjusted balanced_accuracy", "y_true has only one class", value)
        chance = 1 / int(keep.sum())
        score = (score - chance) / (1 - chance)
    return score


def _balanced_accuracy_from_confusion(cm: AnyArray, *, adjusted: bool = False) -> float:
    """Balanced accuracy of a confusion matrix (rows true)."""
    return _balanced_accuracy_from_counts(_counts_from_confusion(cm), adjusted=adjusted)


def _mcc_from_counts(c: ClassCounts) -> float:
    r"""Matthews correlation (Gorodkin's R_K for k classes); 0 where undefined.

    .. math:: \frac{c\,s - \sum_k p_k t_k}{\sqrt{(s^2 - \sum_k p_k^2)(s^2 - \sum_k t_k^2)}}

    The sums are first scaled by a power of two that brings ``s`` near 1 (exact,
    and the value is scale-free), so huge or tiny weights neither overflow nor
    underflow the squares.
    """
    t_sum = np.asarray(c.true, dtype=np.float64)
    p_sum = np.asarray(c.pred, dtype=np.float64)
    n_correct = float(np.sum(c.tp, dtype=np.float64))
    n = float(p_sum.sum())
    if n > 0 and math.isfinite(n):
        scale = math.ldexp(1.0, -math.frexp(n)[1])
        t_sum, p_sum, n_correct, n = t_sum * scale, p_sum * scale, n_correct * scale, n * scale
    cov_tp = n_correct * n - float(np.dot(t_sum, p_sum))
    cov_pp = n**2 - float(np.dot(p_sum, p_sum))
    cov_tt = n**2 - float(np.dot(t_sum, t_sum))
    if cov_pp * cov_tt == 0:
        return 0.0
    return float(cov_tp / np.sqrt(cov_pp * cov_tt))


def _mcc_from_confusion(cm: AnyArray) -> float:
    """Matthews correlation of a confusion matrix."""
    return _mcc_from_counts(_counts_from_confusion(cm))


def _kappa_weights(k: int, weights: str | None) -> FloatArray:
    if weights is None:
        return np.ones((k, k)) - np.eye(k)
    grid = np.arange(k, dtype=np.float64)
    diff = grid[None, :] - grid[:, None]
    if weights == "linear":
        return np.abs(diff)
    if weights == "quadratic":
        return diff**2
    raise ParameterError(f"weights={weights!r} is not one of None, 'linear', 'quadratic'")


def _kappa_from_confusion(
    cm: AnyArray, *, weights: str | None = None, replace_undefined_by: float = float("nan")
) -> float:
    r"""Cohen's kappa of a confusion matrix between two raters, optionally weighted.

    .. math:: \kappa = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}},
              \quad E = \frac{\text{row sums} \otimes \text{column sums}}{n}
    """
    cm = np.asarray(cm, dtype=np.float64)
    w = _kappa_weights(cm.shape[0], weights)
    sum0, sum1 = cm.sum(axis=0), cm.sum(axis=1)
    n = sum0.sum()
    if n == 0:
        return undefined(
            "cohen_kappa", "no sample has both labels in labels=", replace_undefined_by
        )
    expected = np.outer(sum0, sum1) / n
    den = float(np.sum(w * expected))
    if den == 0:
        return undefined(
            "cohen_kappa", "the two raters have only one label in common", replace_undefined_by
        )
    return float(1 - np.sum(w * cm) / den)


def _kappa_from_counts(c: ClassCounts, *, replace_undefined_by: float = float("nan")) -> float:
    """Unweighted Cohen's kappa from per-class counts (when the matrix is too large)."""
    n = float(c.total)
    if n == 0:
        return undefined("cohen_kappa", "the sample weights sum to zero", replace_undefined_by)
    den = n - float(np.dot(c.pred, c.true)) / n
    if den == 0:
        return undefined(
            "cohen_kappa", "the two raters have only one label in common", replace_undefined_by
        )
    return float(1 - (n - float(np.sum(c.tp))) / den)


def _hamming_from_counts(c: ClassCounts, *, n_outputs: int = 1) -> float:
    """Share of wrong labels: Σ fp / n for 1-D labels; (fp + fn) / (n × L) for multilabel."""
    if c.total == 0:
        return undefined("hamming_loss", "the sample weights sum to zero")
    if n_outputs == 1:  # directly: each wrong sample is a false positive of its predicted class
        return float(np.sum(c.fp)) / float(c.total)
    wrong = float(np.sum(c.fp)) + float(np.sum(c.fn))
    return wrong / (n_outputs * float(c.total))


def _normalize_confusion(cm: AnyArray, normalize: str | None) -> AnyArray:
    """Rows ("true"), columns ("pred") or all cells ("all") divided by their sum; 0/0 is 0."""
    if normalize is None:
        return cm
    with np.errstate(all="ignore"):
        if normalize == "true":
            out = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            out = cm / cm.sum(axis=0, keepdims=True)
        elif normalize == "all":
            out = cm / cm.sum()
        else:
            raise ParameterError(
                f"normalize={normalize!r} is not one of None, 'true', 'pred', 'all'"
            )
    result: AnyArray = np.nan_to_num(out)
    return result
