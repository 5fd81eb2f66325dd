"""``Calibration``: the streaming front end of PCOC and normalized entropy.

The state is four exact sums (:mod:`scorekit._exactsum`): Σw, Σw·y, Σw·p and
Σw·ℓ (ℓ the clipped log loss of a row). Chunks go through
``_calibration_sums``, the one-shot functions' own kernel; states merge by
integer addition, and the values are ``_pcoc_from_state`` and
``_ne_from_state`` of the sums rounded once, so results equal
:func:`scorekit.pcoc` and :func:`scorekit.normalized_entropy` bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import EmptyInputError
from .._exactsum import ExactSum, add_sums, encode_sum
from .._typing import ArrayLike
from .._validation import check_option, undefined
from ..recsys._calibration import (
    _calibration_sums,
    _inputs,
    _ne_from_state,
    _pcoc_from_state,
    _recalibrate,
    _state_from_sums,
)
from ._base import Accumulator, plain
from ._labels import empty_chunk
from ._statecheck import Fields

__all__ = ["Calibration"]

_SUMS = ("weight", "observed", "predicted", "loss")


class Calibration(Accumulator):
    r"""Streaming CTR calibration: PCOC, normalized entropy and the calibration counts.

    Holds four exact sums, Σw, Σw·y (observed clicks), Σw·p (predicted
    clicks) and Σw·ℓ (log loss, probabilities clipped as in
    :func:`scorekit.log_loss`): memory does not grow with rows. Merging adds
    integers, so :meth:`pcoc` and :meth:`normalized_entropy` equal
    :func:`scorekit.pcoc` and :func:`scorekit.normalized_entropy` on all rows
    seen bit for bit, with or without weights, however the rows were chunked.

    Parameters
    ----------
    recalibration : float, default=None
        TorchRec's recalibration coefficient ``c > 0`` applied to every
        probability before the sums (as :func:`scorekit.normalized_entropy`);
        PCOC then compares the recalibrated probabilities.
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    >>> acc = Calibration().update([1, 0], [0.5, 0.5]).update([0, 0], [0.25, 0.25])
    >>> acc.pcoc(), acc.counts()["predicted"]  # 1.5 predicted clicks for 1 observed
    (1.5, 1.5)
    """

    _kind = "Calibration"

    def __init__(self, *, recalibration: float | None = None, nan_policy: str = "raise") -> None:
        super().__init__()
        check_option(nan_policy, "nan_policy", ("raise", "omit"))
        if recalibration is not None:
            _recalibrate(np.zeros(0), recalibration)  # checks c > 0
            recalibration = float(recalibration)
        self.recalibration = recalibration
        self.nan_policy = nan_policy

    def _merge_state(self, a: list[ExactSum], b: list[ExactSum]) -> list[ExactSum]:
        return [add_sums(x, y) for x, y in zip(a, b, strict=True)]

    def _state_size(self, state: list[ExactSum]) -> int:
        return 1

    def _params(self) -> dict[str, Any]:
        return {"recalibration": plain(self.recalibration), "nan_policy": self.nan_policy}

    def update(
        self, y_true: ArrayLike, y_prob: ArrayLike, *, sample_weight: ArrayLike | None = None
    ) -> Calibration:
        """Add a chunk (arguments as :func:`scorekit.pcoc`); returns self."""
        if empty_chunk(y_true, y_prob, sample_weight):
            return self
        y, p, w, _ = _inputs(y_true, y_prob, sample_weight, self.nan_policy)
        if self.recalibration is not None:
            p = _recalibrate(p, self.recalibration)
        if y.size:
            self._pending.push(_calibration_sums(y, p, w))
        return self

    def _sums(self) -> list[ExactSum]:
        state = self._state()
        if state is None:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        sums: list[ExactSum] = state
        return sums

    def counts(self) -> dict[str, float]:
        """``{"n", "observed", "predicted", "loss"}``: Σw, Σw·y, Σw·p and Σw·ℓ, each rounded once."""
        s = _state_from_sums(self._sums())
        return {
            "n": float(s.weight[0]),
            "observed": float(s.observed[0]),
            "predicted": float(s.predicted[0]),
            "loss": float(s.loss[0]),
        }

    def pcoc(self) -> float:
        """Σw·p / Σw·y; see :func:`scorekit.pcoc` (``nan`` with a warning without a click)."""
        state = _state_from_sums(self._sums())
        if state.observed[0] <= 0:
            return undefined("pcoc", "y_true has no positive (observed clicks are 0)")
        return float(_pcoc_from_state(state)[0])

    def normalized_entropy(self) -> float:
        """Mean log loss over the base-rate entropy; see :func:`scorekit.normalized_entropy`."""
        value = float(_ne_from_state(_state_from_sums(self._sums()))[0])
        if np.isnan(value):
            return undefined(
                "normalized_entropy", "y_true has one class only (base-rate entropy 0)"
            )
        return value

    def _state_to_dict(self) -> dict[str, Any]:
        state = self._state()
        return {
            "sums": None if state is None else dict(zip(_SUMS, map(encode_sum, state), strict=True))
        }

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        f = Fields(d, "state", ("sums",))
        sums = f.sub("sums", _SUMS, optional=True)
        if sums is None:
            return
        weight, observed, predicted, loss = (sums.exact_sum(k, nonneg=True) for k in _SUMS)
        if observed > weight or predicted > weight:
            name = "observed" if observed > weight else "predicted"
            raise sums.fail(name, "exceeds the weight (y and p are in [0, 1])")
        self._pending.replace([weight, observed, predicted, loss])
