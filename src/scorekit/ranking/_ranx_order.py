"""``ties="ranx"``: the order ranx gives documents with equal scores.

A ``ranx.Run`` sorts each query with numba's ``np.argsort`` of the negated
scores, in insertion order (``sort_dict_by_value``). Numba's argsort is a
quicksort (``numba/misc/quicksort.py``: median-of-three pivot, insertion sort
below 16 items), not stable: up to 15 documents equal scores keep their input
order, beyond that the partitions reshuffle them. :func:`numba_argsort` is that
algorithm step for step, so scorekit reproduces ranx without numba; when
numba is installed the compiled original runs instead. The order is computed
only for queries with more than 15 documents and a tie (the others keep input
order), one query at a time: this convention exists to reproduce ranx, not to
be fast.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._typing import FloatArray, IntArray

__all__ = ["numba_argsort", "ranx_positions"]

_SMALL = 15  # numba's SMALL_QUICKSORT


def _insertion(a: list[float], r: list[int], low: int, high: int) -> None:
    for i in range(low + 1, high + 1):
        k = r[i]
        v = a[k]
        j = i
        while j > low and v < a[r[j - 1]]:
            r[j] = r[j - 1]
            j -= 1
        r[j] = k


def _partition(a: list[float], r: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    if a[r[high]] < a[r[mid]]:
        r[high], r[mid] = r[mid], r[high]
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    pivot = a[r[mid]]
    r[high], r[mid] = r[mid], r[high]
    i, j = low, high - 1
    while True:
        while i < high and a[r[i]] < pivot:
            i += 1
        while j >= low and pivot < a[r[j]]:
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[high] = r[high], r[i]
    return i


def numba_argsort(values: FloatArray) -> IntArray:
    """``np.argsort(values)`` as numba compiles it (its quicksort, ties in its order).

    >>> numba_argsort(np.array([2.0, 1.0, 2.0, 1.0])).tolist()
    [1, 3, 0, 2]
    """
    a: list[float] = values.tolist()
    r = list(range(len(a)))
    if len(a) < 2:
        return np.array(r, np.int64)
    stack = [(0, len(a) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= _SMALL:
            i = _partition(a, r, low, high)
            if high - i > i - low:
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion(a, r, low, high)
    return np.array(r, np.int64)


def _compiled() -> Any:
    try:
        import numba
    except ImportError:
        return numba_argsort
    return numba.njit(cache=False)(lambda x: np.argsort(x))


def ranx_positions(query: IntArray, score: FloatArray, source: IntArray) -> IntArray:
    """For ranked rows: a key that orders each query's tied rows as ranx does.

    ``source`` is each row's input position; queries of at most 15 rows keep it.
    """
    key: IntArray = np.array(source, dtype=np.int64)
    n = np.bincount(query) if query.size else np.zeros(0, np.int64)
    long = np.flatnonzero(n > _SMALL)
    if long.size == 0:
        return key
    sort = _compiled()
    rows = np.flatnonzero(np.isin(query, long))
    rows = rows[np.lexsort([source[rows], query[rows]])]  # each query in input order
    bounds = np.searchsorted(query[rows], long)
    stops = np.append(bounds[1:], rows.size)
    for lo, hi in zip(bounds.tolist(), stops.tolist(), strict=True):
        mine = rows[lo:hi]
        if np.unique(score[mine]).size == mine.size:
            continue  # no tie: the order does not matter
        order = np.asarray(sort(-score[mine]))
        rank = np.empty(mine.size, np.int64)
        rank[order] = np.arange(mine.size)
        key[mine] = rank
    return key
