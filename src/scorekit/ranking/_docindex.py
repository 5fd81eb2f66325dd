"""The run's (query, document) index: one sorted 64-bit key per row, built with the run.

A key packs, from its top bit down: the row's query code (``qb`` bits), the
high bits of a 64-bit hash of the document id (:func:`._ids.hash_ids`), and
the row number (``rb`` bits). A run is stored in rank order, so its query
codes never decrease and the keys need sorting only within each query: the
rows are cut into chunks of whole queries of about ``_SORT_CHUNK`` rows and
each chunk is sorted on its own, the chunks shared by two threads (NumPy's
sort releases the GIL). Small sorts stay in cache, and sorted chunks laid
end to end are the sorted index, so there is nothing to merge.

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

import numpy as np

from .._threads import run_two
from .._typing import AnyArray, IntArray
from ..classification._sortkeys import sort_uint64
from ._ids import U64, hash_ids

__all__: list[str] = []

_CHUNK = 1 << 18  # rows hashed at a time
_SORT_CHUNK = 1 << 14  # rows (whole queries) sorted at a time
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


def _sort_chunks(keys: U64, bounds: list[int]) -> None:
    for lo, hi in itertools.pairwise(bounds):
        keys[lo:hi].sort()


def _sort(keys: U64, starts: IntArray, grouped: bool) -> None:
    """Sort ``keys`` in place: chunk by chunk of whole queries (``grouped``), else all at once."""
    if grouped:
        sort_grouped(keys, starts)
    else:
        sort_uint64(keys)  # two halves on two threads, then one merge


def sort_grouped(keys: U64, starts: IntArray) -> None:
    """Sort keys whose query (row offsets ``starts``) leads: chunk by chunk of whole queries.

    The keys of a query all lie between those of the queries before and after
    it, so sorting each chunk of whole queries (about ``_SORT_CHUNK`` keys:
    it stays in cache) sorts them all. Two threads share the work above
    ``_PARALLEL`` keys when there are two CPUs.
    """
    n = keys.size
    two = n >= _PARALLEL and (os.cpu_count() or 1) >= 2
    at = np.searchsorted(starts, np.arange(0, n, _SORT_CHUNK))
    bounds = np.unique(np.append(starts[at], n)).tolist()
    if not two or len(bounds) < 3:
        _sort_chunks(keys, bounds)
        return
    mid = int(np.searchsorted(bounds, n // 2))
    halves = [bounds[: mid + 1], bounds[mid:]]
    run_two(lambda: _sort_chunks(keys, halves[0]), lambda: _sort_chunks(keys, halves[1]))


def doc_index(
    query: IntArray, doc: AnyArray, starts: IntArray, n_rows: int | None = None
) -> tuple[U64, IntArray]:
    """The run's sorted keys, and the rows that may list a document twice for their query.

    ``query`` (non-decreasing codes), ``doc`` (padded ids) and ``starts``
    (row offset of each query, then the row count) describe rows in rank order.
    ``n_rows`` (at least the row count) sets the key layout instead of the row
    count, so that the keys of several runs compare (fusion aligns runs so).
    """
    n = query.size
    n_queries = starts.size - 1
    _, rb, grouped = layout(n_queries, n if n_rows is None else max(n, n_rows))
    mask = np.uint64((1 << rb) - 1)
    keys: U64 = np.empty(n, np.uint64)
    for lo in range(0, n, _CHUNK):  # chunks keep the temporaries small
        hi = min(lo + _CHUNK, n)
        part = pair_keys(
            doc[lo:hi], query[lo:hi], n_queries, n if n_rows is None else max(n, n_rows)
        )
        np.bitwise_or(part, np.arange(lo, hi, dtype=np.uint64), out=keys[lo:hi])
    _sort(keys, starts, grouped)
    same_parts = []
    for lo in range(0, n - 1, _CHUNK):
        hi = min(lo + _CHUNK, n - 1)
        gap = np.bitwise_xor(keys[lo + 1 : hi + 1], keys[lo:hi])  # equal high bits: xor <= mask
        same_parts.append(np.flatnonzero(gap <= mask) + lo)
    same = np.concatenate(same_parts) if same_parts else np.zeros(0, np.int64)
    rows = np.unique((keys[np.r_[same, same + 1]] & mask).astype(np.int64))
    return keys, rows
