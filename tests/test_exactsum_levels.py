"""ExactSums' extraction levels (fixed grid, float sums) equal the exponent-bucket path."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from scorekit._exactsum import ExactSums, as_fraction, exact_sum

SEEDS = st.integers(0, 2**32 - 1)


def _buckets(x: np.ndarray) -> int | float:
    acc = ExactSums(1)
    acc._add_buckets(0, x)
    return acc.result()[0]


@given(seed=SEEDS, spread=st.integers(0, 200), n=st.integers(1, 5000))
def test_levels_equal_buckets_and_fraction(seed, spread, n):
    # Magnitudes spread over 2**±spread: two, three levels, or the bucket fallback.
    rng = np.random.default_rng(seed)
    x = np.ldexp(rng.normal(size=n), rng.integers(-spread, spread + 1, n))
    x[rng.random(n) < 0.05] = 0.0
    acc = ExactSums(1)
    assert acc._add_levels(0, x)
    got = acc.result()[0]
    assert got == _buckets(x) == exact_sum(x)
    assert as_fraction(got) == sum(map(Fraction, x.tolist()), Fraction(0))


def test_levels_refuse_extremes_and_non_finite():
    acc = ExactSums(1)
    for x in ([1e305, 1.0], [1e-280, 0.0], [np.nan, 1.0], [np.inf]):
        assert not acc._add_levels(0, np.array(x))
    assert acc._add_levels(0, np.zeros(3))
    assert acc.result() == [0]


def test_blocks_beyond_the_level_size():
    rng = np.random.default_rng(1)
    x = rng.normal(size=70_000) * 1e6
    assert as_fraction(exact_sum(x)) == sum(map(Fraction, x.tolist()), Fraction(0))
    assert float(as_fraction(exact_sum(x))) == math.fsum(x.tolist())
