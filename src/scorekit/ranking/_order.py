"""Ranking order: documents by score descending, ties by document id descending.

This is the one place that decides the order of a run's documents; the
measure kernels only ever see relevance values already in rank order. The
default is trec_eval's: within a query, higher score first, and among equal
scores the document id that is larger in byte order (C ``strcmp``) first.
Other tie conventions (issue 8: ``ties="docid_asc"``, ``"input_order"``,
``"average"``, ``"optimistic"``, ``"pessimistic"``) act on the tie groups that
:func:`tie_groups` finds in a ranked run, without touching the kernels.

Speed: a run file is usually written query by query in rank order; that is
checked in O(n) and only tied documents are then sorted. Otherwise the
query code, the score (order-preserving bits) and the row number are packed
in one 64-bit key and the keys are sorted as values (two halves on two
threads; much cheaper than an argsort; when the rows are already grouped by
query in code order, as a ``groupBy`` gives them, the keys of a block of
whole queries are built in cache and sorted piece by piece of a few whole
queries: :func:`._docindex.over_chunks`), the rows whose truncated scores
collide are put in exact order, and the tied documents are sorted by id. When
the score would keep fewer than 20 bits, one argsort of the scores (NumPy's
SIMD sort) followed by a stable radix pass over the query codes orders
everything instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._typing import AnyArray, BoolArray, FloatArray, IntArray
from ..classification._sortkeys import order_bits, sort_uint64
from ._docindex import over_chunks, sort_pieces
from ._ids import U64, desc_order_key

__all__: list[str] = []


def _grouped_order(query: IntArray, score: FloatArray) -> IntArray | bool:
    """The permutation that puts whole query blocks in code order; True if none is needed.

    Succeeds when every query's rows are contiguous and already in
    non-increasing score order (the usual layout of a run file); False otherwise.
    """
    n = query.size
    if n == 0:
        return True
    change = _where_adjacent(lambda a, b: query[a] != query[b], n) + 1
    # within a query the score never rises (a new query may start higher)
    if _where_adjacent(lambda a, b: (score[b] > score[a]) & (query[b] == query[a]), n).size:
        return False
    seg_start = np.concatenate([[0], change])
    seg_q = query[seg_start]
    if (np.diff(seg_q) > 0).all():
        return True
    if np.unique(seg_q).size != seg_q.size:
        return False
    seg_len = np.diff(np.concatenate([seg_start, [n]]))
    order = np.argsort(seg_q)
    new_start = np.cumsum(seg_len[order]) - seg_len[order]
    return np.repeat(seg_start[order] - new_start, seg_len[order]) + np.arange(n, dtype=np.int64)


_CHUNK = 1 << 18


def segments(starts: IntArray, lengths: IntArray) -> IntArray:
    """Positions ``starts[i] .. starts[i] + lengths[i] - 1`` for every i, laid end to end.

    >>> segments(np.array([5, 0]), np.array([2, 3]))
    array([5, 6, 0, 1, 2])
    """
    total = int(lengths.sum())
    offset = np.cumsum(lengths) - lengths
    out: IntArray = np.repeat(starts - offset, lengths) + np.arange(total, dtype=np.int64)
    return out


def _where_adjacent(test: Callable[[slice, slice], BoolArray], n: int) -> IntArray:
    """Indices i where ``test(rows i, rows i + 1)`` holds, in chunks (small temporaries)."""
    parts = [
        np.flatnonzero(
            test(slice(lo, min(lo + _CHUNK, n - 1)), slice(lo + 1, min(lo + _CHUNK, n - 1) + 1))
        )
        + lo
        for lo in range(0, n - 1, _CHUNK)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _stable_by_query(code: IntArray) -> IntArray:
    """Stable argsort of query codes: radix passes over 16-bit digits (O(n) each)."""
    top = int(code.max()) if code.size else 0
    if top < 1 << 16:
        return np.argsort(code.astype(np.uint16), kind="stable")
    if top < 1 << 32:
        low = np.argsort((code & 0xFFFF).astype(np.uint16), kind="stable")
        high = np.argsort((code[low] >> 16).astype(np.uint16), kind="stable")
        return low[high]
    return np.argsort(code, kind="stable")  # pragma: no cover - over 4e9 queries


_MIN_SCORE_BITS = 20
_MAX_SCORE_BITS = 64  # tests lower it to force the exact pass over truncated keys


def _packed_order(
    query: IntArray, score: FloatArray, doc: AnyArray
) -> tuple[IntArray, bool] | None:
    """Rank order by one sort of packed keys (no argsort); None when the score would get < 20 bits.

    A key holds, from its top bit: the query code, the score's place in
    descending order (its IEEE bits made order-preserving, minus the smallest,
    shifted right to fit) and the row number; sorting the keys (values, not
    indices: several times cheaper than an argsort) and keeping the row bits
    gives the order. When the rows are grouped by query in code order, each
    block of whole queries is packed, sorted piece by piece and unpacked while in cache.
    When the shift drops bits, rows whose keys then agree above the row bits
    are put in exact order (score descending, document id descending) by one
    lexsort of just those rows. Returns the order and whether the rows were
    grouped by query in code order already (the order then moves rows only
    within their query).
    """
    n = query.size
    qb = int(query.max()).bit_length()
    rb = max(1, int(n - 1).bit_length())
    sb = min(64 - qb - rb, _MAX_SCORE_BITS)
    if sb < _MIN_SCORE_BITS:
        return None
    # the inverted order bits run from ~bits(max score) to ~bits(min score)
    ends = order_bits(np.array([score.min(), score.max()], dtype=np.float64))
    low = ~ends[1]
    shift = max(0, int(~ends[0] - low).bit_length() - sb)
    rows = np.uint64((1 << rb) - 1)

    def packed(lo: int, hi: int) -> U64:
        key = order_bits(score[lo:hi])  # ascending with the score; -0.0 and 0.0 tie
        np.invert(key, out=key)  # descending
        np.subtract(key, low, out=key)
        np.right_shift(key, np.uint64(shift), out=key)
        np.left_shift(key, np.uint64(rb), out=key)
        np.bitwise_or(key, np.arange(lo, hi, dtype=np.uint64), out=key)
        if qb:
            np.bitwise_or(key, query[lo:hi].astype(np.uint64) << np.uint64(64 - qb), out=key)
        return key

    def unpacked(key: U64, lo: int) -> IntArray:
        """The rows of sorted keys into ``perm``; the positions whose truncated keys agree."""
        perm[lo : lo + key.size] = key & rows
        if not shift:
            return np.zeros(0, np.int64)
        np.right_shift(key, np.uint64(rb), out=key)
        return np.flatnonzero(key[1:] == key[:-1]) + lo

    perm: IntArray = np.empty(n, np.int64)
    grouped = not _where_adjacent(lambda a, b: query[b] < query[a], n).size
    if not grouped:
        key = packed(0, n)
        sort_uint64(key)
        tied = unpacked(key, 0)
    else:  # rows grouped by query in code order: chunk by chunk of whole queries

        def chunk(cuts: list[int]) -> IntArray:
            key = packed(cuts[0], cuts[-1])
            sort_pieces(key, cuts)
            return unpacked(key, cuts[0])

        starts = np.searchsorted(query, np.arange(int(query[-1]) + 2, dtype=query.dtype))
        tied = np.concatenate(over_chunks(starts, chunk))
    lo, hi = _runs(tied)
    if lo.size:
        length = hi - lo
        pos = segments(lo, length)
        group = np.repeat(np.arange(lo.size), length)
        at = perm[pos]
        order = np.lexsort([*desc_order_key(doc[at]), -score[at], group])
        perm[pos] = at[order]
    return perm, grouped


def _runs(tied: IntArray) -> tuple[IntArray, IntArray]:
    """Start and stop of each run of rows i, i + 1, ... linked by ``tied`` (i: i ~ i + 1)."""
    if tied.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new_run = np.ones(tied.size, bool)
    new_run[1:] = tied[1:] != tied[:-1] + 1
    last = np.ones(tied.size, bool)
    last[:-1] = new_run[1:]
    return tied[new_run], tied[last] + 2


def tie_groups(query: IntArray, score: FloatArray) -> tuple[IntArray, IntArray]:
    """Start and stop positions of the runs of equal (query, score) in ranked rows.

    Only runs of two or more rows are returned.

    >>> tie_groups(np.array([0, 0, 0, 1]), np.array([2.0, 1.0, 1.0, 1.0]))
    (array([1]), array([3]))
    """
    return _runs(
        _where_adjacent(lambda a, b: (query[b] == query[a]) & (score[b] == score[a]), query.size)
    )


@dataclass(frozen=True, slots=True)
class Reorder:
    """How to put rows in rank order: ``rows[perm]`` (None: as they are), then ``[pos] = [src]``.

    ``pos``/``src`` move documents within groups of tied scores only, so they
    leave the query and score columns unchanged and touch just the ids.
    """

    perm: IntArray | None
    pos: IntArray
    src: IntArray
    gathered: tuple[AnyArray, ...] = ()  # the columns already taken in ``perm`` order


def rank_order(query: IntArray, score: FloatArray, doc: AnyArray) -> Reorder:
    """How to order rows as trec_eval ranks them (query, score desc, doc id desc).

    Document ids are padded byte strings (:func:`._ids.padded`):

    >>> doc = np.array([b"x", b"a", b"b"], dtype="S8")
    >>> r = rank_order(np.array([1, 0, 0]), np.array([0.5, 0.2, 0.2]), doc)
    >>> r.perm, r.pos, r.src
    (array([1, 2, 0]), array([0, 1]), array([1, 0]))
    """
    grouped = _grouped_order(query, score)
    perm: IntArray | None
    if grouped is True:
        perm, q, s, d = None, query, score, doc
    else:
        in_place = False  # the order moves rows only within their query
        if grouped is False:
            packed = _packed_order(query, score, doc)
            if packed is None:
                by_score = np.argsort(-score)  # SIMD sort; ties are ordered below anyway
                perm = by_score[_stable_by_query(query[by_score])]
            else:
                perm, in_place = packed
        else:
            perm = grouped
        q = query if in_place else query[perm]
        s, d = score[perm], doc[perm]
    gathered = () if perm is None else (q, s, d)
    lo, hi = tie_groups(q, s)
    empty = np.zeros(0, np.int64)
    if lo.size == 0:
        return Reorder(perm, empty, empty, gathered)
    length = hi - lo
    pos = np.repeat(lo - np.cumsum(length) + length, length) + np.arange(int(length.sum()))
    group = np.repeat(np.arange(lo.size), length)
    order = np.lexsort([*desc_order_key(d[pos]), group])
    moved = pos[order] != pos
    return Reorder(perm, pos[moved], pos[order][moved], gathered)


def apply_order(order: Reorder, *columns: AnyArray, owned: bool) -> list[AnyArray]:
    """The (query, score, id) columns in rank order; tie moves only change the ids.

    ``owned``: the last column may be modified in place (it is not the user's array).
    """
    if order.gathered:
        out = list(order.gathered)
    else:
        out = [c if order.perm is None else c[order.perm] for c in columns]
    if order.pos.size:
        ids = out[-1] if (owned or order.perm is not None) else out[-1].copy()
        ids[order.pos] = ids[order.src]
        out[-1] = ids
    return out
