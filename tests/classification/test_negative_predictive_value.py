"""negative_predictive_value: the metric added end to end through the catalog (issue 13's example)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import precision_score

import scorekit as sk


@pytest.mark.parametrize("seed", range(5))
def test_equals_precision_of_the_other_class(seed):
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    w = rng.random(300) * 10 ** rng.uniform(-3, 3)
    expected = precision_score(y, p, pos_label=0)
    assert sk.negative_predictive_value(y, p) == pytest.approx(expected, abs=1e-12)
    weighted = precision_score(y, p, pos_label=0, sample_weight=w)
    got = sk.negative_predictive_value(y, p, sample_weight=w)
    assert got == pytest.approx(weighted, rel=1e-12)


@pytest.mark.parametrize("average", [None, "macro", "weighted", "micro"])
def test_multiclass_is_one_vs_rest_precision_of_not_k(average):
    rng = np.random.default_rng(7)
    labels = np.array(["ant", "bee", "cat"])
    y, p = labels[rng.integers(0, 3, 200)], labels[rng.integers(0, 3, 200)]
    per_class = np.array([precision_score(y != k, p != k) for k in labels])
    got = sk.negative_predictive_value(y, p, average=average)
    if average is None:
        np.testing.assert_allclose(got, per_class, rtol=1e-12)
    elif average == "macro":
        assert got == pytest.approx(per_class.mean(), rel=1e-12)
    elif average == "weighted":
        support = np.array([(y == k).sum() for k in labels])
        assert got == pytest.approx(np.average(per_class, weights=support), rel=1e-12)
    else:
        tn = sum(((y != k) & (p != k)).sum() for k in labels)
        fn = sum(((y == k) & (p != k)).sum() for k in labels)
        assert got == pytest.approx(tn / (tn + fn), rel=1e-12)


def test_worked_example_and_zero_division():
    # tn = 1 (row 7), fn = 2 (rows 4 and 5): 1/3
    assert sk.negative_predictive_value([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0]) == 1 / 3
    with pytest.warns(sk.UndefinedMetricWarning):
        assert sk.negative_predictive_value([0, 1], [1, 1]) == 0.0
    assert sk.negative_predictive_value([0, 1], [1, 1], zero_division=1.0) == 1.0


def test_every_face_reaches_it():
    row = sk.metric_info("negative_predictive_value")
    y, p = [1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0]
    acc = (
        sk.stream.ConfusionMatrix()
        .update(y[:3], p[:3])
        .merge(sk.stream.ConfusionMatrix().update(y[3:], p[3:]))
    )
    assert row.from_state(acc) == sk.negative_predictive_value(y, p)
    assert sk.stream.MetricSet([row.name], pred=True).update(y, None, p).values() == {
        row.name: 1 / 3
    }
    with pytest.raises(sk.LabelError):
        sk.negative_predictive_value([0, 1, 2], [0, 1, 2])
