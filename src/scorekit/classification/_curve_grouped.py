"""One-shot weighted GAUC entries from one sort of packed keys: group | score bucket | row | label.

:func:`grouped_weighted_entries` gives the class weights per distinct (group,
score), by group then increasing score (GAUC's order). Each row becomes one
``uint64`` key, the group code above the score bucket (the row's
order-preserving score bits counted up from the lowest score, shifted right by
the trailing zeros all scores share and truncated when more bits are needed than
there is room for), then the row index and the label. The keys are sorted by
:func:`._sortkeys.sort_uint64` (two threads); the index gathers the weights once.

Truncation can put distinct scores in one bucket: such rows sit next to each
other; only the rows of buckets holding two rows or more are re-sorted by score
within their bucket. Equal scores in one bucket are true ties (one entry), their
weights summed exactly by :func:`._curve_exact.exact_runs`. The ungrouped
weighted curve (:mod:`._curve_weighted`) splits the rows in two score groups on
two threads instead.
"""

from __future__ import annotations

import sys

import numpy as np

from .._threads import take_two
from .._typing import BoolArray, FloatArray, IntArray
from ._curve_exact import ExactPart, exact_runs, whole_weights
from ._curve_weighted import bucket_order
from ._sortkeys import UIntArray, order_bits, sort_uint64, truncate_keys

__all__ = ["grouped_weighted_entries"]

_ONE = np.uint64(1)
_BLOCK = 1 << 16


def _pack(
    s: FloatArray,
    y: BoolArray,
    index_bits: int,
    score_bits: int,
    groups: IntArray | None = None,
) -> tuple[UIntArray, int]:
    """Keys ``[group |] bucket << (index_bits + 1) | row << 1 | label``; returns them and the shift.

    The bucket is ``(highest score bits − score bits) >> shift`` (decreasing
    scores) or, with ``groups``, ``(score bits − lowest) >> shift`` below the
    group (by group, then increasing score); ``shift`` keeps it within
    ``score_bits`` bits. ``shift`` equal to the shared trailing zeros means no
    truncation (equal buckets are equal scores).
    """
    key = order_bits(s, bool(s.min() < 0))
    if groups is None:
        np.subtract(key.max(), key, out=key)
    else:
        key -= key.min()
    shift, tz = truncate_keys(key, int(key.max()), score_bits)
    key <<= np.uint64(index_bits + 1)
    label = y.view(np.uint8)
    group_shift = np.uint64(score_bits + index_bits + 1)
    for start in range(0, s.size, _BLOCK):  # [group |] row << 1 | label, block by block
        stop = min(start + _BLOCK, s.size)
        rows = np.arange(start, stop, dtype=np.uint64)
        rows <<= _ONE
        rows |= label[start:stop]
        if groups is not None:
            rows |= np.left_shift(groups[start:stop].view(np.uint64), group_shift)
        key[start:stop] |= rows
    return key, shift - tz


def _same_bucket(key: UIntArray, index_bits: int) -> IntArray:
    """Sorted positions ``i`` whose key shares its bucket with the key at ``i + 1``."""
    out = []
    cut = np.uint64(index_bits + 1)
    for start in range(0, key.size - 1, _BLOCK):
        stop = min(start + _BLOCK, key.size - 1)
        x = np.bitwise_xor(key[start + 1 : stop + 1], key[start:stop])
        x >>= cut
        out.append(np.flatnonzero(x == 0) + start)
    return np.concatenate(out) if out else np.zeros(0, np.intp)


def _resolve_buckets(
    key: UIntArray,
    s: FloatArray,
    shared: IntArray,
    index_bits: int,
    mask: np.uint64,
    increasing: bool,
) -> IntArray:
    """Re-sort the rows of shared buckets by score; the positions tied with the next.

    ``shared`` are the positions :func:`_same_bucket` found; their rows (and the
    next ones) are gathered, ordered by (bucket, score: decreasing unless
    ``increasing``) — a bucket's rows keep their positions as a block — and
    written back into ``key``.
    """
    at = np.union1d(shared, shared + 1)
    k = key[at]
    order, tied = bucket_order(s, k, at, shared, mask, np.uint64(index_bits + 1), increasing)
    key[at] = k[order]
    return tied


def grouped_weighted_entries(
    groups: IntArray,
    group_bits: int,
    y: BoolArray,
    s: FloatArray,
    w: FloatArray,
    *,
    score_bits: int | None = None,
) -> tuple[FloatArray, FloatArray, IntArray] | None:
    """Class weights per distinct (group, score), by group then increasing score (GAUC's order).

    ``groups`` are non-negative int64 codes below ``2**group_bits``, packed
    above the score bucket, one sort; the
    floats alike as the ungrouped curve's (one row's weight, or a tie's exact sum rounded once). Returns
    ``(pos, neg, tied)``: ``tied`` are the sorted row positions in one entry
    with the next row (an entry's group is its rows'); ``None`` when the
    group, score and row bits cannot share 64 (``score_bits`` forces
    truncation, for tests).

    >>> pos, neg, tied = grouped_weighted_entries(
    ...     np.array([1, 0, 1]), 1, np.array([True, False, False]),
    ...     np.array([0.5, 0.5, 0.5]), np.array([1.5, 2.0, 0.25]),
    ... )
    >>> pos.tolist(), neg.tolist(), tied.tolist()
    ([0.0, 1.5], [2.0, 0.25], [1])
    """
    index_bits = max(1, (s.size - 1).bit_length())
    bits = 63 - index_bits - group_bits if score_bits is None else score_bits
    if bits < 1:  # pragma: no cover - more than 2**62 groups and rows together
        return None
    pos, neg, _, _, tied = _sorted_entries(y, s, w, index_bits, bits, groups, False)
    return pos, neg, tied


def _sorted_entries(
    y: BoolArray,
    s: FloatArray,
    w: FloatArray,
    index_bits: int,
    bits: int,
    groups: IntArray | None,
    with_scores: bool,
) -> tuple[FloatArray, FloatArray, ExactPart | None, FloatArray | None, IntArray]:
    """The entries of :func:`grouped_weighted_entries` (``groups`` None: ungrouped, decreasing); also ``tied``."""
    n = s.size
    key, truncated = _pack(s, y, index_bits, bits, groups)
    sort_uint64(key)
    mask = np.uint64((1 << index_bits) - 1)
    tied = _same_bucket(key, index_bits)
    if truncated and tied.size:
        tied = _resolve_buckets(key, s, tied, index_bits, mask, groups is not None)
    if sys.byteorder == "little":  # the label bit is in the first byte of each key
        label = (key.view(np.uint8)[::8] & np.uint8(1)).view(bool)
    else:  # pragma: no cover - big-endian machines
        label = (key & _ONE).astype(bool)
    key >>= _ONE
    key &= mask
    rows = key.view(np.int64)  # the row of each sorted position
    weight = take_two(w, rows)
    if tied.size == 0:  # every row its own score
        scores = s[rows] + 0.0 if with_scores else None
        neg = rows.view(np.float64)  # the index buffer is not needed any more
        np.copyto(neg, weight)
        np.copyto(neg, 0.0, where=label)
        np.multiply(weight, label, out=weight)
        return weight, neg, None, scores, tied
    new = np.ones(n, dtype=bool)
    new[tied + 1] = False
    starts = np.flatnonzero(new)
    del new
    scores = s[rows[starts]] + 0.0 if with_scores else None
    exact = None if whole_weights(w) else exact_runs(label, weight, starts, n)
    neg = rows.view(np.float64)
    np.copyto(neg, weight)
    np.copyto(neg, 0.0, where=label)
    np.multiply(weight, label, out=weight)
    del label
    pos_sum = np.add.reduceat(weight, starts)
    del weight
    neg_sum = np.add.reduceat(neg, starts)
    if exact is None:
        return pos_sum, neg_sum, None, scores, tied
    runs, pos_sum[runs], neg_sum[runs], part = exact
    return pos_sum, neg_sum, part, scores, tied
