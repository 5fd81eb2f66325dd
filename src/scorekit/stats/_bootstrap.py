"""Bootstrap confidence intervals of any metric, with a no-resort fast path for AUC.

Resamples are drawn as index blocks ``rng.integers(0, n, (block, n))``, the
draws of ``scipy.stats.bootstrap(paired=True)``; the generic path and the AUC
path consume the generator identically, so one seed gives the same resamples
(and, up to rounding, the same interval) on either path.

AUC kernel: :func:`auc_cells` codes each row once as ``y * G + g`` (``g`` the
rank of its distinct score among G); a block of resamples is then a ``bincount`` of
cell codes, i.e. a table of positive and negative weight per distinct score
(:func:`auc_from_cell_counts`), with no sort per resample.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .._errors import ParameterError, UndefinedMetricWarning
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray, IntArray
from .._validation import (
    as_array,
    binary_target,
    check_option,
    check_same_length,
    nonempty,
    random_generator,
    scores_1d,
    type_of_target,
    undefined,
    weights_1d,
)
from ..classification._area import half_below, half_pairs
from ._paired import _check_resamples

__all__ = ["bootstrap_ci"]

METHODS = ("percentile", "bca", "basic")
# Resample blocks hold about this many row indices.
_BLOCK_ELEMENTS = 1 << 21
_AUC_KWARGS = frozenset({"sample_weight", "pos_label"})


def bootstrap_ci(
    metric: Callable[..., Any] | str,
    *arrays: ArrayLike,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = None,
    method: str = "percentile",
    **metric_kwargs: Any,
) -> tuple[float, float]:
    r"""Bootstrap confidence interval ``(low, high)`` of ``metric(*arrays, **metric_kwargs)``.

    Rows are resampled jointly (every array, and ``sample_weight`` if given in
    ``metric_kwargs``; other keyword arguments pass unchanged). With
    :math:`\theta^*_b` the metric on resample b and :math:`\alpha = 1 -` confidence:

    - ``"percentile"``: the :math:`\alpha/2` and :math:`1-\alpha/2` quantiles of
      :math:`\theta^*` (linear interpolation, ``numpy.quantile``).
    - ``"bca"``: bias-corrected and accelerated (Efron & Tibshirani 14.3), with
      scipy.stats.bootstrap's formulas: :math:`z_0 = \Phi^{-1}(\hat F(\hat\theta))`
      (values equal to :math:`\hat\theta` count one half), jackknife acceleration
      :math:`a = \sum (\bar\theta_{(\cdot)} - \theta_{(i)})^3 / (6 [\sum (\bar\theta_{(\cdot)} - \theta_{(i)})^2]^{3/2})`
      (0 when every jackknife value is equal), quantile levels
      :math:`\Phi(z_0 + (z_0 + z)/(1 - a(z_0 + z)))` at :math:`z = \pm z_{1-\alpha/2}`.
      The jackknife calls the metric n times (the AUC path does not).
    - ``"basic"``: the percentile quantiles reflected about the estimate,
      :math:`[2\hat\theta - q_{1-\alpha/2},\ 2\hat\theta - q_{\alpha/2}]`
      (Davison & Hinkley 5.2).

    ``seed`` fixes the resamples: the same seed gives the same interval.
    Resamples on which the metric is undefined (nan, e.g. one class drawn) are
    dropped with an :class:`UndefinedMetricWarning` saying how many.

    AUC fast path: when ``metric`` is ``scorekit.roc_auc`` (by identity, from an
    explicit registry of fast paths) or the string ``"roc_auc"``, with binary ``y_true``, 1-D scores and only
    ``sample_weight``/``pos_label`` options, rows are sorted once and each block
    of resamples is a ``bincount`` of row multiplicities per distinct score.
    Other inputs (multiclass, ``max_fpr``, ...) call ``scorekit.roc_auc`` per resample.

    Parameters
    ----------
    metric : str or callable, default="euclidean"
        The distance (SciPy / scikit-learn metric names, or "precomputed").
    *arrays : array-like
        The data arguments of the metric, resampled jointly by row.
    n_resamples : int
        Resamples of the randomization or bootstrap test.
    confidence : float, default=0.95
        Level of the interval.
    seed : int or numpy Generator, default=0
        Seed of the resampling.
    method : {"percentile", "bca"}, default="percentile"
        How the interval is read off the resamples.
    **metric_kwargs
        Passed to the metric.

    Examples
    --------
    The mean of a constant column is the same on every resample:

    >>> bootstrap_ci(np.mean, [2.0, 2.0, 2.0], seed=0)
    (2.0, 2.0)
    """
    check_option(method, "method", METHODS)
    n_resamples = _check_resamples(n_resamples)
    if not 0.0 < float(confidence) < 1.0:
        raise ParameterError(f"confidence={confidence!r} must lie strictly between 0 and 1")
    if not arrays:
        raise ParameterError("bootstrap_ci needs at least one data array after the metric")
    data = [as_array(x, f"arrays[{i}]") for i, x in enumerate(arrays)]
    for i, x in enumerate(data):
        if x.ndim == 0:
            raise ParameterError(f"arrays[{i}] is a scalar; one entry per row is needed")
    n = check_same_length(**{f"arrays[{i}]": x for i, x in enumerate(data)})
    nonempty(n, "arrays[0]")
    rng = random_generator(seed)
    alpha = 1.0 - float(confidence)
    fast = _auc_inputs(metric, data, metric_kwargs)
    if fast is not None:
        cells, n_groups, w = fast
        theta_hat = _auc_point(cells, n_groups, w)
        thetas = _auc_resamples(cells, n_groups, w, n_resamples, rng)
        jackknife: Callable[[], FloatArray] = lambda: _auc_jackknife(cells, n_groups, w)  # noqa: E731
    else:
        metric = _resolve(metric)
        weight = metric_kwargs.pop("sample_weight", None)
        w_rows = None if weight is None else weights_1d(weight, n)
        theta_hat = _call(metric, data, w_rows, metric_kwargs, None)
        thetas = _generic_resamples(metric, data, w_rows, metric_kwargs, n_resamples, rng)
        jackknife = lambda: _generic_jackknife(metric, data, w_rows, metric_kwargs)  # noqa: E731
    jack = jackknife if method == "bca" else None
    return _interval(theta_hat, thetas, alpha, jack, basic=method == "basic")


def _interval(
    theta_hat: float,
    thetas: FloatArray,
    alpha: float,
    jackknife: Callable[[], FloatArray] | None,
    *,
    basic: bool = False,
) -> tuple[float, float]:
    ok = ~np.isnan(thetas)
    if not ok.all():
        warnings.warn(
            f"bootstrap_ci: the metric is undefined (nan) on {int((~ok).sum())} of "
            f"{thetas.size} resamples; they were dropped",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        thetas = thetas[ok]
    if thetas.size == 0 or np.isnan(theta_hat):
        nan = undefined("bootstrap_ci", "the metric is undefined on the data or on every resample")
        return nan, nan
    levels = np.array([alpha / 2, 1 - alpha / 2])
    if jackknife is not None:
        from scipy.special import ndtr, ndtri  # BCa only: percentile and basic need no SciPy

        below = np.count_nonzero(thetas < theta_hat) + np.count_nonzero(thetas <= theta_hat)
        z0 = float(ndtri(below / (2 * thetas.size)))
        theta_i = jackknife()
        dev = np.nanmean(theta_i) - theta_i
        den = float(np.nansum(dev**2))
        accel = float(np.nansum(dev**3)) / (6 * den**1.5) if den > 0 else 0.0
        z = z0 + ndtri(levels)
        with np.errstate(invalid="ignore", divide="ignore"):
            levels = ndtr(z0 + z / (1 - accel * z))
        if np.isnan(levels).any():
            nan = undefined(
                "bootstrap_ci (bca)", "the bias correction is infinite (degenerate resamples)"
            )
            return nan, nan
    low, high = np.quantile(thetas, levels)
    if basic:  # reflected about the estimate: 2θ̂ − q_hi, 2θ̂ − q_lo
        return float(2 * theta_hat - high), float(2 * theta_hat - low)
    return float(low), float(high)


def _blocks(n_resamples: int, n: int) -> Iterator[int]:
    size = max(1, min(n_resamples, _BLOCK_ELEMENTS // n))
    done = 0
    while done < n_resamples:
        yield min(size, n_resamples - done)
        done += size


# ---------------------------------------------------------------- generic path


def _call(
    metric: Callable[..., Any],
    data: list[AnyArray],
    w: FloatArray | None,
    kwargs: dict[str, Any],
    rows: IntArray | BoolArray | None,
) -> float:
    arrays = data if rows is None else [x[rows] for x in data]
    extra = kwargs if w is None else {**kwargs, "sample_weight": w if rows is None else w[rows]}
    value = np.asarray(metric(*arrays, **extra), dtype=np.float64)
    if value.ndim != 0:
        raise ParameterError(f"metric must return a scalar; it returned shape {value.shape}")
    return float(value)


def _generic_resamples(
    metric: Callable[..., Any],
    data: list[AnyArray],
    w: FloatArray | None,
    kwargs: dict[str, Any],
    n_resamples: int,
    rng: np.random.Generator,
) -> FloatArray:
    n = data[0].shape[0]
    out = np.empty(n_resamples)
    k = 0
    with warnings.catch_warnings():  # undefined resamples are counted once, in _interval
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for size in _blocks(n_resamples, n):
            for rows in rng.integers(0, n, size=(size, n)):  # any metric: one call per resample
                out[k] = _call(metric, data, w, kwargs, rows)
                k += 1
    return out


def _generic_jackknife(
    metric: Callable[..., Any], data: list[AnyArray], w: FloatArray | None, kwargs: dict[str, Any]
) -> FloatArray:
    n = data[0].shape[0]
    keep = np.ones(n, dtype=bool)
    out = np.empty(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for i in range(n):  # leave-one-out: n calls of an arbitrary metric
            keep[i] = False
            out[i] = _call(metric, data, w, kwargs, keep)
            keep[i] = True
    return out


# ---------------------------------------------------------------- AUC path


#: Fast paths, keyed by the metric function object (and its name): an explicit
#: registry, so a look-alike function never takes a fast path.
_FAST_PATHS: dict[str, Callable[..., Any]] = {}


def _fast_paths() -> dict[str, Callable[..., Any]]:
    """Name -> function of every metric with a fast path (loaded on first use)."""
    if not _FAST_PATHS:
        from ..classification._curves import roc_auc

        _FAST_PATHS["roc_auc"] = roc_auc
    return _FAST_PATHS


def _resolve(metric: Callable[..., Any] | str) -> Callable[..., Any]:
    """A metric name ("roc_auc") as the scorekit function, for inputs the fast path does not take."""
    if not isinstance(metric, str):
        return metric
    fn = _fast_paths().get(metric)
    if fn is None:
        raise ParameterError(f"metric={metric!r} is not a callable nor the name 'roc_auc'")
    return fn


def _is_roc_auc(metric: Any) -> bool:
    roc_auc = _fast_paths()["roc_auc"]
    return metric == "roc_auc" if isinstance(metric, str) else metric is roc_auc


def _auc_inputs(
    metric: Any, data: list[AnyArray], kwargs: dict[str, Any]
) -> tuple[IntArray, int, FloatArray | None] | None:
    """Cell codes, group count and weights when the AUC fast path applies, else ``None``."""
    if not _is_roc_auc(metric) or len(data) != 2 or not set(kwargs) <= _AUC_KWARGS:
        return None
    y, s = data
    if y.ndim != 1 or s.ndim != 1 or (y.dtype.kind == "f" and not np.isfinite(y).all()):
        return None
    if type_of_target(y) != "binary":
        return None
    pos = binary_target(y, kwargs.get("pos_label"))
    scores = scores_1d(s, "y_score")
    if not np.isfinite(scores).all():
        return None  # the metric's own nan_policy decides
    cells, n_groups = auc_cells(pos, scores)
    return cells, n_groups, weights_1d(kwargs.get("sample_weight"), y.shape[0])


def auc_cells(pos: BoolArray, s: FloatArray) -> tuple[IntArray, int]:
    """Cell code ``y * G + g`` of each row (``g``: rank of its distinct score among G, ascending)."""
    uniq, g = np.unique(s, return_inverse=True)
    n_groups = int(uniq.shape[0])
    return g.astype(np.int64).ravel() + n_groups * pos, n_groups


def auc_from_cell_counts(counts: FloatArray) -> FloatArray:
    r"""AUC of each ``(2, G)`` table of negative (row 0) and positive (row 1) weight per score.

    :math:`\mathrm{AUC} = \sum_g P_g (N_{<g} + N_g/2) / (P\,N)`, ties one half;
    nan where a resample has no positive or no negative weight.
    """
    neg, pos = counts[..., 0, :], counts[..., 1, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = half_pairs(neg, pos) / (pos.sum(axis=-1) * neg.sum(axis=-1))
    return out


def _auc_point(cells: IntArray, n_groups: int, w: FloatArray | None) -> float:
    counts = np.bincount(cells, weights=w, minlength=2 * n_groups).astype(np.float64)
    return float(auc_from_cell_counts(counts.reshape(2, n_groups)))


def _auc_resamples(
    cells: IntArray, n_groups: int, w: FloatArray | None, n_resamples: int, rng: np.random.Generator
) -> FloatArray:
    n = cells.shape[0]
    width = 2 * n_groups
    parts = []
    for size in _blocks(n_resamples, n):
        idx = rng.integers(0, n, size=(size, n))
        codes = cells[idx] + (np.arange(size) * width)[:, None]
        weights = None if w is None else w[idx].ravel()
        counts = np.bincount(codes.ravel(), weights=weights, minlength=size * width)
        parts.append(auc_from_cell_counts(counts.astype(np.float64).reshape(size, 2, n_groups)))
    return np.concatenate(parts)


def _auc_jackknife(cells: IntArray, n_groups: int, w: FloatArray | None) -> FloatArray:
    """Leave-one-out AUCs from the per-score table: removing a row removes its placement."""
    counts = np.bincount(cells, weights=w, minlength=2 * n_groups).astype(np.float64)
    neg, pos = counts[:n_groups], counts[n_groups:]
    p_tot, n_tot = pos.sum(), neg.sum()
    neg_below = half_below(neg)  # negatives beaten by a positive of each score
    area = float(np.sum(pos * neg_below))
    pos_above = p_tot - half_below(pos)  # positives beating a negative of each score
    is_pos = cells >= n_groups
    g = cells - n_groups * is_pos
    wi = np.ones(cells.shape[0]) if w is None else w
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(
            is_pos,
            (area - wi * neg_below[g]) / ((p_tot - wi) * n_tot),
            (area - wi * pos_above[g]) / (p_tot * (n_tot - wi)),
        )
    return out
