"""The compiled parts of :mod:`scorekit._blocksums` (imported on first use: it imports numba).

Module-level functions, so that numba caches their machine code on disk
(``cache=True``) and a new process loads it instead of compiling again. See
:mod:`scorekit._blocksums` for the method and for why only some loops may be
reordered.
"""

# mypy: disable-error-code="misc"
from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from ._blocksums import _PIECE, _RANGE, BLOCK, FLAG, TOP

__all__ = ["blocks"]

#: Reordering allowed only where every partial sum is exact.
_REORDER = {"reassoc", "nsz"}
# Loops index views with the plain range variable: an offset index (lo + i)
# keeps LLVM from vectorising them (negative-index wraparound).


@njit(nogil=True, cache=True, fastmath={"reassoc", "nsz", "nnan", "ninf"})
def top_of(a: Any, b: Any) -> float:
    # max |x|; with NaN or inf present the value may be anything, but the
    # slices of such a block are NaN and the block is flagged (see blocks)
    top = 0.0
    if b is None:
        for i in range(a.shape[0]):
            top = max(top, abs(a[i]))
    else:
        for i in range(a.shape[0]):
            top = max(top, abs(a[i] - b[i]))
    return top


@njit(nogil=True, cache=True)
def all_zero(a: Any, b: Any) -> bool:
    # IEEE comparisons: False for NaN, whatever top_of made of it
    for i in range(a.shape[0]):
        x = a[i] if b is None else a[i] - b[i]
        if x != 0.0:  # also for NaN
            return False
    return True


@njit(nogil=True, cache=True)
def slice_top(a: Any, b: Any, s0: float, s1: float, s2: float, q: Any) -> None:
    # at most four stores per loop: LLVM vectorises these, not five
    for i in range(a.shape[0]):
        x = a[i] if b is None else a[i] - b[i]
        c0 = (x + s0) - s0
        r = x - c0
        c1 = (r + s1) - s1
        r = r - c1
        c2 = (r + s2) - s2
        q[0, i] = c0
        q[1, i] = c1
        q[2, i] = c2
        q[3, i] = r - c2


@njit(nogil=True, cache=True)
def slice_last(m: int, s3: float, q: Any) -> None:
    for i in range(m):
        r = q[3, i]
        c3 = (r + s3) - s3
        q[3, i] = c3
        q[4, i] = r - c3


@njit(nogil=True, cache=True, fastmath=_REORDER)
def add_sums(a: Any, b: Any, q: Any, acc: Any) -> None:
    t0, t1, t2, t3 = acc[0], acc[1], acc[2], acc[3]
    u0, u1, u2, u3 = acc[4], acc[5], acc[6], acc[7]
    for i in range(a.shape[0]):
        x = a[i] if b is None else a[i] - b[i]
        sign = 1.0 if x >= 0.0 else -1.0
        t0 += q[0, i]
        t1 += q[1, i]
        t2 += q[2, i]
        t3 += q[3, i]
        u0 += sign * q[0, i]
        u1 += sign * q[1, i]
        u2 += sign * q[2, i]
        u3 += sign * q[3, i]
    acc[0], acc[1], acc[2], acc[3] = t0, t1, t2, t3
    acc[4], acc[5], acc[6], acc[7] = u0, u1, u2, u3


@njit(nogil=True, cache=True, fastmath=_REORDER)
def add_squares(m: int, q: Any, acc: Any) -> None:
    a00, a01, a02, a03, a11 = acc[8], acc[9], acc[10], acc[11], acc[12]
    a12, a13, a22, a23, a33 = acc[13], acc[14], acc[15], acc[16], acc[17]
    for i in range(m):
        q0, q1, q2, q3 = q[0, i], q[1, i], q[2, i], q[3, i]
        a00 += q0 * q0
        a01 += q0 * q1
        a02 += q0 * q2
        a03 += q0 * q3
        a11 += q1 * q1
        a12 += q1 * q2
        a13 += q1 * q3
        a22 += q2 * q2
        a23 += q2 * q3
        a33 += q3 * q3
    acc[8], acc[9], acc[10], acc[11], acc[12] = a00, a01, a02, a03, a11
    acc[13], acc[14], acc[15], acc[16], acc[17] = a12, a13, a22, a23, a33


@njit(nogil=True, cache=True, fastmath=_REORDER)
def rest_of(m: int, q: Any) -> float:
    rest = 0.0  # NaN when a slice was NaN: the block is flagged then too
    for i in range(m):
        rest += abs(q[4, i])
    return rest


@njit(nogil=True, cache=True)
def blocks(a: Any, b: Any, want_sums: bool, want_sq: bool, out: Any) -> None:
    n = a.shape[0]
    q = np.empty((5, _PIECE))
    acc = np.empty(TOP)
    for blk in range(out.shape[0]):
        lo = blk * BLOCK
        hi = min(n, lo + BLOCK)
        o = out[blk]
        o[:] = 0.0
        if b is None:  # (two calls: a conditional expression would type b as Optional)
            top = top_of(a[lo:hi], None)
            zero = top == 0.0 and all_zero(a[lo:hi], None)
        else:
            top = top_of(a[lo:hi], b[lo:hi])
            zero = top == 0.0 and all_zero(a[lo:hi], b[lo:hi])
        o[TOP] = top
        if zero:
            continue
        if not _RANGE[0] < top < _RANGE[1]:  # also a NaN that top_of lost
            o[FLAG] = 1.0
            continue
        ex = math.frexp(top)[1]
        s0 = math.ldexp(1.5, ex + 32)
        s1 = math.ldexp(1.5, ex + 11)
        s2 = math.ldexp(1.5, ex - 10)
        s3 = math.ldexp(1.5, ex - 31)
        acc[:] = 0.0
        rest = 0.0
        for start in range(lo, hi, _PIECE):
            stop = min(hi, start + _PIECE)
            m = stop - start
            if b is None:
                slice_top(a[start:stop], None, s0, s1, s2, q)
            else:
                slice_top(a[start:stop], b[start:stop], s0, s1, s2, q)
            slice_last(m, s3, q)
            rest += rest_of(m, q)
            if want_sums:
                if b is None:
                    add_sums(a[start:stop], None, q, acc)
                else:
                    add_sums(a[start:stop], b[start:stop], q, acc)
            if want_sq:
                add_squares(m, q, acc)
        if rest != 0.0:  # bits below the slices (or NaN)
            o[FLAG] = 1.0
            continue
        o[:TOP] = acc
