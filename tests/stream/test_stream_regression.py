"""RegressionMoments: chunked and merged in any order equals the one-shot functions exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import feed, json_roundtrip, outcome, pickle_roundtrip, same

import scorekit as sk
from scorekit._errors import (
    EmptyInputError,
    LengthMismatchError,
    NonFiniteError,
    ParameterError,
    ShapeError,
)
from scorekit.stream import RegressionMoments

SEEDS = st.integers(0, 2**32 - 1)
NAMES = ("mae", "mse", "rmse", "mape", "r2", "explained_variance")


def _data(rng, n, k, kind):
    scale, offset = {"plain": (1.0, 0.0), "huge": (1e3, 1e9), "small": (1e-9, 0.0)}[kind]
    shape = (n,) if k == 1 else (n, k)
    y = offset + scale * rng.normal(size=shape)
    p = y + scale * rng.normal(size=shape) * 0.3
    if kind == "plain" and n > 3:
        y[: n // 3] = np.round(y[: n // 3])  # some ties / integers
    return y, p


def _cases(y, p, w):
    multi = y.ndim == 2
    out = []
    for name in NAMES:
        fn = getattr(sk, name)
        options = ["uniform_average", "raw_values"] if multi else ["uniform_average"]
        if multi and name in ("r2", "explained_variance"):
            options.append("variance_weighted")
        if multi:
            options.append(np.arange(1, y.shape[1] + 1))
        out += [
            (
                f"{name}-{mo}",
                lambda fn=fn, mo=mo: fn(y, p, sample_weight=w, multioutput=mo),
                lambda a, n=name, mo=mo: getattr(a, n)(multioutput=mo),
            )
            for mo in options
        ]
    out.append(
        (
            "r2-nonfinite",
            lambda: sk.r2(y, p, sample_weight=w, force_finite=False),
            lambda a: a.r2(force_finite=False),
        )
    )
    if not multi:
        out.append(("max_error", lambda: sk.max_error(y, p), lambda a: a.max_error()))
    return out


@given(
    seed=SEEDS,
    k=st.sampled_from([1, 3]),
    kind=st.sampled_from(["plain", "huge", "small"]),
    weights=st.sampled_from(["none", "unit", "int", "float"]),
)
def test_chunked_equals_one_shot(seed, k, kind, weights):
    # Every sum is exact, so random chunks merged in a random order give the same bits,
    # whatever the weights.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    y, p = _data(rng, n, k, kind)
    w = {
        "none": None,
        "unit": np.ones(n),
        "int": rng.integers(0, 5, n).astype(float),
        "float": rng.random(n) * 2,
    }[weights]
    if w is not None:
        w[0] = 1.0
    acc = feed(RegressionMoments, (y, p), rng, sample_weight=w)
    for name, one_shot, method in _cases(y, p, w):
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        assert same(got, expected), (name, got, expected)
        assert got_warned == warned, name
    if k == 1:
        assert acc.max_error() == sk.max_error(y, p)  # a max over every row, whatever its weight


def test_issue_example_is_bit_identical():
    # The example of the issue: differed in the last bits with Chan's formulas.
    yt, yp = np.array([1.81, 0.81, -0.2]), np.array([0.23, 1.18, -1.34])
    acc = RegressionMoments().update(yt[:1], yp[:1]).update(yt[1:], yp[1:])
    for name in NAMES:
        assert getattr(acc, name)() == getattr(sk, name)(yt, yp), name
    # Correctly rounded: exact rational arithmetic on y and on the residuals e = fl(y − ŷ)
    # (each residual is one float64 subtraction per row, as in the kernel).
    fy, fe = [Fraction(v) for v in yt], [Fraction(v) for v in yt - yp]
    mean = sum(fy) / 3
    assert acc.r2() == float(1 - sum(e * e for e in fe) / sum((v - mean) ** 2 for v in fy))


def test_merge_order_and_tree_shape_give_the_same_bits():
    rng = np.random.default_rng(7)
    y, p = _data(rng, 200, 2, "huge")
    w = rng.random(200)
    parts = [
        RegressionMoments().update(y[a : a + 40], p[a : a + 40], sample_weight=w[a : a + 40])
        for a in range(0, 200, 40)
    ]
    chain = RegressionMoments()
    for part in reversed(parts):
        chain.merge(pickle_roundtrip(part))
    tree = RegressionMoments().merge(parts[0].merge(parts[1]).merge(parts[2]))
    tree.merge(parts[3].merge(parts[4]))
    for acc in (chain, tree):
        for name in NAMES:
            got = getattr(acc, name)(multioutput="raw_values")
            want = getattr(sk, name)(y, p, sample_weight=w, multioutput="raw_values")
            np.testing.assert_array_equal(got, want)


@given(seed=SEEDS)
def test_round_trips_change_nothing(seed):
    rng = np.random.default_rng(seed)
    y, p = _data(rng, 50, 2, "plain")
    acc = feed(RegressionMoments, (y, p), rng, sample_weight=rng.random(50))
    for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
        for name, _, method in _cases(y, p, None):
            assert same(method(back), method(acc)), name


def test_constant_column_across_chunks_is_exact():
    # y = 7 in every chunk: the centred moment must stay exactly 0 (R² = 1 if predicted, else 0)
    acc = RegressionMoments().update([7.0] * 3, [7.0] * 3).update([7.0] * 5, [7.0] * 5)
    assert acc.r2() == 1.0
    acc.update([7.0], [8.0])
    assert acc.r2() == 0.0


def test_worked_example():
    # y = 1, 2, 3, 4 (mean 2.5, Σ(y − ȳ)² = 5), one error of 1: R² = 1 − 1/5 = 0.8,
    # MAE = 1/4, MSE = 1/4, RMSE = 1/2; residuals 0, 0, 0, −1 have Σ(e − ē)² = 3/4,
    # so explained variance = 1 − 0.75/5 = 0.85.
    acc = (
        RegressionMoments().update([1, 2], [1, 2]).merge(RegressionMoments().update([3, 4], [3, 5]))
    )
    assert (acc.r2(), acc.mae(), acc.mse(), acc.rmse()) == (0.8, 0.25, 0.25, 0.5)
    assert acc.explained_variance() == 0.85
    assert acc.max_error() == 1.0


def test_one_row_r2_warns():
    acc = RegressionMoments().update([1.0], [2.0])
    with pytest.warns(sk.UndefinedMetricWarning):
        assert np.isnan(acc.r2())


def test_n_outputs():
    assert RegressionMoments().update([[1, 2]], [[1, 2]]).n_outputs == 2


def test_empty_raises():
    with pytest.raises(EmptyInputError, match="no rows"):
        RegressionMoments().mae()


def test_length_mismatch_raises():
    with pytest.raises(LengthMismatchError, match="y_pred"):
        RegressionMoments().update([1, 2], [1])


def test_nan_raises():
    with pytest.raises(NonFiniteError, match="y_true"):
        RegressionMoments().update([1, np.nan], [1, 2])


def test_outputs_differ_between_chunks_raises():
    acc = RegressionMoments().update([[1, 2]], [[1, 2]])
    with pytest.raises(ShapeError, match="outputs"):
        acc.update([1], [1])


def test_bad_multioutput_raises():
    with pytest.raises(ParameterError, match="multioutput"):
        RegressionMoments().update([1, 2], [1, 2]).mae(multioutput="variance_weighted")


def test_bad_nan_policy_raises():
    with pytest.raises(ParameterError, match="nan_policy"):
        RegressionMoments(nan_policy="skip")


def test_chunk_whose_weights_sum_to_zero_is_taken():
    # The one-shot functions on all rows have weight 3: a chunk of weight 0 must not raise.
    y, p = np.array([1.0, 2.0, 4.0, 3.0, 8.0]), np.array([1.5, 2.0, 3.0, 3.5, 7.0])
    w = np.array([0.0, 0.0, 1.0, 2.0, 0.0])
    acc = RegressionMoments()
    for a, b in ((0, 2), (2, 4), (4, 5)):
        acc.update(y[a:b], p[a:b], sample_weight=w[a:b])
    for name in ("mae", "mse", "rmse", "r2", "explained_variance", "mape"):
        assert getattr(acc, name)() == getattr(sk, name)(y, p, sample_weight=w), name
    assert acc.max_error() == sk.max_error(y, p)


def test_all_weight_zero_raises_at_the_metric():
    acc = RegressionMoments().update([1, 2], [1, 3], sample_weight=[0, 0])
    acc.update([5], [4], sample_weight=[0])
    with pytest.raises(EmptyInputError, match="sums to zero"):
        acc.mae()
    with pytest.raises(EmptyInputError, match="sums to zero"):
        sk.mae([1, 2, 5], [1, 3, 4], sample_weight=[0, 0, 0])
