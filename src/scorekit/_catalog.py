"""The catalog: one :class:`MetricInfo` row per public metric.

Every face of scorekit that offers "a metric by name" reads this table and
nothing else: the command line (``-m NAME``, ``scorekit metrics``), the report's
metric tables, ``scorekit.dask.metrics`` and ``scorekit.spark.metrics``, the
scikit-learn scorers (``scorekit.sklearn.scorer``) and the common property
tests. Adding a metric is its kernel, its function, its accumulator method and
one row here.

A row names a public function and, for variants, the options it is called with
(``f1_macro`` is :func:`scorekit.f1` with ``average="macro"``). ``inputs``
says which data the function takes, by kind:

=================== ==========================================================
kind                data arguments
=================== ==========================================================
labels              ``y_true, y_pred``: class labels (binary or multiclass)
multilabel          ``y_true, y_pred``: indicator matrices
scores              ``y_true, y_score``: binary labels, real-valued scores
probabilities       ``y_true, y_prob``: binary labels, probabilities in [0, 1]
decision            ``y_true, pred_decision``: labels, decision values
multiclass_scores   ``y_true, y_score``: labels, one score column per class
multilabel_scores   ``y_true, y_score``: indicator matrix, one score per label
regression          ``y_true, y_pred``: real targets and predictions
clustering          ``labels_true, labels_pred``: two labelings
features            ``X, labels``: points and their cluster labels
groups              ``y_true, y_score, groups``: binary labels, scores, group ids
lists               ``recommended_lists, catalog_size``
user_lists          ``recommended_lists``
popularity          ``recommended_lists, popularity`` (+ ``n_users`` for novelty)
tail                ``recommended_lists, tail_items``
item_features       ``recommended_lists, item_features``
sets                ``retrieved, relevant, known`` (or ``expected``)
ranked_sets         ``ranking, relevant, expected``
=================== ==========================================================

``task`` is ``"binary"`` where the row needs two classes (``precision`` with
its default ``average="binary"``), else ``"any"``. ``scalar`` rows return one
number; the others (matrices, curves, tables) are listed so that they can be
found, and are drawn by the report.
"""

from __future__ import annotations

import ast
import difflib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from ._errors import ParameterError, UnknownMetricError

if TYPE_CHECKING:
    from .stream._base import Accumulator

__all__ = [
    "FAMILIES",
    "INPUT_KINDS",
    "INPUT_TEXT",
    "MetricInfo",
    "get",
    "metrics",
    "select",
    "suggest",
]

FAMILIES = ("classification", "regression", "clustering", "recsys")
INPUT_KINDS = (
    "labels",
    "multilabel",
    "scores",
    "probabilities",
    "decision",
    "multiclass_scores",
    "multilabel_scores",
    "regression",
    "clustering",
    "features",
    "groups",
    "lists",
    "user_lists",
    "popularity",
    "tail",
    "item_features",
    "sets",
    "ranked_sets",
    "history",
)
Bootstrap = Literal["fast", "resample", "none"]


@dataclass(frozen=True, slots=True)
class MetricInfo:
    """What scorekit knows about one public metric (one row of the catalog).

    Attributes
    ----------
    name : str
        The name used by ``-m NAME``, JSON output, Dask and the report.
    function : callable
        The public one-shot function (``scorekit.<function name>``).
    family : str
        ``"classification"``, ``"regression"``, ``"clustering"`` or ``"recsys"``.
    inputs : str
        The kind of data the function takes (see the module docstring).
    greater_is_better : bool or None
        ``None`` for results that are not a score (matrices, curves, tables).
    description : str
        One line.
    options : mapping
        Keyword arguments this row always passes (``{"average": "macro"}``).
    task : str
        ``"binary"`` when the row needs exactly two classes, else ``"any"``.
    accumulator : str or None
        The class of :mod:`scorekit.stream` that computes the row from a stream
        of chunks (``None``: the metric is not mergeable).
    method : str or None
        That accumulator's method, called with ``options``.
    bootstrap : {"fast", "resample", "none"}
        How confidence intervals are computed: ``"fast"`` has a vectorised path,
        ``"resample"`` recomputes on resampled rows, ``"none"`` gives no interval
        (order statistics such as ``max_error``, whose bootstrap interval is
        degenerate).
    best : float or None
        The value of a perfect prediction, where there is one.
    rank_based : bool
        The value depends on the order of the scores only.
    scalar : bool
        The function returns one number.
    """

    name: str
    function: Callable[..., Any]
    family: str
    inputs: str
    greater_is_better: bool | None
    description: str
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    task: Literal["binary", "any"] = "any"
    accumulator: str | None = None
    method: str | None = None
    bootstrap: Bootstrap = "resample"
    best: float | None = None
    rank_based: bool = False
    scalar: bool = True

    @property
    def mergeable(self) -> bool:
        """Whether an accumulator of :mod:`scorekit.stream` computes this row."""
        return self.accumulator is not None

    @property
    def weighted(self) -> bool:
        """Whether the function takes ``sample_weight``."""
        return "sample_weight" in _parameters(self.function)

    def accepts(self, option: str) -> bool:
        """Whether the function takes the keyword ``option``."""
        return option in _parameters(self.function)

    def __call__(self, *data: Any, **kwargs: Any) -> Any:
        """Call the function on ``data`` with this row's options (``kwargs`` added)."""
        return self.function(*data, **self.options, **kwargs)

    def from_state(self, acc: Accumulator, **kwargs: Any) -> Any:
        """The value from an accumulator of class :attr:`accumulator`."""
        if self.method is None:
            raise ParameterError(f"{self.name} has no accumulator: it is not mergeable")
        if type(acc).__name__ != self.accumulator:
            raise ParameterError(
                f"{self.name} is computed by a {self.accumulator}, not a {type(acc).__name__}"
            )
        return getattr(acc, self.method)(**self.options, **kwargs)

    def new_accumulator(self, **kwargs: Any) -> Accumulator:
        """A fresh accumulator of class :attr:`accumulator` (``kwargs`` are its options)."""
        from . import stream

        if self.accumulator is None:
            raise ParameterError(f"{self.name} has no accumulator: it is not mergeable")
        cls: type[Accumulator] = getattr(stream, self.accumulator)
        return cls(**kwargs)


@cache
def _parameters(fn: Callable[..., Any]) -> frozenset[str]:
    return frozenset(inspect.signature(fn).parameters)


def _rows() -> tuple[MetricInfo, ...]:
    """The table. Rows of one family stay together; variants follow their base row."""
    from . import classification as c
    from . import clustering as cl
    from . import recsys as rs
    from . import regression as r

    def row(name: str, fn: Callable[..., Any], family: str, inputs: str, gib: bool | None,
            description: str, **kw: Any) -> MetricInfo:  # fmt: skip
        options = MappingProxyType(dict(kw.pop("options", {})))
        return MetricInfo(name, fn, family, inputs, gib, description, options, **kw)

    cm = {"accumulator": "ConfusionMatrix"}
    bc = {"accumulator": "BinaryCurve"}
    rm = {"accumulator": "RegressionMoments"}
    rl = {"accumulator": "RegressionLosses"}
    ct = {"accumulator": "Contingency"}
    cls, reg, clu, rec = "classification", "regression", "clustering", "recsys"

    def avg(name: str, fn: Callable[..., Any], how: str, what: str, **kw: Any) -> MetricInfo:
        return row(f"{name}_{how}", fn, cls, "labels", True, f"{what}, {how} average over classes",
                   options={"average": how}, method=name, best=1.0, **cm, **kw)  # fmt: skip

    # One row per line; the formatter leaves the table alone.
    # fmt: off
    return (
        # ---- classification: labels
        row("accuracy", c.accuracy, cls, "labels", True, "share of rows predicted right",
            method="accuracy", best=1.0, **cm),
        row("balanced_accuracy", c.balanced_accuracy, cls, "labels", True,
            "mean recall over classes", method="balanced_accuracy", best=1.0, **cm),
        row("precision", c.precision, cls, "labels", True, "TP / (TP + FP) of the positive class",
            task="binary", method="precision", best=1.0, **cm),
        avg("precision", c.precision, "macro", "precision"),
        avg("precision", c.precision, "micro", "precision"),
        avg("precision", c.precision, "weighted", "precision"),
        row("recall", c.recall, cls, "labels", True, "TP / (TP + FN) of the positive class",
            task="binary", method="recall", best=1.0, **cm),
        avg("recall", c.recall, "macro", "recall"),
        avg("recall", c.recall, "micro", "recall"),
        avg("recall", c.recall, "weighted", "recall"),
        row("f1", c.f1, cls, "labels", True, "harmonic mean of precision and recall",
            task="binary", method="f1", best=1.0, **cm),
        avg("f1", c.f1, "macro", "F1"),
        avg("f1", c.f1, "micro", "F1"),
        avg("f1", c.f1, "weighted", "F1"),
        row("f2", c.fbeta, cls, "labels", True, "F-beta with beta = 2 (recall weighs more)",
            options={"beta": 2.0}, task="binary", method="fbeta", best=1.0, **cm),
        row("specificity", c.specificity, cls, "labels", True, "TN / (TN + FP): recall of the negatives",
            task="binary", method="specificity", best=1.0, **cm),
        avg("specificity", c.specificity, "macro", "specificity"),
        row("negative_predictive_value", c.negative_predictive_value, cls, "labels", True,
            "TN / (TN + FN): precision of the negatives", task="binary",
            method="negative_predictive_value", best=1.0, **cm),
        row("false_positive_rate", c.false_positive_rate, cls, "labels", False,
            "FP / (FP + TN): negatives called positive", task="binary",
            method="false_positive_rate", best=0.0, **cm),
        row("false_negative_rate", c.false_negative_rate, cls, "labels", False,
            "FN / (FN + TP): positives missed", task="binary", method="false_negative_rate",
            best=0.0, **cm),
        row("false_discovery_rate", c.false_discovery_rate, cls, "labels", False,
            "FP / (FP + TP): predicted positives that are negative", task="binary",
            method="false_discovery_rate", best=0.0, **cm),
        row("false_omission_rate", c.false_omission_rate, cls, "labels", False,
            "FN / (FN + TN): predicted negatives that are positive", task="binary",
            method="false_omission_rate", best=0.0, **cm),
        row("sensitivity", c.recall, cls, "labels", True, "TP / (TP + FN): recall, the TPR",
            task="binary", method="recall", best=1.0, **cm),
        row("informedness", c.balanced_accuracy, cls, "labels", True,
            "Youden's J = TPR + TNR − 1 (adjusted balanced accuracy)", task="binary",
            options={"adjusted": True}, method="balanced_accuracy", best=1.0, **cm),
        row("class_likelihood_ratios", c.class_likelihood_ratios, cls, "labels", None,
            "LR+ = TPR / FPR and LR− = FNR / TNR", task="binary", scalar=False),
        row("jaccard", c.jaccard, cls, "labels", True, "TP / (TP + FP + FN) of the positive class",
            task="binary", method="jaccard", best=1.0, **cm),
        avg("jaccard", c.jaccard, "macro", "Jaccard index"),
        row("e_measure", c.e_measure, cls, "labels", False,
            "van Rijsbergen's E = 1 − F (alpha = 0.5)", task="binary", method="e_measure",
            best=0.0, **cm),
        row("hamming_loss", c.hamming_loss, cls, "labels", False, "share of labels predicted wrong",
            method="hamming_loss", best=0.0, **cm),
        row("cohen_kappa", c.cohen_kappa, cls, "labels", True, "agreement beyond chance (Cohen's kappa)",
            method="cohen_kappa", best=1.0, **cm),
        row("matthews_corrcoef", c.matthews_corrcoef, cls, "labels", True,
            "Matthews correlation coefficient", method="matthews_corrcoef", best=1.0, **cm),
        row("confusion_matrix", c.confusion_matrix, cls, "labels", None,
            "counts of (true, predicted) pairs", method="confusion_matrix", scalar=False, **cm),
        row("multilabel_confusion_matrix", c.multilabel_confusion_matrix, cls, "labels", None,
            "one 2×2 matrix per class", method="multilabel_confusion_matrix", scalar=False, **cm),
        row("precision_recall_fscore_support", c.precision_recall_fscore_support, cls, "labels",
            None, "precision, recall, F and support per class",
            method="precision_recall_fscore_support", scalar=False, **cm),
        row("classification_report", c.classification_report, cls, "labels", None,
            "per-class precision, recall, F1 and support", scalar=False),
        # ---- classification: binary scores
        row("roc_auc", c.roc_auc, cls, "scores", True, "area under the ROC curve (ties one half)",
            task="binary", method="roc_auc", bootstrap="fast", best=1.0, rank_based=True, **bc),
        row("average_precision", c.average_precision, cls, "scores", True,
            "average precision (step area under the PR curve)", task="binary",
            method="average_precision", best=1.0, rank_based=True, **bc),
        row("pr_auc", c.pr_auc, cls, "scores", True, "trapezoidal area under the PR curve",
            task="binary", method="pr_auc", best=1.0, rank_based=True, **bc),
        row("equal_error_rate", c.equal_error_rate, cls, "scores", False,
            "where the false positive and false negative rates meet", task="binary",
            method="equal_error_rate", best=0.0, rank_based=True, **bc),
        row("det_curve", c.det_curve, cls, "scores", None, "FPR, FNR and thresholds (DET)",
            task="binary", method="det_curve", scalar=False, **bc),
        row("precision_at_recall", c.precision_at_recall, cls, "scores", None,
            "best precision at a recall of at least min_recall, and its threshold",
            task="binary", method="precision_at_recall", scalar=False, **bc),
        row("recall_at_precision", c.recall_at_precision, cls, "scores", None,
            "best recall at a precision of at least min_precision, and its threshold",
            task="binary", method="recall_at_precision", scalar=False, **bc),
        row("sensitivity_at_specificity", c.sensitivity_at_specificity, cls, "scores", None,
            "best sensitivity at a specificity of at least min_specificity",
            task="binary", method="sensitivity_at_specificity", scalar=False, **bc),
        row("specificity_at_sensitivity", c.specificity_at_sensitivity, cls, "scores", None,
            "best specificity at a sensitivity of at least min_sensitivity",
            task="binary", method="specificity_at_sensitivity", scalar=False, **bc),
        row("tpr_at_fpr", c.tpr_at_fpr, cls, "scores", None,
            "best true positive rate at a false positive rate of at most max_fpr",
            task="binary", method="tpr_at_fpr", scalar=False, **bc),
        row("gini", c.gini, cls, "scores", True, "2 AUC − 1", task="binary", method="gini",
            best=1.0, rank_based=True, **bc),
        row("ks_statistic", c.ks_statistic, cls, "scores", True,
            "Kolmogorov–Smirnov statistic: max(TPR − FPR)", task="binary", method="ks_statistic",
            best=1.0, rank_based=True, **bc),
        row("rank_loss", c.rank_loss, cls, "scores", False,
            "share of (positive, negative) pairs ordered wrongly", task="binary",
            method="rank_loss", best=0.0, rank_based=True, **bc),
        row("break_even_point", c.break_even_point, cls, "scores", True,
            "precision where precision = recall", task="binary", method="break_even_point",
            best=1.0, rank_based=True, **bc),
        row("roc_curve", c.roc_curve, cls, "scores", None, "FPR, TPR and thresholds",
            task="binary", method="roc_curve", scalar=False, **bc),
        row("precision_recall_curve", c.precision_recall_curve, cls, "scores", None,
            "precision, recall and thresholds", task="binary", method="precision_recall_curve",
            scalar=False, **bc),
        row("threshold_table", c.threshold_table, cls, "scores", None,
            "counts and rates at each threshold", task="binary", method="threshold_table",
            scalar=False, **bc),
        # ---- classification: probabilities and decision values
        row("log_loss", c.log_loss, cls, "probabilities", False, "cross-entropy of the probabilities",
            method="log_loss", best=0.0, **bc),
        row("brier_score", c.brier_score, cls, "probabilities", False,
            "mean squared error of the probabilities", task="binary", best=0.0),
        row("expected_calibration_error", c.expected_calibration_error, cls, "probabilities",
            False, "bin-weighted |observed − predicted| rate", task="binary", best=0.0),
        row("calibration_curve", c.calibration_curve, cls, "probabilities", None,
            "observed and predicted rate per bin", task="binary", scalar=False),
        row("hinge_loss", c.hinge_loss, cls, "decision", False, "mean hinge loss of the margins",
            best=0.0),
        # ---- classification: multiclass and multilabel scores
        row("top_k_accuracy", c.top_k_accuracy, cls, "multiclass_scores", True,
            "share of rows whose class is among the k best scores", best=1.0, rank_based=True),
        row("roc_auc_ovr", c.roc_auc, cls, "multiclass_scores", True,
            "one-vs-rest ROC AUC, macro average", options={"multi_class": "ovr"}, best=1.0),
        row("roc_auc_ovo", c.roc_auc, cls, "multiclass_scores", True,
            "one-vs-one ROC AUC (Hand & Till), macro average", options={"multi_class": "ovo"},
            best=1.0),
        row("coverage_error", c.coverage_error, cls, "multilabel_scores", False,
            "how far down the ranking all true labels are covered", rank_based=True),
        row("label_ranking_average_precision", c.label_ranking_average_precision, cls,
            "multilabel_scores", True, "label ranking average precision", best=1.0,
            rank_based=True),
        row("label_ranking_loss", c.label_ranking_loss, cls, "multilabel_scores", False,
            "share of label pairs ordered wrongly", best=0.0, rank_based=True),
        # ---- regression
        row("mae", r.mae, reg, "regression", False, "mean absolute error", method="mae", best=0.0,
            **rm),
        row("mse", r.mse, reg, "regression", False, "mean squared error", method="mse", best=0.0,
            **rm),
        row("rmse", r.rmse, reg, "regression", False, "root mean squared error", method="rmse",
            best=0.0, **rm),
        row("r2", r.r2, reg, "regression", True, "coefficient of determination", method="r2",
            best=1.0, **rm),
        row("explained_variance", r.explained_variance, reg, "regression", True,
            "explained variance score", method="explained_variance", best=1.0, **rm),
        row("mape", r.mape, reg, "regression", False, "mean absolute percentage error",
            method="mape", best=0.0, **rm),
        row("median_absolute_error", r.median_absolute_error, reg, "regression", False,
            "median absolute error", best=0.0),
        row("max_error", r.max_error, reg, "regression", False, "largest absolute error",
            method="max_error", bootstrap="none", best=0.0, **rm),
        # the deviances have a RegressionLosses method too, but no accumulator here: "all"
        # over a Dask frame or a MetricSet would then fail on data outside their domain
        row("msle", r.msle, reg, "regression", False, "mean squared logarithmic error",
            method="msle", best=0.0, **rl),
        row("rmsle", r.rmsle, reg, "regression", False, "root mean squared logarithmic error",
            method="rmsle", best=0.0, **rl),
        row("mean_poisson_deviance", r.mean_poisson_deviance, reg, "regression", False,
            "mean Poisson deviance", best=0.0),
        row("mean_gamma_deviance", r.mean_gamma_deviance, reg, "regression", False,
            "mean gamma deviance", best=0.0),
        row("mean_tweedie_deviance", r.mean_tweedie_deviance, reg, "regression", False,
            "mean Tweedie deviance (power=0: MSE)", best=0.0),
        row("mean_pinball_loss", r.mean_pinball_loss, reg, "regression", False,
            "mean pinball (quantile) loss", method="mean_pinball_loss", best=0.0, **rl),
        row("d2_absolute_error", r.d2_absolute_error, reg, "regression", True,
            "fraction of absolute error explained (D² against the median)", best=1.0),
        row("d2_pinball", r.d2_pinball, reg, "regression", True,
            "fraction of pinball loss explained (D² against the quantile)", best=1.0),
        row("d2_tweedie", r.d2_tweedie, reg, "regression", True,
            "fraction of Tweedie deviance explained (D² against the mean)", best=1.0),
        row("smape", r.smape, reg, "regression", False,
            "symmetric mean absolute percentage error (torchmetrics, in [0, 2])", method="smape",
            best=0.0, **rl),
        row("wmape", r.wmape, reg, "regression", False,
            "weighted mean absolute percentage error Σ|e| / Σ|y|", method="wmape", best=0.0,
            **rl),
        row("pearson", r.pearson, reg, "regression", True,
            "Pearson correlation of predictions and targets", method="pearson", best=1.0, **rl),
        row("concordance_correlation", r.concordance_correlation, reg, "regression", True,
            "Lin's concordance correlation (torchmetrics' n − 1 moments)",
            method="concordance_correlation", best=1.0, **rl),
        # ---- clustering: two labelings
        row("adjusted_rand_index", cl.adjusted_rand_index, clu, "clustering", True,
            "Rand index adjusted for chance", method="adjusted_rand_index", best=1.0, **ct),
        row("rand_index", cl.rand_index, clu, "clustering", True,
            "share of point pairs on which the labelings agree", method="rand_index", best=1.0,
            **ct),
        row("adjusted_mutual_info", cl.adjusted_mutual_info, clu, "clustering", True,
            "mutual information adjusted for chance", method="adjusted_mutual_info", best=1.0,
            **ct),
        row("normalized_mutual_info", cl.normalized_mutual_info, clu, "clustering", True,
            "mutual information over the mean entropy", method="normalized_mutual_info",
            best=1.0, **ct),
        row("mutual_info", cl.mutual_info, clu, "clustering", True, "mutual information (nats)",
            method="mutual_info", **ct),
        row("homogeneity", cl.homogeneity, clu, "clustering", True,
            "each cluster holds one class", method="homogeneity", best=1.0, **ct),
        row("completeness", cl.completeness, clu, "clustering", True,
            "each class falls in one cluster", method="completeness", best=1.0, **ct),
        row("v_measure", cl.v_measure, clu, "clustering", True,
            "harmonic mean of homogeneity and completeness", method="v_measure", best=1.0, **ct),
        row("fowlkes_mallows", cl.fowlkes_mallows, clu, "clustering", True,
            "geometric mean of pair precision and pair recall", method="fowlkes_mallows",
            best=1.0, **ct),
        row("cluster_accuracy", cl.cluster_accuracy, clu, "clustering", True,
            "accuracy under the best one-to-one matching of clusters to classes",
            method="cluster_accuracy", best=1.0, **ct),
        row("pair_confusion_matrix", cl.pair_confusion_matrix, clu, "clustering", None,
            "ordered point pairs grouped alike or apart", method="pair_confusion_matrix",
            scalar=False, **ct),
        row("contingency_matrix", cl.contingency_matrix, clu, "clustering", None,
            "counts of (class, cluster) pairs", method="contingency_matrix", scalar=False, **ct),
        row("homogeneity_completeness_v_measure", cl.homogeneity_completeness_v_measure, clu,
            "clustering", None, "the three at once", method="homogeneity_completeness_v_measure",
            scalar=False, **ct),
        # ---- clustering: points and labels
        row("silhouette_score", cl.silhouette_score, clu, "features", True,
            "mean silhouette coefficient", best=None),
        row("calinski_harabasz", cl.calinski_harabasz, clu, "features", True,
            "between- over within-cluster dispersion"),
        row("davies_bouldin", cl.davies_bouldin, clu, "features", False,
            "mean similarity of each cluster to its closest one"),
        row("dunn_index", cl.dunn_index, clu, "features", True,
            "closest centroids over the widest cluster (centroid form)"),
        row("silhouette_samples", cl.silhouette_samples, clu, "features", None,
            "silhouette coefficient of each point", scalar=False),
        # ---- recommendation and CTR
        row("gauc", rs.gauc, rec, "groups", True,
            "group AUC: per-group ROC AUC, impression-weighted mean", task="binary",
            accumulator="GroupedCurve", method="gauc", best=1.0, rank_based=True),
        row("pcoc", rs.pcoc, rec, "probabilities", None,
            "predicted over observed click rate (1 is calibrated)", task="binary", best=1.0,
            accumulator="Calibration", method="pcoc"),
        row("normalized_entropy", rs.normalized_entropy, rec, "probabilities", False,
            "log loss over the entropy of the base rate", task="binary", best=0.0,
            accumulator="Calibration", method="normalized_entropy"),
        row("pcoc_by_group", rs.pcoc_by_group, rec, "groups", None,
            "PCOC of each group", task="binary", scalar=False),
        row("catalog_coverage", rs.catalog_coverage, rec, "lists", True,
            "share of the catalog recommended at least once"),
        row("item_coverage", rs.catalog_coverage, rec, "lists", True,
            "share of the catalog recommended at least once (RecBole's ItemCoverage)"),
        row("user_coverage", rs.user_coverage, rec, "user_lists", True,
            "share of users with at least one recommendation"),
        row("novelty", rs.novelty, rec, "popularity", True,
            "mean −log2 popularity of the recommended items (Castells)"),
        row("average_popularity", rs.average_popularity, rec, "popularity", False,
            "mean popularity of each list, averaged over users (ARP)"),
        row("exposure_gini", rs.exposure_gini, rec, "lists", False,
            "Gini index of how often each catalog item is recommended"),
        row("exposure_entropy", rs.exposure_entropy, rec, "user_lists", True,
            "Shannon entropy of item exposure"),
        row("tail_share", rs.tail_share, rec, "tail", True,
            "share of long-tail items per list, averaged over users"),
        row("intra_list_diversity", rs.intra_list_diversity, rec, "item_features", True,
            "mean pairwise feature distance within each list"),
        row("serendipity", rs.serendipity, rec, "history", True,
            "relevance-weighted unlikeness to each user's history (MS recommenders)"),
        row("coverage_ratio", rs.coverage_ratio, rec, "sets", True,
            "known relevant items retrieved over known relevant items"),
        row("relative_recall", rs.relative_recall, rec, "sets", True,
            "relevant items found over the relevant items the user expected"),
        row("recall_effort", rs.recall_effort, rec, "ranked_sets", True,
            "relevant items expected over the items examined to find as many"),
        row("novelty_ratio", rs.novelty_ratio, rec, "sets", True,
            "unknown relevant items among the relevant retrieved"),
    )
    # fmt: on


@cache
def _table() -> tuple[tuple[MetricInfo, ...], Mapping[str, MetricInfo]]:
    rows = _rows()
    by_name = {r.name: r for r in rows}
    if len(by_name) != len(rows):
        raise RuntimeError("the metric catalog names a metric twice")  # a defect, not input
    return rows, MappingProxyType(by_name)


def metrics(family: str | None = None) -> tuple[MetricInfo, ...]:
    """Every metric scorekit has, as catalog rows (:class:`MetricInfo`).

    Parameters
    ----------
    family : {"classification", "regression", "clustering", "recsys"}, default=None
        Only that family's rows; ``None`` for all. Ranking measures have their
        own table: :func:`scorekit.ranking.measures`.

    Returns
    -------
    tuple of MetricInfo
        In a stable order: by family, base rows before their variants.

    Examples
    --------
    >>> import scorekit as sk
    >>> [m.name for m in sk.metrics("regression")][:3]
    ['mae', 'mse', 'rmse']
    >>> info = sk.metric_info("f1_macro")
    >>> info.function is sk.f1, dict(info.options), info.accumulator
    (True, {'average': 'macro'}, 'ConfusionMatrix')
    """
    rows, _ = _table()
    if family is None:
        return rows
    if family not in FAMILIES:
        raise ParameterError(f"family must be one of {', '.join(FAMILIES)}; got {family!r}")
    return tuple(r for r in rows if r.family == family)


def get(name: str) -> MetricInfo:
    """The catalog row named ``name``; :class:`UnknownMetricError` with suggestions otherwise.

    Parameters
    ----------
    name : str
        A catalog name (``"roc_auc"``, ``"f1_macro"``); case is not significant.

    Examples
    --------
    >>> import scorekit as sk
    >>> sk.metric_info("ROC_AUC").greater_is_better
    True
    >>> sk.metric_info("rocauc")
    Traceback (most recent call last):
    ...
    scorekit._errors.UnknownMetricError: unknown metric 'rocauc'; did you mean 'roc_auc' or 'roc_auc_ovr' or 'roc_auc_ovo'?
    """
    _, by_name = _table()
    if not isinstance(name, str):
        raise UnknownMetricError(f"a metric name must be a string; got {type(name).__name__}")
    found = by_name.get(name) or by_name.get(name.lower())
    if found is not None:
        return found
    raise UnknownMetricError(f"unknown metric {name!r}{suggest(name, by_name)}")


def suggest(name: str, known: Mapping[str, Any] | tuple[str, ...]) -> str:
    """``"; did you mean 'x'?"`` for the closest known names, or a pointer to the list."""
    close = difflib.get_close_matches(name.lower(), list(known), n=3, cutoff=0.6)
    if close:
        return "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    return " (scorekit metrics lists them all)"


#: how the command line and the errors describe each kind of input
INPUT_TEXT = {
    "labels": "predicted labels",
    "multilabel": "indicator matrices",
    "scores": "scores",
    "probabilities": "probabilities in [0, 1]",
    "decision": "decision values",
    "multiclass_scores": "one score column per class",
    "multilabel_scores": "one score column per label",
    "regression": "real-valued targets and predictions",
    "clustering": "true classes and cluster labels",
    "features": "feature columns",
    "groups": "labels, scores and group ids",
    "lists": "recommendation lists and the catalog size",
    "user_lists": "recommendation lists",
    "popularity": "recommendation lists and item popularity",
    "tail": "recommendation lists and the tail items",
    "item_features": "recommendation lists and item features",
    "sets": "item sets",
    "ranked_sets": "a ranking and item sets",
    "history": "recommendation lists and each user's training history",
}


def select(
    names: Sequence[str] | None,
    *,
    inputs: Mapping[str, str | None],
    binary: bool = True,
    default: Sequence[str] = (),
    flag: str = "metrics",
    structured: bool = False,
    supplied: Sequence[str] = (),
) -> tuple[MetricInfo, ...]:
    """The catalog rows named by ``names``, checked against the data at hand.

    A name may carry options, ``NAME(key=value, ...)`` (Python literals:
    ``precision_at_recall(min_recall=0.9)``); such a row is computed by its
    function on the data (no accumulator, no bootstrap interval) and keeps the
    text as written for its name.

    Parameters
    ----------
    names : sequence of str or None
        Catalog names; an item may be a comma list, and ``"all"`` stands for
        every scalar row whose inputs are available. ``None`` or empty: ``default``.
    inputs : mapping of str to str or None
        The kinds of input at hand (keys). A kind mapped to a string is *not*
        available and the string says how to make it so (``{"labels": "pass
        --threshold"}``); a kind mapped to ``None`` is available.
    binary : bool, default=True
        Whether the labels have two classes (rows with ``task="binary"`` need it).
    default : sequence of str
        The names used when ``names`` is empty.
    flag : str, default="metrics"
        How errors name the option (``"-m"`` on the command line).
    structured : bool, default=False
        Whether rows that are not a single number (curves, tables, operating
        points) may be named; ``"all"`` stays the scalar rows.
    supplied : sequence of str, default=()
        Required options the caller passes itself (``n_users`` of ``novelty``
        from a training file); any other required option must be written.

    Returns
    -------
    tuple of MetricInfo
        In the order asked, each once.

    Examples
    --------
    >>> [r.name for r in select(["mae,r2", "mae"], inputs={"regression": None})]
    ['mae', 'r2']
    >>> [dict(r.options) for r in select(["mean_pinball_loss(alpha=0.9)"], inputs={"regression": None})]
    [{'alpha': 0.9}]
    """
    available = {k for k, v in inputs.items() if v is None}
    out: dict[str, MetricInfo] = {}
    items = [n.strip() for item in (names or default) for n in _split_names(str(item))]
    for text in filter(None, items):
        name, params = _options(text, flag)
        if name.lower() == "all":
            for r in metrics():
                if r.scalar and r.inputs in available and (binary or r.task == "any"):
                    out.setdefault(r.name, r)
            continue
        try:
            r = get(name)
        except UnknownMetricError as e:
            raise UnknownMetricError(f"{flag} {name}: {e}") from None
        if not r.scalar and not structured:
            raise ParameterError(
                f"{flag} {name}: {r.description} is not a single number (the report shows it)"
            )
        if r.inputs not in available:
            how = inputs.get(r.inputs)
            have = ", ".join(INPUT_TEXT[k] for k in sorted(available)) or "nothing"
            raise ParameterError(
                f"{flag} {name} needs {INPUT_TEXT[r.inputs]}"
                + (f": {how}" if how else f"; this command has {have}")
            )
        if r.task == "binary" and not binary:
            alt = f"{name}_macro"
            hint = f"; try {alt}" if alt in _table()[1] else ""
            raise ParameterError(f"{flag} {name} needs two classes, the labels have more{hint}")
        if params:
            r = _with_options(r, text, params, flag)
        needed = [
            p.name
            for p in inspect.signature(r.function).parameters.values()
            if p.kind is p.KEYWORD_ONLY
            and p.default is p.empty
            and p.name not in r.options
            and p.name not in supplied
        ]
        if needed:
            raise ParameterError(f"{flag} {name} needs {needed[0]}: write {name}({needed[0]}=...)")
        out.setdefault(r.name, r)
    return tuple(out.values())


def _split_names(text: str) -> list[str]:
    """``"a,b(x=1,y=2)"`` -> ``["a", "b(x=1,y=2)"]``: commas outside parentheses split."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _options(text: str, flag: str) -> tuple[str, dict[str, Any]]:
    """``"name(k=v, ...)"`` -> (name, {k: v}); a plain name -> (name, {})."""
    if "(" not in text:
        return text, {}
    name, _, rest = text.partition("(")
    if not rest.endswith(")"):
        raise ParameterError(f"{flag} {text}: options are written NAME(key=value, ...)")
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in _split_names(rest[:-1]))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ParameterError(f"{flag} {text}: {item!r} is not key=value")
        try:
            params[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            params[key.strip()] = value.strip()  # a bare word: a string option
    return name.strip(), params


def _with_options(row: MetricInfo, text: str, params: dict[str, Any], flag: str) -> MetricInfo:
    """The row computed by its function with ``params`` added, named as written."""
    data = {"y_true", "y_pred", "y_score", "y_prob", "labels_true", "labels_pred", "X"}
    accepted = [
        p.name
        for p in inspect.signature(row.function).parameters.values()
        if p.name not in data and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ParameterError(
            f"{flag} {text}: {row.name} has no option {unknown[0]!r}; its options are "
            + (", ".join(accepted) or "none")
        )
    options = MappingProxyType({**row.options, **params})
    return replace(row, name=text, options=options, accumulator=None, method=None, bootstrap="none")
