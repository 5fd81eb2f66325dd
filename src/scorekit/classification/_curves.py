"""Score-based binary metrics (ROC, PR, AUC, AP, KS, ...) on one sorted-curve kernel.

The kernel (STYLE.md §3), shared with ``scorekit.stream.BinaryCurve`` and the
Dask layer:

- :class:`CurveState` — distinct scores in decreasing order with the positive
  and negative weight at each score; the sufficient statistic of every metric
  here (and of log loss, see ``_proba._log_loss_from_curve``).
- :func:`_curve_from_chunk` (rows -> state), :func:`_merge_curves`
  (state ⊕ state, exact for unit weights: every sum is an integer),
- :func:`_auc_from_curve`, :func:`_ap_from_curve`, :func:`_roc_from_curve`,
  :func:`_pr_from_curve`, :func:`_ks_from_curve`, :func:`_bep_from_curve`,
  :func:`_rank_loss_from_curve` (state -> value).

Unweighted chunks are sorted without ``argsort``: each score's bits and its
label are packed into one ``uint64`` key (:func:`_sort_rows`) and
``np.sort`` orders the keys, so ties and labels come out grouped. ``roc_auc``
and ``average_precision`` count on the sorted labels directly (no curve is
built) and give the same value as the kernel (same integers, same divisions).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._errors import LabelError, ParameterError, ProbabilityRangeError, ShapeError
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray
from .._validation import (
    as_array,
    binary_target,
    check_option,
    check_same_length,
    finite_rows,
    labels_1d,
    nonempty,
    scores_2d,
    take,
    type_of_target,
    undefined,
    weights_1d,
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

UIntArray = npt.NDArray[np.uint64]
_SIGN = np.uint64(1 << 63)
_ONE = np.uint64(1)


@dataclass(frozen=True, slots=True)
class CurveState:
    """Sufficient statistic of a binary scorer: weights of each class at each distinct score.

    ``scores`` are distinct and strictly decreasing; ``pos[i]`` / ``neg[i]`` is
    the total weight of positives / negatives scored exactly ``scores[i]``.
    Rows of zero weight are not recorded (scikit-learn drops them too).
    """

    scores: FloatArray
    pos: FloatArray
    neg: FloatArray


# ---------------------------------------------------------------- chunk -> state


@dataclass(frozen=True, slots=True)
class _SortedRows:
    """Unweighted rows in increasing score order, negatives first within a tie.

    ``positive`` is the label of each sorted row; ``boundary[i]`` is True when
    row ``i + 1`` scores strictly higher than row ``i``; :meth:`scores_at` gives
    the scores at sorted positions.
    """

    positive: BoolArray
    boundary: BoolArray
    values: AnyArray  # order-preserving score bits (modes 0-2), or the sorted scores (mode 3)
    mode: int
    base: np.uint64

    def scores_at(self, idx: npt.NDArray[np.intp]) -> FloatArray:
        if self.mode == 3:
            return np.asarray(self.values[idx], dtype=np.float64)
        values: UIntArray = self.values[idx]
        if self.mode == 1:
            values = np.invert(values)
        elif self.mode == 2:
            u = values + self.base
            values = np.where(u >= _SIGN, u ^ _SIGN, ~u)
        scores: FloatArray = values.view(np.float64)
        return scores


def _sort_rows(y: BoolArray, s: FloatArray) -> _SortedRows:
    """Sort unweighted rows without ``argsort`` (``s`` finite, not empty).

    Each score's order-preserving bits and its label are packed into one
    ``uint64`` key, ``(bits << 1) | label``, and ``np.sort`` sorts the keys.
    The bits fit in 63 bits when all scores have one sign (or all lie in
    (-2, 2)): nearly always. Otherwise positives and negatives are sorted apart
    and merged by a stable ``argsort`` of the two sorted runs (timsort: linear).
    """
    lo, hi = float(s.min()), float(s.max())
    bits = s.view(np.uint64)
    base = np.uint64(0)
    if lo >= 0:  # non-negative floats order like their bits; the shift drops -0.0's sign bit
        mode, keys = 0, np.left_shift(bits, _ONE)
    elif hi < 0:  # negative floats order like their inverted bits
        mode, keys = 1, np.invert(bits)
        np.left_shift(keys, _ONE, out=keys)
    else:
        ends = _order_bits(np.array([lo, hi]))
        if ends[1] - ends[0] >= _SIGN:
            neg, pos = np.sort(s[~y]), np.sort(s[y])
            both = np.concatenate([neg, pos])
            order = np.argsort(both, kind="stable")
            values = both[order]
            return _SortedRows(order >= neg.size, values[1:] != values[:-1], values, 3, base)
        mode, keys, base = 2, _order_bits(s), ends[0]
        keys -= base
        np.left_shift(keys, _ONE, out=keys)
    np.bitwise_or(keys, y, out=keys)
    keys.sort()
    if sys.byteorder == "little":  # the label bit is in the first byte of each key
        positive = (keys.view(np.uint8)[::8] & np.uint8(1)).view(bool)
    else:  # pragma: no cover - big-endian machines
        positive = (keys & _ONE).astype(bool)
    np.right_shift(keys, _ONE, out=keys)  # the score bits alone, still sorted
    return _SortedRows(positive, keys[1:] != keys[:-1], keys, mode, base)


def _order_flip(bits: UIntArray) -> UIntArray:
    return np.asarray((bits.view(np.int64) >> 63).view(np.uint64) | _SIGN)


def _order_bits(s: FloatArray) -> UIntArray:
    bits = np.add(s, 0.0).view(np.uint64)
    return np.bitwise_xor(bits, _order_flip(bits))


def _curve_from_sorted(r: _SortedRows) -> CurveState:
    starts = np.flatnonzero(np.r_[True, r.boundary])
    counts = np.diff(np.r_[starts, r.positive.size]).astype(np.float64)
    pos = np.add.reduceat(r.positive, starts, dtype=np.float64)
    scores = r.scores_at(starts)
    return CurveState(scores[::-1].copy(), pos[::-1].copy(), (counts - pos)[::-1].copy())


def _curve_from_chunk(y: BoolArray, s: FloatArray, w: FloatArray | None = None) -> CurveState:
    """Rows -> :class:`CurveState` (``y`` positives, ``s`` finite scores, ``w`` weights or None).

    Unweighted rows are ordered by one ``np.sort`` of packed keys; weighted rows
    by one ``argsort``.

    >>> c = _curve_from_chunk(np.array([True, False, True]), np.array([0.5, 0.5, 0.2]))
    >>> c.scores.tolist(), c.pos.tolist(), c.neg.tolist()
    ([0.5, 0.2], [1.0, 1.0], [1.0, 0.0])
    """
    if w is not None and not w.all():
        keep = w != 0
        y, s, w = y[keep], s[keep], w[keep]
    if s.size == 0:
        empty = np.zeros(0)
        return CurveState(empty, empty, empty)
    if w is None:
        return _curve_from_sorted(_sort_rows(y, s))
    order = np.argsort(s)[::-1]
    s_sorted = s[order]
    starts = np.flatnonzero(np.r_[True, s_sorted[1:] != s_sorted[:-1]])
    y_sorted, w_sorted = y[order], w[order]
    pos = np.add.reduceat(np.where(y_sorted, w_sorted, 0.0), starts)
    neg = np.add.reduceat(np.where(y_sorted, 0.0, w_sorted), starts)
    return CurveState(s_sorted[starts], pos, neg)


def _merge_curves(a: CurveState, b: CurveState) -> CurveState:
    """State ⊕ state: the curve of the concatenated rows (exact for unit weights).

    >>> a = _curve_from_chunk(np.array([True]), np.array([0.5]))
    >>> b = _curve_from_chunk(np.array([False, True]), np.array([0.5, 0.9]))
    >>> m = _merge_curves(a, b)
    >>> m.scores.tolist(), m.pos.tolist(), m.neg.tolist()
    ([0.9, 0.5], [1.0, 1.0], [0.0, 1.0])
    """
    neg_scores, inverse = np.unique(-np.concatenate([a.scores, b.scores]), return_inverse=True)
    size = neg_scores.size
    pos = np.bincount(inverse, np.concatenate([a.pos, b.pos]), minlength=size)
    neg = np.bincount(inverse, np.concatenate([a.neg, b.neg]), minlength=size)
    return CurveState(-neg_scores + 0.0, pos.astype(np.float64), neg.astype(np.float64))


# ---------------------------------------------------------------- state -> value


def _auc_value(numerator: float, n_pos: float, n_neg: float) -> float:
    return float(np.float64(numerator) / (np.float64(n_pos) * np.float64(n_neg)))


def _auc_from_curve(c: CurveState) -> float:
    """ROC AUC: Σ_g neg_g (positives above g + pos_g / 2) / (P N); nan and a warning if one class."""
    n_pos, n_neg = float(c.pos.sum()), float(c.neg.sum())
    if n_pos <= 0 or n_neg <= 0:
        return undefined("roc_auc", "only one class is present in y_true")
    tp_before = np.cumsum(c.pos) - c.pos
    return _auc_value(float(np.sum(c.neg * (tp_before + c.pos / 2))), n_pos, n_neg)


def _rank_loss_from_curve(c: CurveState) -> float:
    """Weight of (positive, negative) pairs ordered wrongly, ties one half, over P N."""
    n_pos, n_neg = float(c.pos.sum()), float(c.neg.sum())
    if n_pos <= 0 or n_neg <= 0:
        return undefined("rank_loss", "only one class is present in y_true")
    fp_before = np.cumsum(c.neg) - c.neg
    return _auc_value(float(np.sum(c.pos * (fp_before + c.neg / 2))), n_pos, n_neg)


def _ap_value(weights: FloatArray, precision: FloatArray, n_pos: float) -> float:
    return float(np.dot(weights, precision) / n_pos)


def _ap_from_curve(c: CurveState) -> float:
    """Average precision Σ_n (R_n − R_{n−1}) P_n; 0 with a warning when there is no positive."""
    tp, fp = np.cumsum(c.pos), np.cumsum(c.neg)
    n_pos = float(tp[-1]) if tp.size else 0.0
    if n_pos <= 0:
        return undefined("average_precision", "no positive sample in y_true", 0.0)
    hit = c.pos > 0
    precision = tp[hit] / (tp[hit] + fp[hit])
    return _ap_value(c.pos[hit][::-1], precision[::-1], n_pos)


def _roc_from_curve(
    c: CurveState, *, drop_intermediate: bool = False
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(fpr, tpr, thresholds)`` as scikit-learn's ``roc_curve``, with the leading ``+inf``."""
    tps, fps, thresholds = np.cumsum(c.pos), np.cumsum(c.neg), c.scores
    if drop_intermediate and fps.size > 2:
        corner = np.r_[True, (np.diff(fps, 2) != 0) | (np.diff(tps, 2) != 0), True]
        tps, fps, thresholds = tps[corner], fps[corner], thresholds[corner]
    tps, fps = np.r_[0.0, tps], np.r_[0.0, fps]
    thresholds = np.r_[np.inf, thresholds]
    if fps[-1] <= 0:
        undefined("roc_curve", "no negative sample in y_true, the false positive rate")
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        undefined("roc_curve", "no positive sample in y_true, the true positive rate")
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thresholds


def _pr_from_curve(
    c: CurveState, *, drop_intermediate: bool = False
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(precision, recall, thresholds)`` as scikit-learn's ``precision_recall_curve``."""
    tps, fps, thresholds = np.cumsum(c.pos), np.cumsum(c.neg), c.scores
    if drop_intermediate and fps.size > 2:
        keep = np.r_[True, (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0), True]
        tps, fps, thresholds = tps[keep], fps[keep], thresholds[keep]
    predicted = tps + fps
    precision = np.divide(tps, predicted, out=np.zeros_like(tps), where=predicted != 0)
    if tps.size == 0 or tps[-1] <= 0:
        undefined("precision_recall_curve", "no positive sample in y_true, recall", 1.0)
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1].copy()


def _ks_from_curve(c: CurveState) -> float:
    """KS: the largest TPR − FPR over thresholds (the point (0, 0) included, so never below 0)."""
    n_pos, n_neg = float(c.pos.sum()), float(c.neg.sum())
    if n_pos <= 0 or n_neg <= 0:
        return undefined("ks_statistic", "only one class is present in y_true")
    gap = np.cumsum(c.pos) / n_pos - np.cumsum(c.neg) / n_neg
    return float(max(0.0, gap.max()))


def _bep_from_curve(c: CurveState) -> float:
    """Precision where precision = recall: the first crossing, interpolated linearly."""
    n_pos = float(c.pos.sum())
    if n_pos <= 0:
        return undefined("break_even_point", "no positive sample in y_true")
    tps, fps = np.cumsum(c.pos), np.cumsum(c.neg)
    precision = np.r_[1.0, tps / (tps + fps)]
    recall = np.r_[0.0, tps / n_pos]
    gap = precision - recall  # starts at 1, ends at P/(P+N) - 1 <= 0
    i = int(np.argmax(gap <= 0))
    if gap[i] == 0:
        return float(precision[i])
    t = gap[i - 1] / (gap[i - 1] - gap[i])
    return float(precision[i - 1] + t * (precision[i] - precision[i - 1]))


def _partial_auc(fpr: FloatArray, tpr: FloatArray, max_fpr: float) -> float:
    """McClish-standardised area up to ``max_fpr`` (scikit-learn's ``max_fpr`` rule)."""
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    x = np.r_[fpr[:stop], max_fpr]
    y = np.r_[tpr[:stop], np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])]
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1 + (area - min_area) / (max_area - min_area))


# ---------------------------------------------------------------- validation


def _fast_classes(y: AnyArray) -> AnyArray:
    """Sorted distinct labels, by ``bincount`` for bools and small-range integers."""
    if y.dtype.kind == "b":
        return np.array([v for v, ok in ((False, not y.all()), (True, y.any())) if ok])
    if y.dtype.kind in "iu" and y.size:
        lo, hi = int(y.min()), int(y.max())
        if hi - lo <= 1:  # integers: nothing lies between
            return np.unique(np.array([lo, hi], dtype=y.dtype))
        if hi - lo <= max(1 << 16, y.size):
            present = np.flatnonzero(np.bincount(y.astype(np.int64) - lo, minlength=1))
            return (present + lo).astype(y.dtype)
    return np.unique(y)


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
    classes = _fast_classes(y) if classes is None else classes
    return binary_target(y, pos_label, name, classes=classes)


def _scores_1d(x: ArrayLike, name: str) -> FloatArray:
    arr = as_array(x, name)
    if arr.ndim == 2 and arr.shape[1] != 1:
        raise ShapeError(f"{name} must be 1-D for a binary metric, got shape {arr.shape}")
    return scores_2d(arr, name)[:, 0]


def _finite(nan_policy: str, **named: AnyArray | None) -> BoolArray | None:
    """:func:`finite_rows`, skipped when the min and max of each float array are finite."""
    check_option(nan_policy, "nan_policy", ("raise", "omit"))
    for arr in named.values():
        if (
            arr is not None
            and arr.dtype.kind == "f"
            and arr.size
            and not (np.isfinite(arr.min()) and np.isfinite(arr.max()))
        ):
            return finite_rows(nan_policy, **named)
    return None


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
    s = _scores_1d(y_score, score_name)
    n = check_same_length(y_true=y, **{score_name: s})
    nonempty(n, "y_true")
    w = weights_1d(sample_weight, n)
    keep = _finite(nan_policy, **{score_name: s})
    y, s, w = take(keep, y, s, w)
    return _positives(y, pos_label, classes=classes if keep is None else None), s, w


def _check_probabilities(p: FloatArray, name: str) -> None:
    if p.size and (p.min() < 0 or p.max() > 1):
        raise ProbabilityRangeError(
            f"{name} must hold probabilities in [0, 1]; found values in "
            f"[{float(p.min())}, {float(p.max())}]"
        )


# ---------------------------------------------------------------- binary fast paths


def _tie_runs(r: _SortedRows) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """First and last sorted position of every run of tied scores (runs of 2 rows or more)."""
    n_distinct = int(np.count_nonzero(r.boundary)) + 1
    if 2 * n_distinct < r.positive.size:  # heavy ties: walk the distinct scores
        starts = np.r_[0, np.flatnonzero(r.boundary) + 1]
        ends = np.r_[starts[1:] - 1, r.positive.size - 1]
        runs = ends > starts
        return starts[runs], ends[runs]
    tied = np.flatnonzero(~r.boundary)  # row i ties with row i + 1
    if tied.size == 0:
        return tied, tied
    breaks = np.flatnonzero(np.diff(tied) != 1)
    return tied[np.r_[0, breaks + 1]], tied[np.r_[breaks, tied.size - 1]] + 1


def _binary_auc(y: BoolArray, s: FloatArray, w: FloatArray | None) -> float:
    """AUC of one binary problem; unweighted: one sort, no curve (the same value as the kernel).

    In increasing order with negatives first within a tie, the j-th positive
    (0-based) at position i has i − j negatives at or below its score; the tied
    ones, Σ_runs pos·neg, count one half.
    """
    if w is not None or s.size == 0:
        return _auc_from_curve(_curve_from_chunk(y, s, w))
    r = _sort_rows(y, s)
    where_pos = np.flatnonzero(r.positive)
    n_pos, n_neg = where_pos.size, s.size - where_pos.size
    if n_pos == 0 or n_neg == 0:
        return undefined("roc_auc", "only one class is present in y_true")
    at_or_below = int(where_pos.sum()) - n_pos * (n_pos - 1) // 2
    first, last = _tie_runs(r)
    pos = np.searchsorted(where_pos, last, "right") - np.searchsorted(where_pos, first, "left")
    tied_pairs = int(np.dot(pos, last - first + 1 - pos))
    return _auc_value((2 * at_or_below - tied_pairs) / 2, n_pos, n_neg)


def _binary_ap(y: BoolArray, s: FloatArray, w: FloatArray | None) -> float:
    """Average precision of one binary problem; unweighted: one sort, no curve (same value as the kernel).

    In increasing order, a positive whose tie run starts at position a, with
    k positives before a, has n_pos − k positives and n − a rows at or above its score.
    """
    if w is not None or s.size == 0:
        return _ap_from_curve(_curve_from_chunk(y, s, w))
    r = _sort_rows(y, s)
    where_pos = np.flatnonzero(r.positive)
    n_pos = where_pos.size
    if n_pos == 0:
        return undefined("average_precision", "no positive sample in y_true", 0.0)
    first, last = _tie_runs(r)
    if first.size == 0:  # every positive is its own step
        precision = np.arange(n_pos, 0, -1, dtype=np.float64)
        precision /= np.subtract(s.size, where_pos, dtype=np.float64)
        return _ap_value(np.ones(n_pos), precision, float(n_pos))
    # positives lo[k]:hi[k] (in where_pos) lie in tie run k and form one step
    lo = np.searchsorted(where_pos, first, "left")
    hi = np.searchsorted(where_pos, last, "right")
    merged = hi - lo >= 2
    cover = np.zeros(n_pos + 1, dtype=np.int64)
    np.add.at(cover, lo[merged] + 1, 1)
    np.add.at(cover, hi[merged], -1)
    new = np.flatnonzero(np.cumsum(cover[:-1]) == 0)  # first positive of each step
    start = where_pos[new]  # first row at the step's score
    with_pos = hi > lo
    start[np.searchsorted(new, lo[with_pos])] = first[with_pos]
    weight = np.empty(new.size)  # positives per step
    np.subtract(new[1:], new[:-1], out=weight[:-1], dtype=np.float64)
    weight[-1] = n_pos - new[-1]
    precision = np.subtract(n_pos, new, dtype=np.float64)  # tp at the step
    precision /= np.subtract(s.size, start, dtype=np.float64)  # rows at or above the step
    return _ap_value(weight, precision, float(n_pos))


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
    if metric is not _binary_auc and metric is not _binary_ap:
        rows = np.array([metric(y[i], s[i], None) for i in range(y.shape[0])])
        return float(np.average(rows if w is None else np.where(w == 0, 0.0, rows), weights=w))
    r = _row_ranks(y, s)
    n_pos = r.y.sum(axis=1).astype(np.float64)
    n_neg = y.shape[1] - n_pos
    if metric is _binary_auc:
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
    n = check_same_length(y_true=y, y_score=s)
    nonempty(n, "y_true")
    w = weights_1d(sample_weight, n)
    y, s, w = take(_finite(nan_policy, y_score=s), y, s, w)
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
    return _roc_from_curve(_curve_from_chunk(y, s, w), drop_intermediate=drop_intermediate)


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

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    y, s, w = _binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy)
    return _pr_from_curve(_curve_from_chunk(y, s, w), drop_intermediate=drop_intermediate)


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
    metric = _binary_auc
    if max_fpr is not None and max_fpr != 1:
        metric = _partial_metric(max_fpr)
    if y.ndim == 2 and y.shape[1] > 1:
        y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
        return _average_labels(metric, _indicator(y, s), s, w, average)
    y = labels_1d(y, "y_true")
    classes = _fast_classes(y)
    n_classes = classes.size if labels is None else np.asarray(labels).size
    if n_classes > 2 or (score.ndim == 2 and score.shape[1] > 2):
        if metric is not _binary_auc:
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
        c = _curve_from_chunk(y, s, w)
        if not (c.pos.sum() > 0 and c.neg.sum() > 0):
            return undefined("roc_auc", "only one class is present in y_true")
        fpr, tpr, _ = _roc_from_curve(c)
        return _partial_auc(fpr, tpr, max_fpr)

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
        return _average_labels(_binary_auc, onehot, s, w, average)
    if w is not None:
        raise ParameterError('sample_weight is not supported with multi_class="ovo"')
    present = np.flatnonzero(np.bincount(codes, minlength=classes.size))
    pair_scores, prevalence = [], []
    for i, a in enumerate(present):  # Hand & Till: a loop over pairs of classes
        for b in present[i + 1 :]:
            rows = (codes == a) | (codes == b)
            is_a = codes[rows] == a
            auc_ab = _binary_auc(is_a, s[rows, a], None) + _binary_auc(~is_a, s[rows, b], None)
            pair_scores.append(auc_ab / 2)
            prevalence.append(rows.mean())
    weights = np.array(prevalence) if average == "weighted" else None
    return float(np.average(pair_scores, weights=weights))


def _class_columns(y: AnyArray, labels: ArrayLike | None, n_columns: int, name: str) -> AnyArray:
    """Classes naming the columns of a score matrix: sorted ``labels`` or those of ``y``."""
    classes = given_labels(labels)
    if classes is None:
        classes = _fast_classes(y)
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
        y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
        return _average_labels(_binary_ap, _indicator(y, s), s, w, average)
    y = labels_1d(y, "y_true")
    classes = _fast_classes(y)
    if classes.size > 2:
        if pos_label is not None:
            raise ParameterError("pos_label is not used with a multiclass y_true; leave it None")
        if score.ndim != 2 or score.shape[1] != classes.size:
            raise ShapeError(
                f"y_true has {classes.size} classes, so y_score must have shape "
                f"(n_samples, {classes.size}); got {score.shape}"
            )
        y, s, w = _score_matrix(score, y, nan_policy, sample_weight)
        onehot = encode(y, classes)[:, None] == np.arange(classes.size)
        return _average_labels(_binary_ap, onehot, s, w, average)
    y_pos, s, w = _binary_inputs(y, score, sample_weight, pos_label, nan_policy, classes=classes)
    return _binary_ap(y_pos, s, w)


def _binary_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    nan_policy: str,
) -> CurveState:
    return _curve_from_chunk(*_binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy))


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

    Examples
    --------
    Points (recall, precision): (0, 1), (.5, 1), (.5, .5), (1, 2/3), (1, .5);
    area = .5·1 + 0 + .5·(.5 + 2/3)/2 = 0.7917

    >>> round(pr_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.7917
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    precision, recall, _ = _pr_from_curve(c)
    return float(np.sum((recall[:-1] - recall[1:]) * (precision[:-1] + precision[1:]) / 2))


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

    Examples
    --------
    >>> gini([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])  # AUC 0.75
    0.5
    """
    y, s, w = _binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy)
    return 2 * _binary_auc(y, s, w) - 1


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

    Examples
    --------
    Pairs (pos, neg): (.35, .4) is wrong, the other three right:

    >>> rank_loss([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.25
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return _rank_loss_from_curve(c)


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

    Examples
    --------
    At threshold 0.8: TPR .5, FPR 0; at 0.35: TPR 1, FPR .5; the gap is .5:

    >>> ks_statistic([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return _ks_from_curve(c)


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

    Examples
    --------
    Points: (R .5, P 1) then, with the tie at .5, (R 1, P ⅔); gaps .5 and −⅓,
    so t = .5 / (.5 + ⅓) = .6 and P = 1 + .6·(⅔ − 1) = 0.8:

    >>> round(break_even_point([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1]), 12)
    0.8
    """
    c = _binary_curve(y_true, y_score, sample_weight, pos_label, nan_policy)
    return _bep_from_curve(c)
