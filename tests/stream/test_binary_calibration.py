"""BinaryCurve.calibration_curve: the reliability curve from the score table equals the rows'."""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk
from scorekit.stream import BinaryCurve


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("seed", range(6))
def test_equals_the_one_shot_curve(seed, strategy):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 3000))
    y = rng.integers(0, 2, n)
    p = np.round(np.clip(rng.beta(1, 5, n) + 0.2 * y, 0, 1), int(rng.integers(1, 5)))  # ties
    acc = BinaryCurve()
    for lo in range(0, n, 700):
        acc.update(y[lo : lo + 700], p[lo : lo + 700])
    got = acc.calibration_curve(n_bins=7, strategy=strategy)
    expected = sk.calibration_curve(y, p, n_bins=7, strategy=strategy)
    for a, b in zip(got, expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
    bins, edges = acc.calibration_bins(n_bins=7, strategy=strategy)
    assert bins.count.sum() == n
    assert edges.size == 8
