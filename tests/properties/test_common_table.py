"""The metric table behind the common property tests, as scikit-learn's test_common.py.

Every public metric of the classification, regression, clustering and recsys
families is described once here (function, kind of input, options, flags) and
the properties in ``test_common.py`` / ``test_common_inputs.py`` are stated once
and parametrised over this table. This module holds the table, the input
generators and the comparison helpers (imported by name by the other two
modules); its own tests check that the table covers every public metric.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pytest

import scorekit as sk

FAMILIES = ("classification", "regression", "clustering", "recsys")
N = 40  # rows per generated case: small, so ~1000 cases run in a few seconds
SEEDS = (0, 1, 2)
# order-preserving names for the integer labels -1..6 (sorted like the integers)
WORDS = np.array(["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen"])


# ---------------------------------------------------------------------- generators
# Each generator returns the positional data arguments of one kind of metric for n
# rows. Label generators put every class on the first rows of both arguments so that
# removing or re-weighting later rows never removes a class (no undefined metrics).


def _labels(rng, n, k):
    t, p = rng.integers(0, k, n), rng.integers(0, k, n)
    t[:k] = p[:k] = np.arange(k)
    t[k : 2 * k] = np.arange(k)
    p[k : 2 * k] = np.roll(np.arange(k), 1)  # every class also wrong at least once
    return t, p


def _indicator(rng, n, k):
    y = rng.integers(0, 2, (n, k))
    y[:k] = np.eye(k, dtype=int)
    y[k : 2 * k] = 1 - np.eye(k, dtype=int)
    empty = ~y.any(axis=1)
    y[empty, 0] = 1  # every row has a label (no 0/0 sample-wise ratio)
    return y


def _binary_y(rng, n):
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    return y


def _groups(rng, n, y):
    g = rng.integers(0, 5, n)
    g[:10] = np.repeat(np.arange(5), 2)  # every group has a negative and a positive
    y[:10] = np.tile([0, 1], 5)
    return g


def gen_labels2(rng, n):
    return _labels(rng, n, 2)


def gen_labels3(rng, n):
    return _labels(rng, n, 3)


def gen_multilabel(rng, n):
    return _indicator(rng, n, 4), _indicator(rng, n, 4)


def gen_binary_scores(rng, n):
    return _binary_y(rng, n), np.round(rng.random(n), 1)  # ties on purpose


def gen_probabilities(rng, n):
    return _binary_y(rng, n), np.round(rng.random(n), 2)


def gen_decision(rng, n):
    return 2 * _binary_y(rng, n) - 1, np.round(rng.normal(size=n), 1)


def gen_multiclass_scores(rng, n):
    return _labels(rng, n, 3)[0], rng.dirichlet(np.ones(3), n)


def gen_multiclass_decision(rng, n):
    return _labels(rng, n, 3)[0], np.round(rng.normal(size=(n, 3)), 1)


def gen_multilabel_scores(rng, n):
    return _indicator(rng, n, 4), np.round(rng.random((n, 4)), 1)


def gen_regression(rng, n):
    y = rng.uniform(1.0, 5.0, n)  # away from 0 for mape
    return y, y + rng.normal(size=n)


def gen_regression_positive(rng, n):
    y = rng.uniform(1.0, 5.0, n)  # deviances and MSLE: positive targets and predictions
    return y, y * rng.uniform(0.5, 1.5, n)


def gen_regression_2d(rng, n):
    y = rng.uniform(1.0, 5.0, (n, 2))
    return y, y + rng.normal(size=(n, 2))


def gen_clustering(rng, n):
    a, b = rng.integers(0, 4, n), rng.integers(0, 5, n)
    a[:4], b[:5] = np.arange(4), np.arange(5)
    return a, b


def gen_cluster_internal(rng, n):
    labels = rng.integers(0, 3, n)
    labels[:6] = [0, 0, 1, 1, 2, 2]
    centres = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
    return centres[labels] + rng.normal(size=(n, 2)), labels


def gen_grouped(rng, n):
    y = _binary_y(rng, n)
    g = _groups(rng, n, y)
    return y, np.round(rng.random(n), 1), g


def gen_grouped_prob(rng, n):
    y = _binary_y(rng, n)
    g = _groups(rng, n, y)
    return y, np.round(rng.random(n), 2), g


def gen_sets(rng, n):
    items = np.arange(30)
    return tuple(rng.choice(items, size=s, replace=False) for s in (12, 15, 18))


def gen_catalog(rng, n):
    return rng.integers(0, 25, (n // 4, 3)), 30


def gen_ranked_sets(rng, n):
    items = rng.permutation(30)
    return items, items[rng.choice(30, 12, replace=False)], np.arange(3)


def gen_user_lists(rng, n):
    return (rng.integers(0, 25, (n // 4, 3)),)


def gen_popularity(rng, n):
    return rng.integers(0, 25, (n // 4, 3)), {i: int(1 + (i * 7) % 13) for i in range(25)}


def gen_tail(rng, n):
    return rng.integers(0, 25, (n // 4, 3)), set(range(10, 25))


def gen_item_features(rng, n):
    return rng.integers(0, 25, (n // 4, 3)), (np.arange(25), rng.random((25, 4)) + 0.1)


def gen_history(rng, n):
    """Each user's recommendations (3 items) and training history (4 other items)."""
    items = np.argsort(rng.random((max(n // 4, 2), 25)), axis=1)
    return items[:, :3], items[:, 3:7]


def gen_threshold_list(rng, n):
    y, s = gen_binary_scores(rng, n)
    return y, s, np.array([0.8, 0.5, 0.25, -np.inf])


# perfect predictions: the prediction derived from the truth


def _one_hot(y, k):
    return np.eye(k)[y]


def _copy_of_truth(gen):
    """A generator whose prediction is the truth itself."""
    return lambda rng, n: (lambda y: (y, y.copy()))(gen(rng, n)[0])


def perfect_binary_scores(rng, n):
    y = _binary_y(rng, n)
    return y, y + 0.9 * rng.random(n)  # every positive above every negative


def perfect_probabilities(rng, n):
    y = _binary_y(rng, n)
    return y, y.astype(float)


def perfect_decision(rng, n):
    y = gen_decision(rng, n)[0]
    return y, 2.0 * y  # every margin is 2


def perfect_multiclass_scores(rng, n):
    y = gen_labels3(rng, n)[0]
    return y, _one_hot(y, 3)


def perfect_multiclass_decision(rng, n):
    y = gen_labels3(rng, n)[0]
    return y, 2.0 * _one_hot(y, 3)


def perfect_multilabel_scores(rng, n):
    y = _indicator(rng, n, 4)
    return y, y + 0.9 * rng.random(y.shape)


def perfect_clustering(rng, n):
    a, _ = gen_clustering(rng, n)
    return a, rng.permutation(4)[a] + 7  # the same partition under other names


def perfect_grouped(rng, n):
    y, _, g = gen_grouped(rng, n)
    return y, y + 0.9 * rng.random(n), g


def perfect_grouped_prob(rng, n):
    y, _, g = gen_grouped_prob(rng, n)
    return y, y.astype(float), g


PERFECT: dict[str, Callable[[np.random.Generator, int], tuple[Any, ...]]] = {
    "labels2": _copy_of_truth(gen_labels2),
    "labels3": _copy_of_truth(gen_labels3),
    "multilabel": _copy_of_truth(gen_multilabel),
    "binary_scores": perfect_binary_scores,
    "probabilities": perfect_probabilities,
    "decision": perfect_decision,
    "multiclass_scores": perfect_multiclass_scores,
    "multiclass_decision": perfect_multiclass_decision,
    "multilabel_scores": perfect_multilabel_scores,
    "regression": _copy_of_truth(gen_regression),
    "regression_2d": _copy_of_truth(gen_regression_2d),
    "regression_positive": _copy_of_truth(gen_regression_positive),
    "clustering": perfect_clustering,
    "grouped": perfect_grouped,
    "grouped_prob": perfect_grouped_prob,
}

GENERATORS: dict[str, Callable[[np.random.Generator, int], tuple[Any, ...]]] = {
    "labels2": gen_labels2,
    "labels3": gen_labels3,
    "multilabel": gen_multilabel,
    "binary_scores": gen_binary_scores,
    "probabilities": gen_probabilities,
    "decision": gen_decision,
    "multiclass_scores": gen_multiclass_scores,
    "multiclass_decision": gen_multiclass_decision,
    "multilabel_scores": gen_multilabel_scores,
    "regression": gen_regression,
    "regression_2d": gen_regression_2d,
    "regression_positive": gen_regression_positive,
    "clustering": gen_clustering,
    "cluster_internal": gen_cluster_internal,
    "grouped": gen_grouped,
    "grouped_prob": gen_grouped_prob,
    "sets": gen_sets,
    "catalog": gen_catalog,
    "user_lists": gen_user_lists,
    "ranked_sets": gen_ranked_sets,
    "popularity": gen_popularity,
    "tail": gen_tail,
    "item_features": gen_item_features,
    "history": gen_history,
    "threshold_list": gen_threshold_list,
}


class KindArgs(NamedTuple):
    """The data arguments of a kind, by the names the functions use (checked below)."""

    data: tuple[str, ...]  # positional data arguments, in order
    rows: tuple[str, ...]  # one entry per sample (permuted, repeated, cut together)
    floats: tuple[str, ...]  # scores or values: NaN / inf must raise
    labels: tuple[str, ...]  # 1-D class labels or ids


_YP, _YS, _YPR = ("y_true", "y_pred"), ("y_true", "y_score"), ("y_true", "y_prob")
_YD, _LL = ("y_true", "pred_decision"), ("labels_true", "labels_pred")
KIND_ARGS: dict[str, KindArgs] = {
    "labels2": KindArgs(_YP, _YP, (), _YP),
    "labels3": KindArgs(_YP, _YP, (), _YP),
    "multilabel": KindArgs(_YP, _YP, (), ()),
    "binary_scores": KindArgs(_YS, _YS, ("y_score",), ("y_true",)),
    "probabilities": KindArgs(_YPR, _YPR, ("y_prob",), ("y_true",)),
    "decision": KindArgs(_YD, _YD, ("pred_decision",), ("y_true",)),
    "multiclass_scores": KindArgs(_YS, _YS, ("y_score",), ("y_true",)),
    "multiclass_decision": KindArgs(_YD, _YD, ("pred_decision",), ("y_true",)),
    "multilabel_scores": KindArgs(_YS, _YS, ("y_score",), ()),
    "regression": KindArgs(_YP, _YP, _YP, ()),
    "regression_2d": KindArgs(_YP, _YP, _YP, ()),
    "regression_positive": KindArgs(_YP, _YP, _YP, ()),
    "clustering": KindArgs(_LL, _LL, (), _LL),
    "cluster_internal": KindArgs(("X", "labels"), ("X", "labels"), ("X",), ("labels",)),
    "grouped": KindArgs((*_YS, "groups"), (*_YS, "groups"), ("y_score",), ("y_true", "groups")),
    "grouped_prob": KindArgs(
        (*_YPR, "groups"), (*_YPR, "groups"), ("y_prob",), ("y_true", "groups")
    ),
    "sets": KindArgs(("retrieved", "relevant", "known"), (), (), ()),
    "catalog": KindArgs(("recommended_lists", "catalog_size"), ("recommended_lists",), (), ()),
    "user_lists": KindArgs(("recommended_lists",), ("recommended_lists",), (), ()),
    "ranked_sets": KindArgs(("ranking", "relevant", "expected"), (), (), ()),
    "popularity": KindArgs(("recommended_lists", "popularity"), ("recommended_lists",), (), ()),
    "tail": KindArgs(("recommended_lists", "tail_items"), ("recommended_lists",), (), ()),
    "item_features": KindArgs(
        ("recommended_lists", "item_features"), ("recommended_lists",), (), ()
    ),
    "history": KindArgs(("recommended_lists", "history"), (), (), ()),
    "threshold_list": KindArgs((*_YS, "thresholds"), _YS, ("y_score",), ("y_true",)),
}


# ---------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Metric:
    """One row of the table: a public function, the input it takes and what holds for it."""

    id: str  # pytest id: the function name, plus the variant in brackets
    func: Callable[..., Any]
    kind: str  # key of GENERATORS
    kwargs: dict[str, Any] = field(default_factory=dict)
    weight: bool = False  # has sample_weight
    weight_scale: bool = True  # scaling all weights by a constant changes nothing (ratios)
    symmetric: bool | None = None  # f(a, b) == f(b, a); None: not stated either way
    swapped: Callable[[Any], Any] | None = None  # f(b, a) == swapped(f(a, b)) (transposes)
    strings: bool = False  # string labels give the int-coded result
    string_kwargs: dict[str, Any] = field(default_factory=dict)  # added in the string case
    best: Any = None  # value of a perfect prediction: number, tuple or callable(args)
    rank_based: bool = False  # invariant under a strictly increasing map of the scores
    row_output: bool = False  # one output entry per row (permuted with the rows)
    renaming: tuple[str, ...] = ()  # label arguments whose ids can be renamed freely
    one_d_only: tuple[str, ...] | None = None  # default: the kind's 1-D label arguments
    names: tuple[str, ...] | None = None  # the function's own names of the kind's data args
    n_rows: int = N

    def _rename(self, names: tuple[str, ...]) -> tuple[str, ...]:
        if self.names is None:
            return names
        own = dict(zip(KIND_ARGS[self.kind].data, self.names, strict=True))
        return tuple(own[n] for n in names)

    @property
    def data(self) -> tuple[str, ...]:
        return self._rename(KIND_ARGS[self.kind].data)

    @property
    def rows(self) -> tuple[str, ...]:
        return self._rename(KIND_ARGS[self.kind].rows)

    @property
    def floats(self) -> tuple[str, ...]:
        return self._rename(KIND_ARGS[self.kind].floats)

    @property
    def label_args(self) -> tuple[str, ...]:
        return self._rename(KIND_ARGS[self.kind].labels)

    @property
    def one_d(self) -> tuple[str, ...]:
        return self.label_args if self.one_d_only is None else self.one_d_only

    @property
    def has_nan_policy(self) -> bool:
        return "nan_policy" in inspect.signature(self.func).parameters

    def make(self, seed: int, *, perfect: bool = False) -> tuple[Any, ...]:
        rng = np.random.default_rng([seed, len(self.id), sum(map(ord, self.id))])
        gen = PERFECT[self.kind] if perfect else GENERATORS[self.kind]
        return tuple(gen(rng, self.n_rows))

    def __call__(self, *args: Any, **extra: Any) -> Any:
        return self.func(*args, **{**self.kwargs, **extra})

    def index(self, name: str) -> int:
        return self.data.index(name)


def _mean_row_cardinality(args):
    return float(np.asarray(args[0]).sum(axis=1).mean())


def _entropy(args):
    p = np.bincount(np.asarray(args[0])) / len(args[0])
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def _diag_counts(args):
    return np.diag(np.bincount(args[0], minlength=3))


def _transpose(out):
    return np.asarray(out).T


def _transpose_2x2(out):
    return np.asarray(out).transpose(0, 2, 1)


def _m(id_, func, kind, **kw):
    """A variant row; it has weights when its function takes them (and the variant allows)."""
    weight = "sample_weight" in inspect.signature(func).parameters and id_ not in NO_WEIGHT
    return Metric(id_, func, kind, weight=weight, **kw)


LAB = {"strings": True}
KAPPA = {**LAB, "names": ("y1", "y2")}
PROB = {"names": ("y_true", "y_prob")}
POS1 = {"string_kwargs": {"pos_label": 1}}
CL = {"strings": True, "renaming": ("labels_true", "labels_pred")}
INTERNAL = {"strings": True, "renaming": ("labels",)}
GROUPED = {"renaming": ("groups",)}

#: the generator of each catalog input kind (labels: by the row's task)
KIND_OF_INPUTS = {
    "scores": "binary_scores",
    "probabilities": "probabilities",
    "decision": "decision",
    "multiclass_scores": "multiclass_scores",
    "multilabel_scores": "multilabel_scores",
    "regression": "regression",
    "clustering": "clustering",
    "features": "cluster_internal",
    "groups": "grouped",
    "lists": "catalog",
    "user_lists": "user_lists",
    "popularity": "popularity",
    "tail": "tail",
    "item_features": "item_features",
    "sets": "sets",
    "ranked_sets": "ranked_sets",
    "history": "history",
}

# What the tests know of each catalog row beyond the catalog itself (symmetry,
# string labels, how its output transposes ...). The function, the options, the
# input kind, the best value and rank-basedness come from the catalog
# (``scorekit.metrics()``); a row absent here has no extra facts.
# fmt: off
FACTS: dict[str, dict[str, Any]] = {
    "accuracy": {"symmetric": True, **LAB},
    "balanced_accuracy": {"symmetric": False, **LAB},
    "precision": {"symmetric": False, **LAB, **POS1},
    "precision_macro": {"symmetric": False, **LAB},
    "precision_micro": {"symmetric": True, **LAB},
    "precision_weighted": {"symmetric": False, **LAB},
    "recall": {"symmetric": False, **LAB, **POS1},
    "recall_macro": {"symmetric": False, **LAB},
    "recall_micro": {"symmetric": True, **LAB},
    "recall_weighted": {"symmetric": True, **LAB},  # weighted recall is accuracy
    "f1": {"symmetric": True, **LAB, **POS1},
    "f1_macro": {"symmetric": True, **LAB},
    "f1_micro": {"symmetric": True, **LAB},
    "f1_weighted": {"symmetric": False, **LAB},
    "f2": {"symmetric": False, **LAB, **POS1},
    "specificity": {"symmetric": False, **LAB, **POS1},
    "specificity_macro": {"symmetric": False, **LAB},
    "negative_predictive_value": {"symmetric": False, **LAB, **POS1},
    "jaccard": {"symmetric": True, **LAB, **POS1},
    "jaccard_macro": {"symmetric": True, **LAB},
    "e_measure": {"symmetric": True, **LAB, **POS1},
    "hamming_loss": {"symmetric": True, **LAB},
    "cohen_kappa": {"symmetric": True, **KAPPA},
    "matthews_corrcoef": {"symmetric": True, **LAB},
    "confusion_matrix": {"swapped": _transpose, "weight_scale": False, "best": _diag_counts, **LAB},
    "multilabel_confusion_matrix": {"swapped": _transpose_2x2, "weight_scale": False, **LAB},
    "precision_recall_fscore_support": {"weight_scale": False, **LAB},
    "classification_report": {"weight_scale": False, **LAB},
    "roc_auc": {**LAB, **POS1},
    "average_precision": {**LAB, **POS1},
    "pr_auc": {**LAB, **POS1},
    "gini": {**LAB, **POS1},
    "ks_statistic": {**LAB, **POS1},
    "rank_loss": {**LAB, **POS1},
    "break_even_point": {**LAB, **POS1},
    "roc_curve": {**LAB, **POS1},
    "precision_recall_curve": {**LAB, **POS1},
    "threshold_table": {"weight_scale": False, **LAB, **POS1},
    "log_loss": {**LAB},
    "brier_score": {**LAB, **POS1},
    "expected_calibration_error": {"strings": True, **POS1},
    "calibration_curve": {"best": ([0.0, 1.0], [0.0, 1.0]), "strings": True, **POS1},
    "hinge_loss": {**LAB},
    "equal_error_rate": {**LAB, **POS1},
    "det_curve": {**LAB, **POS1},
    "precision_at_recall": {"kwargs": {"min_recall": 0.5}, **LAB, **POS1},
    "recall_at_precision": {"kwargs": {"min_precision": 0.6}, **LAB, **POS1},
    "sensitivity_at_specificity": {"kwargs": {"min_specificity": 0.7}, **LAB, **POS1},
    "specificity_at_sensitivity": {"kwargs": {"min_sensitivity": 0.7}, **LAB, **POS1},
    "tpr_at_fpr": {"kwargs": {"max_fpr": 0.2}, **LAB, **POS1},
    "top_k_accuracy": {**LAB},
    "roc_auc_ovr": {**LAB},
    "roc_auc_ovo": {"strings": True},
    "coverage_error": {"best": _mean_row_cardinality},
    "mae": {"symmetric": True},
    "mse": {"symmetric": True},
    "rmse": {"symmetric": True},
    "r2": {"symmetric": False},
    "explained_variance": {"symmetric": False},
    "mape": {"symmetric": False},
    "median_absolute_error": {"symmetric": True},
    "max_error": {"symmetric": True, "one_d_only": ("y_true", "y_pred")},
    "msle": {"symmetric": True, "kind": "regression_positive"},
    "rmsle": {"symmetric": True, "kind": "regression_positive"},
    "mean_poisson_deviance": {"symmetric": False, "kind": "regression_positive",
                              "one_d_only": ("y_true", "y_pred")},
    "mean_gamma_deviance": {"symmetric": False, "kind": "regression_positive",
                            "one_d_only": ("y_true", "y_pred")},
    "mean_tweedie_deviance": {"symmetric": True, "one_d_only": ("y_true", "y_pred")},
    "mean_pinball_loss": {"symmetric": True},
    "d2_absolute_error": {"symmetric": False},
    "d2_pinball": {"symmetric": False},
    "d2_tweedie": {"symmetric": False, "one_d_only": ("y_true", "y_pred")},
    "smape": {"symmetric": True},
    "wmape": {"symmetric": False},
    "pearson": {"symmetric": True},
    # frequency weights with n − 1 moments (torchmetrics): Σw − 1 is not scale-free
    "concordance_correlation": {"symmetric": True, "weight_scale": False},
    "adjusted_rand_index": {"symmetric": True, **CL},
    "rand_index": {"symmetric": True, **CL},
    "fowlkes_mallows": {"symmetric": True, **CL},
    "mutual_info": {"symmetric": True, "best": _entropy, **CL},
    "normalized_mutual_info": {"symmetric": True, **CL},
    "adjusted_mutual_info": {"symmetric": True, **CL},
    "homogeneity": {"symmetric": False, **CL},
    "completeness": {"symmetric": False, **CL},
    "v_measure": {"symmetric": True, **CL},
    "homogeneity_completeness_v_measure": {"best": (1.0, 1.0, 1.0), **CL},
    "contingency_matrix": {"swapped": _transpose, "strings": True},
    "cluster_accuracy": {"symmetric": True, **CL},
    "pair_confusion_matrix": {"swapped": _transpose, **CL},
    "dunn_index": {**INTERNAL},
    "silhouette_score": {**INTERNAL},
    "calinski_harabasz": {**INTERNAL},
    "davies_bouldin": {**INTERNAL},
    "silhouette_samples": {"row_output": True, **INTERNAL},
    "gauc": {**GROUPED},
    "pcoc": {},
    "normalized_entropy": {},
    "pcoc_by_group": {"kind": "grouped_prob", "weight_scale": False, **GROUPED},
    "catalog_coverage": {},
    "coverage_ratio": {},
    "novelty_ratio": {},
    "relative_recall": {"names": ("retrieved", "relevant", "expected")},
    "recall_effort": {},
    "novelty": {"kwargs": {"n_users": 30}},
}
# fmt: on


def _from_catalog(row: Any) -> Metric:
    facts = dict(FACTS.get(row.name, {}))
    kind = facts.pop("kind", None) or (
        ("labels2" if row.task == "binary" else "labels3")
        if row.inputs == "labels"
        else KIND_OF_INPUTS[row.inputs]
    )
    best = facts.pop("best", row.best)
    kwargs = {**row.options, **facts.pop("kwargs", {})}
    weight = row.weighted and row.name not in NO_WEIGHT
    return Metric(
        row.name, row.function, kind, kwargs=kwargs, weight=weight, best=best,
        rank_based=row.rank_based, **facts,
    )  # fmt: skip


#: variants whose function has sample_weight, which this variant does not support
#: (scikit-learn: "sample_weight is not supported for multiclass one-vs-one ROC AUC")
NO_WEIGHT = {"roc_auc_ovo", "roc_auc[ovo]"}

# Variants the catalog has no row for (a variant gets its options in brackets). The
# table is kept one row per line, so the formatter is told to leave it alone.
# fmt: off
VARIANTS: list[Metric] = [
    _m("accuracy[normalize=False]", sk.accuracy, "labels3", kwargs={"normalize": False},
       symmetric=True, weight_scale=False, best=lambda a: float(len(a[0])), **LAB),
    _m("accuracy[multilabel]", sk.accuracy, "multilabel", symmetric=True, best=1.0),
    _m("balanced_accuracy[adjusted]", sk.balanced_accuracy, "labels3", kwargs={"adjusted": True},
       symmetric=False, best=1.0, **LAB),
    _m("cohen_kappa[quadratic]", sk.cohen_kappa, "labels3", kwargs={"weights": "quadratic"},
       symmetric=True, best=1.0, **KAPPA),
    _m("cohen_kappa[labels]", sk.cohen_kappa, "labels3", kwargs={"labels": [2, 0, 1]},
       symmetric=True, best=1.0, **KAPPA),
    _m("confusion_matrix[labels]", sk.confusion_matrix, "labels3", kwargs={"labels": [2, 0, 1]},
       swapped=_transpose, weight_scale=False, **LAB),
    _m("confusion_matrix[normalize=all]", sk.confusion_matrix, "labels3",
       kwargs={"normalize": "all"}, swapped=_transpose, **LAB),
    _m("f1[None]", sk.f1, "labels3", kwargs={"average": None}, symmetric=True,
       best=(1.0, 1.0, 1.0), **LAB),
    _m("f1[samples]", sk.f1, "multilabel", kwargs={"average": "samples"}, symmetric=True,
       best=1.0),
    _m("hamming_loss[multilabel]", sk.hamming_loss, "multilabel", symmetric=True, best=0.0),
    _m("jaccard[samples]", sk.jaccard, "multilabel", kwargs={"average": "samples"},
       symmetric=True, best=1.0),
    _m("matthews_corrcoef[binary]", sk.matthews_corrcoef, "labels2", symmetric=True, best=1.0,
       **LAB),
    _m("multilabel_confusion_matrix[multilabel]", sk.multilabel_confusion_matrix, "multilabel",
       swapped=_transpose_2x2, weight_scale=False),
    _m("precision[micro,multilabel]", sk.precision, "multilabel", kwargs={"average": "micro"},
       symmetric=False, best=1.0),
    _m("roc_auc[max_fpr]", sk.roc_auc, "binary_scores", kwargs={"max_fpr": 0.5}, best=1.0,
       rank_based=True, **LAB, **POS1),
    _m("roc_curve[drop_intermediate]", sk.roc_curve, "binary_scores",
       kwargs={"drop_intermediate": True}, **LAB, **POS1),
    _m("threshold_table[thresholds]", sk.threshold_table, "threshold_list", weight_scale=False,
       **LAB, **POS1),
    _m("calibration_curve[quantile]", sk.calibration_curve, "probabilities",
       kwargs={"strategy": "quantile", "n_bins": 4}, strings=True, **POS1),
    _m("average_precision[multiclass]", sk.average_precision, "multiclass_scores", best=1.0,
       **LAB),
    _m("log_loss[multiclass]", sk.log_loss, "multiclass_scores", best=0.0, **LAB, **PROB),
    _m("brier_score[multiclass]", sk.brier_score, "multiclass_scores", best=0.0, **LAB, **PROB),
    _m("top_k_accuracy[k=1]", sk.top_k_accuracy, "multiclass_scores", kwargs={"k": 1}, best=1.0,
       rank_based=True, **LAB),
    _m("hinge_loss[multiclass]", sk.hinge_loss, "multiclass_decision", best=0.0, **LAB),
    _m("roc_auc[multilabel]", sk.roc_auc, "multilabel_scores", best=1.0, rank_based=True),
    _m("average_precision[multilabel]", sk.average_precision, "multilabel_scores", best=1.0,
       rank_based=True),
    _m("mae[raw_values]", sk.mae, "regression_2d", kwargs={"multioutput": "raw_values"},
       symmetric=True, best=(0.0, 0.0)),
    _m("mse[2d]", sk.mse, "regression_2d", symmetric=True, best=0.0),
    _m("rmse[raw_values]", sk.rmse, "regression_2d", kwargs={"multioutput": "raw_values"},
       symmetric=True, best=(0.0, 0.0)),
    _m("r2[variance_weighted]", sk.r2, "regression_2d",
       kwargs={"multioutput": "variance_weighted"}, symmetric=False, best=1.0),
    _m("explained_variance[raw_values]", sk.explained_variance, "regression_2d",
       kwargs={"multioutput": "raw_values"}, symmetric=False, best=(1.0, 1.0)),
    _m("mape[2d]", sk.mape, "regression_2d", symmetric=False, best=0.0),
    _m("median_absolute_error[raw_values]", sk.median_absolute_error, "regression_2d",
       kwargs={"multioutput": "raw_values"}, symmetric=True, best=(0.0, 0.0)),
    _m("normalized_mutual_info[geometric]", sk.normalized_mutual_info, "clustering",
       kwargs={"average_method": "geometric"}, symmetric=True, best=1.0, **CL),
    _m("normalized_mutual_info[min]", sk.normalized_mutual_info, "clustering",
       kwargs={"average_method": "min"}, symmetric=True, best=1.0, **CL),
    _m("adjusted_mutual_info[max]", sk.adjusted_mutual_info, "clustering",
       kwargs={"average_method": "max"}, symmetric=True, best=1.0, **CL),
    _m("v_measure[beta=2]", sk.v_measure, "clustering", kwargs={"beta": 2.0}, symmetric=False,
       best=1.0, **CL),
    _m("silhouette_score[manhattan]", sk.silhouette_score, "cluster_internal",
       kwargs={"metric": "manhattan"}, **INTERNAL),
    _m("gauc[clicks]", sk.gauc, "grouped", kwargs={"weights": "clicks"}, best=1.0,
       rank_based=True, **GROUPED),
    _m("gauc[None]", sk.gauc, "grouped", kwargs={"weights": None}, best=1.0, rank_based=True,
       **GROUPED),
    _m("gauc[return_groups]", sk.gauc, "grouped", kwargs={"return_groups": True},
       weight_scale=False, **GROUPED),
]
# fmt: on

#: the rows of the property tests: every catalog row, then the variants
METRICS: list[Metric] = [*(_from_catalog(r) for r in sk.metrics()), *VARIANTS]

BY_ID = {m.id: m for m in METRICS}
assert len(BY_ID) == len(METRICS), "duplicate ids in the metric table"

#: public names of the four families that are result classes, not metric functions
RESULT_CLASSES = {"ThresholdTable", "GroupAUCTable", "GroupCalibrationTable", "OperatingPoint"}


def public_functions() -> list[tuple[str, Callable[..., Any]]]:
    out = []
    for family in FAMILIES:
        mod = getattr(sk, family)
        out += [(name, getattr(mod, name)) for name in mod.__all__]
    return out


# ---------------------------------------------------------------------- helpers


# ---------------------------------------------------------------------- known bugs
# Cases that fail because of a bug in a metric, by test function and case id. Each is
# a strict xfail with the reason below; when the bug is fixed the case XPASSes, which
# fails the run until its entry is deleted here.

KNOWN_BUGS: dict[str, dict[str, str]] = {}

_USED: dict[str, set[str]] = {}  # case ids generated per test (checked against KNOWN_BUGS)


def param(test: str, *values: Any, id: str) -> Any:
    """A pytest param of ``test``, a strict xfail if KNOWN_BUGS lists its id."""
    _USED.setdefault(test, set()).add(id)
    reason = KNOWN_BUGS.get(test, {}).get(id)
    if reason is None:
        return pytest.param(*values, id=id)
    return pytest.param(
        *values, id=id, marks=pytest.mark.xfail(strict=True, reason=f"BUG: {reason}")
    )


def cases(test: str, pred: Callable[[Metric], bool] = lambda m: True) -> list[Any]:
    """pytest params of ``test`` for the metrics satisfying ``pred``."""
    return [param(test, m, id=m.id) for m in METRICS if pred(m)]


def over_metrics(pred: Callable[[Metric], bool] = lambda m: True) -> Callable[[Any], Any]:
    """Parametrize a test ``test_x(m)`` over the metrics satisfying ``pred``."""

    def decorate(test: Any) -> Any:
        return pytest.mark.parametrize("m", cases(test.__name__, pred))(test)

    return decorate


def over_cases(argnames: str, rows: Callable[[], Any]) -> Callable[[Any], Any]:
    """Parametrize a test over ``rows()``: tuples ``(*values, id)``."""

    def decorate(test: Any) -> Any:
        params = [param(test.__name__, *row[:-1], id=row[-1]) for row in rows()]
        return pytest.mark.parametrize(argnames, params)(test)

    return decorate


def take_rows(m: Metric, args: tuple[Any, ...], idx: np.ndarray) -> tuple[Any, ...]:
    """Select rows ``idx`` of every row-aligned argument."""
    return tuple(
        np.asarray(a)[idx] if name in m.rows else a for name, a in zip(m.data, args, strict=True)
    )


def replace(m: Metric, args: tuple[Any, ...], name: str, value: Any) -> tuple[Any, ...]:
    out = list(args)
    out[m.index(name)] = value
    return tuple(out)


def n_rows(m: Metric, args: tuple[Any, ...]) -> int:
    return len(args[m.index(m.rows[0])])


def leaves(out: Any, skip: tuple[str, ...] = ()) -> list[Any]:
    """Flatten a result (float, array, tuple, dataclass, dict) into numeric arrays and strings.

    ``skip`` names dataclass fields left out (the ids of a per-group table).
    """
    if dataclasses.is_dataclass(out) and not isinstance(out, type):
        return [
            x
            for f in dataclasses.fields(out)
            if f.name not in skip
            for x in leaves(getattr(out, f.name), skip)
        ]
    if isinstance(out, dict):
        return [x for k in sorted(out, key=str) for x in [str(k), *leaves(out[k], skip)]]
    if isinstance(out, (tuple, list)):
        return [x for item in out for x in leaves(item, skip)]
    if isinstance(out, str):
        return [out]
    arr = np.asarray(out)
    if arr.dtype.kind in "USO":
        return [tuple(map(str, arr.ravel().tolist()))]
    if arr.dtype.names:  # structured array
        return [x for name in arr.dtype.names for x in leaves(arr[name])]
    return [arr.astype(np.float64)]


def numeric(out: Any, skip: tuple[str, ...] = ()) -> list[np.ndarray]:
    return [x for x in leaves(out, skip) if isinstance(x, np.ndarray)]


def assert_same(
    got: Any,
    expected: Any,
    *,
    tol: float = 1e-12,
    strings: bool = True,
    skip: tuple[str, ...] = (),
) -> None:
    """Equal results: same structure, numbers within ``tol`` (relative and absolute).

    ``strings=False`` compares the numbers only (class names may differ); ``skip``
    leaves out dataclass fields (see :func:`leaves`).
    """
    a, b = leaves(got, skip), leaves(expected, skip)
    if not strings:
        a, b = numeric(got, skip), numeric(expected, skip)
    assert len(a) == len(b), f"results differ in structure: {got!r} vs {expected!r}"
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
            assert x.shape == y.shape, f"shapes differ: {x.shape} vs {y.shape}"
            np.testing.assert_allclose(x, y, rtol=tol, atol=tol, equal_nan=True)
        else:
            assert x == y


def differs(got: Any, other: Any, tol: float = 1e-9) -> bool:
    a, b = numeric(got), numeric(other)
    if len(a) != len(b) or any(x.shape != y.shape for x, y in zip(a, b, strict=True)):
        return True
    return any(not np.allclose(x, y, rtol=tol, atol=tol) for x, y in zip(a, b, strict=True))


def to_words(x: Any) -> Any:
    """Integer labels -1..6 as order-preserving strings (pos_label=1 becomes 'cat')."""
    if isinstance(x, (list, tuple)):
        return [to_words(v) for v in x]
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return str(WORDS[int(x) + 1])
    return WORDS[np.asarray(x) + 1]


def words_kwargs(
    kwargs: dict[str, Any], relabel: Callable[[Any], Any] = to_words
) -> dict[str, Any]:
    """Options with ``pos_label`` and ``labels`` mapped by ``relabel``."""
    return {k: relabel(v) if k in ("pos_label", "labels") else v for k, v in kwargs.items()}


_I64 = np.iinfo(np.int64)
#: order-preserving codings of the labels -1..5 by integers at the ends of their dtype
INT_CODES = {
    "int64_extremes": np.array(
        [_I64.min, _I64.min + 1, -1, 1, 2**62, _I64.max - 1, _I64.max], dtype=np.int64
    ),
    "uint64_high": np.uint64(2**63) + np.arange(7, dtype=np.uint64) * np.uint64(2**59),
    "uint64_dense": np.uint64(2**63) + np.arange(7, dtype=np.uint64),
    "int64_dense": _I64.max - np.arange(7, dtype=np.int64)[::-1],
}


def to_codes(style: str) -> Callable[[Any], Any]:
    """Map integer labels -1..5 (arrays, lists, scalars) to ``INT_CODES[style]``."""
    codes = INT_CODES[style]

    def relabel(x: Any) -> Any:
        if isinstance(x, (list, tuple)):
            return [relabel(v) for v in x]
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            return codes[int(x) + 1].item()
        return codes[np.asarray(x) + 1]

    return relabel


# ---------------------------------------------------------------------- table self-checks


def test_table_covers_every_public_metric():
    listed = {m.func for m in METRICS}
    missing = [
        name for name, obj in public_functions() if name not in RESULT_CLASSES and obj not in listed
    ]
    assert missing == []


def test_result_classes_are_classes():
    names = {name for name, obj in public_functions() if isinstance(obj, type)}
    assert names == RESULT_CLASSES


def test_known_bugs_name_real_cases():
    # a mistyped id would silently drop its xfail mark; tests of modules not collected
    # in this run have no generated ids and are not checked
    for test, ids in KNOWN_BUGS.items():
        if test in _USED:
            assert set(ids) <= _USED[test], sorted(set(ids) - _USED[test])


@over_metrics()
def test_table_names_match_signatures(m):
    params = list(inspect.signature(m.func).parameters)
    assert tuple(params[: len(m.data)]) == m.data
    assert set(m.kwargs) | set(m.string_kwargs) <= set(params)
    assert m.weight == ("sample_weight" in params and m.id not in NO_WEIGHT)
    for name in (*m.rows, *m.floats, *m.label_args, *m.one_d, *m.renaming):
        assert name in m.data
