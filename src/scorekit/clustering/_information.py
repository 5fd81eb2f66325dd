"""Information-theoretic clustering metrics on the contingency kernel.

Every metric here is a function of a
:class:`~scorekit.clustering._contingency.ContingencyState` (``_mi_from_contingency``,
``_nmi_from_contingency``, ``_ami_from_contingency``, ``_hcv_from_contingency``);
the public functions validate, build the state once and call them.

The expected mutual information of the adjusted score is vectorised: for each
pair of marginals ``(a_i, b_j)`` the hypergeometric terms
``n_ij = max(1, a_i + b_j − N) … min(a_i, b_j)`` are laid out as one flat
ragged range (``np.repeat`` + offsets) and evaluated with ``gammaln`` look-up
tables, in blocks of pairs to bound memory. Terms in the far tails of each
hypergeometric distribution are skipped: Bennett's inequality (valid for
sampling without replacement, Hoeffding 1963, Thm. 4) bounds the probability
mass left out, and the cut is set so that the skipped terms change the
expected mutual information by less than 1e-17 nats in total.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ParameterError, ShapeError
from .._typing import ArrayLike, FloatArray, IntArray
from .._validation import as_array, check_option, undefined
from ._contingency import ContingencyState, _aggregate, _marginals, _state_of

__all__ = [
    "adjusted_mutual_info",
    "completeness",
    "homogeneity",
    "homogeneity_completeness_v_measure",
    "mutual_info",
    "normalized_mutual_info",
    "v_measure",
]

_AVERAGES = ("arithmetic", "geometric", "min", "max")
_EPS = float(np.finfo(np.float64).eps)
#: |normalizer − E[MI]| below this (relative) is 0 up to rounding: AMI is then 0/0.
_ZERO_TOLERANCE = 1e-10
_EMI_TOLERANCE = 1e-17  # total error allowed for the skipped tail terms, in nats
_PAIR_BLOCK = 1 << 18  # marginal pairs per block
_TERM_BLOCK = 1 << 21  # hypergeometric terms per block
_TABLE_MAX = 1 << 23  # largest gammaln look-up table


def _entropy_of_counts(counts: IntArray) -> float:
    """Shannon entropy (nats) of the non-zero counts, as scikit-learn's ``_entropy``."""
    pi = counts[counts > 0].astype(np.float64)
    if pi.size <= 1:
        return 0.0
    total = pi.sum()
    return float(-np.sum((pi / total) * (np.log(pi) - math.log(total))))


def _mi_from_contingency(s: ContingencyState) -> float:
    """Mutual information (nats), scikit-learn's formula and rounding guard."""
    a, b = _marginals(s)
    if np.count_nonzero(a) <= 1 or np.count_nonzero(b) <= 1:
        return 0.0
    nz = s.counts.astype(np.float64)
    n = float(nz.sum())
    p_nm = nz / n
    outer = a[s.rows] * b[s.cols]  # int64: at most N², exact below 3e9 samples
    log_outer = -np.log(outer.astype(np.float64)) + 2.0 * math.log(n)
    mi = p_nm * (np.log(nz) - math.log(n)) + p_nm * log_outer
    mi = np.where(np.abs(mi) < _EPS, 0.0, mi)
    return float(max(float(mi.sum()), 0.0))


def _generalized_average(u: float, v: float, average_method: str) -> float:
    if average_method == "min":
        return min(u, v)
    if average_method == "geometric":
        return float(np.sqrt(u * v))
    if average_method == "max":
        return max(u, v)
    return (u + v) / 2.0


def _n_clusters(s: ContingencyState) -> tuple[int, int]:
    a, b = _marginals(s)
    return int(np.count_nonzero(a)), int(np.count_nonzero(b))


def _nmi_from_contingency(s: ContingencyState, average_method: str = "arithmetic") -> float:
    n_classes, n_clusters = _n_clusters(s)
    if n_classes == n_clusters == 1:
        return 1.0
    mi = _mi_from_contingency(s)
    if mi == 0:
        return 0.0
    a, b = _marginals(s)
    h_true, h_pred = _entropy_of_counts(a), _entropy_of_counts(b)
    return mi / _generalized_average(h_true, h_pred, average_method)


def _gammaln1(lo: int, hi: int) -> tuple[int, FloatArray | None]:
    """``log(k!)`` for ``k`` in ``[lo, hi]`` as a table, or None when too large."""
    from scipy.special import gammaln

    if hi - lo + 1 > _TABLE_MAX:
        return lo, None
    return lo, gammaln(np.arange(lo, hi + 1, dtype=np.float64) + 1.0)


def _lookup(table: tuple[int, FloatArray | None], k: IntArray) -> FloatArray:
    from scipy.special import gammaln

    lo, values = table
    if values is None:
        return np.asarray(gammaln(k + 1.0), dtype=np.float64)
    return values[k - lo]


def _tail_halfwidth(a: FloatArray, b: FloatArray, n: int, log_inv_eps: float) -> FloatArray:
    """Deviation ``t`` with P(|X − ab/N| ≥ t) ≤ 2 e^(−L) for X ~ Hypergeometric (Bennett)."""
    from scipy.special import lambertw

    pa, pb = a / n, b / n
    var = np.maximum(np.minimum(b * pa * (1.0 - pa), a * pb * (1.0 - pb)), 1e-300)
    # Bennett: P ≤ exp(−σ² h(t/σ²)), h(u) = (1+u)log(1+u) − u. Solve σ² h(u) = L:
    # with w = 1 + u, w log w − w = L/σ² − 1, so w = exp(1 + W((L/σ² − 1)/e)).
    c = log_inv_eps / var - 1.0
    w = np.exp(1.0 + lambertw(c / math.e).real)
    return np.asarray(var * (w - 1.0) + 1.0, dtype=np.float64)  # +1: rounding margin


def _expected_mutual_info(a: IntArray, b: IntArray, n: int) -> float:
    """Expected mutual information of two labelings with marginals ``a``, ``b`` (nats).

    Hypergeometric model (Vinh, Epps & Bailey 2010), as scikit-learn's
    ``expected_mutual_information``, without a Python loop over clusters. The
    sum over pairs ``(a_i, b_j)`` depends only on the two sizes, so it runs over
    the distinct sizes, each pair weighted by how often it occurs.
    """
    a_sizes, a_mult = np.unique(a[a > 0], return_counts=True)
    b_sizes, b_mult = np.unique(b[b > 0], return_counts=True)
    if a_mult.sum() <= 1 or b_mult.sum() <= 1:
        return 0.0
    a_sizes, b_sizes = a_sizes.astype(np.int64), b_sizes.astype(np.int64)
    n_pairs = int(a_mult.sum()) * int(b_mult.sum())
    log_inv_eps = math.log(2.0 * n_pairs * max(math.log(n), 1.0) / _EMI_TOLERANCE)
    max_a, max_b = int(a_sizes[-1]), int(b_sizes[-1])
    g_small = _gammaln1(0, max(max_a, max_b))
    g_big = _gammaln1(max(0, n - max_a - max_b), n)
    log_k = np.log(np.arange(max(max_a, max_b) + 1, dtype=np.float64).clip(1.0))  # [0] unused
    g_n = float(_lookup(g_big, np.array([n], dtype=np.int64))[0])
    # Per-pair constant of log(term3), with the log of the pair's multiplicity folded in.
    row_const = (
        _lookup(g_small, a_sizes) + _lookup(g_big, n - a_sizes) + np.log(a_mult) - math.log(n)
    )
    col_const = _lookup(g_small, b_sizes) + _lookup(g_big, n - b_sizes) + np.log(b_mult)
    log_n = math.log(n)
    n_rows, n_cols = a_sizes.size, b_sizes.size
    emi = 0.0
    rows_per_block = max(1, _PAIR_BLOCK // n_cols)
    for r0 in range(0, n_rows, rows_per_block):  # blocks of rows, to bound memory
        k = min(rows_per_block, n_rows - r0)
        ai = np.repeat(a_sizes[r0 : r0 + k], n_cols)  # one entry per (i, j) pair, row-major
        bj = np.tile(b_sizes, k)
        af, bf = ai.astype(np.float64), bj.astype(np.float64)
        mean = af * bf / n
        half = _tail_halfwidth(af, bf, n, log_inv_eps)
        lo = np.maximum(np.maximum(1, ai + bj - n), np.ceil(mean - half).astype(np.int64))
        hi = np.minimum(np.minimum(ai, bj), np.floor(mean + half).astype(np.int64))
        length = np.maximum(hi - lo + 1, 0)
        const = np.repeat(row_const[r0 : r0 + k], n_cols) + np.tile(col_const, k) - g_n
        shift = log_n - np.log(af) - np.log(bf)
        emi += _emi_terms(ai, bj, lo, length, const, shift, n, g_small, g_big, log_k)
    return emi


def _emi_terms(
    ai: IntArray,
    bj: IntArray,
    lo: IntArray,
    length: IntArray,
    const: FloatArray,
    shift: FloatArray,
    n: int,
    g_small: tuple[int, FloatArray | None],
    g_big: tuple[int, FloatArray | None],
    log_k: FloatArray,
) -> float:
    """Sum of the hypergeometric terms of a block of pairs, laid out as flat ragged ranges.

    Pair ``p`` contributes, for ``n_ij`` in ``lo[p] … lo[p] + length[p] − 1``,
    ``n_ij/N · (log n_ij + shift[p]) · exp(const[p] − log n_ij! − log(a−n_ij)!
    − log(b−n_ij)! − log(N−a−b+n_ij)!)``; ``1/N`` is folded into ``const``.
    """
    ends = np.cumsum(length)
    total = 0.0
    first = 0
    while first < length.size:  # split so that no block holds more than _TERM_BLOCK terms
        base = int(ends[first - 1]) if first else 0
        last = max(int(np.searchsorted(ends, base + _TERM_BLOCK, side="right")), first + 1)
        seg = slice(first, last)
        ln = length[seg]
        n_terms = int(ends[last - 1]) - base
        if n_terms:
            starts = np.cumsum(ln) - ln
            nij = np.arange(n_terms, dtype=np.int64) + np.repeat(lo[seg] - starts, ln)
            x, y = np.repeat(ai[seg], ln), np.repeat(bj[seg], ln)
            gln = np.repeat(const[seg], ln)
            gln -= _lookup(g_small, nij)
            gln -= _lookup(g_small, x - nij)
            gln -= _lookup(g_small, y - nij)
            x += y
            x -= nij
            gln -= _lookup(g_big, n - x)
            term2 = np.repeat(shift[seg], ln)
            term2 += log_k[nij]
            total += float(np.dot(nij * term2, np.exp(gln, out=gln)))
        first = last
    return total


def _ami_from_contingency(s: ContingencyState, average_method: str = "arithmetic") -> float:
    n_classes, n_clusters = _n_clusters(s)
    if n_classes == n_clusters == int(np.count_nonzero(s.counts)):
        # the same partition (one cluster each, all singletons, ...): 1 as scikit-learn, even
        # where every labelling with these sizes is that partition and the ratio would be 0/0
        return 1.0
    if n_classes == 1 or n_clusters == 1:
        return 0.0
    a, b = _marginals(s)
    n = int(a.sum())
    mi = _mi_from_contingency(s)
    emi = _expected_mutual_info(a, b, n)
    h_true, h_pred = _entropy_of_counts(a), _entropy_of_counts(b)
    normalizer = _generalized_average(h_true, h_pred, average_method)
    denominator = normalizer - emi
    if abs(denominator) <= _ZERO_TOLERANCE * max(1.0, normalizer):
        # E[MI] reaches the normalizer: every labelling with these cluster sizes scores
        # the same (one side all singletons with "min", or both sides), so AMI is 0/0.
        return undefined(
            "adjusted_mutual_info",
            f"the expected mutual information equals the {average_method} entropy (0/0)",
        )
    return (mi - emi) / denominator


def _hcv_from_contingency(s: ContingencyState, beta: float = 1.0) -> tuple[float, float, float]:
    a, b = _marginals(s)
    h_c, h_k = _entropy_of_counts(a), _entropy_of_counts(b)
    mi = _mi_from_contingency(s)
    hom = mi / h_c if h_c else 1.0
    com = mi / h_k if h_k else 1.0
    if hom + com == 0.0:
        return hom, com, 0.0
    return hom, com, (1 + beta) * hom * com / (beta * hom + com)


def _check_average(average_method: str) -> None:
    check_option(average_method, "average_method", _AVERAGES)


def _check_beta(beta: float) -> None:
    if not (isinstance(beta, (int, float, np.number)) and math.isfinite(beta) and beta >= 0):
        raise ParameterError(f"beta={beta!r} must be a finite number >= 0")


def _state_from_table(contingency: Any) -> ContingencyState:
    """State of a user's contingency table (dense array-like or scipy sparse)."""
    if type(contingency).__module__.startswith("scipy.sparse"):
        coo = contingency.tocoo()
        shape = coo.shape
        rows, cols, values = (np.asarray(v) for v in (coo.row, coo.col, coo.data))
    else:
        arr = as_array(contingency, "contingency")
        if arr.ndim != 2:
            raise ShapeError(f"contingency must be 2-D, got shape {arr.shape}")
        shape = arr.shape
        rows, cols = np.nonzero(arr)
        values = arr[rows, cols]
    if values.dtype.kind not in "biuf":
        raise ParameterError(f"contingency must hold counts, got dtype {values.dtype}")
    if not np.all(np.isfinite(values)) or np.any(values < 0) or np.any(values != np.round(values)):
        raise ParameterError("contingency must hold non-negative integer counts")
    if not values.size or values.sum() == 0:
        raise EmptyInputError("contingency is empty; at least one sample is needed")
    keep = values != 0
    return _aggregate(
        rows[keep].astype(np.int64),
        cols[keep].astype(np.int64),
        int(shape[0]),
        int(shape[1]),
        values[keep].astype(np.int64),
    )


def mutual_info(
    labels_true: ArrayLike | None = None,
    labels_pred: ArrayLike | None = None,
    *,
    contingency: Any = None,
) -> float:
    r"""Mutual information of two labelings, in nats, as ``mutual_info_score``.

    .. math:: \mathrm{MI} = \sum_{ij} \frac{n_{ij}}{N} \log\frac{N\,n_{ij}}{a_i\,b_j}

    with :math:`a_i` class sizes, :math:`b_j` cluster sizes. 0.0 when either
    labeling has a single cluster.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
        Labels; ignored when ``contingency`` is given.
    contingency : array-like or scipy.sparse matrix of shape (n_classes, n_clusters)
        A contingency table of integer counts to use instead of the labels.

    Examples
    --------
    Two identical balanced binary labelings share log 2 nats:

    >>> round(mutual_info([0, 0, 1, 1], [1, 1, 0, 0]), 6)  # log(2)
    0.693147
    """
    if contingency is not None:
        return _mi_from_contingency(_state_from_table(contingency))
    return _mi_from_contingency(_state_of(labels_true, labels_pred))


def normalized_mutual_info(
    labels_true: ArrayLike, labels_pred: ArrayLike, *, average_method: str = "arithmetic"
) -> float:
    r"""Mutual information divided by a mean of the two entropies.

    .. math:: \mathrm{NMI} = \frac{\mathrm{MI}(U, V)}{\mathrm{mean}(H(U), H(V))}

    ``average_method`` picks the mean: "arithmetic" (default), "geometric",
    "min" or "max". 1.0 when both labelings have one cluster; 0.0 when the
    mutual information is 0; as ``normalized_mutual_info_score``.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).
    average_method : {"arithmetic", "geometric", "min", "max"}, default="arithmetic"
        The mean of the two entropies used as the normaliser.

    Examples
    --------
    >>> normalized_mutual_info([0, 0, 1, 1], ["x", "x", "y", "y"])
    1.0
    >>> normalized_mutual_info([0, 0, 1, 1], [0, 1, 0, 1])
    0.0
    """
    _check_average(average_method)
    return _nmi_from_contingency(_state_of(labels_true, labels_pred), average_method)


def adjusted_mutual_info(
    labels_true: ArrayLike, labels_pred: ArrayLike, *, average_method: str = "arithmetic"
) -> float:
    r"""Mutual information adjusted for chance (Vinh, Epps & Bailey 2010).

    .. math:: \mathrm{AMI} = \frac{\mathrm{MI} - E[\mathrm{MI}]}{\mathrm{mean}(H(U), H(V)) - E[\mathrm{MI}]}

    :math:`E[\mathrm{MI}]` is the expectation under the hypergeometric model
    (random labelings with the same cluster sizes). Special cases follow
    ``adjusted_mutual_info_score``: 1.0 when the two labelings are the same
    partition (both one cluster, both all singletons, ...), 0.0 when exactly
    one has one cluster. When E[MI] equals the normalizer up to rounding for
    two different partitions (one labelling all singletons with ``"min"``) AMI
    is really 0/0: scorekit warns (:class:`UndefinedMetricWarning`) and returns
    ``nan``, where scikit-learn divides rounding noise by machine epsilon.
    The expectation skips hypergeometric tail terms whose total is below 1e-17 nats.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).
    average_method : {"arithmetic", "geometric", "min", "max"}, default="arithmetic"
        The mean of the two entropies used as the normaliser.

    Examples
    --------
    >>> adjusted_mutual_info([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    >>> adjusted_mutual_info([0, 0, 0, 0], [0, 1, 2, 3])
    0.0
    >>> adjusted_mutual_info([0, 1, 2], ["c", "b", "a"])  # all singletons: the same partition
    1.0
    """
    _check_average(average_method)
    return _ami_from_contingency(_state_of(labels_true, labels_pred), average_method)


def homogeneity_completeness_v_measure(
    labels_true: ArrayLike, labels_pred: ArrayLike, *, beta: float = 1.0
) -> tuple[float, float, float]:
    r"""Homogeneity, completeness and V-measure in one pass (Rosenberg & Hirschberg 2007).

    .. math:: h = \frac{\mathrm{MI}}{H(C)}, \quad c = \frac{\mathrm{MI}}{H(K)}, \quad
              v = \frac{(1+\beta)\,h\,c}{\beta h + c}

    with :math:`H(C)` the entropy of the classes and :math:`H(K)` of the
    clusters; a zero entropy gives 1.0 and ``h + c = 0`` gives ``v = 0``, as
    scikit-learn. Unlike scikit-learn, empty input raises instead of giving 1.0.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).
    beta : float, default=1.0
        Weight of recall against precision.

    Examples
    --------
    Splitting each class in two keeps every cluster pure but halves completeness:

    >>> [round(x, 4) for x in homogeneity_completeness_v_measure([0, 0, 1, 1], [0, 1, 2, 3])]
    [1.0, 0.5, 0.6667]
    """
    _check_beta(beta)
    return _hcv_from_contingency(_state_of(labels_true, labels_pred), beta)


def homogeneity(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    """Homogeneity: each cluster holds members of a single class; see :func:`homogeneity_completeness_v_measure`.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).

    Examples
    --------
    >>> round(homogeneity([0, 0, 1, 1], [0, 1, 2, 3]), 4)
    1.0
    """
    return _hcv_from_contingency(_state_of(labels_true, labels_pred))[0]


def completeness(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    """Completeness: each class lies in a single cluster; see :func:`homogeneity_completeness_v_measure`.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).

    Examples
    --------
    >>> round(completeness([0, 0, 1, 1], [0, 1, 2, 3]), 4)
    0.5
    """
    return _hcv_from_contingency(_state_of(labels_true, labels_pred))[1]


def v_measure(labels_true: ArrayLike, labels_pred: ArrayLike, *, beta: float = 1.0) -> float:
    """V-measure, the weighted harmonic mean of homogeneity and completeness (= NMI arithmetic at beta=1).

    See :func:`homogeneity_completeness_v_measure`.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).
    beta : float, default=1.0
        Weight of recall against precision.

    Examples
    --------
    >>> round(v_measure([0, 0, 1, 1], [0, 1, 2, 3]), 4)  # 2 * 1 * 0.5 / 1.5
    0.6667
    """
    _check_beta(beta)
    return _hcv_from_contingency(_state_of(labels_true, labels_pred), beta)[2]
