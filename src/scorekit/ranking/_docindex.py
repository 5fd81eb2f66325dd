"""The run's (query, document) index: one sorted 64-bit key per row, built with the run.

A key packs, from its top bit down: the row's query code (``qb`` bits), the
high bits of a 64-bit hash of the document id (:func:`._ids.hash_ids`), and
the row number (``rb`` bits). A run is stored in rank order, so its query
codes never decrease and the keys need sorting only within each query
(:func:`over_chunks`): the keys of a block of whole queries (about
``_SORT_CHUNK`` rows) are built while it is in cache, then sorted piece by
piece, a piece holding the whole queries that start within ``_SORT_PIECE``
rows of each other; the blocks are shared by two threads (NumPy's sort
releases the GIL). Sorted pieces laid end to end are the sorted index, so
there is nothing to merge, and a small sort is several times cheaper per key
than a large one (on this project's x86 machine NumPy sorts up to 256 64-bit
keys at about 3 ns a key with a sorting network, 16k keys at about 29 ns).

Two rows whose keys agree above the row bits hold the same query and hash:
they may list one document twice (:class:`~._data.Run` checks them on the
bytes). The qrels join (``_evaluate._join``) finds a judged pair by searching
its :func:`pair_keys` in the index; every hit is verified on the document's
bytes, so a hash collision never changes a result. When queries and rows
together leave fewer than ``_MIN_HASH_BITS`` bits for the hash, the query
code is mixed into the hash instead and the keys get one sort in two halves.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from .._threads import run_two
from .._typing import AnyArray, IntArray
from ..classification._sortkeys import sort_uint64
from ._ids import U64, hash_ids

__all__: list[str] = []

_R = TypeVar("_R")

_CHUNK = 1 << 18  # rows hashed at a time
_SORT_CHUNK = 1 << 15  # rows (whole queries) whose keys are built at a time
_SORT_PIECE = 128  # a piece: the whole queries starting within this many rows
_PARALLEL = 1 << 20  # rows above which two threads sort
_MIN_HASH_BITS = 16


def layout(n_queries: int, n_rows: int) -> tuple[int, int, bool]:
    """Bits of the query code and of the row number in a key, and whether the query leads.

    >>> layout(10_000, 10_000_000)
    (14, 24, True)
    >>> layout(1 << 24, 1 << 30)
    (24, 30, False)
    """
    rb = max(1, int(n_rows - 1).bit_length())
    qb = int(n_queries - 1).bit_length()
    return qb, rb, 64 - qb - rb >= _MIN_HASH_BITS


def pair_keys(doc: AnyArray, query: IntArray, n_queries: int, n_rows: int) -> U64:
    """The keys of (query code, document id) pairs with the row bits zero.

    ``doc`` must be padded to the run's document width (the hash reads its
    8-byte words), ``query`` holds the run's query codes.
    """
    qb, rb, grouped = layout(n_queries, n_rows)
    if not grouped:
        keys = hash_ids(doc, query.astype(np.int64))
        np.bitwise_and(keys, ~np.uint64((1 << rb) - 1), out=keys)
        return keys
    keys = hash_ids(doc)
    np.right_shift(keys, np.uint64(qb + rb), out=keys)
    np.left_shift(keys, np.uint64(rb), out=keys)
    if qb:
        np.bitwise_or(keys, query.astype(np.uint64) << np.uint64(64 - qb), out=keys)
    return keys


def chunk_bounds(starts: IntArray, size: int) -> list[int]:
    """Row offsets cutting rows grouped by query (offsets ``starts``) into pieces of whole queries.

    A cut is the first query start at or after each multiple of ``size``, so a
    piece holds the queries starting within ``size`` rows (a longer query is
    a piece by itself).

    >>> chunk_bounds(np.array([0, 5, 20_000, 30_000]), 16_384)
    [0, 20000, 30000]
    """
    n = int(starts[-1])
    at = np.searchsorted(starts, np.arange(0, n, size))
    bounds: list[int] = np.unique(np.append(starts[at], n)).tolist()
    return bounds


def over_chunks(starts: IntArray, work: Callable[[list[int]], _R]) -> list[_R]:
    """``work(cuts)`` for each block of whole queries, in row order, on two threads when large.

    ``starts``: the row offset of each query, then the row count. ``cuts``
    are one block's piece boundaries (:func:`chunk_bounds` with
    ``_SORT_PIECE``): the block runs from ``cuts[0]`` to ``cuts[-1]`` (about
    ``_SORT_CHUNK`` rows) and :func:`sort_pieces` sorts its keys. Two threads
    share the blocks above ``_PARALLEL`` rows (NumPy releases the GIL).
    """
    pieces = chunk_bounds(starts, _SORT_PIECE)
    step = max(1, _SORT_CHUNK // _SORT_PIECE)
    blocks = [pieces[i : i + step + 1] for i in range(0, len(pieces) - 1, step)]

    def each(part: list[list[int]]) -> list[_R]:
        return [work(cuts) for cuts in part]

    n = pieces[-1]
    if n < _PARALLEL or (os.cpu_count() or 1) < 2 or len(blocks) < 2:
        return each(blocks)
    mid = int(np.searchsorted([b[0] for b in blocks], n // 2))
    first, second = run_two(lambda: each(blocks[:mid]), lambda: each(blocks[mid:]))
    return first + second


def sort_pieces(keys: AnyArray, cuts: list[int]) -> None:
    """Sort ``keys`` (one block, rows ``cuts[0]`` on) piece by piece, in place."""
    lo = cuts[0]
    for a, b in itertools.pairwise(cuts):
        keys[a - lo : b - lo].sort()


def doc_index(
    query: IntArray, doc: AnyArray, starts: IntArray, n_rows: int | None = None
) -> tuple[U64, IntArray]:
    """The run's sorted keys, and the rows that may list a document twice for their query.

    ``query`` (non-decreasing codes), ``doc`` (padded ids) and ``starts``
    (row offset of each query, then the row count) describe rows in rank order.
    ``n_rows`` (at least the row count) sets the key layout instead of the row
    count, so that the keys of several runs compare (fusion aligns runs so).
    When the query leads the key, each chunk of whole queries is hashed,
    sorted and scanned for equal neighbours while it is in cache.
    """
    n = query.size
    n_queries = starts.size - 1
    size = n if n_rows is None else max(n, n_rows)
    _, rb, grouped = layout(n_queries, size)
    mask = np.uint64((1 << rb) - 1)
    keys: U64 = np.empty(n, np.uint64)

    def build(lo: int, hi: int) -> U64:
        part = keys[lo:hi]
        np.bitwise_or(
            pair_keys(doc[lo:hi], query[lo:hi], n_queries, size),
            np.arange(lo, hi, dtype=np.uint64),
            out=part,
        )
        return part

    def same(part: U64, lo: int) -> IntArray:
        gap = np.bitwise_xor(part[1:], part[:-1])  # equal high bits: xor <= mask
        return np.flatnonzero(gap <= mask) + lo

    if grouped:

        def chunk(cuts: list[int]) -> IntArray:
            part = build(cuts[0], cuts[-1])
            sort_pieces(part, cuts)
            return same(part, cuts[0])

        same_parts = over_chunks(starts, chunk) if n else []
    else:
        for lo in range(0, n, _CHUNK):  # chunks keep the temporaries small
            build(lo, min(lo + _CHUNK, n))
        sort_uint64(keys)  # two halves on two threads, then one merge
        same_parts = [same(keys[lo : hi + 1], lo) for lo, hi in _spans(n - 1)]
    same_ = np.concatenate(same_parts) if same_parts else np.zeros(0, np.int64)
    rows = np.unique((keys[np.r_[same_, same_ + 1]] & mask).astype(np.int64))
    return keys, rows


def _spans(n: int) -> list[tuple[int, int]]:
    """``(lo, hi)`` pieces of ``range(n)`` of at most ``_CHUNK``."""
    return [(lo, min(lo + _CHUNK, n)) for lo in range(0, n, _CHUNK)]
