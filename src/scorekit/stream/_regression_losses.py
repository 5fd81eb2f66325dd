"""``RegressionLosses``: streaming MSLE, deviances, pinball, SMAPE, WMAPE and correlations.

The state is :class:`~scorekit.regression._loss_state.LossState` (exact sums,
built by the one-shot functions' kernels); states merge by exact addition.
"""

from __future__ import annotations

from typing import Any

from .._errors import EmptyInputError, StateError
from .._exactsum import decode_sum, encode_sum
from .._typing import ArrayLike, FloatArray
from .._validation import check_option
from ..regression._loss_state import (
    LOSS_SUMS,
    MOMENT_SUMS,
    LossState,
    concordance_of,
    loss_state,
    mean_loss,
    merge_losses,
    one_output_loss,
    pearson_of,
    wmape_of,
)
from ..regression._losses import check_alpha, check_power
from ._base import Accumulator
from ._regression import regression_chunk
from ._statecheck import Fields

__all__ = ["RegressionLosses"]


class RegressionLosses(Accumulator):
    r"""Streaming regression losses and correlations, equal to the one-shot functions bit for bit.

    Keeps, per output, exact sums (integers, see :mod:`scorekit._exactsum`) of
    the per-row values of :func:`scorekit.msle`, the Poisson, gamma and
    ``power`` Tweedie deviances, :func:`scorekit.mean_pinball_loss` at
    ``alpha``, :func:`scorekit.smape`, :func:`scorekit.wmape`, and the moment
    sums of :func:`scorekit.pearson` and :func:`scorekit.concordance_correlation`:
    memory does not grow with rows, and any chunking or merge order gives the
    one-shot value bit for bit. A chunk outside a metric's domain makes that
    metric raise its :class:`~scorekit.DomainError` when asked for; the others
    still work. The D² scores are not offered: their baselines are a quantile
    (an order statistic, not a sum) or the mean of ``y_true`` (known only after
    the last chunk), so a stream would have to keep every row.

    Parameters
    ----------
    power : float, default=0
        Tweedie power of :meth:`mean_tweedie_deviance`.
    alpha : float, default=0.5
        Quantile level of :meth:`mean_pinball_loss`.
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> acc = RegressionLosses(alpha=0.9).update([3.0], [1.0]).update([1.0], [3.0])
    >>> acc.mean_pinball_loss(), acc.wmape()  # (0.9·2 + 0.1·2) / 2 and 4 / 4
    (1.0, 1.0)
    """

    _kind = "RegressionLosses"

    def __init__(
        self, *, power: float = 0.0, alpha: float = 0.5, nan_policy: str = "raise"
    ) -> None:
        super().__init__()
        check_option(nan_policy, "nan_policy", ("raise", "omit"))
        self.power = check_power(power)
        self.alpha = check_alpha(alpha)
        self.nan_policy = nan_policy

    def _merge_state(self, a: LossState, b: LossState) -> LossState:
        return merge_losses(a, b)

    def _state_size(self, state: LossState) -> int:
        return 1

    def _params(self) -> dict[str, Any]:
        return {"power": self.power, "alpha": self.alpha, "nan_policy": self.nan_policy}

    def update(
        self, y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None
    ) -> RegressionLosses:
        """Add a chunk (arguments as :func:`scorekit.msle`); returns self."""
        chunk = regression_chunk(self, y_true, y_pred, sample_weight, self.nan_policy)
        if chunk is not None:
            self._pending.push(loss_state(*chunk, self.power, self.alpha))
        return self

    def _losses(self) -> LossState:
        state = self._state()
        if state is None:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        s: LossState = state
        return s

    def msle(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Mean squared logarithmic error; see :func:`scorekit.msle`."""
        return mean_loss(self._losses(), "log", multioutput)  # type: ignore[no-any-return]

    def rmsle(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Root mean squared logarithmic error; see :func:`scorekit.rmsle`."""
        return mean_loss(self._losses(), "log", multioutput, root=True)  # type: ignore[no-any-return]

    def mean_poisson_deviance(self) -> float:
        """Mean Poisson deviance; see :func:`scorekit.mean_poisson_deviance`."""
        return one_output_loss(self._losses(), "poisson", "mean_poisson_deviance")

    def mean_gamma_deviance(self) -> float:
        """Mean gamma deviance; see :func:`scorekit.mean_gamma_deviance`."""
        return one_output_loss(self._losses(), "gamma", "mean_gamma_deviance")

    def mean_tweedie_deviance(self) -> float:
        """Mean Tweedie deviance at ``power``; see :func:`scorekit.mean_tweedie_deviance`."""
        return one_output_loss(self._losses(), "tweedie", "mean_tweedie_deviance")

    def mean_pinball_loss(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Mean pinball loss at ``alpha``; see :func:`scorekit.mean_pinball_loss`."""
        return mean_loss(self._losses(), "pinball", multioutput)  # type: ignore[no-any-return]

    def smape(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Symmetric MAPE (torchmetrics); see :func:`scorekit.smape`."""
        return mean_loss(self._losses(), "smape", multioutput)  # type: ignore[no-any-return]

    def wmape(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Weighted MAPE (torchmetrics); see :func:`scorekit.wmape`."""
        return wmape_of(self._losses(), multioutput)  # type: ignore[no-any-return]

    def pearson(self, *, multioutput: Any = "uniform_average") -> float | FloatArray:
        """Pearson's correlation; see :func:`scorekit.pearson`."""
        return pearson_of(self._losses(), multioutput)  # type: ignore[no-any-return]

    def concordance_correlation(
        self, *, bias: bool = False, multioutput: Any = "uniform_average"
    ) -> float | FloatArray:
        """Lin's concordance correlation; see :func:`scorekit.concordance_correlation`."""
        return concordance_of(self._losses(), multioutput, bool(bias))  # type: ignore[no-any-return]

    def _state_to_dict(self) -> dict[str, Any]:
        s = self._state()
        if s is None:
            return {"losses": None}
        sums = {
            name: None if v is None else [encode_sum(x) for x in v] for name, v in s.sums.items()
        }
        return {
            "losses": {
                "n": s.n,
                "n_outputs": s.n_outputs,
                "weight": encode_sum(s.weight),
                "sums": sums,
                "errors": dict(s.errors),
            }
        }

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        m = Fields(d, "state", ("losses",)).raw("losses")
        if m is None:
            return
        try:
            if set(m) != {"n", "n_outputs", "weight", "sums", "errors"}:
                raise StateError(f"state.losses has the wrong keys: {sorted(map(str, m))}")
            k = int(m["n_outputs"])
            sums = {
                name: None
                if m["sums"][name] is None
                else tuple(decode_sum(x) for x in m["sums"][name])
                for name in (*LOSS_SUMS, *MOMENT_SUMS)
            }
            bad = [n for n, v in sums.items() if v is not None and len(v) != k]
            errors = {str(a): str(b) for a, b in m["errors"].items()}
            missing = [n for n, v in sums.items() if v is None and n not in errors]
            state = LossState(int(m["n"]), k, decode_sum(m["weight"]), sums, errors)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise StateError(f"state.losses is malformed: {exc!r}") from exc
        if bad or missing or state.n < 0 or k < 1 or set(errors) - set(sums):
            raise StateError(f"state.losses is inconsistent (sums {bad + missing}, n={state.n})")
        self._pending.replace(state)
