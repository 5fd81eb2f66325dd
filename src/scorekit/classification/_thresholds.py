"""The threshold table: confusion counts and rates at each decision threshold, from the sorted curve."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

from .._errors import NonFiniteError
from .._optional import require
from .._typing import AnyArray, ArrayLike, FloatArray
from .._validation import scores_1d
from ._curve_kernel import CurveState, curve_from_chunk
from ._curves import _binary_inputs

__all__ = ["ThresholdTable", "threshold_table"]


@dataclass(frozen=True)
class ThresholdTable:
    """One row per threshold: ``threshold, tp, fp, tn, fn, tpr, fpr, precision, f1``.

    Counts are (weighted) sums; a ratio whose denominator is 0 holds the
    table's ``zero_division`` value (``nan`` by default). ``len(table)`` is the
    number of rows; ``to_dict()`` gives ``{column: list}``, ``to_pandas()`` a
    DataFrame, ``to_numpy()`` a structured array.
    """

    threshold: FloatArray
    tp: FloatArray
    fp: FloatArray
    tn: FloatArray
    fn: FloatArray
    tpr: FloatArray
    fpr: FloatArray
    precision: FloatArray
    f1: FloatArray

    columns: ClassVar[tuple[str, ...]] = (
        "threshold",
        "tp",
        "fp",
        "tn",
        "fn",
        "tpr",
        "fpr",
        "precision",
        "f1",
    )

    def __len__(self) -> int:
        return int(self.threshold.size)

    def to_dict(self) -> dict[str, list[float]]:
        """``{column: list of floats}`` (JSON-safe except for ``nan``/``inf`` values)."""
        return {f.name: getattr(self, f.name).tolist() for f in fields(self)}

    def to_numpy(self) -> AnyArray:
        """A structured array with one float64 field per column."""
        out = np.empty(len(self), dtype=[(c, np.float64) for c in self.columns])
        for c in self.columns:
            out[c] = getattr(self, c)
        return out

    def to_pandas(self) -> Any:
        """A pandas DataFrame with the columns in order (needs pandas: ``scorekit[io]``)."""
        pd = require("pandas", pip="pandas")
        return pd.DataFrame({c: getattr(self, c) for c in self.columns})


def _ratio(num: FloatArray, den: FloatArray, zero_division: float) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = num / den
    zero = den == 0
    if zero.any():
        out[zero] = float(zero_division)
    return out


def _over(num: FloatArray, total: float, zero_division: float) -> FloatArray:
    """``num / total`` for a scalar total (``zero_division`` everywhere when it is 0)."""
    if total == 0:
        return np.full(num.shape, float(zero_division))
    out: FloatArray = num / total
    return out


def _threshold_table_from_curve(
    c: CurveState, thresholds: FloatArray | None = None, zero_division: float = float("nan")
) -> ThresholdTable:
    """The table from a :class:`CurveState`; ``None`` thresholds = every distinct score, decreasing."""
    tp_all, fp_all = np.r_[0.0, np.cumsum(c.pos)], np.r_[0.0, np.cumsum(c.neg)]
    if thresholds is None:
        thr, at = c.scores.copy(), np.arange(1, c.scores.size + 1)
    else:
        # rows scoring >= t: the distinct scores before the first one below t
        thr, at = thresholds, c.scores.size - np.searchsorted(c.scores[::-1], thresholds, "left")
    tp, fp = tp_all[at], fp_all[at]
    n_pos, n_neg = tp_all[-1], fp_all[-1]
    fn, tn = n_pos - tp, n_neg - fp
    return ThresholdTable(
        threshold=thr,
        tp=tp,
        fp=fp,
        tn=tn,
        fn=fn,
        tpr=_over(tp, float(n_pos), zero_division),
        fpr=_over(fp, float(n_neg), zero_division),
        precision=_ratio(tp, tp + fp, zero_division),
        f1=_ratio(2 * tp, 2 * tp + fp + fn, zero_division),
    )


def threshold_table(
    y_true: ArrayLike,
    y_score: ArrayLike,
    thresholds: ArrayLike | None = None,
    *,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    zero_division: float = float("nan"),
    nan_policy: str = "raise",
) -> ThresholdTable:
    """Confusion counts and rates at each threshold; a score >= the threshold counts as positive.

    ``thresholds=None`` gives one row per distinct score, in decreasing order
    (the points of :func:`roc_curve` without its ``+inf`` row); otherwise one
    row per given threshold, in the order given (``±inf`` allowed). Columns:
    ``tp, fp, tn, fn`` (weighted counts), ``tpr = tp/P``, ``fpr = fp/N``,
    ``precision = tp/(tp+fp)``, ``f1 = 2tp/(2tp+fp+fn)``; 0/0 gives
    ``zero_division`` (``nan`` by default, no warning).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    thresholds : array-like, default=None
        The thresholds (default: every distinct score).
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    >>> t = threshold_table([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.5, 0.3])
    >>> t.tp.tolist(), t.fp.tolist(), t.precision.round(4).tolist(), t.f1.round(4).tolist()
    ([1.0, 2.0], [0.0, 1.0], [1.0, 0.6667], [0.6667, 0.8])
    """
    y, s, w = _binary_inputs(y_true, y_score, sample_weight, pos_label, nan_policy)
    thr = _threshold_values(thresholds)
    return _threshold_table_from_curve(curve_from_chunk(y, s, w), thr, zero_division)


def _threshold_values(thresholds: ArrayLike | None) -> FloatArray | None:
    """The ``thresholds=`` argument as 1-D float64 (``None`` passes through); NaN raises."""
    if thresholds is None:
        return None
    thr = scores_1d(thresholds, "thresholds")
    if np.isnan(thr).any():
        raise NonFiniteError(f"thresholds contains {int(np.isnan(thr).sum())} NaN values")
    return thr
