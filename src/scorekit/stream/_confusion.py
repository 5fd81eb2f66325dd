"""``ConfusionMatrix``: the streaming front end of the count-based classification metrics.

The state is the confusion matrix over the sorted classes seen
(:class:`~scorekit.classification._counts_state.ConfusionState`, built by
``_confusion_state`` and merged by ``_merge_confusion``); every metric is a
kernel of ``_counts_state`` on it. With sample weights a second matrix of
plain row counts is kept, because the one-shot functions decide whether a
label "occurs" from rows, whatever their weight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import EmptyInputError, LabelError, ParameterError, ShapeError
from .._limbs import SegmentSums, decode_segment_sums, encode_segment_sums
from .._typing import AnyArray, ArrayLike
from .._validation import check_option
from ..classification._counts import _check_beta
from ..classification._counts_exact import counted_cells, int_matrix, rounded_matrix
from ..classification._counts_input import (
    counts_for_labels,
    matrix_for_labels,
    select_counts,
    targets,
    zero_division_value,
)
from ..classification._counts_state import (
    CM_MAX_CELLS,
    PRF,
    ClassCounts,
    ConfusionState,
    _accuracy_from_counts,
    _balanced_accuracy_from_counts,
    _confusion_state,
    _counts_of_state,
    _hamming_from_counts,
    _jaccard_from_counts,
    _kappa_from_confusion,
    _kappa_from_counts,
    _mcc_from_counts,
    _merge_confusion,
    _normalize_confusion,
    _prf_from_counts,
    _specificity_from_counts,
    ratio_from_counts,
)
from ..classification._labels import given_labels
from ._base import Accumulator, encode_array, plain
from ._labels import empty_chunk
from ._statecheck import Fields, check_increasing

__all__ = ["ConfusionMatrix"]

#: Most classes an accumulator takes: its k × k matrices stay below 512 MiB each.
MAX_CLASSES = 8192


@dataclass(frozen=True, slots=True)
class _Confusion:
    """Row counts per cell and, once weights were seen, weighted sums per cell (same classes)."""

    counts: ConfusionState  # int64
    weighted: ConfusionState | None  # exact cells; None while every chunk was unweighted


def _as_weighted(s: _Confusion) -> ConfusionState:
    if s.weighted is not None:
        return s.weighted
    m = s.counts.matrix
    return ConfusionState(m.astype(np.float64), s.counts.classes, counted_cells(m))


def _cells(s: ConfusionState) -> SegmentSums:
    if s.cells is None:  # pragma: no cover - weighted states always carry their cells
        raise ParameterError("a weighted confusion state has no exact cells")
    return s.cells


def _merge(a: _Confusion, b: _Confusion) -> _Confusion:
    counts = _merge_confusion(a.counts, b.counts)
    if a.weighted is None and b.weighted is None:
        return _Confusion(counts, None)
    return _Confusion(counts, _merge_confusion(_as_weighted(a), _as_weighted(b)))


class ConfusionMatrix(Accumulator):
    """Streaming count-based classification metrics on a confusion matrix.

    Holds the ``k × k`` confusion matrix over the classes seen (sorted, as
    the one-shot functions sort them; at most 8192 classes). ``update(y_true, y_pred,
    sample_weight=...)`` adds a chunk of 1-D labels (ints, bools or
    strings; multilabel indicator matrices are not supported). Every method
    equals the one-shot function of the same name on all rows seen, with
    the same ``average``, ``labels``, ``pos_label`` and ``zero_division``
    semantics; bit for bit, with any weights and in any chunking or merge
    order, since every weighted cell is an exact sum rounded once.

    Parameters
    ----------
    labels : array-like, default=None
        Default ``labels=`` of the methods that take it (precision, recall,
        F-beta, specificity, Jaccard, confusion matrices, Cohen's kappa).

    Examples
    --------
    >>> acc = ConfusionMatrix().update([0, 1, 2], [0, 2, 2]).update([2], [2])
    >>> acc.accuracy(), acc.f1(average="macro")
    (0.75, 0.6)
    """

    _kind = "ConfusionMatrix"

    def __init__(self, labels: ArrayLike | None = None) -> None:
        super().__init__()
        given = given_labels(labels)
        self.labels: AnyArray | None = given
        self._int_weights = True  # every weighted chunk had integer weights
        self._strings: bool | None = None  # labels are strings (None: nothing seen)

    def _merge_state(self, a: _Confusion, b: _Confusion) -> _Confusion:
        return _merge(a, b)

    def _state_size(self, state: _Confusion) -> int:
        return int(state.counts.classes.size)

    def _params(self) -> dict[str, Any]:
        return {"labels": None if self.labels is None else plain(self.labels)}

    def _check_kind(self, strings: bool | None) -> None:
        if strings is None:
            return
        if self._strings is not None and strings != self._strings:
            raise LabelError(
                "labels are strings in one chunk and numbers in another; they cannot mix"
            )
        self._strings = strings

    def update(
        self, y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
    ) -> ConfusionMatrix:
        """Add a chunk of labels (arguments as :func:`scorekit.confusion_matrix`); returns self."""
        if empty_chunk(y_true, y_pred, sample_weight):
            return self
        tg = targets(y_true, y_pred, sample_weight)
        if tg.codes is None:
            raise ShapeError(
                "ConfusionMatrix takes 1-D labels; multilabel indicator matrices are not supported"
            )
        self._check_kind(tg.codes.classes.dtype.kind in "USO")
        seen = self._state()
        bound = tg.codes.classes.size + (0 if seen is None else seen.counts.classes.size)
        if (
            bound > MAX_CLASSES
            and np.union1d(
                tg.codes.classes, tg.codes.classes[:0] if seen is None else seen.counts.classes
            ).size
            > MAX_CLASSES
        ):
            raise LabelError(
                f"more than {MAX_CLASSES} classes seen: a confusion matrix of that many "
                "classes does not fit in memory (use the one-shot functions, which count "
                "per class without the matrix)"
            )
        counts = _confusion_state(tg.codes, None)
        weighted = None
        if tg.weights is not None:
            weighted = _confusion_state(tg.codes, tg.weights, tg.raw_weights)
            self._int_weights = self._int_weights and tg.int_weights
        self._pending.push(_Confusion(counts, weighted))
        return self

    def _absorb(self, other: Any) -> None:
        self._check_kind(other._strings)
        self._int_weights = self._int_weights and other._int_weights
        super()._absorb(other)

    # -- state access -------------------------------------------------------------

    def _confusion(self) -> _Confusion:
        state = self._state()
        if state is None:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        c: _Confusion = state
        return c

    def _cm(self) -> ConfusionState:
        s = self._confusion()
        return s.counts if s.weighted is None else s.weighted

    def _class_counts(self) -> ClassCounts:
        return _counts_of_state(self._cm())

    def _labels(self, labels: ArrayLike | None) -> ArrayLike | None:
        return self.labels if labels is None else labels

    def _matrix(
        self, labels: ArrayLike | None, name_true: str, *, integer: bool = False
    ) -> AnyArray:
        """The matrix, restricted to ``labels`` (rows and columns), as the one-shot ``_matrix``."""
        counts = self._confusion().counts.matrix
        cm = self._cm()
        if integer and cm.cells is not None:
            cm = ConfusionState(int_matrix(cm.cells, cm.classes.size), cm.classes)
        return matrix_for_labels(cm, self._labels(labels), name_true, lambda: counts.sum(axis=1))

    @property
    def classes(self) -> AnyArray:
        """The classes seen, sorted: the rows and columns of :meth:`confusion_matrix`."""
        return self._cm().classes

    # -- metrics ------------------------------------------------------------------

    def confusion_matrix(
        self, *, labels: ArrayLike | None = None, normalize: str | None = None
    ) -> AnyArray:
        """The confusion matrix (rows true, columns predicted); see :func:`scorekit.confusion_matrix`."""
        check_option(normalize, "normalize", (None, "true", "pred", "all"))
        cm = self._matrix(labels, "y_true", integer=self._int_weights)
        return _normalize_confusion(cm, normalize)

    def multilabel_confusion_matrix(self, *, labels: ArrayLike | None = None) -> AnyArray:
        """One-vs-rest ``[[tn, fp], [fn, tp]]`` per class; see :func:`scorekit.multilabel_confusion_matrix`."""
        c = counts_for_labels(self._class_counts(), self._labels(labels))
        return np.stack([c.tn, c.fp, c.fn, c.tp], axis=-1).reshape(-1, 2, 2)

    def accuracy(self, *, normalize: bool = True) -> float:
        """Share of rows predicted right; see :func:`scorekit.accuracy`."""
        return _accuracy_from_counts(self._class_counts(), normalize=normalize)

    def balanced_accuracy(self, *, adjusted: bool = False) -> float:
        """Mean recall over the classes of ``y_true``; see :func:`scorekit.balanced_accuracy`."""
        return _balanced_accuracy_from_counts(self._class_counts(), adjusted=adjusted)

    def matthews_corrcoef(self) -> float:
        """Matthews correlation (Gorodkin's R_K); see :func:`scorekit.matthews_corrcoef`."""
        return _mcc_from_counts(self._class_counts())

    def hamming_loss(self) -> float:
        """1 − accuracy; see :func:`scorekit.hamming_loss`."""
        return _hamming_from_counts(self._class_counts())

    def cohen_kappa(
        self,
        *,
        labels: ArrayLike | None = None,
        weights: str | None = None,
        replace_undefined_by: float = float("nan"),
    ) -> float:
        """Cohen's kappa of ``y_true`` against ``y_pred``; see :func:`scorekit.cohen_kappa`."""
        check_option(weights, "weights", (None, "linear", "quadratic"))
        labels = self._labels(labels)
        if labels is None and weights is None and self.classes.size**2 > CM_MAX_CELLS:
            c = self._class_counts()
            return _kappa_from_counts(c, replace_undefined_by=replace_undefined_by)
        cm = self._matrix(labels, "y1")
        return _kappa_from_confusion(cm, weights=weights, replace_undefined_by=replace_undefined_by)

    def _selected(
        self, labels: ArrayLike | None, pos_label: Any, average: str | None, zero_division: Any
    ) -> ClassCounts:
        zero_division_value(zero_division)
        counts = self._class_counts()
        return select_counts(counts, self._labels(labels), pos_label, average, stacklevel=4)

    def precision_recall_fscore_support(
        self,
        *,
        beta: float = 1.0,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = None,
        warn_for: Sequence[str] = PRF,
        zero_division: Any = "warn",
    ) -> tuple[Any, Any, Any, Any]:
        """Precision, recall, F-beta and support; see :func:`scorekit.precision_recall_fscore_support`."""
        _check_beta(beta)
        c = self._selected(labels, pos_label, average, zero_division)
        return _prf_from_counts(
            c, average=average, beta=beta, zero_division=zero_division, warn_for=warn_for
        )

    def precision(
        self,
        *,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """Precision tp / (tp + fp); see :func:`scorekit.precision`."""
        c = self._selected(labels, pos_label, average, zero_division)
        opts = {"average": average, "zero_division": zero_division}
        return _prf_from_counts(c, warn_for=("precision",), **opts)[0]

    def recall(
        self,
        *,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """Recall tp / (tp + fn); see :func:`scorekit.recall`."""
        c = self._selected(labels, pos_label, average, zero_division)
        opts = {"average": average, "zero_division": zero_division}
        return _prf_from_counts(c, warn_for=("recall",), **opts)[1]

    def fbeta(
        self,
        *,
        beta: float,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """F-beta; see :func:`scorekit.fbeta`."""
        _check_beta(beta)
        c = self._selected(labels, pos_label, average, zero_division)
        opts = {"average": average, "zero_division": zero_division}
        return _prf_from_counts(c, beta=beta, warn_for=("f-score",), **opts)[2]

    def f1(
        self,
        *,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """F1; see :func:`scorekit.f1`."""
        return self.fbeta(
            beta=1.0, labels=labels, pos_label=pos_label, average=average,
            zero_division=zero_division,
        )  # fmt: skip

    def e_measure(
        self,
        *,
        alpha: float = 0.5,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """Van Rijsbergen's E = 1 − F_β, α = 1/(1 + β²); see :func:`scorekit.e_measure`."""
        if not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1:
            raise ParameterError(f"alpha={alpha!r} must be a number in [0, 1]")
        beta = math.inf if alpha == 0 else math.sqrt(1 / alpha - 1)
        f = self.fbeta(
            beta=beta, labels=labels, pos_label=pos_label, average=average,
            zero_division=zero_division,
        )  # fmt: skip
        return 1.0 - f

    def _ratio(
        self, name: str, labels: ArrayLike | None, pos_label: Any, average: str | None,
        zero_division: Any,
    ) -> Any:  # fmt: skip
        c = self._selected(labels, pos_label, average, zero_division)
        return ratio_from_counts(name, c, average=average, zero_division=zero_division)

    def false_positive_rate(
        self, *, labels: ArrayLike | None = None, pos_label: Any = 1,
        average: str | None = "binary", zero_division: Any = "warn",
    ) -> Any:  # fmt: skip
        """Fp / (fp + tn); see :func:`scorekit.false_positive_rate`."""
        return self._ratio("false_positive_rate", labels, pos_label, average, zero_division)

    def false_negative_rate(
        self, *, labels: ArrayLike | None = None, pos_label: Any = 1,
        average: str | None = "binary", zero_division: Any = "warn",
    ) -> Any:  # fmt: skip
        """Fn / (fn + tp); see :func:`scorekit.false_negative_rate`."""
        return self._ratio("false_negative_rate", labels, pos_label, average, zero_division)

    def false_discovery_rate(
        self, *, labels: ArrayLike | None = None, pos_label: Any = 1,
        average: str | None = "binary", zero_division: Any = "warn",
    ) -> Any:  # fmt: skip
        """Fp / (fp + tp); see :func:`scorekit.false_discovery_rate`."""
        return self._ratio("false_discovery_rate", labels, pos_label, average, zero_division)

    def false_omission_rate(
        self, *, labels: ArrayLike | None = None, pos_label: Any = 1,
        average: str | None = "binary", zero_division: Any = "warn",
    ) -> Any:  # fmt: skip
        """Fn / (fn + tn); see :func:`scorekit.false_omission_rate`."""
        return self._ratio("false_omission_rate", labels, pos_label, average, zero_division)

    def negative_predictive_value(
        self,
        *,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """Negative predictive value tn / (tn + fn); see :func:`scorekit.negative_predictive_value`."""
        return self._ratio("negative_predictive_value", labels, pos_label, average, zero_division)

    def specificity(
        self,
        *,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """Specificity tn / (tn + fp); see :func:`scorekit.specificity`."""
        c = self._selected(labels, pos_label, average, zero_division)
        return _specificity_from_counts(c, average=average, zero_division=zero_division)

    def jaccard(
        self,
        *,
        labels: ArrayLike | None = None,
        pos_label: Any = 1,
        average: str | None = "binary",
        zero_division: Any = "warn",
    ) -> Any:
        """Jaccard index tp / (tp + fp + fn); see :func:`scorekit.jaccard`."""
        c = self._selected(labels, pos_label, average, zero_division)
        return _jaccard_from_counts(c, average=average, zero_division=zero_division)

    # -- JSON-safe dict -----------------------------------------------------------

    def _state_to_dict(self) -> dict[str, Any]:
        s = self._state()
        out: dict[str, Any] = {"int_weights": self._int_weights, "strings": self._strings}
        if s is None:
            out["confusion"] = None
            return out
        out["confusion"] = {
            "classes": encode_array(s.counts.classes),
            "counts": encode_array(s.counts.matrix),
            "weighted": None if s.weighted is None else encode_segment_sums(_cells(s.weighted)),
        }
        return out

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        f = Fields(d, "state", ("int_weights", "strings", "confusion"))
        int_weights = f.boolean("int_weights")
        strings = f.boolean("strings", optional=True)
        c = f.sub("confusion", ("classes", "counts", "weighted"), optional=True)
        if c is not None:
            classes = c.array("classes", "label")
            check_increasing(classes, c.name("classes"))
            if strings is not None and strings != (classes.dtype.kind == "U"):
                raise f.fail("strings", "does not match the type of state.confusion.classes")
            k = classes.size
            counts = c.array("counts", "i", ndim=2, nonneg=True)
            if counts.shape != (k, k):
                raise c.fail(
                    "counts", f"must have shape ({k}, {k}) for {k} classes, got {counts.shape}"
                )
            w_state = None
            if c.raw("weighted") is not None:
                cells = decode_segment_sums(c.raw("weighted"), c.name("weighted"), k * k)
                negative = cells.limbs.shape[1] > 0 and bool((cells.limbs[:, -1] < 0).any())
                if negative or not (cells.special == 0).all():
                    raise c.fail("weighted", "holds a negative or non-finite cell")
                w_state = ConfusionState(rounded_matrix(cells, k), classes, cells)
            self._pending.replace(_Confusion(ConfusionState(counts, classes), w_state))
        self._int_weights = bool(int_weights)
        self._strings = strings
