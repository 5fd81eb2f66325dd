"""The figures and tables of a binary scorer's report section, from its one curve state.

Everything here reads the :class:`~scorekit.stream.BinaryCurve` the section
built (one sort of the scores): the cumulative positive and negative weights
at each distinct score are summed once (:class:`_Cumulative`) and every
figure, the threshold table and the optimal thresholds read them. The full
per-threshold arrays are used for the numbers (the F1- and Youden-optimal
thresholds are exact over every distinct score); the figures get the points
at a few thousand thresholds (:func:`_plot_points`: where TPR, FPR, the share
of rows or the threshold cross a fine grid), which the drawing reduces to
pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._typing import AnyArray, FloatArray, IntArray
from ..classification._thresholds import _over, _ratio
from ._data import Plot

__all__ = [
    "Cumulative",
    "bands_caption",
    "ovr_curves",
    "practitioner_plots",
    "roc_pr_plots",
    "thresholds_of_interest",
]

_GRID = 2000  # crossings of each rate kept for the figures


@dataclass(frozen=True)
class Cumulative:
    """Per distinct score (decreasing): weights at or above it, and the totals."""

    scores: FloatArray
    tp: FloatArray
    fp: FloatArray
    n_pos: float
    n_neg: float
    plot: IntArray  # indices of the points drawn

    @classmethod
    def of(cls, curve: Any) -> Cumulative:
        c = curve._curve()
        tp, fp = np.cumsum(c.pos), np.cumsum(c.neg)
        n_pos = float(tp[-1]) if tp.size else 0.0
        n_neg = float(fp[-1]) if fp.size else 0.0
        return cls(c.scores, tp, fp, n_pos, n_neg, _plot_points(c.scores, tp, fp))

    def optimal(self) -> tuple[int, int] | None:
        """Indices of the F1-maximising and Youden-maximising thresholds (first on ties)."""
        if not self.tp.size:
            return None
        tp, fp = self.tp, self.fp
        # F1 = 2tp / (2tp + fp + fn) as the threshold table computes it; 0/0 ranks last
        num = 2 * tp
        den = num + fp
        den += self.n_pos - tp
        with np.errstate(invalid="ignore"):
            f1 = np.divide(num, den, out=np.full(num.shape, -1.0), where=den != 0)
        if self.n_pos > 0 and self.n_neg > 0:  # else J is undefined everywhere: the first row
            youden = tp / self.n_pos
            youden -= fp / self.n_neg
            return int(np.argmax(f1)), int(np.argmax(youden))
        return int(np.argmax(f1)), 0


def _plot_points(scores: FloatArray, tp: FloatArray, fp: FloatArray) -> IntArray:
    """Indices where TPR, FPR, the share of rows or the threshold cross a grid of ``_GRID`` steps."""
    n = scores.size
    if n <= 4 * _GRID:
        return np.arange(n)
    grid = np.linspace(0.0, 1.0, _GRID + 1)
    rows = tp + fp
    picks = [np.array([0, n - 1])]
    picks += [np.searchsorted(c, grid * c[-1], side="left") for c in (tp, fp, rows) if c[-1] > 0]
    lo, hi = float(scores[-1]), float(scores[0])
    picks.append(n - 1 - np.searchsorted(scores[::-1], lo + grid * (hi - lo), side="left"))
    out: IntArray = np.unique(np.clip(np.concatenate(picks), 0, n - 1))
    return out


def bands_caption(bands: Any, what: str) -> str:
    return (
        f" Shaded: {bands.confidence:.0%} pointwise percentile band of {what} over "
        f"{bands.resamples:,} bootstrap resamples of {bands.unit}."
    )


def roc_pr_plots(
    cum: Cumulative, auc: float, ap: float, base_rate: float, bands: Any
) -> list[Plot]:
    """ROC and precision–recall curves (drawn at the plot points), with bands when given."""
    k = cum.plot
    tp, fp = cum.tp[k], cum.fp[k]
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr = np.r_[0.0, fp / cum.n_neg] if cum.n_neg > 0 else np.full(k.size + 1, np.nan)
        tpr = np.r_[0.0, tp / cum.n_pos] if cum.n_pos > 0 else np.full(k.size + 1, np.nan)
        predicted = tp + fp
        precision = np.divide(tp, predicted, out=np.zeros_like(tp), where=predicted != 0)
        recall = tp / cum.n_pos if cum.n_pos > 0 else np.ones_like(tp)
    roc_args: dict[str, Any] = {
        "curves": [(f"AUC = {auc:.3f}", fpr, tpr)],
        "title": "ROC curve",
        "xlabel": "false positive rate",
        "ylabel": "true positive rate",
        "diagonal": True,
    }
    pr_args: dict[str, Any] = {
        "curves": [(f"AP = {ap:.3f}", np.r_[recall[::-1], 0.0], np.r_[precision[::-1], 1.0])],
        "title": "Precision–recall curve",
        "xlabel": "recall",
        "ylabel": "precision",
        "baseline": base_rate,
        "step": True,
    }
    roc_caption, pr_caption = "ROC curve", "Precision–recall curve"
    if bands is not None:
        label = f"{bands.confidence:.0%} band"
        roc_args |= {"bands": [(bands.fpr, bands.tpr_low, bands.tpr_high)], "band_label": label}
        pr_args |= {
            "bands": [(bands.recall, bands.precision_low, bands.precision_high)],
            "band_label": label,
        }
        roc_caption += "." + bands_caption(bands, "the TPR at each FPR (best TPR at FPR <= x)")
        pr_caption += "." + bands_caption(
            bands, "the precision at each recall (best precision at recall >= x)"
        )
    return [Plot("curve_svg", roc_caption, roc_args), Plot("curve_svg", pr_caption, pr_args)]


def _class_counts(cum: Cumulative) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Histogram edges (40 equal bins over the scores) and each class's weight per bin.

    Read off the cumulative weights: a bin [e_i, e_i+1) holds the weight at
    or above e_i minus the weight at or above e_i+1 (the last bin is closed).
    """
    lo, hi = float(cum.scores[-1]), float(cum.scores[0])
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, 41)
    # rows scoring >= each inner edge: the distinct scores before the first one below it
    at = cum.scores.size - np.searchsorted(cum.scores[::-1], edges[1:-1], side="left")
    out = []
    for c in (cum.fp, cum.tp):
        above = np.r_[c[-1], np.where(at > 0, c[np.maximum(at - 1, 0)], 0.0), 0.0]
        out.append(above[:-1] - above[1:])
    return edges, out[0], out[1]


def practitioner_plots(
    cum: Cumulative, curve: Any, best: tuple[int, int] | None, pos_name: str, neg_name: str
) -> list[Plot]:
    """Score distributions by class, P/R/F1 against the threshold, cumulative gains and lift."""
    edges, neg, pos = _class_counts(cum) if cum.scores.size else (np.zeros(2), [0.0], [0.0])
    plots = [
        Plot(
            "class_histogram_svg",
            "Scores by class (densities): how far apart the model puts the two classes",
            {
                "edges": edges,
                "groups": [(f"class {neg_name}", neg), (f"class {pos_name}", pos)],
                "title": "Score distributions",
                "xlabel": "score",
            },
        )
    ]
    if best is None:
        return plots
    k = cum.plot
    t, tp, fp = cum.scores[k], cum.tp[k], cum.fp[k]
    fn = cum.n_pos - tp
    nan = float("nan")
    f1 = _ratio(2 * tp, 2 * tp + fp + fn, nan)
    best_t = float(cum.scores[best[0]])
    plots.append(
        Plot(
            "lines_svg",
            "Precision, recall and F1 against the threshold (a score >= the threshold is positive)",
            {
                "lines": [
                    ("precision", t, _ratio(tp, tp + fp, nan)),
                    ("recall", t, _over(tp, cum.n_pos, nan)),
                    ("F1", t, f1),
                ],
                "title": "Metrics by threshold",
                "xlabel": "threshold",
                "ylabel": "value",
                "marks": [(f"max F1 at {best_t:.4g}", best_t)],
            },
        )
    )
    n = cum.n_pos + cum.n_neg
    if n > 0 and cum.n_pos > 0:
        reached = (tp + fp) / n  # share of rows targeted
        gains = tp / cum.n_pos
        plots.append(
            Plot(
                "lines_svg",
                "Cumulative gains: the share of positives found in the top x of rows by score "
                "(dashed: random targeting)",
                {
                    "lines": [("model", np.r_[0.0, reached], np.r_[0.0, gains])],
                    "title": "Cumulative gains",
                    "xlabel": "share of rows targeted",
                    "ylabel": "share of positives found",
                    "reference": ("random", np.array([0.0, 1.0]), np.array([0.0, 1.0])),
                },
            )
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            lift = gains / reached
        plots.append(
            Plot(
                "lines_svg",
                "Lift: the positive rate in the top x of rows over the base rate (1: random)",
                {
                    "lines": [("model", reached, lift)],
                    "title": "Lift",
                    "xlabel": "share of rows targeted",
                    "ylabel": "lift",
                    "reference": ("random", np.array([0.0, 1.0]), np.array([1.0, 1.0])),
                },
            )
        )
    return plots


def thresholds_of_interest(
    curve: Any, cum: Cumulative, best: tuple[int, int] | None
) -> tuple[FloatArray, dict[float, str]]:
    """Score quantiles and the F1- and Youden-optimal thresholds, with why each is there."""
    quantiles = np.linspace(0.05, 0.95, 19)
    grid = curve.score_quantiles(quantiles)  # from the score table: no partition of the rows
    why: dict[float, str] = {}
    for q, t in zip(quantiles, grid, strict=True):
        why.setdefault(float(t), f"{q:.0%} quantile")
    special = []
    if best is not None:
        for label, k in (("max F1", best[0]), ("max Youden J", best[1])):
            t = float(cum.scores[k])
            why[t] = f"{why[t]}; {label}" if t in why else label
            special.append(t)
    all_t: FloatArray = np.unique(np.concatenate([grid, np.asarray(special, dtype=np.float64)]))
    return all_t, why


def ovr_curves(
    y: AnyArray, scores: FloatArray, classes: list[Any], shown: list[str]
) -> list[tuple[str, FloatArray, FloatArray]]:
    """One-vs-rest ROC of each class (column k against the rest), labelled with its AUC.

    A class without rows of its own or of the others has no curve and is left out.
    """
    from ..stream import BinaryCurve

    out = []
    for k, (value, name) in enumerate(zip(classes, shown, strict=True)):
        curve = BinaryCurve().update((y == value).astype(np.int64), scores[:, k])
        cum = Cumulative.of(curve)
        if cum.n_pos <= 0 or cum.n_neg <= 0:
            continue
        p = cum.plot
        fpr, tpr = np.r_[0.0, cum.fp[p] / cum.n_neg], np.r_[0.0, cum.tp[p] / cum.n_pos]
        out.append((f"{name} (AUC = {curve.roc_auc():.3f})", fpr, tpr))
    return out
