"""The GAUC kernel: per-(group, score) class weights, merged, turned into per-group AUCs.

The three stages, shaped for streaming (``scorekit.stream.GroupedCurve``) and Dask:

- :func:`grouped_curve_from_chunk` rows -> :class:`GroupedCurveState`, the
  positive and negative weight at each distinct (group, score), sorted by
  group then score;
- :func:`merge_grouped_curves` state ⊕ state (exact for unit weights; groups
  may arrive in different chunks);
- :func:`group_stats_from_state` state -> per-group weights and AUC, from the
  shared area kernel (:mod:`scorekit.classification._area`).

Unit weights take a faster path (:func:`unit_group_stats`: one sort of
packed integer keys, :mod:`scorekit.classification._sortkeys`) that gives the
same per-group values; so do weights in one shot (:func:`weighted_group_aucs`:
the state's class weights, not its scores or codes, straight from one sort).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from .._errors import LabelError
from .._typing import AnyArray, BoolArray, FloatArray, IntArray
from ..classification._area import segment_half_pairs, segment_pair_fractions
from ..classification._curve_exact import ExactPart, exact_runs, merge_exact, whole_weights
from ..classification._curve_grouped import grouped_weighted_entries
from ..classification._sortkeys import order_bits, sort_uint64, truncate_keys

__all__ = [
    "GroupedCurveState",
    "group_aucs_from_state",
    "group_stats_from_state",
    "grouped_curve_from_chunk",
    "merge_grouped_curves",
    "unit_group_stats",
    "weighted_group_aucs",
]

U64Array = npt.NDArray[np.uint64]
_U1 = np.uint64(1)


@dataclass(frozen=True, slots=True, eq=False)
class GroupedCurveState:
    """Positive and negative weight at each distinct (group, score), sorted by group then score.

    ``groups`` holds the labels of the groups present, sorted ascending; the
    entries of ``groups[i]`` are ``offsets[i]:offsets[i + 1]`` of ``scores``
    (strictly increasing within a group), ``pos`` and ``neg``. Every float is
    the exact sum rounded once (see ``classification._curve_exact``), so the
    state does not depend on chunking or merge order.
    """

    groups: AnyArray
    offsets: IntArray
    scores: FloatArray
    pos: FloatArray
    neg: FloatArray
    #: exact sums of the entries whose floats are roundings (fractional weights); None: all exact
    exact: ExactPart | None = None


def _empty_state(labels: AnyArray | None) -> GroupedCurveState:
    """A state without entries (group labels of the dtype of ``labels``)."""
    groups = np.zeros(0, np.int64) if labels is None else np.asarray(labels)[:0]
    empty = np.zeros(0)
    return GroupedCurveState(groups, np.zeros(1, np.int64), empty, empty, empty)


def _sort_by_code_and_score(
    codes: IntArray, scores: FloatArray
) -> tuple[IntArray, IntArray, FloatArray]:
    """One ``argsort`` ordering rows by (code, score): ``(order, sorted codes, sorted scores)``.

    The key is ``code | score bits`` (order-preserving bits, shifted right when
    they do not fit beside the code bits); rows whose truncated keys tie but
    whose scores differ are re-ordered by score within their run.
    """
    gbits = max(1, int(codes.max()).bit_length())
    ibits = max(1, (codes.size - 1).bit_length())
    sbits = max(1, 64 - gbits - ibits)
    key = order_bits(scores)
    lo = key.min()
    key -= lo
    spread = int(key.max())
    shift = max(0, spread.bit_length() - sbits)
    if shift:
        key >>= np.uint64(shift)
    key |= np.left_shift(codes.astype(np.uint64), np.uint64(sbits))
    if gbits + sbits + ibits <= 64:  # the row index packed below: one sort of keys, no argsort
        order, k = _sort_with_rows(key, ibits)
    else:  # pragma: no cover - more than 2**63 group codes and rows together
        order = np.argsort(key)
        k = key[order]
    del key
    s = scores[order]
    s += 0.0  # -0.0 as 0.0
    if shift:
        clash = np.flatnonzero((k[1:] == k[:-1]) & (s[1:] != s[:-1]))
        if clash.size:  # runs of one truncated key holding several scores: sort them by score
            run = np.cumsum(np.r_[True, k[1:] != k[:-1]])
            idx = np.flatnonzero(np.isin(run, run[clash]))
            sub = idx[np.lexsort((s[idx], run[idx]))]
            order[idx] = order[sub]
            s[idx] = s[sub]
    np.right_shift(k, np.uint64(sbits), out=k)
    c: IntArray = k.view(np.int64)  # the codes, sorted
    return order, c, s


def _sort_with_rows(key: U64Array, ibits: int) -> tuple[IntArray, U64Array]:
    """``(argsort(key), key sorted)`` from one sort of ``key << ibits | row`` (two threads)."""
    key <<= np.uint64(ibits)
    for start in range(0, key.size, 1 << 16):  # the row numbers, block by block
        key[start : start + (1 << 16)] |= np.arange(
            start, min(start + (1 << 16), key.size), dtype=np.uint64
        )
    sort_uint64(key)
    order = (key & np.uint64((1 << ibits) - 1)).view(np.int64)
    key >>= np.uint64(ibits)
    return order, key


def _entries(
    codes: IntArray, scores: FloatArray, labels: AnyArray | None
) -> tuple[IntArray, IntArray, IntArray, FloatArray, AnyArray, IntArray]:
    """Rows ordered by (code, score): ``(order, starts, entry codes, entry scores, groups, offsets)``."""
    order, c, s = _sort_by_code_and_score(codes, scores)
    starts = np.flatnonzero(np.r_[True, (c[1:] != c[:-1]) | (s[1:] != s[:-1])])
    e_code, e_scores = c[starts], s[starts]
    g_starts = np.flatnonzero(np.r_[True, e_code[1:] != e_code[:-1]])
    present = e_code[g_starts]
    groups = present if labels is None else np.asarray(labels)[present]
    offsets = np.r_[g_starts, e_code.size].astype(np.int64)
    return order, starts, e_code, e_scores, groups, offsets


def _aggregate(
    codes: IntArray,
    scores: FloatArray,
    pos_w: FloatArray,
    neg_w: FloatArray,
    labels: AnyArray | None,
) -> tuple[GroupedCurveState, IntArray, IntArray]:
    """Sum ``pos_w`` and ``neg_w`` per distinct (code, score); order by code, then score.

    Also returns the sorting ``order`` of the rows and the ``starts`` of each
    entry's rows in it (float sums: the callers make them exact).
    """
    order, starts, _, e_scores, groups, offsets = _entries(codes, scores, labels)
    pos = np.add.reduceat(pos_w[order], starts)
    neg = np.add.reduceat(neg_w[order], starts)
    return GroupedCurveState(groups, offsets, e_scores, pos, neg), order, starts


def grouped_curve_from_chunk(
    g_codes: IntArray,
    y: BoolArray,
    s: FloatArray,
    w: FloatArray | None,
    groups: AnyArray | None = None,
) -> GroupedCurveState:
    """Rows -> :class:`GroupedCurveState`.

    ``g_codes`` are integer group codes, ``y`` the positives, ``s`` the scores
    and ``w`` the weights (``None``: 1). ``groups[c]`` is the label of code
    ``c`` (sorted ascending, as ``np.unique`` returns them); without it the
    codes are the labels. Only groups with rows appear in the state. The
    labels and weights are gathered once into the sorted order and split there.
    """
    if s.size == 0:
        return _empty_state(groups)
    order, starts, _, e_scores, labels, offsets = _entries(np.asarray(g_codes, np.int64), s, groups)
    y_sorted = y[order]
    w_sorted = np.ones(order.size) if w is None else w[order]
    pos_rows = w_sorted * y_sorted
    pos = np.add.reduceat(pos_rows, starts)
    np.subtract(w_sorted, pos_rows, out=pos_rows)  # the negatives' weights
    neg = np.add.reduceat(pos_rows, starts)
    del pos_rows
    state = GroupedCurveState(labels, offsets, e_scores, pos, neg)
    if w is None or whole_weights(w):
        return state
    exact = exact_runs(y_sorted, w_sorted, starts, s.size)
    if exact is None:
        return state
    runs, state.pos[runs], state.neg[runs], part = exact
    return replace(state, exact=part)


def merge_grouped_curves(a: GroupedCurveState, b: GroupedCurveState) -> GroupedCurveState:
    """State ⊕ state: entries of equal (group, score) are added, exactly (order-free)."""
    if a.scores.size == 0:
        return b
    if b.scores.size == 0:
        return a
    if (a.groups.dtype.kind in "USO") != (b.groups.dtype.kind in "USO"):
        raise LabelError("cannot merge GAUC states whose group ids mix strings and numbers")
    labels, inv = np.unique(np.concatenate([a.groups, b.groups]), return_inverse=True)
    inv = inv.reshape(-1)
    n_a = a.groups.size
    codes = np.concatenate(
        [np.repeat(inv[:n_a], np.diff(a.offsets)), np.repeat(inv[n_a:], np.diff(b.offsets))]
    )
    state, order, starts = _aggregate(
        codes,
        np.concatenate([a.scores, b.scores]),
        np.concatenate([a.pos, b.pos]),
        np.concatenate([a.neg, b.neg]),
        labels,
    )
    size = state.scores.size
    sizes = np.diff(np.append(starts, order.size))
    where = np.empty(order.size, np.int64)
    where[order] = np.repeat(np.arange(size), sizes)
    where_a, where_b = where[: a.scores.size], where[a.scores.size :]
    exact = merge_exact(a, b, where_a, where_b, sizes[where_b] == 2, size)
    if exact is None:
        return state
    index, state.pos[index], state.neg[index], part = exact
    return replace(state, exact=part)


def group_stats_from_state(
    state: GroupedCurveState,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per group of ``state.groups``: positive weight, negative weight and Mann–Whitney U.

    U = Σ over positives of w⁺ (negative weight below + ½ negative weight tied),
    in the units of the weights (exact for unit weights; the AUC is U / (P N),
    which :func:`group_aucs_from_state` computes without overflow).
    """
    if state.groups.size == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    starts = state.offsets[:-1]
    n_pos = np.add.reduceat(state.pos, starts)
    n_neg = np.add.reduceat(state.neg, starts)
    return n_pos, n_neg, segment_half_pairs(state.neg, state.pos, state.offsets)


def group_aucs_from_state(
    state: GroupedCurveState,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per group of ``state.groups``: positive weight, negative weight and AUC (nan: one class).

    From the shared area kernel (:func:`scorekit.classification._area.segment_pair_fractions`):
    each group is scaled by its own power of two, so huge or tiny weights
    neither overflow nor underflow, and scaling every weight by a power of two
    changes no bit.
    """
    if state.groups.size == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    n_neg, n_pos, auc = segment_pair_fractions(state.neg, state.pos, state.offsets)
    return n_pos, n_neg, auc


def weighted_group_aucs(
    codes: IntArray, n_codes: int, y: BoolArray, s: FloatArray, w: FloatArray
) -> tuple[BoolArray, FloatArray, FloatArray, FloatArray] | None:
    """Rows -> per group: ``(present, n_pos, n_neg, auc)``, as the state of the rows would give.

    ``present`` marks the codes below ``n_codes`` with rows; the other three are
    for those codes, bit for bit :func:`group_aucs_from_state` of
    :func:`grouped_curve_from_chunk`: the same entry floats, from
    :func:`~scorekit.classification._curve_grouped.grouped_weighted_entries`
    (one sort of ``group | score bucket | row | label`` keys, one gather of the
    weights), and the same entry offsets, counted per group (rows minus the rows
    tied with the next). ``None`` when the keys do not fit in 64 bits.
    """
    out = grouped_weighted_entries(codes, max(1, (n_codes - 1).bit_length()), y, s, w)
    if out is None:  # pragma: no cover - more than 2**62 groups and rows together
        return None
    pos, neg, tied = out
    counts = np.bincount(codes, minlength=n_codes)
    present = counts > 0
    if tied.size:  # a tied row's group: the first whose rows end after it
        counts -= np.bincount(np.searchsorted(np.cumsum(counts), tied, "right"), minlength=n_codes)
    offsets = np.zeros(int(present.sum()) + 1, np.int64)
    np.cumsum(counts[present], out=offsets[1:])
    n_neg, n_pos, auc = segment_pair_fractions(neg, pos, offsets)
    return present, n_pos, n_neg, auc


def _dirty_rows(
    sorted_key: U64Array,
    codes: IntArray,
    s: FloatArray,
    signed: bool,
    lo: np.uint64,
    shift: int,
    sbits: int,
) -> tuple[IntArray, U64Array] | None:
    """Rows whose (group, truncated score) run holds several distinct scores, and their buckets.

    Runs of two rows or more are found in the sorted keys (no second sort of
    the rows); their rows are found by key (a bitmap prefilter, then an exact
    test) and only those few rows are sorted by score to keep the runs whose
    scores differ (a run of one score is a true tie: no correction).
    """
    gb = sorted_key >> _U1  # group | bucket, sorted
    twice = gb[1:] == gb[:-1]
    if not twice.any():
        return None
    cand = gb[1:][twice]
    cand = cand[np.r_[True, cand[1:] != cand[:-1]]]
    bucket_mask = np.uint64((1 << sbits) - 1)
    row_key = order_bits(s, signed)
    row_key -= lo
    row_key >>= np.uint64(shift)
    row_key |= np.left_shift(codes.view(np.uint64), np.uint64(sbits))
    rows = _rows_in(row_key, cand)
    rk, sr = row_key[rows], s[rows] + 0.0
    o = np.lexsort((sr, rk))
    rows, rk, sr = rows[o], rk[o], sr[o]
    mixed = np.unique(rk[1:][(rk[1:] == rk[:-1]) & (sr[1:] != sr[:-1])])
    if mixed.size == 0:
        return None
    dirty = rows[np.isin(rk, mixed)]
    return dirty, row_key[dirty] & bucket_mask


def _low16(a: U64Array) -> npt.NDArray[np.uint16]:
    """The low 16 bits of each entry, as a view when the machine is little-endian."""
    low: npt.NDArray[np.uint16]
    if sys.byteorder == "little" and a.flags.c_contiguous:
        low = a.view(np.uint16)[::4]
    else:
        low = (a & np.uint64(0xFFFF)).astype(np.uint16)
    return low


def _rows_in(bucket: U64Array, impure: U64Array) -> IntArray:
    """Indices of the rows whose bucket is impure (a bitmap prefilter, then an exact test)."""
    table = np.zeros(1 << 16, dtype=bool)
    table[_low16(impure)] = True
    cand = np.flatnonzero(table[_low16(bucket)])
    return cand[np.isin(bucket[cand], impure)]


def unit_group_stats(
    codes: IntArray,
    n_codes: int,
    y: BoolArray,
    s: FloatArray,
    *,
    score_bits: int | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per code: positives, negatives and U for unit weights, from one sort of packed keys.

    Each row becomes one uint64 key ``group | score bucket | label``: the score
    bits (order-preserving, shifted right by the trailing zeros all scores
    share and, when there are more score bits than room, truncated). For a
    positive row at sorted position i, the negatives at or below its score
    number ``i - (positives before it)``; those strictly below differ only
    where a negative ties with it (then ``searchsorted`` counts them). Runs of
    one group and bucket that the truncation made hold several distinct
    scores (:func:`_dirty_rows`, no second sort of all rows) are corrected
    exactly with the general kernel on their few rows. ``score_bits`` forces
    truncation (for tests).
    """
    gbits = max(1, (n_codes - 1).bit_length())
    sbits = 63 - gbits if score_bits is None else score_bits
    signed = bool(s.min() < 0)
    key = order_bits(s, signed)
    lo, hi = key.min(), key.max()
    key -= lo
    shift, tz = truncate_keys(key, int(hi - lo), sbits)
    key <<= _U1
    key |= y.view(np.uint8)
    gshift = np.uint64(sbits + 1)
    key |= np.left_shift(codes.view(np.uint64), gshift)
    sort_uint64(key)
    dirty = _dirty_rows(key, codes, s, signed, lo, shift, sbits) if shift > tz else None

    if sys.byteorder == "little":
        pos_at = np.flatnonzero(key.view(np.uint8)[::8] & 1)
    else:
        pos_at = np.flatnonzero(key & _U1)
    kpos = key[pos_at]
    le = pos_at - np.arange(pos_at.size)  # negatives at or below (all earlier groups too)
    lt = le
    if pos_at.size and np.any(key[np.maximum(pos_at - 1, 0)] == kpos - _U1):  # tied negatives
        lt = np.searchsorted(key, kpos - _U1) - np.searchsorted(kpos, kpos - _U1)
    g_of_pos = (kpos >> gshift).astype(np.intp)
    n = np.bincount(codes, minlength=n_codes).astype(np.float64)
    n_pos = np.bincount(g_of_pos, minlength=n_codes).astype(np.float64)
    n_neg = n - n_pos
    neg_before = np.cumsum(n_neg) - n_neg
    u = np.bincount(g_of_pos, (lt + le).astype(np.float64), minlength=n_codes) / 2
    u -= n_pos * neg_before
    if dirty is not None:
        rows, bucket = dirty
        u += _bucket_correction(codes[rows], bucket, y[rows], s[rows], sbits, n_codes)
    return n_pos, n_neg, u


def _bucket_correction(
    codes: IntArray, bucket: U64Array, y: BoolArray, s: FloatArray, sbits: int, n_codes: int
) -> FloatArray:
    """U exact minus U with every pair in one (group, bucket) counted as a tie, per group."""
    run_key = (codes.astype(np.uint64) << np.uint64(sbits)) | bucket
    runs, run_code = np.unique(run_key, return_inverse=True)
    state = grouped_curve_from_chunk(run_code.reshape(-1), y, s, None)
    u = segment_half_pairs(state.neg, state.pos, state.offsets)
    p = np.add.reduceat(state.pos, state.offsets[:-1])
    q = np.add.reduceat(state.neg, state.offsets[:-1])
    run_group = (runs[state.groups] >> np.uint64(sbits)).astype(np.intp)
    return np.bincount(run_group, u - p * q / 2, minlength=n_codes).astype(np.float64, copy=False)
