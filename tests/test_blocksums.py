"""The compiled block sums (scorekit._blocksums) against exact rational arithmetic.

Σx, Σ|x| and Σx² of ``x = a − b`` (rounded once per row, as NumPy subtracts) must
be exact for any values: blocks the kernel cannot slice (extreme range, bits
below the fourth slice, zeros, NaN, inf) are flagged and summed by the NumPy
path, and the regression state built from them must equal the one the
independent weighted (Dekker) path builds with unit weights, bit for bit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekit._blocksums import ABS, BLOCK, CROSS, FLAG, SQ, SUM, TOP, block_sums
from scorekit._errors import NegativeWeightError
from scorekit._exactsum import ExactSums, as_fraction, split, two_product
from scorekit.regression._moments import FIELDS, SUMS, _add_blocks, _moments_from_chunk

SEEDS = st.integers(0, 2**32 - 1)
TWICE = np.where(CROSS, 2, 1)


def _data(rng: np.random.Generator, n: int, spread: int, scale: int) -> np.ndarray:
    x = np.ldexp(rng.normal(size=n), rng.integers(-spread, spread + 1, n) + scale)
    x[rng.random(n) < 0.05] = 0.0
    return x


def _exact(x: np.ndarray) -> tuple[Fraction, Fraction, Fraction]:
    f = [Fraction(float(v)) for v in x]
    return sum(f, Fraction(0)), sum((abs(v) for v in f), Fraction(0)), sum(v * v for v in f)


def _dekker_square(x: np.ndarray) -> int | float:
    """Σ(p + err) of Dekker's two_product(x, x): x² exactly unless a part underflows.

    That is the regression state's definition of Σx² (see ExactSums.add_squares).
    """
    acc = ExactSums(1)
    with np.errstate(all="ignore"):
        for part in two_product(x, x, split(x)):
            acc.add(0, part)
        return acc.result()[0]


def _through_blocks(a: np.ndarray, b: np.ndarray | None) -> tuple[Fraction, ...]:
    acc = ExactSums(3)
    with np.errstate(all="ignore"):
        top = _add_blocks(acc, a, b, 0, 1, 2)
        total, absolute, square = acc.result()
    return as_fraction(total), as_fraction(absolute), square, Fraction(top)


@settings(max_examples=40, deadline=None)
@given(
    seed=SEEDS,
    spread=st.integers(0, 90),
    scale=st.sampled_from([0, -300, 300, -420, 470, -1060]),
    n=st.integers(1, 3 * BLOCK + 7),
    diff=st.booleans(),
)
def test_sums_are_exact_whatever_the_values(seed, spread, scale, n, diff):
    # Wide spreads put rows below the fourth slice (flagged blocks); the scales put
    # whole blocks outside the sliced range or into subnormals.
    rng = np.random.default_rng(seed)
    a = _data(rng, n, spread, scale)
    b = _data(rng, n, spread, scale) if diff else None
    x = a if b is None else a - b
    total, absolute, square, top = _through_blocks(a, b)
    want = _exact(x)
    assert (total, absolute) == want[:2]
    assert square == _dekker_square(x)  # an int, or inf when a square overflows
    if -420 < scale < 470:  # no square underflows or overflows: the exact square
        assert as_fraction(square) == want[2]
    assert top == Fraction(float(np.max(np.abs(x))))


def test_block_columns_are_exact_floats_of_each_block():
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=2 * BLOCK + 5) * 1e3, rng.normal(size=2 * BLOCK + 5)
    out = block_sums(a, b)
    assert out.shape == (3, 20)
    assert not out[:, FLAG].any()
    for k in range(3):
        x = (a - b)[k * BLOCK : (k + 1) * BLOCK]
        total, absolute, square = _exact(x)
        row = [Fraction(float(v)) for v in out[k]]
        assert sum(row[SUM : SUM + 4]) == total
        assert sum(row[ABS : ABS + 4]) == absolute
        assert sum(t * v for t, v in zip(TWICE.tolist(), row[SQ : SQ + 10], strict=True)) == square
        assert out[k, TOP] == np.max(np.abs(x))


def test_a_worked_example():
    # e = 2, −0.5, 0: Σe = 1.5, Σ|e| = 2.5, Σe² = 4.25 (by hand)
    out = block_sums(np.array([3.0, 1.5, 7.0]), np.array([1.0, 2.0, 7.0]))
    assert out[0, SUM : SUM + 4].sum() == 1.5
    assert out[0, ABS : ABS + 4].sum() == 2.5
    assert out[0, SQ : SQ + 10] @ TWICE == 4.25


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_and_inf_flag_their_block(bad):
    a = np.ones(2 * BLOCK)
    a[BLOCK + 3] = bad
    out = block_sums(a)
    assert out[:, FLAG].tolist() == [0.0, 1.0]
    a[:] = 0.0
    a[5] = bad  # a block otherwise all zeros: the max of |x| must not hide it
    assert block_sums(a)[0, FLAG] == 1.0


def test_inputs_are_not_modified_and_strided_columns_work():
    rng = np.random.default_rng(3)
    y = rng.normal(size=(BLOCK + 9, 3))
    before = y.copy()
    total, absolute, square, _ = _through_blocks(y[:, 0], y[:, 2])
    assert (total, absolute, as_fraction(square)) == _exact(y[:, 0] - y[:, 2])
    np.testing.assert_array_equal(y, before)


def _exact_state(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> dict[str, list[Fraction]]:
    """Every sum of the regression state in exact rationals (the definition)."""
    n, k = y.shape
    ws = [Fraction(1)] * n if w is None else [Fraction(float(v)) for v in w]
    out: dict[str, list[Fraction]] = {name: [] for name in SUMS if name != "sape"}
    for j in range(k):
        ys = [Fraction(float(v)) for v in y[:, j]]
        es = [Fraction(float(v)) for v in y[:, j] - p[:, j]]
        out["sum_true"].append(sum((a * b for a, b in zip(ws, ys, strict=True)), Fraction(0)))
        out["sumsq_true"].append(sum((a * b * b for a, b in zip(ws, ys, strict=True)), Fraction(0)))
        out["sum_err"].append(sum((a * b for a, b in zip(ws, es, strict=True)), Fraction(0)))
        out["sse"].append(sum((a * b * b for a, b in zip(ws, es, strict=True)), Fraction(0)))
        out["sae"].append(sum((a * abs(b) for a, b in zip(ws, es, strict=True)), Fraction(0)))
    out["weight"] = [sum(ws, Fraction(0))]
    return out


@settings(max_examples=30, deadline=None)
@given(
    seed=SEEDS,
    spread=st.integers(0, 70),
    n=st.integers(2, 2 * BLOCK + 3),
    k=st.integers(1, 2),
    weights=st.sampled_from(["none", "fractional", "decades", "zeros"]),
)
def test_state_sums_are_exact(seed, spread, n, k, weights):
    # Weighted and unweighted, one or two outputs (strided columns), data over up to
    # 140 binades (rows below the slices: flagged blocks, summed by the NumPy path),
    # weights over 16 decades or mostly zero: every sum equals exact rationals.
    rng = np.random.default_rng(seed)
    y = _data(rng, n * k, spread, 0).reshape(n, k)
    p = _data(rng, n * k, spread, 0).reshape(n, k)
    w = None
    if weights == "fractional":
        w = rng.random(n)
    elif weights == "decades":
        w = rng.random(n) * 10.0 ** rng.integers(-8, 9, n)
    elif weights == "zeros":
        w = np.where(rng.random(n) < 0.9, 0.0, rng.random(n))
    state = _moments_from_chunk(y, p, w, FIELDS)
    want = _exact_state(y, p, w)
    assert as_fraction(state.weight) == want.pop("weight")[0]
    for name, values in want.items():
        assert [as_fraction(v) for v in getattr(state, name)] == values, name
    np.testing.assert_array_equal(state.max_abs_err, np.abs(y - p).max(axis=0))


@pytest.mark.parametrize("need", [("sse",), ("sape",), ("max_abs_err",), ("m2_true",), FIELDS])
def test_weight_total_whatever_is_asked_and_when_every_residual_is_zero(need):
    # Σw comes with the first weighted pass; a block whose residuals are all 0 is
    # still weighed, and so is a state whose statistics need no weighted pass.
    rng = np.random.default_rng(11)
    n = 2 * BLOCK + 5
    y = rng.normal(size=(n, 1))
    w = rng.random(n) * 10.0 ** rng.integers(-5, 6, n)
    state = _moments_from_chunk(y, y.copy(), w, need)
    assert as_fraction(state.weight) == sum(map(Fraction, w.tolist()))
    if "sse" in need:
        assert state.sse == (0,)


def test_without_compiled_kernels_the_numpy_path_gives_the_same_bits(monkeypatch):
    # numba missing, or kernels failing their self-check: every block is flagged,
    # the exact NumPy path sums it, and bad weights still raise (flag 2)
    import scorekit.regression as skr
    from scorekit import _blocksums

    rng = np.random.default_rng(11)
    n = 3 * BLOCK + 17
    y = rng.normal(size=n) * 1e3
    p = y + rng.normal(size=n)
    w = rng.random(n)
    fns = [skr.mae, skr.mse, skr.r2, skr.explained_variance]
    want = [f(y, p, sample_weight=v) for f in fns for v in (None, w)]
    bad = w.copy()
    bad[BLOCK + 3] = -1.0
    monkeypatch.setattr(_blocksums, "_KERNELS", None)

    def broken() -> None:
        raise ImportError("no numba here")

    monkeypatch.setattr(_blocksums, "_self_check", lambda *a: broken())
    with pytest.warns(RuntimeWarning, match="slower NumPy path"):
        got = [f(y, p, sample_weight=v) for f in fns for v in (None, w)]
    assert got == want
    with pytest.raises(NegativeWeightError, match="sample_weight contains 1 negative"):
        skr.mse(y, p, sample_weight=bad)
