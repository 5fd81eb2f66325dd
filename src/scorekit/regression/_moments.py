r"""Moment kernels of the regression metrics: chunk -> state, merge, state -> value.

A :class:`MomentsState` holds, per output column, the weighted sufficient
statistics of every moment-based regression metric (MAE, MSE, RMSE, R²,
explained variance, MAPE, max error). :func:`_moments_from_chunk` builds one
from a chunk of rows, :func:`_merge_moments` combines two, and the
``_*_from_moments`` functions turn a state into the metric, with scikit-learn's
``multioutput`` semantics. ``scorekit.stream`` and ``scorekit.dask`` call
exactly these functions.

Numerics. Every per-row quantity (``e = y − ŷ``, ``|e|``, ``|e| / max(|y|,
eps)``) is one float64 operation per row, and every sum is exact: compiled
passes (:mod:`scorekit._blocksums`: Ozaki slices on a per-block grid, w·x split
by an FMA) give exact block sums, and the blocks they cannot slice go through
:mod:`scorekit._exactsum` (Dekker's error-free product, exponent buckets); the
totals are Python integers. Merging is
integer addition, so however rows are chunked and merged, the state and every
metric are bit-identical to the one-shot value, for any weights. Second
moments are formed at the end in exact rational arithmetic,

.. math:: \sum_i w_i (y_i - \bar y)^2 = \sum_i w_i y_i^2
          - \Big(\sum_i w_i y_i\Big)^2 \Big/ \sum_i w_i ,

and each metric is rounded once to float64 (correctly rounded, so values near
1e9 and constant columns lose no digits).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from .._blocksums import (
    ABS,
    BLOCK,
    CROSS,
    FLAG,
    SQ,
    SUM,
    TOP,
    W_ABS_H,
    W_ABS_L,
    W_FLAG,
    W_SQ,
    W_SUM_H,
    W_SUM_L,
    W_TOP,
    W_W,
    block_sums,
    weighted_block_sums,
)
from .._errors import EmptyInputError, ParameterError, ShapeError
from .._exactsum import (
    UNIT_EXP,
    ExactSum,
    ExactSums,
    add_sums,
    as_fraction,
    split,
    to_float,
    two_product,
)
from .._typing import FloatArray
from .._validation import check_weights, finite_rows, take, undefined, zero_weight_error
from ._inputs import FRACTION_OPTIONS, average_outputs, output_weights

__all__: list[str] = []

#: Every optional statistic of :class:`MomentsState`; ``need=`` picks a subset.
FIELDS = frozenset({"m2_true", "m2_err", "sse", "sae", "sape", "max_abs_err"})

#: The sums (fields of :class:`MomentsState`) each statistic needs.
_SUMS_OF = {
    "m2_true": ("sum_true", "sumsq_true"),
    "m2_err": ("sum_err", "sse"),
    "sse": ("sse",),
    "sae": ("sae",),
    "sape": ("sape",),
    "max_abs_err": (),
}
#: The exact sums kept per output, in state order.
SUMS = ("sum_true", "sumsq_true", "sum_err", "sse", "sae", "sape")

#: Elements per block of :func:`_moments_from_chunk` (cache-sized temporaries).
_BLOCK_ELEMENTS = 1 << 15
#: Rows per thread at least: larger chunks are cut into parts summed on the cores in
#: parallel (NumPy and BLAS release the GIL); exact sums make the parts' merge exact.
_THREAD_ROWS = 1 << 18
_N_THREADS = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1, 4)

_EPS = float(np.finfo(np.float64).eps)
#: Each square's slice product counted once or (cross terms) twice.
_TWICE = np.where(CROSS, 2.0, 1.0)

Sums = tuple[ExactSum, ...] | None


@dataclass(frozen=True, slots=True)
class MomentsState:
    """Exact weighted sums of regression residuals, one entry per output.

    ``e = y_true − y_pred``. Every sum is exact (an integer count of 2**-1074,
    see :mod:`scorekit._exactsum`); a sum that was not requested with
    ``need=`` is ``None``.

    Attributes
    ----------
    n : int
        Rows seen (R² needs at least two, as in scikit-learn).
    weight : ExactSum
        Σw (the number of rows without weights).
    sum_true, sumsq_true : tuple of ExactSum or None
        Σw·y and Σw·y² per output.
    sum_err, sse : tuple of ExactSum or None
        Σw·e and Σw·e² per output.
    sae, sape : tuple of ExactSum or None
        Σw·|e| and Σw·|e| / max(|y|, eps) (eps = float64 machine epsilon).
    max_abs_err : FloatArray
        max |e| over every row, whatever its weight (0 for an empty state).
    """

    n: int
    weight: ExactSum
    sum_true: Sums
    sumsq_true: Sums
    sum_err: Sums
    sse: Sums
    sae: Sums
    sape: Sums
    max_abs_err: FloatArray

    @property
    def n_outputs(self) -> int:
        """Number of output columns."""
        return int(self.max_abs_err.shape[0])

    @property
    def total_weight(self) -> float:
        """Σw rounded to float64."""
        return to_float(self.weight)


#: Scratch arrays of one block (reused: fresh temporaries would cost page faults).
_SCRATCH = ("e", "wh", "wl", "xh", "xl", "wx", "wxe", "fh", "fl", "p", "err", "tmp")
_Scratch = dict[str, FloatArray]


def _add_weighted(
    acc: ExactSums,
    slot: int | None,
    w: FloatArray | None,
    x: FloatArray,
    square: int | None,
    buf: _Scratch,
) -> None:
    """Add Σw·x to ``slot`` and Σw·x² to ``square`` exactly (either may be ``None``).

    ``buf`` holds the scratch arrays of the block; ``buf["wh"]``, ``buf["wl"]``
    are the split of ``w``.
    """
    prod = (buf["p"], buf["err"], buf["tmp"])
    if w is None:
        if square is not None:
            acc.add_squares(slot, square, x)
        elif slot is not None:
            acc.add(slot, x)
        return
    x_parts = split(x, (buf["xh"], buf["xl"]))
    w_parts = (buf["wh"], buf["wl"])
    wx, wx_err = two_product(w, x, w_parts, x_parts, (buf["wx"], buf["wxe"], buf["tmp"]))
    if slot is not None:
        acc.add(slot, wx)
        acc.add(slot, wx_err)
    if square is not None:
        for factor in (wx, wx_err):
            f_parts = split(factor, (buf["fh"], buf["fl"]))
            for part in two_product(factor, x, f_parts, x_parts, prod):
                acc.add(square, part)


def _moments_from_chunk(
    y: FloatArray,
    p: FloatArray,
    w: FloatArray | None = None,
    need: Iterable[str] = FIELDS,
    *,
    verify: bool = False,
) -> MomentsState:
    """State of one chunk: ``y``, ``p`` of shape (n, k), ``w`` of shape (n,) or ``None``.

    ``need`` names the statistics to compute (default: all, which streaming
    needs); the sums of the others are ``None``. Inputs are assumed validated
    (finite, same shapes, weights ≥ 0; with ``verify`` the weights are not yet:
    :class:`_WeightsToCheck` is raised unless the passes found every weight
    finite and >= 0) and are not modified. Rows go through in
    cache-sized blocks (and, above 2**18 rows per core, in parts summed on the
    cores in parallel); the sums are exact, so neither changes the result.

    >>> s = _moments_from_chunk(np.array([[1.0], [3.0]]), np.array([[2.0], [3.0]]))
    >>> s.total_weight, _m2(s.sum_true[0], s.sumsq_true[0], s.weight), to_float(s.sse[0])
    (2.0, Fraction(2, 1), 1.0)
    """
    need = frozenset(need)
    parts = min(_N_THREADS, y.shape[0] // _THREAD_ROWS)
    if parts < 2:
        return _block_sums(y, p, w, need, verify)
    cuts = [y.shape[0] * i // parts for i in range(parts + 1)]
    states: list[MomentsState | None] = [None] * parts
    errors: list[BaseException] = []

    def run(i: int) -> None:
        rows = slice(cuts[i], cuts[i + 1])
        try:
            part = None if w is None else w[rows]
            states[i] = _block_sums(y[rows], p[rows], part, need, verify)
        except BaseException as exc:  # re-raised on the calling thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(1, parts)]
    for t in threads:
        t.start()
    run(0)
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    merged = states[0]
    for state in states[1:]:
        if merged is not None and state is not None:
            merged = _merge_moments(merged, state)
    if merged is None:  # pragma: no cover - every part ran or raised
        raise RuntimeError("a part of the rows was not summed")
    return merged


class _WeightsToCheck(Exception):
    """A weighted pass met weights it could not vouch for (NaN, inf, negative or extreme)."""


def _block_sums(
    y: FloatArray, p: FloatArray, w: FloatArray | None, need: frozenset[str], verify: bool
) -> MomentsState:
    """:func:`_moments_from_chunk` on one thread: the rows in cache-sized blocks."""
    sums = sorted({name for stat in need for name in _SUMS_OF[stat]}, key=SUMS.index)
    n, k = y.shape
    slot = {key: i for i, key in enumerate((s, j) for s in sums for j in range(k))}
    acc = ExactSums(len(slot) + 1)  # the last slot is Σw
    max_abs_err = np.zeros(k)
    # |y| > 1e154 gives y² = inf (and inf − inf in the split), as in scikit-learn
    with np.errstate(over="ignore", invalid="ignore"):
        for j in range(k):  # compiled passes per column and stream (Σw with the first)
            weighed = _compiled_sums(
                acc, slot, sums, need, y[:, j], p[:, j], w, j, max_abs_err, verify
            )
            if w is not None and j == 0 and not weighed:  # no weighted pass: Σw alone
                if verify:
                    check_weights(w, "sample_weight")
                _add_blocks(acc, w, None, len(slot), None, None)
        if "sape" in sums:  # Σw·|e| / max(|y|, eps): one float division per row, then exact
            _add_sape(acc, slot, y, p, w)
    return _state(acc, slot, sums, n, k, w, max_abs_err)


def _add_sape(
    acc: ExactSums,
    slot: dict[tuple[str, int], int],
    y: FloatArray,
    p: FloatArray,
    w: FloatArray | None,
) -> None:
    """Add Σw·|e| / max(|y|, eps) of every column, in cache-sized blocks."""
    n, k = y.shape
    step = max(1024, _BLOCK_ELEMENTS // max(k, 1))
    scratch = np.empty((len(_SCRATCH), min(step, n)))
    for start in range(0, n, step):
        # column-major blocks: every per-column pass is then contiguous
        yb = np.asfortranarray(y[start : start + step])
        pb = np.asfortranarray(p[start : start + step])
        m = yb.shape[0]
        buf = {name: scratch[i, :m] for i, name in enumerate(_SCRATCH)}
        wb = None
        if w is not None:
            wb = np.ascontiguousarray(w[start : start + step])
            split(wb, (buf["wh"], buf["wl"]))
        for j in range(k):
            e = np.abs(np.subtract(yb[:, j], pb[:, j], out=buf["e"]), out=buf["e"])
            e /= np.maximum(np.abs(yb[:, j], out=buf["p"]), _EPS, out=buf["p"])
            _add_weighted(acc, slot["sape", j], wb, e, None, buf)


def _state(
    acc: ExactSums,
    slot: dict[tuple[str, int], int],
    sums: list[str],
    n: int,
    k: int,
    w: FloatArray | None,
    max_abs_err: FloatArray,
) -> MomentsState:
    """The :class:`MomentsState` of the sums in ``acc`` (Σw in its last slot)."""
    totals = acc.result()
    values: dict[str, Sums] = dict.fromkeys(SUMS)
    for name in sums:
        values[name] = tuple(totals[slot[name, j]] for j in range(k))
    weight = (n << UNIT_EXP) if w is None else totals[-1]
    return MomentsState(n=n, weight=weight, max_abs_err=max_abs_err, **values)


def _compiled_sums(
    acc: ExactSums,
    slot: dict[tuple[str, int], int],
    sums: list[str],
    need: frozenset[str],
    yj: FloatArray,
    pj: FloatArray,
    w: FloatArray | None,
    j: int,
    max_abs_err: FloatArray,
    verify: bool = False,
) -> bool:
    """Add column ``j``'s Σw·y, Σw·y², Σw·e, Σw·e², Σw·|e| and max |e| (those asked for).

    With weights, column 0's first pass adds Σw too (to the last slot) and,
    with ``verify``, raises :class:`_WeightsToCheck` unless every weight is
    finite and >= 0; returns whether a pass ran.

    One compiled pass per stream (:mod:`scorekit._blocksums`; ``w = 1``
    without weights); its exact block sums go into ``acc``, and a block it
    flags (extreme range, bits beyond its slices, NaN/inf) is summed by the
    NumPy path (:class:`ExactSums`, Dekker's product) instead.
    """
    weight = len(slot) if j == 0 else None  # Σw, in the last slot, with column 0's first pass
    add = (
        _add_blocks
        if w is None
        else partial(_add_weighted_blocks, w=w, weight=weight, verify=verify and j == 0)
    )
    if "sum_true" in sums:
        add(acc, yj, None, slot["sum_true", j], None, slot["sumsq_true", j])
        add = _add_blocks if w is None else partial(_add_weighted_blocks, w=w, weight=None)
    errors = "sum_err" in sums or "sse" in sums
    if errors or "sae" in sums or "max_abs_err" in need:
        top = add(
            acc,
            yj,
            pj,
            slot["sum_err", j] if "sum_err" in sums else None,
            slot["sae", j] if "sae" in sums else None,
            slot["sse", j] if "sse" in sums else None,
        )
        max_abs_err[j] = max(max_abs_err[j], top)
        return True
    return "sum_true" in sums


def _add_blocks(
    acc: ExactSums,
    a: FloatArray,
    b: FloatArray | None,
    total: int | None,
    absolute: int | None,
    square: int | None,
) -> float:
    """Add Σx, Σ|x|, Σx² of ``x = a − b`` to the slots given; return max |x|."""
    out = block_sums(
        a, b, sums=total is not None or absolute is not None, squares=square is not None
    )
    flagged = out[:, FLAG] != 0
    ok = out[~flagged]
    if total is not None:
        acc.add(total, ok[:, SUM : SUM + 4].ravel())
    if absolute is not None:
        acc.add(absolute, ok[:, ABS : ABS + 4].ravel())
    if square is not None:
        acc.add(square, (ok[:, SQ : SQ + 10] * _TWICE).ravel())
    for blk in np.flatnonzero(flagged).tolist():
        rows = slice(blk * BLOCK, (blk + 1) * BLOCK)
        x = a[rows] if b is None else np.subtract(a[rows], b[rows])
        out[blk, TOP] = np.max(np.abs(x))
        if square is not None:
            acc.add_squares(total, square, x)
        elif total is not None:
            acc.add(total, x)
        if absolute is not None:
            acc.add(absolute, np.abs(x))
    return float(out[:, TOP].max(initial=0.0))


def _add_weighted_blocks(
    acc: ExactSums,
    a: FloatArray,
    b: FloatArray | None,
    total: int | None,
    absolute: int | None,
    square: int | None,
    *,
    w: FloatArray,
    weight: int | None,
    verify: bool = False,
) -> float:
    """:func:`_add_blocks` with weights: Σw·x, Σw·|x|, Σw·x² of ``x = a − b`` (Σw in ``weight``).

    Returns max |x|. With ``weight`` and ``verify`` the pass vouches for the
    weights: a block whose weights are not all finite and >= 0 (or that its
    slices cannot hold) raises :class:`_WeightsToCheck`, before any is used.
    """
    out = weighted_block_sums(
        w,
        a,
        b,
        sums=total is not None or absolute is not None,
        squares=square is not None,
        weights=weight is not None,
    )
    if verify and weight is not None and bool((out[:, W_FLAG] == 2).any()):
        raise _WeightsToCheck
    flagged = out[:, W_FLAG] != 0
    ok = out[~flagged]
    if total is not None:
        acc.add(total, ok[:, W_SUM_H : W_SUM_H + 4].ravel())
        acc.add(total, ok[:, W_SUM_L : W_SUM_L + 4].ravel())
    if absolute is not None:
        acc.add(absolute, ok[:, W_ABS_H : W_ABS_H + 4].ravel())
        acc.add(absolute, ok[:, W_ABS_L : W_ABS_L + 4].ravel())
    if square is not None:
        acc.add(square, ok[:, W_SQ:W_W].ravel())
    if weight is not None:
        acc.add(weight, ok[:, W_W:W_TOP].ravel())
    blocks = np.flatnonzero(flagged).tolist()
    if blocks:
        scratch = np.empty((len(_SCRATCH), BLOCK))
    for blk in blocks:
        rows = slice(blk * BLOCK, (blk + 1) * BLOCK)
        x = a[rows] if b is None else np.subtract(a[rows], b[rows])
        out[blk, W_TOP] = np.max(np.abs(x))
        buf = {name: scratch[i, : x.shape[0]] for i, name in enumerate(_SCRATCH)}
        wb = np.ascontiguousarray(w[rows])
        split(wb, (buf["wh"], buf["wl"]))
        if weight is not None:
            acc.add(weight, wb)
        if total is not None or square is not None:
            _add_weighted(acc, total, wb, x, square, buf)
        if absolute is not None:
            _add_weighted(acc, absolute, wb, np.abs(x), None, buf)
    return float(out[:, W_TOP].max(initial=0.0))


def _add_tuples(a: Sums, b: Sums) -> Sums:
    if a is None or b is None:
        return None
    return tuple(add_sums(x, y) for x, y in zip(a, b, strict=True))


def _merge_moments(a: MomentsState, b: MomentsState) -> MomentsState:
    """Combine two states: exact sums add (so any merge order gives the same state).

    A sum missing (``None``) in either state is missing in the result.

    >>> y, p = np.array([[1.0], [2.0], [4.0]]), np.array([[1.0], [1.0], [1.0]])
    >>> whole = _moments_from_chunk(y, p)
    >>> parts = _merge_moments(_moments_from_chunk(y[:1], p[:1]), _moments_from_chunk(y[1:], p[1:]))
    >>> parts.sumsq_true == whole.sumsq_true, parts.weight == whole.weight
    (True, True)
    >>> _m2(parts.sum_true[0], parts.sumsq_true[0], parts.weight)  # 21 − 7²/3 = 14/3
    Fraction(14, 3)
    """
    if a.n_outputs != b.n_outputs:
        raise ShapeError(f"cannot merge states with {a.n_outputs} and {b.n_outputs} outputs")
    return MomentsState(
        n=a.n + b.n,
        weight=add_sums(a.weight, b.weight),
        max_abs_err=np.maximum(a.max_abs_err, b.max_abs_err),
        **{name: _add_tuples(getattr(a, name), getattr(b, name)) for name in SUMS},
    )


def _moments(
    y: FloatArray, p: FloatArray, w: FloatArray | None = None, need: Iterable[str] = FIELDS
) -> MomentsState:
    """The one-shot path: :func:`_moments_from_chunk` on all the rows.

    >>> to_float(_moments(np.array([[1.0], [3.0]]), np.array([[2.0], [3.0]])).sae[0])
    1.0
    """
    return _moments_from_chunk(y, p, w, need)


def _moments_checked(
    y: FloatArray, p: FloatArray, w: FloatArray | None, nan_policy: str, need: Iterable[str]
) -> MomentsState:
    """:func:`_moments` of rows and weights not yet checked (``check_finite=False``).

    The sums themselves find a NaN or inf (they are then not finite), so the
    rows are checked only then: :func:`finite_rows` raises, or drops those
    rows and the sums are taken again; finite inputs whose residuals overflow
    keep their infinite sums, as scikit-learn's. The first weighted pass
    vouches for the weights (its exact slices of Σw hold every bit of finite
    weights only, and it sums the negative ones), else
    :func:`~scorekit._validation.check_weights` raises naming them (or finds
    them fine: extreme magnitudes). Saves a pass over each input and two over
    the weights.

    >>> s = _moments_checked(np.array([[1.0], [3.0]]), np.array([[2.0], [3.0]]), None, "raise",
    ...                      ("sse",))
    >>> to_float(s.sse[0])
    1.0
    """
    try:
        state = _moments_from_chunk(y, p, w, need, verify=True)
    except _WeightsToCheck:  # rare: raise naming the weights, or they are fine (extreme)
        if w is not None:
            check_weights(w, "sample_weight")
        state = _moments(y, p, w, need)
    if _is_finite(state):
        return state
    keep = finite_rows(nan_policy, y_true=y, y_pred=p)
    if keep is None:
        return state
    y, p, w = take(keep, y, p, w)
    return _moments(y, p, w, need)


def _is_finite(s: MomentsState) -> bool:
    """Whether every sum and the largest residual of ``s`` are finite."""
    sums = (getattr(s, name) for name in SUMS)
    return bool(np.isfinite(s.max_abs_err).all()) and not any(
        isinstance(x, float) for t in sums if t is not None for x in t
    )


def _m2(total: ExactSum, total_sq: ExactSum, weight: ExactSum) -> Fraction | float:
    """Exact Σw·(x − x̄)² = Σw·x² − (Σw·x)²/Σw (a float only after an overflow to inf/nan)."""
    if isinstance(total, float) or isinstance(total_sq, float) or isinstance(weight, float):
        with np.errstate(all="ignore"):  # an overflow to inf or nan: float arithmetic
            return float(to_float(total_sq) - np.float64(to_float(total)) ** 2 / to_float(weight))
    return as_fraction(total_sq) - as_fraction(total) ** 2 / as_fraction(weight)


def _check_state(s: MomentsState) -> None:
    if s.n == 0:
        raise EmptyInputError("no rows were seen; at least one sample is needed")
    if not s.weight > 0:
        raise zero_weight_error()


def _present(sums: Sums, name: str) -> tuple[ExactSum, ...]:
    """The sums, which a state built with ``need=`` lacking ``name`` does not hold."""
    if sums is None:
        raise ParameterError(f"this state holds no {name}; build it with {name!r} in need=")
    return sums


def _means(sums: Sums, s: MomentsState, name: str) -> FloatArray:
    """Σw·x / Σw per output, correctly rounded."""
    sums = _present(sums, name)
    if isinstance(s.weight, float):
        return np.array([to_float(x) / s.weight for x in sums])
    w = as_fraction(s.weight)
    return np.array([float(as_fraction(x) / w) if isinstance(x, int) else x for x in sums])


def _mae_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Mean absolute error Σw·|e| / Σw, combined over outputs as ``multioutput`` says."""
    _check_state(s)
    return average_outputs(_means(s.sae, s, "sae"), output_weights(multioutput, s.n_outputs))


def _mse_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Mean squared error Σw·e² / Σw, combined over outputs as ``multioutput`` says."""
    _check_state(s)
    return average_outputs(_means(s.sse, s, "sse"), output_weights(multioutput, s.n_outputs))


def _rmse_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Root mean squared error per output, then combined (scikit-learn averages the roots)."""
    _check_state(s)
    return average_outputs(
        np.sqrt(_means(s.sse, s, "sse")), output_weights(multioutput, s.n_outputs)
    )


def _mape_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Mean absolute percentage error Σw·|e|/max(|y|, eps) / Σw, combined over outputs."""
    _check_state(s)
    return average_outputs(_means(s.sape, s, "sape"), output_weights(multioutput, s.n_outputs))


def _max_error_from_moments(s: MomentsState) -> float:
    """Largest absolute residual of a single-output state."""
    if s.n == 0:
        raise EmptyInputError("no rows were seen; at least one sample is needed")
    if s.n_outputs != 1:
        raise ShapeError(f"max_error supports a single output; got {s.n_outputs} outputs")
    return float(s.max_abs_err[0])


def _fraction_score(num: Fraction | float, den: Fraction | float, force_finite: bool) -> float:
    """1 − num/den rounded once, with scikit-learn's ``force_finite`` rule.

    With ``force_finite``: a zero numerator gives 1.0 and a non-zero numerator
    over a zero denominator gives 0.0 (instead of NaN and −inf).
    """
    if force_finite and num == 0:
        return 1.0
    if den == 0:
        return 0.0 if force_finite else (float("nan") if num == 0 else float("-inf"))
    if isinstance(num, float) or isinstance(den, float):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return float(1 - np.float64(num) / np.float64(den))
    return float(1 - num / den)


def _explained_fraction(
    numerator: list[Fraction | float],
    denominator: list[Fraction | float],
    multioutput: Any,
    force_finite: bool,
) -> float | FloatArray:
    """1 − numerator/denominator per output (exact, rounded once), then combined."""
    weights = output_weights(multioutput, len(numerator), FRACTION_OPTIONS)
    scores = np.array(
        [_fraction_score(a, b, force_finite) for a, b in zip(numerator, denominator, strict=True)]
    )
    if isinstance(weights, str) and weights == "variance_weighted":
        den = np.array([float(d) for d in denominator])
        weights = den if (den != 0).any() else "uniform_average"
    return average_outputs(scores, weights)


def _m2_of(total: Sums, total_sq: Sums, s: MomentsState, name: str) -> list[Fraction | float]:
    """Exact Σw·(x − x̄)² per output."""
    pairs = zip(_present(total, name), _present(total_sq, name), strict=True)
    return [_m2(a, b, s.weight) for a, b in pairs]


def _r2_from_moments(
    s: MomentsState, multioutput: Any = "uniform_average", force_finite: bool = True
) -> float | FloatArray:
    """R² = 1 − Σw·e² / Σw·(y − ȳ)² per output; NaN with a warning below two rows."""
    _check_state(s)
    if s.n < 2:
        output_weights(multioutput, s.n_outputs, FRACTION_OPTIONS)
        return undefined("r2", "R^2 needs at least two samples")
    sse: list[Fraction | float] = [
        as_fraction(x) if isinstance(x, int) else x for x in _present(s.sse, "sse")
    ]
    sst = _m2_of(s.sum_true, s.sumsq_true, s, "m2_true")
    return _explained_fraction(sse, sst, multioutput, force_finite)


def _explained_variance_from_moments(
    s: MomentsState, multioutput: Any = "uniform_average", force_finite: bool = True
) -> float | FloatArray:
    """Explained variance 1 − Var_w(e) / Var_w(y) per output, combined over outputs."""
    _check_state(s)
    num = _m2_of(s.sum_err, s.sse, s, "m2_err")
    sst = _m2_of(s.sum_true, s.sumsq_true, s, "m2_true")
    return _explained_fraction(num, sst, multioutput, force_finite)
