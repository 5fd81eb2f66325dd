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
    """Rows sorted so equal (query, document) are adjacent; True where a new pair starts."""
    n = st.query.size
    bits = max(1, int(n - 1).bit_length())
    mask = np.uint64((1 << bits) - 1)
    key = hash_ids(st.doc, st.query)
    np.bitwise_and(key, ~mask, out=key)
    np.bitwise_or(key, np.arange(n, dtype=np.uint64), out=key)
    key.sort()
    row = (key & mask).astype(np.int64)
    high = key >> np.uint64(bits)
    w = words(st.doc)
    same_hash = high[1:] == high[:-1]
    same = same_hash & _same_pair(st, w, row)
    bad = same_hash & ~same
    if bad.any():  # a hash shared by different documents: sort those blocks exactly
        block = np.cumsum(np.r_[True, ~same_hash]) - 1
        bad_blocks = np.unique(block[1:][bad])
        sel = np.flatnonzero(np.isin(block, bad_blocks))
        ow = order_words(st.doc[row[sel]])
        keys = [ow[:, j] for j in range(ow.shape[1] - 1, -1, -1)]
        sub = np.lexsort([*keys, st.query[row[sel]], block[sel]])
        row[sel] = row[sel][sub]
        same = same_hash & _same_pair(st, w, row)
    return row, np.r_[True, ~same]


def _same_pair(st: Stacked, w: AnyArray, row: IntArray) -> BoolArray:
    a, b = row[:-1], row[1:]
    out: BoolArray = (st.query[a] == st.query[b]) & (w[a] == w[b]).all(axis=1)
    return out


def align(st: Stacked, n_runs: int) -> Aligned:
    """Group the stacked rows by (query, document); groups ordered by query code."""
    row, new = _group_sort(st)
    gid_sorted = np.cumsum(new) - 1
    first = row[new]
    # order the groups by query (a stable radix-friendly argsort of small ints)
    by_query = np.argsort(st.query[first], kind="stable")
    rank_of = np.empty(by_query.size, np.int64)
    rank_of[by_query] = np.arange(by_query.size)
    group = np.empty(row.size, np.int64)
    group[row] = rank_of[gid_sorted]
    first = first[by_query]
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
