"""``bin_sums``' bucket path (float sums per bin and exponent field) against Fraction and fsum.

The path runs for many rows in few bins of one sign; the thresholds (rows, block
size, flush interval) are lowered here so that blocks and flushes happen on small
inputs, and the results must equal the exact sums rounded once, like the limbs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import scorekit._limbs as ex
from scorekit._exactsum import as_fraction
from scorekit._limbs import bin_sums, round_sums, segment_ints


@contextmanager
def _small_grid(parallel_rows: int = 1 << 19) -> Iterator[None]:
    saved = ex._GRID_MIN_ROWS, ex._GRID_BLOCK, ex._GRID_FLUSH, ex._GRID_PARALLEL_ROWS
    ex._GRID_MIN_ROWS, ex._GRID_BLOCK, ex._GRID_FLUSH = 1, 7, 20
    ex._GRID_PARALLEL_ROWS = parallel_rows
    try:
        yield
    finally:
        ex._GRID_MIN_ROWS, ex._GRID_BLOCK, ex._GRID_FLUSH, ex._GRID_PARALLEL_ROWS = saved


def _values(rng, n, kind):
    if kind == 0:  # fractional weights, 53-bit
        return rng.random(n) * 2 + 1e-9
    if kind == 1:  # a few exponents apart, long low bits
        return 1.0 / rng.integers(1, 1000, n)
    if kind == 2:  # subnormal and tiny
        return rng.integers(1, 2**40, n) * 5e-324
    return -(rng.random(n) * 1e300)  # all negative, huge


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 200), n_bins=st.integers(1, 6))
def test_bucket_path_equals_fraction_and_fsum(seed, n, n_bins):
    rng = np.random.default_rng(seed)
    x = _values(rng, n, seed % 4)
    bins = rng.integers(0, n_bins, n)
    with _small_grid():
        assert ex._exponent_bin_sums(x, bins, n_bins) is not None
        state = bin_sums(x, bins, n_bins)
    for b, (r, i) in enumerate(zip(round_sums(state).tolist(), segment_ints(state), strict=True)):
        group = x[bins == b].tolist()
        assert as_fraction(i) == sum(map(Fraction, group), Fraction(0))
        assert r == math.fsum(group)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 200), n_bins=st.integers(1, 6))
def test_two_thread_bucket_path_equals_fraction(seed, n, n_bins):
    """Halves on two threads, their accumulators added pairwise: the same exact sums."""
    rng = np.random.default_rng(seed)
    x = _values(rng, n, seed % 4)
    bins = rng.integers(0, n_bins, n)
    with _small_grid(parallel_rows=2):
        state = bin_sums(x, bins, n_bins)
    one = bin_sums(x, bins, n_bins)
    np.testing.assert_array_equal(state.limbs, one.limbs)
    assert state.low == one.low
    for b, i in enumerate(segment_ints(state)):
        assert as_fraction(i) == sum(map(Fraction, x[bins == b].tolist()), Fraction(0))


def test_bucket_path_refuses_mixed_signs_and_many_buckets():
    x = np.array([1.0, -2.0, 3.0])
    with _small_grid():
        _refuses(x)


def _refuses(x):
    assert ex._exponent_bin_sums(x, np.zeros(3, np.int64), 1) is None
    assert ex._exponent_bin_sums(np.array([1.0, 0.0]), np.zeros(2, np.int64), 1) is None
    wide = np.ldexp(1.0, np.arange(-1000, 1000, 100)).astype(np.float64)
    assert ex._exponent_bin_sums(wide, np.arange(wide.size), 10_000) is None


def test_large_input_worked_example():
    # 2**17 rows of 0.1 (not a dyadic number): the float running sum drifts, the exact does not
    x = np.full(1 << 17, 0.1)
    bins = np.zeros(x.size, np.int64)
    assert ex._exponent_bin_sums(x, bins, 1) is not None
    got = round_sums(bin_sums(x, bins, 1))[0]
    assert got == math.fsum(x.tolist()) == float(Fraction(0.1) * (1 << 17))
