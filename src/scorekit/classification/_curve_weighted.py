"""Weighted rows in decreasing score order without ``argsort``: packed keys, two groups, no merge.

The weighted curve (``curve_from_chunk`` with weights, and weighted ``roc_auc``)
needs each row's weight in score order. An ``argsort`` is slow (one thread, an
index sort) and its three gathers double the memory; here each row becomes one
``uint64`` key instead::

    score bucket | row index | label

The bucket is the row's order-preserving score bits counted down from the
highest score (so an ascending sort gives decreasing scores), shifted right
by the trailing zeros all scores share and, when more bits are needed than
there is room for beside the index, truncated.

Large inputs use both cores without a merge: a pivot score (the median of a
sample) splits the rows into the higher scores and the rest, and each group is
packed, sorted and unpacked on its own thread, into its own slice of the output
(the groups' orders are consecutive: the higher group comes first). Unpacking
reads the label from the sorted keys and gathers each row's weight by its
index, block by block, and writes the positive and negative weight columns
(the negative one over the keys themselves: no extra buffer).

Truncation can put distinct scores in one bucket: such rows sit next to each
other (their keys share the bucket bits; a bucket may straddle the two groups).
Only the rows of buckets holding two rows or more are looked at: their scores
are gathered and they are re-sorted by score within their bucket (a handful
for continuous scores). Equal scores in one bucket are true ties (one curve
entry); their weights are summed exactly by :func:`._curve_exact.exact_runs_split`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from .._threads import run_two
from .._typing import BoolArray, FloatArray, IntArray
from ._curve_exact import ExactPart, exact_runs_split, whole_weights
from ._sortkeys import UIntArray, order_bits

__all__ = ["WeightedEntries", "bucket_order", "weighted_entries"]

_ONE = np.uint64(1)
_SIGN = np.uint64(1 << 63)
_BLOCK = 1 << 16
_PROBE = 4096
#: Inputs at least this long are split into two groups sorted on two threads.
PARALLEL_ROWS = 1 << 18

#: ``(pos, neg, exact, scores)``: class weights per distinct score (decreasing),
#: the exact part (or None) and the scores (None unless asked for).
WeightedEntries = tuple[FloatArray, FloatArray, ExactPart | None, FloatArray | None]


@dataclass(frozen=True, slots=True)
class _Plan:
    """How keys are packed: ``((hi − order bits) >> shift) << (index_bits + 1) | row << 1 | label``."""

    signed: bool
    top: float  # the highest score
    hi: np.uint64  # its order bits
    shift: int
    truncated: int  # bits dropped beyond the shared trailing zeros (0: a bucket is one score)
    cut: np.uint64  # index bits + 1: the bucket's position
    mask: np.uint64  # the index bits


def _order_bits_into(s: FloatArray, signed: bool, out: UIntArray) -> UIntArray:
    """:func:`._sortkeys.order_bits` of ``s`` written into ``out`` (same length)."""
    np.add(s, 0.0, out=out.view(np.float64))
    if signed:
        flip = (out.view(np.int64) >> 63).view(np.uint64)
        flip |= _SIGN
        out ^= flip
    return out


def _plan(s: FloatArray, index_bits: int, score_bits: int) -> _Plan:
    """The packing of every row: the highest score's bits, the shared trailing zeros, the shift.

    ``hi − bits`` of two rows differ first at their lowest differing bit, so the
    trailing zeros all buckets share are those of ``OR (hi XOR bits)``; a probe
    of the first rows usually shows there are none, else one blocked pass counts them.
    """
    lo, top = float(s.min()), float(s.max())
    signed = lo < 0
    ends = order_bits(np.array([lo, top]), signed)
    hi = ends[1]
    spread = int(ends[1] - ends[0])
    tz = 0
    if spread:
        probe = order_bits(s[:_PROBE], signed)
        ored = int(np.bitwise_or.reduce(probe ^ hi))
        if ored & 1 == 0:
            buf = np.empty(min(_BLOCK, s.size), np.uint64)
            for start in range(_PROBE, s.size, _BLOCK):
                block = _order_bits_into(
                    s[start : start + _BLOCK], signed, buf[: s[start : start + _BLOCK].size]
                )
                block ^= hi
                ored |= int(np.bitwise_or.reduce(block))
        tz = (ored & -ored).bit_length() - 1
    shift = tz + max(0, (spread >> tz).bit_length() - score_bits)
    cut, mask = np.uint64(index_bits + 1), np.uint64((1 << index_bits) - 1)
    return _Plan(signed, top, hi, shift, shift - tz, cut, mask)


@dataclass(frozen=True, slots=True)
class _Group:
    """The rows scored above ``pivot`` (``above``) or not; ``pivot`` None: every row.

    The higher group is written from the first output position on, the other
    from the last one back: they meet where the higher scores end, with no count
    taken first.
    """

    pivot: float | None = None
    above: bool = True


def _groups(s: FloatArray, plan: _Plan) -> list[_Group]:
    """One group, or two split at the median of a sample of the scores."""
    n = s.size
    if n < PARALLEL_ROWS:
        return [_Group()]
    sample = s[:: max(1, n // _PROBE)]
    pivot = float(np.partition(sample, sample.size // 2)[sample.size // 2])
    if not pivot < plan.top:  # no score above the pivot
        return [_Group()]
    return [_Group(pivot, True), _Group(pivot, False)]


class _Buffers:
    """Block-sized scratch arrays of one thread (reused: fresh temporaries cost page faults)."""

    def __init__(self, size: int) -> None:
        self.key = np.empty(size, np.uint64)
        self.rows = np.empty(size, np.uint64)
        self.weight = np.empty(size)
        self.flag = np.empty(size, dtype=bool)
        self.even = np.arange(0, 2 * size, 2, dtype=np.uint64)  # row << 1 of a block's rows


def _pack(
    y: BoolArray, s: FloatArray, plan: _Plan, g: _Group, key: UIntArray, buf: _Buffers
) -> tuple[int, int]:
    """Write the keys of the group's rows into ``key``, block by block; returns their positions.

    A block's keys are computed for all its rows; with a pivot, those of the
    group are then picked by ``np.compress`` (one pass, no index array).
    """
    shift = np.uint64(plan.shift)
    at = 0 if g.above else key.size
    for start in range(0, s.size, _BLOCK):
        sb, yb = s[start : start + _BLOCK], y[start : start + _BLOCK].view(np.uint8)
        m = c = sb.size
        if g.pivot is None:
            k = key[at : at + m]
        else:
            sel = buf.flag[:m]
            (np.greater if g.above else np.less_equal)(sb, g.pivot, out=sel)
            k, c = buf.key[:m], int(np.count_nonzero(sel))
        _order_bits_into(sb, plan.signed, k)
        np.subtract(plan.hi, k, out=k)
        if plan.shift:
            k >>= shift
        k <<= plan.cut
        r = buf.rows[:m]
        np.add(buf.even[:m], np.uint64(2 * start), out=r)
        r |= yb
        k |= r
        if not g.above:
            at -= c
        if g.pivot is not None:
            np.compress(sel, k, out=key[at : at + c])
        if g.above:
            at += c
    return (0, at) if g.above else (at, key.size)


def _with_next(shared: IntArray, n: int) -> IntArray:
    """The sorted union of ``shared`` (sorted positions below ``n − 1``) and ``shared + 1``."""
    if 16 * shared.size < n:
        both = np.concatenate([shared, shared + 1])
        both.sort()
        keep = np.ones(both.size, dtype=bool)
        np.not_equal(both[1:], both[:-1], out=keep[1:])
        return both[keep]
    mark = np.zeros(n, dtype=bool)
    mark[shared] = True
    mark[shared + 1] = True
    return np.flatnonzero(mark)


def _same_bucket(key: UIntArray, cut: np.uint64, buf: _Buffers) -> IntArray:
    """Sorted positions ``i`` whose key shares its bucket with the key at ``i + 1``."""
    out = [np.zeros(0, np.intp)]
    for start in range(0, key.size - 1, _BLOCK):
        stop = min(start + _BLOCK, key.size - 1)
        x = buf.rows[: stop - start]
        np.bitwise_xor(key[start + 1 : stop + 1], key[start:stop], out=x)
        x >>= cut
        same = np.equal(x, 0, out=buf.flag[: x.size])
        out.append(np.flatnonzero(same) + start)
    return np.concatenate(out)


def _unpack(
    key: UIntArray,
    w: FloatArray,
    s: FloatArray,
    plan: _Plan,
    pos: FloatArray,
    scores: FloatArray | None,
    buf: _Buffers,
) -> None:
    """Sorted keys -> ``pos`` (the weight of positives, else 0) and, over ``key``, ``neg``.

    Block by block: the rows are read from the keys, their weights (and scores,
    when ``scores`` is given) gathered, and the keys overwritten by the
    negatives' weights.
    """
    for start in range(0, key.size, _BLOCK):
        kb = key[start : start + _BLOCK]
        m = kb.size
        label = buf.flag[:m]
        if sys.byteorder == "little":  # the label bit is in the first byte of each key
            np.bitwise_and(kb.view(np.uint8)[::8], np.uint8(1), out=label.view(np.uint8))
        else:  # pragma: no cover - big-endian machines
            np.not_equal(kb & _ONE, 0, out=label)
        rows = buf.rows[:m]
        np.right_shift(kb, _ONE, out=rows)
        rows &= plan.mask
        weight = buf.weight[:m]
        np.take(w, rows.view(np.int64), out=weight, mode="clip")  # "clip": no output buffering
        if scores is not None:
            sc = scores[start : start + m]
            np.take(s, rows.view(np.int64), out=sc, mode="clip")
            sc += 0.0  # -0.0 as 0.0
        pb = pos[start : start + m]
        np.multiply(weight, label, out=pb)
        np.subtract(weight, pb, out=kb.view(np.float64))


#: One group's result: its first and last + 1 positions, the positions tied with the next
#: (within the group) and, when buckets are truncated, the positions and keys
#: :func:`_resolve` may need (those of shared buckets, and the group's ends).
_Sorted = tuple[int, int, IntArray, IntArray, UIntArray]


def _sort_group(
    y: BoolArray,
    s: FloatArray,
    w: FloatArray,
    plan: _Plan,
    g: _Group,
    key: UIntArray,
    pos: FloatArray,
    scores: FloatArray | None,
) -> _Sorted:
    """Pack, sort and unpack one group (``key``, ``pos``, ``scores``: the whole outputs)."""
    buf = _Buffers(min(_BLOCK, s.size))
    lo, hi = _pack(y, s, plan, g, key, buf)
    k = key[lo:hi]
    k.sort()
    shared = _same_bucket(k, plan.cut, buf)
    kept = np.zeros(0, np.intp)
    if plan.truncated and k.size:
        ends = np.array([0, max(k.size - 2, 0)], np.intp)
        kept = _with_next(np.r_[ends[:1], shared, ends[1:]], k.size) if k.size > 1 else ends[:1]
    kept_keys = k[kept]
    _unpack(k, w, s, plan, pos[lo:hi], None if scores is None else scores[lo:hi], buf)
    return lo, hi, shared + lo, kept + lo, kept_keys


def _join(parts: list[_Sorted], plan: _Plan) -> tuple[IntArray, IntArray, UIntArray]:
    """The groups' results together (in position order); a bucket across groups is shared too."""
    shared: list[IntArray] = []
    kept: list[IntArray] = []
    keys: list[UIntArray] = []
    for lo, hi, sh, kp, kk in parts:
        if lo == hi:
            continue
        if plan.truncated and keys and (int(keys[-1][-1]) ^ int(kk[0])) >> int(plan.cut) == 0:
            shared.append(np.array([lo - 1], np.intp))
        shared.append(sh)
        kept.append(kp)
        keys.append(kk)
    return np.concatenate(shared), np.concatenate(kept), np.concatenate(keys)


def _resolve(
    s: FloatArray,
    joined: tuple[IntArray, IntArray, UIntArray],
    plan: _Plan,
    columns: list[FloatArray],
) -> IntArray:
    """Re-sort the rows of shared buckets by decreasing score; the positions tied with the next.

    The rows of every shared bucket (``joined``: the shared positions, and the
    kept positions and their keys) are ordered by (bucket, decreasing score) — a
    bucket's rows keep their positions as a block — and ``columns`` permuted alike.
    """
    shared, kept, kept_keys = joined
    n = s.size
    at = _with_next(shared, n)
    k = kept_keys[np.searchsorted(kept, at)]
    order, tied = bucket_order(s, k, at, shared, plan.mask, plan.cut)
    for col in columns:
        col[at] = col[at][order]
    return tied


def bucket_order(
    s: FloatArray,
    k: UIntArray,
    at: IntArray,
    shared: IntArray,
    mask: np.uint64,
    cut: np.uint64,
    increasing: bool = False,
) -> tuple[IntArray, IntArray]:
    """The rows at sorted positions ``at`` (keys ``k``) ordered by (bucket, score), and the ties.

    Returns the order (scores decreasing within a bucket unless ``increasing``;
    stable) and the positions of ``shared`` whose row ties with the next one's.
    """
    scores = s[((k >> _ONE) & mask).astype(np.intp)] + 0.0
    order: IntArray = np.lexsort((scores if increasing else -scores, k >> cut))
    scores = scores[order]
    i = np.searchsorted(at, shared)
    return order, shared[scores[i] == scores[i + 1]]


def weighted_entries(
    y: BoolArray,
    s: FloatArray,
    w: FloatArray,
    *,
    with_scores: bool = True,
    score_bits: int | None = None,
) -> WeightedEntries:
    """Positive and negative weight per distinct score, decreasing (``s`` finite, ``w > 0``).

    Packed keys sorted in one or two groups (module docstring); a float is a
    single row's weight or, for tied rows, their exact sum rounded once
    (:func:`._curve_exact.exact_runs_split`). ``with_scores=False`` skips gathering the
    scores (AUC needs only the weights); ``score_bits`` forces truncation of the
    score bits (for tests).

    >>> pos, neg, _, sc = weighted_entries(
    ...     np.array([True, False, True]), np.array([0.2, 0.5, 0.5]), np.array([1.5, 2.0, 0.25])
    ... )
    >>> sc.tolist(), pos.tolist(), neg.tolist()
    ([0.5, 0.2], [0.25, 1.5], [2.0, 0.0])
    """
    n = s.size
    index_bits = max(1, (n - 1).bit_length())
    plan = _plan(s, index_bits, 63 - index_bits if score_bits is None else score_bits)
    groups = _groups(s, plan)
    key = np.empty(n, np.uint64)
    pos = np.empty(n)
    scores = np.empty(n) if with_scores else None

    def work(g: _Group) -> _Sorted:
        return _sort_group(y, s, w, plan, g, key, pos, scores)

    if len(groups) == 1:
        parts = [work(groups[0])]
    else:
        parts = list(run_two(lambda: work(groups[0]), lambda: work(groups[1])))
    neg = key.view(np.float64)
    joined = _join(parts, plan)
    tied = joined[0]
    if plan.truncated and tied.size:
        columns = [pos, neg] if scores is None else [pos, neg, scores]
        tied = _resolve(s, joined, plan, columns)
    if tied.size == 0:  # every row its own score
        return pos, neg, None, scores
    new = np.ones(n, dtype=bool)
    new[tied + 1] = False
    starts = np.flatnonzero(new)
    del new
    entry_scores = None if scores is None else scores[starts]
    exact = None if whole_weights(w) else exact_runs_split(pos, neg, starts, n)
    pos_sum = np.add.reduceat(pos, starts)
    neg_sum = np.add.reduceat(neg, starts)
    if exact is None:
        return pos_sum, neg_sum, None, entry_scores
    runs, pos_sum[runs], neg_sum[runs], part = exact
    return pos_sum, neg_sum, part, entry_scores
