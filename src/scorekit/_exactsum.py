r"""Exact, order-free sums of float64 arrays (vectorised), and Dekker's exact product.

Every finite float64 is an integer multiple of :math:`2^{-1074}`, so the sum of
any float64 values is an integer :math:`S` in those units; :class:`ExactSums`
computes it exactly, whatever the order and grouping of the rows, and keeps it
as a Python ``int``. Sums merge by integer addition, so a streamed or
distributed sum equals the one-shot sum bit for bit, and
``Fraction(S, 2**1074)`` rounds once, correctly, to a float.

Method. The bits of each value give its exponent field ``E`` (0 for zero and
subnormals) and its significand; clearing the low 26 bits splits ``x = hi + lo``
exactly, each limb an integer of at most 27 bits in the unit of its bucket.
``np.bincount(E, weights=limb)`` adds the limbs of each exponent: float64 sums
of such integers stay exact while fewer than :math:`2^{25}` rows are added, so
the 2 × 2048 bucket totals are flushed into the Python integer before that.

:meth:`ExactSums.add_squares` adds exact squares without forming them: each
block is cut into four slices on fixed grids (Ozaki's error-free splitting)
whose pairwise ``np.dot`` products are exact in float64.

:func:`two_product` is Dekker's product with Veltkamp's split: ``p = fl(a·b)``
and ``err`` with ``a·b = p + err`` exactly (no FMA needed; exact unless the
product underflows, and the split overflows above about 1e299). Sums of inf or
NaN are kept as the float ``inf``/``-inf``/``nan``.

Per-segment sums. :func:`segment_sums` (sorted rows cut at offsets) and
:func:`bin_sums` (rows labelled with a bin) give a :class:`SegmentSums`: int64
limbs of 32 bits on a global grid (only the columns the data use), carry-
normalised; states add with :func:`add_segment_sums` or, keyed, with
:func:`merge_keyed`; :func:`round_sums` rounds every segment once, vectorised;
:func:`encode_segment_sums` is the JSON-safe form.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ._limbs import (
    UNIT_EXP,
    SegmentSums,
    add_segment_sums,
    bin_sums,
    cumulative_sums,
    decode_segment_sums,
    encode_segment_sums,
    merge_keyed,
    normalize_limbs,
    round_sums,
    segment_ints,
    segment_sums,
    total_sum,
)
from ._typing import FloatArray

#: Re-exported from :mod:`scorekit._limbs` (per-segment exact sums on a limb grid).
__all__ = [
    "UNIT_EXP",
    "SegmentSums",
    "add_segment_sums",
    "bin_sums",
    "cumulative_sums",
    "decode_segment_sums",
    "encode_segment_sums",
    "merge_keyed",
    "normalize_limbs",
    "round_sums",
    "segment_ints",
    "segment_sums",
    "total_sum",
]

#: An exact sum: an integer in units of 2**-1074, or a float inf/nan after an overflow.
ExactSum = int | float

_LOW_BITS = 26
_HI_MASK = np.int64(~((1 << _LOW_BITS) - 1))
_EXP_MASK = np.int64(0x7FF)
_N_BUCKETS = 2048
_FLUSH_ROWS = 1 << 25
_LEVEL_ROWS = 1 << 15  # rows per block of ExactSums._add_levels
_SPLITTER = float((1 << 27) + 1)
_SLICE_BITS = 20  # bits per slice of ExactSums.add_squares: 2**13 rows · 2**40 <= 2**53
_N_SLICES = 4  # slices cover 84 bits below a block's largest value
_DOT_ROWS = 1 << 13  # rows per np.dot (OpenBLAS goes multi-threaded above 10000)
_FLUSH_DOTS = 1 << 15  # block results kept before they are summed exactly
_SLICE_RANGE = (2.0**-400, 2.0**470)  # blocks whose slice products neither underflow nor overflow


def add_sums(a: ExactSum, b: ExactSum) -> ExactSum:
    """``a + b`` for exact sums (an int plus inf/nan gives inf/nan).

    >>> add_sums(3, 4), add_sums(10**400, float("inf"))
    (7, inf)
    """
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    fa = a if isinstance(a, float) else 0.0
    fb = b if isinstance(b, float) else 0.0
    return fa + fb


def as_fraction(s: ExactSum) -> Fraction:
    """The exact value of a finite sum (``Fraction(s, 2**1074)``)."""
    if isinstance(s, float):
        return Fraction(s)
    return Fraction(s, 1 << UNIT_EXP)


def to_float(s: ExactSum) -> float:
    """The sum rounded once to the nearest float64.

    >>> to_float(exact_sum(np.array([1e100, 1.0, -1e100])))
    1.0
    """
    if isinstance(s, float):
        return s
    return float(Fraction(s, 1 << UNIT_EXP))


def of_float(x: float) -> int:
    """The exact sum holding the one finite float ``x``.

    >>> of_float(0.5) == 1 << 1073
    True
    """
    num, den = float(x).as_integer_ratio()
    return num << (UNIT_EXP - den.bit_length() + 1)


def encode_sum(s: ExactSum) -> str:
    """JSON-safe text of an exact sum: decimal digits, or ``float.hex`` of inf/nan."""
    return float(s).hex() if isinstance(s, float) else str(s)


def decode_sum(text: str) -> ExactSum:
    """The exact sum stored by :func:`encode_sum`.

    >>> decode_sum(encode_sum(-(10**30))), decode_sum(encode_sum(float("-inf")))
    (-1000000000000000000000000000000, -inf)
    """
    if text.lstrip("-").isdigit():
        return int(text)
    return float.fromhex(text)


def split(
    a: FloatArray, out: tuple[FloatArray, FloatArray] | None = None
) -> tuple[FloatArray, FloatArray]:
    """Veltkamp's split ``a = hi + lo``, each with at most 26 significant bits.

    ``out`` is a pair of arrays shaped like ``a`` to write ``hi`` and ``lo`` into.
    Values above 2**995 are split scaled down (Veltkamp's constant would
    overflow). Like :func:`two_product`, it warns on overflow and on inf unless
    the caller silences floating-point warnings (the regression kernels do).
    """
    hi, lo = (np.empty_like(a), np.empty_like(a)) if out is None else out
    np.multiply(a, _SPLITTER, out=lo)  # c
    np.subtract(lo, a, out=hi)  # c − a
    np.subtract(lo, hi, out=hi)  # hi = c − (c − a)
    np.subtract(a, hi, out=lo)
    if not np.isfinite(np.sum(hi)):  # |a| > 2**995 overflowed in c: split those scaled down
        big = np.abs(a) > 2.0**995
        scaled = a[big] * 2.0**-28
        c = scaled * _SPLITTER
        hi[big] = (c - (c - scaled)) * 2.0**28
        lo[big] = a[big] - hi[big]
    return hi, lo


def two_product(
    a: FloatArray,
    b: FloatArray,
    a_parts: tuple[FloatArray, FloatArray] | None = None,
    b_parts: tuple[FloatArray, FloatArray] | None = None,
    out: tuple[FloatArray, FloatArray, FloatArray] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Dekker's exact product: ``p = fl(a·b)`` and ``err`` with ``a·b == p + err``.

    ``a_parts``/``b_parts`` are :func:`split` of ``a``/``b`` when already known
    (``b_parts`` defaults to ``a_parts`` when ``b is a``); ``out`` is three
    arrays shaped like ``a`` for ``p``, ``err`` and a scratch array.

    >>> p, err = two_product(np.array([0.1]), np.array([0.1]))
    >>> Fraction(0.1) ** 2 == Fraction(p[0]) + Fraction(err[0])
    True
    """
    ah, al = split(a) if a_parts is None else a_parts
    if b is a and b_parts is None:
        bh, bl = ah, al
    else:
        bh, bl = split(b) if b_parts is None else b_parts
    p, err, tmp = (np.empty_like(a), np.empty_like(a), np.empty_like(a)) if out is None else out
    np.multiply(a, b, out=p)
    np.multiply(ah, bh, out=err)
    err -= p
    err += np.multiply(ah, bl, out=tmp)
    err += np.multiply(al, bh, out=tmp)
    err += np.multiply(al, bl, out=tmp)
    if not np.isfinite(
        np.sum(err)
    ):  # an overflowed product: p = ±inf carries it, its error term is not a number
        err[~np.isfinite(p)] = 0.0
    return p, err


class ExactSums:
    """Exact sums of ``n_slots`` streams of float64 values, fed array by array.

    >>> acc = ExactSums(1)
    >>> acc.add(0, np.array([0.1, 0.2, -0.3]))
    >>> acc.result()[0] == of_float(0.1) + of_float(0.2) - of_float(0.3)
    True
    """

    def __init__(self, n_slots: int) -> None:
        self._totals = np.zeros((n_slots, 2, _N_BUCKETS))
        self._rows = [0] * n_slots
        self._ints: list[ExactSum] = [0] * n_slots
        self._buf = np.empty((3, 0), dtype=np.int64)
        self._lvl = np.empty((2, 0))
        self._slices = np.empty((_N_SLICES + 1, 0))  # the slices and the remainder
        self._dots: list[list[float]] = [[] for _ in range(n_slots)]

    def add(self, slot: int, x: FloatArray) -> None:
        """Add every value of the 1-D float64 array ``x`` to the sum of ``slot``.

        Blocks of up to 2**15 finite values of moderate range go through
        :meth:`_add_levels`; anything else is added by exponent bucket. An inf
        in ``x`` gives an "invalid value" warning unless the caller silences it
        (:func:`exact_sum` and the regression kernels do).
        """
        if x.shape[0] > _LEVEL_ROWS:
            for start in range(0, x.shape[0], _LEVEL_ROWS):
                self.add(slot, x[start : start + _LEVEL_ROWS])
            return
        if not self._add_levels(slot, x):
            self._add_buckets(slot, x)

    def add_squares(self, slot: int | None, square: int, x: FloatArray) -> None:
        """Add Σx to ``slot`` (unless ``None``) and the exact Σx² to ``square``.

        The squares are exact: the sum is that of :func:`two_product` ``(x, x)``'s
        two parts, which is ``x²`` exactly whenever no part underflows or overflows.
        Blocks of up to 2**15 rows are cut into slices (Ozaki's error-free
        splitting): with ``|x| <= 2**E``, ``q = (σ + x) − σ`` for ``σ = 1.5 · 2**(E
        + 32)`` rounds every value to a multiple of ``2**(E − 20)`` (at most 2**20
        of them) and ``x − q`` is exact (at most half that grid); four slices take
        84 bits. A product of two slices has at most 40 bits on a fixed grid, so
        ``np.dot`` of two slices over at most 2**13 rows (any order, FMA or not)
        is exact, and ``Σx² = Σ_jk q_j·q_k`` takes 10 dot products per 2**13 rows
        (short enough that BLAS stays on this thread). Rows with bits below the
        fourth slice (tiny next to the block's largest value), and blocks of
        extreme magnitude, go through :func:`two_product` and :meth:`add`.
        """
        if x.shape[0] > _LEVEL_ROWS:
            for start in range(0, x.shape[0], _LEVEL_ROWS):
                self.add_squares(slot, square, x[start : start + _LEVEL_ROWS])
            return
        top = max(float(np.max(x, initial=0.0)), -float(np.min(x, initial=0.0)))
        if top == 0.0:
            return
        if not _SLICE_RANGE[0] < top < _SLICE_RANGE[1]:  # also False for nan
            self._add_squares_slowly(slot, square, x)
            return
        m = x.shape[0]
        if self._slices.shape[1] < m:
            self._slices = np.empty((_N_SLICES + 1, m))
        q, rest = self._slices[:_N_SLICES, :m], self._slices[-1, :m]
        exponent = math.frexp(top)[1]
        src = x
        for k in range(_N_SLICES):
            sigma = math.ldexp(1.5, exponent + 52 - _SLICE_BITS)
            np.add(src, sigma, out=q[k])
            np.subtract(q[k], sigma, out=q[k])
            np.subtract(src, q[k], out=rest)
            src = rest
            exponent -= _SLICE_BITS + 1
        if rest.any():  # bits below the last slice: those rows go the slow way
            rows = np.flatnonzero(rest)
            q[:, rows] = 0.0
            self._add_squares_slowly(slot, square, x[rows])
        dots = self._dots[square]
        for a in range(0, m, _DOT_ROWS):
            qa = q[:, a : a + _DOT_ROWS]
            for j in range(_N_SLICES):
                dots.append(float(np.dot(qa[j], qa[j])))
                for k in range(j + 1, _N_SLICES):
                    dots.append(2.0 * float(np.dot(qa[j], qa[k])))
        if slot is not None:  # at most 2**35 grid units per slice: exact
            self._dots[slot].extend(np.add.reduce(q, axis=1).tolist())
        if len(dots) > _FLUSH_DOTS:
            self._add_dots(square)

    def _add_dots(self, slot: int) -> None:
        """Sum the block results of :meth:`add_squares` (exact finite floats) exactly."""
        if self._dots[slot]:
            values = np.array(self._dots[slot])
            self._dots[slot].clear()
            self.add(slot, values)

    def _add_squares_slowly(self, slot: int | None, square: int, x: FloatArray) -> None:
        """:meth:`add_squares` by :func:`two_product` (any values)."""
        x = np.ascontiguousarray(x)
        if slot is not None:
            self.add(slot, x)
        for part in two_product(x, x, split(x)):
            self.add(square, part)

    def _add_levels(self, slot: int, x: FloatArray) -> bool:
        """Exact sum of a block by extraction on a fixed grid (Rump, Ogita and Oishi).

        With ``|x| < 2**E`` and at most 2**15 rows, ``q = (σ + x) − σ`` for
        ``σ = 2**(E + 16)`` rounds every value to a multiple of ``2**(E − 36)``;
        the ``q`` sum in float64 exactly (at most 2**51 grid units in any order),
        and ``x − q`` is exact. Two or three levels (37 bits each) take every bit
        of realistic data; a non-zero remainder goes to the exponent buckets.
        Returns False (nothing added) for inf/nan or extreme magnitudes.
        """
        top = max(float(np.max(x, initial=0.0)), -float(np.min(x, initial=0.0)))
        if top == 0.0:
            return True
        if not 2.0**-900 < top < 2.0**1000:  # also False for nan
            return False
        m = x.shape[0]
        if self._lvl.shape[1] < m:
            self._lvl = np.empty((2, m))
        q, r = self._lvl[0, :m], self._lvl[1, :m]
        exponent = math.frexp(top)[1]
        total = 0
        rest = x
        for level in range(3):
            sigma = math.ldexp(1.0, exponent + 16 - 37 * level)
            np.add(rest, sigma, out=q)
            np.subtract(q, sigma, out=q)
            total += of_float(float(np.sum(q)))
            np.subtract(rest, q, out=r)
            rest = r
            if level and not rest.any():
                break
        else:
            self._add_buckets(slot, rest.copy())
        self._ints[slot] = add_sums(self._ints[slot], total)
        return True

    def _add_buckets(self, slot: int, x: FloatArray) -> None:
        """Add ``x`` by exponent bucket (any values; inf and nan kept as floats)."""
        if self._rows[slot] + x.shape[0] > _FLUSH_ROWS:
            self._flush(slice(slot, slot + 1))
        if x.shape[0] > _FLUSH_ROWS:
            for start in range(0, x.shape[0], _FLUSH_ROWS):
                self._add_buckets(slot, x[start : start + _FLUSH_ROWS])
            return
        m = x.shape[0]
        self._rows[slot] += m
        if self._buf.shape[1] < m:  # reused buffers: fresh temporaries cost page faults
            self._buf = np.empty((3, m), dtype=np.int64)
        exponent, hi_bits, lo_bits = self._buf[0, :m], self._buf[1, :m], self._buf[2, :m]
        bits = np.ascontiguousarray(x, dtype=np.float64).view(np.int64)
        np.right_shift(bits, 52, out=exponent)
        np.bitwise_and(exponent, _EXP_MASK, out=exponent)
        np.bitwise_and(bits, _HI_MASK, out=hi_bits)
        hi, lo = hi_bits.view(np.float64), lo_bits.view(np.float64)
        np.subtract(x, hi, out=lo)
        totals = self._totals[slot]
        totals[0] += np.bincount(exponent, hi, minlength=_N_BUCKETS)
        totals[1] += np.bincount(exponent, lo, minlength=_N_BUCKETS)

    def _flush(self, slots: slice) -> None:
        """Move the float bucket totals of ``slots`` into the Python integers."""
        totals = self._totals[slots]
        first = slots.indices(len(self._rows))[0]
        special = totals[:, 0, _N_BUCKETS - 1]
        for i in np.flatnonzero(special != 0).tolist():  # inf or nan (nan != 0 too)
            self._ints[first + i] = add_sums(self._ints[first + i], float(special[i]))
        flat = np.flatnonzero(totals != 0)  # contiguous: much faster than a strided nonzero
        flat = flat[flat % _N_BUCKETS != _N_BUCKETS - 1]
        if flat.size:
            slot, limb, bucket = np.unravel_index(flat, totals.shape)
            # bucket E ≥ 1 counts units of 2**(E − 1075) (lo) and 2**(E − 1049) (hi);
            # E = 0 (subnormals) counts units of 2**-1074, like E = 1
            scale = np.maximum(bucket, 1) - 1
            shift = scale + np.where(limb == 0, _LOW_BITS, 0)
            units = np.ldexp(totals[slot, limb, bucket], UNIT_EXP - shift).astype(np.int64)
            sums = [0] * totals.shape[0]
            for i, u, sh in zip(slot.tolist(), units.tolist(), shift.tolist(), strict=True):
                sums[i] += u << sh
            for i, value in enumerate(sums):
                if value:
                    self._ints[first + i] = add_sums(self._ints[first + i], value)
        totals[:] = 0.0
        for i in range(totals.shape[0]):
            self._rows[first + i] = 0

    def result(self) -> list[ExactSum]:
        """The exact sum of every slot."""
        for slot in range(len(self._dots)):
            self._add_dots(slot)
        self._flush(slice(None))
        return list(self._ints)


def exact_sum(x: FloatArray) -> ExactSum:
    """Exact sum of a 1-D float64 array, in units of 2**-1074.

    >>> to_float(exact_sum(np.array([0.1] * 10))) == 1.0
    True
    """
    acc = ExactSums(1)
    with np.errstate(invalid="ignore"):
        acc.add(0, x)
    return acc.result()[0]
