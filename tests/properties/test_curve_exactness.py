"""Weighted AUC-family values are exact (issue 12): scale-free, and streamed == one-shot bit for bit.

Hypothesis draws rows (tied and continuous scores, groups), weights of four kinds
(fractional, whole, tiny near 1e-300, huge near 1e300), chunkings and merge orders.

- Multiplying every weight by a power of two changes no bit of roc_auc, rank_loss,
  gini, average_precision, BinaryCurve or gauc (while the scaled weights are
  exact and finite: ``ldexp(w·2**k, -k) == w``).
- ``BinaryCurve`` and ``GroupedCurve`` fed the rows in any chunks, merged in any
  order, and round-tripped through ``to_dict``/``from_dict``, equal the one-shot
  functions bit for bit (the per-score sums are exact, rounded once).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorekit
from scorekit.stream import BinaryCurve, GroupedCurve

KINDS = ("fractional", "whole", "tiny", "huge")


@st.composite
def weighted_rows(draw, max_rows=60):
    n = draw(st.integers(2, max_rows))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.5
    y[0], y[1] = True, False
    tied = draw(st.booleans())
    s = np.round(rng.random(n), 1) if tied else rng.normal(size=n)
    kind = draw(st.sampled_from(KINDS))
    base = rng.random(n) + 0.01
    w = {
        "fractional": base,
        "whole": rng.integers(1, 1000, n).astype(float),
        "tiny": base * 1e-300,
        "huge": base * 1e300,
    }[kind]
    g = rng.integers(0, 4, n)
    return y, s, w, g, rng


def _same(a, b):
    return a == b or (np.isnan(a) and np.isnan(b))


def _values(y, s, w, g):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (
            scorekit.roc_auc(y, s, sample_weight=w),
            scorekit.rank_loss(y, s, sample_weight=w),
            scorekit.gini(y, s, sample_weight=w),
            scorekit.average_precision(y, s, sample_weight=w),
            BinaryCurve().update(y, s, sample_weight=w).roc_auc(),
            scorekit.gauc(y, s, g, sample_weight=w),
        )


@settings(max_examples=60, deadline=None)
@given(weighted_rows(), st.integers(-1000, 1000))
def test_power_of_two_scaling_changes_no_bit(rows, k):
    y, s, w, g, _ = rows
    with np.errstate(all="ignore"):
        scaled = np.ldexp(w, k)
        exact = np.isfinite(scaled).all() and np.array_equal(np.ldexp(scaled, -k), w)
        exact = exact and bool(np.isfinite(np.sum(scaled)))
    if not exact:
        return  # the scaled weights are not w · 2**k exactly (overflow or subnormals)
    for a, b in zip(_values(y, s, w, g), _values(y, s, scaled, g), strict=True):
        assert _same(a, b)


def test_scale_invariance_worked_example():
    # issue 12: 3e18 gave -0.0186, 1e19 and 1e155 gave 0.0, 1e-170 gave nan. Equal weights
    # of any value count as unit weights in the exact (integer) count of roc_auc.
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    for w in (3e18, 1e19, 1e155, 1e-170, 2.0**-1000, 2.0**1000):
        assert scorekit.roc_auc(y, s, sample_weight=[w] * 4) == 0.75
        assert scorekit.rank_loss(y, s, sample_weight=[w] * 4) == 0.25
        assert scorekit.gini(y, s, sample_weight=[w] * 4) == 0.5
        assert BinaryCurve().update(y, s, sample_weight=[w] * 4).roc_auc() == 0.75
    # gauc gave nan from about 1e160 (the product P·N overflowed); per group it scales
    # by powers of two, so those scalings keep every bit
    g = [1, 1, 2, 2, 2, 2]
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    base = scorekit.gauc(y, s, g, sample_weight=[1.0, 2.0, 1.5, 1.0, 3.0, 0.5])
    for k in (-1000, -500, 500, 1000):
        w = np.ldexp([1.0, 2.0, 1.5, 1.0, 3.0, 0.5], k)
        assert scorekit.gauc(y, s, g, sample_weight=w) == base
    for w in (1e160, 1e200, 1e300, 1e-300):
        assert scorekit.gauc(y, s, g, sample_weight=[w] * 6) == pytest.approx(
            scorekit.gauc(y, s, g), abs=1e-15
        )


def _chunks(rng, n):
    cuts = np.sort(rng.integers(0, n + 1, rng.integers(0, 6)))
    return [p for p in np.split(rng.permutation(n), cuts) if p.size]


@settings(max_examples=60, deadline=None)
@given(weighted_rows(max_rows=80))
def test_binary_curve_streamed_equals_one_shot(rows):
    y, s, w, _, rng = rows
    accs = [BinaryCurve().update(y[p], s[p], sample_weight=w[p]) for p in _chunks(rng, y.size)]
    rng.shuffle(accs)
    acc = accs[0]
    for other in accs[1:]:
        acc.merge(other)
    acc = BinaryCurve.from_dict(acc.to_dict()) if rng.random() < 0.5 else acc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _same(acc.roc_auc(), scorekit.roc_auc(y, s, sample_weight=w))
        assert _same(acc.average_precision(), scorekit.average_precision(y, s, sample_weight=w))
        assert _same(acc.rank_loss(), scorekit.rank_loss(y, s, sample_weight=w))
        for got, want in zip(
            acc.roc_curve(), scorekit.roc_curve(y, s, sample_weight=w), strict=True
        ):
            np.testing.assert_array_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(weighted_rows(max_rows=80))
def test_grouped_curve_streamed_equals_one_shot(rows):
    y, s, w, g, rng = rows
    accs = [
        GroupedCurve().update(y[p], s[p], g[p], sample_weight=w[p]) for p in _chunks(rng, y.size)
    ]
    rng.shuffle(accs)
    acc = accs[0]
    for other in accs[1:]:
        acc.merge(other)
    acc = GroupedCurve.from_dict(acc.to_dict()) if rng.random() < 0.5 else acc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _same(acc.gauc(), scorekit.gauc(y, s, g, sample_weight=w))
        got = acc.group_table().to_dict()
        want = scorekit.gauc(y, s, g, sample_weight=w, return_groups=True)[1].to_dict()
    for key in want:
        np.testing.assert_array_equal(np.array(got[key]), np.array(want[key]))


@pytest.mark.parametrize("tied", [True, False])
def test_fractional_weights_many_chunkings_large(tied):
    # the measurement: 10-40% of random chunkings differed in the last bit
    rng = np.random.default_rng(3)
    n = 3000
    y = rng.random(n) < 0.3
    s = np.round(rng.random(n), 2) if tied else rng.random(n)
    w = rng.random(n) * 3
    want = scorekit.roc_auc(y, s, sample_weight=w)
    for _ in range(20):
        accs = [BinaryCurve().update(y[p], s[p], sample_weight=w[p]) for p in _chunks(rng, n)]
        acc = accs[0]
        for other in accs[1:]:
            acc.merge(other)
        assert acc.roc_auc() == want
