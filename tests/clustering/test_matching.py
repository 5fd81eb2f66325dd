"""pair_confusion_matrix, cluster_accuracy and dunn_index against scikit-learn and torchmetrics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics.cluster import pair_confusion_matrix as sk_pcm

import scorekit as sk


def _labelings(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    return rng.integers(0, rng.integers(1, 6), n), rng.integers(0, rng.integers(1, 7), n)


@pytest.mark.parametrize("seed", range(10))
def test_pair_confusion_equals_sklearn(seed):
    a, b = _labelings(seed)
    np.testing.assert_array_equal(sk.pair_confusion_matrix(a, b), sk_pcm(a, b))


def _brute_accuracy(t, p):
    classes, clusters = np.unique(t), np.unique(p)
    best = 0
    for perm in itertools.permutations(range(max(len(classes), len(clusters))), len(clusters)):
        mapping = {
            c: classes[k] if k < len(classes) else None for c, k in zip(clusters, perm, strict=True)
        }
        best = max(best, sum(mapping[c] == y for c, y in zip(p, t, strict=True)))
    return best / len(t)


@pytest.mark.parametrize("seed", range(8))
def test_cluster_accuracy_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    t, p = rng.integers(0, 3, 30), rng.integers(0, 4, 30)
    assert sk.cluster_accuracy(t, p) == pytest.approx(_brute_accuracy(t, p), abs=1e-15)


def test_cluster_accuracy_torchmetrics_example_and_stream():
    assert sk.cluster_accuracy([1, 1, 0, 0], [0, 0, 1, 1]) == 1.0
    t, p = _labelings(3)
    acc = (
        sk.stream.Contingency()
        .update(t[:5], p[:5])
        .merge(sk.stream.Contingency().update(t[5:], p[5:]))
    )
    assert acc.cluster_accuracy() == sk.cluster_accuracy(t, p)
    np.testing.assert_array_equal(acc.pair_confusion_matrix(), sk.pair_confusion_matrix(t, p))


def test_dunn_index_equals_torchmetrics():
    torch = pytest.importorskip("torch")
    tmc = pytest.importorskip("torchmetrics.functional.clustering")
    for seed in range(6):
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(50, 3))
        labels = rng.integers(0, 4, 50)
        labels[:4] = np.arange(4)
        for p in (1.0, 2.0, 3.0):
            expected = float(tmc.dunn_index(torch.tensor(x), torch.tensor(labels), p=p))
            assert sk.dunn_index(x, labels, p=p) == pytest.approx(expected, rel=1e-12)


def test_dunn_index_bad_input():
    with pytest.raises(sk.ParameterError, match="p must be"):
        sk.dunn_index([[0.0], [1.0], [2.0]], [0, 0, 1], p=0.5)
    with pytest.raises(sk.LabelError):
        sk.dunn_index([[0.0], [1.0], [2.0]], [0, 0, 0])
