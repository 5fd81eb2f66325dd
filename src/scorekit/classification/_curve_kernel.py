"""The sorted-curve kernel of the binary score metrics (ROC, PR, AUC, AP, KS, ...).

Shared by the one-shot functions of :mod:`._curves`, ``scorekit.stream.BinaryCurve``
and the Dask layer (STYLE.md §3); its public names are the three stages:

- :class:`CurveState` — distinct scores in decreasing order with the positive
  and negative weight at each; the sufficient statistic of every metric here
  (and of binary log loss, see ``_proba._log_loss_from_curve``).
- :func:`curve_from_chunk` (rows -> state), :func:`merge_curves`
  (state ⊕ state, exact for unit weights: every sum is an integer),
- :func:`auc_from_curve`, :func:`ap_from_curve`, :func:`roc_from_curve`,
  :func:`pr_from_curve`, :func:`ks_from_curve`, :func:`bep_from_curve`,
  :func:`rank_loss_from_curve`, :func:`partial_auc_from_curve` (state -> value).

Rows are ordered by :mod:`._sortkeys` (packed keys sorted on two threads, or
exact decimal codes counted by ``np.bincount`` with no sort); the AUC is the
area of :mod:`._area`. The fast paths :func:`binary_auc` and :func:`binary_ap`
count on the sorted labels directly (no curve is built) and give the same
value as the kernel (same integers, same divisions), at any size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._typing import BoolArray, FloatArray
from .._validation import undefined
from ._area import auc_value, pair_fraction
from ._code_counts import code_counts, curve_from_code_counts
from ._curve_exact import ExactPart, exact_bins, merge_exact, whole_weights
from ._curve_weighted import weighted_entries
from ._sortkeys import DecimalCodes, SortedRows, decimal_codes, sort_rows

__all__ = [
    "CurveState",
    "ap_from_curve",
    "auc_from_curve",
    "bep_from_curve",
    "binary_ap",
    "binary_auc",
    "curve_from_chunk",
    "ks_from_curve",
    "merge_curves",
    "partial_auc",
    "partial_auc_from_curve",
    "pr_from_curve",
    "rank_loss_from_curve",
    "roc_from_curve",
]


@dataclass(frozen=True, slots=True)
class CurveState:
    """Sufficient statistic of a binary scorer: weights of each class at each distinct score.

    ``scores`` are distinct and strictly decreasing; ``pos[i]`` / ``neg[i]`` is
    the total weight of positives / negatives scored exactly ``scores[i]``.
    Rows of zero weight are not recorded (scikit-learn drops them too). Every
    float is the exact sum rounded once (:mod:`._curve_exact`), so the state,
    and every value computed from it, does not depend on chunking or merge order.
    """

    scores: FloatArray
    pos: FloatArray
    neg: FloatArray
    #: exact sums of the entries whose floats are roundings (fractional weights); None: all exact
    exact: ExactPart | None = None


# ---------------------------------------------------------------- chunk -> state


def _curve_from_sorted(r: SortedRows) -> CurveState:
    """Count each run of tied scores; the outputs are written in decreasing order directly."""
    starts = np.flatnonzero(r.boundary)
    starts += 1
    starts = np.r_[0, starts]
    size = starts.size
    scores, pos, neg = np.empty(size), np.empty(size), np.empty(size)
    pos_up, neg_up = pos[::-1], neg[::-1]  # increasing-order views
    np.add.reduceat(r.positive.view(np.uint8), starts, dtype=np.float64, out=pos_up)
    np.subtract(starts[1:], starts[:-1], out=neg_up[:-1], casting="unsafe")  # rows per run
    neg_up[-1] = r.positive.size - starts[-1]
    neg_up -= pos_up
    scores[::-1] = r.scores_at(starts)
    return CurveState(scores, pos, neg)


def _unit_counts(y: BoolArray, dc: DecimalCodes) -> tuple[FloatArray, FloatArray]:
    """Positives and negatives at every code, highest code first (codes without rows: 0)."""
    counts = code_counts(y, dc).astype(np.float64)
    return counts[-1::-2], counts[-2::-2]


def _curve_from_codes(y: BoolArray, dc: DecimalCodes, w: FloatArray | None) -> CurveState:
    """Count each (code, label) with one ``np.bincount``; outputs in decreasing score order.

    Weighted: ``dc.codes`` is turned into the cells ``2 code + label`` in place
    (the caller's codes are not used again: no second n-row array).
    """
    if w is None:
        return curve_from_code_counts(code_counts(y, dc), dc)
    cells = dc.codes
    cells <<= 1
    cells |= y
    if not whole_weights(w):  # fractional weights: exact sums per cell
        seen, part = exact_bins(cells, w, dc.size)
        return CurveState(dc.scores(seen), *part.rounded(), part)
    counts = np.bincount(cells, weights=w, minlength=2 * dc.size).astype(np.float64, copy=False)
    neg, pos = counts[0::2], counts[1::2]
    seen = np.flatnonzero((neg != 0) | (pos != 0))[::-1]
    return CurveState(dc.scores(seen), pos[seen], neg[seen])


def curve_from_chunk(y: BoolArray, s: FloatArray, w: FloatArray | None = None) -> CurveState:
    """Rows -> :class:`CurveState` (``y`` positives, ``s`` finite scores, ``w`` weights or None).

    Scores that are exact decimals over a small range are counted with one
    ``np.bincount`` (:func:`._sortkeys.decimal_codes`); otherwise unweighted
    rows are ordered by one sort of packed keys (weighted rows: with their index,
    :mod:`._curve_weighted`).

    >>> c = curve_from_chunk(np.array([True, False, True]), np.array([0.5, 0.5, 0.2]))
    >>> c.scores.tolist(), c.pos.tolist(), c.neg.tolist()
    ([0.5, 0.2], [1.0, 1.0], [1.0, 0.0])
    """
    return _curve(y, s, w)


def _curve(
    y: BoolArray, s: FloatArray, w: FloatArray | None, with_scores: bool = True
) -> CurveState:
    """:func:`curve_from_chunk`, optionally without the score column.

    ``with_scores=False``: weighted continuous scores skip gathering the scores
    (``scores`` is then empty: for the AUC, which reads only the weights).
    """
    if w is not None and w.size and not w.min() > 0:  # weights >= 0: a zero is the minimum
        keep = w != 0
        y, s, w = y[keep], s[keep], w[keep]
    if s.size == 0:
        empty = np.zeros(0)
        return CurveState(empty, empty, empty)
    dc = decimal_codes(s)
    if dc is not None:
        return _curve_from_codes(y, dc, w)
    if w is None:
        return _curve_from_sorted(sort_rows(y, s))
    pos, neg, part, scores = weighted_entries(y, s, w, with_scores=with_scores)
    return CurveState(np.zeros(0) if scores is None else scores, pos, neg, part)


def merge_curves(a: CurveState, b: CurveState) -> CurveState:
    """State ⊕ state: the curve of the concatenated rows, exact (entry sums are order-free).

    Both score arrays are already sorted, so they are merged, not sorted again:
    ``searchsorted`` places each score of ``b`` among those of ``a``; a score
    found in both adds its weights, the others are interleaved.

    >>> a = curve_from_chunk(np.array([True]), np.array([0.5]))
    >>> b = curve_from_chunk(np.array([False, True]), np.array([0.5, 0.9]))
    >>> m = merge_curves(a, b)
    >>> m.scores.tolist(), m.pos.tolist(), m.neg.tolist()
    ([0.9, 0.5], [1.0, 1.0], [0.0, 1.0])
    """
    if a.scores.size == 0 or b.scores.size == 0:
        c = b if a.scores.size == 0 else a
        pos, neg = c.pos.astype(np.float64), c.neg.astype(np.float64)
        return CurveState(c.scores + 0.0, pos, neg, c.exact)
    if a.scores.size < b.scores.size:  # the sum is symmetric; b is then often inside a
        a, b = b, a
    # at[j]: scores of a above b.scores[j]; b.scores[j] is new unless a holds it at at[j]
    at = np.searchsorted(-a.scores, -b.scores)
    inside = at < a.scores.size
    shared = np.zeros(at.size, dtype=bool)
    shared[inside] = a.scores[at[inside]] == b.scores[inside]
    if shared.all():  # every score of b is in a (streams that saw every score): add in place
        return _add_into(a, b, at, shared)
    new = ~shared
    # rank of b.scores[j] in the merged scores: a's above it plus b's new ones before it
    rank = at + np.cumsum(new)
    rank -= new
    size = a.scores.size + int(np.count_nonzero(new))
    from_a = np.ones(size, dtype=bool)
    from_a[rank[new]] = False
    scores, pos, neg = np.empty(size), np.empty(size), np.empty(size)
    scores[from_a], pos[from_a], neg[from_a] = a.scores, a.pos, a.neg
    scores[rank[new]] = b.scores[new]
    pos[rank[new]] = 0.0
    neg[rank[new]] = 0.0
    pos[rank] += b.pos  # ranks are distinct: no two b scores land on one entry
    neg[rank] += b.neg
    scores += 0.0  # -0.0 as 0.0
    exact = merge_exact(a, b, np.flatnonzero(from_a), rank, shared, size)
    if exact is None:
        return CurveState(scores, pos, neg)
    index, pos[index], neg[index], part = exact
    return CurveState(scores, pos, neg, part)


def _add_into(
    a: CurveState, b: CurveState, at: npt.NDArray[np.intp], shared: BoolArray
) -> CurveState:
    """The merge when every score of ``b`` is in ``a`` (at positions ``at``)."""
    pos, neg = a.pos.astype(np.float64), a.neg.astype(np.float64)  # copies
    pos[at] += b.pos
    neg[at] += b.neg
    exact = merge_exact(a, b, np.arange(a.scores.size), at, shared, a.scores.size)
    if exact is None:
        return CurveState(a.scores, pos, neg)
    index, pos[index], neg[index], part = exact
    return CurveState(a.scores, pos, neg, part)


# ---------------------------------------------------------------- state -> value


def auc_from_curve(c: CurveState) -> float:
    """ROC AUC: Σ_g neg_g (positives above g + pos_g / 2) / (P N); nan and a warning if one class."""
    value = pair_fraction(c.pos, c.neg)
    if value is None:
        return undefined("roc_auc", "only one class is present in y_true")
    return value


def rank_loss_from_curve(c: CurveState) -> float:
    """Weight of (positive, negative) pairs ordered wrongly, ties one half, over P N."""
    value = pair_fraction(c.neg, c.pos)
    if value is None:
        return undefined("rank_loss", "only one class is present in y_true")
    return value


def _ap_value(weights: FloatArray | None, precision: FloatArray, n_pos: float) -> float:
    """``Σ weights·precision / n_pos``, summed by ``np.sum`` (pairwise, in the arrays' order).

    Not ``np.dot``: BLAS may split a long dot product over threads, whose wake-up costs more
    than the sum on a busy machine and whose partial sums depend on the thread count.
    """
    terms = precision if weights is None else np.multiply(weights, precision)
    return float(np.sum(terms) / n_pos)


def ap_from_curve(c: CurveState) -> float:
    """Average precision Σ_n (R_n − R_{n−1}) P_n; 0 with a warning when there is no positive."""
    return _ap_from_counts(c.pos, c.neg)


def _ap_from_counts(pos: FloatArray, neg: FloatArray) -> float:
    """AP from class weights per score, decreasing (entries with no weight change nothing)."""
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    n_pos = float(tp[-1]) if tp.size else 0.0
    if n_pos <= 0:
        return undefined("average_precision", "no positive sample in y_true", 0.0)
    hit = pos > 0
    precision = tp[hit] / (tp[hit] + fp[hit])
    return _ap_value(pos[hit][::-1], precision[::-1], n_pos)


def roc_from_curve(
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


def pr_from_curve(
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


def ks_from_curve(c: CurveState) -> float:
    """KS: the largest TPR − FPR over thresholds (the point (0, 0) included, so never below 0)."""
    n_pos, n_neg = float(c.pos.sum()), float(c.neg.sum())
    if n_pos <= 0 or n_neg <= 0:
        return undefined("ks_statistic", "only one class is present in y_true")
    gap = np.cumsum(c.pos) / n_pos - np.cumsum(c.neg) / n_neg
    return float(max(0.0, gap.max()))


def bep_from_curve(c: CurveState) -> float:
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


def partial_auc(fpr: FloatArray, tpr: FloatArray, max_fpr: float) -> float:
    """McClish-standardised area up to ``max_fpr`` (scikit-learn's ``max_fpr`` rule)."""
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    x = np.r_[fpr[:stop], max_fpr]
    y = np.r_[tpr[:stop], np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])]
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1 + (area - min_area) / (max_area - min_area))


def partial_auc_from_curve(c: CurveState, max_fpr: float) -> float:
    """The McClish-standardised partial AUC of a curve; nan and a warning if one class."""
    if not (c.pos.sum() > 0 and c.neg.sum() > 0):
        return undefined("roc_auc", "only one class is present in y_true")
    fpr, tpr, _ = roc_from_curve(c)
    return partial_auc(fpr, tpr, max_fpr)


# ---------------------------------------------------------------- binary fast paths


def _tie_runs(r: SortedRows) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
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


def binary_auc(y: BoolArray, s: FloatArray, w: FloatArray | None) -> float:
    """AUC of one binary problem; unweighted: one sort, no curve (the same value as the kernel).

    In increasing order with negatives first within a tie, the j-th positive
    (0-based) at position i has i − j negatives at or below its score; the tied
    ones, Σ_runs pos·neg, count one half.
    """
    if w is not None or s.size == 0:
        return auc_from_curve(_curve(y, s, w, with_scores=False))
    dc = decimal_codes(s)
    if dc is not None:  # few distinct decimal scores: counted, not sorted (empty codes add 0)
        value = pair_fraction(*_unit_counts(y, dc))
        return (
            undefined("roc_auc", "only one class is present in y_true") if value is None else value
        )
    r = sort_rows(y, s)
    where_pos = np.flatnonzero(r.positive)
    n_pos, n_neg = where_pos.size, s.size - where_pos.size
    if n_pos == 0 or n_neg == 0:
        return undefined("roc_auc", "only one class is present in y_true")
    at_or_below = int(where_pos.sum()) - n_pos * (n_pos - 1) // 2
    first, last = _tie_runs(r)
    pos = np.searchsorted(where_pos, last, "right") - np.searchsorted(where_pos, first, "left")
    tied_pairs = int(np.dot(pos, last - first + 1 - pos))
    return auc_value((2 * at_or_below - tied_pairs) / 2, n_pos, n_neg)


def binary_ap(y: BoolArray, s: FloatArray, w: FloatArray | None) -> float:
    """Average precision of one binary problem; unweighted: one sort, no curve (same value as the kernel).

    In increasing order, a positive whose tie run starts at position a, with
    k positives before a, has n_pos − k positives and n − a rows at or above its score.
    """
    if w is not None or s.size == 0:
        return ap_from_curve(curve_from_chunk(y, s, w))
    dc = decimal_codes(s)
    if dc is not None:  # few distinct decimal scores: counted, not sorted (empty codes add 0)
        return _ap_from_counts(*_unit_counts(y, dc))
    r = sort_rows(y, s)
    where_pos = np.flatnonzero(r.positive)
    n_pos = where_pos.size
    if n_pos == 0:
        return undefined("average_precision", "no positive sample in y_true", 0.0)
    first, last = _tie_runs(r)
    start = where_pos  # first row at each positive's score (the positive itself if untied)
    if first.size:
        # positives lo[k]:hi[k] (in where_pos) lie in tie run k
        lo = np.searchsorted(where_pos, first, "left")
        hi = np.searchsorted(where_pos, last, "right")
        if np.any(hi - lo >= 2):  # some step holds several positives
            return _ap_steps(where_pos, first, lo, hi, s.size)
        with_pos = hi > lo
        start = where_pos.copy()
        start[lo[with_pos]] = first[with_pos]
    # every positive is its own step (weight 1): the k-th from the top has k + 1 positives at
    # or above
    precision = np.arange(n_pos, 0, -1, dtype=np.float64)
    precision /= np.subtract(s.size, start, dtype=np.float64)
    return _ap_value(None, precision, float(n_pos))


def _ap_steps(
    where_pos: npt.NDArray[np.intp],
    first: npt.NDArray[np.intp],
    lo: npt.NDArray[np.intp],
    hi: npt.NDArray[np.intp],
    n: int,
) -> float:
    """:func:`binary_ap` when tie runs hold several positives (each run with positives is one step)."""
    n_pos = where_pos.size
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
    precision /= np.subtract(n, start, dtype=np.float64)  # rows at or above the step
    return _ap_value(weight, precision, float(n_pos))
