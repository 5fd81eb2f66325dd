"""Per-segment exact sums (limb grid): against Fraction and math.fsum, on hard inputs."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit._limbs as ex
from scorekit import ScorekitError
from scorekit._exactsum import UNIT_EXP, as_fraction
from scorekit._limbs import (
    SegmentSums,
    add_segment_sums,
    bin_sums,
    cumulative_sums,
    decode_segment_sums,
    encode_segment_sums,
    int_bin_sums,
    merge_keyed,
    place_segments,
    reduce_segments,
    round_sums,
    segment_ints,
    segment_sums,
    take_segments,
    to_int64,
    total_sum,
)

SEEDS = st.integers(0, 2**32 - 1)
TINY = 5e-324


def _hard(rng: np.random.Generator, n: int) -> np.ndarray:
    """Signs mixed, magnitudes from subnormal to near overflow, ±0, cancellations."""
    x = np.ldexp(rng.random(n) + 0.5, rng.integers(-1074, 1023, n)) * rng.choice([-1.0, 1.0], n)
    kind = rng.integers(0, 7, n)
    x[kind == 0] = 0.0
    x[kind == 1] = -0.0
    x[kind == 2] = rng.integers(1, 2**20, int((kind == 2).sum())) * TINY
    x[kind == 3] = rng.normal(size=int((kind == 3).sum()))
    x[kind == 4] = rng.normal(size=int((kind == 4).sum())) * 1e16
    x[kind == 5] = rng.integers(0, 2**53, int((kind == 5).sum())).astype(np.float64)
    return np.concatenate([x, -x[: n // 3]])


def _frac(values) -> Fraction:
    return sum(map(Fraction, values), Fraction(0))


def _check(state: SegmentSums, groups: list[list[float]]) -> None:
    assert len(state) == len(groups)
    rounded = round_sums(state).tolist()
    ints = segment_ints(state)
    for g, r, i in zip(groups, rounded, ints, strict=True):
        exact = _frac(g)
        assert as_fraction(i) == exact
        try:
            want = math.fsum(g)
        except OverflowError:  # the exact sum is beyond the largest float: rounds to ±inf
            want = math.copysign(math.inf, exact)
        assert r == want, (g, r, want)


@contextmanager
def _block(size: int) -> Iterator[None]:
    """Blocks of ``size`` rows, so that segments and bins cross block edges."""
    old = ex._BLOCK
    ex._BLOCK = size
    try:
        yield
    finally:
        ex._BLOCK = old


BLOCKS = st.sampled_from([1, 7, 64, 1 << 16])


@given(seed=SEEDS, n=st.integers(0, 300), n_cuts=st.integers(0, 12), block=BLOCKS)
def test_segments_equal_fraction_and_fsum(seed, n, n_cuts, block):
    rng = np.random.default_rng(seed)
    x = rng.permutation(_hard(rng, n))
    starts = np.sort(rng.integers(0, x.size + 1, n_cuts + 1))
    starts[0] = 0 if rng.random() < 0.7 else starts[0]
    ends = np.append(starts[1:], x.size)
    groups = [x[a:b].tolist() for a, b in zip(starts, ends, strict=True)]
    with _block(block):
        _check(segment_sums(x, starts), groups)


@given(seed=SEEDS, n=st.integers(0, 300), n_bins=st.integers(1, 9), block=BLOCKS)
def test_bins_equal_fraction_and_fsum(seed, n, n_bins, block):
    rng = np.random.default_rng(seed)
    x = _hard(rng, n)
    bins = rng.integers(0, n_bins, x.size)
    groups = [x[bins == b].tolist() for b in range(n_bins)]
    with _block(block):
        _check(bin_sums(x, bins, n_bins), groups)


@given(seed=SEEDS)
def test_merge_order_and_chunking_do_not_matter(seed):
    rng = np.random.default_rng(seed)
    x = _hard(rng, 200)
    keys = rng.integers(0, 6, x.size)
    one_shot_keys, inv = np.unique(keys, return_inverse=True)
    want = bin_sums(x, inv, one_shot_keys.size)
    cuts = np.sort(rng.integers(0, x.size, 4))
    parts = []
    for part_x, part_k in zip(np.split(x, cuts), np.split(keys, cuts), strict=True):
        k, i = np.unique(part_k, return_inverse=True)
        parts.append((k, bin_sums(part_x, i, k.size)))
    order = rng.permutation(len(parts))
    acc_k, acc = parts[order[0]]
    for j in order[1:]:
        acc_k, acc = merge_keyed(acc_k, acc, *parts[j])
    np.testing.assert_array_equal(acc_k, one_shot_keys)
    assert segment_ints(acc) == segment_ints(want)
    np.testing.assert_array_equal(round_sums(acc), round_sums(want))


@given(seed=SEEDS)
def test_cumulative_and_total(seed):
    rng = np.random.default_rng(seed)
    x = _hard(rng, 120)
    starts = np.sort(rng.choice(x.size, 10, replace=False))
    starts[0] = 0
    s = segment_sums(x, starts)
    ints = segment_ints(s)
    running = segment_ints(cumulative_sums(s))
    assert running == [sum(ints[: i + 1]) for i in range(len(ints))]
    assert segment_ints(total_sum(s)) == [sum(ints)]
    assert round_sums(total_sum(s))[0] == math.fsum(x.tolist())


def test_classic_cancellation_and_rounding_ties():
    x = np.array([1e100, 1.0, -1e100, 1.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])
    s = segment_sums(x, np.array([0, 4]))
    assert segment_ints(s)[0] == 2 << UNIT_EXP
    assert round_sums(s).tolist() == [2.0, 1.0]
    # 2**53 + 1 is a tie: rounds to even (2**53); 2**53 + 1 + 2**-20 rounds up.
    y = np.array([2.0**53, 1.0, 2.0**53, 1.0, 2.0**-20, 2.0**53, 3.0])
    r = round_sums(segment_sums(y, np.array([0, 2, 5])))
    assert r.tolist() == [2.0**53, 2.0**53 + 2, 2.0**53 + 4]


def test_subnormals_and_signed_zeros():
    x = np.array([TINY, TINY, -TINY, -0.0, -0.0, 2.0**-1022, -TINY])
    r = round_sums(segment_sums(x, np.array([0, 3, 5])))
    assert r.tolist() == [TINY, 0.0, 2.0**-1022 - TINY]


def test_overflowing_sum_rounds_to_inf():
    big = np.finfo(np.float64).max
    r = round_sums(segment_sums(np.array([big, big, -big, -big, big, -1.0]), np.array([0, 2, 4])))
    assert r.tolist() == [np.inf, -np.inf, big]


def test_inf_and_nan_per_segment():
    x = np.array([1.0, np.inf, 2.0, np.inf, -np.inf, np.nan, 3.0])
    with np.errstate(invalid="ignore"):
        s = bin_sums(x, np.array([0, 0, 1, 1, 1, 2, 3]), 4)
        r = round_sums(s)
    assert r[0] == np.inf
    assert np.isnan(r[1])
    assert np.isnan(r[2])
    assert r[3] == 3.0


def test_empty_segments_and_empty_input():
    x = np.array([1.0, 2.0, 3.0])
    r = round_sums(segment_sums(x, np.array([0, 0, 1, 1, 3, 3])))
    assert r.tolist() == [0.0, 1.0, 0.0, 5.0, 0.0, 0.0]
    assert round_sums(segment_sums(np.array([]), np.array([0, 0]))).tolist() == [0.0, 0.0]
    assert round_sums(bin_sums(np.array([]), np.array([], np.int64), 2)).tolist() == [0.0, 0.0]
    assert len(segment_sums(x, np.array([], np.int64))) == 0


def test_row_splitting_is_exact(monkeypatch):
    # Inputs above the int64-safe row count are split and merged back: nothing changes.
    rng = np.random.default_rng(3)
    x = _hard(rng, 400)
    starts = np.array([0, 5, 100, 101, 300])
    bins = rng.integers(0, 5, x.size)
    want_s, want_b = segment_sums(x, starts), bin_sums(x, bins, 5)
    monkeypatch.setattr(ex, "_MAX_ROWS", 17)
    assert segment_ints(segment_sums(x, starts)) == segment_ints(want_s)
    assert segment_ints(bin_sums(x, bins, 5)) == segment_ints(want_b)
    monkeypatch.setattr(ex, "_BLOCK", 5)  # blocks of rows: segments cross block edges
    assert segment_ints(segment_sums(x, starts)) == segment_ints(want_s)
    assert segment_ints(segment_sums(x, starts + 3)) == segment_ints(segment_sums(x[3:], starts))
    assert segment_ints(bin_sums(x, bins, 5)) == segment_ints(want_b)


def test_large_counts_of_large_chunks():
    # 2**21 copies of a value whose chunks are all near 2**32: bincount batches stay exact.
    v = float(2**53 - 1) * 2.0**31
    x = np.full(2**21 + 3, v)
    got = segment_ints(bin_sums(x, np.zeros(x.size, np.int64), 1))[0]
    assert got == (2**21 + 3) * ((2**53 - 1) << (31 + UNIT_EXP))
    assert segment_ints(segment_sums(x, np.array([0])))[0] == got


@pytest.mark.parametrize("seed", [0, 1])
def test_json_round_trip(seed):
    rng = np.random.default_rng(seed)
    x = np.append(_hard(rng, 50), [np.inf])
    with np.errstate(invalid="ignore"):
        s = bin_sums(x, rng.integers(0, 4, x.size), 4)
    back = decode_segment_sums(json.loads(json.dumps(encode_segment_sums(s))))
    assert back.low == s.low
    np.testing.assert_array_equal(back.limbs, s.limbs)
    np.testing.assert_array_equal(back.special, s.special)
    empty = bin_sums(np.array([]), np.array([], np.int64), 3)
    back = decode_segment_sums(json.loads(json.dumps(encode_segment_sums(empty))))
    assert segment_ints(back) == [0, 0, 0]


def test_add_segment_sums_matches_concatenation():
    rng = np.random.default_rng(9)
    x, y = _hard(rng, 60), _hard(rng, 60)[:60] * 1e-300
    bx, by = rng.integers(0, 3, x.size), rng.integers(0, 3, y.size)
    both = add_segment_sums(bin_sums(x, bx, 3), bin_sums(y, by, 3))
    assert segment_ints(both) == segment_ints(
        bin_sums(np.concatenate([x, y]), np.concatenate([bx, by]), 3)
    )


def test_int_bin_sums_are_exact_beyond_2_53():
    rng = np.random.default_rng(4)
    for dtype, top in ((np.int64, 2**62), (np.uint64, 2**64 - 1)):
        v = rng.integers(0, top, 50, dtype=dtype, endpoint=True)
        v[:5] = top
        bins = rng.integers(0, 3, 50)
        got = segment_ints(int_bin_sums(v, bins, 3))
        assert got == [sum(int(x) for x in v[bins == b]) << UNIT_EXP for b in range(3)]
    small = np.array([2**53 + 1, 2**53 + 1, 7], np.int64)
    assert to_int64(int_bin_sums(small, np.array([0, 0, 1]), 2)).tolist() == [2**54 + 2, 7]
    assert to_int64(int_bin_sums(np.array([True, True, False]), np.array([0, 0, 0]), 1)) == [2]


def test_to_int64_refuses_what_does_not_fit():
    assert to_int64(int_bin_sums(np.array([2**62, 2**62]), np.array([0, 0]), 1)) is None
    assert to_int64(bin_sums(np.array([0.5]), np.array([0]), 1)) is None  # not whole
    assert to_int64(bin_sums(np.array([-1.0]), np.array([0]), 1)) is None  # negative
    assert to_int64(bin_sums(np.array([1e300]), np.array([0]), 1)) is None
    assert to_int64(bin_sums(np.array([2.0**62, 2.0**62 - 512]), np.array([0, 0]), 1)) == [
        2**63 - 512
    ]
    assert to_int64(bin_sums(np.array([]), np.array([], np.int64), 2)).tolist() == [0, 0]


def test_take_and_place():
    s = bin_sums(np.array([0.1, 1e200, 3.0]), np.array([0, 1, 2]), 3)
    t = take_segments(s, np.array([2, 0]))
    assert round_sums(t).tolist() == [3.0, 0.1]
    p = place_segments(t, np.array([4, 1]), 5)
    assert round_sums(p).tolist() == [0.0, 0.1, 0.0, 0.0, 3.0]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "keys"),
        ({"low": 0, "limbs": []}, "keys"),
        ({"low": -1, "limbs": [], "special": []}, "low"),
        ({"low": True, "limbs": [], "special": []}, "low"),
        ({"low": 0, "limbs": [[1]], "special": ["zz"]}, "special"),
        ({"low": 0, "limbs": [[1]], "special": ["0x1.0p+0"]}, "special"),
        ({"low": 0, "limbs": [[1], [1, 2]], "special": ["0x0.0p+0"] * 2}, "limbs"),
        ({"low": 0, "limbs": [[1.5]], "special": ["0x0.0p+0"]}, "limbs"),
        ({"low": 0, "limbs": [[2**70]], "special": ["0x0.0p+0"]}, "limbs"),
        ({"low": 0, "limbs": [[1]], "special": ["0x0.0p+0"] * 2}, "limbs"),
        ({"low": 60, "limbs": [[1] * 20], "special": ["0x0.0p+0"]}, "limbs"),
    ],
)
def test_decode_rejects_malformed_states(data, field):
    with pytest.raises(ScorekitError, match="state"):
        decode_segment_sums(data)


def test_decode_checks_the_segment_count():
    good = encode_segment_sums(bin_sums(np.array([1.0]), np.array([0]), 2))
    assert segment_ints(decode_segment_sums(good, n_segments=2)) == [1 << UNIT_EXP, 0]
    with pytest.raises(ScorekitError, match="expected 3"):
        decode_segment_sums(good, n_segments=3)


def test_reduce_segments_of_all_zero_states():
    zero = bin_sums(np.zeros(4), np.arange(4), 4)  # no limb columns at all
    assert round_sums(reduce_segments(zero, (2, 2), 0)).tolist() == [0.0, 0.0]
    assert round_sums(reduce_segments(zero, (4,), 0)).tolist() == [0.0]
