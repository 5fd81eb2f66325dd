"""The per-segment area kernel (``_area.segment_pair_fractions``): runs, threads, scale."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scorekit._segments import segment_cumsum
from scorekit.classification import _area


def _segments(seed, n=600_000, spread=20):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 25, n // 10)
    offsets = np.r_[0, np.cumsum(sizes)]
    m = int(offsets[-1])
    w = rng.random(m) * 10.0 ** rng.integers(-spread, spread + 1, m)
    y = rng.random(m) < 0.3
    return np.where(y, 0.0, w), np.where(y, w, 0.0), offsets


@pytest.mark.parametrize("seed", [0, 1])
def test_threaded_runs_equal_one_thread(seed, monkeypatch):
    a, b, offsets = _segments(seed)
    threaded = _area.segment_pair_fractions(a, b, offsets)  # 3M entries: many runs
    monkeypatch.setattr(_area, "_PARALLEL_RUNS", 10**9)
    serial = _area.segment_pair_fractions(a, b, offsets)
    for x, y in zip(threaded, serial, strict=True):
        assert x.tobytes() == y.tobytes()


def _brute(sa, sb):
    below = np.cumsum(sa) - sa / 2  # the a weight below each entry, its own half
    if sa.sum() > 0 and sb.sum() > 0:
        return float(sb @ below) / (sa.sum() * sb.sum())
    return np.nan


def test_matches_brute_force_and_scale_free():
    a, b, offsets = _segments(2, n=20_000, spread=0)
    total_a, _total_b, frac = _area.segment_pair_fractions(a, b, offsets)
    want = [_brute(a[i:j], b[i:j]) for i, j in itertools.pairwise(offsets)]
    # each segment summed on its own (no other segment's running total in it)
    np.testing.assert_allclose(frac, want, rtol=1e-14, atol=0)
    np.testing.assert_allclose(total_a, np.add.reduceat(a, offsets[:-1]), rtol=1e-15)
    scaled = _area.segment_pair_fractions(a * 2.0**-40, b * 2.0**-40, offsets)
    assert scaled[2].tobytes() == frac.tobytes()


@pytest.mark.parametrize("spread", [10, 40])
def test_weights_spanning_many_decades(spread):
    # regression: a segment's running total was the run's cumsum minus the earlier
    # segments' total, so a segment whose one class is tiny against the run lost it
    # (an AUC off by up to 1.0)
    a, b, offsets = _segments(3, n=20_000, spread=spread)
    frac = _area.segment_pair_fractions(a, b, offsets)[2]
    want = [_brute(a[i:j], b[i:j]) for i, j in itertools.pairwise(offsets)]
    np.testing.assert_allclose(frac, want, rtol=1e-13, atol=0)


@pytest.mark.parametrize("compiled", [True, False])
def test_segment_cumsum_is_each_segments_own(compiled, monkeypatch):
    # the compiled pass and the NumPy padded rows: both np.cumsum of each segment alone
    from scorekit import _segments

    monkeypatch.setattr(_segments, "COMPILED_ROWS", 0 if compiled else 10**12)
    rng = np.random.default_rng(4)
    sizes = rng.integers(1, 70, 3_000)
    sizes[::500] = 1_000  # a few long segments: their own length class
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    a = rng.random(int(sizes.sum())) * 10.0 ** rng.integers(-30, 31, int(sizes.sum()))
    got = segment_cumsum(a, starts, np.empty(a.size))
    want = np.concatenate([np.cumsum(a[i : i + k]) for i, k in zip(starts, sizes, strict=True)])
    assert got.tobytes() == want.tobytes()
