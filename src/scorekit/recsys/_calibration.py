"""CTR calibration: PCOC (predicted over observed clicks) and normalized entropy.

One family of sufficient statistics per group (or for all rows): the weight,
the observed positives Σw·y, the predicted positives Σw·p and the log loss
Σw·ℓ. Kernels for streaming and Dask: :func:`_calibration_from_chunk`,
:func:`_merge_calibration` (sums; exact for unit weights apart from the
floating-point log loss), :func:`_pcoc_from_state` and :func:`_ne_from_state`.
For all rows (no groups) the four sums are exact (:mod:`scorekit._exactsum`:
integers in units of 2**-1074, rounded once): :func:`_calibration_sums` is the
chunk kernel of ``stream.Calibration`` and of the one-shot functions alike, so
a streamed value equals the one-shot value bit for bit, however the rows were
chunked.

Reliability curves and the expected calibration error belong to
``scorekit.classification`` (``calibration_curve``, ``expected_calibration_error``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._codes import distinct, encode
from .._errors import LabelError, ParameterError
from .._exactsum import ExactSum, ExactSums, to_float
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray, IntArray
from .._validation import (
    binary_target,
    check_probabilities,
    checked_rows,
    labels_1d,
    scores_1d,
    undefined,
)
from ..classification._proba import _row_log_loss
from ._gauc import _GroupTable

__all__ = ["GroupCalibrationTable", "normalized_entropy", "pcoc", "pcoc_by_group"]


@dataclass(frozen=True, slots=True, eq=False)
class CalibrationState:
    """Sums per group: weight, observed Σw·y, predicted Σw·p and log loss Σw·ℓ.

    ``groups`` holds the sorted group labels, or ``None`` for one group of
    every row (then each array has one entry).
    """

    groups: AnyArray | None
    weight: FloatArray
    observed: FloatArray
    predicted: FloatArray
    loss: FloatArray


@dataclass(frozen=True, slots=True, eq=False)
class GroupCalibrationTable(_GroupTable):
    """One row per group (sorted): ``group, n, observed, predicted, pcoc, normalized_entropy``.

    ``n`` is the row count (weight sum with ``sample_weight``), ``observed``
    the clicks Σy and ``predicted`` the expected clicks Σp. ``pcoc`` is
    ``nan`` for a group without clicks, ``normalized_entropy`` for a group
    with one class only (no warning: the counts say why).
    """

    group: AnyArray
    n: FloatArray
    observed: FloatArray
    predicted: FloatArray
    pcoc: FloatArray
    normalized_entropy: FloatArray


# --------------------------------------------------------------------------- kernels


def _sum_by(codes: IntArray, values: FloatArray, n_codes: int) -> FloatArray:
    return np.bincount(codes, values, minlength=n_codes).astype(np.float64, copy=False)


def _calibration_from_chunk(
    y: BoolArray,
    p: FloatArray,
    w: FloatArray | None,
    g_codes: IntArray | None = None,
    groups: AnyArray | None = None,
) -> CalibrationState:
    """Rows -> :class:`CalibrationState`.

    With ``g_codes`` (labels ``groups[c]``, sorted) one entry per group that
    has rows, else one entry for all rows.
    """
    if g_codes is None:
        return _state_from_sums(_calibration_sums(y, p, w))
    wt, yf, p, loss = _row_terms(y, p, w)
    n_codes = int(g_codes.max()) + 1 if g_codes.size else 0
    count = np.bincount(g_codes, minlength=n_codes)
    present = np.flatnonzero(count)
    sums = [_sum_by(g_codes, v, n_codes)[present] for v in (wt, yf, p, loss)]
    labels = present if groups is None else np.asarray(groups)[present]
    return CalibrationState(labels, *sums)


def _row_terms(
    y: BoolArray, p: FloatArray, w: FloatArray | None
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per row: w, w·y, w·p and w·ℓ (ℓ the clipped log loss of the row)."""
    loss = _row_log_loss(y, p)
    yf = y.astype(np.float64)
    if w is not None:
        yf, p, loss = w * yf, w * p, w * loss
    wt = np.ones(y.size) if w is None else w
    return wt, yf, p, loss


def _calibration_sums(y: BoolArray, p: FloatArray, w: FloatArray | None) -> list[ExactSum]:
    """Exact Σw, Σw·y, Σw·p, Σw·ℓ of the rows (integers in units of 2**-1074)."""
    acc = ExactSums(4)
    with np.errstate(invalid="ignore"):
        for slot, terms in enumerate(_row_terms(y, p, w)):
            acc.add(slot, np.ascontiguousarray(terms, dtype=np.float64))
    return acc.result()


def _state_from_sums(sums: list[ExactSum]) -> CalibrationState:
    """The one-entry :class:`CalibrationState` of exact sums, each rounded once."""
    weight, observed, predicted, loss = (np.array([to_float(v)]) for v in sums)
    return CalibrationState(None, weight, observed, predicted, loss)


def _merge_calibration(a: CalibrationState, b: CalibrationState) -> CalibrationState:
    """State ⊕ state: sums added (groups matched by label)."""
    if a.groups is None or b.groups is None:
        if a.groups is not None or b.groups is not None:
            raise LabelError("cannot merge a grouped calibration state with an ungrouped one")
        return CalibrationState(
            None,
            a.weight + b.weight,
            a.observed + b.observed,
            a.predicted + b.predicted,
            a.loss + b.loss,
        )
    if (
        (a.groups.dtype.kind in "USO") != (b.groups.dtype.kind in "USO")
        and a.groups.size
        and b.groups.size
    ):
        raise LabelError("cannot merge calibration states whose group ids mix strings and numbers")
    labels, inv = np.unique(np.concatenate([a.groups, b.groups]), return_inverse=True)
    inv = inv.reshape(-1)
    fields = ("weight", "observed", "predicted", "loss")
    sums = [
        _sum_by(inv, np.concatenate([getattr(a, f), getattr(b, f)]), labels.size) for f in fields
    ]
    return CalibrationState(labels, *sums)


def _pcoc_from_state(state: CalibrationState) -> FloatArray:
    """Σw·p / Σw·y per entry; ``nan`` where there is no positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(state.observed > 0, state.predicted / state.observed, np.nan)


def _ne_from_state(state: CalibrationState) -> FloatArray:
    """Mean log loss / entropy of the base rate per entry; ``nan`` where one class only."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = state.observed / state.weight
        defined = (rate > 0) & (rate < 1)
        r = np.where(defined, rate, 0.5)
        entropy = -(r * np.log(r) + (1 - r) * np.log1p(-r))
        return np.where(defined, state.loss / state.weight / entropy, np.nan)


# --------------------------------------------------------------------------- public


def _inputs(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    sample_weight: ArrayLike | None,
    nan_policy: str,
    groups: ArrayLike | None = None,
) -> tuple[BoolArray, FloatArray, FloatArray | None, AnyArray | None]:
    labels = labels_1d(y_true, "y_true")
    p = scores_1d(y_prob, "y_prob")
    g = None if groups is None else labels_1d(groups, "groups")
    labels, p, g, w = checked_rows(
        nan_policy, sample_weight, ("y_prob",), y_true=labels, y_prob=p, groups=g
    )
    check_probabilities(p, "y_prob")
    y = binary_target(labels, None, "y_true", classes=distinct(labels))
    return y, p, w, g


def pcoc(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Predicted clicks over observed clicks: 1.0 is calibrated.

    .. math:: \mathrm{PCOC} = \sum_i w_i p_i \Big/ \sum_i w_i y_i

    Above 1 the model over-predicts the click rate, below 1 it under-predicts.
    For PCOC by segment (user, country, ...) see :func:`pcoc_by_group`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels in {0, 1}, {-1, 1} or bool.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of a positive, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    float
        ``nan`` with ``UndefinedMetricWarning`` when there is no positive.

    Examples
    --------
    2 clicks observed, 0.9 + 0.6 + 0.3 + 0.2 = 2.0 predicted:

    >>> pcoc([1, 1, 0, 0], [0.9, 0.6, 0.3, 0.2])
    1.0
    >>> pcoc([1, 0, 0, 0], [0.5, 0.5, 0.25, 0.25])
    1.5
    """
    y, p, w, _ = _inputs(y_true, y_prob, sample_weight, nan_policy)
    state = _calibration_from_chunk(y, p, w)
    if state.observed[0] <= 0:
        return undefined("pcoc", "y_true has no positive (observed clicks are 0)")
    return float(_pcoc_from_state(state)[0])


def normalized_entropy(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
    recalibration: float | None = None,
) -> float:
    r"""Log loss divided by the entropy of the base rate (He et al., 2014).

    .. math:: \mathrm{NE} = \frac{-\frac1W \sum_i w_i \big(y_i \log p_i + (1-y_i)\log(1-p_i)\big)}
              {-\big(\bar y \log \bar y + (1-\bar y)\log(1-\bar y)\big)},
              \quad \bar y = \frac{\sum_i w_i y_i}{W}

    He et al., "Practical lessons from predicting clicks on ads at Facebook"
    (ADKDD 2014), §2: lower is better; 1 is no better than always predicting
    the base rate ȳ. Probabilities are clipped to [eps, 1 − eps] as in
    scikit-learn's ``log_loss`` (natural logarithms; the ratio does not
    depend on the base). ``recalibration=c`` gives TorchRec's recalibrated NE:
    every probability is first mapped to :math:`p / (p + (1 - p) / c)` (the
    odds multiplied by c, as a model recalibrated for negative downsampling
    at rate 1/c would predict).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels in {0, 1}, {-1, 1} or bool.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of a positive, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    nan_policy : {"raise", "omit"}, default="raise"
    recalibration : float, default=None
        TorchRec's recalibration coefficient c > 0 (None: the probabilities as given).

    Returns
    -------
    float
        ``nan`` with ``UndefinedMetricWarning`` when only one class is present.

    Examples
    --------
    Base rate 1/2 (entropy log 2); predicting 1/2 everywhere has log loss log 2:

    >>> normalized_entropy([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5])
    1.0

    Recalibrated by c = 3, 1/4 becomes 1/2 (odds 1/3 times 3):

    >>> normalized_entropy([1, 0, 1, 0], [0.25, 0.25, 0.25, 0.25], recalibration=3.0)
    1.0
    """
    y, p, w, _ = _inputs(y_true, y_prob, sample_weight, nan_policy)
    if recalibration is not None:
        p = _recalibrate(p, recalibration)
    state = _calibration_from_chunk(y, p, w)
    value = float(_ne_from_state(state)[0])
    if np.isnan(value):
        return undefined("normalized_entropy", "y_true has one class only (base-rate entropy 0)")
    return value


def _recalibrate(p: FloatArray, c: Any) -> FloatArray:
    """TorchRec's ``p / (p + (1 - p) / c)``: the odds multiplied by ``c``."""
    if isinstance(c, bool) or not isinstance(c, (int, float, np.integer, np.floating)) or not c > 0:
        raise ParameterError(f"recalibration must be a number > 0, got {c!r}")
    out: FloatArray = p / (p + (1.0 - p) / float(c))
    return out


def pcoc_by_group(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    groups: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> GroupCalibrationTable:
    """PCOC and normalized entropy of each segment (calibration by group).

    Each group gets :func:`pcoc` and :func:`normalized_entropy` of its own
    rows; ``nan`` (no warning) where a group has no click, or one class only.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_prob : array-like of shape (n_samples,)
    groups : array-like of shape (n_samples,)
        Segment of each row: ints or strings.
    sample_weight : array-like of shape (n_samples,), default=None
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    GroupCalibrationTable
        ``group, n, observed, predicted, pcoc, normalized_entropy``, groups sorted.

    Examples
    --------
    >>> t = pcoc_by_group([1, 0, 1, 1], [0.5, 0.5, 0.9, 0.6], ["a", "a", "b", "b"])
    >>> t.group.tolist(), t.predicted.tolist(), t.pcoc.tolist()
    (['a', 'b'], [1.0, 1.5], [1.0, 0.75])
    """
    y, p, w, g = _inputs(y_true, y_prob, sample_weight, nan_policy, groups)
    labels, codes = encode(cast(AnyArray, g), gaps=True)  # groups were given: not None
    state = _calibration_from_chunk(y, p, w, codes, labels)
    return GroupCalibrationTable(
        cast(AnyArray, state.groups),
        state.weight,
        state.observed,
        state.predicted,
        _pcoc_from_state(state),
        _ne_from_state(state),
    )
