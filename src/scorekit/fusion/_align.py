"""Stack the rows of several runs and align them by (query, document).

Every run is columnar and in rank order (:mod:`scorekit.ranking._data`), so
the rows of all runs laid end to end form contiguous (run, query) segments:
per-run normalisations are segment reductions over them. Documents are then
aligned across runs by one sort of a hash of (query code, document id) with
the row number in its low bits; equal hashes are verified on the id words, so
a collision can never merge two documents. The result is dense: one row per
distinct (query, document) of the union, one column per run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import AnyArray, BoolArray, FloatArray, IntArray
from ..ranking._data import Run
from ..ranking._ids import hash_ids, order_words, padded, words

__all__: list[str] = []


@dataclass(frozen=True, slots=True)
class Stacked:
    """The rows of every run, run after run, each run in its own rank order."""

    queries: AnyArray  # sorted union of the runs' query ids (padded S)
    query: IntArray  # per row: code into ``queries``
    doc: AnyArray  # per row: padded S, one width for all runs
    score: FloatArray  # per row: the run's score
    run: IntArray  # per row: index of the run
    pos: IntArray  # per row: 0-based rank within (run, query)
    length: IntArray  # per row: number of documents the run has for the query
    seg_starts: IntArray  # start row of every (run, query) segment
    seg: IntArray  # per row: index of its segment
    run_lengths: IntArray  # (n_runs, n_queries): documents of each run per query (0: absent)


def stack(runs: list[Run]) -> Stacked:
    """Lay the runs' rows end to end with union query codes and per-row ranks."""
    vocabs = [r._coded.queries for r in runs]
    width = max(v.dtype.itemsize for v in vocabs)
    queries = np.unique(np.concatenate([v.astype(f"S{width}") for v in vocabs]))
    parts_q, parts_pos, parts_len, parts_start = [], [], [], []
    run_lengths = np.zeros((len(runs), queries.size), np.int64)
    offset = 0
    for i, r in enumerate(runs):  # a loop over the runs (a handful), never over queries
        c = r._coded
        qmap = np.searchsorted(queries, c.queries.astype(f"S{width}"))
        seg_len = np.diff(c.starts)
        run_lengths[i, qmap] = seg_len
        parts_q.append(qmap[c.query])
        parts_pos.append(r.rank - 1)
        parts_len.append(seg_len[c.query])
        parts_start.append(c.starts[:-1] + offset)
        offset += len(r)
    dwidth = max(r._coded.doc.dtype.itemsize for r in runs)
    doc = padded(np.concatenate([r._coded.doc.astype(f"S{dwidth}") for r in runs]))
    seg_starts = np.concatenate(parts_start).astype(np.int64)
    seg_len = np.diff(np.concatenate([seg_starts, [offset]]))
    return Stacked(
        queries=queries,
        query=np.concatenate(parts_q).astype(np.int64),
        doc=doc,
        score=np.concatenate([r.score for r in runs]).astype(np.float64),
        run=np.repeat(np.arange(len(runs), dtype=np.int64), [len(r) for r in runs]),
        pos=np.concatenate(parts_pos).astype(np.int64),
        length=np.concatenate(parts_len).astype(np.int64),
        seg_starts=seg_starts,
        seg=np.repeat(np.arange(seg_starts.size, dtype=np.int64), seg_len),
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
    row_group: IntArray  # per stacked row: its aligned row
    row_run: IntArray  # per stacked row: its run

    def dense(self, values: FloatArray, fill: float = 0.0) -> FloatArray:
        """A (G, m) matrix of per-row ``values``; ``fill`` where a run lacks the document."""
        out = np.full(self.present.shape, fill, np.float64)
        out[self.row_group, self.row_run] = values
        return out


def _group_sort(st: Stacked) -> tuple[IntArray, BoolArray]:
    """Rows sorted by query, equal (query, document) adjacent; True where a new pair starts.

    One sort of 64-bit keys: the query code in the high bits, a hash of the
    document in the middle, the row number in the low bits. Equal middle bits
    are then checked on the id words, and blocks where two documents share a
    hash are re-sorted exactly (a small subset).
    """
    n = st.query.size
    bits = max(1, int(n - 1).bit_length())
    qbits = max(1, int(st.queries.size - 1).bit_length())
    if bits + qbits > 48:  # too little room for the hash: fall back to an exact sort
        return _exact_sort(st)
    row_mask = np.uint64((1 << bits) - 1)
    key = hash_ids(st.doc)
    np.right_shift(key, np.uint64(qbits), out=key)
    np.bitwise_and(key, ~row_mask, out=key)
    np.bitwise_or(key, st.query.astype(np.uint64) << np.uint64(64 - qbits), out=key)
    np.bitwise_or(key, np.arange(n, dtype=np.uint64), out=key)
    key.sort()
    row = (key & row_mask).astype(np.int64)
    np.right_shift(key, np.uint64(bits), out=key)
    same_hash = key[1:] == key[:-1]  # same query and same document hash
    ws = words(st.doc)[row]
    same = same_hash & (ws[1:] == ws[:-1]).all(axis=1)
    bad = same_hash & ~same
    if bad.any():  # a hash shared by different documents: sort those blocks exactly
        block = np.cumsum(np.r_[True, ~same_hash]) - 1
        sel = np.flatnonzero(np.isin(block, np.unique(block[1:][bad])))
        ow = order_words(st.doc[row[sel]])
        sub = np.lexsort([*(ow[:, j] for j in range(ow.shape[1] - 1, -1, -1)), block[sel]])
        row[sel] = row[sel][sub]
        ws = words(st.doc)[row]
        same = same_hash & (ws[1:] == ws[:-1]).all(axis=1)
    return row, np.r_[True, ~same]


def _exact_sort(st: Stacked) -> tuple[IntArray, BoolArray]:
    ow = order_words(st.doc)
    row = np.lexsort([*(ow[:, j] for j in range(ow.shape[1] - 1, -1, -1)), st.query])
    q, ws = st.query[row], ow[row]
    same = (q[1:] == q[:-1]) & (ws[1:] == ws[:-1]).all(axis=1)
    return row, np.r_[True, ~same]


def align(st: Stacked, n_runs: int) -> Aligned:
    """Group the stacked rows by (query, document); groups ordered by query code."""
    row, new = _group_sort(st)
    group = np.empty(row.size, np.int64)
    group[row] = np.cumsum(new) - 1
    first = row[new]
    gq = st.query[first]
    n_groups = first.size
    present = np.zeros((n_groups, n_runs), bool)
    present[group, st.run] = True
    pos = np.full((n_groups, n_runs), -1, np.int64)
    pos[group, st.run] = st.pos
    cand = np.bincount(gq, minlength=st.queries.size)
    return Aligned(
        queries=st.queries,
        query=gq,
        doc=st.doc[first],
        present=present,
        pos=pos,
        candidates=cand[gq],
        run_lengths=st.run_lengths,
        row_group=group,
        row_run=st.run,
    )
