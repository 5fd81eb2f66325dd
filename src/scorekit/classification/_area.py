r"""The area from per-threshold counts: the one AUC step every AUC-family kernel ends in.

With :math:`a_g` and :math:`b_g` the weight of the two classes at the g-th
distinct score (in the array's order) and :math:`A_{<g}` the ``a`` weight
before g, the Mann–Whitney area is

.. math:: U = \sum_g b_g \,(A_{<g} + a_g / 2), \qquad \mathrm{AUC} = U / (A B)

(:func:`half_below` is the bracket, :func:`half_pairs` the sum). ``roc_auc``,
``rank_loss`` and ``BinaryCurve`` (:func:`pair_fraction`), GAUC
(:func:`segment_pair_fractions`), the bootstrap's per-resample tables and
DeLong's placement values all use these.

Exact and scale-free (:func:`pair_fraction`): the weights are first brought to
the coarsest common power-of-two grid (and divided by the greatest common
divisor of the integers there, so equal weights count as unit weights); when
the integers stay below
:math:`2^{62}` the area is counted in integers (a 128-bit dot product, no
overflow at any size) and rounded once, otherwise it is computed in floats
after scaling the largest total to [0.5, 1), in fixed blocks of ``2**16`` entries
(no full-size temporaries; the value depends only on the entries). Either way, multiplying every
weight by a power of two changes nothing, not even the last bit, and neither
:math:`A B` nor :math:`U` can overflow or underflow.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._errors import ParameterError
from .._segments import segment_cumsum
from .._threads import run_two
from .._typing import FloatArray, IntArray

__all__ = [
    "auc_value",
    "half_below",
    "half_pairs",
    "pair_fraction",
    "segment_half_pairs",
    "segment_pair_fractions",
]

_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
#: Float64 sums of half-integers are exact below this (2·A·B < 2**53).
_FLOAT_EXACT = float(2**53)


def half_below(a: FloatArray) -> FloatArray:
    """:math:`A_{<g} + a_g/2` along the last axis: weight before each entry, its own half.

    Integer counts are summed as integers (exact, and several times faster
    than a float cumulative sum).

    >>> half_below(np.array([1.0, 2.0, 1.0])).tolist()
    [0.5, 2.0, 3.5]
    """
    if a.dtype.kind in "iu":
        below: FloatArray = np.cumsum(a, axis=-1, dtype=np.int64) - a / 2
        return below
    out: FloatArray = np.cumsum(a, axis=-1)
    out -= a / 2
    return out


def half_pairs(a: FloatArray, b: FloatArray) -> FloatArray:
    r""":math:`\sum_g b_g (A_{<g} + a_g/2)` along the last axis (float; batched over leading axes).

    >>> float(half_pairs(np.array([1.0, 0.0]), np.array([0.0, 1.0])))
    1.0
    """
    out: FloatArray = np.sum(b * half_below(a), axis=-1)
    return out


def auc_value(numerator: float, n_a: float, n_b: float) -> float:
    """``numerator / (n_a · n_b)``, the last step shared by every AUC path."""
    return float(np.float64(numerator) / (np.float64(n_a) * np.float64(n_b)))


#: Rows per block of the weighted checks and of the float area (cache-sized temporaries).
_BLOCK = 1 << 16


def _on_grid(x: FloatArray, e: int) -> bool:
    """Whether every entry of ``x`` is a whole multiple of ``2**e`` (blocks; stops at a miss).

    ``x / 2**e`` rounded to an integer and scaled back must give ``x`` again: exact
    for a multiple (the integer is below ``2**61`` here), and for any other entry the
    rounding (or an underflow to 0) changes it.
    """
    for start in range(0, x.size, _BLOCK):
        block = x[start : start + _BLOCK]
        v = np.ldexp(block, -e)
        np.rint(v, out=v)
        np.ldexp(v, e, out=v)
        if not np.array_equal(v, block):
            return False
    return True


def _exact_dot(x: IntArray, y: IntArray) -> int:
    """``Σ x·y`` exactly for non-negative int64 arrays (32-bit limbs, 64-bit partial sums)."""
    xu, yu = x.view(np.uint64), y.view(np.uint64)
    x_hi, x_lo = xu >> _S32, xu & _MASK32
    y_hi, y_lo = yu >> _S32, yu & _MASK32
    total = 0
    for part, shift in ((x_hi * y_hi, 64), (x_hi * y_lo, 32), (x_lo * y_hi, 32), (x_lo * y_lo, 0)):
        # each product < 2**64: sum its halves apart (fewer than 2**32 terms each)
        for start in range(0, part.size, 1 << 31):
            chunk = part[start : start + (1 << 31)]
            hi = int(np.sum(chunk >> _S32, dtype=np.uint64))
            lo = int(np.sum(chunk & _MASK32, dtype=np.uint64))
            total += ((hi << 32) + lo) << shift
    return total


def _check_totals(total_a: float, total_b: float) -> None:
    if not (np.isfinite(total_a) and np.isfinite(total_b)):
        raise ParameterError(
            "sample_weight sums overflow float64 (the total weight is infinite); scale the "
            "weights down (the AUC does not change when every weight is multiplied by 2**-k)"
        )


def pair_fraction(a: FloatArray, b: FloatArray) -> float | None:
    r""":math:`\sum_g b_g (A_{<g} + a_g/2) / (A B)`, exact and scale-free; ``None`` if A or B is 0.

    ``a``/``b``: non-negative weight of each class per distinct score. See the
    module docstring for the integer and the float paths.

    >>> pair_fraction(np.array([1.0, 1.0, 0.0]), np.array([0.0, 1.0, 1.0]))
    0.875
    >>> pair_fraction(np.array([3e18, 3e18, 0.0]), np.array([0.0, 3e18, 3e18]))
    0.875
    """
    total_a, total_b = float(np.sum(a)), float(np.sum(b))
    if not (total_a > 0 and total_b > 0):
        return None
    _check_totals(total_a, total_b)
    ai = bi = None
    top = int(np.frexp(max(total_a, total_b))[1])  # totals below 2**top
    # the coarsest grid 2**e on which both are integers below 2**61: e >= top - 61
    whole = top <= 61 and _on_grid(a, 0) and _on_grid(b, 0)  # counts: no grid to find
    e = 0 if whole else top - 61
    if whole or (_on_grid(a, e) and _on_grid(b, e)):
        ai = np.ldexp(a, -e).astype(np.int64)
        bi = np.ldexp(b, -e).astype(np.int64)
    if ai is not None and bi is not None:  # sums in int64
        unit = bool(np.any(ai == 1) or np.any(bi == 1))
        common = 1 if unit else int(np.gcd.reduce(np.concatenate([ai, bi])))
        if common > 1:  # equal weights count as unit weights, whatever their value
            ai //= common
            bi //= common
        n_a, n_b = int(ai.sum()), int(bi.sum())
        twice = np.cumsum(ai)  # 2 · (a before g) + a_g <= 2 A < 2**63
        twice *= 2
        twice -= ai
        small = 2.0 * n_a * n_b < 2.0**62  # np.dot cannot overflow
        count = int(np.dot(bi, twice)) if small else _exact_dot(bi, twice)
        return auc_value(count / 2, n_a, n_b)
    return _float_fraction(a, b, top)


def _float_fraction(a: FloatArray, b: FloatArray, k: int) -> float:
    """The float area of :func:`pair_fraction`, weights scaled by ``2**-k``, in fixed blocks.

    Blocks of ``2**16`` entries (cache-sized temporaries, no full-size copy): the
    running total of ``a`` is carried from block to block and the block sums are
    added in order, so the value depends only on the entries, not on the arrays'
    memory layout.
    """
    carry = u = n_a = n_b = 0.0
    buf = np.empty((3, min(_BLOCK, a.size)))  # reused: fresh temporaries cost page faults
    # x · 2**-k rounded once, as ldexp rounds it, when the factor is a float (a multiply is faster)
    factor = math.ldexp(1.0, -k) if -1074 <= -k <= 1023 else None
    for start in range(0, a.size, _BLOCK):
        ab, bb, below = buf[:, : min(_BLOCK, a.size - start)]
        if factor is None:
            np.ldexp(a[start : start + _BLOCK], -k, out=ab)
            np.ldexp(b[start : start + _BLOCK], -k, out=bb)
        else:
            np.multiply(a[start : start + _BLOCK], factor, out=ab)
            np.multiply(b[start : start + _BLOCK], factor, out=bb)
        np.cumsum(ab, out=below)
        below += carry
        carry = float(below[-1])
        n_a += float(np.sum(ab))
        n_b += float(np.sum(bb))
        ab *= 0.5
        below -= ab
        below *= bb
        u += float(np.sum(below))
    return auc_value(u, n_a, n_b)


def segment_half_pairs(a: FloatArray, b: FloatArray, offsets: IntArray) -> FloatArray:
    r""":math:`\sum_g b_g (A_{<g} + a_g/2)` within each segment ``offsets[i]:offsets[i+1]`` (non-empty)."""
    work = _Work(a.size)
    return _half_pairs(a, b, offsets[:-1], work.segment_ids(offsets), work)


class _Work:
    """Entry-sized buffers reused run after run (a fresh temporary costs its page faults)."""

    __slots__ = ("exp", "f", "ids")

    def __init__(self, size: int) -> None:
        self.ids = np.empty(size, np.intp)
        self.exp = np.empty(size, np.int32)
        self.f = [np.empty(size) for _ in range(4)]

    def segment_ids(self, offsets: IntArray) -> IntArray:
        """The segment of each entry ``offsets[0]:offsets[-1]`` (from 0), in the ``ids`` buffer."""
        ids = self.ids[: int(offsets[-1] - offsets[0])]
        ids.fill(0)
        ids[offsets[1:-1] - offsets[0]] = 1
        np.cumsum(ids, out=ids)
        return ids


def _half_pairs(
    a: FloatArray, b: FloatArray, starts: IntArray, ids: IntArray, work: _Work
) -> FloatArray:
    """:func:`segment_half_pairs` of ``a``/``b`` (segments ``starts``, entry segments ``ids``).

    Uses ``work.f[2:]``; ``a`` and ``b`` may be ``work.f[0:2]``.
    """
    cum, tmp = work.f[2][: a.size], work.f[3][: a.size]
    if starts.size == 1 or _on_grid(a, a.size.bit_length() - 53):
        # every partial sum over the run is exact (multiples of one power of two
        # below 2**53 of it: counts, equal weights): one running sum, the earlier
        # segments' weight subtracted, gives each segment's own sums exactly
        np.cumsum(a, out=cum)
        before = cum[starts] - a[starts]  # earlier segments' weight
        np.take(before, ids, out=tmp, mode="clip")
        np.subtract(cum, tmp, out=cum)
    else:  # each segment summed on its own: no rounding of another segment's weight
        segment_cumsum(a, starts, cum)
    np.divide(a, 2, out=tmp)
    np.subtract(cum, tmp, out=cum)
    np.multiply(b, cum, out=cum)
    u: FloatArray = np.add.reduceat(cum, starts)
    return u


def segment_pair_fractions(
    a: FloatArray, b: FloatArray, offsets: IntArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    r"""Per segment ``offsets[i]:offsets[i+1]`` (non-empty): ``(A, B, U / (A B))``, nan where A or B is 0.

    Each segment is scaled by its own power of two first (its largest entry
    brought to [0.5, 1)), so no segment's :math:`A B` overflows or underflows
    and scaling all weights by a power of two changes no bit. Unit weights are
    counted exactly (all partial sums are integers below :math:`2^{53}`).
    Segments are taken in runs of about ``2**16`` entries (whole segments, cut
    where the offsets fall: the same runs for the same state), so temporaries
    stay small and are reused run after run; with many runs, each half of them
    is computed on its own thread (each run alike, so the floats do not change).

    >>> a, b = np.array([1.0, 0.0, 2.0, 0.0]), np.array([0.0, 1.0, 0.0, 2.0])
    >>> segment_pair_fractions(a, b, np.array([0, 2, 4]))[2].tolist()
    [1.0, 1.0]
    """
    if offsets.size < 2:
        empty = np.zeros(0)
        return empty, empty, empty
    n_seg = offsets.size - 1
    cuts = np.searchsorted(offsets, np.arange(_BLOCK, int(offsets[-1]), _BLOCK), "right") - 1
    cuts = np.unique(np.r_[0, cuts[(cuts > 0) & (cuts < n_seg)], n_seg])
    runs = list(itertools.pairwise(cuts.tolist()))
    if len(runs) >= _PARALLEL_RUNS:
        half = len(runs) // 2
        mine, theirs = run_two(
            lambda: _runs_pair_fractions(a, b, offsets, runs[:half]),
            lambda: _runs_pair_fractions(a, b, offsets, runs[half:]),
        )
        parts = mine + theirs
    else:
        parts = _runs_pair_fractions(a, b, offsets, runs)
    total_a, total_b, frac = (np.concatenate(p) for p in zip(*parts, strict=True))
    _check_totals(float(np.sum(total_a)), float(np.sum(total_b)))
    return total_a, total_b, frac


#: From this many runs on, the two halves of the runs are computed on two threads.
_PARALLEL_RUNS = 8


def _runs_pair_fractions(
    a: FloatArray, b: FloatArray, offsets: IntArray, runs: list[tuple[int, int]]
) -> list[tuple[FloatArray, FloatArray, FloatArray]]:
    """:func:`_run_pair_fractions` of each run ``offsets[i : j + 1]``, one set of buffers."""
    work = _Work(max(int(offsets[j] - offsets[i]) for i, j in runs))
    return [_run_pair_fractions(a, b, offsets[i : j + 1], work) for i, j in runs]


def _run_pair_fractions(
    a: FloatArray, b: FloatArray, offsets: IntArray, work: _Work
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """:func:`segment_pair_fractions` of the consecutive segments ``offsets`` (a run)."""
    first, last = int(offsets[0]), int(offsets[-1])
    a, b = a[first:last], b[first:last]
    starts = offsets[:-1] - first
    ids = work.segment_ids(offsets)
    high = work.f[0][: a.size]
    np.maximum(a, b, out=high)
    exp = np.frexp(np.maximum.reduceat(high, starts))[1]
    exp_of = work.exp[: a.size]
    np.take(-exp, ids, out=exp_of, mode="clip")
    an, bn = high, work.f[1][: a.size]
    np.ldexp(a, exp_of, out=an)
    np.ldexp(b, exp_of, out=bn)
    n_a = np.add.reduceat(an, starts)
    n_b = np.add.reduceat(bn, starts)
    u = _half_pairs(an, bn, starts, ids, work)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where((n_a > 0) & (n_b > 0), u / (n_a * n_b), np.nan)
    return np.ldexp(n_a, exp), np.ldexp(n_b, exp), frac
