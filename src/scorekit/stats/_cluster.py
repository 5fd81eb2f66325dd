r"""Cluster (group) bootstrap of a weighted mean of per-group values: GAUC by user, measures by query.

When the value is a weighted mean over groups (GAUC: per-user AUCs weighted by
impressions; a ranking measure: per-query values, equal weights), the unit of
resampling is the group, not the row: a resample draws G groups with
replacement, and its value is :math:`\sum_g m_g w_g v_g / \sum_g m_g w_g`
with :math:`m_g` the number of times group g was drawn. The per-group values
are computed once; a block of resamples is one matrix product, so 1,000
resamples of a million users take a fraction of a second.

Seed contract: ``numpy.random.default_rng(seed)`` draws the group indices as
``rng.integers(0, G, size=(block, G))``, block after block, as
:func:`scorekit.stats.bootstrap_ci` draws rows.
"""

from __future__ import annotations

import numpy as np

from .._errors import ParameterError
from .._typing import ArrayLike, FloatArray
from .._validation import check_option
from ._bootstrap import _interval
from ._paired import _check_resamples

__all__ = ["group_bootstrap_ci", "group_bootstrap_values"]

_BLOCK_ELEMENTS = 1 << 22


def _weighted_means(counts: FloatArray, wv: FloatArray, w: FloatArray) -> FloatArray:
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = (counts @ wv) / (counts @ w)
    return out


def group_bootstrap_values(
    values: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
) -> FloatArray:
    """The weighted mean over groups on each of ``n_resamples`` resamples of the groups.

    Parameters
    ----------
    values : array-like of shape (n_groups,)
        The per-group values; ``nan`` marks a group that does not enter the mean
        (a GAUC user with one class), which is still drawn.
    weights : array-like of shape (n_groups,), default=None
        The groups' weights in the mean (None: equal).
    n_resamples : int, default=1000
    seed : int or numpy Generator, default=None

    Returns
    -------
    ndarray of shape (n_resamples,)
        ``nan`` for a resample that drew no group with a value.
    """
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    g = v.shape[0]
    if g == 0:
        raise ParameterError("values is empty: there is no group to resample")
    w = np.ones(g) if weights is None else np.asarray(weights, dtype=np.float64).reshape(-1)
    if w.shape != v.shape:
        raise ParameterError(f"weights has {w.shape[0]} entries for {g} groups")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ParameterError("weights must be finite and non-negative")
    ok = ~np.isnan(v)
    w = np.where(ok, w, 0.0)
    wv = np.where(ok, w * np.where(ok, v, 0.0), 0.0)
    n_resamples = _check_resamples(n_resamples)
    rng = np.random.default_rng(seed)
    block = max(1, min(n_resamples, _BLOCK_ELEMENTS // g))
    parts = []
    done = 0
    while done < n_resamples:
        size = min(block, n_resamples - done)
        idx = rng.integers(0, g, size=(size, g))
        codes = (idx + (np.arange(size) * g)[:, None]).ravel()
        counts = np.bincount(codes, minlength=size * g).reshape(size, g).astype(np.float64)
        parts.append(_weighted_means(counts, wv, w))
        done += size
    return np.concatenate(parts)


def group_bootstrap_ci(
    values: ArrayLike,
    weights: ArrayLike | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = None,
    method: str = "percentile",
) -> tuple[float, float]:
    r"""Confidence interval of a weighted mean over groups, resampling the groups.

    Parameters
    ----------
    values : array-like of shape (n_groups,)
        Per-group values (``nan``: a group left out of the mean).
    weights : array-like of shape (n_groups,), default=None
        Weights of the groups in the mean (None: equal).
    n_resamples : int, default=1000
    confidence : float, default=0.95
    seed : int or numpy Generator, default=None
    method : {"percentile", "basic", "bca"}, default="percentile"
        The percentile interval; the basic (reverse percentile) interval
        :math:`(2\hat\theta - q_{1-\alpha/2},\ 2\hat\theta - q_{\alpha/2})`; or
        BCa with the leave-one-group-out jackknife.

    Returns
    -------
    (float, float)

    Examples
    --------
    Every group has the same value, so every resample does:

    >>> group_bootstrap_ci([0.75, 0.75, 0.75], [10, 1, 5], seed=0)
    (0.75, 0.75)
    """
    check_option(method, "method", ("percentile", "basic", "bca"))
    if not 0.0 < float(confidence) < 1.0:
        raise ParameterError(f"confidence={confidence!r} must lie strictly between 0 and 1")
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    thetas = group_bootstrap_values(v, weights, n_resamples=n_resamples, seed=seed)
    w = np.ones(v.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    ok = ~np.isnan(v)
    w = np.where(ok, w, 0.0)
    vv = np.where(ok, v, 0.0)
    total = float(w.sum())
    theta_hat = float(np.dot(w, vv) / total) if total > 0 else float("nan")

    def jackknife() -> FloatArray:
        with np.errstate(invalid="ignore", divide="ignore"):
            out: FloatArray = (np.dot(w, vv) - w * vv) / (total - w)
        return out

    alpha = 1.0 - float(confidence)
    jack = jackknife if method == "bca" else None
    return _interval(theta_hat, thetas, alpha, jack, basic=method == "basic")
