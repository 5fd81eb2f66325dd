"""Count-based classification metrics against scikit-learn, on seeded random data.

One table of data cases (binary with 0/1, -1/1, bool and string labels;
multiclass with 3 and 30 classes, strings, integer labels with gaps or a wide
range, integral floats; one class present; multilabel indicators) crossed with
every function, every average, labels= subsets and supersets (labels absent
from the data), float and integer sample weights and every zero_division
value. Where scikit-learn warns with UndefinedMetricWarning, scorekit must
warn with its own UndefinedMetricWarning, and otherwise not warn at all.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import scorekit.classification as skc
from scorekit import UndefinedMetricWarning

M = pytest.importorskip("sklearn.metrics")
SkUndefined = pytest.importorskip("sklearn.exceptions").UndefinedMetricWarning

pytestmark = pytest.mark.reference

N = 160
ZERO_DIVISIONS = ["warn", 0, 1, np.nan]


@dataclass
class Case:
    y_true: Any
    y_pred: Any
    averages: tuple[Any, ...]
    label_sets: tuple[Any, ...] = (None,)
    pos_label: Any = 1
    multilabel: bool = False
    weights: dict[str, Any] = field(default_factory=dict)


def _noisy(rng, y, classes, keep=0.55):
    other = rng.choice(classes, size=len(y))
    return np.where(rng.random(len(y)) < keep, y, other)


def _case(seed, classes, *, n=N, probs=None, **kw) -> Case:
    rng = np.random.default_rng(seed)
    classes = np.asarray(classes)
    t = rng.choice(classes, size=n, p=probs)
    p = _noisy(rng, t, classes)
    return Case(t, p, **kw)


BINARY = (None, "binary", "micro", "macro", "weighted")
MULTI = (None, "micro", "macro", "weighted")
MULTILABEL = (None, "micro", "macro", "weighted", "samples")


def _multilabel_case(seed) -> Case:
    rng = np.random.default_rng(seed)
    t = (rng.random((N, 5)) < [0.5, 0.3, 0.1, 0.0, 0.6]).astype(int)
    p = np.where(rng.random((N, 5)) < 0.7, t, rng.integers(0, 2, (N, 5)))
    p[:, 3] = 0  # label 3: never true, never predicted (every ratio undefined)
    t[:10] = 0  # rows with no true label
    p[5:15] = 0  # rows with no predicted label
    return Case(t, p, MULTILABEL, (None, [4, 0, 3]), multilabel=True)


CASES: dict[str, Case] = {
    "bin01": _case(1, [0, 1], averages=BINARY),
    "bin_pm1": _case(2, [-1, 1], averages=BINARY, probs=[0.8, 0.2]),
    "bin_bool": _case(3, [False, True], averages=BINARY),
    "bin_str": _case(
        4, ["neg", "pos"], averages=BINARY, pos_label="pos", label_sets=(None, ["pos", "neg"])
    ),
    "mc3": _case(5, [0, 1, 2], averages=MULTI, label_sets=(None, [2, 0], [0, 1, 2, 7])),
    "mc30": _case(
        6,
        np.arange(30),
        averages=MULTI,
        n=300,
        probs=np.r_[np.full(25, 0.036), np.full(5, 0.02)],
        label_sets=(None, [3, 29, 0], [*range(30), 31, 35]),
    ),
    "mc_str": _case(
        7,
        ["ant", "bee", "cat", "dog", "eel"],
        averages=MULTI,
        label_sets=(None, ["eel", "ant"], ["ant", "bee", "cat", "dog", "eel", "fox"]),
    ),
    # integer labels with gaps (offset coding), a wide range (lookup table), a huge range (sort)
    "mc_gaps": _case(8, [-3, 0, 2, 9], averages=MULTI, label_sets=(None, [2, -3, 5])),
    "mc_lut": _case(9, [0, 500, 1000, 1500], averages=MULTI, label_sets=(None, [1500, 1])),
    "mc_wide": _case(10, [0, 5, 10**6, 3 * 10**12], averages=MULTI),
    "mc_float": _case(11, [1.0, 2.0, 4.0], averages=MULTI, label_sets=(None, [4.0, 3.0])),
    "one_class": Case(np.ones(40, int), np.ones(40, int), BINARY),
    "all_negative": Case(np.zeros(40, int), np.zeros(40, int), BINARY),
    "true_one_class": Case(np.zeros(40, int), np.r_[np.zeros(30, int), np.ones(10, int)], BINARY),
    "multilabel": _multilabel_case(12),
}
for _c in CASES.values():
    _n = len(_c.y_true)
    _r = np.random.default_rng(_n)
    _c.weights = {"none": None, "float": _r.random(_n) * 3, "int": _r.integers(0, 4, _n)}

# ---------------------------------------------------------------- helpers


def _ref_call(ref: Callable[[], Any]) -> tuple[Any, bool]:
    """Run scikit-learn; return its value and whether it found the metric undefined.

    Undefined: an UndefinedMetricWarning, balanced accuracy's UserWarning about
    classes not in y_true, or a NumPy RuntimeWarning (0/0 in its arithmetic).
    """
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        value = ref()
    undefined = any(
        issubclass(w.category, (SkUndefined, RuntimeWarning))
        or "classes not in y_true" in str(w.message)
        for w in rec
    )
    return value, undefined


def _check(ours, ref, case: Case, kw: dict[str, Any], *, dtype: bool = False) -> None:
    """ours(y_true, y_pred, **kw) equals ref(...), and warns exactly when ref finds it undefined."""
    expected, ref_undefined = _ref_call(lambda: ref(case.y_true, case.y_pred, **kw))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        got = ours(case.y_true, case.y_pred, **kw)
    categories = {w.category for w in rec}
    assert categories == ({UndefinedMetricWarning} if ref_undefined else set()), [
        str(w.message) for w in rec
    ]
    _same(got, expected, dtype=dtype)


def _same(got: Any, expected: Any, *, dtype: bool = False) -> None:
    if isinstance(expected, dict):
        assert isinstance(got, dict)
        assert list(got) == list(expected)
        for key in expected:
            _same(got[key], expected[key])
        return
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e, dtype=dtype)
        return
    if expected is None:
        assert got is None
        return
    if np.ndim(expected) == 0:
        assert isinstance(got, float) == isinstance(expected, float)
    else:
        assert isinstance(got, np.ndarray)
        assert got.shape == np.shape(expected)
        if dtype:
            assert got.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12, equal_nan=True)


def _specificity_ref(y_true, y_pred, *, labels=None, pos_label=1, average="binary", **kw):
    """Specificity from scikit-learn alone: the recall of "not this class"."""
    if average == "binary":
        return M.recall_score(
            np.asarray(y_true) != pos_label, np.asarray(y_pred) != pos_label, **kw
        )
    t, p = np.asarray(y_true), np.asarray(y_pred)
    if t.ndim == 1:  # one-vs-rest indicator columns of the classes
        classes = labels if labels is not None else np.unique(np.r_[t, p])
        t = (t[:, None] == np.asarray(classes)[None, :]).astype(int)
        p = (p[:, None] == np.asarray(classes)[None, :]).astype(int)
        labels = None
        if t.shape[1] == 1:  # one class: 1-D, where "not this class" is the label 1
            t, p, labels = t[:, 0], p[:, 0], [1]
    if average != "weighted":
        return M.recall_score(1 - t, 1 - p, labels=labels, average=average, **kw)
    per = M.recall_score(1 - t, 1 - p, labels=labels, average=None, **kw)
    one_d = {"labels": [0, 1]} if t.ndim == 1 else {}
    mcm = M.multilabel_confusion_matrix(t, p, sample_weight=kw.get("sample_weight"), **one_d)
    support = mcm[:, 1, :].sum(axis=1)
    if t.ndim == 1:
        support = support[[1]]
    elif labels is not None:
        support = support[labels]
    keep = ~np.isnan(per)
    if not keep.any():
        return float("nan")
    if support[keep].sum() == 0:
        return float(np.mean(per[keep]))
    return float(np.average(per[keep], weights=support[keep]))


def _e_ref(y_true, y_pred, *, alpha, **kw):
    beta = math.inf if alpha == 0 else math.sqrt(1 / alpha - 1)
    return 1 - M.fbeta_score(y_true, y_pred, beta=beta, **kw)


# name: (ours, reference, extra keyword arguments)
SETWISE: dict[str, tuple[Callable[..., Any], Callable[..., Any], dict[str, Any]]] = {
    "precision": (skc.precision, M.precision_score, {}),
    "recall": (skc.recall, M.recall_score, {}),
    "f1": (skc.f1, M.f1_score, {}),
    "fbeta_0.5": (skc.fbeta, M.fbeta_score, {"beta": 0.5}),
    "fbeta_2": (skc.fbeta, M.fbeta_score, {"beta": 2.0}),
    "fbeta_0": (skc.fbeta, M.fbeta_score, {"beta": 0.0}),
    "fbeta_inf": (skc.fbeta, M.fbeta_score, {"beta": math.inf}),
    "prfs": (skc.precision_recall_fscore_support, M.precision_recall_fscore_support, {}),
    "prfs_beta3": (
        skc.precision_recall_fscore_support,
        M.precision_recall_fscore_support,
        {"beta": 3.0},
    ),
    "jaccard": (skc.jaccard, M.jaccard_score, {}),
    "e_measure_0.8": (skc.e_measure, _e_ref, {"alpha": 0.8}),
    "e_measure_0": (skc.e_measure, _e_ref, {"alpha": 0.0}),
    "specificity": (skc.specificity, _specificity_ref, {}),
}


# variants of a core function (same kernel, another beta or alpha) run fewer combinations
VARIANTS = {"fbeta_0.5", "fbeta_0", "fbeta_inf", "prfs_beta3", "e_measure_0.8", "e_measure_0"}


def _setwise_options(case: Case, full: bool):
    """Every average × labels, × every weighting (``full``) or one weighting in turn;
    zero_division cycles through its values."""
    i = 0
    for average in case.averages:
        for labels in case.label_sets if average != "binary" else (None,):
            for wname in case.weights if full else [list(case.weights)[i % 3]]:
                yield average, wname, labels, ZERO_DIVISIONS[i % 4]
                i += 1


@pytest.mark.parametrize("fn", list(SETWISE))
@pytest.mark.parametrize("case_name", list(CASES))
def test_setwise_metrics_match_sklearn(case_name, fn):
    case = CASES[case_name]
    ours, ref, extra = SETWISE[fn]
    for average, wname, labels, zd in _setwise_options(case, full=fn not in VARIANTS):
        if fn == "jaccard" and zd is np.nan:
            zd = 1  # scikit-learn's jaccard_score refuses nan; see the unit tests
        kw = dict(extra, average=average, labels=labels, zero_division=zd)
        kw["sample_weight"] = case.weights[wname]
        if average == "binary":
            kw["pos_label"] = case.pos_label
        _check(ours, ref, case, kw)


@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize("case_name", ["all_negative", "true_one_class", "mc30", "multilabel"])
def test_every_zero_division_value(case_name, zero_division):
    case = CASES[case_name]
    for fn in ("precision", "recall", "f1", "prfs", "jaccard", "specificity"):
        if fn == "jaccard" and zero_division is np.nan:
            continue  # scikit-learn's jaccard_score refuses nan; see the unit tests
        ours, ref, extra = SETWISE[fn]
        for average in case.averages:
            kw = dict(
                extra, average=average, zero_division=zero_division, labels=case.label_sets[-1]
            )
            _check(ours, ref, case, kw)


def test_undefined_precision_warns_like_sklearn():
    with pytest.warns(SkUndefined):
        expected = M.precision_score([0, 1, 1], [0, 0, 0])
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined"):
        got = skc.precision([0, 1, 1], [0, 0, 0])
    assert got == expected == 0.0


ONE_D = [name for name, c in CASES.items() if not c.multilabel]


@pytest.mark.parametrize("case_name", ONE_D)
def test_confusion_matrix_matches_sklearn(case_name):
    case = CASES[case_name]
    for wname, w in case.weights.items():
        for labels in case.label_sets:
            if labels is not None and not np.isin(labels, case.y_true).any():
                continue
            for normalize in (None, "true", "pred", "all"):
                kw = {"labels": labels, "sample_weight": w, "normalize": normalize}
                _check(
                    skc.confusion_matrix,
                    M.confusion_matrix,
                    case,
                    kw,
                    dtype=normalize is None or wname != "int",
                )


@pytest.mark.parametrize("case_name", list(CASES))
def test_multilabel_confusion_matrix_matches_sklearn(case_name):
    case = CASES[case_name]
    for wname, w in case.weights.items():
        for labels in case.label_sets:
            for samplewise in (False, True) if case.multilabel else (False,):
                kw = {"labels": labels, "sample_weight": w, "samplewise": samplewise}
                _check(
                    skc.multilabel_confusion_matrix,
                    M.multilabel_confusion_matrix,
                    case,
                    kw,
                    dtype=wname == "none",
                )


# name: (ours, reference, keyword-argument sets, 1-D only: multilabel raises, see the unit tests)
WHOLE: dict[str, tuple[Callable[..., Any], Callable[..., Any], list[dict[str, Any]], bool]] = {
    "accuracy": (skc.accuracy, M.accuracy_score, [{}, {"normalize": False}], False),
    "hamming_loss": (skc.hamming_loss, M.hamming_loss, [{}], False),
    "balanced_accuracy": (
        skc.balanced_accuracy,
        M.balanced_accuracy_score,
        [{}, {"adjusted": True}],
        True,
    ),
    "matthews_corrcoef": (skc.matthews_corrcoef, M.matthews_corrcoef, [{}], True),
    "cohen_kappa": (
        skc.cohen_kappa,
        M.cohen_kappa_score,
        [{}, {"weights": "linear"}, {"weights": "quadratic"}],
        True,
    ),
}


@pytest.mark.parametrize(
    ("case_name", "fn"),
    [(c, fn) for c in CASES for fn in WHOLE if not (WHOLE[fn][3] and CASES[c].multilabel)],
)
def test_whole_matrix_metrics_match_sklearn(case_name, fn):
    case = CASES[case_name]
    ours, ref, variants, _ = WHOLE[fn]
    for w in case.weights.values():
        for kw in variants:
            kw = dict(kw, sample_weight=w)
            _check(ours, ref, case, kw)


@pytest.mark.parametrize("case_name", ["mc3", "mc_str", "mc30", "mc_gaps", "mc_float"])
def test_cohen_kappa_with_labels_matches_sklearn(case_name):
    case = CASES[case_name]
    for labels in case.label_sets[1:]:
        for weights in (None, "linear", "quadratic"):
            kw = {"labels": labels, "weights": weights, "sample_weight": case.weights["float"]}
            _check(skc.cohen_kappa, M.cohen_kappa_score, case, kw)


@pytest.mark.parametrize("case_name", list(CASES))
def test_classification_report_matches_sklearn(case_name):
    case = CASES[case_name]
    for i, (wname, w) in enumerate(case.weights.items()):
        for labels in case.label_sets:
            kw = {"labels": labels, "sample_weight": w, "zero_division": ZERO_DIVISIONS[i]}
            digits = 2 + i

            def ours(kw=kw, digits=digits):
                rep = skc.classification_report(case.y_true, case.y_pred, digits=digits, **kw)
                return rep.to_dict(), str(rep)

            def ref(kw=kw, digits=digits):
                d = M.classification_report(case.y_true, case.y_pred, output_dict=True, **kw)
                text = M.classification_report(case.y_true, case.y_pred, digits=digits, **kw)
                return d, text

            expected, ref_undefined = _ref_call(ref)
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always")
                got = ours()
            assert {r.category for r in rec} == (
                {UndefinedMetricWarning} if ref_undefined else set()
            )
            _same(got[0], expected[0])
            if wname != "float":  # float sums of weights may differ in the last digit
                assert got[1] == expected[1]


def test_classification_report_target_names_and_pandas():
    case = CASES["mc3"]
    names = ["zero", "one", "two"]
    rep = skc.classification_report(case.y_true, case.y_pred, target_names=names)
    expected = M.classification_report(
        case.y_true, case.y_pred, target_names=names, output_dict=True
    )
    _same(rep.to_dict(), expected)
    assert str(rep) == M.classification_report(case.y_true, case.y_pred, target_names=names)
    pd = pytest.importorskip("pandas")
    frame = rep.to_pandas()
    assert list(frame.index) == [*names, "accuracy", "macro avg", "weighted avg"]
    assert list(frame.columns) == ["precision", "recall", "f1-score", "support"]
    assert frame.loc["accuracy", "f1-score"] == pytest.approx(expected["accuracy"], rel=1e-12)
    assert pd.isna(frame.loc["accuracy", "precision"])
    assert frame.loc["two", "recall"] == pytest.approx(expected["two"]["recall"], rel=1e-12)


@pytest.mark.parametrize("kind", ["list", "pandas", "polars", "pyarrow"])
def test_array_likes_give_the_same_numbers(kind):
    case = CASES["mc_str"]
    t, p = case.y_true.tolist(), case.y_pred.tolist()
    if kind != "list":
        lib = pytest.importorskip(kind)
        make = lib.array if kind == "pyarrow" else lib.Series
        t, p = make(t), make(p)
    assert skc.f1(t, p, average="macro") == pytest.approx(
        M.f1_score(case.y_true, case.y_pred, average="macro"), rel=1e-12
    )
    np.testing.assert_array_equal(
        skc.confusion_matrix(t, p), M.confusion_matrix(case.y_true, case.y_pred)
    )


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32])
def test_integer_dtypes_agree(dtype):
    case = CASES["mc3"]
    t, p = case.y_true.astype(dtype) + 3, case.y_pred.astype(dtype) + 3
    np.testing.assert_array_equal(skc.confusion_matrix(t, p), M.confusion_matrix(t, p))
    assert skc.cohen_kappa(t, p, weights="linear") == pytest.approx(
        M.cohen_kappa_score(t, p, weights="linear"), rel=1e-12
    )
