"""Mergeable state of the loss and correlation metrics: chunk -> state, merge, state -> value.

:class:`LossState` holds, per output, the exact sums behind MSLE/RMSLE, the
Poisson, gamma and one chosen Tweedie deviance, the pinball loss at one
``alpha``, SMAPE, WMAPE, and the moment sums of Pearson's and Lin's
correlations; each is built by the one-shot functions' own kernels
(:func:`~scorekit.regression._losses.loss_sums`, ``correlation_sums``), states
merge by exact addition, and the values are the one-shot functions' final steps
on the sums — so streamed values equal one-shot values bit for bit. A chunk
outside a metric's domain (``y <= -1`` for MSLE, ``ŷ <= 0`` for a deviance)
leaves that metric unavailable: asking for it raises the chunk's
:class:`~scorekit.DomainError`, the other metrics are unaffected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import DomainError, EmptyInputError, ShapeError
from .._exactsum import ExactSum, add_sums
from .._typing import FloatArray
from .._validation import zero_weight_error
from ._correlation import Moments, concordance_from_sums, correlation_sums, pearson_from_sums
from ._inputs import average_outputs, output_weights
from ._losses import (
    log_error_values,
    loss_sums,
    mean_of_sums,
    pinball_values,
    smape_values,
    tweedie_values,
    wmape_from_sums,
    wmape_sums,
)

__all__: list[str] = []

#: The sums of a state; a value of None marks a metric whose domain a chunk left.
LOSS_SUMS = ("log", "poisson", "gamma", "tweedie", "pinball", "smape", "abs_err", "abs_true")
MOMENT_SUMS = ("sx", "sy", "sxx", "syy", "sxy")
Sums = tuple[ExactSum, ...] | None


@dataclass(frozen=True, slots=True)
class LossState:
    """Exact sums per output (see the module docstring); ``errors`` names the domain failures."""

    n: int
    n_outputs: int
    weight: ExactSum
    sums: dict[str, Sums]
    errors: dict[str, str] = field(default_factory=dict)


def loss_state(
    y: FloatArray, p: FloatArray, w: FloatArray | None, power: float, alpha: float
) -> LossState:
    """State of one validated chunk (2-D ``y``, ``p``; 1-D ``w`` or None)."""
    sums: dict[str, Sums] = {}
    errors: dict[str, str] = {}

    def attempt(name: str, values: Callable[[], FloatArray]) -> None:
        try:
            v = values()
        except DomainError as exc:
            sums[name], errors[name] = None, str(exc)
            return
        sums[name] = tuple(loss_sums(v, w)[0])

    attempt("log", lambda: log_error_values(y, p))
    attempt("poisson", lambda: tweedie_values(y, p, 1.0))
    attempt("gamma", lambda: tweedie_values(y, p, 2.0))
    attempt("tweedie", lambda: tweedie_values(y, p, power))
    attempt("pinball", lambda: pinball_values(y, p, alpha))
    attempt("smape", lambda: smape_values(y, p))
    err, act = wmape_sums(y, p, w)
    sums["abs_err"], sums["abs_true"] = tuple(err), tuple(act)
    moments = correlation_sums(y, p, w)
    for name, value in zip(MOMENT_SUMS, moments[1:], strict=True):
        sums[name] = tuple(value)
    return LossState(y.shape[0], y.shape[1], moments[0], sums, errors)


def merge_losses(a: LossState, b: LossState) -> LossState:
    """Exact sum of two states (a metric unavailable in either stays unavailable)."""
    if a.n_outputs != b.n_outputs:
        raise ShapeError(f"cannot merge states with {a.n_outputs} and {b.n_outputs} outputs")
    sums: dict[str, Sums] = {}
    for name in (*LOSS_SUMS, *MOMENT_SUMS):
        x, y = a.sums[name], b.sums[name]
        sums[name] = (
            None
            if x is None or y is None
            else tuple(add_sums(u, v) for u, v in zip(x, y, strict=True))
        )
    return LossState(
        a.n + b.n, a.n_outputs, add_sums(a.weight, b.weight), sums, {**b.errors, **a.errors}
    )


def _sums(s: LossState, name: str) -> list[ExactSum]:
    if s.n == 0:
        raise EmptyInputError("no rows were seen; at least one sample is needed")
    values = s.sums[name]
    if values is None:
        raise DomainError(s.errors[name])
    return list(values)


def mean_loss(s: LossState, name: str, multioutput: Any, root: bool = False) -> Any:
    """The weighted mean of a loss per output (its root with ``root``), combined."""
    weights = output_weights(multioutput, s.n_outputs)
    means = mean_of_sums(_sums(s, name), s.weight)
    return average_outputs(np.sqrt(means) if root else means, weights)


def one_output_loss(s: LossState, name: str, metric: str) -> float:
    """A single-output loss (the deviances)."""
    if s.n_outputs != 1:
        raise ShapeError(f"{metric} supports a single output; got {s.n_outputs} outputs")
    return float(mean_of_sums(_sums(s, name), s.weight)[0])


def wmape_of(s: LossState, multioutput: Any) -> Any:
    """WMAPE from the exact sums."""
    weights = output_weights(multioutput, s.n_outputs)
    return average_outputs(wmape_from_sums(_sums(s, "abs_err"), _sums(s, "abs_true")), weights)


def _moments(s: LossState) -> Moments:
    parts = [_sums(s, name) for name in MOMENT_SUMS]
    if not (isinstance(s.weight, float) or s.weight > 0):
        raise zero_weight_error()
    return s.weight, parts[0], parts[1], parts[2], parts[3], parts[4]


def pearson_of(s: LossState, multioutput: Any) -> Any:
    """Pearson's r from the exact moment sums."""
    weights = output_weights(multioutput, s.n_outputs)
    return average_outputs(pearson_from_sums(_moments(s)), weights)


def concordance_of(s: LossState, multioutput: Any, bias: bool) -> Any:
    """Lin's concordance from the exact moment sums."""
    weights = output_weights(multioutput, s.n_outputs)
    return average_outputs(concordance_from_sums(_moments(s), bias=bias), weights)
