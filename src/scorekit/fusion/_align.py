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

When the keys lead with the query code (the usual layout) the merge's order is
already by query, so it is kept as the documents' order: no reordering, a
pair's query is read from its key, and the ids (gathered once per pair for the
check, the first pair's kept as the document's) are the only column read at
random; one chunked pass finds the documents and keeps their columns, written
over buffers the merge no longer reads (fresh memory costs page faults as
large as the arithmetic here). Sums over the runs (RRF's terms) are then added
along the merge, document by document (``np.bincount``, run order), with no
(documents x runs) matrix; the matrices other methods read are built when a
method first reads them. The large passes (the merge, split at a query; the
id checks; the sums; the scatters) run in two halves on two threads, in
chunks whose temporaries stay small.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .._threads import run_two as both
from .._typing import AnyArray, BoolArray, FloatArray, IntArray
from ..ranking._data import Run, _starts
from ..ranking._docindex import doc_index, layout
from ..ranking._ids import U64, order_words, padded, words
from ..ranking._order import _stable_by_query, segments

__all__: list[str] = []

_CHUNK = 1 << 20  # pairs verified at a time (keeps the gathered id words small)
_TWO_FROM = 1 << 20  # items from which a pass is shared by two threads


def run_two(first: Callable[[], None], second: Callable[[], None], size: int) -> None:
    """``first()`` then ``second()``; on two threads at once when ``size`` is large.

    The two write disjoint parts of their outputs; NumPy releases the GIL in
    its sorts, gathers and element-wise loops, so both CPUs work.
    """
    if size < _TWO_FROM or (os.cpu_count() or 1) < 2:
        first()
        second()
        return
    both(first, second)


def _halves(fn: Callable[[int, int], None], n: int) -> None:
    """``fn(0, n)`` as ``fn(0, n // 2)`` and ``fn(n // 2, n)`` (:func:`run_two`)."""
    run_two(lambda: fn(0, n // 2), lambda: fn(n // 2, n), n)


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
        out: IntArray = np.repeat(self.seg_starts, self.seg_len)
        for a in range(0, out.size, _CHUNK):  # in place: no second array of every row
            b = min(a + _CHUNK, out.size)
            np.subtract(np.arange(a, b, dtype=np.int64), out[a:b], out=out[a:b])
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
        score=np.concatenate([r.score for r in runs]).astype(np.float64, copy=False),
        offsets=offsets,
        seg_starts=seg_starts,
        seg_len=np.diff(np.concatenate([seg_starts, offsets[-1:]])),
        run_lengths=run_lengths,
    )


@dataclass(frozen=True)
class Aligned:
    """One row per distinct (query, document) of the union, one column per run.

    ``present``, ``pos`` and ``cell`` are built on first use (a method that
    reads only scores never pays for the ranks; RRF, summed along the merge,
    builds none of them).
    """

    queries: AnyArray
    query: IntArray  # (G,) query code of each document, non-decreasing
    doc: AnyArray  # (G,) document ids
    candidates: IntArray  # (G,) number of distinct documents of the query over all runs
    run_lengths: IntArray  # (m, n_queries)
    row: IntArray  # per pair of the merge: its stacked row
    order: IntArray | None  # the documents (their index here) in hash order; None: the identity
    count: IntArray  # (G,) runs retrieving the document
    stacked: Stacked = field(repr=False)
    by_hash: bool = False  # the documents are in (query, hash) order: hash_order is the identity
    # per pair of the merge: its flat cell in the (G, m) matrices (None: built from ``starts``)
    cells: IntArray | None = field(default=None, repr=False)
    # (G,) first merge position of each document when the documents are in merge order
    starts: IntArray | None = field(default=None, repr=False)

    @cached_property
    def cell(self) -> IntArray:
        """Per pair of the merge: its flat cell in the (G, m) matrices."""
        if self.cells is not None:
            return self.cells
        m = self.run_lengths.shape[0]
        out: IntArray = np.repeat(np.arange(0, self.query.size * m, m, dtype=np.int64), self.count)
        _add_run(out, self.stacked.offsets, self.row)  # the run of each pair
        return out

    def group_sum(self, values: FloatArray) -> FloatArray | None:
        """(G,) per document: the sum of per-stacked-row ``values`` over its runs, left to right.

        The sums of the (G, m) matrix of ``values`` (0 where absent) read
        along the merge, whose pairs are grouped by document in run order:
        ``np.bincount`` adds each group's values in that order, starting from
        0.0, as the column sums do (the same bits). None when the documents
        are not in merge order (the mixed key layout).
        """
        return self._pair_sum(lambda rows, _: np.take(values, rows))

    def rank_sum(self, table: FloatArray) -> FloatArray | None:
        """(G,) per document: the sum of ``table[0-based rank]`` over its runs, left to right.

        :meth:`group_sum` of the rows' ``table[rank]``, each pair's rank read
        from its stacked row and the first row of its (run, query) list (a
        small table): no per-row array of every rank is built.
        """
        st, nq = self.stacked, self.queries.size
        first = np.zeros(len(st.qmaps) * nq, np.int64)  # stacked row of each list's first
        first[np.concatenate([q + i * nq for i, q in enumerate(st.qmaps)])] = st.seg_starts

        def value(rows: IntArray, doc: IntArray) -> FloatArray:
            at = np.take(self.query, doc)  # the list's place in ``first``: run * nq + query
            if st.offsets.size > 5:
                at += np.searchsorted(st.offsets[1:], rows, side="right") * nq
            for start in st.offsets[1:-1].tolist() if st.offsets.size <= 5 else []:
                np.add(at, nq, out=at, where=rows >= start)
            rank = rows - np.take(first, at)
            out: FloatArray = np.take(table, rank)
            return out

        return self._pair_sum(value)

    def _pair_sum(self, value: Callable[[IntArray, IntArray], FloatArray]) -> FloatArray | None:
        """(G,) sums of ``value(rows, document)`` over each document's pairs, in merge order."""
        if self.starts is None:
            return None
        g, starts, rows = self.query.size, self.starts, self.row
        out = np.empty(g, np.float64)

        def part(lo: int, hi: int) -> None:
            step = max(1, _CHUNK // 4)  # documents at a time; their pairs stay few
            for a in range(lo, hi, step):
                b = min(a + step, hi)
                sa = int(starts[a])
                sb = int(starts[b]) if b < g else rows.size
                local = np.repeat(np.arange(b - a), self.count[a:b])
                v = value(rows[sa:sb], local + a)
                out[a:b] = np.bincount(local, weights=v, minlength=b - a)

        _halves(part, g)
        return out

    @property
    def hash_order(self) -> IntArray:
        """The documents (their index here) in the order of their hashes."""
        return np.arange(self.query.size, dtype=np.int64) if self.order is None else self.order

    @cached_property
    def present(self) -> BoolArray:
        """(G, m): the run retrieved the document."""
        out = np.zeros((self.query.size, self.run_lengths.shape[0]), bool)
        out.reshape(-1)[self.cell] = True
        return out

    @cached_property
    def pos(self) -> IntArray:
        """(G, m): 0-based rank of the document in the run (-1: absent)."""
        return self.ranks(-1)

    def ranks(self, fill: int) -> IntArray:
        """(G, m): 0-based rank of the document in the run, ``fill`` where absent."""
        out = np.full((self.query.size, self.run_lengths.shape[0]), fill, np.int64)
        pos = self.stacked.positions()
        flat = out.reshape(-1)
        for a in range(0, self.cell.size, _CHUNK):
            b = min(a + _CHUNK, self.cell.size)
            flat[self.cell[a:b]] = np.take(pos, self.row[a:b])
        return out

    def dense(self, values: FloatArray, fill: float = 0.0) -> FloatArray:
        """A (G, m) matrix of per-stacked-row ``values``; ``fill`` where a run lacks the document."""
        out = np.full((self.query.size, self.run_lengths.shape[0]), fill, np.float64)
        flat = out.reshape(-1)

        def part(lo: int, hi: int) -> None:
            for a in range(lo, hi, _CHUNK):  # small temporaries, reused
                b = min(a + _CHUNK, hi)
                flat[self.cell[a:b]] = np.take(values, self.row[a:b])

        _halves(part, self.cell.size)
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


def _merge(runs: list[Run], st: Stacked, width: int) -> tuple[U64, IntArray, int | None]:
    """All runs' index keys in one sorted list: (hash high bits, stacked row) per pair.

    Also the shift that leaves a pair's query code from its high bits when the
    keys lead with it (None when the query is mixed into the hash).
    """
    total = int(st.offsets[-1])
    n_rows = max(len(r) for r in runs)  # one key layout for every run
    bits = max(1, int(total - 1).bit_length())
    low = np.uint64((1 << bits) - 1)
    keys = [_run_keys(r, st.qmaps[i], st.queries.size, width, n_rows) for i, r in enumerate(runs)]
    qb, _, grouped = layout(st.queries.size, n_rows)
    lead = 64 - bits - qb if grouped and qb + bits < 64 else None
    merged = np.empty(total, np.uint64)
    # timsort: the parts are sorted runs, merged in one pass; keys leading with the
    # query split at a query into two independent merges (two threads)
    cuts = [0] * len(keys)
    if lead is not None and qb:
        top = np.uint64((st.queries.size // 2) << (64 - qb))
        cuts = [int(np.searchsorted(k, top)) for k in keys]
    mid = sum(cuts)

    def put(i: int, lo: int, hi: int, at: int) -> None:
        """Run i's keys lo..hi-1 with the stacked row in their low bits, into ``merged[at:]``."""
        own = np.uint64((1 << max(1, int(len(runs[i]) - 1).bit_length())) - 1)
        for a in range(lo, hi, _CHUNK):  # chunks: small temporaries
            b = min(a + _CHUNK, hi)
            out = merged[at + a - lo : at + b - lo]
            row = np.bitwise_and(keys[i][a:b], own)
            row += np.uint64(st.offsets[i])
            np.bitwise_and(keys[i][a:b], ~low, out=out)
            out |= row

    def lower() -> None:
        at = 0
        for i, c in enumerate(cuts):
            put(i, 0, c, at)
            at += c
        merged[:mid].sort(kind="stable")

    def upper() -> None:
        at = mid
        for i, c in enumerate(cuts):
            put(i, c, keys[i].size, at)
            at += keys[i].size - c
        merged[mid:].sort(kind="stable")

    run_two(lower, upper, total)
    keys.clear()  # free the rebuilt keys
    rows = np.empty(total, np.int64)
    np.bitwise_and(merged, low, out=rows.view(np.uint64))
    np.right_shift(merged, np.uint64(bits), out=merged)
    return merged, rows, lead


def _gather(doc: AnyArray, rows: IntArray) -> U64:
    """``words(doc[rows])``: ids of one word are read as one contiguous ``uint64`` column."""
    if doc.dtype.itemsize == 8:  # np.take on a plain uint64 vector: the fast gather
        return np.take(doc.view(np.uint64), rows)[:, None]
    return words(np.take(doc, rows))


def _same_docs(rows: IntArray, test: BoolArray, doc: AnyArray) -> tuple[BoolArray, U64 | None]:
    """For merge positions i where ``test[i]``: the documents at i and i + 1 are equal.

    The id words are gathered once per position, chunk by chunk, and compared
    with their neighbours (one read per row instead of two per pair). Ids of
    one word are also returned, in merge order (the groups' ids are then a
    sequential selection, not a second gather).
    """
    out = np.empty(test.size, bool)
    kept = np.empty(rows.size, np.uint64) if doc.dtype.itemsize == 8 else None

    def part(lo: int, hi: int) -> None:
        for a in range(lo, hi, _CHUNK):
            b = min(a + _CHUNK, hi)
            w = _gather(doc, rows[a : b + 1])
            if kept is not None:
                kept[a : b + 1] = w[:, 0]
            same = test[a:b].copy()
            for j in range(w.shape[1]):
                same &= w[1:, j] == w[:-1, j]
            out[a:b] = same

    if rows.size == 1 and kept is not None:
        kept[:] = doc.view(np.uint64)[rows]
    _halves(part, test.size)
    return out, kept


def _add_run(cell: IntArray, offsets: IntArray, rows: IntArray) -> None:
    """Add the run (0, 1, ...) of each stacked row: a comparison per run boundary when runs are few."""
    if offsets.size > 5:
        cell += np.searchsorted(offsets[1:], rows, side="right")
        return
    for start in offsets[1:-1].tolist():
        cell += rows >= start


def _resort_collisions(
    rows: IntArray, same_hash: BoolArray, same: BoolArray, query: IntArray, doc: AnyArray
) -> None:
    """Blocks of equal hashes holding different pairs: sort them exactly (``rows``, ``same``)."""
    bad = same_hash & ~same
    if not bad.any():
        return
    ws = words(doc)
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


def _stacked_ids(runs: list[Run], offsets: IntArray, width: int) -> AnyArray:
    """The runs' document ids end to end, ``S{width}`` (a new array); two threads copy halves."""
    out = np.empty(int(offsets[-1]), f"S{width}")

    def part(lo: int, hi: int) -> None:  # stacked rows lo..hi-1
        for i, r in enumerate(runs):
            a, b = max(lo, int(offsets[i])), min(hi, int(offsets[i + 1]))
            if a < b:
                out[a:b] = r._coded.doc[a - offsets[i] : b - offsets[i]]

    _halves(part, out.size)
    return out


def _groups(hashes: U64, rows: IntArray, doc: AnyArray) -> tuple[IntArray, U64, U64] | None:
    """The documents of a merge in its order: the first position, key and id words of each.

    One pass in chunks (two halves on two threads): each pair is compared
    with the next on the key and, where the keys agree, on the id words
    (gathered once per pair); the first pair of every document is kept, its
    id words among them (no second gather). Only the kept columns are
    allocated in full. None when a block of equal keys holds two documents
    (a hash collision, rare: the caller re-sorts it exactly). ``hashes`` and
    ``doc`` (owned by the caller, not a run's) are overwritten.
    """
    n = rows.size
    done: dict[int, list[tuple[IntArray, U64, U64]]] = {}
    clash: list[bool] = []

    def part(lo: int, hi: int) -> None:  # merge positions lo..hi-1 against their successor
        out = done.setdefault(lo, [])
        for a in range(lo, hi, _CHUNK):
            b = min(a + _CHUNK, hi)
            same_key = hashes[a + 1 : b + 1] == hashes[a:b]
            w = _gather(doc, rows[a : b + 1])
            same = same_key.copy()
            for j in range(w.shape[1]):
                same &= w[1:, j] == w[:-1, j]
            if (same != same_key).any():
                clash.append(True)
                return
            # positions a + 1 + i that start a document (indices, then gathers: several
            # times faster than boolean masks)
            at = np.flatnonzero(~same)
            at += 1
            out.append((at + a, np.take(hashes[a:], at), np.take(w, at, axis=0)))

    _halves(part, n - 1)
    if clash:
        return None
    head = (np.zeros(1, np.int64), hashes[:1].copy(), _gather(doc, rows[:1]))
    chunks = [head] + [c for k in sorted(done) for c in done[k]]
    g = sum(c[0].size for c in chunks)
    starts = np.concatenate([c[0] for c in chunks])
    # the kept keys and ids overwrite the front of the merge's keys and of the stacked ids
    # (both read no more): memory already in use, not fresh pages
    key = np.concatenate([c[1] for c in chunks], out=hashes[:g])
    ids = np.concatenate([c[2] for c in chunks], out=words(doc)[:g])
    return starts, key, ids


def align(runs: list[Run], st: Stacked) -> Aligned:
    """Group the stacked rows by (query, document); groups ordered by query code.

    When the keys lead with the query code (the usual layout), the merge's
    order is already by query: the groups keep it (``by_hash``), and a pair's
    query is read from its key, so the ids are the only column gathered.
    """
    m = len(runs)
    width = max(8, *(r._coded.doc.dtype.itemsize for r in runs))
    hashes, rows, lead = _merge(runs, st, width)
    small = np.int32 if st.queries.size < 1 << 31 else np.int64
    doc = _stacked_ids(runs, st.offsets, width)
    found = _groups(hashes, rows, doc) if lead is not None else None
    if found is not None and lead is not None:  # the usual case: no collision to re-sort
        del hashes
        first_at, key, ids = found
        del found
        if lead:
            np.right_shift(key, np.uint64(lead), out=key)
        else:
            key[:] = 0
        gq: IntArray = key.view(np.int64)
        count: IntArray = np.diff(first_at, append=rows.size)
        return _aligned(
            st, gq, ids.view(doc.dtype).reshape(-1), rows, None, count, True, None, first_at
        )
    same_hash = hashes[1:] == hashes[:-1]
    same, kept = _same_docs(rows, same_hash, doc)

    def row_query() -> IntArray:
        parts = [st.qmaps[i].astype(small)[r._coded.query] for i, r in enumerate(runs)]
        out: IntArray = np.concatenate(parts)
        return out

    if lead is not None:  # equal keys: equal queries; the collision blocks keep their query
        if (same_hash & ~same).any():  # rare: rows move, the kept ids no longer match them
            _resort_collisions(rows, same_hash, same, row_query(), doc)
            kept = None
        del same_hash
        new = np.empty(rows.size, bool)
        new[0] = True
        np.logical_not(same, out=new[1:])
        del same
        hashes = hashes[new]
        if lead:
            np.right_shift(hashes, np.uint64(lead), out=hashes)
        else:
            hashes[:] = 0
        gq = hashes.astype(np.int64)
        del hashes
        first = rows[new]
        ids = _gather(doc, first) if kept is None else kept[new][:, None]
        rank: IntArray | None = None
        begins = np.flatnonzero(new)
        starts: IntArray | None = begins
        count = np.diff(begins, append=rows.size)
        cell = np.cumsum(new, dtype=np.int64)
        cell -= 1
    else:
        del hashes
        query = row_query()
        same &= np.take(query, rows[1:]) == np.take(query, rows[:-1])
        _resort_collisions(rows, same_hash, same, query, doc)
        new = np.r_[True, ~same]
        del same, same_hash
        first = rows[new]
        by_query = _stable_by_query(query[first])  # hash order -> query order (radix passes)
        rank = np.empty(first.size, np.int64)
        rank[by_query] = np.arange(first.size)
        count = np.diff(np.append(np.flatnonzero(new), rows.size))[by_query]
        first = first[by_query]
        ids = _gather(doc, first)
        gq = query[first].astype(np.int64)
        cell = rank[np.cumsum(new) - 1]
        starts = None
    del new, kept
    cell *= m
    _add_run(cell, st.offsets, rows)  # the run of each pair
    docs = ids.view(doc.dtype).reshape(-1)
    return _aligned(st, gq, docs, rows, rank, count, lead is not None, cell, starts)


def _aligned(
    st: Stacked,
    gq: IntArray,
    docs: AnyArray,
    rows: IntArray,
    order: IntArray | None,
    count: IntArray,
    by_hash: bool,
    cells: IntArray | None,
    starts: IntArray | None,
) -> Aligned:
    """The :class:`Aligned` of the documents found (``gq``: their query codes, sorted)."""
    cand = np.bincount(gq, minlength=st.queries.size)
    return Aligned(
        queries=st.queries,
        query=gq,
        doc=docs,
        candidates=np.repeat(cand, cand),
        run_lengths=st.run_lengths,
        row=rows,
        order=order,
        count=count,
        stacked=st,
        by_hash=by_hash,
        cells=cells,
        starts=starts,
    )
