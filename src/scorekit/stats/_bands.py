r"""Pointwise bootstrap bands of the ROC and precision–recall curves and of calibration bins.

Each resample's values come from the bootstrap engine's draws
(:mod:`scorekit.stats._engine`: with row or Poisson draws the same blocks and
the same generator calls, so for one seed the resamples are those of
:func:`scorekit.stats.bootstrap_metrics` and of the report's metric
intervals; with cell draws — ``"cells"``, or ``"auto"`` choosing them by the
engine's rule — the same Poissonised multinomial over this module's (label,
score) cells, one generator per block: the same distribution, but not the
draws of the intervals, whose cell layout merges negative-only runs;
``"auto"`` otherwise draws Poisson rows, as the intervals do when each of
their metrics has a block kernel, as the report's defaults do) and from
its cell coding (:func:`~scorekit.stats._bootstrap.auc_cells`,
a block of resamples is one ``bincount``: no sort per resample). On each
resample, with :math:`TP_k, FP_k` the weights at or above the k-th distinct
score (decreasing) and the point (0, 0) first:

- TPR at FPR :math:`f`: :math:`\max\{TP_k/P : FP_k/N \le f\}`, the value of
  :func:`scorekit.tpr_at_fpr` (``max_fpr=f``);
- precision at recall :math:`r`: :math:`\max\{TP_k/(TP_k+FP_k) : TP_k/P \ge r\}`,
  the value of :func:`scorekit.precision_at_recall` (``min_recall=r``);
- the fraction of positives in each calibration bin (fixed edges: those of the data).

The band at each grid point is the pair of percentiles (``numpy.quantile``,
linear) at :math:`\alpha/2` and :math:`1-\alpha/2` of that point's values over
the resamples on which it is defined (both classes drawn; the bin not empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import ParameterError
from .._typing import AnyArray, FloatArray, IntArray
from .._validation import check_option, random_generator
from ._bootstrap import _blocks, auc_cells
from ._engine import _AUTO_CELLS, _CELL_BLOCK, WEIGHTS, _cell_counts
from ._paired import _check_resamples
from ._rowweights import ROW_BLOCK, poisson_streams, poisson_weights
from ._vectorised import draw_cell_counts

__all__ = ["CurveBands", "curve_bands", "resample_curve_values"]


@dataclass(frozen=True)
class CurveBands:
    """Pointwise bootstrap bands of the ROC and PR curves and of the calibration bins.

    ``tpr_low/high`` over ``fpr``, ``precision_low/high`` over ``recall``,
    ``calibration_low/high`` per calibration bin (nan where no resample fills the bin).
    """

    fpr: FloatArray
    tpr_low: FloatArray
    tpr_high: FloatArray
    recall: FloatArray
    precision_low: FloatArray
    precision_high: FloatArray
    calibration_low: FloatArray
    calibration_high: FloatArray
    confidence: float
    resamples: int
    unit: str


def _tables(
    cells: IntArray, groups: int, n_resamples: int, seed: object, weights: str
) -> Iterator[IntArray]:
    """Blocks of (block, 2, G) count tables (row 0 negatives, ascending scores), as the engine draws."""
    n = int(cells.size)
    rng = random_generator(seed)  # type: ignore[arg-type]
    counts = np.bincount(cells, minlength=2 * groups)
    if weights == "auto":  # the engine's rule: cells when they are few, else Poisson rows
        weights = "cells" if np.count_nonzero(counts) * _AUTO_CELLS <= n else "poisson"
    if weights == "poisson":  # the engine's blocks, generators and row order (._rowweights)
        order = np.argsort(2 * (cells % groups) + (cells >= groups), kind="stable")
        sizes = [min(ROW_BLOCK, n_resamples - d) for d in range(0, n_resamples, ROW_BLOCK)]
        for stream, size in zip(poisson_streams(rng, len(sizes)), sizes, strict=True):
            weights_ = poisson_weights(stream, size, order)
            yield _cell_counts(cells, 2 * groups, None, weights_).reshape(size, 2, groups)
        return
    if weights == "cells":  # Poissonised multinomial counts, one generator per block
        held = np.flatnonzero(counts)
        sizes = [min(_CELL_BLOCK, n_resamples - d) for d in range(0, n_resamples, _CELL_BLOCK)]
        for stream, size in zip(rng.spawn(len(sizes)), sizes, strict=True):
            table = np.zeros((size, 2 * groups), dtype=np.int64)
            table[:, held] = draw_cell_counts(stream, counts[held], size)
            yield table.reshape(size, 2, groups)
        return
    for size in _blocks(n_resamples, n):
        kind = np.uint32 if n < 2**32 else np.int64  # the engine's draws (same values)
        idx: Any = rng.integers(0, n, size=(size, n), dtype=kind)
        yield _cell_counts(cells, 2 * groups, idx, None).reshape(size, 2, groups)


def resample_curve_values(
    y01: AnyArray,
    s: FloatArray,
    *,
    fpr_grid: FloatArray,
    recall_grid: FloatArray,
    calibration_edges: FloatArray | None = None,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = 0,
    weights: str = "multinomial",
    progress: Callable[[int, int], None] | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each resample's TPR over ``fpr_grid``, precision over ``recall_grid`` and bin fractions.

    Returns three arrays of shape (resamples, grid): nan where the value is
    undefined on a resample (one class drawn, an empty bin). ``y01`` holds 0/1
    labels, ``s`` finite scores; the draws are the engine's (module docstring).
    """
    check_option(weights, "weights", WEIGHTS)
    n_resamples = _check_resamples(n_resamples)
    if np.size(y01) == 0:
        raise ParameterError("no rows: the bands need data")
    fg = np.asarray(fpr_grid, dtype=np.float64)
    rg = np.asarray(recall_grid, dtype=np.float64)
    edges = None if calibration_edges is None else np.asarray(calibration_edges, dtype=np.float64)
    n_bins = 0 if edges is None else edges.size - 1
    tpr = np.full((n_resamples, fg.size), np.nan)
    prec = np.full((n_resamples, rg.size), np.nan)
    frac = np.full((n_resamples, n_bins), np.nan)
    scores = np.asarray(s, dtype=np.float64)
    positive = np.asarray(y01) == 1
    cells, groups = auc_cells(positive, scores)
    if edges is not None:  # each distinct score's calibration bin, without a second sort
        ids = np.zeros(groups, dtype=np.int64)
        ids[cells - groups * positive] = np.searchsorted(edges[1:-1], scores)
    done = 0
    for table in _tables(cells, groups, n_resamples, seed, weights):
        size = table.shape[0]
        down = table[:, :, ::-1].astype(np.float64)  # decreasing scores
        cum = np.cumsum(down, axis=-1)
        fps, tps = cum[:, 0], cum[:, 1]
        n_neg, n_pos = fps[:, -1], tps[:, -1]
        with np.errstate(invalid="ignore", divide="ignore"):
            predicted = tps + fps
            precision = np.where(predicted > 0, tps / predicted, 0.0)
        best_after = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
        for b in range(size):
            row = done + b
            if n_pos[b] > 0 and n_neg[b] > 0:
                fpr = np.r_[0.0, fps[b] / n_neg[b]]
                at = np.searchsorted(fpr, fg, side="right") - 1
                tpr[row] = np.r_[0.0, tps[b]][at] / n_pos[b]
                recall = tps[b] / n_pos[b]
                k = np.searchsorted(recall, rg, side="left")
                prec[row] = np.where(
                    k < recall.size, best_after[b, np.minimum(k, recall.size - 1)], 0.0
                )
        if edges is not None:
            pos = np.zeros((size, n_bins))
            count = np.zeros((size, n_bins))
            for b in range(size):
                pos[b] = np.bincount(ids, weights=table[b, 1], minlength=n_bins)
                count[b] = pos[b] + np.bincount(ids, weights=table[b, 0], minlength=n_bins)
            with np.errstate(invalid="ignore", divide="ignore"):
                frac[done : done + size] = np.where(count > 0, pos / count, np.nan)
        done += size
        if progress is not None:
            progress(done, n_resamples)
    return tpr, prec, frac


def _percentiles(values: FloatArray, confidence: float) -> tuple[FloatArray, FloatArray]:
    """Per column: the α/2 and 1−α/2 quantiles over the rows that are not nan."""
    alpha = 1.0 - confidence
    low = np.full(values.shape[1], np.nan)
    high = np.full(values.shape[1], np.nan)
    for j in range(values.shape[1]):
        col = values[:, j]
        col = col[~np.isnan(col)]
        if col.size:
            low[j], high[j] = np.quantile(col, [alpha / 2, 1 - alpha / 2])
    return low, high


def curve_bands(
    y01: AnyArray,
    s: FloatArray,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = 0,
    weights: str = "multinomial",
    grid: int = 101,
    calibration_edges: FloatArray | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CurveBands:
    """Pointwise percentile bands of the ROC (TPR over an FPR grid) and PR curves, and calibration.

    ``grid`` evenly spaced points on [0, 1] for FPR and for recall; the
    calibration bins are ``calibration_edges`` (none when ``None``). See the
    module docstring for the per-resample values and the draws.

    Parameters
    ----------
    y01 : array of 0/1 labels
    s : array of finite scores
    n_resamples : int, default=1000
    confidence : float, default=0.95
    seed : int, Generator or None, default=0
    weights : {"multinomial", "poisson", "cells"}, default="multinomial"
    grid : int, default=101
    calibration_edges : array, optional
    progress : callable, optional

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 0, 1, 0, 1])
    >>> b = curve_bands(y, np.arange(8) / 8, n_resamples=50, grid=3)
    >>> b.fpr.tolist(), bool((b.tpr_low <= b.tpr_high).all())
    ([0.0, 0.5, 1.0], True)
    """
    if not 0.0 < float(confidence) < 1.0:
        raise ParameterError(f"confidence={confidence!r} must lie strictly between 0 and 1")
    axis = np.linspace(0.0, 1.0, int(grid))
    tpr, prec, frac = resample_curve_values(
        y01, s, fpr_grid=axis, recall_grid=axis, calibration_edges=calibration_edges,
        n_resamples=n_resamples, seed=seed, weights=weights, progress=progress,
    )  # fmt: skip
    t_lo, t_hi = _percentiles(tpr, confidence)
    p_lo, p_hi = _percentiles(prec, confidence)
    c_lo, c_hi = _percentiles(frac, confidence)
    unit = "rows (Poisson weights)" if weights == "poisson" else "rows"
    return CurveBands(axis, t_lo, t_hi, axis.copy(), p_lo, p_hi, c_lo, c_hi,
                      float(confidence), int(n_resamples), unit)  # fmt: skip
