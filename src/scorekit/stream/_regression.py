"""``RegressionMoments``: the streaming front end of the moment-based regression metrics.

The state is :class:`~scorekit.regression._moments.MomentsState` (exact sums);
chunks go through ``_moments`` (the one-shot functions' own kernel), states
merge with ``_merge_moments`` (integer addition) and every metric is a
``*_from_moments`` kernel.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ShapeError, StateError
from .._exactsum import UNIT_EXP, encode_sum
from .._typing import ArrayLike, FloatArray
from .._validation import check_option
from ..regression._inputs import regression_inputs
from ..regression._moments import (
    SUMS,
    MomentsState,
    _explained_variance_from_moments,
    _mae_from_moments,
    _mape_from_moments,
    _max_error_from_moments,
    _merge_moments,
    _moments,
    _mse_from_moments,
    _r2_from_moments,
    _rmse_from_moments,
)
from ._base import Accumulator, encode_array
from ._labels import empty_chunk
from ._statecheck import Fields

__all__ = ["RegressionMoments"]


def regression_chunk(
    acc: Accumulator,
    y_true: ArrayLike,
    y_pred: ArrayLike,
    sample_weight: ArrayLike | None,
    nan_policy: str,
) -> tuple[FloatArray, FloatArray, FloatArray | None] | None:
    """A validated regression chunk for ``acc`` (``None`` when empty).

    Its number of outputs must be that of the chunks ``acc`` has seen (its
    state has an ``n_outputs``).
    """
    if empty_chunk(y_true, y_pred, sample_weight):
        return None
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    state = acc._state()
    if state is not None and state.n_outputs != y.shape[1]:
        raise ShapeError(
            f"y_true has {y.shape[1]} outputs (columns) but the earlier chunks had "
            f"{state.n_outputs}"
        )
    return y, p, w


class RegressionMoments(Accumulator):
    r"""Streaming MAE, MSE, RMSE, R², explained variance, MAPE and max error.

    Holds, per output, the exact sums Σw, Σw·y, Σw·y², Σw·e, Σw·e², Σw·|e|
    and Σw·|e|/max(|y|, eps) (Python integers, see
    :mod:`scorekit.regression._moments`) and max |e|: memory does not grow
    with rows. Merging adds integers, and second moments are formed exactly
    at the end, so every value equals the one-shot function
    (:func:`scorekit.mae`, ...) bit for bit, however the rows were chunked
    and merged, with or without weights, and is correctly rounded (no
    cancellation at offsets of 1e9). ``update(y_true, y_pred,
    sample_weight=...)`` takes 1-D or ``(n, n_outputs)`` chunks.

    Parameters
    ----------
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> acc = RegressionMoments().update([1, 2], [1, 2]).update([3, 4], [3, 5])
    >>> acc.r2(), acc.mae()  # one error of 1: 1 − 1/5 and 1/4
    (0.8, 0.25)
    """

    _kind = "RegressionMoments"

    def __init__(self, *, nan_policy: str = "raise") -> None:
        super().__init__()
        check_option(nan_policy, "nan_policy", ("raise", "omit"))
        self.nan_policy = nan_policy

    def _merge_state(self, a: MomentsState, b: MomentsState) -> MomentsState:
        return _merge_moments(a, b)

    def _state_size(self, state: MomentsState) -> int:
        return 1

    def _params(self) -> dict[str, Any]:
        return {"nan_policy": self.nan_policy}

    def update(
        self, y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
    ) -> RegressionMoments:
        """Add a chunk (arguments as :func:`scorekit.mae`); returns self.

        A chunk whose weights sum to 0 is taken; the metrics raise only when all
        the weight seen sums to 0, as the one-shot functions on all rows do.
        """
        chunk = regression_chunk(self, y_true, y_pred, sample_weight, self.nan_policy)
        if chunk is not None:
            self._pending.push(_moments(*chunk))
        return self

    def _moments(self) -> MomentsState:
        state = self._state()
        if state is None:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        s: MomentsState = state
        return s

    @property
    def n_outputs(self) -> int:
        """Number of outputs (columns) of the data seen."""
        return self._moments().n_outputs

    def mae(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Mean absolute error; see :func:`scorekit.mae`."""
        return _mae_from_moments(self._moments(), multioutput)

    def mse(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Mean squared error; see :func:`scorekit.mse`."""
        return _mse_from_moments(self._moments(), multioutput)

    def rmse(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Root mean squared error; see :func:`scorekit.rmse`."""
        return _rmse_from_moments(self._moments(), multioutput)

    def mape(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Mean absolute percentage error; see :func:`scorekit.mape`."""
        return _mape_from_moments(self._moments(), multioutput)

    def max_error(self) -> float:
        """Largest absolute residual (single output); see :func:`scorekit.max_error`."""
        return _max_error_from_moments(self._moments())

    def r2(
        self, *, multioutput: Any = "uniform_average", force_finite: bool = True
    ) -> float | FloatArray:
        """Coefficient of determination; see :func:`scorekit.r2`."""
        return _r2_from_moments(self._moments(), multioutput, force_finite)

    def explained_variance(
        self, *, multioutput: Any = "uniform_average", force_finite: bool = True
    ) -> float | FloatArray:
        """Explained variance; see :func:`scorekit.explained_variance`."""
        return _explained_variance_from_moments(self._moments(), multioutput, force_finite)

    def _state_to_dict(self) -> dict[str, Any]:
        s = self._state()
        if s is None:
            return {"moments": None}
        out: dict[str, Any] = {
            "n": s.n,
            "weight": encode_sum(s.weight),
            "max_abs_err": encode_array(s.max_abs_err),
        }
        for name in SUMS:
            sums = getattr(s, name)
            out[name] = None if sums is None else [encode_sum(x) for x in sums]
        return {"moments": out}

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        m = Fields(d, "state", ("moments",)).sub(
            "moments", ("n", "weight", "max_abs_err", *SUMS), optional=True
        )
        if m is None:
            return
        n = m.integer("n", 0, 2**63 - 1)
        weight = m.exact_sum("weight", nonneg=True)
        max_abs_err = m.array("max_abs_err", "f", nonneg=True)
        if max_abs_err.size == 0:
            raise m.fail("max_abs_err", "must have one entry per output (at least one)")
        sums: dict[str, tuple[Any, ...] | None] = {}
        for name in SUMS:
            texts = m.raw(name)
            if texts is None:
                sums[name] = None
                continue
            if not isinstance(texts, list) or len(texts) != max_abs_err.size:
                raise m.fail(name, f"must be null or a list of {max_abs_err.size} exact sums")
            nonneg = name in ("sumsq_true", "sse", "sae", "sape")
            sums[name] = tuple(m.exact_sum(name, t, nonneg=nonneg) for t in texts)
        _check_consistent(n, weight, max_abs_err, sums)
        self._pending.replace(MomentsState(n=n, weight=weight, max_abs_err=max_abs_err, **sums))


def _check_consistent(
    n: int, weight: Any, max_abs_err: FloatArray, sums: dict[str, tuple[Any, ...] | None]
) -> None:
    """Relations every state made from rows satisfies exactly (ints: exact sums, in 2**-1074 units).

    No rows means no weight; each exact sum is below n·2**1024 in value; Σw|e| <= max|e|·Σw,
    |Σw·e| <= Σw|e|, Σw·e² <= max|e|²·Σw and (Σw·y)² <= Σw·Σw·y² (Cauchy–Schwarz).
    """
    unit = Fraction(1, 1 << UNIT_EXP)
    ints = [x for v in sums.values() if v is not None for x in v if isinstance(x, int)]
    if isinstance(weight, int):
        ints.append(weight)
    if n == 0 and any(ints):
        raise StateError("state.moments holds sums but n = 0 rows")
    limit = (n << 1024) * (1 << UNIT_EXP)
    if any(abs(x) > limit for x in ints):
        raise StateError(f"state.moments holds a sum beyond what {n} finite rows can add up to")
    if not isinstance(weight, int):
        return
    w = weight * unit
    for k, top in enumerate(max_abs_err.tolist()):
        bound = Fraction(top) if np.isfinite(top) else None

        def get(name: str, k: int = k) -> Fraction | None:
            v = sums[name]
            return None if v is None or not isinstance(v[k], int) else v[k] * unit

        sae, sse, err = get("sae"), get("sse"), get("sum_err")
        total, total_sq = get("sum_true"), get("sumsq_true")
        if bound is not None and (
            (sae is not None and sae > bound * w) or (sse is not None and sse > bound * bound * w)
        ):
            raise StateError(f"state.moments: output {k} has errors above max_abs_err")
        if err is not None and sae is not None and abs(err) > sae:
            raise StateError(f"state.moments: output {k} has |sum_err| > sae")
        if total is not None and total_sq is not None and total * total > w * total_sq:
            raise StateError(f"state.moments: output {k} breaks (Σw·y)² <= Σw·Σw·y²")
