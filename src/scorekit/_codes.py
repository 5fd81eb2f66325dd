"""Fast integer coding of labels: the distinct values of an array and each row's code.

Shared by every family that codes labels or group ids (classification,
clustering, recsys, the accumulators). Bools and integers spanning a compact
range are coded without a sort: an offset ``y - min``, then ``np.bincount``
and a look-up table when absent values must be dropped. Anything else (wide
integer ranges, floats, strings) goes through ``np.unique``. Every function
returns what ``np.unique`` would (same values, same dtype), only faster.
"""

from __future__ import annotations

import numpy as np

from ._typing import AnyArray, IntArray

__all__ = ["compact_span", "distinct", "encode", "offsets"]

#: Integer ranges up to ``4 n + _SPAN_SLACK`` values are counted with ``np.bincount``.
_SPAN_SLACK = 1 << 16


def compact_span(y: AnyArray, rows: int | None = None) -> tuple[int, int] | None:
    """``(lo, hi)`` of bool or integer ``y`` when its range is small enough to count, else None.

    "Small enough": at most ``4 · rows + 65536`` values (``rows`` defaults to ``y.size``).

    >>> compact_span(np.array([7, 5, 9])), compact_span(np.array([0, 10**12]))
    ((5, 9), None)
    """
    if y.size == 0 or y.dtype.kind not in "biu":
        return None
    z = y.view(np.uint8) if y.dtype.kind == "b" else y
    lo, hi = int(z.min()), int(z.max())
    n = y.size if rows is None else rows
    return (lo, hi) if hi - lo < 4 * n + _SPAN_SLACK else None


def offsets(y: AnyArray, lo: int) -> IntArray:
    """``y - lo`` as int64 for bool or integer ``y >= lo`` (uint64 beyond 2**63 included).

    Read only: int64 ``y`` with ``lo == 0`` is returned as it is, not copied.

    >>> offsets(np.array([2**64 - 1], dtype=np.uint64), 2**64 - 3).tolist()
    [2]
    """
    if y.dtype.kind == "b":
        y = y.view(np.uint8)
    if lo == 0 and y.dtype == np.int64:
        same: IntArray = y
        return same
    if y.dtype.kind == "u":  # unsigned: subtract in the unsigned type, never below 0
        unsigned: AnyArray = np.subtract(y, y.dtype.type(lo))
        return unsigned.astype(np.int64, copy=False)
    return np.subtract(y, lo, dtype=np.int64, casting="unsafe")


def _values(present: IntArray, lo: int, dtype: np.dtype[np.generic]) -> AnyArray:
    """``present + lo`` in ``dtype`` (bools: 0/1 named back as False/True; uint64 safe)."""
    if dtype.kind == "b":
        return (present + lo).astype(bool)
    values: AnyArray = (
        present.astype(np.uint64) + np.uint64(lo) if dtype.kind == "u" else present + lo
    )
    return values.astype(dtype)


def distinct(y: AnyArray) -> AnyArray:
    """The sorted distinct values of ``y``, as ``np.unique(y)``, without a sort where it can.

    Bools take two reductions; numbers taking one or two values take a min,
    a max and one comparison; integers in a compact range a bincount.

    >>> distinct(np.array([3, 1, 3])).tolist(), distinct(np.array([True, True])).tolist()
    ([1, 3], [True])
    """
    if y.size == 0:
        return np.unique(y)
    if y.dtype.kind == "b":
        return np.array([v for v, ok in ((False, not y.all()), (True, y.any())) if ok])
    if y.dtype.kind in "iuf":
        lo, hi = y.min(), y.max()
        if lo == hi:
            return np.asarray([lo], dtype=y.dtype)
        if y.dtype.kind == "f":
            if bool(((y == lo) | (y == hi)).all()):
                return np.asarray([lo, hi], dtype=y.dtype)
            return np.unique(y)
        if int(hi) - int(lo) <= 1:  # integers: nothing lies between
            return np.asarray([lo, hi], dtype=y.dtype)
        span = compact_span(y)
        if span is not None:
            present = np.flatnonzero(np.bincount(offsets(y, span[0]), minlength=1))
            return _values(present, span[0], y.dtype)
    return np.unique(y)


def encode(y: AnyArray, *, gaps: bool = False) -> tuple[AnyArray, IntArray]:
    """Sorted distinct labels and the int64 code of each row: ``np.unique(y, return_inverse=True)``.

    Compact integer (and bool) labels are coded with a bincount and a look-up
    table, without a sort. With ``gaps=True`` integers spanning at most
    ``2 n + 1024`` values are coded by their offset from the smallest, and the
    labels are then the whole range ``lo..hi`` (some without rows): no table.

    >>> classes, codes = encode(np.array([7, 5, 7, 9]))
    >>> classes.tolist(), codes.tolist()
    ([5, 7, 9], [1, 0, 1, 2])
    >>> encode(np.array([7, 5, 7, 9]), gaps=True)[0].tolist()
    [5, 6, 7, 8, 9]
    """
    span = compact_span(y)
    if span is not None:
        lo, hi = span
        shifted = offsets(y, lo)
        if gaps and hi - lo < 2 * y.size + 1024:
            return _values(np.arange(hi - lo + 1), lo, y.dtype), shifted
        present = np.bincount(shifted, minlength=hi - lo + 1) > 0
        lut = np.cumsum(present, dtype=np.int64)
        lut -= 1
        return _values(np.flatnonzero(present), lo, y.dtype), lut[shifted]
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64, copy=False).reshape(-1)
