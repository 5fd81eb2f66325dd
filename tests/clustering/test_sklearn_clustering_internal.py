"""Silhouette, Calinski–Harabasz and Davies–Bouldin: against scikit-learn, worked examples, errors."""

from __future__ import annotations

import tracemalloc
import warnings
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit
import scorekit.clustering as skc
from scorekit.clustering import _internal
from scorekit.clustering._internal import (
    _calinski_harabasz_from_moments,
    _cluster_moments_from_chunk,
    _merge_cluster_moments,
    _sample_indices,
)

metrics = pytest.importorskip("sklearn.metrics")
sk_utils = pytest.importorskip("sklearn.utils")

pytestmark = pytest.mark.reference


def _blobs(seed, n=200, d=4, k=5, spread=1.0, offset=0.0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, n)
    centres = rng.normal(scale=3.0, size=(k, d))
    X = offset + centres[labels] + rng.normal(scale=spread, size=(n, d))
    return X, labels


def _close(got, want, rtol=1e-9, atol=1e-12):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.fixture
def small_blocks(monkeypatch):
    # a few rows per block, so that every test crosses block boundaries
    monkeypatch.setattr(_internal, "_BLOCK_BYTES", 8 * 7 * 300)


# ----------------------------------------------------------------------------- against scikit-learn
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [2, 5, 40])
def test_silhouette_samples_euclidean(seed, k, small_blocks):
    X, labels = _blobs(seed, n=250, k=k)
    _close(skc.silhouette_samples(X, labels), metrics.silhouette_samples(X, labels))
    _close(skc.silhouette_score(X, labels), metrics.silhouette_score(X, labels))


METRICS = [
    ("manhattan", {}),
    ("l1", {}),
    ("cityblock", {}),
    ("l2", {}),
    ("cosine", {}),
    ("sqeuclidean", {}),
    ("minkowski", {"p": 3}),
    ("chebyshev", {}),
    ("correlation", {}),
    ("canberra", {}),
    ("braycurtis", {}),
    ("seuclidean", {}),
    ("mahalanobis", {}),
]


@pytest.mark.parametrize(("metric", "kwds"), METRICS, ids=[m for m, _ in METRICS])
def test_silhouette_metrics(metric, kwds, small_blocks):
    X, labels = _blobs(1, n=150, k=4)
    _close(
        skc.silhouette_samples(X, labels, metric=metric, **kwds),
        metrics.silhouette_samples(X, labels, metric=metric, **kwds),
    )


@pytest.mark.parametrize("metric", ["jaccard", "dice", "hamming"])
def test_silhouette_boolean_metrics(metric):
    rng = np.random.default_rng(2)
    X = rng.random((80, 6)) > 0.5
    labels = rng.integers(0, 3, 80)
    _close(
        skc.silhouette_samples(X, labels, metric=metric),
        metrics.silhouette_samples(X, labels, metric=metric),
    )


def test_silhouette_callable_metric():
    X, labels = _blobs(3, n=40, k=3)

    def dist(u, v):
        return float(np.abs(u - v).max())

    _close(
        skc.silhouette_samples(X, labels, metric=dist),
        metrics.silhouette_samples(X, labels, metric=dist),
    )


def test_silhouette_precomputed(small_blocks):
    X, labels = _blobs(4, n=120, k=3)
    D = metrics.pairwise_distances(X, metric="manhattan")
    _close(
        skc.silhouette_samples(D, labels, metric="precomputed"),
        metrics.silhouette_samples(D, labels, metric="precomputed"),
    )
    _close(
        skc.silhouette_score(D, labels, metric="precomputed", sample_size=60, random_state=1),
        metrics.silhouette_score(D, labels, metric="precomputed", sample_size=60, random_state=1),
    )


def test_silhouette_string_labels_and_singletons(small_blocks):
    X, labels = _blobs(5, n=60, k=4)
    names = np.array(["north", "south", "east", "west"])[labels].astype(object)
    names[:3] = ["alone-1", "alone-2", "alone-3"]  # clusters of one point score 0
    got = skc.silhouette_samples(X, names)
    _close(got, metrics.silhouette_samples(X, names))
    assert got[:3].tolist() == [0.0, 0.0, 0.0]


def test_silhouette_duplicate_points():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [1.0]])
    labels = [0, 0, 1, 1, 1]
    _close(skc.silhouette_samples(X, labels), metrics.silhouette_samples(X, labels))


def test_silhouette_large_offset():
    # Features near 1e6: sklearn's expansion loses digits there; compare with it on centred data.
    X, labels = _blobs(6, n=150, k=3, offset=1e6)
    want = metrics.silhouette_samples(X - X.mean(axis=0), labels)
    _close(skc.silhouette_samples(X, labels), want, rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("seed", [0, 7])
def test_silhouette_sample_is_sklearns(seed):
    X, labels = _blobs(7, n=300, k=4)
    want_idx = sk_utils.check_random_state(seed).permutation(300)[:90]
    assert _sample_indices(300, 90, seed).tolist() == want_idx.tolist()
    assert _sample_indices(300, 90, np.random.RandomState(seed)).tolist() == want_idx.tolist()
    ours = skc.silhouette_score(X, labels, sample_size=90, random_state=seed)
    _close(ours, metrics.silhouette_score(X, labels, sample_size=90, random_state=seed))
    _close(
        skc.silhouette_score(X, labels, sample_size=90, random_state=np.random.RandomState(seed)),
        metrics.silhouette_score(
            X, labels, sample_size=90, random_state=np.random.RandomState(seed)
        ),
    )
    assert abs(ours - skc.silhouette_score(X, labels)) > 1e-6  # the sample matters


def test_silhouette_sample_from_global_state():
    # random_state=None draws from NumPy's global RandomState, as scikit-learn does
    X, labels = _blobs(8, n=200, k=3)
    saved = np.random.get_state()  # noqa: NPY002
    try:
        np.random.seed(11)  # noqa: NPY002 -- the legacy global state is what is tested
        ours = skc.silhouette_score(X, labels, sample_size=50)
        np.random.seed(11)  # noqa: NPY002
        want = metrics.silhouette_score(X, labels, sample_size=50)
    finally:
        np.random.set_state(saved)  # noqa: NPY002
    _close(ours, want)
    # a sample larger than the data is the whole data, permuted
    _close(
        skc.silhouette_score(X, labels, sample_size=10_000, random_state=0),
        metrics.silhouette_score(X, labels),
    )


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [2, 6, 50])
def test_calinski_harabasz_and_davies_bouldin(seed, k):
    X, labels = _blobs(seed, n=300, k=k, d=3)
    _close(skc.calinski_harabasz(X, labels), metrics.calinski_harabasz_score(X, labels))
    _close(skc.davies_bouldin(X, labels), metrics.davies_bouldin_score(X, labels))


def test_ch_db_string_labels_and_integer_features():
    rng = np.random.default_rng(9)
    X = rng.integers(0, 5, size=(100, 2))
    labels = np.array(["a", "b", "c"])[rng.integers(0, 3, 100)]
    _close(skc.calinski_harabasz(X, labels), metrics.calinski_harabasz_score(X, labels))
    _close(skc.davies_bouldin(X, labels), metrics.davies_bouldin_score(X, labels))


def test_ch_db_large_offset():
    X, labels = _blobs(10, n=200, k=4, offset=1e6)
    centred = X - X.mean(axis=0)
    _close(skc.calinski_harabasz(X, labels), metrics.calinski_harabasz_score(centred, labels))
    _close(skc.davies_bouldin(X, labels), metrics.davies_bouldin_score(centred, labels))


def test_degenerate_conventions():
    # every point on its centroid: CH is 1.0 and DB is 0.0 (scikit-learn's conventions)
    X = np.array([[1.0, 2.0], [1.0, 2.0], [5.0, 5.0], [5.0, 5.0]])
    labels = [0, 0, 1, 1]
    assert skc.calinski_harabasz(X, labels) == metrics.calinski_harabasz_score(X, labels) == 1.0
    assert skc.davies_bouldin(X, labels) == metrics.davies_bouldin_score(X, labels) == 0.0
    # two clusters with the same centroid: every centroid distance is 0 -> DB 0.0
    X = np.array([[0.0], [2.0], [1.0], [1.0]])
    assert skc.davies_bouldin(X, labels) == metrics.davies_bouldin_score(X, labels) == 0.0


# ----------------------------------------------------------------------------- worked examples
def test_silhouette_worked_example():
    # 1-D points 0, 1 (cluster A) and 4, 6 (cluster B).
    # x=0: a = d(0,1) = 1;            b = (4 + 6)/2 = 5;   s = (5 - 1)/5 = 0.8
    # x=1: a = 1;                     b = (3 + 5)/2 = 4;   s = (4 - 1)/4 = 0.75
    # x=4: a = d(4,6) = 2;            b = (4 + 3)/2 = 3.5; s = (3.5 - 2)/3.5 = 3/7
    # x=6: a = 2;                     b = (6 + 5)/2 = 5.5; s = (5.5 - 2)/5.5 = 7/11
    X = [[0.0], [1.0], [4.0], [6.0]]
    want = [0.8, 0.75, 3 / 7, 7 / 11]
    _close(skc.silhouette_samples(X, ["A", "A", "B", "B"]), want, rtol=1e-15)
    _close(skc.silhouette_score(X, ["A", "A", "B", "B"]), np.mean(want), rtol=1e-15)
    # manhattan equals euclidean in 1-D
    _close(skc.silhouette_samples(X, [0, 0, 1, 1], metric="manhattan"), want, rtol=1e-15)


def test_ch_db_worked_example():
    # Clusters {0, 2} and {10, 12} on a line: centroids 1 and 11, grand mean 6.
    # Between: 2·(1 - 6)² + 2·(11 - 6)² = 100 over K - 1 = 1; within: 1 + 1 + 1 + 1 = 4 over
    # n - K = 2, so CH = 100 / 2 = 50. DB: s = 1 and 1, centroids 10 apart: (1 + 1)/10 = 0.2.
    X = [[0.0], [2.0], [10.0], [12.0]]
    assert skc.calinski_harabasz(X, [0, 0, 1, 1]) == 50.0
    assert skc.davies_bouldin(X, [0, 0, 1, 1]) == pytest.approx(0.2, rel=1e-15)


# ----------------------------------------------------------------------------- kernels and memory
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 60),
    cuts=st.lists(st.integers(0, 60), max_size=4),
    offset=st.sampled_from([0.0, 1e6]),
)
def test_cluster_moments_merge_equals_one_shot(seed, n, cuts, offset):
    rng = np.random.default_rng(seed)
    X = offset + rng.normal(size=(n, 2))
    labels = rng.integers(0, 4, n)
    whole = _cluster_moments_from_chunk(X, labels)
    edges = sorted({0, n, *(c % (n + 1) for c in cuts)})
    state = _cluster_moments_from_chunk(X[:0], labels[:0])
    for a, b in pairwise(edges):
        state = _merge_cluster_moments(state, _cluster_moments_from_chunk(X[a:b], labels[a:b]))
    assert state.labels.tolist() == whole.labels.tolist()
    np.testing.assert_array_equal(state.counts, whole.counts)
    _close(state.means, whole.means, rtol=1e-13)
    _close(state.m2, whole.m2, rtol=1e-10, atol=1e-9)
    if whole.labels.size > 1 and whole.labels.size < n:
        _close(
            _calinski_harabasz_from_moments(state),
            _calinski_harabasz_from_moments(whole),
            rtol=1e-9,
        )


def test_silhouette_memory_is_bounded(monkeypatch):
    # 4000 points: the full distance matrix would take 122 MiB; blocks of 4 MiB keep the
    # peak of everything allocated during the call far below it.
    monkeypatch.setattr(_internal, "_BLOCK_BYTES", 4 * 2**20)
    X, labels = _blobs(12, n=4000, d=3, k=5)
    tracemalloc.start()
    try:
        skc.silhouette_samples(X, labels)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 12 * 2**20


def test_inputs_are_not_modified():
    X, labels = _blobs(13, n=50, k=3)
    X0, labels0 = X.copy(), labels.copy()
    skc.silhouette_samples(X, labels)
    skc.silhouette_score(X, labels, metric="cosine", sample_size=20, random_state=0)
    skc.calinski_harabasz(X, labels)
    skc.davies_bouldin(X, labels)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(labels, labels0)


# ----------------------------------------------------------------------------- errors (one per case)
ALL = [skc.silhouette_samples, skc.silhouette_score, skc.calinski_harabasz, skc.davies_bouldin]
SK_ALL = [
    metrics.silhouette_samples,
    metrics.silhouette_score,
    metrics.calinski_harabasz_score,
    metrics.davies_bouldin_score,
]


@pytest.mark.parametrize(("fn", "ref"), list(zip(ALL, SK_ALL, strict=True)))
def test_single_cluster(fn, ref):
    X = np.arange(10.0).reshape(5, 2)
    with pytest.raises(ValueError, match="2 to n_samples - 1"):
        ref(X, [1] * 5)
    with pytest.raises(scorekit.LabelError, match=r"1 distinct clusters.*2 to n_samples - 1"):
        fn(X, [1] * 5)


@pytest.mark.parametrize(("fn", "ref"), list(zip(ALL, SK_ALL, strict=True)))
def test_every_point_its_own_cluster(fn, ref):
    X = np.arange(10.0).reshape(5, 2)
    with pytest.raises(ValueError, match="2 to n_samples - 1"):
        ref(X, list("abcde"))
    with pytest.raises(scorekit.LabelError, match=r"5 distinct clusters for 5 samples"):
        fn(X, list("abcde"))


@pytest.mark.parametrize("fn", ALL)
def test_x_not_two_dimensional(fn):
    with pytest.raises(scorekit.ShapeError, match="X must be 2-D"):
        fn([0.0, 1.0, 2.0], [0, 0, 1])


@pytest.mark.parametrize("fn", ALL)
def test_lengths_differ(fn):
    with pytest.raises(scorekit.LengthMismatchError, match="X has 4 entries but labels has 3"):
        fn(np.zeros((4, 2)), [0, 1, 1])


@pytest.mark.parametrize("fn", ALL)
def test_nan_in_x(fn):
    X = np.arange(8.0).reshape(4, 2)
    X[1, 1] = np.nan
    with pytest.raises(scorekit.NonFiniteError, match="X contains 1 NaN"):
        fn(X, [0, 0, 1, 1])


@pytest.mark.parametrize("fn", ALL)
def test_empty_x(fn):
    with pytest.raises(scorekit.EmptyInputError, match="X is empty"):
        fn(np.zeros((0, 2)), [])


def test_no_features():
    with pytest.raises(scorekit.ShapeError, match="no features"):
        skc.calinski_harabasz(np.zeros((4, 0)), [0, 0, 1, 1])


def test_nan_labels():
    with pytest.raises(scorekit.NonFiniteError, match="labels"):
        skc.silhouette_score(np.zeros((3, 1)), [0.0, np.nan, 1.0])


def test_precomputed_not_square():
    with pytest.raises(scorekit.ShapeError, match="square"):
        skc.silhouette_samples(np.zeros((4, 3)), [0, 0, 1, 1], metric="precomputed")


def test_precomputed_nonzero_diagonal():
    D = np.ones((4, 4))
    with pytest.raises(scorekit.ParameterError, match="diagonal"):
        skc.silhouette_samples(D, [0, 0, 1, 1], metric="precomputed")


def test_precomputed_negative_distances():
    D = -np.ones((4, 4))
    np.fill_diagonal(D, 0)
    with pytest.raises(scorekit.ParameterError, match="negative"):
        skc.silhouette_samples(D, [0, 0, 1, 1], metric="precomputed")


def test_unknown_metric():
    with pytest.raises(scorekit.ParameterError, match="metric='nope'"):
        skc.silhouette_samples(np.arange(8.0).reshape(4, 2), [0, 0, 1, 1], metric="nope")


def test_extra_arguments_to_euclidean():
    with pytest.raises(scorekit.ParameterError, match="takes no extra arguments"):
        skc.silhouette_samples(np.arange(8.0).reshape(4, 2), [0, 0, 1, 1], p=3)


@pytest.mark.parametrize("size", [0, -3, 2.5, True])
def test_bad_sample_size(size):
    with pytest.raises(scorekit.ParameterError, match="sample_size"):
        skc.silhouette_score(np.arange(8.0).reshape(4, 2), [0, 0, 1, 1], sample_size=size)


def test_bad_random_state():
    with pytest.raises(scorekit.ParameterError, match="random_state"):
        skc.silhouette_score(
            np.arange(8.0).reshape(4, 2), [0, 0, 1, 1], sample_size=2, random_state="x"
        )


def test_sample_with_one_cluster_raises():
    # scikit-learn raises on a sample that holds a single cluster; so do we
    X = np.arange(20.0).reshape(10, 2)
    labels = [0] * 9 + [1]
    idx = sk_utils.check_random_state(0).permutation(10)[:3]
    assert 9 not in idx.tolist()
    with warnings.catch_warnings(), pytest.raises(ValueError):
        metrics.silhouette_score(X, labels, sample_size=3, random_state=0)
    with pytest.raises(scorekit.LabelError):
        skc.silhouette_score(X, labels, sample_size=3, random_state=0)


def test_silhouette_exact_on_duplicate_points():
    # Integer grids repeat points: the ‖a‖² + ‖b‖² − 2a·b expansion gives ~1e-16·‖a‖² for
    # a duplicate pair, whose square root (~1e-8) used to reach the result. Those pairs are
    # recomputed from differences; compare with distances computed directly by scipy.
    from scipy.spatial.distance import cdist

    X = np.array([[-1.0, -1.0], [-1.0, -1.0], [0.0, -2.0]])
    assert skc.silhouette_score(X, [1, 0, 0]) == pytest.approx(-1 / 3, abs=1e-15)
    rng = np.random.default_rng(5)
    for _ in range(20):
        X = rng.integers(0, 3, (30, 3)).astype(float) + 1e3
        labels = rng.integers(0, 3, 30)
        want = metrics.silhouette_samples(cdist(X, X), labels, metric="precomputed")
        np.testing.assert_allclose(skc.silhouette_samples(X, labels), want, rtol=0, atol=1e-12)
