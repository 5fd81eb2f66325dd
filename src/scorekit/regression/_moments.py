r"""Moment kernels of the regression metrics: chunk -> state, merge, state -> value.

A :class:`MomentsState` holds, per output column, the weighted sufficient
statistics of every moment-based regression metric (MAE, MSE, RMSE, R²,
explained variance, MAPE, max error). :func:`_moments_from_chunk` builds one
from a chunk of rows, :func:`_merge_moments` combines two with Chan's parallel
formulas, and the ``_*_from_moments`` functions turn a state into the metric,
with scikit-learn's ``multioutput`` semantics. ``scorekit.stream`` and
``scorekit.dask`` call exactly these functions.

Numerics. Centred second moments are never formed as
:math:`\sum y^2 - (\sum y)^2/n`. Inside a chunk every column is shifted by its
first value s and centred on the weighted mean d of y − s (two passes), so a
constant column has a centred moment of exactly zero and offsets of 1e9 cost no
digits. The state keeps (s, d) rather than the rounded mean s + d, and chunks
are combined with Chan's formulas

.. math:: \delta = (s_b - s_a) + (d_b - d_a),\quad
          d = d_a + \delta\,W_b/W,\quad
          M_2 = M_{2,a} + M_{2,b} + \delta^2 W_a W_b / W .

Sums (Σw, Σw·e², Σw·|e|, ...) merge by addition, so with unit weights the
counts are exact integers and merging reproduces one-shot results to rounding
(~1e-15 relative).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ShapeError
from .._typing import FloatArray
from .._validation import undefined, zero_weight_error
from ._inputs import FRACTION_OPTIONS, average_outputs, output_weights

__all__: list[str] = []

#: Every optional field of :class:`MomentsState`; ``need=`` picks a subset.
FIELDS = frozenset({"m2_true", "m2_err", "sse", "sae", "sape", "max_abs_err"})

#: Rows per block when a large array is reduced in :func:`_moments` (cache-sized temporaries).
_BLOCK_ELEMENTS = 1 << 15

_EPS = float(np.finfo(np.float64).eps)


@dataclass(frozen=True, slots=True)
class MomentsState:
    """Weighted sufficient statistics of regression residuals, one entry per output.

    ``e = y_true - y_pred``. Fields not requested with ``need=`` are NaN.
    Means are kept as an exact reference value (a data value) plus the mean
    deviation from it, so that merging chunks whose values sit near 1e9 keeps
    every digit of δ in Chan's formula (a float64 mean of such values is only
    good to ~1e-7).

    Attributes
    ----------
    n : int
        Rows seen (R² needs at least two, as in scikit-learn).
    weight : float
        Σw (the number of rows without weights).
    shift_true, shift_err : FloatArray
        Reference values: a ``y_true`` (resp. ``e``) value of the first row seen.
    dev_true, dev_err : FloatArray
        Weighted means of ``y_true − shift_true`` and ``e − shift_err``
        (the weighted means are :attr:`mean_true`, :attr:`mean_err`).
    m2_true, m2_err : FloatArray
        Σw·(y − ȳ)² and Σw·(e − ē)².
    sse, sae, sape : FloatArray
        Σw·e², Σw·|e| and Σw·|e| / max(|y|, eps) (eps = float64 machine epsilon).
    max_abs_err : FloatArray
        max |e| over every row, whatever its weight (0 for an empty state).
    """

    n: int
    weight: float
    shift_true: FloatArray
    dev_true: FloatArray
    m2_true: FloatArray
    shift_err: FloatArray
    dev_err: FloatArray
    m2_err: FloatArray
    sse: FloatArray
    sae: FloatArray
    sape: FloatArray
    max_abs_err: FloatArray

    @property
    def n_outputs(self) -> int:
        """Number of output columns."""
        return int(self.shift_true.shape[0])

    @property
    def mean_true(self) -> FloatArray:
        """Weighted mean of ``y_true`` per output."""
        return self.shift_true + self.dev_true

    @property
    def mean_err(self) -> FloatArray:
        """Weighted mean of the residual ``y_true − y_pred`` per output."""
        return self.shift_err + self.dev_err


def _wsum(a: FloatArray, w: FloatArray | None) -> FloatArray:
    """Column sums of ``a`` (n × k), weighted by ``w`` when given.

    Column by column, without BLAS: a multi-threaded BLAS call on a busy
    machine can stall for milliseconds, more than the sum itself takes.
    """
    if w is None:
        return np.array([col.sum() for col in a.T], dtype=np.float64)
    return np.array([np.einsum("i,i->", w, col) for col in a.T], dtype=np.float64)


def _wsumsq(a: FloatArray, w: FloatArray | None) -> FloatArray:
    """Column sums of ``a²`` (weighted by ``w`` when given), without a temporary array."""
    if w is None:
        return np.array([np.einsum("i,i->", col, col) for col in a.T], dtype=np.float64)
    return np.array([np.einsum("i,i->", w * col, col) for col in a.T], dtype=np.float64)


def _centred(
    a: FloatArray, w: FloatArray | None, weight: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(shift, mean of a − shift, Σw·(a − mean)²) per column; shift = the first row (two passes)."""
    shift = np.array(a[0], dtype=np.float64)
    if not weight > 0:
        return shift, np.zeros(a.shape[1]), np.zeros(a.shape[1])
    d = a - shift
    dev = _wsum(d, w) / weight
    d -= dev
    return shift, dev, _wsumsq(d, w)


def _moments_from_chunk(
    y: FloatArray, p: FloatArray, w: FloatArray | None = None, need: Iterable[str] = FIELDS
) -> MomentsState:
    """State of one chunk: ``y``, ``p`` of shape (n, k), ``w`` of shape (n,) or ``None``.

    ``need`` names the fields to compute (default: all, which streaming needs);
    the others are NaN. Inputs are assumed validated (finite, same shapes,
    weights ≥ 0) and are not modified.

    >>> s = _moments_from_chunk(np.array([[1.0], [3.0]]), np.array([[2.0], [3.0]]))
    >>> s.weight, s.mean_true.tolist(), s.m2_true.tolist(), s.sse.tolist()
    (2.0, [2.0], [2.0], [1.0])
    """
    need = frozenset(need)
    n, k = y.shape
    weight = float(n) if w is None else float(w.sum())
    nan = np.full(k, np.nan)
    zero = np.zeros(k)
    e = y - p
    nan3 = (nan, nan, nan)
    if n == 0:  # the identity of the merge: zeros where asked
        true = (zero, zero, zero) if "m2_true" in need else nan3
        err = (zero, zero, zero) if "m2_err" in need else nan3
    else:
        true = _centred(y, w, weight) if "m2_true" in need else nan3
        err = _centred(e, w, weight) if "m2_err" in need else nan3
    sse = _wsumsq(e, w) if "sse" in need else nan
    sae = sape = max_abs_err = nan
    if need & {"sae", "sape", "max_abs_err"}:
        np.abs(e, out=e)  # e is ours: reuse it for |e|
        if "max_abs_err" in need:
            max_abs_err = e.max(axis=0, initial=0.0)
        if "sae" in need:
            sae = _wsum(e, w)
        if "sape" in need:
            e /= np.maximum(np.abs(y), _EPS)
            sape = _wsum(e, w)
    return MomentsState(
        n=n,
        weight=weight,
        shift_true=true[0],
        dev_true=true[1],
        m2_true=true[2],
        shift_err=err[0],
        dev_err=err[1],
        m2_err=err[2],
        sse=sse,
        sae=sae,
        sape=sape,
        max_abs_err=max_abs_err,
    )


def _chan(
    a: tuple[FloatArray, FloatArray, FloatArray],
    b: tuple[FloatArray, FloatArray, FloatArray],
    w_a: float,
    w_b: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Merge (shift, dev, m2) of two positive-weight parts, keeping ``a``'s shift."""
    shift_a, dev_a, m2_a = a
    shift_b, dev_b, m2_b = b
    delta = (shift_b - shift_a) + (dev_b - dev_a)  # b's mean − a's mean, without the offset
    frac_b = w_b / (w_a + w_b)
    return shift_a, dev_a + delta * frac_b, m2_a + m2_b + delta * delta * (w_a * frac_b)


def _merge_moments(a: MomentsState, b: MomentsState) -> MomentsState:
    """Combine two states (Chan et al.'s parallel formulas for the centred moments).

    A state of zero weight leaves the moments of the other untouched.

    >>> y, p = np.array([[1.0], [2.0], [4.0]]), np.array([[1.0], [1.0], [1.0]])
    >>> whole = _moments_from_chunk(y, p)
    >>> parts = _merge_moments(_moments_from_chunk(y[:1], p[:1]), _moments_from_chunk(y[1:], p[1:]))
    >>> round(float(parts.m2_true[0]), 12), round(float(whole.m2_true[0]), 12)  # 42 / 9
    (4.666666666667, 4.666666666667)
    >>> parts.sse.tolist(), parts.weight
    ([10.0], 3.0)
    """
    if a.n_outputs != b.n_outputs:
        raise ShapeError(f"cannot merge states with {a.n_outputs} and {b.n_outputs} outputs")
    if b.n == 0:
        return a
    if a.n == 0:
        return b
    parts_a = ((a.shift_true, a.dev_true, a.m2_true), (a.shift_err, a.dev_err, a.m2_err))
    parts_b = ((b.shift_true, b.dev_true, b.m2_true), (b.shift_err, b.dev_err, b.m2_err))
    if not b.weight > 0:
        true, err = parts_a
    elif not a.weight > 0:
        true, err = parts_b
    else:
        true = _chan(parts_a[0], parts_b[0], a.weight, b.weight)
        err = _chan(parts_a[1], parts_b[1], a.weight, b.weight)
    return MomentsState(
        a.n + b.n,
        a.weight + b.weight,
        *true,
        *err,
        sse=a.sse + b.sse,
        sae=a.sae + b.sae,
        sape=a.sape + b.sape,
        max_abs_err=np.maximum(a.max_abs_err, b.max_abs_err),
    )


def _moments(
    y: FloatArray, p: FloatArray, w: FloatArray | None = None, need: Iterable[str] = FIELDS
) -> MomentsState:
    """:func:`_moments_from_chunk` over cache-sized row blocks, merged: the one-shot path.

    >>> _moments(np.array([[1.0], [3.0]]), np.array([[2.0], [3.0]])).sae.tolist()
    [1.0]
    """
    need = frozenset(need)
    n, k = y.shape
    step = max(1024, _BLOCK_ELEMENTS // max(k, 1))

    def block(start: int) -> MomentsState:
        # column-major blocks: every per-column pass is then contiguous
        return _moments_from_chunk(
            np.asfortranarray(y[start : start + step]),
            np.asfortranarray(p[start : start + step]),
            None if w is None else w[start : start + step],
            need,
        )

    state = block(0)
    for start in range(step, n, step):
        state = _merge_moments(state, block(start))
    return state


def _check_state(s: MomentsState) -> None:
    if s.n == 0:
        raise EmptyInputError("no rows were seen; at least one sample is needed")
    if not s.weight > 0:
        raise zero_weight_error()


def _mae_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Mean absolute error Σw·|e| / Σw, combined over outputs as ``multioutput`` says."""
    _check_state(s)
    return average_outputs(s.sae / s.weight, output_weights(multioutput, s.n_outputs))


def _mse_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Mean squared error Σw·e² / Σw, combined over outputs as ``multioutput`` says."""
    _check_state(s)
    return average_outputs(s.sse / s.weight, output_weights(multioutput, s.n_outputs))


def _rmse_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Root mean squared error per output, then combined (scikit-learn averages the roots)."""
    _check_state(s)
    return average_outputs(np.sqrt(s.sse / s.weight), output_weights(multioutput, s.n_outputs))


def _mape_from_moments(s: MomentsState, multioutput: Any = "uniform_average") -> float | FloatArray:
    """Mean absolute percentage error Σw·|e|/max(|y|, eps) / Σw, combined over outputs."""
    _check_state(s)
    return average_outputs(s.sape / s.weight, output_weights(multioutput, s.n_outputs))


def _max_error_from_moments(s: MomentsState) -> float:
    """Largest absolute residual of a single-output state."""
    if s.n == 0:
        raise EmptyInputError("no rows were seen; at least one sample is needed")
    if s.n_outputs != 1:
        raise ShapeError(f"max_error supports a single output; got {s.n_outputs} outputs")
    return float(s.max_abs_err[0])


def _explained_fraction(
    numerator: FloatArray, denominator: FloatArray, multioutput: Any, force_finite: bool
) -> float | FloatArray:
    """1 − numerator/denominator per output, scikit-learn's ``force_finite`` rule, then combined.

    With ``force_finite``: a zero numerator gives 1.0 and a non-zero numerator
    over a zero denominator gives 0.0 (instead of NaN and −inf).
    """
    weights = output_weights(multioutput, numerator.shape[0], FRACTION_OPTIONS)
    nonzero_den = denominator != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = numerator / denominator
    if force_finite:
        nonzero_num = numerator != 0
        scores = np.ones_like(numerator)
        valid = nonzero_num & nonzero_den
        scores[valid] = 1 - ratio[valid]
        scores[nonzero_num & ~nonzero_den] = 0.0
    else:
        scores = 1 - ratio
    if isinstance(weights, str) and weights == "variance_weighted":
        weights = denominator if nonzero_den.any() else "uniform_average"
    return average_outputs(scores, weights)


def _r2_from_moments(
    s: MomentsState, multioutput: Any = "uniform_average", force_finite: bool = True
) -> float | FloatArray:
    """R² = 1 − Σw·e² / Σw·(y − ȳ)² per output; NaN with a warning below two rows."""
    _check_state(s)
    if s.n < 2:
        output_weights(multioutput, s.n_outputs, FRACTION_OPTIONS)
        return undefined("r2", "R^2 needs at least two samples")
    return _explained_fraction(s.sse, s.m2_true, multioutput, force_finite)


def _explained_variance_from_moments(
    s: MomentsState, multioutput: Any = "uniform_average", force_finite: bool = True
) -> float | FloatArray:
    """Explained variance 1 − Var_w(e) / Var_w(y) per output, combined over outputs."""
    _check_state(s)
    return _explained_fraction(s.m2_err, s.m2_true, multioutput, force_finite)
