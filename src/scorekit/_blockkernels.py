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
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ._blocksums import _PIECE, _RANGE, BLOCK, FLAG, TOP, W_FLAG, W_TOP, W_W

__all__ = ["blocks", "weighted_blocks"]


@intrinsic  # type: ignore[untyped-decorator]
def fma(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
    """``a·b + c`` rounded once (LLVM's ``llvm.fma``: the FMA instruction where there is one)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        return builder.call(fn, args)

    return sig, codegen


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
def block_top(a: Any, b: Any, lo: int, hi: int) -> tuple[float, bool]:
    """Max |x| of rows ``lo:hi`` and whether every x is 0 (checked exactly, NaN is not)."""
    if b is None:  # (two calls: a conditional expression would type b as Optional)
        top = top_of(a[lo:hi], None)
        return top, top == 0.0 and all_zero(a[lo:hi], None)
    top = top_of(a[lo:hi], b[lo:hi])
    return top, top == 0.0 and all_zero(a[lo:hi], b[lo:hi])


@njit(nogil=True, cache=True)
def slice_piece(a: Any, b: Any, ex: int, q: Any) -> float:
    """Slices of ``x = a − b`` (or ``a``) on the grids of ``|x| < 2**ex`` into ``q``; Σ|rest|."""
    slice_top(a, b, math.ldexp(1.5, ex + 32), math.ldexp(1.5, ex + 11), math.ldexp(1.5, ex - 10), q)
    slice_last(a.shape[0], math.ldexp(1.5, ex - 31), q)
    return rest_of(a.shape[0], q)


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
        top, zero = block_top(a, b, lo, hi)
        o[TOP] = top
        if zero:
            continue
        if not _RANGE[0] < top < _RANGE[1]:  # also a NaN that top_of lost
            o[FLAG] = 1.0
            continue
        ex = math.frexp(top)[1]
        acc[:] = 0.0
        rest = 0.0
        for start in range(lo, hi, _PIECE):
            stop = min(hi, start + _PIECE)
            m = stop - start
            if b is None:
                rest += slice_piece(a[start:stop], None, ex, q)
            else:
                rest += slice_piece(a[start:stop], b[start:stop], ex, q)
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


# ----------------------------------------------------------------------------- weighted
@njit(nogil=True, cache=True, fastmath={"reassoc", "nsz", "nnan", "ninf"})
def top_weight(w: Any) -> float:
    top = 0.0
    for i in range(w.shape[0]):
        top = max(top, w[i])
    return top


@njit(nogil=True, cache=True)
def products(w: Any, a: Any, b: Any, zh: Any, zl: Any) -> None:
    """``w·x = zh + zl`` exactly (an FMA gives the rounding error), unless it underflows."""
    for i in range(w.shape[0]):
        x = a[i] if b is None else a[i] - b[i]
        h = w[i] * x
        zh[i] = h
        zl[i] = fma(w[i], x, -h)  # type: ignore[call-arg]


@njit(nogil=True, cache=True, fastmath=_REORDER | {"contract"})
def add_cross(m: int, f: Any, g: Any, acc: Any) -> None:
    """Add the 16 slice products ``f_j · g_k`` (each exact, on a fixed grid) into ``acc``."""
    t00, t01, t02, t03 = acc[0], acc[1], acc[2], acc[3]
    t10, t11, t12, t13 = acc[4], acc[5], acc[6], acc[7]
    t20, t21, t22, t23 = acc[8], acc[9], acc[10], acc[11]
    t30, t31, t32, t33 = acc[12], acc[13], acc[14], acc[15]
    for i in range(m):
        f0, f1, f2, f3 = f[0, i], f[1, i], f[2, i], f[3, i]
        g0, g1, g2, g3 = g[0, i], g[1, i], g[2, i], g[3, i]
        t00 += f0 * g0
        t01 += f0 * g1
        t02 += f0 * g2
        t03 += f0 * g3
        t10 += f1 * g0
        t11 += f1 * g1
        t12 += f1 * g2
        t13 += f1 * g3
        t20 += f2 * g0
        t21 += f2 * g1
        t22 += f2 * g2
        t23 += f2 * g3
        t30 += f3 * g0
        t31 += f3 * g1
        t32 += f3 * g2
        t33 += f3 * g3
    acc[0], acc[1], acc[2], acc[3] = t00, t01, t02, t03
    acc[4], acc[5], acc[6], acc[7] = t10, t11, t12, t13
    acc[8], acc[9], acc[10], acc[11] = t20, t21, t22, t23
    acc[12], acc[13], acc[14], acc[15] = t30, t31, t32, t33


@njit(nogil=True, cache=True)
def weighted_blocks(
    w: Any, a: Any, b: Any, want_w: bool, want_sums: bool, want_sq: bool, out: Any
) -> None:
    """Per block: Σ slices of ``zh`` and ``zl`` (plain and signed by x), and Σ zh·x, Σ zl·x.

    Columns: 0:8 ``zh``'s slice sums and signed sums, 8:16 ``zl``'s, 16:32 the products
    of ``zh``'s slices with x's, 32:48 ``zl``'s, 48:52 Σw's slices (``want_w``); then max |x|
    and the flag (W_TOP, W_FLAG).
    """
    n = a.shape[0]
    qx = np.empty((5, _PIECE))
    qh = np.empty((5, _PIECE))
    ql = np.empty((5, _PIECE))
    zh = np.empty(_PIECE)
    zl = np.empty(_PIECE)
    acc = np.empty(W_TOP + 4)  # the last four: Σw's signed sums, not used
    for blk in range(out.shape[0]):
        lo = blk * BLOCK
        hi = min(n, lo + BLOCK)
        o = out[blk]
        o[:] = 0.0
        tw = top_weight(w[lo:hi])
        top, zero = block_top(a, b, lo, hi)
        o[W_TOP] = top
        if tw == 0.0 and all_zero(w[lo:hi], None):
            continue
        if zero:  # every x is 0: only Σw (if asked for) is not, and the caller adds it
            o[W_FLAG] = 1.0 if want_w else 0.0
            continue
        # zh <= tw·top·(1 + 2**-52) and |zl| <= 2**-53·|zh|; the products must not underflow
        bound = tw * top * (1.0 + 2.0**-50)
        if not (_RANGE[0] < top < _RANGE[1] and 2.0**-300 < bound < _RANGE[1]):
            o[W_FLAG] = 1.0
            continue
        ex = math.frexp(top)[1]
        eh = math.frexp(bound)[1]
        ew = math.frexp(tw)[1]
        acc[:] = 0.0
        rest = 0.0
        for start in range(lo, hi, _PIECE):
            stop = min(hi, start + _PIECE)
            m = stop - start
            if want_w:
                rest += slice_piece(w[start:stop], None, ew, qx)
                add_sums(w[start:stop], None, qx, acc[W_W:])
            if b is None:
                products(w[start:stop], a[start:stop], None, zh, zl)
            else:
                products(w[start:stop], a[start:stop], b[start:stop], zh, zl)
            rest += slice_piece(zh[:m], None, eh, qh)
            rest += slice_piece(zl[:m], None, eh - 53, ql)
            if want_sums:  # signed by x: the sign of w·x, as w >= 0
                if b is None:
                    add_sums(a[start:stop], None, qh, acc[0:8])
                    add_sums(a[start:stop], None, ql, acc[8:16])
                else:
                    add_sums(a[start:stop], b[start:stop], qh, acc[0:8])
                    add_sums(a[start:stop], b[start:stop], ql, acc[8:16])
            if want_sq:
                if b is None:
                    rest += slice_piece(a[start:stop], None, ex, qx)
                else:
                    rest += slice_piece(a[start:stop], b[start:stop], ex, qx)
                add_cross(m, qh, qx, acc[16:32])
                add_cross(m, ql, qx, acc[32:48])
        if rest != 0.0:
            o[W_FLAG] = 1.0
            continue
        o[:W_TOP] = acc[:W_TOP]
