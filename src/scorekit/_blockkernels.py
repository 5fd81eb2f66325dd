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
def all_finite(a: Any, b: Any, lo: int, hi: int) -> bool:
    """Whether every ``x`` of rows ``lo:hi`` is finite (exactly: no fastmath here)."""
    for i in range(lo, hi):
        x = a[i] if b is None else a[i] - b[i]
        if not math.isfinite(x):
            return False
    return True


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
# One fused loop per sum (no slice arrays): the slicing and the products are
# emitted with the ``arcp`` flag only, which changes nothing for + − × and keeps
# numba's fastmath pass (it adds flags to float operations that have none) off
# them, so they round as written; the accumulations around them are reordered
# (reassociated, contracted to FMAs: every product and partial sum is exact).
_EXACT = ("arcp",)
_SUM = _REORDER | {"contract"}


def _binary(op: str) -> Any:
    @intrinsic  # type: ignore[untyped-decorator]
    def exact(typingctx: Any, a: Any, b: Any) -> Any:
        sig = types.float64(types.float64, types.float64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return getattr(builder, op)(args[0], args[1], flags=_EXACT)

        return sig, codegen

    return exact


sub = _binary("fsub")  # a − b rounded once, never reassociated
mul = _binary("fmul")  # a · b rounded once, never contracted into an FMA


def _grid() -> Any:
    @intrinsic  # type: ignore[untyped-decorator]
    def on_grid(typingctx: Any, v: Any, s: Any) -> Any:
        sig = types.float64(types.float64, types.float64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            t = builder.fadd(args[0], args[1], flags=_EXACT)
            return builder.fsub(t, args[1], flags=_EXACT)

        return sig, codegen

    return on_grid


on_grid = _grid()  # (v + s) − s as written: v rounded to the grid of ulp(s)


@njit(nogil=True, cache=True)
def cut(v: float, s: Any) -> tuple[float, float, float, float, float]:
    """The four slices of ``v`` on the grids of ``s[0..3]`` and what is left below them."""
    c0 = on_grid(v, s[0])
    r = sub(v, c0)
    c1 = on_grid(r, s[1])
    r = sub(r, c1)
    c2 = on_grid(r, s[2])
    r = sub(r, c2)
    c3 = on_grid(r, s[3])
    return c0, c1, c2, c3, sub(r, c3)


@njit(nogil=True, cache=True)
def part_of(w: float, a: float, b: Any, i: int, low: bool) -> tuple[float, float]:
    """``x = a − b`` and ``zh = fl(w·x)``, or its rounding error ``zl`` (``low``)."""
    x = a if b is None else sub(a, b[i])
    h = mul(w, x)
    return x, fma(w, x, -h) if low else h  # type: ignore[call-arg]


@njit(nogil=True, cache=True, fastmath={"reassoc", "nsz", "nnan", "ninf"})
def top_weight(w: Any) -> float:
    top = 0.0
    for i in range(w.shape[0]):
        top = max(top, w[i])
    return top


@njit(nogil=True, cache=True, fastmath=_SUM)
def weight_sums(w: Any, s: Any, acc: Any) -> tuple[float, float]:
    """Add Σw's slices into ``acc[0:4]``; return Σ|rest| and the sum of the negative weights.

    Both are 0 exactly for finite weights >= 0 whose bits the slices hold
    (NaN and infinities make the first NaN; a negative weight the second < 0).
    """
    t0, t1, t2, t3 = acc[0], acc[1], acc[2], acc[3]
    rest = 0.0
    neg = 0.0
    for i in range(w.shape[0]):
        c0, c1, c2, c3, r = cut(w[i], s)
        t0 += c0
        t1 += c1
        t2 += c2
        t3 += c3
        rest += abs(r)
        neg += min(w[i], 0.0)
    acc[0], acc[1], acc[2], acc[3] = t0, t1, t2, t3
    return rest, neg


@njit(nogil=True, cache=True, fastmath=_SUM)
def part_sums(
    w: Any, a: Any, b: Any, low: bool, cross: bool, sums: bool, sx: Any, s: Any, acc: Any, tot: Any
) -> float:
    """The sums of ``zh``'s (``zl``'s if ``low``) slices; returns Σ|rest|.

    ``cross``: the 16 products of its slices with x's into ``acc[0:16]``;
    ``sums``: the slice sums into ``tot[0:4]``, signed by x into ``tot[4:8]``
    (the sign of w·x, as w >= 0). ``low``, ``cross`` and ``sums`` are
    compile-time constants here (numba specialises on literal booleans), so
    each combination is its own loop.
    """
    t00, t01, t02, t03 = acc[0], acc[1], acc[2], acc[3]
    t10, t11, t12, t13 = acc[4], acc[5], acc[6], acc[7]
    t20, t21, t22, t23 = acc[8], acc[9], acc[10], acc[11]
    t30, t31, t32, t33 = acc[12], acc[13], acc[14], acc[15]
    s0, s1, s2, s3 = tot[0], tot[1], tot[2], tot[3]
    u0, u1, u2, u3 = tot[4], tot[5], tot[6], tot[7]
    rest = 0.0
    for i in range(a.shape[0]):
        x, z = part_of(w[i], a[i], b, i, low)
        f0, f1, f2, f3, rz = cut(z, s)
        rest += abs(rz)
        if sums:
            sign = 1.0 if x >= 0.0 else -1.0
            s0 += f0
            s1 += f1
            s2 += f2
            s3 += f3
            u0 += sign * f0
            u1 += sign * f1
            u2 += sign * f2
            u3 += sign * f3
        if not cross:
            continue
        g0, g1, g2, g3, rx = cut(x, sx)
        rest += abs(rx)
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
    if sums:
        tot[0], tot[1], tot[2], tot[3] = s0, s1, s2, s3
        tot[4], tot[5], tot[6], tot[7] = u0, u1, u2, u3
    return rest


@njit(nogil=True, cache=True)
def weighted_parts(
    w: Any, a: Any, b: Any, want_sums: bool, want_sq: bool, sx: Any, sh: Any, sl: Any, acc: Any
) -> float:
    """The sums of one block (``acc`` as :func:`weighted_blocks`' columns); Σ|rest|."""
    if not (want_sq or want_sums):
        return 0.0
    rest = part_sums(w, a, b, False, want_sq, want_sums, sx, sh, acc[16:32], acc[0:8])
    return rest + part_sums(w, a, b, True, want_sq, want_sums, sx, sl, acc[32:48], acc[8:16])


@njit(nogil=True, cache=True)
def grids(e: int, out: Any) -> Any:
    """The four slicing constants ``1.5·2**(e + 32 − 21k)`` (slice grids ``2**(e − 20 − 21k)``)."""
    for k in range(4):
        out[k] = math.ldexp(1.5, e + 32 - 21 * k)
    return out


@njit(nogil=True, cache=True)
def weighted_blocks(
    w: Any, a: Any, b: Any, want_w: bool, want_sums: bool, want_sq: bool, out: Any
) -> None:
    """Per block: Σ slices of ``zh`` and ``zl`` (plain and signed by x), and Σ zh·x, Σ zl·x.

    Columns: 0:8 ``zh``'s slice sums and signed sums, 8:16 ``zl``'s, 16:32 the products
    of ``zh``'s slices with x's, 32:48 ``zl``'s, 48:52 Σw's slices (``want_w``); then max |x|
    and the flag (W_TOP, W_FLAG): 1 for a block to sum another way, 2 (``want_w``
    only) for one whose weights are not all finite and >= 0 or not held by the slices.
    """
    n = a.shape[0]
    sx, sh, sl, sw = np.empty(4), np.empty(4), np.empty(4), np.empty(4)
    acc = np.empty(W_TOP)
    for blk in range(out.shape[0]):
        lo = blk * BLOCK
        hi = min(n, lo + BLOCK)
        o = out[blk]
        o[:] = 0.0
        wb = w[lo:hi]
        ab = a[lo:hi]
        tw = top_weight(wb)
        top, zero = block_top(a, b, lo, hi)
        o[W_TOP] = top
        acc[:] = 0.0
        if want_w:  # first: Σw, and whether the weights may be trusted
            rest, neg = weight_sums(wb, grids(math.frexp(tw)[1], sw), acc[W_W:])
            if rest != 0.0 or neg != 0.0:
                o[W_FLAG] = 2.0
                continue
            o[W_W:W_TOP] = acc[W_W:W_TOP]
        if tw == 0.0 and all_zero(wb, None):  # no weight: only a NaN or inf in x matters
            o[W_FLAG] = 0.0 if all_finite(a, b, lo, hi) else 1.0
            continue
        if zero:  # every x is 0: the products are 0 (Σw is in place)
            continue
        # zh <= tw·top·(1 + 2**-52) and |zl| <= 2**-53·|zh|; the products must not underflow
        bound = tw * top * (1.0 + 2.0**-50)
        if not (_RANGE[0] < top < _RANGE[1] and 2.0**-300 < bound < _RANGE[1]):
            o[W_FLAG] = 1.0
            continue
        eh = math.frexp(bound)[1]
        grids(eh, sh)
        grids(eh - 53, sl)
        if want_sq:
            grids(math.frexp(top)[1], sx)
        # (two calls: a conditional expression would type b's block as Optional,
        # and loops over an Optional array are not vectorised)
        if b is None:
            rest = weighted_parts(wb, ab, None, want_sums, want_sq, sx, sh, sl, acc)
        else:
            rest = weighted_parts(wb, ab, b[lo:hi], want_sums, want_sq, sx, sh, sl, acc)
        if rest != 0.0:
            o[W_FLAG] = 1.0
            continue
        o[:W_W] = acc[:W_W]
