"""Report sections of classification, regression and clustering, computed with scorekit's metrics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._catalog import MetricInfo, select
from .._codes import distinct
from .._errors import ParameterError, ScorekitError
from .._typing import AnyArray, FloatArray
from .._validation import (
    binary_target,
    check_option,
    check_same_length,
    labels_1d,
    scores_1d,
    scores_2d,
)
from ..classification._calibration import _curve_from_bins
from ..classification._labels import unique_labels
from ..stream import BinaryCurve, ConfusionMatrix, Contingency, RegressionMoments
from ._binary import (
    Cumulative,
    ovr_curves,
    practitioner_plots,
    roc_pr_plots,
    thresholds_of_interest,
)
from ._data import Plot, Section, Table, catalog_metrics, records
from ._figures import OKABE_ITO

__all__ = [
    "THRESHOLD_COLUMNS",
    "classification_section",
    "clustering_section",
    "regression_section",
]


def _fmt_threshold(t: float) -> str:
    return f"{t:g}"


def _is_probability(s: FloatArray) -> bool:
    return bool(s.size) and float(s.min()) >= 0.0 and float(s.max()) <= 1.0


THRESHOLD_COLUMNS = ("threshold", "tp", "fp", "tn", "fn", "tpr", "fpr", "precision", "f1")
_COUNTS = frozenset({"tp", "fp", "tn", "fn"})


def _count(value: Any) -> Any:
    """A count as an int when it is a whole number (unit weights), else unchanged."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    return value


#: ``draws`` of the sections -> ``weights`` of :func:`scorekit.stats.bootstrap_metrics`.
_DRAWS = {"auto": "auto", "rows": "multinomial", "cells": "cells", "poisson": "poisson"}


def _binary_scores_section(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any,
    threshold: float | None,
    bootstrap: int,
    seed: int,
    ci_method: str,
    progress: Callable[[int, int], None] | None,
    draws: str,
    details: bool,
    title: str,
    names: tuple[str, str],
    metrics: Sequence[str] | None,
) -> Section:
    y = labels_1d(y_true, names[0])
    s = scores_1d(y_score, names[1])
    check_same_length(**{names[0]: y, names[1]: s})
    classes = distinct(y)
    positive = binary_target(y, pos_label, names[0], classes=classes)
    y01 = positive.astype(np.int64)
    pos_name = "1" if pos_label is None else str(pos_label)
    others = [c for c in classes.tolist() if str(c) != pos_name]
    neg_name = str(others[0]) if others else ("0" if pos_label is None else f"not {pos_name}")
    probabilities = _is_probability(s)
    thresholded = threshold is not None or probabilities
    default = ["roc_auc", "average_precision", "ks_statistic"]
    default += ["log_loss", "brier_score"] if probabilities else []
    default += ["accuracy", "precision", "recall", "f1"] if thresholded else []
    not_probabilities = "the scores are not all in [0, 1]"
    wanted = select(
        metrics,
        inputs={
            "scores": None,
            "decision": None,
            "probabilities": None if probabilities else not_probabilities,
            "labels": None if thresholded else "pass --threshold T (scores are not probabilities)",
        },
        default=default,
        flag="-m",
        structured=True,
    )
    # one sort of the scores serves every curve metric, plot and table below
    curve = BinaryCurve().update(y01, s)
    data: dict[str, tuple[AnyArray, ...]] = dict.fromkeys(_SCORE_KINDS, (y01, s))
    states: dict[str, Any] = {"BinaryCurve": curve}
    notes = []
    y_hat = None
    if threshold is not None and not (
        isinstance(threshold, (int, float, np.number)) and np.isfinite(threshold)
    ):
        raise ParameterError(f"threshold={threshold!r} must be a finite number")
    cut = 0.5 if threshold is None else float(threshold)
    if thresholded:
        y_hat = (s >= cut).astype(np.int64)
        data["labels"] = (y01, y_hat)
        states["ConfusionMatrix"] = ConfusionMatrix(labels=[0, 1]).update(y01, y_hat)
        if any(r.inputs == "labels" for r in wanted):
            notes.append(
                f"Label metrics count a score >= {_fmt_threshold(cut)} as positive "
                f"(class {pos_name})."
            )
            if not y_hat.any():
                notes.append(
                    f"No score reaches {_fmt_threshold(cut)}: nothing is predicted positive. "
                    "Pick a threshold from the threshold table (--threshold T)."
                )
    if not probabilities:
        notes.append(
            "Scores are not all in [0, 1]: log loss, Brier score and calibration are left out."
        )
    values = catalog_metrics(
        wanted,
        data,
        states,
        bootstrap=bootstrap,
        seed=seed,
        method=ci_method,
        progress=progress,
        weights=_DRAWS[draws],
    )
    if not details:
        return Section(title, "classification", values, notes=tuple(notes))
    known = {m.name: m.value for m in values}  # computed once: the plots reuse them
    auc = known["roc_auc"] if "roc_auc" in known else curve.roc_auc()
    ap = known["average_precision"] if "average_precision" in known else curve.average_precision()
    base_rate = float(y01.mean()) if y01.size else float("nan")
    cum = Cumulative.of(curve)  # cumulative weights per distinct score, summed once
    best = cum.optimal()
    skewed = base_rate < _SKEWED
    edges = None
    if probabilities:
        # from the score table: no second pass over the rows, no second sort
        bins, curve_edges = curve.calibration_bins(
            n_bins=10, strategy="quantile" if skewed else "uniform"
        )
        edges = curve_edges
    bands = None
    if bootstrap > 0:
        from ..stats._bands import curve_bands

        bands = curve_bands(
            y01, s, n_resamples=bootstrap, seed=seed, weights=_DRAWS[draws], calibration_edges=edges
        )
    plots = roc_pr_plots(cum, auc, ap, base_rate, bands)
    plots += practitioner_plots(cum, curve, best, pos_name, neg_name)
    if probabilities:
        plots.append(_calibration_plot(bins, curve_edges, base_rate, skewed, bands))
    if y_hat is not None:
        cm = np.asarray(states["ConfusionMatrix"].confusion_matrix(labels=[0, 1]))
        plots.append(
            Plot(
                "heatmap_svg",
                f"Confusion matrix at threshold {_fmt_threshold(cut)}",
                {
                    "matrix": cm,
                    "row_labels": [neg_name, pos_name],
                    "col_labels": [neg_name, pos_name],
                    "title": "Confusion matrix",
                    "xlabel": "predicted",
                    "ylabel": "true",
                },
            )
        )
    grid, reasons = thresholds_of_interest(curve, cum, best)
    table_rows = records(curve.threshold_table(grid))  # the rows at these scores, no recount
    table = Table(
        "Threshold table",
        ("why", *THRESHOLD_COLUMNS),
        tuple(
            (
                reasons.get(float(r["threshold"]), ""),
                *(_count(r.get(c)) if c in _COUNTS else r.get(c) for c in THRESHOLD_COLUMNS),
            )
            for r in table_rows
        ),
        note="A score >= the threshold counts as positive. Rows: score quantiles (5% to 95%) "
        "and the thresholds that maximise F1 and Youden's J (TPR − FPR).",
    )
    data_table = _data_table(y01, pos_name, curve.n_distinct)
    return Section(title, "classification", values, tuple(plots), (data_table, table), tuple(notes))


_SKEWED = 0.10  # below this base rate the calibration diagram uses quantile bins


def _calibration_plot(
    bins: Any, edges: FloatArray, base_rate: float, skewed: bool, bands: Any
) -> Plot:
    """The reliability diagram of the bins; error bars from the bands' per-bin intervals."""
    prob_true, prob_pred = _curve_from_bins(bins)
    why = (
        f"10 quantile bins (equal counts): the base rate is {base_rate:.3g}, below "
        f"{_SKEWED:.0%}, so uniform bins would put nearly every row in the first"
        if skewed
        else "10 uniform bins"
    )
    args: dict[str, Any] = {
        "prob_pred": np.asarray(prob_pred),
        "prob_true": np.asarray(prob_true),
        "hist_edges": edges,
        "hist_counts": bins.count,
    }
    caption = f"Calibration (reliability) diagram, {why}"
    if bands is not None:
        full = np.asarray(bins.count) != 0
        args |= {
            "low": bands.calibration_low[full],
            "high": bands.calibration_high[full],
            "interval_label": f"{bands.confidence:.0%} interval",
        }
        caption += (
            f". Error bars: {bands.confidence:.0%} percentile interval of each bin's fraction "
            f"of positives over {bands.resamples:,} bootstrap resamples of {bands.unit} "
            "(the bins' edges fixed)."
        )
    return Plot("calibration_svg", caption, args)


def _data_table(y01: AnyArray, pos_name: str, distinct: int) -> Table:
    n, pos = int(y01.size), int(y01.sum())
    rows: tuple[tuple[Any, ...], ...] = (
        ("rows", n),
        (f"positives (class {pos_name})", pos),
        ("base rate", pos / n if n else float("nan")),
        ("distinct scores", distinct),
    )
    return Table("Data", ("", "value"), rows)


_SCORE_KINDS = ("scores", "decision", "probabilities")


def _multiclass_scores_section(
    y_true: Any,
    y_score: Any,
    *,
    bootstrap: int,
    seed: int,
    ci_method: str,
    progress: Callable[[int, int], None] | None,
    details: bool,
    title: str,
    names: tuple[str, str],
    metrics: Sequence[str] | None,
) -> Section:
    """Scores of a multiclass model (one column per class): OvR/OvO AUC, one ROC curve per class."""
    y = labels_1d(y_true, names[0])
    scores = scores_2d(y_score, names[1])
    check_same_length(**{names[0]: y, names[1]: scores})
    classes = unique_labels(y)
    if scores.shape[1] != classes.size:
        raise ParameterError(
            f"{names[1]} has {scores.shape[1]} score columns but {names[0]} has {classes.size} "
            "classes: pass one column per class, in the sorted order of the classes"
        )
    notes = []
    sums_to_one = bool(np.allclose(1, scores.sum(axis=1)))  # roc_auc's own test
    if not sums_to_one:
        notes.append(
            "The score rows do not sum to 1: the multiclass AUCs (which read them as "
            "probabilities) are left out; the per-class curves rank each column as it is."
        )
    wanted = select(
        metrics,
        inputs={"multiclass_scores": None},
        binary=False,
        default=["roc_auc_ovr", "roc_auc_ovo"] if sums_to_one else ["top_k_accuracy"],
        flag="-m",
    )
    values = catalog_metrics(
        wanted,
        {"multiclass_scores": (y, scores)},
        {},
        bootstrap=bootstrap,
        seed=seed,
        method=ci_method,
        progress=progress,
    )
    if not details:
        return Section(title, "classification", values, notes=tuple(notes))
    shown = [str(c) for c in classes.tolist()]
    curves = ovr_curves(y, scores, classes.tolist(), shown)
    plot = Plot(
        "curve_svg",
        "One-vs-rest ROC curve of each class: the class's score column ranks the class against "
        "every other class (legend: the class and its one-vs-rest AUC)",
        {
            "curves": curves,
            "title": "ROC curves, one class against the rest",
            "xlabel": "false positive rate",
            "ylabel": "true positive rate",
            "diagonal": True,
            "palette": OKABE_ITO,
        },
    )
    counts = np.bincount(np.searchsorted(classes, y), minlength=classes.size)
    table = Table("Classes", ("class", "rows"), tuple(zip(shown, counts.tolist(), strict=True)))
    return Section(title, "classification", values, (plot,), (table,), tuple(notes))


def _labels_section(
    y_true: Any,
    y_pred: Any,
    *,
    pos_label: Any,
    bootstrap: int,
    seed: int,
    ci_method: str,
    progress: Callable[[int, int], None] | None,
    details: bool,
    title: str,
    names: tuple[str, str],
    metrics: Sequence[str] | None,
) -> Section:
    y = labels_1d(y_true, names[0])
    p = labels_1d(y_pred, names[1])
    check_same_length(**{names[0]: y, names[1]: p})
    labels = unique_labels(y, p)
    values = set(labels.tolist())
    binary = labels.size <= 2 and (
        pos_label is not None
        or (labels.dtype.kind in "biu" and (values <= {0, 1} or values <= {-1, 1}))
    )
    default = ["accuracy", "balanced_accuracy"]
    default += (
        ["precision", "recall", "f1"]
        if binary
        else ["precision_macro", "recall_macro", "f1_macro", "f1_weighted"]
    )
    default += ["cohen_kappa", "matthews_corrcoef"]
    wanted = select(
        metrics,
        inputs={"labels": None},
        binary=binary,
        default=default,
        flag="-m",
        structured=True,
    )
    # one count of the (true, predicted) pairs serves every metric, plot and table below
    counts = ConfusionMatrix().update(y, p)
    pos = 1 if pos_label is None else pos_label

    def extra(row: MetricInfo) -> dict[str, Any]:
        return {"pos_label": pos} if row.task == "binary" and row.accepts("pos_label") else {}

    result = catalog_metrics(
        wanted,
        {"labels": (y, p)},
        {"ConfusionMatrix": counts},
        kwargs=extra,
        bootstrap=bootstrap,
        seed=seed,
        method=ci_method,
        progress=progress,
    )
    if not details:
        return Section(title, "classification", result)
    cm = np.asarray(counts.confusion_matrix(labels=labels))
    shown = [str(c) for c in labels.tolist()]
    per_class = [
        np.asarray(getattr(counts, name)(average=None, labels=labels, zero_division=0.0))
        for name in ("precision", "recall", "f1")
    ]
    support = cm.sum(axis=1)
    rows = tuple(
        (
            shown[k],
            float(per_class[0][k]),
            float(per_class[1][k]),
            float(per_class[2][k]),
            int(support[k]),
        )
        for k in range(len(shown))
    )
    plots = (
        Plot(
            "heatmap_svg",
            "Confusion matrix (rows: true class, columns: predicted; colour: share of the row)",
            {
                "matrix": cm,
                "row_labels": shown,
                "col_labels": shown,
                "title": "Confusion matrix",
                "xlabel": "predicted",
                "ylabel": "true",
            },
        ),
        Plot(
            "bar_svg",
            "F1 of each class",
            {
                "labels": shown,
                "values": per_class[2].tolist(),
                "title": "F1 per class",
                "ylabel": "F1",
            },
        ),
    )
    table = Table("Per class", ("class", "precision", "recall", "f1", "support"), rows)
    return Section(title, "classification", result, plots, (table,))


def classification_section(
    y_true: Any,
    *,
    y_score: Any = None,
    y_pred: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    bootstrap: int = 0,
    seed: int = 0,
    ci_method: str = "percentile",
    progress: Callable[[int, int], None] | None = None,
    draws: str = "auto",
    details: bool = True,
    title: str = "Classification",
    names: tuple[str, str] | None = None,
    metrics: Sequence[str] | None = None,
) -> Section:
    """Evaluate a classifier from scores (binary or multiclass) or predicted labels.

    With 2-D ``y_score`` (one column per class, in the sorted order of the
    classes of ``y_true``): one-vs-rest and one-vs-one ROC AUC and the
    one-vs-rest ROC curve of each class. With 1-D ``y_score``: ROC AUC, average precision, KS, and for probabilities log
    loss, Brier score, thresholded counts and the calibration diagram. With
    ``y_pred``: accuracy, balanced accuracy, precision/recall/F1 (binary, or
    macro and weighted), Cohen's kappa, MCC and the confusion matrix.
    ``metrics`` replaces those defaults by any catalog names the inputs allow
    (``"all"``: every one; see :func:`scorekit.metrics`). ``names`` are the
    names used in error messages (default ``y_true`` and ``y_score``/``y_pred``).
    With ``bootstrap > 0`` (scores), ``draws`` is how resamples are drawn
    (:func:`scorekit.stats.bootstrap_metrics`): ``"rows"`` (row indices, the
    draws of ``bootstrap_ci``), ``"cells"`` (the counts of the (label, score)
    cells, the same distribution at a cost per resample in distinct scores),
    ``"poisson"`` (Poisson(1) multiplicities, one pass over the sorted rows per
    block of resamples) or ``"auto"`` (cells when every metric is computed from
    them and there are at most n/16, else Poisson when every metric has a block
    kernel, as the defaults do, else rows).
    """
    check_option(draws, "draws", tuple(_DRAWS))
    if (y_score is None) == (y_pred is None):
        raise ScorekitError("pass exactly one of y_score and y_pred")
    if y_score is not None and np.ndim(y_score) == 2:
        return _multiclass_scores_section(
            y_true,
            y_score,
            bootstrap=bootstrap,
            seed=seed,
            ci_method=ci_method,
            progress=progress,
            details=details,
            title=title,
            names=names or ("y_true", "y_score"),
            metrics=metrics,
        )
    if y_score is not None:
        return _binary_scores_section(
            y_true,
            y_score,
            pos_label=pos_label,
            threshold=threshold,
            bootstrap=bootstrap,
            seed=seed,
            ci_method=ci_method,
            progress=progress,
            draws=draws,
            details=details,
            title=title,
            names=names or ("y_true", "y_score"),
            metrics=metrics,
        )
    return _labels_section(
        y_true,
        y_pred,
        pos_label=pos_label,
        bootstrap=bootstrap,
        seed=seed,
        ci_method=ci_method,
        progress=progress,
        details=details,
        title=title,
        names=names or ("y_true", "y_pred"),
        metrics=metrics,
    )


REGRESSION_METRICS = (
    "mae",
    "mse",
    "rmse",
    "r2",
    "explained_variance",
    "mape",
    "median_absolute_error",
    "max_error",
)


def regression_section(
    y_true: Any,
    y_pred: Any,
    *,
    bootstrap: int = 0,
    seed: int = 0,
    ci_method: str = "percentile",
    progress: Callable[[int, int], None] | None = None,
    details: bool = True,
    title: str = "Regression",
    names: tuple[str, str] = ("y_true", "y_pred"),
    metrics: Sequence[str] | None = None,
) -> Section:
    """Evaluate a regressor: MAE, MSE, RMSE, R², explained variance, MAPE, median AE, max error.

    ``metrics`` replaces those defaults by any regression catalog names (``"all"``).
    The mergeable ones come from one exact :class:`~scorekit.stream.RegressionMoments`.
    """
    t = scores_1d(y_true, names[0])
    p = scores_1d(y_pred, names[1])
    check_same_length(**{names[0]: t, names[1]: p})
    wanted = select(
        metrics, inputs={"regression": None}, default=REGRESSION_METRICS, flag="-m", structured=True
    )
    moments = RegressionMoments().update(t, p)
    values = catalog_metrics(
        wanted,
        {"regression": (t, p)},
        {"RegressionMoments": moments},
        bootstrap=bootstrap,
        seed=seed,
        method=ci_method,
        progress=progress,
    )
    if not details:
        return Section(title, "regression", values)
    plots = (
        Plot(
            "scatter_svg",
            "Predicted against true values (dashed: y = x)",
            {
                "x": t,
                "y": p,
                "title": "Predicted vs true",
                "xlabel": "true value",
                "ylabel": "predicted value",
                "diagonal": True,
            },
        ),
        Plot(
            "histogram_svg",
            "Residuals (predicted − true)",
            {"values": p - t, "title": "Residuals", "xlabel": "predicted − true"},
        ),
    )
    return Section(title, "regression", values, plots)


EXTERNAL_CLUSTERING = (
    "adjusted_rand_index",
    "rand_index",
    "adjusted_mutual_info",
    "normalized_mutual_info",
    "homogeneity",
    "completeness",
    "v_measure",
    "fowlkes_mallows",
)
INTERNAL_CLUSTERING = ("silhouette_score", "calinski_harabasz", "davies_bouldin")
SILHOUETTE_SAMPLE = 20_000


def clustering_section(
    labels_true: Any,
    labels_pred: Any,
    *,
    features: Any = None,
    bootstrap: int = 0,
    seed: int = 0,
    ci_method: str = "percentile",
    progress: Callable[[int, int], None] | None = None,
    details: bool = True,
    title: str = "Clustering",
    names: tuple[str, str] = ("labels_true", "labels_pred"),
    feature_names: Sequence[str] = (),
    metrics: Sequence[str] | None = None,
) -> Section:
    """Evaluate a clustering against true classes (ARI, AMI, NMI, ...) and/or its features (silhouette, ...).

    Either ``labels_true`` or ``features`` may be ``None``. The silhouette of
    more than 20,000 points is estimated on a random sample of 20,000
    (``sample_size``, seeded); the section says so. ``metrics`` replaces the
    defaults by any clustering catalog names the inputs allow (``"all"``); the
    pair-counting and information metrics come from one
    :class:`~scorekit.stream.Contingency`.
    """
    p = labels_1d(labels_pred, names[1])
    t = None if labels_true is None else labels_1d(labels_true, names[0])
    x = None if features is None else scores_2d(features, "features")
    check_same_length(**{names[1]: p, names[0]: t, "features": x})
    default = (EXTERNAL_CLUSTERING if t is not None else ()) + (
        INTERNAL_CLUSTERING if x is not None else ()
    )
    wanted = select(
        metrics,
        inputs={
            "clustering": None if t is not None else "pass --true COL",
            "features": None if x is not None else "pass --features COL...",
        },
        default=default,
        flag="-m",
        structured=True,
    )
    notes = []
    data: dict[str, tuple[AnyArray, ...]] = {}
    states: dict[str, Any] = {}
    if t is not None:
        data["clustering"] = (t, p)
        states["Contingency"] = Contingency().update(t, p)
    if x is not None:
        data["features"] = (x, p)

    def extra(row: MetricInfo) -> dict[str, Any]:
        if row.name == "silhouette_score" and p.shape[0] > SILHOUETTE_SAMPLE:
            return {"sample_size": SILHOUETTE_SAMPLE, "random_state": seed}
        return {}

    if (
        x is not None
        and p.shape[0] > SILHOUETTE_SAMPLE
        and any(r.name == "silhouette_score" for r in wanted)
    ):
        notes.append(
            f"The silhouette is estimated on a random sample of {SILHOUETTE_SAMPLE:,} points."
        )
    values = catalog_metrics(
        wanted,
        data,
        states,
        kwargs=extra,
        bootstrap=bootstrap,
        seed=seed,
        method=ci_method,
        progress=progress,
    )
    if not details:
        return Section(title, "clustering", values, notes=tuple(notes))
    plots = []
    if t is not None:
        rows, cols = np.unique(t), np.unique(p)
        if rows.size <= 40 and cols.size <= 40:
            matrix = np.asarray(states["Contingency"].contingency_matrix())
            plots.append(
                Plot(
                    "heatmap_svg",
                    "Contingency table (rows: true class, columns: cluster; colour: share of the row)",
                    {
                        "matrix": matrix,
                        "row_labels": [str(v) for v in rows.tolist()],
                        "col_labels": [str(v) for v in cols.tolist()],
                        "title": "Contingency table",
                        "xlabel": "cluster",
                        "ylabel": "true class",
                    },
                )
            )
        else:
            notes.append("The contingency table has more than 40 rows or columns and is not drawn.")
    if x is not None and x.shape[1] >= 2:
        fx, fy = ([*list(feature_names), "feature 1", "feature 2"])[:2]
        plots.append(
            Plot(
                "scatter_svg",
                "The first two features, coloured by cluster",
                {
                    "x": x[:, 0],
                    "y": x[:, 1],
                    "groups": p,
                    "title": "Clusters",
                    "xlabel": fx,
                    "ylabel": fy,
                },
            )
        )
    return Section(title, "clustering", values, tuple(plots), notes=tuple(notes))
