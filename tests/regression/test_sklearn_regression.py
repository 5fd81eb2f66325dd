"""Regression metrics against scikit-learn on seeded random inputs (to 1e-9 relative)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scorekit
import scorekit.regression as skr

metrics = pytest.importorskip("sklearn.metrics")

pytestmark = pytest.mark.reference

# (ours, scikit-learn's, takes sample_weight, allowed multioutput strings)
ERRORS = ("raw_values", "uniform_average")
FRACTIONS = ("raw_values", "uniform_average", "variance_weighted")
TABLE = [
    (skr.mae, metrics.mean_absolute_error, ERRORS),
    (skr.mse, metrics.mean_squared_error, ERRORS),
    (skr.rmse, metrics.root_mean_squared_error, ERRORS),
    (skr.r2, metrics.r2_score, FRACTIONS),
    (skr.explained_variance, metrics.explained_variance_score, FRACTIONS),
    (skr.mape, metrics.mean_absolute_percentage_error, ERRORS),
    (skr.median_absolute_error, metrics.median_absolute_error, ERRORS),
]
IDS = [ours.__name__ for ours, _, _ in TABLE]


def _close(got, want, rtol=1e-9, atol=1e-12):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol)
    assert isinstance(got, float) == isinstance(want, float)


def _data(rng, n, k, *, offset=0.0, scale=1.0):
    shape = (n,) if k is None else (n, k)
    y = offset + scale * rng.normal(size=shape)
    p = y + scale * rng.normal(scale=0.5, size=shape)
    return y, p


@pytest.mark.parametrize(("ours", "ref", "options"), TABLE, ids=IDS)
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [None, 1, 3])
def test_random_unweighted(ours, ref, options, seed, k):
    rng = np.random.default_rng(seed)
    y, p = _data(rng, int(rng.integers(2, 400)), k)
    for option in options:
        _close(ours(y, p, multioutput=option), ref(y, p, multioutput=option))


@pytest.mark.parametrize(("ours", "ref", "options"), TABLE, ids=IDS)
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["float", "int", "with_zeros"])
def test_random_weighted(ours, ref, options, seed, kind):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 300))
    y, p = _data(rng, n, 2)
    if kind == "float":
        w = rng.random(n) * 3
    elif kind == "int":
        w = rng.integers(1, 5, n)
    else:
        w = rng.integers(0, 3, n)
        w[0] = 1
    for option in options:
        _close(
            ours(y, p, sample_weight=w, multioutput=option),
            ref(y, p, sample_weight=w, multioutput=option),
        )


@pytest.mark.parametrize(("ours", "ref", "options"), TABLE, ids=IDS)
def test_array_multioutput(ours, ref, options):
    rng = np.random.default_rng(7)
    y, p = _data(rng, 50, 3)
    w = rng.random(50)
    for weights in ([0.2, 0.5, 0.3], [1, 0, 2], np.array([3.0, 3.0, 3.0])):
        _close(ours(y, p, multioutput=weights), ref(y, p, multioutput=weights))
        _close(
            ours(y, p, sample_weight=w, multioutput=weights),
            ref(y, p, sample_weight=w, multioutput=weights),
        )


@pytest.mark.parametrize(("ours", "ref", "options"), TABLE, ids=IDS)
def test_ties_and_integers(ours, ref, options):
    # Integer targets with many equal errors: the median's tie rule and exact sums matter.
    rng = np.random.default_rng(11)
    y = rng.integers(-3, 4, size=(101, 2))
    p = rng.integers(-3, 4, size=(101, 2))
    w = rng.integers(1, 4, 101)
    for option in options:
        _close(ours(y, p, multioutput=option), ref(y, p, multioutput=option))
        _close(
            ours(y, p, sample_weight=w, multioutput=option),
            ref(y, p, sample_weight=w, multioutput=option),
        )


@pytest.mark.parametrize(("ours", "ref", "options"), TABLE, ids=IDS)
@pytest.mark.parametrize("scale", [1e-9, 1e6])
def test_small_and_large_magnitudes(ours, ref, options, scale):
    rng = np.random.default_rng(3)
    y, p = _data(rng, 120, 2, scale=scale)
    _close(ours(y, p), ref(y, p), atol=0)


@pytest.mark.parametrize(("ours", "ref", "options"), TABLE, ids=IDS)
def test_offset_against_sklearn_on_centred_data(ours, ref, options):
    # y ~ 1e6 + N(0, 1): scale-free metrics must equal scikit-learn on the centred data.
    rng = np.random.default_rng(5)
    y, p = _data(rng, 200, 2, offset=1e6)
    if ours in (skr.r2, skr.explained_variance):
        shift = y.mean(axis=0)
        _close(ours(y, p), ref(y - shift, p - shift))
    else:
        _close(ours(y, p), ref(y, p))


def test_constant_y_true_integers():
    y = [3, 3, 3, 3]
    for ours, ref in [
        (skr.r2, metrics.r2_score),
        (skr.explained_variance, metrics.explained_variance_score),
    ]:
        assert ours(y, y) == ref(y, y) == 1.0
        assert ours(y, [3, 3, 3, 4]) == ref(y, [3, 3, 3, 4]) == 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            want = ref(y, [3, 3, 3, 4], force_finite=False)
        assert ours(y, [3, 3, 3, 4], force_finite=False) == want == -np.inf
        with np.errstate(divide="ignore", invalid="ignore"):
            assert np.isnan(ref(y, y, force_finite=False))
        assert np.isnan(ours(y, y, force_finite=False))


def test_constant_columns_multioutput():
    y = np.array([[1.0, 1], [1, 2], [1, 3]])
    p = np.array([[1.0, 1], [1, 2], [2, 4]])
    for ours, ref in [
        (skr.r2, metrics.r2_score),
        (skr.explained_variance, metrics.explained_variance_score),
    ]:
        for option in FRACTIONS:
            _close(ours(y, p, multioutput=option), ref(y, p, multioutput=option))
        # every column constant: variance_weighted falls back to uniform weights
        _close(
            ours(y[:, :1], p[:, :1], multioutput="variance_weighted"),
            ref(y[:, :1], p[:, :1], multioutput="variance_weighted"),
        )


def test_single_sample():
    for ours, ref, _ in TABLE:
        if ours is skr.r2:
            with pytest.warns(scorekit.UndefinedMetricWarning):
                got = ours([2.0], [3.5])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = ref([2.0], [3.5])
            assert np.isnan(got)
            assert np.isnan(want)
        else:
            _close(ours([2.0], [3.5]), ref([2.0], [3.5]))
    assert skr.max_error([2.0], [3.5]) == metrics.max_error([2.0], [3.5]) == 1.5


@pytest.mark.parametrize("seed", range(3))
def test_max_error(seed):
    rng = np.random.default_rng(seed)
    y, p = _data(rng, 500, None, offset=1e9)
    assert skr.max_error(y, p) == metrics.max_error(y, p)
    assert skr.max_error(y[:, None], p) == metrics.max_error(y[:, None], p)


def test_mape_zero_targets():
    y = [0.0, 1.0, -2.0, 0.0]
    p = [0.5, 1.0, -1.0, 0.0]
    _close(skr.mape(y, p), metrics.mean_absolute_percentage_error(y, p))


def test_weighted_median_edge_cases():
    # Cumulative weight hitting exactly one half, zero weights next to the middle, one heavy point.
    cases = [
        ([1, 2, 3, 4], [1, 1, 1, 1]),
        ([1, 2, 3, 4], [1, 1, 0, 2]),
        ([1, 2, 3, 4], [2, 0, 0, 2]),
        ([5, 1, 3], [1, 10, 1]),
        ([1, 2], [0, 1]),
        ([4, 4, 1, 9, 9], [0.5, 0.5, 1, 0, 1]),
    ]
    for err, w in cases:
        err = np.asarray(err, dtype=float)
        zeros = np.zeros_like(err)
        assert skr.median_absolute_error(zeros, err, sample_weight=w) == (
            metrics.median_absolute_error(zeros, err, sample_weight=w)
        )
