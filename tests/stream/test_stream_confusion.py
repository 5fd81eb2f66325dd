"""ConfusionMatrix: chunked and merged in any order equals the one-shot count metrics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import close, feed, json_roundtrip, outcome, pickle_roundtrip, same

import scorekit as sk
from scorekit._errors import EmptyInputError, LabelError, ParameterError, ShapeError
from scorekit.stream import ConfusionMatrix
from scorekit.stream import _confusion as confusion_module

SEEDS = st.integers(0, 2**32 - 1)


def _labels(rng, n, kind):
    k = int(rng.integers(2, 6))
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, t, rng.integers(0, k, n))
    if kind == "str":
        names = np.array(["ant", "bee", "cat", "dog", "eel", "fox"])
        return names[t], names[p]
    if kind == "sparse_ints":  # a wide range with gaps: offset coding drops them
        values = np.array([-7, 3, 40, 41, 999, 5000])
        return values[t], values[p]
    if kind == "binary":
        return (t % 2), (p % 2)
    return t, p


def _cases(t, p, w=None):
    """(name, one-shot thunk, accumulator thunk) for every method and option."""
    present = np.unique(np.r_[t, p])
    labels = present[::-1][: max(1, present.size - 1)]  # reversed, one left out
    pos = present[-1]
    kw = {"sample_weight": w}
    out = [
        ("accuracy", lambda: sk.accuracy(t, p, **kw), lambda a: a.accuracy()),
        (
            "accuracy_count",
            lambda: sk.accuracy(t, p, normalize=False, **kw),
            lambda a: a.accuracy(normalize=False),
        ),
        ("balanced", lambda: sk.balanced_accuracy(t, p, **kw), lambda a: a.balanced_accuracy()),
        (
            "balanced_adj",
            lambda: sk.balanced_accuracy(t, p, adjusted=True, **kw),
            lambda a: a.balanced_accuracy(adjusted=True),
        ),
        ("mcc", lambda: sk.matthews_corrcoef(t, p, **kw), lambda a: a.matthews_corrcoef()),
        ("hamming", lambda: sk.hamming_loss(t, p, **kw), lambda a: a.hamming_loss()),
        ("cm", lambda: sk.confusion_matrix(t, p, **kw), lambda a: a.confusion_matrix()),
        (
            "cm_labels",
            lambda: sk.confusion_matrix(t, p, labels=labels, normalize="true", **kw),
            lambda a: a.confusion_matrix(labels=labels, normalize="true"),
        ),
        (
            "mlcm",
            lambda: sk.multilabel_confusion_matrix(t, p, labels=labels, **kw),
            lambda a: a.multilabel_confusion_matrix(labels=labels),
        ),
        ("kappa", lambda: sk.cohen_kappa(t, p, **kw), lambda a: a.cohen_kappa()),
        (
            "kappa_quadratic",
            lambda: sk.cohen_kappa(t, p, weights="quadratic", labels=labels, **kw),
            lambda a: a.cohen_kappa(weights="quadratic", labels=labels),
        ),
    ]
    for average in (None, "binary", "micro", "macro", "weighted"):
        for zd in ("warn", 1.0, np.nan):
            opts = {"average": average, "zero_division": zd, "pos_label": pos}
            for name in ("precision", "recall", "f1", "specificity", "jaccard"):
                fn = getattr(sk, name)
                out.append(
                    (
                        f"{name}-{average}-{zd}",
                        lambda fn=fn, o=opts: fn(t, p, **o, **kw),
                        lambda a, n=name, o=opts: getattr(a, n)(**o),
                    )
                )
            out.append(
                (
                    f"fbeta-{average}",
                    lambda o=opts: sk.fbeta(t, p, beta=0.5, **o, **kw),
                    lambda a, o=opts: a.fbeta(beta=0.5, **o),
                )
            )
            out.append(
                (
                    f"e-{average}",
                    lambda o=opts: sk.e_measure(t, p, alpha=0.2, **o, **kw),
                    lambda a, o=opts: a.e_measure(alpha=0.2, **o),
                )
            )
        out.append(
            (
                f"prfs-labels-{average}",
                lambda av=average: sk.precision_recall_fscore_support(
                    t, p, labels=labels, average=None if av == "binary" else av, **kw
                ),
                lambda a, av=average: a.precision_recall_fscore_support(
                    labels=labels, average=None if av == "binary" else av
                ),
            )
        )
    return out


def _check(acc, t, p, w=None, exact=True):
    for name, one_shot, method in _cases(t, p, w):
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        if exact:
            assert same(got, expected), name
            if isinstance(expected, np.ndarray):
                assert got.dtype == expected.dtype, name
        else:
            assert close(got, expected), name
        assert got_warned == warned, name


@given(seed=SEEDS, kind=st.sampled_from(["int", "str", "sparse_ints", "binary"]))
def test_chunked_equals_one_shot_exactly(seed, kind):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, int(rng.integers(1, 200)), kind)
    _check(feed(ConfusionMatrix, (t, p), rng), t, p)


@given(seed=SEEDS, kind=st.sampled_from(["int", "str", "binary"]))
def test_chunked_equals_one_shot_float_weights(seed, kind):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, int(rng.integers(1, 200)), kind)
    w = rng.random(t.size) * 2
    w[rng.random(t.size) < 0.1] = 0.0
    _check(feed(ConfusionMatrix, (t, p), rng, sample_weight=w), t, p, w)


@given(seed=SEEDS)
def test_integer_weights_give_integer_matrices(seed):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, int(rng.integers(1, 100)), "int")
    w = rng.integers(0, 4, t.size)
    acc = feed(ConfusionMatrix, (t, p), rng, sample_weight=w)
    _check(acc, t, p, w)


@given(seed=SEEDS)
def test_round_trips_change_nothing(seed):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, 80, str(rng.choice(["int", "str"])))
    w = None if seed % 2 else rng.random(t.size)
    acc = feed(ConfusionMatrix, (t, p), rng, sample_weight=w)
    for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
        for name, _, method in _cases(t, p, w):
            assert same(outcome(lambda m=method, b=back: m(b)), outcome(lambda m=method: m(acc))), (
                name
            )


def test_labels_given_to_the_constructor_are_the_default():
    t, p = [0, 1, 2, 2], [0, 2, 2, 1]
    acc = ConfusionMatrix(labels=[2, 0]).update(t, p)
    assert np.array_equal(acc.confusion_matrix(), sk.confusion_matrix(t, p, labels=[2, 0]))
    assert acc.f1(average="macro") == sk.f1(t, p, labels=[2, 0], average="macro")
    assert acc.accuracy() == 0.5


def test_worked_example():
    # tp = 3, fp = 1, fn = 2, tn = 1 (the examples of scorekit.precision and friends):
    # P = 3/4, R = 3/5, F1 = 6/9, specificity = 1/2, MCC = (3·1 − 1·2)/√(4·5·2·3) = 1/√120
    acc = ConfusionMatrix().update([1, 1, 1, 1], [1, 1, 1, 0]).update([1, 0, 0], [0, 1, 0])
    assert acc.confusion_matrix().tolist() == [[1, 1], [2, 3]]
    assert (acc.precision(), acc.recall(), acc.specificity()) == (0.75, 0.6, 0.5)
    assert acc.f1() == pytest.approx(2 / 3, abs=1e-15)
    assert acc.matthews_corrcoef() == pytest.approx(1 / np.sqrt(120), abs=1e-15)
    assert acc.classes.tolist() == [0, 1]


def test_classes_in_later_chunks():
    acc = ConfusionMatrix().update(["b", "b"], ["b", "c"]).update(["a"], ["a"])
    assert acc.classes.tolist() == ["a", "b", "c"]
    assert acc.confusion_matrix().tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 0]]


def test_zero_weight_label_still_occurs():
    # label 1 occurs in y_true only with weight 0: confusion_matrix(labels=[1]) is allowed
    t, p, w = [0, 1], [0, 0], [1.0, 0.0]
    acc = ConfusionMatrix().update(t[:1], p[:1], sample_weight=w[:1])
    acc.update(t[1:], p[1:], sample_weight=w[1:])
    assert acc.confusion_matrix(labels=[1]).tolist() == [[0.0]]
    assert sk.confusion_matrix(t, p, labels=[1], sample_weight=w).tolist() == [[0.0]]


def test_empty_raises():
    with pytest.raises(EmptyInputError, match="no rows"):
        ConfusionMatrix().accuracy()


def test_multilabel_raises():
    with pytest.raises(ShapeError, match="1-D"):
        ConfusionMatrix().update([[0, 1], [1, 1]], [[0, 1], [1, 0]])


def test_strings_then_numbers_raise():
    acc = ConfusionMatrix().update(["a"], ["b"])
    with pytest.raises(LabelError, match="strings"):
        acc.update([1], [0])


def test_merge_mixed_label_kinds_raises():
    acc = ConfusionMatrix().update(["a"], ["b"])
    with pytest.raises(LabelError, match="strings"):
        acc.merge(ConfusionMatrix().update([1], [0]))


def test_merge_other_labels_raises():
    with pytest.raises(ParameterError, match="options"):
        ConfusionMatrix(labels=[0, 1]).merge(ConfusionMatrix())


def test_samples_average_raises():
    with pytest.raises(ParameterError, match="samples"):
        ConfusionMatrix().update([0, 1], [0, 1]).f1(average="samples")


def test_binary_average_with_three_classes_raises():
    with pytest.raises(LabelError, match="multiclass"):
        ConfusionMatrix().update([0, 1, 2], [0, 1, 2]).precision()


def test_bad_pos_label_raises():
    with pytest.raises(LabelError, match="pos_label"):
        ConfusionMatrix().update([0, 1], [0, 1]).recall(pos_label=7)


def test_bad_zero_division_raises():
    with pytest.raises(ParameterError, match="zero_division"):
        ConfusionMatrix().update([0, 1], [0, 1]).f1(zero_division=2)


def test_bad_beta_raises():
    with pytest.raises(ParameterError, match="beta"):
        ConfusionMatrix().update([0, 1], [0, 1]).fbeta(beta=-1)


def test_bad_alpha_raises():
    with pytest.raises(ParameterError, match="alpha"):
        ConfusionMatrix().update([0, 1], [0, 1]).e_measure(alpha=2)


def test_bad_normalize_raises():
    with pytest.raises(ParameterError, match="normalize"):
        ConfusionMatrix().update([0, 1], [0, 1]).confusion_matrix(normalize="rows")


def test_absent_labels_raise():
    with pytest.raises(LabelError, match="at least one"):
        ConfusionMatrix().update([0, 1], [0, 1]).confusion_matrix(labels=[5])


def test_pos_label_ignored_warns():
    acc = ConfusionMatrix().update([0, 1, 2], [0, 1, 1])
    with pytest.warns(UserWarning, match="ignored"):
        acc.f1(average="macro", pos_label=2)


def test_too_many_classes_raise(monkeypatch):
    monkeypatch.setattr(confusion_module, "MAX_CLASSES", 5)
    acc = ConfusionMatrix().update([0, 1, 2], [0, 1, 2])
    acc.update([2, 3], [4, 4])  # five classes: still fine
    with pytest.raises(LabelError, match="more than 5 classes"):
        acc.update([5], [5])
