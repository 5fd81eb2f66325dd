"""Regression metrics: worked examples, exact references at large offsets, kernels, errors."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit
import scorekit.regression as skr
from scorekit._exactsum import UNIT_EXP
from scorekit.regression._moments import (
    FIELDS,
    SUMS,
    MomentsState,
    _explained_variance_from_moments,
    _mae_from_moments,
    _mape_from_moments,
    _max_error_from_moments,
    _merge_moments,
    _moments,
    _moments_from_chunk,
    _mse_from_moments,
    _r2_from_moments,
    _rmse_from_moments,
)

ALL = [
    skr.mae,
    skr.mse,
    skr.rmse,
    skr.r2,
    skr.explained_variance,
    skr.mape,
    skr.median_absolute_error,
]


# ----------------------------------------------------------------------------- worked examples
def test_textbook_four_points():
    # The four-point example of scikit-learn's user guide: y = 3, -0.5, 2, 7; ŷ = 2.5, 0, 2, 8.
    # Errors e = 0.5, -0.5, 0, -1:  MAE = 2/4 = 0.5, MSE = (0.25 + 0.25 + 0 + 1)/4 = 0.375.
    # ȳ = 11.5/4 = 2.875; deviations 0.125, -3.375, -0.875, 4.125 square to
    # 0.015625 + 11.390625 + 0.765625 + 17.015625 = 29.1875, so R² = 1 - 1.5/29.1875 ≈ 0.9486.
    # ē = -1/4; Σ(e - ē)² = 0.5625 + 0.0625 + 0.0625 + 0.5625 = 1.25, EV = 1 - 1.25/29.1875.
    y, p = [3, -0.5, 2, 7], [2.5, 0.0, 2, 8]
    assert skr.mae(y, p) == 0.5
    assert skr.mse(y, p) == 0.375
    assert skr.rmse(y, p) == pytest.approx(0.375**0.5, rel=1e-15)
    assert skr.r2(y, p) == pytest.approx(1 - 1.5 / 29.1875, rel=1e-15)
    assert skr.r2(y, p) == pytest.approx(0.948608137, abs=1e-9)
    assert skr.explained_variance(y, p) == pytest.approx(1 - 1.25 / 29.1875, rel=1e-15)
    assert skr.median_absolute_error(y, p) == 0.5  # sorted 0, 0.5, 0.5, 1
    assert skr.max_error(y, p) == 1.0


def test_weighted_worked_examples():
    # Errors 1 and 2 with weights 1 and 3: MAE = (1 + 6)/4, MSE = (1 + 12)/4.
    assert skr.mae([0, 0], [1, -2], sample_weight=[1, 3]) == 1.75
    assert skr.mse([0, 0], [1, -2], sample_weight=[1, 3]) == 3.25
    # Relative errors 0.5, 0, 0.25 with weights 1, 1, 2: (0.5 + 0 + 0.5)/4.
    assert skr.mape([1, 2, 4], [1.5, 2, 3], sample_weight=[1, 1, 2]) == 0.25
    # y = 0, 0, 3 with weights 2, 1, 3: ȳ = 9/6 = 1.5, Σw(y-ȳ)² = 2·2.25 + 2.25 + 3·2.25 = 13.5;
    # ŷ = 1, 0, 3 gives Σw e² = 2, so R² = 1 - 2/13.5.
    assert skr.r2([0, 0, 3], [1, 0, 3], sample_weight=[2, 1, 3]) == pytest.approx(
        1 - 2 / 13.5, rel=1e-15
    )
    # Weighted median of |e| = 1, 2, 3 with weights 1, 1, 5: half the weight (3.5) lies in 3.
    assert skr.median_absolute_error([0, 0, 0], [1, 2, 3], sample_weight=[1, 1, 5]) == 3.0
    # Weights 1, 1, 1, 1 on 1, 2, 3, 4: the cumulative weight reaches half exactly at 2 -> (2+3)/2.
    assert skr.median_absolute_error([0] * 4, [1, 2, 3, 4], sample_weight=[1] * 4) == 2.5


def test_multioutput_worked_examples():
    # Column errors: (3, -3) and (1, 1). RMSE per column 3 and 1; averaged roots = 2, not √5.
    y, p = [[0, 0], [0, 0]], [[3, 1], [-3, 1]]
    assert skr.rmse(y, p) == 2.0
    np.testing.assert_array_equal(skr.rmse(y, p, multioutput="raw_values"), [3.0, 1.0])
    assert skr.mse(y, p, multioutput=[1, 3]) == (9 * 1 + 1 * 3) / 4
    # R² per column: col 0 y = 1, 2, 3 (SST 2), ŷ = 1, 2, 4 -> 1 - 1/2; col 1 y = 0, 0, 6
    # (ȳ 2, SST 4 + 4 + 16 = 24), ŷ = 0, 0, 0 -> 1 - 36/24 = -0.5.
    # variance_weighted: (0.5·2 + (-0.5)·24) / 26 = -11/26.
    y, p = [[1, 0], [2, 0], [3, 6]], [[1, 0], [2, 0], [4, 0]]
    np.testing.assert_allclose(skr.r2(y, p, multioutput="raw_values"), [0.5, -0.5], rtol=1e-15)
    assert skr.r2(y, p) == pytest.approx(0.0, abs=1e-15)
    assert skr.r2(y, p, multioutput="variance_weighted") == pytest.approx(-11 / 26, rel=1e-15)


def test_constant_y_true_not_exactly_representable():
    # ȳ of three 0.1s is not exactly 0.1 in floating point (scikit-learn then divides by ~1e-33
    # and returns about -1.7e31); the shifted two-pass mean makes the variance exactly 0 here.
    y = [0.1, 0.1, 0.1]
    assert skr.r2(y, [0.1, 0.2, 0.1]) == 0.0
    assert skr.explained_variance(y, [0.1, 0.2, 0.1]) == 0.0
    assert skr.r2(y, y) == 1.0
    assert np.isnan(skr.r2(y, y, force_finite=False))


# ----------------------------------------------------------------------------- large offsets
def _exact(y, p, w, *, float_residuals=False):
    """R², explained variance, MSE and MAE in exact rational arithmetic on the given doubles.

    ``float_residuals``: the residuals are the float64 differences fl(y − ŷ), as in the kernel.
    """
    ys, ps = [Fraction(v) for v in y], [Fraction(v) for v in p]
    ws = [Fraction(1)] * len(ys) if w is None else [Fraction(v) for v in w]
    total = sum(ws)
    es = [a - b for a, b in zip(ys, ps, strict=True)]
    if float_residuals:
        es = [Fraction(v) for v in np.asarray(y, dtype=float) - np.asarray(p, dtype=float)]
    y_bar = sum(wi * yi for wi, yi in zip(ws, ys, strict=True)) / total
    e_bar = sum(wi * ei for wi, ei in zip(ws, es, strict=True)) / total
    sst = sum(wi * (yi - y_bar) ** 2 for wi, yi in zip(ws, ys, strict=True))
    sse = sum(wi * ei**2 for wi, ei in zip(ws, es, strict=True))
    sse_c = sum(wi * (ei - e_bar) ** 2 for wi, ei in zip(ws, es, strict=True))
    sae = sum(wi * abs(ei) for wi, ei in zip(ws, es, strict=True))
    return {
        "r2": float(1 - sse / sst),
        "ev": float(1 - sse_c / sst),
        "mse": float(sse / total),
        "mae": float(sae / total),
    }


@pytest.mark.parametrize("offset", [1e6, 1e9])
@pytest.mark.parametrize("weighted", [False, True])
def test_huge_offset_against_exact_arithmetic(offset, weighted):
    rng = np.random.default_rng(42)
    n = 300
    y = offset + rng.normal(size=n)
    p = y + rng.normal(scale=0.3, size=n) + 0.1
    w = rng.random(n) * 4 if weighted else None
    exact = _exact(y, p, w)
    # The data is hard: the one-pass formula Σy² − (Σy)²/n loses most digits here.
    naive_sst = (y**2).sum() - y.sum() ** 2 / n
    true_sst = float(sum((Fraction(v) - sum(map(Fraction, y)) / n) ** 2 for v in y))
    assert abs(naive_sst - true_sst) > 1e-6 * true_sst
    assert skr.r2(y, p, sample_weight=w) == pytest.approx(exact["r2"], rel=1e-12)
    assert skr.explained_variance(y, p, sample_weight=w) == pytest.approx(exact["ev"], rel=1e-12)
    assert skr.mse(y, p, sample_weight=w) == pytest.approx(exact["mse"], rel=1e-12)
    assert skr.mae(y, p, sample_weight=w) == pytest.approx(exact["mae"], rel=1e-12)
    # Streaming: many uneven chunks merged give the same digits.
    cuts = [0, 1, 2, 50, 51, 170, n]
    state = _moments_from_chunk(y[:0, None], p[:0, None])
    for a, b in pairwise(cuts):
        chunk_w = None if w is None else w[a:b]
        state = _merge_moments(state, _moments_from_chunk(y[a:b, None], p[a:b, None], chunk_w))
    assert _r2_from_moments(state) == pytest.approx(exact["r2"], rel=1e-12)
    assert _explained_variance_from_moments(state) == pytest.approx(exact["ev"], rel=1e-12)


@pytest.mark.parametrize("offset", [0.0, 1e6, 1e9])
@pytest.mark.parametrize("weighted", [False, True])
def test_correctly_rounded(offset, weighted):
    # Exact sums, one rounding: the values equal exact rational arithmetic on y and on
    # the float residuals fl(y − ŷ), bit for bit, even at 1e9 where Σy² − (Σy)²/n cancels.
    rng = np.random.default_rng(7)
    n = 200
    y = offset + rng.normal(size=n)
    p = y + rng.normal(scale=0.3, size=n)
    w = rng.random(n) * 4 if weighted else None
    exact = _exact(y, p, w, float_residuals=True)
    assert skr.r2(y, p, sample_weight=w) == exact["r2"]
    assert skr.explained_variance(y, p, sample_weight=w) == exact["ev"]
    assert skr.mse(y, p, sample_weight=w) == exact["mse"]
    assert skr.mae(y, p, sample_weight=w) == exact["mae"]


# ----------------------------------------------------------------------------- kernels
def _state_equal(a: MomentsState, b: MomentsState, *, same_n=True, same_max=True):
    """Bit-identical states: the exact sums are Python integers, compared with ==."""
    if same_n:
        assert a.n == b.n
    assert a.weight == b.weight
    for name in SUMS:
        assert getattr(a, name) == getattr(b, name), name
    if same_max:
        np.testing.assert_array_equal(a.max_abs_err, b.max_abs_err)


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 80),
    k=st.integers(1, 3),
    cuts=st.lists(st.integers(0, 80), max_size=5),
    weights=st.sampled_from(["none", "int", "float"]),
    offset=st.sampled_from([0.0, 1e9]),
)
def test_chunked_merge_equals_one_shot(seed, n, k, cuts, weights, offset):
    rng = np.random.default_rng(seed)
    y = offset + rng.normal(size=(n, k))
    p = y + rng.normal(size=(n, k))
    w = {"none": None, "int": rng.integers(0, 4, n).astype(float), "float": rng.random(n) * 3}[
        weights
    ]
    if w is not None:
        w[0] = 1.0
    whole = _moments_from_chunk(y, p, w)
    edges = sorted({0, n, *(c % (n + 1) for c in cuts)})
    state = _moments_from_chunk(y[:0], p[:0], None if w is None else w[:0])
    for a, b in pairwise(edges):
        state = _merge_moments(
            state, _moments_from_chunk(y[a:b], p[a:b], None if w is None else w[a:b])
        )
    _state_equal(state, whole)
    fns = [_mae_from_moments, _mse_from_moments, _rmse_from_moments, _mape_from_moments]
    if n >= 2:
        fns += [_r2_from_moments, _explained_variance_from_moments]
    for fn in fns:
        np.testing.assert_array_equal(fn(state, "raw_values"), fn(whole, "raw_values"))


def test_merge_is_order_free():
    rng = np.random.default_rng(0)
    y, p, w = rng.normal(size=(40, 2)), rng.normal(size=(40, 2)), rng.random(40)
    parts = [
        _moments_from_chunk(y[a : a + 10], p[a : a + 10], w[a : a + 10]) for a in range(0, 40, 10)
    ]
    forward, backward = parts[0], parts[-1]
    for s in parts[1:]:
        forward = _merge_moments(forward, s)
    for s in parts[-2::-1]:
        backward = _merge_moments(backward, s)
    tree = _merge_moments(_merge_moments(parts[0], parts[1]), _merge_moments(parts[2], parts[3]))
    whole = _moments_from_chunk(y, p, w)
    _state_equal(forward, backward)
    _state_equal(forward, tree)
    _state_equal(forward, whole)


def test_sums_are_exact():
    # Σy over [1e16, 1, -1e16, 1] is 2 exactly (float64 left to right gives 0.0).
    y = np.array([[1e16], [1.0], [-1e16], [1.0]])
    s = _moments_from_chunk(y, np.zeros_like(y))
    assert s.sum_true[0] == 2 << UNIT_EXP
    assert s.weight == 4 << UNIT_EXP
    # Σy² = 2e32 + 2 exactly: 1e16² is exact in binary (2^32·5^32 needs 75 bits: split by Dekker)
    assert s.sumsq_true[0] == (2 * 10**32 + 2) << UNIT_EXP


def test_integer_weight_equals_repeated_rows():
    rng = np.random.default_rng(1)
    y, p = rng.normal(size=(30, 1)), rng.normal(size=(30, 1))
    w = rng.integers(1, 4, 30)
    weighted = _moments_from_chunk(y, p, w.astype(float))
    repeated = _moments_from_chunk(np.repeat(y, w, axis=0), np.repeat(p, w, axis=0))
    _state_equal(weighted, repeated, same_n=False)


def test_zero_weight_chunk_is_an_identity():
    rng = np.random.default_rng(2)
    y, p = rng.normal(size=(10, 2)), rng.normal(size=(10, 2))
    base = _moments_from_chunk(y, p, np.ones(10))
    zero = _moments_from_chunk(y[:3] + 5, p[:3], np.zeros(3))
    merged = _merge_moments(_merge_moments(zero, base), zero)
    _state_equal(merged, base, same_n=False, same_max=False)
    assert merged.n == 16


def test_need_computes_only_what_is_asked_and_agrees():
    rng = np.random.default_rng(3)
    y, p = rng.normal(size=(50, 2)), rng.normal(size=(50, 2))
    full = _moments_from_chunk(y, p)
    part = _moments_from_chunk(y, p, need=("sae", "m2_true"))
    assert part.sae == full.sae
    assert (part.sum_true, part.sumsq_true) == (full.sum_true, full.sumsq_true)
    assert part.sse is None
    assert part.sum_err is None
    assert set(FIELDS) == {"m2_true", "m2_err", "sse", "sae", "sape", "max_abs_err"}


def test_blocked_one_shot_equals_chunks_cut_off_the_block_grid():
    # The kernel works in blocks of rows; chunks cut elsewhere must give the same state.
    rng = np.random.default_rng(4)
    y, p = rng.normal(size=(100_000, 2)), rng.normal(size=(100_000, 2))
    w = rng.random(100_000)
    parts = _merge_moments(
        _moments_from_chunk(y[:12_345], p[:12_345], w[:12_345]),
        _moments_from_chunk(y[12_345:], p[12_345:], w[12_345:]),
    )
    _state_equal(_moments(y, p, w), parts)


def test_value_functions_reject_empty_and_zero_weight_states():
    empty = _moments_from_chunk(np.zeros((0, 1)), np.zeros((0, 1)))
    with pytest.raises(scorekit.EmptyInputError):
        _mae_from_moments(empty)
    with pytest.raises(scorekit.EmptyInputError):
        _max_error_from_moments(empty)
    zero = _moments_from_chunk(np.ones((2, 1)), np.zeros((2, 1)), np.zeros(2))
    with pytest.raises(scorekit.EmptyInputError, match="sums to zero"):
        _r2_from_moments(zero)


def test_merge_rejects_different_outputs():
    a = _moments_from_chunk(np.ones((2, 1)), np.zeros((2, 1)))
    b = _moments_from_chunk(np.ones((2, 2)), np.zeros((2, 2)))
    with pytest.raises(scorekit.ShapeError):
        _merge_moments(a, b)


# ----------------------------------------------------------------------------- inputs
def test_inputs_are_not_modified_and_many_types_work():
    pd = pytest.importorskip("pandas")
    y = np.array([1.0, 2.0, 4.0, 8.0])
    p = np.array([1.5, 2.0, 3.0, 9.0])
    y0, p0 = y.copy(), p.copy()
    for fn in ALL:
        fn(y, p, sample_weight=[1, 2, 1, 1])
    skr.max_error(y, p)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(p, p0)
    assert skr.mae(pd.Series(y), list(p)) == skr.mae(y, p)
    assert skr.mae(y.astype(np.float32), p.astype(np.float32)) == skr.mae(y, p)
    assert skr.mae([True, False], [1, 1]) == 0.5


def test_nan_policy_omit_drops_rows():
    y = [1.0, np.nan, 3.0, 4.0]
    p = [1.0, 2.0, np.inf, 5.0]
    with pytest.warns(scorekit.OmittedRowsWarning, match="2 of 4"):
        got = skr.mse(y, p, nan_policy="omit")
    assert got == skr.mse([1.0, 4.0], [1.0, 5.0])
    with pytest.warns(scorekit.OmittedRowsWarning):
        assert skr.median_absolute_error(y, p, nan_policy="omit") == 0.5


# ----------------------------------------------------------------------------- errors (one per case)
@pytest.mark.parametrize("fn", ALL)
def test_lengths_differ(fn):
    with pytest.raises(scorekit.LengthMismatchError, match="y_true has 3 entries but y_pred has 2"):
        fn([1, 2, 3], [1, 2])


@pytest.mark.parametrize("fn", ALL)
def test_nan_raises(fn):
    with pytest.raises(scorekit.NonFiniteError, match="y_pred contains 1 NaN"):
        fn([1, 2, 3], [1, np.nan, 3])


def test_infinite_y_true_raises():
    with pytest.raises(scorekit.NonFiniteError, match="y_true"):
        skr.r2([1, np.inf, 3], [1, 2, 3])


@pytest.mark.parametrize("fn", ALL)
def test_negative_weights(fn):
    with pytest.raises(scorekit.NegativeWeightError, match="sample_weight"):
        fn([1, 2, 3], [1, 2, 4], sample_weight=[1, -1, 1])


# The moment metrics leave the weights' values to their first compiled pass (it
# sums every weight's exact slices and the negative weights): a bad weight
# anywhere (first or last block, either thread's half, in a block whose
# residuals are all 0) must still raise, naming sample_weight with the count.
_MOMENT_FNS = [skr.mae, skr.mse, skr.rmse, skr.r2, skr.explained_variance]


@pytest.mark.parametrize("fn", _MOMENT_FNS)
@pytest.mark.parametrize("where", [0, 8191, 8192, 600_000, 699_999])
@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (np.nan, scorekit.NonFiniteError, "sample_weight contains 2 NaN or infinite values"),
        (np.inf, scorekit.NonFiniteError, "sample_weight contains 2 NaN or infinite values"),
        (-np.inf, scorekit.NonFiniteError, "sample_weight contains 2 NaN or infinite values"),
        (-1e-300, scorekit.NegativeWeightError, "sample_weight contains 2 negative values"),
        (-5e-324, scorekit.NegativeWeightError, "sample_weight contains 2 negative values"),
        (-3.0, scorekit.NegativeWeightError, "sample_weight contains 2 negative values"),
    ],
)
def test_bad_weight_anywhere_raises(fn, where, bad, error, message):
    rng = np.random.default_rng(where)
    n = 700_000  # two threads' halves (2**18 rows each at least)
    y = rng.normal(size=n)
    p = y + rng.normal(size=n)
    p[8192:16384] = y[8192:16384]  # a block whose residuals are all 0
    w = rng.random(n)
    w[where] = bad
    w[(where + 350_000) % n] = bad
    before = w.copy()
    with pytest.raises(error, match=message):
        fn(y, p, sample_weight=w)
    np.testing.assert_array_equal(w, before)  # nothing the user passed in is modified


@pytest.mark.parametrize("fn", _MOMENT_FNS)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("column", ["y_true", "y_pred"])
def test_nan_under_zero_weights_still_raises(fn, bad, column):
    # a NaN in a block (8,192 rows) whose weights are all 0 adds nothing to any
    # weighted sum, yet it is bad input: it raises, or "omit" drops its row
    rng = np.random.default_rng(3)
    n = 300_000
    y = rng.normal(size=n)
    p = y + rng.normal(size=n)
    w = rng.random(n)
    w[8192:16384] = 0.0
    (y if column == "y_true" else p)[9000] = bad
    with pytest.raises(scorekit.NonFiniteError, match=f"{column} contains 1 NaN"):
        fn(y, p, sample_weight=w)
    keep = np.arange(n) != 9000
    with pytest.warns(scorekit.OmittedRowsWarning, match="dropped 1 of"):
        got = fn(y, p, sample_weight=w, nan_policy="omit")
    assert got == fn(y[keep], p[keep], sample_weight=w[keep])


@pytest.mark.parametrize("fn", _MOMENT_FNS)
def test_negative_zero_and_extreme_weights_are_weights(fn):
    # -0.0 is a zero weight (as scikit-learn's); weights of 1e300 and 1e-300 are
    # flagged by the compiled pass (out of its grids) and summed another way
    rng = np.random.default_rng(7)
    n = 600_000
    y = rng.normal(size=n)
    p = y + rng.normal(size=n)
    w = rng.random(n)
    w[::7] = -0.0
    w[100] = 1e300
    w[300_000:300_010] = 1e-300
    want = fn(y, p, sample_weight=np.abs(w))
    assert fn(y, p, sample_weight=w) == want
    acc = scorekit.stream.RegressionMoments()
    for lo in range(0, n, 100_000):
        acc.update(y[lo : lo + 100_000], p[lo : lo + 100_000], sample_weight=w[lo : lo + 100_000])
    assert getattr(acc, fn.__name__)() == want


def test_nan_weights():
    with pytest.raises(scorekit.NonFiniteError, match="sample_weight"):
        skr.mae([1, 2], [1, 3], sample_weight=[1, np.nan])


def test_weights_of_wrong_length():
    with pytest.raises(scorekit.LengthMismatchError, match="sample_weight"):
        skr.mae([1, 2], [1, 3], sample_weight=[1, 2, 3])


@pytest.mark.parametrize("fn", ALL)
def test_weights_summing_to_zero(fn):
    with pytest.raises(scorekit.EmptyInputError, match="sums to zero"):
        fn([1, 2], [1, 3], sample_weight=[0, 0])


@pytest.mark.parametrize("fn", [*ALL, skr.max_error])
def test_empty_input(fn):
    with pytest.raises(scorekit.EmptyInputError, match="empty"):
        fn([], [])


@pytest.mark.parametrize("fn", ALL)
def test_outputs_differ(fn):
    with pytest.raises(scorekit.ShapeError, match=r"y_true has 1 outputs .* y_pred has 2"):
        fn([1, 2, 3], [[1, 1], [2, 2], [3, 3]])


@pytest.mark.parametrize("fn", ALL)
def test_unknown_multioutput(fn):
    with pytest.raises(scorekit.ParameterError, match="multioutput='mean'"):
        fn([1, 2, 3], [1, 2, 4], multioutput="mean")


@pytest.mark.parametrize("fn", [skr.mae, skr.mse, skr.rmse, skr.mape, skr.median_absolute_error])
def test_variance_weighted_only_for_fractions(fn):
    # scikit-learn accepts "variance_weighted" only in r2_score and explained_variance_score.
    with pytest.raises(scorekit.ParameterError, match="variance_weighted"):
        fn([[1, 2], [3, 4]], [[1, 2], [3, 5]], multioutput="variance_weighted")


def test_multioutput_weights_of_wrong_length():
    with pytest.raises(scorekit.ShapeError, match="one weight per output"):
        skr.r2([[1, 2], [3, 4]], [[1, 2], [3, 5]], multioutput=[1, 2, 3])


def test_multioutput_weights_with_one_output():
    with pytest.raises(scorekit.ParameterError, match="several outputs"):
        skr.mae([1, 2], [1, 3], multioutput=[1.0])


def test_multioutput_negative_weights():
    with pytest.raises(scorekit.NegativeWeightError, match="multioutput"):
        skr.mae([[1, 2], [3, 4]], [[1, 2], [3, 5]], multioutput=[1, -1])


def test_multioutput_none():
    with pytest.raises(scorekit.ParameterError, match="multioutput=None"):
        skr.r2([1, 2], [1, 3], multioutput=None)


def test_max_error_multioutput():
    with pytest.raises(scorekit.ShapeError, match="single output"):
        skr.max_error([[1, 2], [3, 4]], [[1, 2], [3, 5]])


def test_three_dimensional_input():
    with pytest.raises(scorekit.ShapeError, match="1-D or 2-D"):
        skr.mse(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)))


def test_non_numeric_input():
    with pytest.raises(scorekit.ShapeError, match="numeric"):
        skr.mae(["a", "b"], [1, 2])


def test_unknown_nan_policy():
    with pytest.raises(scorekit.ParameterError, match="nan_policy"):
        skr.mae([1, 2], [1, 2], nan_policy="ignore")
