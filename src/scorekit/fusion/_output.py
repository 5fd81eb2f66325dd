"""The fused run: the aligned documents in rank order, built without re-validating them.

The documents come from :func:`._align.align`: distinct (query, document)
pairs, grouped by query. Ranking them is one sort per query, done a block of
queries at a time as an ``argsort`` along the rows of a small (queries x
longest list) matrix padded with +inf (many short sorts instead of one global
one, no large temporary; two threads take half the queries each, NumPy
releasing the GIL). When the lists are so uneven that
the padding would cost more than it saves, the global order of
:func:`~scorekit.ranking._order.rank_order` is used instead. Either way
``rank_order`` then checks the order in one pass and puts tied scores by
document id descending, so the rule is the one every run follows.

The run's document index is computed from the aligned pairs in the order of
their hashes (the merge's order, when the alignment kept it), so its sort is
a single timsort pass per half of the queries (two threads); and since the
pairs are distinct by construction, the duplicate check of
``Run.from_arrays`` is not repeated.
"""

from __future__ import annotations

import numpy as np

from .._threads import run_two as both
from .._typing import FloatArray, IntArray
from ..ranking._data import Run, _Coded, _starts
from ..ranking._docindex import doc_index, layout, pair_keys
from ..ranking._ids import U64
from ..ranking._order import apply_order, rank_order
from ._align import Aligned, run_two

__all__: list[str] = []

PAD_LIMIT = 1.5  # padded matrix cells per document above which the global sort is used
THREADS_FROM = 1 << 20  # documents from which the per-query sorts run on two threads
_BLOCK_CELLS = 1 << 16  # padded matrix cells sorted at a time
_CHUNK = 1 << 20


def by_query_order(query: IntArray, score: FloatArray, n_queries: int) -> IntArray | None:
    """Rows (grouped by query) in order of score descending within each query; ties in any order.

    None when the padded matrix would exceed ``PAD_LIMIT`` cells per row.
    The queries are sorted a block at a time, each block in its own small
    padded matrix (cache-sized; no large temporary), the blocks' orders
    written into the one result.

    >>> by_query_order(np.array([0, 0, 0, 1]), np.array([1.0, 3.0, 2.0, 5.0]), 2)
    array([1, 2, 0, 3])
    """
    g = score.size
    counts = np.bincount(query, minlength=n_queries)
    width = int(counts.max()) if g else 0
    if g == 0 or n_queries * width > PAD_LIMIT * g + 64:
        return None
    ends = np.cumsum(counts)
    starts = ends - counts
    out = np.empty(g, np.int64)
    step = max(1, _BLOCK_CELLS // width)  # queries per block

    def part(lo: int, hi: int) -> None:
        for a in range(lo, hi, step):
            b = min(a + step, hi)
            c = counts[a:b]
            w = int(c.max())
            r0, r1 = int(starts[a]), int(ends[b - 1])
            if w == 0:
                continue
            mat = np.full((b - a, w), np.inf)
            cell = np.repeat(np.arange(0, (b - a) * w, w, dtype=np.int64) - (starts[a:b] - r0), c)
            cell += np.arange(r1 - r0, dtype=np.int64)  # query * w + place in the query
            mat.reshape(-1)[cell] = -score[r0:r1]
            order = np.argsort(mat, axis=1)
            order += starts[a:b, None]
            keep = np.flatnonzero(order < (starts[a:b] + c)[:, None])  # not the padding
            np.take(order, keep, out=out[r0:r1])

    half = n_queries // 2
    if g >= THREADS_FROM and half > 0:
        both(lambda: part(0, half), lambda: part(half, n_queries))
    else:
        part(0, n_queries)
    return out


def _index(al: Aligned, row_of: IntArray) -> U64 | None:
    """The fused run's document index from the aligned documents, which are in hash order.

    The documents are grouped by query and ordered by the high bits of their
    hashes (the merge's order), a prefix of the bits the run's own keys hold:
    their keys are sorted but within the rare blocks sharing those high bits,
    so one timsort pass finishes them. None when the run's keys would mix the
    query into the hash (another order).
    """
    g, n_queries = al.query.size, al.queries.size
    if not layout(n_queries, g)[2]:
        return None
    keys = np.empty(g, np.uint64)

    def part(a: int, b: int) -> None:  # whole queries: the halves' keys do not interleave
        for lo in range(a, b, _CHUNK):  # chunks: the hash's temporaries stay small
            hi = min(lo + _CHUNK, b)
            k = keys[lo:hi]
            k[:] = pair_keys(al.doc[lo:hi], al.query[lo:hi], n_queries, g)
            np.bitwise_or(k, row_of[lo:hi].view(np.uint64), out=k)
        keys[a:b].sort(kind="stable")

    mid = int(np.searchsorted(al.query, al.query[g // 2])) if g else 0
    run_two(lambda: part(0, mid), lambda: part(mid, g), g)
    return keys


def fused_run(al: Aligned, fused: FloatArray, tag: str) -> Run:
    """The run of the aligned documents with scores ``fused``, in rank order."""
    g = fused.size
    n_queries = al.queries.size
    first = by_query_order(al.query, fused, n_queries)
    perm = np.arange(g, dtype=np.int64) if first is None else first
    # the per-query order keeps the queries' blocks: its query column is the aligned one
    q = al.query if first is not None else al.query[perm]
    s, d = np.take(fused, perm), np.take(al.doc, perm)
    order = rank_order(q, s, d)
    q, s, d = apply_order(order, q, s, d, owned=True)
    if order.perm is not None:
        perm = perm[order.perm]
    row_of = np.empty(g, np.int64)  # aligned document -> its row in the fused run

    def invert(lo: int, hi: int) -> None:  # whole queries: their rows map among themselves
        for a in range(lo, hi, _CHUNK):  # small ranges of row numbers, not one of every row
            b = min(a + _CHUNK, hi)
            row_of[perm[a:b]] = np.arange(a, b, dtype=np.int64)

    mid = int(np.searchsorted(al.query, al.query[g // 2])) if g else 0
    run_two(lambda: invert(0, mid), lambda: invert(mid, g), g)
    if order.pos.size:  # tied documents moved: row pos now holds the one from row src
        row_of[perm[order.src]] = order.pos
    starts = _starts(q, n_queries)
    index = _index(al, row_of) if al.by_hash else None
    if index is None:
        index, _ = doc_index(q, d, starts)  # distinct pairs by construction: no duplicate check
    coded = _Coded(al.queries, q, d, starts)
    moves = (order.pos, order.src) if order.pos.size else None
    return Run(coded, s, str(tag), index, perm, moves, None, None)
