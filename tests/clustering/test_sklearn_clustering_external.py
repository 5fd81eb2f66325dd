"""Pair-counting and information-theoretic clustering metrics against scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit.clustering as skc
from scorekit import UndefinedMetricWarning
from scorekit.clustering._contingency import _marginals, _state_of
from scorekit.clustering._information import (
    _entropy_of_counts,
    _expected_mutual_info,
    _generalized_average,
)

metrics = pytest.importorskip("sklearn.metrics")
cluster = pytest.importorskip("sklearn.metrics.cluster")
sp = pytest.importorskip("scipy.sparse")

pytestmark = pytest.mark.reference

AVERAGES = ["arithmetic", "geometric", "min", "max"]

# (ours, scikit-learn's, kwargs, relative tolerance)
TABLE = [
    (skc.rand_index, metrics.rand_score, {}, 1e-9),
    (skc.adjusted_rand_index, metrics.adjusted_rand_score, {}, 1e-9),
    (skc.fowlkes_mallows, metrics.fowlkes_mallows_score, {}, 1e-9),
    (skc.mutual_info, metrics.mutual_info_score, {}, 1e-9),
    (skc.homogeneity, metrics.homogeneity_score, {}, 1e-9),
    (skc.completeness, metrics.completeness_score, {}, 1e-9),
    (skc.v_measure, metrics.v_measure_score, {}, 1e-9),
    (skc.v_measure, metrics.v_measure_score, {"beta": 0.5}, 1e-9),
    (skc.v_measure, metrics.v_measure_score, {"beta": 3.0}, 1e-9),
    (skc.homogeneity_completeness_v_measure, metrics.homogeneity_completeness_v_measure, {}, 1e-9),
    *(
        (
            skc.normalized_mutual_info,
            metrics.normalized_mutual_info_score,
            {"average_method": m},
            1e-9,
        )
        for m in AVERAGES
    ),
    *(
        (skc.adjusted_mutual_info, metrics.adjusted_mutual_info_score, {"average_method": m}, 1e-7)
        for m in AVERAGES
    ),
]
IDS = [
    f"{ours.__name__}-{'-'.join(map(str, kw.values())) or 'default'}" for ours, _, kw, _ in TABLE
]


def _check(ours, ref, kwargs, rtol, t, p):
    if ours is skc.adjusted_mutual_info and _ill_conditioned(t, p, kwargs["average_method"]):
        # Mean entropy and expected MI agree to rounding (e.g. every point its own cluster:
        # E[MI] = MI = H exactly), so AMI is 0/0: scikit-learn returns rounding noise / eps,
        # scorekit warns and returns nan (documented in adjusted_mutual_info).
        with pytest.warns(UndefinedMetricWarning, match="0/0"):
            assert np.isnan(ours(t, p, **kwargs))
        return
    got = ours(t, p, **kwargs)
    with warnings.catch_warnings():
        # scikit-learn warns about float labels ("continuous"); scorekit takes them as names.
        warnings.filterwarnings("ignore", "Clustering metrics expects discrete", UserWarning)
        want = ref(t, p, **kwargs)
    if isinstance(want, tuple):
        assert isinstance(got, tuple)
        assert all(type(g) is float for g in got)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=_atol(ours))
    else:
        assert type(got) is float
        assert got == pytest.approx(want, rel=rtol, abs=_atol(ours))


def _atol(ours):
    # scikit-learn sums its expected MI term by term over up to ~1e7 terms; against a
    # 40-digit mpmath sum its error reached 1.3e-11 (relative) where ours was 2e-12 (see
    # test_expected_mutual_info_against_mpmath), so near-zero AMI values differ by ~1e-11.
    return 1e-9 if ours is skc.adjusted_mutual_info else 1e-12


def _ill_conditioned(t, p, average_method):
    s = _state_of(t, p)
    a, b = _marginals(s)
    n = int(a.sum())
    mean_h = _generalized_average(_entropy_of_counts(a), _entropy_of_counts(b), average_method)
    emi = _expected_mutual_info(a, b, n)
    same_partition = np.count_nonzero(a) == np.count_nonzero(b) == np.count_nonzero(s.counts)
    return abs(mean_h - emi) <= 1e-10 * max(1.0, mean_h) and not (
        np.count_nonzero(a) == 1 or np.count_nonzero(b) == 1 or same_partition
    )


def _cases():
    rng = np.random.default_rng(20240601)
    letters = np.array(list("abcdefghij"))
    n = 500
    yield "random-ints", rng.integers(0, 5, n), rng.integers(0, 7, n)
    yield (
        "correlated",
        (t := rng.integers(0, 6, n)),
        np.where(rng.random(n) < 0.7, t, rng.integers(0, 6, n)),
    )
    yield "strings", letters[rng.integers(0, 10, n)], letters[rng.integers(0, 4, n)]
    yield "str-vs-int", letters[rng.integers(0, 3, n)], rng.integers(-2, 2, n)
    yield "bools", rng.random(n) < 0.3, rng.random(n) < 0.6
    yield "huge-ids", rng.integers(0, 4, n) * 10**15 - 7, rng.integers(0, 3, n) * 10**12
    yield "floats", rng.integers(0, 4, n) * 0.5, rng.integers(0, 3, n) + 0.25
    yield "both-single", np.zeros(50, int), np.full(50, 3)
    yield "true-single", np.zeros(50, int), rng.integers(0, 4, 50)
    yield "pred-single", rng.integers(0, 4, 50), np.ones(50, int)
    yield "singletons-both", np.arange(60), np.arange(60)[::-1]
    yield "singletons-pred", rng.integers(0, 5, 60), np.arange(60)
    yield "two-labels", np.array([0, 1]), np.array([1, 1])
    yield "two-labels-same", np.array(["u", "v"]), np.array([5, 9])
    yield "one-sample", np.array([4]), np.array(["z"])
    yield "identical", (t := rng.integers(0, 8, 300)), t
    yield "many-clusters", rng.integers(0, 1000, 20_000), rng.integers(0, 1000, 20_000)
    yield "unbalanced", np.r_[np.zeros(5000, int), np.arange(1, 40)], rng.integers(0, 3, 5039)


CASES = list(_cases())


@pytest.mark.parametrize(("ours", "ref", "kwargs", "rtol"), TABLE, ids=IDS)
@pytest.mark.parametrize(("name", "t", "p"), CASES, ids=[c[0] for c in CASES])
def test_matches_sklearn(ours, ref, kwargs, rtol, name, t, p):
    _check(ours, ref, kwargs, rtol, t, p)


def test_large_input_matches_sklearn():
    # 200k samples and 60 x 80 clusters of very different sizes; labels are large ids.
    rng = np.random.default_rng(7)
    n = 200_000
    t = (rng.zipf(1.6, n) % 60) * 10**9
    p = np.where(rng.random(n) < 0.5, t // 10**9, rng.integers(0, 80, n))
    for ours, ref, kwargs, rtol in TABLE:
        _check(ours, ref, kwargs, rtol, t, p)


labelings = st.integers(1, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=n, max_size=n),
    )
)


@given(case=labelings)
def test_random_labelings_match_sklearn(case):
    t, p = case
    for ours, ref, kwargs, rtol in TABLE:
        _check(ours, ref, kwargs, rtol, t, p)


SYMMETRIC = [
    skc.rand_index,
    skc.adjusted_rand_index,
    skc.fowlkes_mallows,
    skc.mutual_info,
    skc.normalized_mutual_info,
    skc.adjusted_mutual_info,
    skc.v_measure,
]


@pytest.mark.parametrize("fn", SYMMETRIC, ids=lambda f: f.__name__)
def test_symmetric(fn, rng):
    t, p = rng.integers(0, 6, 400), rng.integers(0, 9, 400)
    assert fn(t, p) == pytest.approx(fn(p, t), rel=1e-12, abs=1e-15)


def test_homogeneity_is_completeness_swapped(rng):
    t, p = rng.integers(0, 6, 400), rng.integers(0, 9, 400)
    assert skc.homogeneity(t, p) == pytest.approx(skc.completeness(p, t), rel=1e-12)


ALL = [
    skc.rand_index,
    skc.adjusted_rand_index,
    skc.fowlkes_mallows,
    skc.mutual_info,
    skc.normalized_mutual_info,
    skc.adjusted_mutual_info,
    skc.homogeneity,
    skc.completeness,
    skc.v_measure,
]


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.__name__)
def test_renaming_labels_changes_nothing(fn, rng):
    t, p = rng.integers(0, 5, 300), rng.integers(0, 7, 300)
    names_t = np.array(["q", "w", "e", "r", "t"])
    names_p = rng.permutation(7) * 11 - 20
    assert fn(names_t[t], names_p[p]) == pytest.approx(fn(t, p), rel=1e-12, abs=1e-15)


def test_perfect_and_permuted_partitions_score_one(rng):
    t = rng.integers(0, 5, 200)
    p = rng.permutation(5)[t]
    for fn in (skc.rand_index, skc.adjusted_rand_index, skc.fowlkes_mallows):
        assert fn(t, p) == 1.0
    for fn in (skc.normalized_mutual_info, skc.adjusted_mutual_info, skc.v_measure):
        assert fn(t, p) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("name", "t", "p"), CASES[:8], ids=[c[0] for c in CASES[:8]])
def test_contingency_matrix_matches_sklearn(name, t, p):
    want = cluster.contingency_matrix(t, p)
    got = skc.contingency_matrix(t, p)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    got_sparse = skc.contingency_matrix(t, p, sparse=True)
    assert sp.isspmatrix_csr(got_sparse)
    np.testing.assert_array_equal(got_sparse.toarray(), want)
    np.testing.assert_array_equal(
        skc.contingency_matrix(t, p, eps=0.25), cluster.contingency_matrix(t, p, eps=0.25)
    )


@pytest.mark.parametrize("kind", ["dense", "csr", "coo", "float"])
def test_mutual_info_from_contingency(kind, rng):
    t, p = rng.integers(0, 4, 300), rng.integers(0, 6, 300)
    table = cluster.contingency_matrix(t, p)
    table = {
        "dense": table,
        "csr": sp.csr_matrix(table),
        "coo": sp.coo_matrix(table),
        "float": table.astype(float),
    }[kind]
    want = metrics.mutual_info_score(None, None, contingency=table)
    assert skc.mutual_info(contingency=table) == pytest.approx(want, rel=1e-12)
    assert skc.mutual_info(contingency=table) == pytest.approx(skc.mutual_info(t, p), rel=1e-12)


def test_accepts_array_likes():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    t, p = ["a", "b", "b", "c", "a"], [1, 1, 2, 2, 2]
    want = metrics.adjusted_rand_score(t, p)
    for tt, pp in [
        (tuple(t), tuple(p)),
        (pd.Series(t), pd.Series(p)),
        (pl.Series(t), pl.Series(p)),
        (pd.Series(t, dtype="category"), pd.Series(p, dtype="Int64")),
    ]:
        assert skc.adjusted_rand_index(tt, pp) == pytest.approx(want, rel=1e-12)
