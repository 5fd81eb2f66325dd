"""Stack the rows of several runs and align them by (query, document).

Every run is columnar and in rank order (:mod:`scorekit.ranking._data`), so
the rows of all runs laid end to end form contiguous (run, query) segments:
per-run normalisations are segment reductions over them.

Documents are aligned across runs without sorting them again: every run
already holds its document index, its ``(query code, hash(document), row)``
keys sorted (built once when the run was made, and reused by every
evaluation). When a run's query vocabulary is the union of all runs' (the
usual case: every run answers the same topics) and its key layout is the
common one (the same bits for queries and rows: runs of similar lengths),
those keys are taken as they are; otherwise they are rebuilt once under the
union's query codes and the common layout. The low
bits of each key are replaced by the row's number in the stacked table, and
one merge (a stable sort of the runs' presorted key lists: timsort merges
them in linear time) brings every (query, document) pair's rows together, in
run order. Equal hashes are verified on the query codes and the id words, so
a collision can never merge two documents; a block where two documents share
a hash is re-sorted exactly (a small subset). The result is dense: one row per
distinct (query, document) of the union, in query order, one column per run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import AnyArray, BoolArray, FloatArray, IntArray
from ..ranking._data import Run, _starts
from ..ranking._docindex import doc_index, layout
from ..ranking._ids import U64, order_words, padded, words
from ..ranking._order import _stable_by_query, segments

__all__: list[str] = []

_CHUNK = 1 << 20  # pairs verified at a time (keeps the gathered id words small)


@dataclass(frozen=True, slots=True)
class Stacked:
    """The rows of every run, run after run, each run in its own rank order."""

    queries: AnyArray  # sorted union of the runs' query ids (padded S)
    qmaps: list[IntArray]  # per run: its query codes -> union codes
    score: FloatArray  # per row: the run's score
    offsets: IntArray  # (n_runs + 1,) first row of each run
    seg_starts: IntArray  # start row of every (run, query) segment (none is empty)
    seg_len: IntArray  # rows of every (run, query) segment
    run_lengths: IntArray  # (n_runs, n_queries): documents of each run per query (0: absent)

    def positions(self) -> IntArray:
        """0-based rank of every row within its (run, query) list."""
        out: IntArray = np.arange(self.score.size, dtype=np.int64) - np.repeat(
            self.seg_starts, self.seg_len
        )
        return out


def stack(runs: list[Run]) -> Stacked:
    """Lay the runs' rows end to end with union query codes."""
    vocabs = [r._coded.queries for r in runs]
    width = max(v.dtype.itemsize for v in vocabs)
    queries = np.unique(np.concatenate([v.astype(f"S{width}") for v in vocabs]))
    qmaps, parts_start = [], []
    run_lengths = np.zeros((len(runs), queries.size), np.int64)
    offsets = np.zeros(len(runs) + 1, np.int64)
    for i, r in enumerate(runs):  # a loop over the runs (a handful), never over queries
        c = r._coded
        qmap = np.searchsorted(queries, c.queries.astype(f"S{width}"))
        run_lengths[i, qmap] = np.diff(c.starts)
        qmaps.append(qmap)
        parts_start.append(c.starts[:-1] + offsets[i])
        offsets[i + 1] = offsets[i] + len(r)
    seg_starts = np.concatenate(parts_start).astype(np.int64)
    return Stacked(
        queries=queries,
        qmaps=qmaps,
        score=np.concatenate([r.score for r in runs]).astype(np.float64),
        offsets=offsets,
        seg_starts=seg_starts,
        seg_len=np.diff(np.concatenate([seg_starts, offsets[-1:]])),
        run_lengths=run_lengths,
    )


@dataclass(frozen=True, slots=True)
class Aligned:
    """One row per distinct (query, document) of the union, one column per run."""

    queries: AnyArray
    query: IntArray  # (G,) query code of each document, non-decreasing
    doc: AnyArray  # (G,) document ids
    present: BoolArray  # (G, m) the run retrieved the document
    pos: IntArray  # (G, m) 0-based rank in the run (-1: absent)
    candidates: IntArray  # (G,) number of distinct documents of the query over all runs
    run_lengths: IntArray  # (m, n_queries)
    cell: IntArray  # per pair of the merge: its flat cell in the (G, m) matrices
    row: IntArray  # per pair of the merge: its stacked row
    hash_order: IntArray  # the documents (their index here) in the order of their hashes

    def dense(self, values: FloatArray, fill: float = 0.0) -> FloatArray:
        """A (G, m) matrix of per-stacked-row ``values``; ``fill`` where a run lacks the document."""
        out = np.full(self.present.shape, fill, np.float64)
        out.reshape(-1)[self.cell] = values[self.row]
        return out


def _run_keys(run: Run, qmap: IntArray, n_queries: int, width: int, n_rows: int) -> U64:
    """The run's sorted document index under the union query codes, id width and key layout.

    The keys of all runs must share one layout (:func:`~scorekit.ranking._docindex.layout`
    of the union's queries and the longest run) to compare: a run's own index
    is taken when its layout is that one, else its keys are built once.
    """
    c = run._coded
    same_codes = qmap.size == n_queries  # the run has every query: its codes are the union's
    if (
        same_codes
        and c.doc.dtype.itemsize == width
        and run._index.size == len(run)
        and layout(n_queries, len(run)) == layout(n_queries, n_rows)
    ):
        return run._index
    doc = c.doc if c.doc.dtype.itemsize == width else padded(c.doc.astype(f"S{width}"))
    query = qmap[c.query]
    return doc_index(query, doc, _starts(query, n_queries), n_rows)[0]


def _merge(runs: list[Run], st: Stacked, width: int) -> tuple[U64, IntArray]:
    """All runs' index keys in one sorted list: (hash high bits, stacked row) per pair."""
    total = int(st.offsets[-1])
    n_rows = max(len(r) for r in runs)  # one key layout for every run
    bits = max(1, int(total - 1).bit_length())
    low = np.uint64((1 << bits) - 1)
    parts = []
    for i, r in enumerate(runs):
        keys = _run_keys(r, st.qmaps[i], st.queries.size, width, n_rows)
        own = np.uint64((1 << max(1, int(len(r) - 1).bit_length())) - 1)
        row = (keys & own) + np.uint64(st.offsets[i])
        parts.append((keys & ~low) | row)
    merged = np.concatenate(parts)
    merged.sort(kind="stable")  # timsort: the parts are (nearly) sorted runs, merged in one pass
    rows = (merged & low).astype(np.int64)
    np.right_shift(merged, np.uint64(bits), out=merged)
    return merged, rows


def _same_pairs(rows: IntArray, test: BoolArray, query: IntArray, doc: AnyArray) -> BoolArray:
    """For merge positions i where ``test[i]``: the pairs at i and i + 1 are equal.

    The ids are gathered once per position, chunk by chunk, and compared with
    their neighbours (one random read per row instead of two per pair).
    """
    out = np.empty(test.size, bool)
    for a in range(0, test.size, _CHUNK):
        b = min(a + _CHUNK, test.size)
        r = rows[a : b + 1]
        q = query[r]
        same = test[a:b] & (q[1:] == q[:-1])
        w = words(doc[r])  # one gather of whole ids, then their words
        for j in range(w.shape[1]):
            same &= w[1:, j] == w[:-1, j]
        out[a:b] = same
    return out


def align(runs: list[Run], st: Stacked) -> Aligned:
    """Group the stacked rows by (query, document); groups ordered by query code."""
    m = len(runs)
    width = max(8, *(r._coded.doc.dtype.itemsize for r in runs))
    hashes, rows = _merge(runs, st, width)
    small = np.int32 if st.queries.size < 1 << 31 else np.int64
    query = np.concatenate([st.qmaps[i].astype(small)[r._coded.query] for i, r in enumerate(runs)])
    doc = np.concatenate([r._coded.doc.astype(f"S{width}", copy=False) for r in runs])
    ws = words(doc)
    same_hash = hashes[1:] == hashes[:-1]
    del hashes
    same = _same_pairs(rows, same_hash, query, doc)
    bad = same_hash & ~same
    if bad.any():  # a hash shared by different pairs: sort those blocks exactly
        starts = np.r_[0, np.flatnonzero(~same_hash) + 1, same_hash.size + 1]  # hash blocks
        hit = np.unique(np.searchsorted(starts, np.flatnonzero(bad), side="right") - 1)
        sel = segments(starts[hit], starts[hit + 1] - starts[hit])
        block = np.repeat(np.arange(hit.size), starts[hit + 1] - starts[hit])
        r = rows[sel]
        ow = order_words(doc[r])
        cols = [ow[:, j] for j in range(ow.shape[1] - 1, -1, -1)]
        sub = np.lexsort([r, *cols, query[r], block])  # within each block
        rows[sel] = r[sub]
        inner = sel[:-1][same_hash[sel[:-1]]]  # pairs within the re-sorted blocks
        a, b = rows[inner], rows[inner + 1]
        same[inner] = (query[a] == query[b]) & (ws[a] == ws[b]).all(axis=1)
    new = np.r_[True, ~same]
    del same, same_hash, bad
    first = rows[new]
    by_query = _stable_by_query(query[first])  # hash order -> query order (radix passes)
    rank = np.empty(first.size, np.int64)
    rank[by_query] = np.arange(first.size)
    first = first[by_query]
    gq = query[first].astype(np.int64)
    cell = rank[np.cumsum(new) - 1]
    del new
    cell *= m
    cell += np.searchsorted(st.offsets[1:], rows, side="right")  # the run of each pair
    present = np.zeros((first.size, m), bool)
    present.reshape(-1)[cell] = True
    pos = np.full((first.size, m), -1, np.int64)
    pos.reshape(-1)[cell] = st.positions()[rows]
    cand = np.bincount(gq, minlength=st.queries.size)
    return Aligned(
        queries=st.queries,
        query=gq,
        doc=doc[first],
        present=present,
        pos=pos,
        candidates=cand[gq],
        run_lengths=st.run_lengths,
        cell=cell,
        row=rows,
        hash_order=rank,
    )
