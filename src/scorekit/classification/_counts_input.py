"""Targets of the count-based metrics: validation, target kind and fast label coding.

Every count metric starts here: :func:`targets` checks ``y_true``, ``y_pred``
and ``sample_weight`` once, tells 1-D labels from multilabel indicator
matrices and codes 1-D labels as integers (:class:`LabelCodes`), which
:mod:`._counts_state` turns into counts (binary and multiclass are then told
apart by the number of classes present). :func:`select_counts` applies
scikit-learn's ``labels`` / ``pos_label`` / ``average`` rules to those counts,
whether they come from one call (:func:`setwise_counts`) or from a merged
``stream.ConfusionMatrix``; :func:`matrix_for_labels` applies ``labels=`` to a
confusion matrix.

Label coding is the cost that matters on large inputs. Integer, bool and
integral float labels with a compact range are coded by an offset
(``y - min``), with no sort at all; the gaps left by values absent from the
data are dropped later, from the small confusion matrix. A wider integer range
is compressed through a lookup table built from ``np.bincount`` of the values.
Only strings, other objects and integers spread too far apart go through
``np.unique(return_inverse=True)`` (a sort).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._codes import offsets
from .._errors import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    ParameterError,
    ShapeError,
)
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray, IntArray
from .._validation import as_array, check_same_length, labels_1d, nonempty, weights_1d
from ._counts_state import (
    ClassCounts,
    ConfusionState,
    LabelCodes,
    _class_counts,
    _multilabel_counts,
    _take_square,
)
from ._labels import encode, given_labels

__all__: list[str] = []

#: Widest integer label range coded by offset, gaps and all, into a span × span
#: confusion matrix (also at most 4 cells per row, so small inputs stay cheap).
_OFFSET_MAX_SPAN = 1 << 11
#: Integer label ranges up to this (or 4 per row) are compressed by a lookup table
#: built with ``np.bincount``; wider ones go through ``np.unique``.
_LUT_MIN_SPAN = 1 << 12
#: Integer labels beyond this magnitude go through ``np.unique`` (no offset overflow).
_INT_LIMIT = 1 << 62

AVERAGES = (None, "binary", "micro", "macro", "weighted", "samples")


@dataclass(frozen=True, slots=True)
class Targets:
    """Validated targets: 1-D label codes, or two boolean indicator matrices."""

    codes: LabelCodes | None  # 1-D labels (binary or multiclass: see ClassCounts.classes)
    indicator_true: BoolArray | None
    indicator_pred: BoolArray | None
    weights: FloatArray | None
    int_weights: bool  # sample_weight was given with an integer or bool dtype
    n: int
    raw_weights: AnyArray | None = None  # those integer weights as given (exact sums)

    @property
    def multilabel(self) -> bool:
        """Whether the targets are multilabel indicator matrices."""
        return self.codes is None


def check_average(average: Any) -> None:
    """Raise :class:`ParameterError` for an ``average`` scikit-learn does not know."""
    if average not in AVERAGES:
        raise ParameterError(f"average={average!r} is not one of {', '.join(map(repr, AVERAGES))}")


def zero_division_value(zero_division: Any) -> float:
    """The value of an undefined ratio: 0 for ``"warn"``, else 0, 1 or ``nan`` as given."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if isinstance(zero_division, (int, float, np.number)) and not isinstance(zero_division, bool):
        value = float(zero_division)
        if value in (0.0, 1.0) or np.isnan(value):
            return value
    raise ParameterError(f"zero_division={zero_division!r} is not one of 'warn', 0, 1, nan")


def targets(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    sample_weight: ArrayLike | None,
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> Targets:
    """Validate a pair of targets as scikit-learn's ``_check_targets`` does, and code them.

    ``names`` are the argument names used in error messages.
    """
    name_t, name_p = names
    a, b = as_array(y_true, name_t), as_array(y_pred, name_p)
    raw = None if sample_weight is None else as_array(sample_weight, "sample_weight")
    int_weights = raw is not None and raw.dtype.kind in "biu"
    if _is_matrix(a) or _is_matrix(b):
        t, p = _indicators(a, b, names)
        w = weights_1d(sample_weight, t.shape[0])
        return Targets(None, t, p, w, int_weights, t.shape[0])
    t, p = labels_1d(a, name_t), labels_1d(b, name_p)
    n = check_same_length(**{name_t: t, name_p: p})
    nonempty(n, name_t)
    w = weights_1d(sample_weight, n)
    codes = encode_pair(_integral(t, name_t), _integral(p, name_p), names)
    ints = raw.reshape(-1) if int_weights and raw is not None else None
    return Targets(codes, None, None, w, int_weights, n, ints)


def _is_matrix(arr: AnyArray) -> bool:
    return arr.ndim > 2 or (arr.ndim == 2 and arr.shape[1] != 1)


def _continuous(arr: AnyArray) -> bool:
    return arr.dtype.kind == "f" and bool(np.any(arr != np.floor(arr)))


def _indicators(a: AnyArray, b: AnyArray, names: tuple[str, str]) -> tuple[BoolArray, BoolArray]:
    name_t, name_p = names
    for arr, name in ((a, name_t), (b, name_p)):
        if arr.ndim > 2:
            raise ShapeError(
                f"{name} must be 1-D labels or a 2-D indicator matrix, got {arr.shape}"
            )
        if arr.ndim == 2 and (_continuous(arr) or arr.dtype.kind not in "biuf"):
            raise ShapeError(
                f"{name} has shape {arr.shape} with values that are not 0/1 "
                "(2-D scores or probabilities passed where labels are expected?)"
            )
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] == 1 or b.shape[1] == 1:
        raise ShapeError(
            f"{name_t} has shape {a.shape} and {name_p} {b.shape}: a multilabel indicator "
            "matrix cannot be compared with 1-D labels"
        )
    if a.shape[0] != b.shape[0]:
        raise LengthMismatchError(
            f"{name_t} has {a.shape[0]} entries but {name_p} has {b.shape[0]}"
        )
    if a.shape[1] != b.shape[1]:
        raise ShapeError(f"{name_t} has {a.shape[1]} label columns but {name_p} has {b.shape[1]}")
    if a.shape[0] == 0:
        raise EmptyInputError(f"{name_t} is empty; at least one sample is needed")
    if a.shape[1] == 0:
        raise ShapeError(f"{name_t} and {name_p} have no label columns (shape {a.shape})")
    for arr, name in ((a, name_t), (b, name_p)):
        if arr.dtype.kind != "b" and np.any((arr != 0) & (arr != 1)):
            raise ShapeError(
                f"{name} is 2-D with values other than 0 and 1; multiclass-multioutput "
                "targets are not supported (a multilabel indicator matrix holds only 0/1)"
            )
    return a != 0, b != 0


def _integral(y: AnyArray, name: str) -> AnyArray:
    """Reject continuous values; integral floats stay labels (1.0 is a class)."""
    if _continuous(y):
        bad = y[y != np.floor(y)][0]
        raise ShapeError(
            f"{name} holds continuous values (e.g. {float(bad)!r}); pass class labels, "
            "not scores or probabilities"
        )
    return y


def encode_pair(
    t: AnyArray, p: AnyArray, names: tuple[str, str] = ("y_true", "y_pred")
) -> LabelCodes:
    """Code two 1-D label arrays into the sorted union of their labels.

    >>> c = encode_pair(np.array([5, 7]), np.array([7, 7]))
    >>> c.true.tolist(), c.classes.tolist()
    ([0, 2], [5, 6, 7])
    """
    t_str, p_str = t.dtype.kind in "USO", p.dtype.kind in "USO"
    if t_str != p_str:
        which = names if t_str else names[::-1]
        raise LabelError(
            f"{which[0]} has string labels but {which[1]} has numbers; they cannot mix"
        )
    if not t_str:
        ints = _as_ints(t), _as_ints(p)
        if ints[0] is not None and ints[1] is not None:
            codes = _encode_ints(ints[0], ints[1], np.result_type(t.dtype, p.dtype))
            if codes is not None:
                return codes
    try:
        classes, inverse = np.unique(np.concatenate([t, p]), return_inverse=True)
    except TypeError as exc:  # objects that do not compare
        raise LabelError(f"labels of {names[0]} and {names[1]} cannot be sorted: {exc}") from None
    inverse = inverse.astype(np.intp, copy=False).ravel()
    return LabelCodes(inverse[: t.size], inverse[t.size :], classes, dense=True)


def _as_ints(y: AnyArray) -> AnyArray | None:
    if y.dtype.kind == "b":
        return y.view(np.uint8)
    if y.dtype.kind in "iu":
        return y
    if y.dtype.kind == "f" and (y.size == 0 or np.abs(y).max() < _INT_LIMIT):
        return y.astype(np.int64)  # integral (checked), so exact
    return None


def _encode_ints(t: AnyArray, p: AnyArray, dtype: np.dtype[Any]) -> LabelCodes | None:
    lo = min(int(t.min()), int(p.min()))
    hi = max(int(t.max()), int(p.max()))
    if lo < -_INT_LIMIT or hi > _INT_LIMIT:
        return None
    span = hi - lo + 1
    if span > max(_LUT_MIN_SPAN, 4 * t.size):
        return None  # sparse values: a sort is cheaper than bincounts over the range
    tt, pp = offsets(t, lo), offsets(p, lo)
    if span <= _OFFSET_MAX_SPAN and span * span <= max(4 * t.size, _OFFSET_MAX_SPAN):
        classes = np.arange(lo, hi + 1).astype(dtype)
        return LabelCodes(tt, pp, classes, dense=span <= 2)
    present = (np.bincount(tt, minlength=span) > 0) | (np.bincount(pp, minlength=span) > 0)
    values = np.flatnonzero(present)
    lut = np.cumsum(present, dtype=np.intp) - 1
    return LabelCodes(lut[tt], lut[pp], (values + lo).astype(dtype), dense=True)


def label_positions(classes: AnyArray, labels: AnyArray, name: str) -> tuple[IntArray, AnyArray]:
    """Positions of ``labels`` in ``classes``; labels absent from ``classes`` get new positions.

    Returns the positions and the absent labels: label ``labels[i]`` absent from
    ``classes`` is given position ``classes.size + j`` for the j-th absent one,
    so counts padded with zeros for them can be taken with the positions.

    >>> pos, extra = label_positions(np.array([1, 2]), np.array([2, 9]), "labels")
    >>> pos.tolist(), extra.tolist()
    ([1, 2], [9])
    """
    if (labels.dtype.kind in "USO") != (classes.dtype.kind in "USO"):
        raise LabelError(
            f"{name}={labels[:5].tolist()} are not of the type of the labels in the data "
            f"({classes[:5].tolist()})"
        )
    pos = encode(labels, classes, name, strict=False)
    absent = pos < 0
    pos[absent] = classes.size + np.arange(int(absent.sum()))
    return pos, labels[absent]


def _column_positions(labels: AnyArray, n_labels: int) -> IntArray:
    if labels.dtype.kind not in "iu" and not (
        labels.dtype.kind == "f" and np.all(labels == np.floor(labels))
    ):
        raise LabelError(
            f"labels={labels[:5].tolist()} must be column indices for multilabel targets"
        )
    if labels.min() < 0 or labels.max() >= n_labels:
        raise LabelError(
            f"labels must be column indices in [0, {n_labels}) for multilabel targets, "
            f"got values in [{labels.min()}, {labels.max()}]"
        )
    return labels.astype(np.intp)


def indicator_columns(tg: Targets, labels: ArrayLike | None) -> tuple[BoolArray, BoolArray]:
    """The indicator matrices of multilabel targets, restricted to ``labels`` (column indices)."""
    t, p = tg.indicator_true, tg.indicator_pred
    if t is None or p is None:
        raise ShapeError("multilabel indicator matrices are needed here")  # not reached
    given = given_labels(labels)
    if given is None:
        return t, p
    cols = _column_positions(given, t.shape[1])
    return t[:, cols], p[:, cols]


def setwise_counts(
    tg: Targets, *, labels: ArrayLike | None, pos_label: Any, average: str | None
) -> ClassCounts:
    """Counts of the classes a set-wise metric reports (scikit-learn's label rules).

    Targets -> counts, then :func:`select_counts` for 1-D targets. Multilabel:
    the columns in ``labels`` (column indices) or all, per sample for
    ``average="samples"``.
    """
    check_average(average)
    if not tg.multilabel:
        return select_counts(one_d_counts(tg), labels, pos_label, average)
    if average == "binary":
        raise LabelError(
            "Target is multilabel-indicator but average='binary'; please choose another "
            "average setting, one of None, 'micro', 'macro', 'weighted', 'samples'"
        )
    t, p = indicator_columns(tg, labels)
    return _multilabel_counts(t, p, tg.weights, samplewise=average == "samples")


def select_counts(
    counts: ClassCounts,
    labels: ArrayLike | None,
    pos_label: Any,
    average: str | None,
    *,
    stacklevel: int = 3,
) -> ClassCounts:
    """scikit-learn's label rules applied to the per-class counts of 1-D targets.

    ``counts`` covers the classes present (as from a confusion matrix, one-shot
    or merged from chunks); the result holds the classes the metric reports.
    ``average="binary"``: the positive class only, which must be one of the two
    classes present (a class absent from the data gets zero counts when fewer
    than two are present). Otherwise the classes in ``labels`` (in that order,
    absent ones with zero counts) or every class present. ``stacklevel``: of
    the warning that ``pos_label`` is ignored, counted from here.

    >>> from ._counts_state import _counts_from_confusion
    >>> c = _counts_from_confusion(np.array([[3, 1], [2, 4]]), np.array(["a", "b"]))
    >>> select_counts(c, None, "a", "binary").tp.tolist()
    [3]
    """
    check_average(average)
    if average == "samples":
        raise ParameterError(
            "average='samples' is only meaningful for multilabel targets; "
            "use accuracy for 1-D labels"
        )
    if average == "binary":
        if counts.classes.size > 2:
            raise LabelError(
                "Target is multiclass but average='binary'; please choose another average "
                "setting, one of None, 'micro', 'macro', 'weighted'"
            )
        pos, extra = label_positions(counts.classes, np.asarray([pos_label]), "pos_label")
        if extra.size and counts.classes.size == 2:
            raise LabelError(
                f"pos_label={pos_label!r} is not a valid label: it should be one of "
                f"{counts.classes.tolist()}"
            )
        return counts.take(pos, extra)
    if pos_label not in (None, 1):
        warnings.warn(
            f"pos_label={pos_label!r} is ignored when average={average!r} (not 'binary'); "
            "use labels=[pos_label] to score a single class",
            UserWarning,
            stacklevel=stacklevel,
        )
    return counts_for_labels(counts, labels)


def counts_for_labels(counts: ClassCounts, labels: ArrayLike | None) -> ClassCounts:
    """The counts of ``labels`` in that order (absent ones zero), or all of them for None."""
    given = given_labels(labels)
    if given is None:
        return counts
    return counts.take(*label_positions(counts.classes, given, "labels"))


def matrix_for_labels(
    cm: ConfusionState,
    labels: ArrayLike | None,
    name_true: str,
    true_rows: Callable[[], AnyArray],
) -> AnyArray:
    """The confusion matrix restricted to ``labels`` (rows and columns, in that order).

    At least one of ``labels`` must occur in ``y_true``: ``true_rows()`` gives the
    number of rows of each class of ``y_true`` (rows, not weights: a zero-weight
    row still makes its label occur), and is called only when ``labels`` is given.
    """
    given = given_labels(labels)
    if given is None:
        return cm.matrix
    pos, _ = label_positions(cm.classes, given, "labels")
    found = pos[pos < cm.classes.size]
    if found.size == 0 or not np.any(true_rows()[found] > 0):
        raise LabelError(f"labels={given[:5].tolist()}: at least one must occur in {name_true}")
    return _take_square(cm.matrix, pos)


def one_d_counts(tg: Targets) -> ClassCounts:
    """Per-class counts of 1-D targets over the sorted classes present."""
    if tg.codes is None:
        raise ShapeError("1-D labels are needed here")  # callers check tg.multilabel first
    return _class_counts(tg.codes, tg.weights, tg.raw_weights)
