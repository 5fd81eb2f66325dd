r"""Exact block sums of ``x``, ``|x|`` and ``x²`` in compiled passes (numba).

The regression metrics need Σe, Σ|e| and Σe² of ``e = y − ŷ`` (and Σy, Σy²)
*exactly*. With NumPy alone the error-free transformations take 10+ passes
over the data (:mod:`scorekit._exactsum`), three times scikit-learn's rounded
sums. This module does the same mathematics compiled, block by block in
cache-sized pieces, with the GIL released, so two threads sum two halves of
the rows.

Method (Ozaki's error-free splitting on a fixed grid, as
:meth:`ExactSums.add_squares <scorekit._exactsum.ExactSums.add_squares>`):
with ``|x| < 2**E`` over a block of :data:`BLOCK` rows, ``q = (σ + x) − σ``
for ``σ = 1.5 · 2**(E + 32)`` rounds every value to a multiple of ``2**(E −
20)`` and ``x − q`` is exact; four such slices ``q0..q3`` (grids ``2**(E −
20 − 21k)``, at most 21 bits each) hold every bit of a value within about
2**-60 of the block's largest, and then

.. math:: \sum x = \sum_k \sum_i q_{k,i}, \qquad
          \sum |x| = \sum_k \sum_i \operatorname{sign}(x_i)\, q_{k,i}, \qquad
          \sum x^2 = \sum_{j \le k} (2 - [j = k]) \sum_i q_{j,i} q_{k,i}

Every product is at most 2**40 units of a fixed grid, so the block sums of
2**13 rows are exact in float64 in any order: the loops that add them may be
reordered (and vectorised) by the compiler (``fastmath`` reassociation). The
slicing must not be: reassociation folds ``(σ + x) − σ`` into ``x`` — which
:func:`_self_check` would catch, on first use, before any result is
returned. The unweighted kernel slices in loops compiled without fastmath
and stores the slices; the weighted one slices and multiplies in the same
loop as it adds, with the slicing, ``w·x`` and ``x = a − b`` emitted as LLVM
instructions that carry only the ``arcp`` flag (no effect on + − ×; numba's
fastmath pass leaves flagged instructions alone), so they round as written
while the sums around them are reordered. Rounding to nearest is symmetric,
so the slices of ``|x|`` are ``sign(x) · q``.

A block whose largest value is outside ``(2**-400, 2**470)`` or not finite,
or with a value that has bits below the fourth slice, is flagged; the caller
sums those blocks with the NumPy path, which handles anything. The results
are exact floats that the caller adds into an exact
:class:`~scorekit._exactsum.ExactSums`, so the total is the same integer
whichever path, block or thread summed a row.

numba is imported on first use (not with scorekit); compiled code is cached
on disk (``cache=True``).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ._typing import FloatArray

__all__: list[str] = []

#: Rows per block: sums of 2**13 products of at most 2**40 grid units stay below 2**53.
BLOCK = 1 << 13
#: Rows per piece of a block whose slices are kept (5 x 512 floats stay in L1).
_PIECE = 512
#: Columns of a block result: the four slice sums, the four signed slice sums, the
#: ten slice products (00 01 02 03 11 12 13 22 23 33), the block's max |x|, a flag.
SUM, ABS, SQ, TOP, FLAG = 0, 4, 8, 18, 19
WIDTH = 20
#: Columns of a weighted block result (:func:`weighted_block_sums`).
W_SUM_H, W_ABS_H, W_SUM_L, W_ABS_L, W_SQ, W_W, W_TOP, W_FLAG = 0, 4, 8, 12, 16, 48, 52, 53
W_WIDTH = 54
#: The squares' products that appear twice in (q0 + q1 + q2 + q3)².
CROSS = np.array([0, 1, 1, 1, 0, 1, 1, 0, 1, 0], dtype=bool)
#: Block maxima whose slice products neither underflow nor overflow.
_RANGE = (2.0**-400, 2.0**470)

_KERNELS: tuple[Callable[..., None], Callable[..., None]] | None = None
_LOCK = threading.Lock()


def _kernels() -> tuple[Callable[..., None], Callable[..., None]]:
    """The compiled kernels (loaded or compiled), checked once against exact rational sums.

    When numba cannot be imported or the kernels fail their check, every
    block is flagged instead (:func:`_flag_all`): the callers then sum each
    block with the exact NumPy path, slower but exact, and a warning says so
    once.
    """
    global _KERNELS
    with _LOCK:
        if _KERNELS is None:
            try:
                from ._blockkernels import blocks, weighted_blocks

                _self_check(blocks, weighted_blocks)
                _KERNELS = blocks, weighted_blocks
            except Exception as exc:  # numba missing, a compiler that breaks the check
                warnings.warn(
                    f"scorekit's compiled exact sums are not available ({exc}); the exact "
                    "regression sums take the slower NumPy path",
                    RuntimeWarning,
                    stacklevel=4,
                )
                _KERNELS = _flag_all, _flag_all
    return _KERNELS


def _flag_all(*args: Any) -> None:
    """A kernel's stand-in: every block flagged (weighted: as weights to check, 2), no sums."""
    out = args[-1]
    out[:] = 0.0
    if out.shape[1] == WIDTH:
        out[:, FLAG] = 1.0
    else:
        out[:, W_FLAG] = 2.0 if args[3] else 1.0  # args[3]: the weights are summed


def _self_check(kernel: Callable[..., None], weighted: Callable[..., None]) -> None:
    """Compare the kernels with exact rational sums on values with long significands.

    Guards what the compiler could break (reassociation in the slicing loops,
    an inexact FMA); raises instead of ever returning an inexact sum.
    """
    rng = np.random.default_rng(20261124)
    a = rng.standard_normal(_PIECE + 37) * 3.0
    b = rng.standard_normal(a.shape[0]) / 3.0
    w = rng.random(a.shape[0]) * 7.0
    out = np.empty((1, WIDTH))
    kernel(a, b, True, True, out)
    wout = np.empty((1, W_WIDTH))
    weighted(w, a, b, True, True, True, wout)
    x = [Fraction(float(v)) for v in a - b]
    wx = [Fraction(float(v)) * e for v, e in zip(np.asarray(w).tolist(), x, strict=True)]
    o = [Fraction(float(v)) for v in out[0]]
    ow = [Fraction(float(v)) for v in wout[0]]
    twice = np.where(CROSS, 2, 1).tolist()
    ok = (
        out[0, FLAG] == 0
        and sum(o[SUM : SUM + 4]) == sum(x)
        and sum(o[ABS : ABS + 4]) == sum(abs(v) for v in x)
        and sum(t * v for t, v in zip(twice, o[SQ : SQ + 10], strict=True)) == sum(v * v for v in x)
        and wout[0, W_FLAG] == 0
        and sum(ow[W_SUM_H : W_SUM_H + 4] + ow[W_SUM_L : W_SUM_L + 4]) == sum(wx)
        and sum(ow[W_ABS_H : W_ABS_H + 4] + ow[W_ABS_L : W_ABS_L + 4]) == sum(map(abs, wx))
        and sum(ow[W_SQ:W_W]) == sum(v * e for v, e in zip(wx, x, strict=True))
        and sum(ow[W_W:W_TOP]) == sum(map(Fraction, np.asarray(w).tolist()))
    )
    if not ok:  # pragma: no cover - a compiler that reassociates the slicing
        raise RuntimeError("scorekit's compiled exact sums failed their self-check")


def block_sums(
    a: FloatArray, b: FloatArray | None = None, *, sums: bool = True, squares: bool = True
) -> FloatArray:
    """Per-block exact sums of ``x = a − b`` (``x = a`` without ``b``), shape (blocks, WIDTH).

    Row ``k`` covers ``x[k·BLOCK : (k+1)·BLOCK]``: columns ``SUM:SUM+4`` add up
    to Σx, ``ABS:ABS+4`` to Σ|x| (both zero unless ``sums``), ``SQ:SQ+10`` to
    Σx² with the :data:`CROSS` ones counted twice (zero unless ``squares``),
    every entry an exact float; ``TOP`` is the block's max |x|. A row with
    ``FLAG`` set holds no sums, and its ``TOP`` is not to be trusted: the
    caller sums that block another way. ``a − b`` is rounded once per row, as
    NumPy's subtraction. ``a`` and ``b`` are 1-D float64 arrays (contiguous
    ones are fastest).

    >>> out = block_sums(np.array([3.0, 1.5]), np.array([1.0, 2.0]))
    >>> float(out[0, SUM:SUM + 4].sum()), float(out[0, ABS:ABS + 4].sum()), float(out[0, TOP])
    (1.5, 2.5, 2.0)
    >>> float(out[0, SQ:SQ + 10] @ np.where(CROSS, 2.0, 1.0))  # 2² + 0.5²
    4.25
    """
    kernel = (_KERNELS or _kernels())[0]
    out = np.empty(((a.shape[0] + BLOCK - 1) // BLOCK, WIDTH))
    kernel(a, b, sums, squares, out)
    return out


def weighted_block_sums(
    w: FloatArray,
    a: FloatArray,
    b: FloatArray | None = None,
    *,
    sums: bool = True,
    squares: bool = True,
    weights: bool = False,
) -> FloatArray:
    """Per-block exact Σw·x, Σw·|x|, Σw·x² of ``x = a − b`` (and Σw), shape (blocks, W_WIDTH).

    ``w`` are weights (>= 0 and finite, or see flag 2). Each row's ``w·x`` is split exactly into
    ``zh + zl`` (``zh = fl(w·x)``, ``zl`` its rounding error, by an FMA), and
    then ``w·x² = zh·x + zl·x``: slices of ``zh``, ``zl`` and ``x`` on each
    block's grids make every product exact, as in :func:`block_sums`. Columns
    ``W_SUM_H:W_SUM_H+4`` and ``W_SUM_L:W_SUM_L+4`` add up to Σw·x,
    ``W_ABS_H``/``W_ABS_L`` likewise to Σw·|x| (zero unless ``sums``),
    ``W_SQ:W_W`` to Σw·x² (zero unless ``squares``), ``W_W:W_TOP`` to Σw
    (zero unless ``weights``); ``W_TOP`` is the
    block's max |x| and a row with ``W_FLAG`` set holds no sums: 1 for extreme
    magnitudes, an underflowing product, bits below the slices, NaN/inf; 2
    (``weights`` only; the weights are then sliced first, whatever ``x``)
    for a block whose weights are not all finite and >= 0 (the exact slices of
    Σw hold no NaN or infinity, and the negative weights are summed), or have
    bits the slices do not hold. A caller that has not checked the weights
    must check them when any row says 2, before using any sum.

    >>> out = weighted_block_sums(np.array([2.0, 0.5]), np.array([3.0, 1.5]), np.array([1.0, 2.0]))
    >>> float(out[0, W_SUM_H:W_SUM_H + 4].sum() + out[0, W_SUM_L:W_SUM_L + 4].sum())  # 2·2 − 0.25
    3.75
    >>> float(out[0, W_SQ:W_W].sum())  # 2·2² + 0.5·0.5²
    8.125
    """
    weighted = (_KERNELS or _kernels())[1]
    out = np.empty(((a.shape[0] + BLOCK - 1) // BLOCK, W_WIDTH))
    weighted(w, a, b, weights, sums, squares, out)
    return out
