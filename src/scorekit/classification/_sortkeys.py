"""Ordering scores without ``argsort``: packed keys, a two-thread sort, exact decimal codes.

The one home of the score-ordering tricks the AUC-family kernels share
(``roc_auc``, ``average_precision``, the curves, ``BinaryCurve`` and GAUC):

- :func:`order_bits`: unsigned integers in the order of float scores;
- :func:`sort_uint64`: ``np.sort`` of a large key array split over two
  threads (NumPy releases the GIL while sorting) and merged by one linear
  pass (the stable sort of two sorted runs);
- :func:`sort_rows`: labels packed into the keys, sorted, unpacked
  (:class:`SortedRows`);
- :func:`decimal_codes`: when every score is exactly ``k / D`` for a power of
  ten ``D`` (rounded scores, probabilities with 3 decimals) and the ``k`` span
  a small range, the ``k`` themselves: order-preserving integers a
  ``np.bincount`` counts in one pass, with no sort at all.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._threads import run_two
from .._typing import AnyArray, BoolArray, FloatArray, IntArray

__all__ = [
    "DecimalCodes",
    "SortedRows",
    "UIntArray",
    "decimal_codes",
    "order_bits",
    "sort_rows",
    "sort_uint64",
    "unique_inverse",
]

UIntArray = npt.NDArray[np.uint64]
_SIGN = np.uint64(1 << 63)
_ONE = np.uint64(1)
#: Arrays at least this long are sorted in two halves on two threads.
_PARALLEL_ROWS = 1 << 18


def truncate_keys(key: UIntArray, spread: int, bits: int) -> tuple[int, int]:
    """Shift ``key`` (in place) right by ``shift`` so that ``spread`` fits in ``bits`` bits.

    ``key`` holds order-preserving score bits from 0 to ``spread``. The trailing
    zeros every key shares (``tz``) are always dropped; more bits only when the
    keys would not fit, which truncates (equal keys may then be distinct
    scores). Returns ``(shift, tz)``: ``shift == tz`` means no truncation.
    """
    tz = 0
    if spread:
        ored = int(np.bitwise_or.reduce(key))
        tz = (ored & -ored).bit_length() - 1
    shift = tz + max(0, (spread >> tz).bit_length() - bits)
    if shift:
        key >>= np.uint64(shift)
    return shift, tz


def order_bits(s: FloatArray, signed: bool = True) -> UIntArray:
    """Unsigned integers in the order of ``s`` (a new array; -0.0 and 0.0 map alike).

    ``signed=False`` is for scores known to be ``>= 0``: their bits already order them.

    >>> order_bits(np.array([-1.0, -0.0, 0.0, 2.0])).argsort(kind="stable").tolist()
    [0, 1, 2, 3]
    """
    u: UIntArray = np.add(s, 0.0).view(np.uint64)
    if signed:  # negative floats: flip every bit; others: set the sign bit
        flip = (u.view(np.int64) >> 63).view(np.uint64)
        flip |= _SIGN
        u ^= flip
    return u


def sort_uint64(keys: UIntArray) -> None:
    """Sort ``keys`` in place; large arrays as two halves on two threads, then one merge.

    The merge is ``sort(kind="stable")`` of the two sorted runs: timsort finds
    the runs and merges them in one linear pass.
    """
    if keys.size < _PARALLEL_ROWS:
        keys.sort()
        return
    half = keys.size // 2
    run_two(keys[:half].sort, keys[half:].sort)
    keys.sort(kind="stable")


def unique_inverse(s: FloatArray) -> tuple[FloatArray, IntArray]:
    """``numpy.unique(s, return_inverse=True)`` for finite ``s``: the distinct values and each entry's rank (``int64``).

    Large arrays are ordered in two halves on two threads (``argsort``), then
    merged by one stable ``argsort`` of the two sorted runs (timsort: linear).

    >>> uniq, rank = unique_inverse(np.array([0.5, 0.1, 0.5, -0.0, 0.0]))
    >>> uniq.tolist(), rank.tolist()
    ([0.0, 0.1, 0.5], [2, 1, 2, 0, 0])
    """
    n = s.size
    if n < _PARALLEL_ROWS:
        uniq, rank = np.unique(s, return_inverse=True)
        return uniq + 0.0, rank.astype(np.int64).ravel()
    half = n // 2
    low, high = run_two(lambda: np.argsort(s[:half]), lambda: np.argsort(s[half:]))
    order = np.concatenate([low, high + half])
    values = s[order]
    merge = np.argsort(values, kind="stable")
    order, values = order[merge], values[merge]
    first = np.empty(n, dtype=bool)
    first[0] = True
    np.not_equal(values[1:], values[:-1], out=first[1:])
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.cumsum(first) - 1
    return values[first] + 0.0, rank


@dataclass(frozen=True, slots=True)
class SortedRows:
    """Unweighted rows in increasing score order, negatives first within a tie.

    ``positive`` is the label of each sorted row; ``boundary[i]`` is True when
    row ``i + 1`` scores strictly higher than row ``i``; :meth:`scores_at` gives
    the scores at sorted positions.
    """

    positive: BoolArray
    boundary: BoolArray
    values: AnyArray  # order-preserving score bits (modes 0-2), or the sorted scores (mode 3)
    mode: int
    base: np.uint64

    def scores_at(self, idx: npt.NDArray[np.intp]) -> FloatArray:
        """Scores at sorted positions ``idx``."""
        if self.mode == 3:
            return np.asarray(self.values[idx], dtype=np.float64)
        values: UIntArray = self.values[idx]
        if self.mode == 1:
            values = np.invert(values)
        elif self.mode == 2:
            u = values + self.base
            values = np.where(u >= _SIGN, u ^ _SIGN, ~u)
        scores: FloatArray = values.view(np.float64)
        return scores


def sort_rows(y: BoolArray, s: FloatArray) -> SortedRows:
    """Sort unweighted rows without ``argsort`` (``s`` finite, not empty).

    Each score's order-preserving bits and its label are packed into one
    ``uint64`` key, ``(bits << 1) | label``, and :func:`sort_uint64` sorts the
    keys. The bits fit in 63 bits when all scores have one sign (or all lie in
    (-2, 2)): nearly always. Otherwise positives and negatives are sorted apart
    and merged by a stable ``argsort`` of the two sorted runs (timsort: linear).

    >>> r = sort_rows(np.array([True, False, False]), np.array([0.5, 0.5, 0.1]))
    >>> r.positive.tolist(), r.boundary.tolist()
    ([False, False, True], [True, False])
    """
    lo, hi = float(s.min()), float(s.max())
    bits = s.view(np.uint64)
    base = np.uint64(0)
    if lo >= 0:  # non-negative floats order like their bits; the shift drops -0.0's sign bit
        mode, keys = 0, np.left_shift(bits, _ONE)
    elif hi < 0:  # negative floats order like their inverted bits
        mode, keys = 1, np.invert(bits)
        np.left_shift(keys, _ONE, out=keys)
    else:
        ends = order_bits(np.array([lo, hi]))
        if ends[1] - ends[0] >= _SIGN:
            neg, pos = np.sort(s[~y]), np.sort(s[y])
            both = np.concatenate([neg, pos])
            order = np.argsort(both, kind="stable")
            values = both[order]
            return SortedRows(order >= neg.size, values[1:] != values[:-1], values, 3, base)
        mode, keys, base = 2, order_bits(s), ends[0]
        keys -= base
        np.left_shift(keys, _ONE, out=keys)
    np.bitwise_or(keys, y, out=keys)
    sort_uint64(keys)
    if sys.byteorder == "little":  # the label bit is in the first byte of each key
        positive = (keys.view(np.uint8)[::8] & np.uint8(1)).view(bool)
    else:  # pragma: no cover - big-endian machines
        positive = (keys & _ONE).astype(bool)
    np.right_shift(keys, _ONE, out=keys)  # the score bits alone, still sorted
    return SortedRows(positive, keys[1:] != keys[:-1], keys, mode, base)


# ---------------------------------------------------------------- exact decimal codes


@dataclass(frozen=True, slots=True)
class DecimalCodes:
    """Scores ``s == (low + codes) / scale`` exactly, ``codes`` in ``[0, size)``."""

    codes: IntArray
    low: float
    scale: float
    size: int

    def scores(self, codes: IntArray) -> FloatArray:
        """The scores of the given codes (the very floats of the input)."""
        out: FloatArray = np.add(codes, self.low, dtype=np.float64)
        out /= self.scale
        out += 0.0  # -0.0 as 0.0
        return out


_SCALES = (1.0, 10.0, 100.0, 1000.0, 10_000.0, 100_000.0, 1_000_000.0)
_PROBE = 512
#: Code ranges up to this many values are always counted (else up to 2 codes per row).
_SMALL_RANGE = 1 << 12


def _decimal(s: FloatArray, scale: float) -> FloatArray | None:
    """``rint(s·scale)`` if every score is the float nearest that integer over ``scale``."""
    k = np.multiply(s, scale)
    np.rint(k, out=k)
    back = np.divide(k, scale)
    return k if np.array_equal(back, s) else None


def decimal_codes(s: FloatArray) -> DecimalCodes | None:
    """Order-preserving small integers for scores that are exactly ``k / 10**d`` (``d <= 6``).

    ``k = rint(s·10**d)`` and the test ``k / 10**d == s`` (both correctly
    rounded) make the map exact: equal scores get equal codes, a higher score
    a higher code. ``None`` when no ``d`` fits, or the codes span more than
    ``max(4096, 2 n)`` values (a sort is cheaper then). A 512-row probe rejects
    continuous scores at once.

    >>> c = decimal_codes(np.array([0.25, 0.5, 0.125, 0.5]))
    >>> c.codes.tolist(), c.scale, c.scores(c.codes).tolist()
    ([125, 375, 0, 375], 1000.0, [0.25, 0.5, 0.125, 0.5])
    """
    n = s.size
    if n == 0:
        return None
    probe = s[:_PROBE]
    for scale in _SCALES:
        if _decimal(probe, scale) is None:
            continue
        lo, hi = float(s.min()), float(s.max())
        k_lo, k_hi = np.rint(lo * scale), np.rint(hi * scale)
        span = k_hi - k_lo + 1
        if not np.isfinite(span) or span > max(_SMALL_RANGE, 2 * n):
            return None
        k = _decimal(s, scale)
        if k is None:
            continue
        k -= k_lo
        return DecimalCodes(k.astype(np.intp), float(k_lo), scale, int(span))
    return None
