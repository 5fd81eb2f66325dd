"""Rank correlation between two score vectors over the same items.

``kendall_tau`` (tau-b) and ``spearman`` match scipy.stats; ``rank_correlation``
is the weighted pairwise agreement RC. Unweighted, every quantity follows from
the pair counts of :func:`pair_counts` (O(n log n)); with weights the sum runs
over all pairs, in row blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import LengthMismatchError, NegativeWeightError, NonFiniteError, ShapeError
from .._typing import ArrayLike, FloatArray, IntArray
from .._validation import (
    as_numeric,
    check_same_length,
    finite_rows,
    nonempty,
    scores_1d,
    take,
    undefined,
)
from ..stats._paired import _midranks

__all__ = ["kendall_tau", "rank_correlation", "spearman"]

# Weighted RC works on (block, n) pair matrices of about this many entries.
_BLOCK_ELEMENTS = 1 << 20


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Pair counts of two score vectors: ``s`` = concordant − discordant pairs.

    ``pairs`` = n(n−1)/2; ``tied_a``/``tied_b`` pairs tied in a / in b (either way).
    """

    pairs: int
    tied_a: int
    tied_b: int
    s: int


def _tied_pairs(x: FloatArray) -> int:
    s = np.sort(x)
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    sizes = np.diff(np.r_[starts, s.shape[0]]).astype(np.int64)
    return int(np.sum(sizes * (sizes - 1) // 2))


def pair_counts(a: FloatArray, b: FloatArray) -> PairCounts:
    r"""Concordant minus discordant pairs and tie counts in O(n log n).

    Uses scipy.stats.kendalltau (Knight's merge-sort algorithm) for tau-b, then
    recovers the integer :math:`S = \\tau_b \\sqrt{(N - T_a)(N - T_b)}` exactly
    by rounding (the relative error of tau-b is far below 1/S).
    """
    n = a.shape[0]
    pairs = n * (n - 1) // 2
    ta, tb = _tied_pairs(a), _tied_pairs(b)
    if pairs in (ta, tb):  # one vector constant: no pair is concordant or discordant
        return PairCounts(pairs, ta, tb, 0)
    from scipy.stats import kendalltau

    tau = float(kendalltau(a, b, variant="b").statistic)
    s = round(tau * np.sqrt(float(pairs - ta) * float(pairs - tb)))
    return PairCounts(pairs, ta, tb, s)


def _two_scores(
    a: ArrayLike, b: ArrayLike, names: tuple[str, str], nan_policy: str
) -> tuple[FloatArray, FloatArray]:
    x, y = scores_1d(a, names[0]), scores_1d(b, names[1])
    nonempty(check_same_length(**{names[0]: x, names[1]: y}), names[0])
    x, y = take(finite_rows(nan_policy, **{names[0]: x, names[1]: y}), x, y)
    return x, y


def kendall_tau(a: ArrayLike, b: ArrayLike, *, nan_policy: str = "raise") -> float:
    r"""Kendall's tau-b between two score vectors (= ``scipy.stats.kendalltau``'s statistic).

    .. math:: \tau_b = \frac{n_c - n_d}{\sqrt{(N - T_a)(N - T_b)}}

    with :math:`N = n(n-1)/2` pairs, :math:`n_c, n_d` concordant and discordant
    pairs and :math:`T_a, T_b` the pairs tied in a and in b. O(n log n): SciPy's
    merge-sort implementation (Knight 1966) does the counting.
    Undefined (nan with :class:`UndefinedMetricWarning`) when a or b is constant.

    Parameters
    ----------
    a : array-like of shape (n,)
        The first vector.
    b : array-like of shape (n,)
        The second vector.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    (1, 2, 3, 4) against (1, 3, 2, 4): 5 of 6 pairs agree, 1 disagrees: (5 − 1)/6:

    >>> round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]), 12)
    0.666666666667
    """
    x, y = _two_scores(a, b, ("a", "b"), nan_policy)
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return undefined("kendall_tau", "a or b is constant (or has fewer than 2 items)")
    from scipy.stats import kendalltau

    return float(kendalltau(x, y, variant="b").statistic)


def spearman(a: ArrayLike, b: ArrayLike, *, nan_policy: str = "raise") -> float:
    r"""Spearman's rank correlation (= ``scipy.stats.spearmanr``'s statistic).

    The Pearson correlation of the average ranks (ties get the mean of their
    ranks). Undefined (nan with :class:`UndefinedMetricWarning`) when a or b is
    constant.

    Parameters
    ----------
    a : array-like of shape (n,)
        The first vector.
    b : array-like of shape (n,)
        The second vector.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Ranks (1, 2, 3, 4) and (1, 3, 2, 4): 1 − 6·Σd²/(n(n²−1)) = 1 − 6·2/60 = 0.8:

    >>> round(spearman([10, 20, 30, 40], [1, 3, 2, 4]), 12)
    0.8
    """
    x, y = _two_scores(a, b, ("a", "b"), nan_policy)
    rx, ry = _midranks(x)[0], _midranks(y)[0]
    rx -= rx.mean()
    ry -= ry.mean()
    den = float(np.sqrt(np.dot(rx, rx) * np.dot(ry, ry)))
    if den == 0.0:
        return undefined("spearman", "a or b is constant (or has fewer than 2 items)")
    return float(np.clip(np.dot(rx, ry) / den, -1.0, 1.0))


def rank_correlation(
    y_true: ArrayLike,
    y_score: ArrayLike,
    weights: Callable[[IntArray, IntArray], Any] | ArrayLike | None = None,
    *,
    nan_policy: str = "raise",
) -> float:
    r"""Weighted pairwise rank agreement RC, in [0, 1].

    .. math:: RC = \frac{\sum_{u<v} w_{uv}\,\big(1 + \operatorname{sgn}((s_u - s_v)(t_u - t_v))\big)}
                        {2 \sum_{u<v} w_{uv}}

    A concordant pair scores 1, a discordant pair 0, a pair tied in either
    vector 1/2. Unweighted, :math:`RC = (1 + \tau_a)/2`, computed in O(n log n)
    from the concordant/discordant counts. ``weights``: ``None`` (all 1), an
    n×n array (only entries ``[u, v]`` with u < v are read, so it need not be
    symmetric) or a callable ``w(u, v)`` taking two equal-length 1-D integer
    arrays of positions u < v and returning their weights. Weighted RC costs
    O(n²), evaluated in row blocks. Weights must be finite and not negative;
    all-zero weights (or n < 2) give nan with :class:`UndefinedMetricWarning`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    weights : str or array-like, default=None
        See above.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    t = (1, 2, 3, 4), s = (1, 3, 2, 4): 5 concordant pairs, 1 discordant: RC = 5/6.
    Weighting only the discordant pair (1, 2) and the pair (0, 3) gives (0 + 2)/(2·2):

    >>> round(rank_correlation([1, 2, 3, 4], [1, 3, 2, 4]), 12)
    0.833333333333
    >>> w = np.zeros((4, 4)); w[1, 2] = w[0, 3] = 1
    >>> rank_correlation([1, 2, 3, 4], [1, 3, 2, 4], w)
    0.5
    """
    t, s = _two_scores(y_true, y_score, ("y_true", "y_score"), nan_policy)
    n = t.shape[0]
    if weights is None:
        c = pair_counts(t, s)
        if c.pairs == 0:
            return undefined("rank_correlation", "fewer than 2 items")
        return 0.5 + c.s / (2.0 * c.pairs)
    matrix = None if callable(weights) else _weight_matrix(weights, n)
    num = den = 0.0
    rows = max(1, _BLOCK_ELEMENTS // max(n, 1))
    for start in range(0, n, rows):  # O(n²) pairs by necessity, a block of rows at a time
        u, v = _block_pairs(start, min(start + rows, n), n)
        w = matrix[u, v] if matrix is not None else _call_weights(weights, u, v)
        agree = 1.0 + np.sign((s[u] - s[v]) * (t[u] - t[v]))
        num += float(np.dot(w, agree))
        den += float(w.sum())
    if den == 0.0:
        return undefined("rank_correlation", "the weights of all pairs sum to 0")
    return num / (2.0 * den)


def _block_pairs(start: int, stop: int, n: int) -> tuple[IntArray, IntArray]:
    """Positions (u, v), u < v, for the rows ``start <= u < stop``."""
    u = np.repeat(np.arange(start, stop), n - 1 - np.arange(start, stop))
    first = np.cumsum(np.r_[0, n - 1 - np.arange(start, stop - 1)])
    v = np.arange(u.shape[0]) - np.repeat(first, n - 1 - np.arange(start, stop)) + u + 1
    return u, v


def _weight_matrix(weights: ArrayLike, n: int) -> FloatArray:
    w = as_numeric(weights, "weights")
    if w.shape != (n, n):
        raise ShapeError(
            f"weights must be a callable or an n×n array with n = {n}; got shape {w.shape}"
        )
    _check_weights(w[np.triu_indices(n, 1)])
    return w


def _call_weights(fn: Callable[[IntArray, IntArray], Any], u: IntArray, v: IntArray) -> FloatArray:
    w = as_numeric(fn(u, v), "weights(u, v)")
    if w.shape != u.shape:
        w = np.broadcast_to(w, u.shape) if w.ndim == 0 else w
    if w.shape != u.shape:
        raise LengthMismatchError(
            f"weights(u, v) returned shape {w.shape} for {u.shape[0]} pairs; one weight per pair is needed"
        )
    _check_weights(w)
    return w


def _check_weights(w: FloatArray) -> None:
    if not np.isfinite(w).all():
        raise NonFiniteError(
            f"weights contains {int((~np.isfinite(w)).sum())} NaN or infinite values"
        )
    if (w < 0).any():
        raise NegativeWeightError(f"weights contains {int((w < 0).sum())} negative values")
