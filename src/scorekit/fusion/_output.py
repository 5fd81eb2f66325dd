"""The fused run: the aligned documents in rank order, built without re-validating them.

The documents come from :func:`._align.align`: distinct (query, document)
pairs, grouped by query. Ranking them is one sort per query, done at once as
an ``argsort`` along the rows of a (queries x longest list) matrix padded
with +inf (many short sorts instead of one global one; two threads take half
the queries each, NumPy releasing the GIL). When the lists are so uneven that
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

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._typing import FloatArray, IntArray
from ..ranking._data import Run, _Coded, _starts
from ..ranking._docindex import doc_index, layout, pair_keys
from ..ranking._ids import U64
from ..ranking._order import apply_order, rank_order
from ._align import Aligned, _gather, run_two

__all__: list[str] = []

PAD_LIMIT = 1.5  # padded matrix cells per document above which the global sort is used
THREADS_FROM = 1 << 20  # documents from which the per-query sorts run on two threads


def by_query_order(query: IntArray, score: FloatArray, n_queries: int) -> IntArray | None:
    """Rows (grouped by query) in order of score descending within each query; ties in any order.

    None when the padded matrix would exceed ``PAD_LIMIT`` cells per row.

    >>> by_query_order(np.array([0, 0, 0, 1]), np.array([1.0, 3.0, 2.0, 5.0]), 2)
    array([1, 2, 0, 3])
    """
    g = score.size
    counts = np.bincount(query, minlength=n_queries)
    width = int(counts.max()) if g else 0
    if g == 0 or n_queries * width > PAD_LIMIT * g + 64:
        return None
    starts = np.cumsum(counts) - counts
    mat = np.full((n_queries, width), np.inf)
    cell = np.repeat(np.arange(n_queries, dtype=np.int64) * width - starts, counts)
    cell += np.arange(g, dtype=np.int64)  # query * width + place in the query
    mat.reshape(-1)[cell] = -score
    order = np.empty(mat.shape, np.intp)

    def part(lo: int, hi: int) -> None:
        order[lo:hi] = np.argsort(mat[lo:hi], axis=1)

    half = n_queries // 2
    if g >= THREADS_FROM and half > 0:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(part, [0, half], [half, n_queries]))
    else:
        part(0, n_queries)
    keep = order < counts[:, None]
    order += starts[:, None]
    out: IntArray = order[keep]
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
        k = keys[a:b]
        k[:] = pair_keys(al.doc[a:b], al.query[a:b], n_queries, g)
        np.bitwise_or(k, row_of[a:b].astype(np.uint64), out=k)
        k.sort(kind="stable")

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
    s, d = np.take(fused, perm), _gather(al.doc, perm).view(al.doc.dtype).reshape(-1)
    order = rank_order(q, s, d)
    q, s, d = apply_order(order, q, s, d, owned=True)
    if order.perm is not None:
        perm = perm[order.perm]
    placed = perm
    if order.pos.size:  # tied documents moved: row pos now holds the one from row src
        placed = perm.copy()
        placed[order.pos] = perm[order.src]
    row_of = np.empty(g, np.int64)  # aligned document -> its row in the fused run
    row_of[placed] = np.arange(g, dtype=np.int64)
    starts = _starts(q, n_queries)
    index = _index(al, row_of) if al.by_hash else None
    if index is None:
        index, _ = doc_index(q, d, starts)  # distinct pairs by construction: no duplicate check
    coded = _Coded(al.queries, q, d, starts)
    moves = (order.pos, order.src) if order.pos.size else None
    return Run(coded, s, str(tag), index, perm, moves, None, None)
