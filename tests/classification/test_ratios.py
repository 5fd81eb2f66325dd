"""The error ratios by name and the likelihood ratios, against scikit-learn's counts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import class_likelihood_ratios as sk_lr
from sklearn.metrics import multilabel_confusion_matrix

import scorekit as sk

RATIOS = {  # name: (numerator, denominator) over sklearn's [[tn, fp], [fn, tp]] per class
    "false_positive_rate": (lambda tn, fp, fn, tp: fp, lambda tn, fp, fn, tp: fp + tn),
    "false_negative_rate": (lambda tn, fp, fn, tp: fn, lambda tn, fp, fn, tp: fn + tp),
    "false_discovery_rate": (lambda tn, fp, fn, tp: fp, lambda tn, fp, fn, tp: fp + tp),
    "false_omission_rate": (lambda tn, fp, fn, tp: fn, lambda tn, fp, fn, tp: fn + tn),
    "negative_predictive_value": (lambda tn, fp, fn, tp: tn, lambda tn, fp, fn, tp: fn + tn),
}
SUPPORT_WEIGHTED = True  # "weighted" averages by each class's support (tp + fn), as recall


@pytest.mark.parametrize("name", list(RATIOS))
@pytest.mark.parametrize("seed", range(4))
def test_ratios_equal_their_counts(name, seed):
    rng = np.random.default_rng(seed)
    labels = np.array(["ant", "bee", "cat"])
    y, p = labels[rng.integers(0, 3, 300)], labels[rng.integers(0, 3, 300)]
    w = rng.random(300) * 10.0 ** rng.uniform(-5, 5)
    fn = getattr(sk, name)
    num, den = RATIOS[name]
    for weights in (None, w):
        mcm = multilabel_confusion_matrix(y, p, labels=labels, sample_weight=weights)
        tn, fp, fn_, tp = (mcm[:, i // 2, i % 2].astype(float) for i in range(4))
        per_class = num(tn, fp, fn_, tp) / den(tn, fp, fn_, tp)
        np.testing.assert_allclose(
            fn(y, p, average=None, sample_weight=weights), per_class, rtol=1e-12
        )
        macro = fn(y, p, average="macro", sample_weight=weights)
        assert macro == pytest.approx(per_class.mean(), rel=1e-12)
        weighted = fn(y, p, average="weighted", sample_weight=weights)
        assert weighted == pytest.approx(np.average(per_class, weights=tp + fn_), rel=1e-12)
        micro = fn(y, p, average="micro", sample_weight=weights)
        assert micro == pytest.approx(
            num(tn, fp, fn_, tp).sum() / den(tn, fp, fn_, tp).sum(), rel=1e-12
        )
        binary = fn(y == "bee", p == "bee", sample_weight=weights)
        assert binary == pytest.approx(per_class[1], rel=1e-12)


def test_ratios_are_not_one_minus_their_complement():
    # 1/3 computed directly is correctly rounded; 1 - 2/3 is not
    assert sk.false_positive_rate([0, 0, 0], [1, 0, 0]) == 1 / 3
    assert sk.false_negative_rate([1, 1, 1], [1, 1, 0]) == 1 / 3


def test_ratio_streams_and_zero_division():
    y, p = [1, 1, 1, 0, 0, 0, 1], [1, 0, 1, 1, 0, 0, 0]
    acc = (
        sk.stream.ConfusionMatrix()
        .update(y[:4], p[:4])
        .merge(sk.stream.ConfusionMatrix().update(y[4:], p[4:]))
    )
    for name in RATIOS:
        assert getattr(acc, name)() == getattr(sk, name)(y, p)
    with pytest.warns(sk.UndefinedMetricWarning):
        assert sk.false_positive_rate([1, 1], [1, 0]) == 0.0
    assert np.isnan(sk.false_positive_rate([1, 1], [1, 0], zero_division=np.nan))


@pytest.mark.parametrize("seed", range(6))
def test_likelihood_ratios_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    if seed == 4:
        p[y == 0] = 0  # no false positives: LR+ undefined
    if seed == 5:
        p[y == 0] = 1  # no true negatives: LR- undefined
    w = rng.random(50) * 3
    for weights in (None, w):
        for replace in (np.nan, 1.0, {"LR+": np.inf, "LR-": 0.0}):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours = sk.class_likelihood_ratios(
                    y, p, sample_weight=weights, replace_undefined_by=replace
                )
                theirs = sk_lr(y, p, sample_weight=weights, replace_undefined_by=replace)
            np.testing.assert_allclose(ours, theirs, rtol=1e-12, equal_nan=True)


def test_likelihood_ratio_labels_and_errors():
    y = np.array(["non-cat", "cat", "non-cat", "cat", "non-cat"])
    p = np.array(["cat", "cat", "non-cat", "non-cat", "non-cat"])
    assert sk.class_likelihood_ratios(y, p) == pytest.approx(sk_lr(y, p))
    assert sk.class_likelihood_ratios(y, p, labels=["non-cat", "cat"]) == (1.5, 0.75)
    with pytest.raises(sk.LabelError, match="two classes"):
        sk.class_likelihood_ratios([0, 1, 2], [0, 1, 2])
    with pytest.raises(sk.ParameterError, match="replace_undefined_by"):
        sk.class_likelihood_ratios([0, 1], [0, 1], replace_undefined_by=0.5)
