"""Count-based classification metrics: worked examples, kernels, streaming merge, errors.

The comparisons with scikit-learn on random data are in
tests/classification/test_sklearn_classification_counts.py.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import scorekit.classification as skc
from scorekit import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NegativeWeightError,
    NonFiniteError,
    ParameterError,
    ShapeError,
    UndefinedMetricWarning,
)
from scorekit.classification import _counts_matrix, _counts_state
from scorekit.classification._counts_input import encode_pair, targets
from scorekit.classification._counts_state import (
    _confusion_state,
    _counts_from_confusion,
    _kappa_from_confusion,
    _mcc_from_confusion,
    _merge_confusion,
    _prf_from_confusion,
)

# ---------------------------------------------------------------- worked examples

# Wikipedia, "Precision and recall": a program recognising dogs in a picture of
# 12 dogs and 10 cats identifies 8 dogs, 5 of them really dogs. So tp = 5,
# fp = 3 (cats called dogs), fn = 7 (dogs missed), tn = 7 (cats left alone).
DOGS_TRUE = ["dog"] * 5 + ["cat"] * 3 + ["dog"] * 7 + ["cat"] * 7
DOGS_PRED = ["dog"] * 5 + ["dog"] * 3 + ["cat"] * 7 + ["cat"] * 7
DOG = {"pos_label": "dog"}


def test_dogs_precision_recall_f1():
    assert skc.precision(DOGS_TRUE, DOGS_PRED, **DOG) == 5 / 8  # tp / (tp + fp)
    assert skc.recall(DOGS_TRUE, DOGS_PRED, **DOG) == 5 / 12  # tp / (tp + fn)
    # F1 = 2PR / (P + R) = 2 (5/8)(5/12) / (5/8 + 5/12) = (50/96) / (25/24) = 1/2
    assert skc.f1(DOGS_TRUE, DOGS_PRED, **DOG) == pytest.approx(0.5, abs=1e-15)
    # F_0.5 = 1.25·5 / (1.25·5 + 0.25·7 + 3) = 6.25 / 11
    assert skc.fbeta(DOGS_TRUE, DOGS_PRED, beta=0.5, **DOG) == pytest.approx(6.25 / 11, rel=1e-15)


def test_dogs_specificity_accuracy_jaccard_mcc():
    assert skc.specificity(DOGS_TRUE, DOGS_PRED, **DOG) == 7 / 10  # tn / (tn + fp)
    # specificity of "dog" is the recall of "cat"
    assert skc.specificity(DOGS_TRUE, DOGS_PRED, **DOG) == skc.recall(
        DOGS_TRUE, DOGS_PRED, pos_label="cat"
    )
    assert skc.accuracy(DOGS_TRUE, DOGS_PRED) == 12 / 22  # (tp + tn) / n
    assert skc.accuracy(DOGS_TRUE, DOGS_PRED, normalize=False) == 12.0
    assert skc.hamming_loss(DOGS_TRUE, DOGS_PRED) == pytest.approx(10 / 22, rel=1e-15)
    assert skc.jaccard(DOGS_TRUE, DOGS_PRED, **DOG) == pytest.approx(1 / 3, rel=1e-15)  # 5 / 15
    # MCC = (tp·tn − fp·fn) / √((tp+fp)(tp+fn)(tn+fp)(tn+fn)) = (35 − 21) / √(8·12·10·14)
    expected = 14 / math.sqrt(13440)
    assert skc.matthews_corrcoef(DOGS_TRUE, DOGS_PRED) == pytest.approx(expected, rel=1e-12)
    # balanced accuracy = (recall dog + recall cat) / 2 = (5/12 + 7/10) / 2; adjusted: (BA − ½)/½
    ba = (5 / 12 + 7 / 10) / 2
    assert skc.balanced_accuracy(DOGS_TRUE, DOGS_PRED) == pytest.approx(ba, rel=1e-12)
    adj = skc.balanced_accuracy(DOGS_TRUE, DOGS_PRED, adjusted=True)
    assert adj == pytest.approx(2 * ba - 1, rel=1e-12)


def test_dogs_e_measure():
    # van Rijsbergen: E = 1 − 1 / (α/P + (1−α)/R); P = 5/8, R = 5/12
    # α = 0.5: 1 − 1 / (0.5·8/5 + 0.5·12/5) = 1 − 1/2
    assert skc.e_measure(DOGS_TRUE, DOGS_PRED, **DOG) == pytest.approx(0.5, abs=1e-15)
    # α = 0.8: 1 − 1 / (0.8·8/5 + 0.2·12/5) = 1 − 1/1.76
    got = skc.e_measure(DOGS_TRUE, DOGS_PRED, alpha=0.8, **DOG)
    assert got == pytest.approx(1 - 1 / 1.76, rel=1e-12)
    assert skc.e_measure(DOGS_TRUE, DOGS_PRED, alpha=1.0, **DOG) == pytest.approx(1 - 5 / 8)
    assert skc.e_measure(DOGS_TRUE, DOGS_PRED, alpha=0.0, **DOG) == pytest.approx(1 - 5 / 12)


def test_dogs_confusion_matrices():
    # classes sorted: cat, dog; rows true, columns predicted
    np.testing.assert_array_equal(skc.confusion_matrix(DOGS_TRUE, DOGS_PRED), [[7, 3], [7, 5]])
    np.testing.assert_allclose(
        skc.confusion_matrix(DOGS_TRUE, DOGS_PRED, normalize="true"), [[0.7, 0.3], [7 / 12, 5 / 12]]
    )
    mcm = skc.multilabel_confusion_matrix(DOGS_TRUE, DOGS_PRED, labels=["dog"])
    np.testing.assert_array_equal(mcm, [[[7, 3], [7, 5]]])  # [[tn, fp], [fn, tp]]


def test_cohen_kappa_wikipedia_grant_proposals():
    # Wikipedia, "Cohen's kappa": 50 grant proposals, readers A and B. Both yes 20,
    # both no 15, A yes / B no 5, A no / B yes 10. p_o = 35/50 = 0.7; A says yes
    # 25/50, B 30/50, so p_e = 0.5·0.6 + 0.5·0.4 = 0.5 and κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
    a = ["yes"] * 20 + ["no"] * 15 + ["yes"] * 5 + ["no"] * 10
    b = ["yes"] * 20 + ["no"] * 15 + ["no"] * 5 + ["yes"] * 10
    assert skc.cohen_kappa(a, b) == pytest.approx(0.4, abs=1e-12)
    assert skc.cohen_kappa(b, a) == pytest.approx(0.4, abs=1e-12)


def test_weighted_kappa_by_hand():
    # O = [[2,1,0],[0,1,1],[0,0,1]], n = 6; row sums (y1) r = (3,2,1), column sums c = (2,2,2);
    # E = r⊗c/6 = [[1,1,1],[2/3,2/3,2/3],[1/3,1/3,1/3]].
    y1 = [0, 0, 0, 1, 1, 2]
    y2 = [0, 0, 1, 1, 2, 2]
    # unweighted: p_o = 4/6, p_e = (3·2 + 2·2 + 1·2)/36 = 1/3, κ = (2/3 − 1/3)/(2/3) = 1/2
    assert skc.cohen_kappa(y1, y2) == pytest.approx(0.5, abs=1e-12)
    # linear |i−j|: Σ wO = 1 + 1 = 2; Σ wE = (0+1+2) + (2/3+0+2/3) + (2/3+1/3+0) = 16/3
    assert skc.cohen_kappa(y1, y2, weights="linear") == pytest.approx(1 - 2 / (16 / 3), abs=1e-12)
    # quadratic (i−j)²: Σ wO = 2; Σ wE = (0+1+4) + (2/3+0+2/3) + (4/3+1/3+0) = 8
    assert skc.cohen_kappa(y1, y2, weights="quadratic") == pytest.approx(0.75, abs=1e-12)


def test_multiclass_mcc_by_hand():
    # Gorodkin's R_K on the matrix above: c = trace = 4, s = 6, t = (3,2,1), p = (2,2,2).
    # (c·s − Σ p_k t_k) / √((s² − Σ p²)(s² − Σ t²)) = (24 − 12) / √((36 − 12)(36 − 14))
    expected = 12 / math.sqrt(24 * 22)
    got = skc.matthews_corrcoef([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2])
    assert got == pytest.approx(expected, rel=1e-12)


def test_classification_report_sklearn_documentation_example():
    # scikit-learn's classification_report docstring: y_true = [0,1,2,2,2], y_pred = [0,0,2,2,1].
    # class 0: P = 1/2, R = 1/1, F = 2/3; class 1: 0, 0, 0; class 2: P = 2/2, R = 2/3, F = 0.8.
    # macro: P = 1.5/3 = 0.5, R = (1 + 2/3)/3 = 5/9; weighted by support (1,1,3): P = 3.5/5 = 0.7.
    rep = skc.classification_report([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], zero_division=0)
    d = rep.to_dict()
    assert d["0"] == {
        "precision": 0.5,
        "recall": 1.0,
        "f1-score": pytest.approx(2 / 3),
        "support": 1.0,
    }
    assert d["2"]["recall"] == pytest.approx(2 / 3)
    assert d["2"]["f1-score"] == pytest.approx(0.8)
    assert d["accuracy"] == 0.6
    assert d["macro avg"]["precision"] == 0.5
    assert d["macro avg"]["recall"] == pytest.approx(5 / 9)
    assert d["weighted avg"]["precision"] == pytest.approx(0.7)
    lines = str(rep).splitlines()
    assert lines[0] == "              precision    recall  f1-score   support"
    assert lines[2] == "           0       0.50      1.00      0.67         1"
    assert lines[6] == "    accuracy                           0.60         5"
    assert lines[8] == "weighted avg       0.70      0.60      0.61         5"
    assert rep.accuracy == 0.6


# multilabel by hand: 3 samples, 3 labels
ML_TRUE = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
ML_PRED = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0]])


def test_multilabel_by_hand():
    # wrong cells: (0, 2) and (2, 1): Hamming loss 2/9; only row 1 is exactly right
    assert skc.hamming_loss(ML_TRUE, ML_PRED) == pytest.approx(2 / 9, rel=1e-15)
    assert skc.accuracy(ML_TRUE, ML_PRED) == pytest.approx(1 / 3, rel=1e-15)
    # per sample: precision 1/1, 1/1, 1/1; recall 1/2, 1/1, 1/2
    assert skc.precision(ML_TRUE, ML_PRED, average="samples") == 1.0
    assert skc.recall(ML_TRUE, ML_PRED, average="samples") == pytest.approx(2 / 3, rel=1e-15)
    # per label: tp (2, 1, 0), predicted (2, 1, 0), true (2, 2, 1): micro P = 3/3, R = 3/5
    assert skc.recall(ML_TRUE, ML_PRED, average="micro") == pytest.approx(0.6, rel=1e-15)
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined"):
        per = skc.precision(ML_TRUE, ML_PRED, average=None)
    np.testing.assert_array_equal(per, [1.0, 1.0, 0.0])
    # specificity per label: tn / (tn + fp) = 1/1, 1/1, 2/2
    np.testing.assert_array_equal(skc.specificity(ML_TRUE, ML_PRED, average=None), [1, 1, 1])
    mcm = skc.multilabel_confusion_matrix(ML_TRUE, ML_PRED)
    np.testing.assert_array_equal(mcm[2], [[2, 0], [1, 0]])


def test_zero_division_nan_is_left_out_of_averages():
    # label 2 has no predicted sample: precision nan, left out of the macro mean (1 + 1)/2
    got = skc.precision(ML_TRUE, ML_PRED, average="macro", zero_division=np.nan)
    assert got == 1.0
    # Jaccard per label: 2/2, 1/2, 0/1; nothing undefined; with an all-zero label 3 added,
    # zero_division=nan leaves it out as the precision family does: (1 + 1/2 + 0)/3
    t = np.c_[ML_TRUE, np.zeros(3, int)]
    p = np.c_[ML_PRED, np.zeros(3, int)]
    assert skc.jaccard(t, p, average="macro", zero_division=np.nan) == pytest.approx(0.5)
    assert skc.jaccard(t, p, average="macro", zero_division=1) == pytest.approx(2.5 / 4)


def test_return_types():
    y, p = [0, 1, 2, 1], [0, 2, 2, 1]
    assert type(skc.f1(y, p, average="macro")) is float
    assert type(skc.cohen_kappa(y, p)) is float
    assert type(skc.matthews_corrcoef(y, p)) is float
    assert isinstance(skc.recall(y, p, average=None), np.ndarray)
    assert skc.confusion_matrix(y, p).dtype == np.int64
    assert skc.confusion_matrix(y, p, sample_weight=[1, 2, 3, 4]).dtype == np.int64
    assert skc.confusion_matrix(y, p, sample_weight=[1.0, 2, 3, 4]).dtype == np.float64


def test_pos_label_ignored_outside_binary_warns():
    with pytest.warns(UserWarning, match="pos_label='b' is ignored"):
        skc.f1(["a", "b", "b"], ["a", "b", "a"], pos_label="b", average="macro")


def test_inputs_are_not_modified():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 50)
    p = rng.integers(0, 4, 50)
    w = rng.random(50)
    copies = y.copy(), p.copy(), w.copy()
    skc.confusion_matrix(y, p, sample_weight=w)
    skc.f1(y, p, average="macro", sample_weight=w)
    skc.cohen_kappa(y, p, weights="quadratic", sample_weight=w)
    for a, b in zip((y, p, w), copies, strict=True):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------- coding and kernels


@pytest.mark.parametrize(
    ("values", "dense"),
    [
        ([-3, 0, 9], False),  # offset coding, gaps dropped from the matrix
        ([0, 500, 1000, 1500], True),  # lookup table
        ([0, 10**15], True),  # np.unique
        (["b", "a"], True),
        ([1.0, 4.0], False),  # integral floats take the integer path
        ([True, False], True),
    ],
)
def test_label_coding_paths(values, dense):
    rng = np.random.default_rng(1)
    t = np.asarray(values)[rng.integers(0, len(values), 40)]
    p = np.asarray(values)[rng.integers(0, len(values), 40)]
    codes = encode_pair(t, p)
    assert codes.dense == dense
    state = _confusion_state(codes, None)
    np.testing.assert_array_equal(state.classes, np.unique(np.r_[t, p]))
    assert state.classes.dtype == np.result_type(t, p)
    assert state.matrix.sum() == 40
    k = state.classes.size
    i, j = np.searchsorted(state.classes, t[0]), np.searchsorted(state.classes, p[0])
    assert state.matrix[i, j] == np.sum((t == t[0]) & (p == p[0]))
    assert k == np.unique(np.r_[t, p]).size


def test_zero_weight_labels_stay_present():
    # label 5 occurs only with weight 0; like scikit-learn it keeps its row and column
    cm = skc.confusion_matrix([0, 1, 5], [0, 1, 1], sample_weight=[1.0, 2.0, 0.0])
    np.testing.assert_array_equal(cm, [[1, 0, 0], [0, 2, 0], [0, 0, 0]])


def _chunks(n, cuts):
    edges = [0, *cuts, n]
    return list(itertools.pairwise(edges))


def test_merged_states_equal_one_shot_exactly():
    rng = np.random.default_rng(3)
    classes = np.array(["ant", "bee", "cat", "dog", "eel"])
    y = classes[rng.integers(0, 5, 300)]
    p = np.where(rng.random(300) < 0.6, y, classes[rng.integers(0, 5, 300)])
    y[:100] = np.where(y[:100] == "eel", "ant", y[:100])  # first chunk lacks "eel" in y_true
    p[:100] = np.where(p[:100] == "eel", "bee", p[:100])
    w = rng.integers(0, 5, 300).astype(float)

    def state(a, b):
        tg = targets(y[a:b], p[a:b], w[a:b])
        assert tg.codes is not None
        return _confusion_state(tg.codes, tg.weights)

    one_shot = state(0, 300)
    parts = [state(a, b) for a, b in _chunks(300, [100, 170, 171])]
    merged = parts[0]
    for part in parts[1:]:
        merged = _merge_confusion(merged, part)
    backwards = parts[-1]
    for part in parts[-2::-1]:
        backwards = _merge_confusion(part, backwards)
    for m in (merged, backwards):
        np.testing.assert_array_equal(m.classes, one_shot.classes)
        np.testing.assert_array_equal(m.matrix, one_shot.matrix)  # exact: integer sums
    f1 = _prf_from_confusion(merged.matrix, average="macro")[2]
    assert f1 == skc.f1(y, p, average="macro", sample_weight=w)
    assert _kappa_from_confusion(merged.matrix) == skc.cohen_kappa(y, p, sample_weight=w)
    assert _mcc_from_confusion(merged.matrix) == skc.matthews_corrcoef(y, p, sample_weight=w)
    # the selected labels of a merged matrix: "eel" then "ant", as labels= would give
    sel = np.array([4, 0])
    got = _prf_from_confusion(merged.matrix, select=sel, average=None)[0]
    np.testing.assert_array_equal(
        got, skc.precision(y, p, labels=["eel", "ant"], average=None, sample_weight=w)
    )


def test_integer_weight_equals_repeated_rows():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 4, 60)
    p = np.where(rng.random(60) < 0.5, y, rng.integers(0, 4, 60))
    w = rng.integers(0, 4, 60)
    yr, pr = np.repeat(y, w), np.repeat(p, w)
    np.testing.assert_array_equal(
        skc.confusion_matrix(y, p, sample_weight=w, labels=[0, 1, 2, 3]),
        skc.confusion_matrix(yr, pr, labels=[0, 1, 2, 3]),
    )
    assert skc.f1(y, p, average="weighted", sample_weight=w) == pytest.approx(
        skc.f1(yr, pr, average="weighted"), rel=1e-12
    )
    assert skc.cohen_kappa(y, p, weights="quadratic", sample_weight=w) == pytest.approx(
        skc.cohen_kappa(yr, pr, weights="quadratic"), rel=1e-12
    )


def test_counts_from_confusion():
    c = _counts_from_confusion(np.array([[5, 1, 0], [2, 3, 1], [0, 0, 4]]))
    np.testing.assert_array_equal(c.tp, [5, 3, 4])
    np.testing.assert_array_equal(c.fp, [2, 1, 1])
    np.testing.assert_array_equal(c.fn, [1, 3, 0])
    # tn = n − (tp + fp + fn) = 16 − (5+2+1), 16 − (3+1+3), 16 − (4+1+0)
    np.testing.assert_array_equal(c.tn, [8, 9, 11])


def test_many_classes_use_per_class_counts(monkeypatch):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 6, 200)
    p = np.where(rng.random(200) < 0.5, y, rng.integers(0, 6, 200))
    w = rng.random(200)
    small = {
        "f1": skc.f1(y, p, average="macro", sample_weight=w),
        "prec": skc.precision(y, p, average=None, labels=[5, 0, 9], zero_division=0),
        "kappa": skc.cohen_kappa(y, p, sample_weight=w),
        "mcc": skc.matthews_corrcoef(y, p),
        "acc": skc.accuracy(y, p, sample_weight=w),
    }
    monkeypatch.setattr(_counts_state, "CM_MAX_CELLS", 4)  # as if 6 classes were very many
    monkeypatch.setattr(_counts_matrix, "CM_MAX_CELLS", 4)
    y, p = y.astype(np.int64) * 1000, p.astype(np.int64) * 1000  # lookup-table coding, dense
    big = {
        "f1": skc.f1(y, p, average="macro", sample_weight=w),
        "prec": skc.precision(y, p, average=None, labels=[5000, 0, 9], zero_division=0),
        "kappa": skc.cohen_kappa(y, p, sample_weight=w),
        "mcc": skc.matthews_corrcoef(y, p),
        "acc": skc.accuracy(y, p, sample_weight=w),
    }
    for key, value in small.items():
        np.testing.assert_allclose(big[key], value, rtol=1e-12)


# ---------------------------------------------------------------- bad input: one test each


def test_length_mismatch():
    with pytest.raises(LengthMismatchError, match="y_true has 3 entries but y_pred has 2"):
        skc.f1([0, 1, 1], [0, 1])


def test_length_mismatch_multilabel():
    with pytest.raises(LengthMismatchError):
        skc.f1(np.eye(3, dtype=int), np.eye(3, dtype=int)[:2], average="macro")


def test_weight_length_mismatch():
    with pytest.raises(LengthMismatchError, match="sample_weight"):
        skc.accuracy([0, 1], [0, 1], sample_weight=[1.0])


def test_empty_input():
    with pytest.raises(EmptyInputError, match="y_true is empty"):
        skc.confusion_matrix([], [])


def test_negative_weight():
    with pytest.raises(NegativeWeightError, match="sample_weight"):
        skc.f1([0, 1], [0, 1], sample_weight=[1.0, -1.0])


def test_nan_labels():
    with pytest.raises(NonFiniteError, match="y_pred"):
        skc.accuracy([0.0, 1.0], [0.0, np.nan])


def test_strings_mixed_with_numbers():
    with pytest.raises(LabelError, match="y_true has string labels but y_pred has numbers"):
        skc.accuracy(["a", "b"], [0, 1])


def test_unknown_pos_label():
    with pytest.raises(LabelError, match="pos_label='x' is not a valid label"):
        skc.precision(["a", "b"], ["a", "a"], pos_label="x")


def test_pos_label_of_another_type():
    with pytest.raises(LabelError, match="pos_label"):
        skc.recall(["a", "b"], ["a", "a"])  # default pos_label=1 with string labels


def test_multiclass_with_binary_average():
    with pytest.raises(LabelError, match=r"average='binary'.*choose another average"):
        skc.f1([0, 1, 2], [0, 1, 1])


def test_multilabel_with_binary_average():
    with pytest.raises(LabelError, match="multilabel-indicator but average='binary'"):
        skc.f1(ML_TRUE, ML_PRED)


def test_labels_of_another_type():
    with pytest.raises(LabelError, match="not of the type"):
        skc.precision([0, 1, 2], [0, 1, 1], labels=["a"], average="macro")


def test_duplicate_labels():
    with pytest.raises(LabelError, match="duplicates"):
        skc.recall([0, 1, 2], [0, 1, 1], labels=[1, 1], average="macro")


def test_confusion_matrix_labels_absent_from_y_true():
    with pytest.raises(LabelError, match="at least one must occur in y_true"):
        skc.confusion_matrix([0, 0, 1], [0, 2, 2], labels=[2, 3])


def test_cohen_kappa_labels_absent_from_y1():
    with pytest.raises(LabelError, match="at least one must occur in y1"):
        skc.cohen_kappa([0, 0, 1], [0, 2, 2], labels=[2])


def test_multilabel_labels_out_of_range():
    with pytest.raises(LabelError, match=r"column indices in \[0, 3\)"):
        skc.precision(ML_TRUE, ML_PRED, labels=[0, 3], average="macro")


def test_unknown_average():
    with pytest.raises(ParameterError, match="average='mean'"):
        skc.recall([0, 1], [0, 1], average="mean")


def test_samples_average_on_1d_labels():
    with pytest.raises(ParameterError, match="average='samples'"):
        skc.precision([0, 1, 2], [0, 1, 1], average="samples")


def test_samplewise_on_1d_labels():
    with pytest.raises(ParameterError, match="samplewise"):
        skc.multilabel_confusion_matrix([0, 1], [0, 1], samplewise=True)


def test_unknown_normalize():
    with pytest.raises(ParameterError, match="normalize='rows'"):
        skc.confusion_matrix([0, 1], [0, 1], normalize="rows")


def test_unknown_kappa_weights():
    with pytest.raises(ParameterError, match="weights='cubic'"):
        skc.cohen_kappa([0, 1], [0, 1], weights="cubic")


def test_bad_zero_division():
    with pytest.raises(ParameterError, match="zero_division=2"):
        skc.f1([0, 1], [0, 1], zero_division=2)


def test_negative_beta():
    with pytest.raises(ParameterError, match="beta=-1"):
        skc.fbeta([0, 1], [0, 1], beta=-1)


def test_alpha_out_of_range():
    with pytest.raises(ParameterError, match=r"alpha=1\.5"):
        skc.e_measure([0, 1], [0, 1], alpha=1.5)


def test_report_target_names_length():
    with pytest.raises(ParameterError, match="target_names has 1 names"):
        skc.classification_report([0, 1], [0, 1], target_names=["a"])


def test_report_digits():
    with pytest.raises(ParameterError, match="digits"):
        skc.classification_report([0, 1], [0, 1], digits=-1)


def test_continuous_predictions():
    with pytest.raises(ShapeError, match="continuous values"):
        skc.accuracy([0, 1, 1], [0.2, 0.7, 0.9])


def test_scores_matrix_as_predictions():
    with pytest.raises(ShapeError, match="2-D scores"):
        skc.f1([0, 1, 1], [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]], average="macro")


def test_multilabel_against_1d():
    with pytest.raises(ShapeError, match="cannot be compared with 1-D labels"):
        skc.hamming_loss(ML_TRUE, [0, 1, 1])


def test_multiclass_multioutput():
    with pytest.raises(ShapeError, match="multiclass-multioutput"):
        skc.accuracy([[0, 2], [1, 1]], [[0, 2], [1, 0]])


def test_multilabel_column_mismatch():
    with pytest.raises(ShapeError, match="3 label columns but y_pred has 2"):
        skc.recall(ML_TRUE, ML_PRED[:, :2], average="micro")


@pytest.mark.parametrize(
    "fn",
    [skc.confusion_matrix, skc.balanced_accuracy, skc.matthews_corrcoef, skc.cohen_kappa],
)
def test_1d_only_metrics_reject_multilabel(fn):
    with pytest.raises(ShapeError, match="needs 1-D labels"):
        fn(ML_TRUE, ML_PRED)
