"""Exact summation: against math.fsum (correctly rounded) and Fraction, on hard inputs."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit._exactsum as ex
from scorekit._exactsum import (
    UNIT_EXP,
    ExactSums,
    add_sums,
    as_fraction,
    decode_sum,
    encode_sum,
    exact_sum,
    of_float,
    split,
    to_float,
    two_product,
)

SEEDS = st.integers(0, 2**32 - 1)
TINY = 5e-324  # the smallest subnormal


def _hard(rng: np.random.Generator, n: int) -> np.ndarray:
    """Mixed signs, magnitudes from subnormal to 1e300, ±0 and exact cancellations."""
    exponents = rng.integers(-1074, 997, n)
    x = np.ldexp(rng.random(n) + 0.5, exponents) * rng.choice([-1.0, 1.0], n)
    kind = rng.integers(0, 6, n)
    x[kind == 0] = 0.0
    x[kind == 1] = -0.0
    x[kind == 2] = rng.integers(1, 2**20, int((kind == 2).sum())) * TINY  # subnormals
    x[kind == 3] = rng.normal(size=int((kind == 3).sum()))  # ordinary values
    big = np.flatnonzero(kind == 4)
    x[big] = rng.normal(size=big.size) * 1e16
    return np.concatenate([x, -x[: n // 3], [1.0, 1e-300, -1e300, 1e300]])  # cancellations


@given(seed=SEEDS, n=st.integers(0, 400))
def test_equals_fsum(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.permutation(_hard(rng, n))
    s = exact_sum(x)
    assert as_fraction(s) == sum(map(Fraction, x.tolist()), Fraction(0))
    assert to_float(s) == math.fsum(x.tolist())


@given(seed=SEEDS)
def test_chunking_and_order_do_not_matter(seed):
    rng = np.random.default_rng(seed)
    x = _hard(rng, 300)
    cuts = sorted(rng.integers(0, x.size, 4).tolist())
    parts = [exact_sum(c) for c in np.split(x, cuts)]
    total = 0
    for i in rng.permutation(len(parts)):
        total = add_sums(total, parts[i])
    assert total == exact_sum(x) == exact_sum(x[::-1])


def test_classic_cancellation():
    # Left to right in float64 this is 0.0; exactly it is 2.
    assert exact_sum(np.array([1e100, 1.0, -1e100, 1.0])) == 2 << UNIT_EXP
    # Ten 0.1s: 10 × 0.1000000000000000055511151231257827 rounds to 1.0 (fsum agrees).
    assert to_float(exact_sum(np.full(10, 0.1))) == 1.0 == math.fsum([0.1] * 10)


def test_signed_zeros_and_subnormals():
    assert exact_sum(np.array([-0.0, 0.0, -0.0])) == 0
    assert exact_sum(np.array([TINY, TINY, -TINY])) == 1  # one unit of 2**-1074
    assert exact_sum(np.array([], dtype=np.float64)) == 0


def test_flush_keeps_the_sum_exact(monkeypatch):
    # Flushing the float bucket totals into the integer every few rows changes nothing.
    rng = np.random.default_rng(5)
    x = _hard(rng, 500)
    want = exact_sum(x)
    monkeypatch.setattr(ex, "_FLUSH_ROWS", 7)
    acc = ExactSums(2)
    for a in range(0, x.size, 50):
        acc.add(0, x[a : a + 50])
    acc.add(1, x)
    assert acc.result() == [want, want]


def test_inf_and_nan_are_kept_as_floats():
    assert exact_sum(np.array([1.0, np.inf])) == np.inf
    assert math.isnan(exact_sum(np.array([np.inf, -np.inf])))
    assert add_sums(10**500, -np.inf) == -np.inf


@given(seed=SEEDS)
def test_two_product_is_exact(seed):
    rng = np.random.default_rng(seed)
    a = np.ldexp(rng.random(50) + 0.5, rng.integers(-400, 400, 50)) * rng.choice([-1, 1], 50)
    b = np.ldexp(rng.random(50) + 0.5, rng.integers(-400, 400, 50))
    p, err = two_product(a, b)
    for ai, bi, pi, ei in zip(a.tolist(), b.tolist(), p.tolist(), err.tolist(), strict=True):
        assert Fraction(ai) * Fraction(bi) == Fraction(pi) + Fraction(ei)
        assert pi == ai * bi
    p2, err2 = two_product(a, a)  # squares share the split
    assert all(
        Fraction(x) ** 2 == Fraction(q) + Fraction(r)
        for x, q, r in zip(a.tolist(), p2.tolist(), err2.tolist(), strict=True)
    )


def test_split_halves_have_26_bits():
    x = np.array([np.pi, -1e-200, 123456789.123])
    hi, lo = split(x)
    np.testing.assert_array_equal(hi + lo, x)
    for h in (hi, lo):
        mantissa, _ = np.frexp(np.abs(h))
        assert np.all(mantissa * 2.0**26 == np.round(mantissa * 2.0**26))


@pytest.mark.parametrize("value", [0, 1, -(10**40), 10**400, np.inf, -np.inf])
def test_json_text_round_trip(value):
    s = value if isinstance(value, int) else float(value)
    assert decode_sum(encode_sum(s)) == s


def test_of_float_is_the_unit_count():
    assert of_float(1.0) == 1 << UNIT_EXP
    assert of_float(-TINY) == -1
    assert as_fraction(of_float(0.1)) == Fraction(0.1)


def test_split_and_product_near_overflow():
    # Veltkamp's constant times 1e305 overflows: those values are split scaled by 2**-28.
    x = np.array([1e305, -3e307, 1.5, 5e-324])
    with np.errstate(over="ignore", invalid="ignore"):
        hi, lo = split(x)
        p, err = two_product(x, np.array([0.3, 0.3, 0.3, 0.3]))
    np.testing.assert_array_equal(hi + lo, x)
    assert np.isfinite(hi).all()
    # (not 5e-324: an underflowing product has no representable error term, as documented)
    for a, q, r in zip(x[:3].tolist(), p[:3].tolist(), err[:3].tolist(), strict=True):
        assert Fraction(a) * Fraction(0.3) == Fraction(q) + Fraction(r)
    with np.errstate(over="ignore", invalid="ignore"):
        p, err = two_product(x, x)  # 1e305² overflows: p = inf carries it, err is 0 there
    assert p[0] == np.inf
    assert err[0] == 0.0
