r"""``BinaryCurve``: the streaming front end of the binary score metrics (AUC, AP, curves, KS, log loss).

The state is :class:`~scorekit.classification._curve_kernel.CurveState`, the table
of distinct scores with the positive and negative weight at each; chunks go
through ``curve_from_chunk``, states merge with ``merge_curves`` and every
metric is the one-shot function's ``*_from_curve`` kernel, so results equal
the one-shot functions on the concatenated rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codes import distinct
from .._errors import EmptyInputError, LabelError, ParameterError
from .._typing import AnyArray, ArrayLike, FloatArray
from .._validation import check_count, check_option, check_probabilities, labels_1d
from ..classification._calibration import (
    CalibrationBins,
    _curve_from_bins,
    calibration_bins_from_curve,
    calibration_edges_from_curve,
)
from ..classification._code_counts import TABLE_CODES, CodeTable
from ..classification._curve_exact import encode_exact
from ..classification._curve_kernel import (
    CurveState,
    ap_from_curve,
    auc_from_curve,
    bep_from_curve,
    curve_from_chunk,
    ks_from_curve,
    merge_curves,
    partial_auc_from_curve,
    pr_from_curve,
    rank_loss_from_curve,
    roc_from_curve,
)
from ..classification._curves import _binary_inputs
from ..classification._operating import (
    OperatingPoint,
    _rate,
    det_curve_from_curve,
    equal_error_rate_from_curve,
    pr_auc_from_curve,
    precision_at_recall_from_curve,
    recall_at_precision_from_curve,
    sensitivity_at_specificity_from_curve,
    specificity_at_sensitivity_from_curve,
    tpr_at_fpr_from_curve,
)
from ..classification._proba import _binary_log_loss_sums, _log_loss_from_curve
from ..classification._sortkeys import DecimalCodes, decimal_codes
from ..classification._thresholds import (
    ThresholdTable,
    _threshold_table_from_curve,
    _threshold_values,
)
from ._base import Accumulator, encode_array, encode_float, plain
from ._labels import check_binary_classes, empty_chunk, union_classes
from ._statecheck import Fields, check_decreasing, check_increasing, check_lengths, exact_part

__all__ = ["BinaryCurve"]

#: Rows of small chunks gathered before one ``curve_from_chunk``: sorting 8M rows at once and
#: merging once costs far less than merging the big table of distinct scores at every chunk.
_BUFFER_ROWS = 1 << 23
#: Unweighted chunks at least this long whose scores are exact decimals are counted into the
#: code table at once (no copy, no sort); smaller ones are gathered first.
_COUNT_ROWS = 1 << 16


class BinaryCurve(Accumulator):
    r"""Streaming binary scorer metrics: ROC AUC, AP, ROC and PR curves, KS, log loss, thresholds.

    Holds the table of distinct scores with the positive and negative weight
    at each (memory grows with the number of distinct scores, not rows; small
    chunks are gathered up to 8M rows before they are sorted into it).
    Unweighted rows whose scores are exact decimals (rounded scores, up to 6
    decimals) are counted into a table of decimal codes instead: one
    ``np.bincount`` and no sort (chunks of 65,536 rows or more are counted at
    once, without a copy).
    ``update(y_true, y_score, sample_weight=...)`` adds a chunk; the metric
    methods equal the one-shot functions (:func:`scorekit.roc_auc`, ...) on
    all rows seen, bit for bit, for any weights, chunking and merge order (the
    weight at each score is summed exactly and rounded once).

    ``bins=N`` is the bounded-memory approximate mode: scores are put in
    ``N`` equal-width bins over ``range`` (the first bin also takes scores
    below it, the last the scores above) and each score is replaced by its
    bin's lower edge ``e_g``, so the state holds at most ``N`` rows. Counts
    at the thresholds ``e_g`` are exact (``roc_curve``, ``threshold_table``);
    pairs inside one bin count as ties, hence (:meth:`error_bounds`)

    .. math:: |\mathrm{AUC}_{bins} - \mathrm{AUC}| \le \frac{\sum_g P_g N_g}{2 P N},
              \qquad 0 \le \mathrm{KS} - \mathrm{KS}_{bins} \le \max_g \frac{P_g}{P}

    with :math:`P_g, N_g` the positive and negative weight of bin ``g``
    (about ``1/(4N)`` and ``1/N`` for scores spread evenly). Average
    precision and the curves are those of the binned scores; log loss is not
    binned (its sum over the rows is kept apart, equal to the one-shot value
    to rounding).

    Parameters
    ----------
    bins : int, default=None
        ``None``: exact. Otherwise the number of bins (>= 1).
    range : (float, float), default=(0.0, 1.0)
        Lowest and highest score of the bins (``bins`` mode only).
    pos_label : int, str or bool, default=None
        The positive class, as in the one-shot functions.
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    Two chunks give the one-shot value, ``roc_auc([0, 0, 1, 1], [.1, .4, .35, .8])``:

    >>> acc = BinaryCurve()
    >>> acc.update([0, 0], [0.1, 0.4]).update([1, 1], [0.35, 0.8]).roc_auc()
    0.75
    """

    _kind = "BinaryCurve"

    def __init__(
        self,
        bins: int | None = None,
        *,
        range: tuple[float, float] = (0.0, 1.0),  # numpy.histogram's name
        pos_label: Any = None,
        nan_policy: str = "raise",
    ) -> None:
        super().__init__()
        check_option(nan_policy, "nan_policy", ("raise", "omit"))
        if bins is not None:
            bins = check_count(bins, "bins")
        lo, hi = (float(v) for v in range)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise ParameterError(f"range={range!r} must be two finite numbers, low < high")
        self.bins = None if bins is None else int(bins)
        self.range = (lo, hi)
        self.pos_label = pos_label
        self.nan_policy = nan_policy
        self._edges: FloatArray | None = None
        if self.bins is not None:
            self._edges = np.linspace(lo, hi, self.bins + 1)[:-1]
        self._classes: AnyArray | None = None
        self._lo = np.inf  # score extremes (log loss needs probabilities)
        self._hi = -np.inf
        self._loss = 0.0  # Σ w·(−log p of the true class), bins mode only
        self._buffer: list[tuple[AnyArray, FloatArray, FloatArray | None]] = []
        self._buffered = 0
        self._table: CodeTable | None = None  # unweighted rows with exact decimal scores

    # -- kernel plumbing ----------------------------------------------------------

    def _merge_state(self, a: CurveState, b: CurveState) -> CurveState:
        return merge_curves(a, b)

    def _state_size(self, state: CurveState) -> int:
        return int(state.scores.size)

    def _params(self) -> dict[str, Any]:
        return {
            "bins": self.bins,
            "range": list(self.range),
            "pos_label": plain(self.pos_label),
            "nan_policy": self.nan_policy,
        }

    def _add_classes(self, classes: AnyArray) -> None:
        union = union_classes(self._classes, classes)
        check_binary_classes(union, self.pos_label)
        self._classes = union

    def update(
        self, y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None
    ) -> BinaryCurve:
        """Add a chunk of rows (arguments as :func:`scorekit.roc_auc`); returns self."""
        if empty_chunk(y_true, y_score, sample_weight):
            return self
        labels = labels_1d(y_true, "y_true")
        y, s, w = _binary_inputs(labels, y_score, sample_weight, self.pos_label, self.nan_policy)
        self._add_classes(distinct(labels))
        if s.size:
            self._lo, self._hi = min(self._lo, float(s.min())), max(self._hi, float(s.max()))
        if self._edges is not None:
            self._loss += _binary_log_loss_sums(y, s, w)[0]
            where = np.searchsorted(self._edges, s, side="right") - 1
            s = self._edges[np.maximum(where, 0)]
        if self._buffer and (self._buffer[0][2] is None) != (w is None):
            self._drain_buffer()
        if w is None and self._edges is None and y.size >= _COUNT_ROWS:
            dc = decimal_codes(s)
            if dc is not None and self._count(y, dc):
                return self
        if y.size >= _BUFFER_ROWS:
            self._drain_buffer()
            self._pending.push(curve_from_chunk(y, s, w))
            return self
        # copies: the caller may reuse its arrays once update() returns
        self._buffer.append((y.copy(), s.copy(), None if w is None else w.copy()))
        self._buffered += y.size
        if self._buffered >= _BUFFER_ROWS:
            self._drain_buffer()
        return self

    def _count(self, y: AnyArray, dc: DecimalCodes) -> bool:
        """Add unweighted rows to the code table; False if their codes span too many values."""
        if self._table is not None and self._table.add(y, dc):
            return True
        if dc.size > TABLE_CODES:
            return False
        self._push_table()
        self._table = CodeTable.start(y, dc)
        return True

    def _push_table(self) -> None:
        if self._table is not None:
            table, self._table = self._table, None
            self._pending.push(table.curve())

    def _flush(self) -> None:
        """Sort the buffered rows (and the code table) into curves pushed on the merge stack."""
        self._drain_buffer()
        self._push_table()

    def _drain_buffer(self) -> None:
        if not self._buffer:
            return
        parts, self._buffer, self._buffered = self._buffer, [], 0
        if len(parts) == 1:
            y, s, w = parts[0]
        else:
            y, s = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
            weights = [p[2] for p in parts if p[2] is not None]  # all or none (see update)
            w = np.concatenate(weights) if weights else None
        if w is None and self._edges is None:
            dc = decimal_codes(s)
            if dc is not None and self._count(y, dc):
                return
        self._pending.push(curve_from_chunk(y, s, w))

    def _absorb(self, other: Any) -> None:
        if other._classes is not None:
            self._add_classes(other._classes)
        self._lo, self._hi = min(self._lo, other._lo), max(self._hi, other._hi)
        self._loss += other._loss
        super()._absorb(other)

    def _curve(self) -> CurveState:
        state = self._state()
        if state is None:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        c: CurveState = state
        return c

    @property
    def n_distinct(self) -> int:
        """Rows of the score table (distinct scores, or non-empty bins)."""
        state = self._state()
        return 0 if state is None else int(state.scores.size)

    # -- metrics ------------------------------------------------------------------

    def roc_auc(self, *, max_fpr: float | None = None) -> float:
        """ROC AUC of the rows seen, ties one half; see :func:`scorekit.roc_auc`.

        ``max_fpr`` gives the McClish-standardised partial AUC, as the one-shot function.
        """
        c = self._curve()
        if max_fpr is not None and not 0 < max_fpr <= 1:
            raise ParameterError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
        if max_fpr is None or max_fpr == 1:
            return auc_from_curve(c)
        return partial_auc_from_curve(c, max_fpr)

    def gini(self) -> float:
        """2·AUC − 1; see :func:`scorekit.gini`."""
        return 2 * auc_from_curve(self._curve()) - 1

    def rank_loss(self) -> float:
        """Share of (positive, negative) pairs ordered wrongly; see :func:`scorekit.rank_loss`."""
        return rank_loss_from_curve(self._curve())

    def average_precision(self) -> float:
        """Average precision; see :func:`scorekit.average_precision`."""
        return ap_from_curve(self._curve())

    def roc_curve(
        self, *, drop_intermediate: bool = False
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """``(fpr, tpr, thresholds)``; see :func:`scorekit.roc_curve`."""
        return roc_from_curve(self._curve(), drop_intermediate=drop_intermediate)

    def precision_recall_curve(
        self, *, drop_intermediate: bool = False
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """``(precision, recall, thresholds)``; see :func:`scorekit.precision_recall_curve`."""
        return pr_from_curve(self._curve(), drop_intermediate=drop_intermediate)

    def ks_statistic(self) -> float:
        """max(TPR − FPR) over thresholds; see :func:`scorekit.ks_statistic`."""
        return ks_from_curve(self._curve())

    def break_even_point(self) -> float:
        """Precision where precision = recall; see :func:`scorekit.break_even_point`."""
        return bep_from_curve(self._curve())

    def threshold_table(
        self, thresholds: ArrayLike | None = None, *, zero_division: float = float("nan")
    ) -> ThresholdTable:
        """Counts and rates at each threshold; see :func:`scorekit.threshold_table`."""
        c = self._curve()
        return _threshold_table_from_curve(c, _threshold_values(thresholds), zero_division)

    def log_loss(self) -> float:
        """Binary log loss of the scores read as P(positive); see :func:`scorekit.log_loss`.

        Bit-identical to the one-shot value for integer (and unit) weights: both
        sum the same fixed-point integers (see ``classification._proba``). In
        ``bins`` mode the loss is summed over the rows apart from the bins, equal
        to rounding. As the one-shot function, scores outside [0, 1] and a single
        class raise.
        """
        c = self._curve()
        check_probabilities(np.array([self._lo, self._hi]), "y_score")
        classes = self._classes
        if classes is None or classes.size < 2:
            shown = [] if classes is None else classes.tolist()
            raise LabelError(f"y_true has only one class ({shown}); log loss needs both classes")
        if self._edges is None:
            return _log_loss_from_curve(c)
        return float(self._loss / (c.pos.sum() + c.neg.sum()))

    def score_quantiles(self, q: ArrayLike) -> FloatArray:
        """Scores at the quantiles ``q`` (``np.quantile(..., method="inverted_cdf")`` of the rows).

        Read off the score table (each score weighted by its rows' total weight):
        the smallest score whose cumulative share reaches ``q``.
        """
        levels = np.asarray(q, dtype=np.float64)
        if levels.size and (np.isnan(levels).any() or levels.min() < 0 or levels.max() > 1):
            raise ParameterError("q must hold quantile levels in [0, 1]")
        c = self._curve()
        scores = np.asarray(c.scores, dtype=np.float64)[::-1]
        cum = np.cumsum((np.asarray(c.pos) + np.asarray(c.neg))[::-1])
        at = np.minimum(np.searchsorted(cum, levels * cum[-1], side="left"), scores.size - 1)
        out: FloatArray = scores[at]
        return out

    def calibration_curve(
        self, *, n_bins: int = 10, strategy: str = "uniform"
    ) -> tuple[FloatArray, FloatArray]:
        """Reliability curve from the score table; see :func:`scorekit.calibration_curve`.

        Equal to the one-shot function up to the rounding of each bin's sum of
        probabilities (computed as Σ score × count); quantile edges need whole-number weights.
        """
        return _curve_from_bins(self.calibration_bins(n_bins=n_bins, strategy=strategy)[0])

    def calibration_bins(
        self, *, n_bins: int = 10, strategy: str = "uniform"
    ) -> tuple[CalibrationBins, FloatArray]:
        """The calibration bins (count, Σ probability, Σ positives per bin) and their edges."""
        check_option(strategy, "strategy", ("uniform", "quantile"))
        n = int(check_count(n_bins, "n_bins"))
        c = self._curve()
        edges = calibration_edges_from_curve(c, n, strategy)
        return calibration_bins_from_curve(c, edges), edges

    def pr_auc(self) -> float:
        """Trapezoidal area under the PR curve; see :func:`scorekit.pr_auc`."""
        return pr_auc_from_curve(self._curve())

    def precision_at_recall(self, *, min_recall: float) -> OperatingPoint:
        """Best precision at recall ``>= min_recall``; see :func:`scorekit.precision_at_recall`."""
        return precision_at_recall_from_curve(self._curve(), _rate("min_recall", min_recall))

    def recall_at_precision(self, *, min_precision: float) -> OperatingPoint:
        """Best recall at precision ``>= min_precision``; see :func:`scorekit.recall_at_precision`."""
        return recall_at_precision_from_curve(self._curve(), _rate("min_precision", min_precision))

    def sensitivity_at_specificity(self, *, min_specificity: float) -> OperatingPoint:
        """See :func:`scorekit.sensitivity_at_specificity`."""
        limit = _rate("min_specificity", min_specificity)
        return sensitivity_at_specificity_from_curve(self._curve(), limit)

    def specificity_at_sensitivity(self, *, min_sensitivity: float) -> OperatingPoint:
        """See :func:`scorekit.specificity_at_sensitivity`."""
        limit = _rate("min_sensitivity", min_sensitivity)
        return specificity_at_sensitivity_from_curve(self._curve(), limit)

    def tpr_at_fpr(self, *, max_fpr: float) -> OperatingPoint:
        """Best TPR at FPR ``<= max_fpr``; see :func:`scorekit.tpr_at_fpr`."""
        return tpr_at_fpr_from_curve(self._curve(), _rate("max_fpr", max_fpr))

    def det_curve(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """FPR, FNR and thresholds; see :func:`scorekit.det_curve`."""
        return det_curve_from_curve(self._curve())

    def equal_error_rate(self) -> float:
        """Where FPR and FNR meet; see :func:`scorekit.equal_error_rate`."""
        return equal_error_rate_from_curve(self._curve())

    def error_bounds(self) -> dict[str, float]:
        """Largest error of ``roc_auc`` and ``ks_statistic`` caused by the bins (0.0 when exact).

        ``roc_auc``: Σ_g P_g N_g / (2 P N), both signs; ``ks_statistic``:
        max_g P_g / P, the binned value being the lower one. ``nan`` with one class.
        """
        c = self._curve()
        if self._edges is None:
            return {"roc_auc": 0.0, "ks_statistic": 0.0}
        n_pos, n_neg = float(c.pos.sum()), float(c.neg.sum())
        if n_pos <= 0 or n_neg <= 0:
            return {"roc_auc": float("nan"), "ks_statistic": float("nan")}
        return {
            "roc_auc": float(np.dot(c.pos, c.neg) / (2.0 * n_pos * n_neg)),
            "ks_statistic": float(c.pos.max() / n_pos),
        }

    # -- JSON-safe dict -----------------------------------------------------------

    def _state_to_dict(self) -> dict[str, Any]:
        state = self._state()
        return {
            "curve": None
            if state is None
            else {
                **{k: encode_array(getattr(state, k)) for k in ("scores", "pos", "neg")},
                "exact": encode_exact(state.exact, encode_array),
            },
            "classes": None if self._classes is None else encode_array(self._classes),
            "lo": encode_float(self._lo),
            "hi": encode_float(self._hi),
            "loss": encode_float(self._loss),
        }

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        f = Fields(d, "state", ("curve", "classes", "lo", "hi", "loss"))
        curve = f.sub("curve", ("scores", "pos", "neg", "exact"), optional=True)
        classes = f.maybe_array("classes", "label")
        if classes is not None:
            check_increasing(classes, f.name("classes"))
            if classes.size > 2:
                raise f.fail(
                    "classes", f"holds {classes.size} classes; a binary state has 2 at most"
                )
        lo, hi = f.real("lo", nan=False), f.real("hi", nan=False)
        loss = f.real("loss", nan=False, lo=0.0)
        if curve is not None:
            scores, pos, neg = (
                curve.array(k, "f", finite=True, nonneg=k != "scores")
                for k in ("scores", "pos", "neg")
            )
            n = check_lengths("state.curve", scores=scores, pos=pos, neg=neg)
            check_decreasing(scores, curve.name("scores"))
            exact = exact_part(curve, "exact", n, pos, neg)
            self._pending.replace(CurveState(scores, pos, neg, exact))
        self._classes = classes
        self._lo, self._hi, self._loss = lo, hi, loss
