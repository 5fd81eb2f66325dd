"""``RegressionMoments``: the streaming front end of the moment-based regression metrics.

The state is :class:`~scorekit.regression._moments.MomentsState` (exact sums);
chunks go through ``_moments`` (the one-shot functions' own kernel), states
merge with ``_merge_moments`` (integer addition) and every metric is a
``*_from_moments`` kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import EmptyInputError, ShapeError
from .._exactsum import decode_sum, encode_sum
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
from ._base import Accumulator, decode_array, encode_array
from ._labels import empty_chunk

__all__ = ["RegressionMoments"]


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
        if empty_chunk(y_true, y_pred, sample_weight):
            return self
        y, p, w = regression_inputs(y_true, y_pred, sample_weight, self.nan_policy)
        state = self._state()
        if state is not None and state.n_outputs != y.shape[1]:
            raise ShapeError(
                f"y_true has {y.shape[1]} outputs (columns) but the earlier chunks had "
                f"{state.n_outputs}"
            )
        self._pending.push(_moments(y, p, w))
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
        m = d["moments"]
        if m is None:
            return
        sums = {
            name: None if m[name] is None else tuple(decode_sum(x) for x in m[name])
            for name in SUMS
        }
        self._pending.replace(
            MomentsState(
                n=int(m["n"]),
                weight=decode_sum(m["weight"]),
                max_abs_err=np.asarray(decode_array(m["max_abs_err"]), dtype=np.float64),
                **sums,
            )
        )
