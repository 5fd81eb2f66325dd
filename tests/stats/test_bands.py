"""Bootstrap bands of the ROC and PR curves and of calibration bins (scorekit.stats._bands).

Each resample's values are recomputed here the straightforward way: the
resampled rows drawn from the seed as the engine documents it, then
``scorekit.tpr_at_fpr`` / ``scorekit.precision_at_recall`` (which sort each
resample) and a per-row bin count.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scorekit
from conftest import poisson_counts
from scorekit._errors import UndefinedMetricWarning
from scorekit.stats._bands import curve_bands, resample_curve_values

GRID = np.linspace(0.0, 1.0, 21)
EDGES = np.linspace(0.0, 1.0, 6)


def _data(seed: int, n: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(np.int64)
    s = np.clip(rng.beta(2, 4, n) + 0.25 * y, 0.0, 1.0)
    return y, (np.round(s, 1) if ties else s)


def _direct(y, s, rows):
    """TPR over GRID, precision over GRID and bin fractions of the rows ``rows``, one by one."""
    yr, sr = y[rows], s[rows]
    if yr.min() == yr.max():
        nan = np.full(GRID.size, np.nan)
        return nan, nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        tpr = [scorekit.tpr_at_fpr(yr, sr, max_fpr=f).value for f in GRID]
        prec = [scorekit.precision_at_recall(yr, sr, min_recall=r).value for r in GRID]
    return np.array(tpr), np.array(prec)


def _fractions(y, s, rows):
    ids = np.searchsorted(EDGES[1:-1], s[rows])
    count = np.bincount(ids, minlength=EDGES.size - 1)
    pos = np.bincount(ids, weights=y[rows], minlength=EDGES.size - 1)
    with np.errstate(invalid="ignore"):
        return np.where(count > 0, pos / np.maximum(count, 1), np.nan)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", ["multinomial", "poisson"])
def test_each_resample_equals_a_direct_recomputation(ties, weights):
    n, b, seed = 150, 40, 7
    y, s = _data(3, n, ties)
    tpr, prec, frac = resample_curve_values(
        y, s, fpr_grid=GRID, recall_grid=GRID, calibration_edges=EDGES,
        n_resamples=b, seed=seed, weights=weights,
    )  # fmt: skip
    rng = np.random.default_rng(seed)  # the engine's draws: one block at this size
    if weights == "multinomial":
        resamples = list(rng.integers(0, n, size=(b, n)))
    else:  # the engine's Poisson weights (conftest: written from the seed contract)
        resamples = [np.repeat(np.arange(n), c) for c in poisson_counts(b, seed, y, s)]
    for k, rows in enumerate(resamples):
        want_tpr, want_prec = _direct(y, s, rows)
        np.testing.assert_allclose(tpr[k], want_tpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(prec[k], want_prec, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(frac[k], _fractions(y, s, rows))


def test_band_is_the_percentiles_of_the_direct_values():
    n, b, seed = 120, 60, 11
    y, s = _data(5, n, ties=True)
    bands = curve_bands(y, s, n_resamples=b, seed=seed, grid=GRID.size, calibration_edges=EDGES)
    idx = np.random.default_rng(seed).integers(0, n, size=(b, n))
    direct = [_direct(y, s, rows) for rows in idx]
    tpr = np.array([d[0] for d in direct])
    prec = np.array([d[1] for d in direct])
    frac = np.array([_fractions(y, s, rows) for rows in idx])
    ok = ~np.isnan(tpr[:, 0])
    low, high = np.quantile(tpr[ok], [0.025, 0.975], axis=0)
    np.testing.assert_allclose(bands.tpr_low, low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(bands.tpr_high, high, rtol=0, atol=1e-12)
    low, high = np.quantile(prec[ok], [0.025, 0.975], axis=0)
    np.testing.assert_allclose(bands.precision_low, low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(bands.precision_high, high, rtol=0, atol=1e-12)
    for j in range(EDGES.size - 1):
        col = frac[:, j][~np.isnan(frac[:, j])]
        want = np.quantile(col, [0.025, 0.975]) if col.size else [np.nan, np.nan]
        np.testing.assert_allclose([bands.calibration_low[j], bands.calibration_high[j]], want)
    assert (bands.resamples, bands.unit, bands.confidence) == (b, "rows", 0.95)


def test_resamples_with_one_class_are_left_out_of_the_band():
    y = np.array([1, 0, 0, 0, 0, 0])
    s = np.array([0.9, 0.1, 0.2, 0.3, 0.4, 0.5])
    tpr, prec, _ = resample_curve_values(y, s, fpr_grid=GRID, recall_grid=GRID, n_resamples=50)
    idx = np.random.default_rng(0).integers(0, 6, size=(50, 6))
    one_class = ~(y[idx] == 1).any(axis=1)
    assert one_class.any()
    assert np.isnan(tpr[one_class]).all()
    assert np.isnan(prec[one_class]).all()
    assert not np.isnan(tpr[~one_class]).any()


def test_worked_example_every_positive_above_every_negative():
    # a perfect ranking: every resample with both classes has TPR 1 from FPR 0 on, precision 1
    y = np.repeat([0, 1], 20)
    s = np.arange(40) / 40
    bands = curve_bands(y, s, n_resamples=30, grid=5)
    assert bands.tpr_low.tolist() == [1.0] * 5
    assert bands.precision_high.tolist() == [1.0] * 5


def test_cells_draws_and_bad_options():
    y, s = _data(1, 200, ties=True)
    a = curve_bands(y, s, n_resamples=20, seed=3, weights="cells")
    assert np.all(a.tpr_low <= a.tpr_high)
    # "auto" (the command line's default) picks cells on few distinct scores, Poisson rows
    # otherwise
    y1, s1 = _data(1, 2000, ties=True)  # 22 cells, 16 x 22 <= 2,000 rows: cells
    auto = curve_bands(y1, s1, n_resamples=20, seed=3, weights="auto")
    cells = curve_bands(y1, s1, n_resamples=20, seed=3, weights="cells")
    np.testing.assert_array_equal(auto.tpr_low, cells.tpr_low)
    y2, s2 = _data(1, 200, ties=False)
    rows = curve_bands(y2, s2, n_resamples=20, seed=3, weights="poisson")  # Poisson rows
    auto2 = curve_bands(y2, s2, n_resamples=20, seed=3, weights="auto")
    np.testing.assert_array_equal(auto2.precision_high, rows.precision_high)
    with pytest.raises(scorekit.ScorekitError, match="weights"):
        curve_bands(y, s, n_resamples=5, weights="jackknife")
    with pytest.raises(scorekit.ScorekitError, match="confidence"):
        curve_bands(y, s, n_resamples=5, confidence=1.5)
