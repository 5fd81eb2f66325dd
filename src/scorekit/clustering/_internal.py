r"""Internal clustering measures: silhouette, Calinski–Harabasz, Davies–Bouldin.

They score a clustering from the features ``X`` alone, with no loop over
clusters: the silhouette sorts the points by cluster once, so each per-cluster
sum is a segment sum (``np.add.reduceat``); Calinski–Harabasz and
Davies–Bouldin get every centroid from one sparse one-hot product.

Kernels (private, importable):

- Silhouette: :func:`_prepare_metric` turns ``X`` and the metric into a
  function that gives the distances from a block of (sorted) rows to every
  point; :func:`_cluster_distance_sums` reduces that block to one sum per
  cluster at once; :func:`_silhouette_from_sums` turns the sums into values.
  Only one block of about :data:`_BLOCK_BYTES` bytes of distances exists at a
  time, so 100k points never need an n × n matrix.
- Calinski–Harabasz: a mergeable :class:`ClusterMoments` state (count,
  centroid and Σ‖x − centroid‖² per cluster, merged with Chan's formulas),
  built by :func:`_cluster_moments_from_chunk`, merged by
  :func:`_merge_cluster_moments`, read by :func:`_calinski_harabasz_from_moments`.
- Davies–Bouldin: the centroids and centred points of :func:`_centre_by_cluster`
  (the kernel under :class:`ClusterMoments` too), then the k × k centroid distances.

Euclidean distances use ‖a‖² + ‖b‖² − 2a·b (as scikit-learn does) on data
centred on its mean first (distances do not change; digits are kept when the
features carry a large offset), clipped at 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import LabelError, NonFiniteError, ParameterError, ShapeError
from .._typing import AnyArray, ArrayLike, FloatArray, IntArray
from .._validation import as_array, check_same_length, labels_1d, nonempty

__all__ = ["calinski_harabasz", "davies_bouldin", "silhouette_samples", "silhouette_score"]

#: Bytes of distances computed at once by the silhouette (a block of rows × all points).
_BLOCK_BYTES = 1 << 25

#: scikit-learn converts X to bool for these metrics (PAIRWISE_BOOLEAN_FUNCTIONS).
_BOOLEAN_METRICS = frozenset(
    {"dice", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule"}
)
_ALIASES = {"l2": "euclidean", "l1": "cityblock", "manhattan": "cityblock"}

BlockFn = Callable[[int, int], FloatArray]


# --------------------------------------------------------------------------- inputs
#: Squared distances below this fraction of ‖a‖² + ‖b‖² are recomputed from the
#: differences: elsewhere the expansion's rounding is below ~1e-11 of the distance.
_CANCELLATION = 1e-4


def _features(X: ArrayLike, name: str = "X") -> FloatArray:
    arr = as_array(X, name)
    if arr.ndim != 2:
        raise ShapeError(f"{name} must be 2-D (n_samples, n_features), got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise ShapeError(f"{name} must be numeric, got dtype {arr.dtype}")
    out = np.asarray(arr, dtype=np.float64)
    nonempty(out.shape[0], name)
    if out.shape[1] == 0:
        raise ShapeError(f"{name} has no features (shape {out.shape})")
    bad = int(out.size - np.count_nonzero(np.isfinite(out)))
    if bad:
        raise NonFiniteError(f"{name} contains {bad} NaN or infinite values")
    return out


def _codes(labels: ArrayLike, n: int, X: AnyArray) -> tuple[IntArray, AnyArray]:
    """Integer cluster codes 0..k-1 and the sorted distinct labels; checks 2 ≤ k ≤ n − 1."""
    lab = labels_1d(labels, "labels")
    check_same_length(X=X, labels=lab)
    uniq, codes = np.unique(lab, return_inverse=True)
    k = int(uniq.shape[0])
    if not 1 < k < n:
        raise LabelError(
            f"labels has {k} distinct clusters for {n} samples; the valid number of "
            f"clusters is 2 to n_samples - 1 ({n - 1})"
        )
    return codes.reshape(-1).astype(np.int64), uniq


def _sort_by_cluster(codes: IntArray, k: int) -> tuple[IntArray, IntArray, FloatArray]:
    """Stable order grouping the points by cluster, segment starts, cluster sizes."""
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes, minlength=k)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return order, starts, counts.astype(np.float64)


# --------------------------------------------------------------------------- silhouette kernels
def _prepare_metric(X: FloatArray, order: IntArray, metric: Any, kwds: dict[str, Any]) -> BlockFn:
    """A function ``(r0, r1) -> D``: distances from sorted points r0:r1 to every sorted point.

    ``X`` holds the features (or the distances, ``metric="precomputed"``) in
    the user's order; ``order`` is the cluster order (rows of the block and
    columns of ``D`` follow it). Self-distances are exactly 0 for "euclidean"
    and "cosine", as in scikit-learn.
    """
    name = _ALIASES.get(metric, metric) if isinstance(metric, str) else metric
    if name in ("euclidean", "cosine", "precomputed") and kwds:
        raise ParameterError(f"metric={metric!r} takes no extra arguments; got {sorted(kwds)}")
    if name == "precomputed":  # gathered block by block: no second n × n matrix
        return lambda r0, r1: X[order[r0:r1]][:, order]
    X = X[order]
    n = X.shape[0]
    if name == "euclidean":
        Xc = X - X.mean(axis=0)
        sq = np.einsum("ij,ij->i", Xc, Xc)
        sq_max = float(sq.max())
        # one product gives ‖a‖² + ‖b‖² − 2a·b: [a, ‖a‖², 1] · [−2b, 1, ‖b‖²]
        left = np.hstack([Xc, sq[:, None], np.ones((n, 1))])
        right = np.ascontiguousarray(np.hstack([-2.0 * Xc, np.ones((n, 1)), sq[:, None]]).T)

        def euclidean(r0: int, r1: int) -> FloatArray:
            D: FloatArray = left[r0:r1] @ right
            # The expansion loses digits where ‖a − b‖² is small next to ‖a‖² + ‖b‖²
            # (duplicate and near-duplicate points): recompute those few pairs directly.
            # Candidates against the largest ‖a‖² + ‖b‖² (a comparison with a scalar),
            # then the exact condition on those few.
            diagonal = (np.arange(r1 - r0), np.arange(r0, r1))
            D[diagonal] = np.inf  # self-distances are set to 0 below, not candidates
            limit = _CANCELLATION * (float(sq[r0:r1].max()) + sq_max)
            small = np.less(D, limit)
            rows = np.flatnonzero(small.any(axis=1))  # few: np.nonzero of the block is slow
            i, j = np.nonzero(small[rows])
            i = rows[i]
            close = D[i, j] < _CANCELLATION * (sq[r0 + i] + sq[j])
            i, j = i[close], j[close]
            if i.size:
                diff = Xc[r0 + i] - Xc[j]
                D[i, j] = np.einsum("ij,ij->i", diff, diff)
            np.maximum(D, 0.0, out=D)
            np.sqrt(D, out=D)
            D[diagonal] = 0.0
            return D

        return euclidean
    if name == "cosine":
        norms = np.sqrt(np.einsum("ij,ij->i", X, X))
        norms[norms == 0] = 1.0  # zero vectors stay zero: distance 1 to everything
        unit = X / norms[:, None]
        unit_t = np.ascontiguousarray(unit.T)

        def cosine(r0: int, r1: int) -> FloatArray:
            D: FloatArray = unit[r0:r1] @ unit_t
            np.subtract(1.0, D, out=D)
            np.clip(D, 0.0, 2.0, out=D)
            D[np.arange(r1 - r0), np.arange(r0, r1)] = 0.0
            return D

        return cosine
    from scipy.spatial.distance import cdist

    data: AnyArray = X.astype(bool) if name in _BOOLEAN_METRICS else X
    params = dict(kwds)
    if name == "seuclidean" and "V" not in params:
        params["V"] = np.var(X, axis=0, ddof=1)
    if name == "mahalanobis" and "VI" not in params:
        params["VI"] = np.linalg.inv(np.cov(X.T)).T
    try:
        cdist(data[:1], data[:1], name, **params)
    except (ValueError, TypeError) as exc:
        raise ParameterError(f"metric={metric!r} cannot be used: {exc}") from None

    def scipy_metric(r0: int, r1: int) -> FloatArray:
        return np.asarray(cdist(data[r0:r1], data, name, **params), dtype=np.float64)

    return scipy_metric


def _cluster_distance_sums(D: FloatArray, starts: IntArray) -> FloatArray:
    """Per row of a distance block, the sum of distances to each cluster (columns sorted by cluster).

    >>> _cluster_distance_sums(np.array([[0.0, 1.0, 4.0]]), np.array([0, 2]))
    array([[1., 4.]])
    """
    return np.asarray(np.add.reduceat(D, starts, axis=1), dtype=np.float64)


def _silhouette_from_sums(sums: FloatArray, own: IntArray, counts: FloatArray) -> FloatArray:
    """Silhouette of each row from its per-cluster distance sums.

    a = sum to its own cluster / (size − 1); b = the smallest mean distance to
    another cluster; s = (b − a) / max(a, b), and 0 for a cluster of one point.

    >>> _silhouette_from_sums(np.array([[1.0, 8.0]]), np.array([0]), np.array([2.0, 2.0]))
    array([0.75])
    """
    rows = np.arange(sums.shape[0])
    other = sums / counts
    other[rows, own] = np.inf
    b = other.min(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):  # singletons: 0/0, set to 0 below
        a = sums[rows, own] / (counts[own] - 1)
        s = (b - a) / np.maximum(a, b)
    return np.asarray(np.nan_to_num(s), dtype=np.float64)


def _silhouette_sorted(
    block: BlockFn, n: int, codes_sorted: IntArray, starts: IntArray, counts: FloatArray
) -> FloatArray:
    """Silhouette values of the points in cluster order, one block of rows at a time."""
    out = np.empty(n)
    step = max(1, _BLOCK_BYTES // (8 * n))
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        sums = _cluster_distance_sums(block(r0, r1), starts)
        out[r0:r1] = _silhouette_from_sums(sums, codes_sorted[r0:r1], counts)
    return out


# --------------------------------------------------------------------------- silhouette
def silhouette_samples(
    X: ArrayLike, labels: ArrayLike, *, metric: Any = "euclidean", **kwds: Any
) -> FloatArray:
    r"""Silhouette coefficient of each sample (scikit-learn's ``silhouette_samples``).

    .. math:: s_i = \frac{b_i - a_i}{\max(a_i, b_i)}

    :math:`a_i` is the mean distance from i to the other points of its cluster,
    :math:`b_i` the smallest mean distance from i to the points of another
    cluster; :math:`s_i = 0` when i is alone in its cluster. Distances are
    computed in blocks of rows and reduced per cluster at once, so memory stays
    bounded (about 32 MiB of distances at a time).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), or (n_samples, n_samples)
        Features, or distances with ``metric="precomputed"`` (zero diagonal).
    labels : array-like of shape (n_samples,)
        Cluster labels (ints or strings); 2 to n_samples − 1 distinct values.
    metric : str or callable, default="euclidean"
        "euclidean" ("l2"), "manhattan" ("l1", "cityblock"), "cosine",
        "precomputed", or any metric of ``scipy.spatial.distance.cdist``
        (``**kwds`` go to it, e.g. ``p=3`` for "minkowski").

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    Points 0, 1 | 4: for 0, a = 1 and b = 4, so s = 3/4; for 1, a = 1, b = 3,
    s = 2/3; the singleton scores 0.

    >>> silhouette_samples([[0], [1], [4]], [0, 0, 1]).round(4).tolist()
    [0.75, 0.6667, 0.0]
    """
    data = _features(X)
    n = data.shape[0]
    codes, uniq = _codes(labels, n, data)
    k = int(uniq.shape[0])
    if metric == "precomputed":
        _check_precomputed(data)
    order, starts, counts = _sort_by_cluster(codes, k)
    block = _prepare_metric(data, order, metric, kwds)
    values = _silhouette_sorted(block, n, codes[order], starts, counts)
    out = np.empty(n)
    out[order] = values
    return out


def _check_precomputed(D: FloatArray) -> None:
    if D.shape[0] != D.shape[1]:
        raise ShapeError(
            f"X must be a square distance matrix with metric='precomputed', got shape {D.shape}"
        )
    if np.any(np.abs(np.diagonal(D)) > 100 * np.finfo(np.float64).eps):
        raise ParameterError(
            "X (metric='precomputed') has non-zero entries on its diagonal; "
            "a point's distance to itself must be 0"
        )
    if (D < 0).any():
        raise ParameterError(
            f"X (metric='precomputed') has {int((D < 0).sum())} negative distances"
        )


def _sample_indices(n: int, sample_size: Any, random_state: Any) -> IntArray:
    """scikit-learn's sample: ``check_random_state(random_state).permutation(n)[:sample_size]``."""
    if isinstance(sample_size, bool) or not isinstance(sample_size, (int, np.integer)):
        raise ParameterError(f"sample_size={sample_size!r} must be a positive integer or None")
    if sample_size < 1:
        raise ParameterError(f"sample_size={sample_size!r} must be at least 1")
    if random_state is None:
        rs: Any = np.random.mtrand._rand
    elif isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        rs = np.random.RandomState(random_state)
    elif isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        rs = random_state
    else:
        raise ParameterError(
            f"random_state={random_state!r} must be None, an int, a RandomState or a Generator"
        )
    return np.asarray(rs.permutation(n)[:sample_size], dtype=np.int64)


def silhouette_score(
    X: ArrayLike,
    labels: ArrayLike,
    *,
    metric: Any = "euclidean",
    sample_size: int | None = None,
    random_state: Any = None,
    **kwds: Any,
) -> float:
    """Mean silhouette coefficient (scikit-learn's ``silhouette_score``).

    The mean of :func:`silhouette_samples` (see there for the formula and the
    metrics). With ``sample_size`` the mean is taken over the rows
    ``check_random_state(random_state).permutation(n_samples)[:sample_size]``,
    the very sample scikit-learn draws (``random_state``: None for NumPy's
    global RandomState, an int seed, a RandomState; a ``numpy.random.Generator``
    is also accepted).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    metric : str or callable, default="euclidean"
        The distance (SciPy / scikit-learn metric names, or "precomputed").
    sample_size : int, default=None
        Estimate on a random sample of this many points.
    random_state : int or numpy Generator, default=None
        Seed of that sample.
    **kwds
        Passed to the distance function.

    Examples
    --------
    The mean of 3/4, 2/3 and 0 is 17/36:

    >>> round(silhouette_score([[0], [1], [4]], [0, 0, 1]), 6)
    0.472222
    """
    if sample_size is not None:
        data = _features(X)
        lab = labels_1d(labels, "labels")
        check_same_length(X=data, labels=lab)
        if metric == "precomputed":
            _check_precomputed(data)
        idx = _sample_indices(data.shape[0], sample_size, random_state)
        X = data[idx][:, idx] if metric == "precomputed" else data[idx]
        labels = lab[idx]
    return float(np.mean(silhouette_samples(X, labels, metric=metric, **kwds)))


# --------------------------------------------------------------------------- cluster moments
@dataclass(frozen=True, slots=True)
class ClusterMoments:
    """Per-cluster count, centroid and Σ‖x − centroid‖² (mergeable; labels sorted).

    Attributes
    ----------
    labels : AnyArray of shape (k,)
    counts : FloatArray of shape (k,)
    means : FloatArray of shape (k, n_features)
    m2 : FloatArray of shape (k,)
    """

    labels: AnyArray
    counts: FloatArray
    means: FloatArray
    m2: FloatArray


def _centre_by_cluster(
    X: FloatArray, codes: IntArray, k: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Cluster sizes, centroids, and ``X`` minus its centroid (two passes, no sort).

    Each cluster is first shifted by one of its own points, so a cluster of
    equal points has exactly zero spread and large offsets keep their digits.
    Per-cluster sums are one sparse one-hot product (a single pass over ``X``).
    """
    from scipy.sparse import csr_matrix

    n = X.shape[0]
    counts = np.bincount(codes, minlength=k).astype(np.float64)
    member = np.zeros(k, dtype=np.int64)
    member[codes] = np.arange(n)  # some point of each cluster
    shift = X[member]
    centred = np.take(shift, codes, axis=0)  # the only n × d array allocated
    np.subtract(X, centred, out=centred)
    onehot = csr_matrix((np.ones(n), (codes, np.arange(n))), shape=(k, n))
    mean_d = np.asarray(onehot @ centred) / counts[:, None]
    step = 1 << 16  # row blocks keep the gathered means in cache
    for start in range(0, n, step):
        rows = slice(start, start + step)
        centred[rows] -= mean_d[codes[rows]]
    return counts, shift + mean_d, centred


def _cluster_moments_from_codes(X: FloatArray, codes: IntArray, labels: AnyArray) -> ClusterMoments:
    """State of points coded 0..k-1 (``labels[code]`` is the label of a code)."""
    k = int(labels.shape[0])
    counts, means, centred = _centre_by_cluster(X, codes, k)
    m2 = np.bincount(codes, weights=np.einsum("ij,ij->i", centred, centred), minlength=k)
    return ClusterMoments(labels, counts, means, np.asarray(m2, dtype=np.float64))


def _cluster_moments_from_chunk(X: FloatArray, labels: AnyArray) -> ClusterMoments:
    """State of one chunk (see :func:`_centre_by_cluster` for the numerics).

    >>> s = _cluster_moments_from_chunk(np.array([[0.0], [2.0], [5.0]]), np.array([1, 1, 7]))
    >>> s.counts.tolist(), s.means.ravel().tolist(), s.m2.tolist()
    ([2.0, 1.0], [1.0, 5.0], [2.0, 0.0])
    """
    uniq, codes = np.unique(labels, return_inverse=True)
    if X.shape[0] == 0:
        return ClusterMoments(uniq, np.zeros(0), np.zeros((0, X.shape[1])), np.zeros(0))
    return _cluster_moments_from_codes(X, codes.reshape(-1), uniq)


def _merge_cluster_moments(a: ClusterMoments, b: ClusterMoments) -> ClusterMoments:
    """Union of the clusters of two states, Chan's formulas for clusters in both.

    >>> x = np.array([[0.0], [2.0], [5.0]])
    >>> s = _merge_cluster_moments(_cluster_moments_from_chunk(x[:1], np.array([1])),
    ...                            _cluster_moments_from_chunk(x[1:], np.array([1, 7])))
    >>> s.counts.tolist(), s.means.ravel().tolist(), s.m2.tolist()
    ([2.0, 1.0], [1.0, 5.0], [2.0, 0.0])
    """
    if (
        a.labels.size
        and b.labels.size
        and (a.labels.dtype.kind in "USO") != (b.labels.dtype.kind in "USO")
    ):
        raise LabelError("cannot merge cluster states whose labels mix strings and numbers")
    if a.means.shape[1] != b.means.shape[1]:
        raise ShapeError(
            f"cannot merge cluster states with {a.means.shape[1]} and {b.means.shape[1]} features"
        )
    labels = np.unique(np.concatenate([a.labels, b.labels]))
    ia, ib = np.searchsorted(labels, a.labels), np.searchsorted(labels, b.labels)
    counts = np.zeros(labels.shape[0])
    means = np.zeros((labels.shape[0], a.means.shape[1]))
    m2 = np.zeros(labels.shape[0])
    counts[ia], means[ia], m2[ia] = a.counts, a.means, a.m2
    n_a = counts[ib]
    total = n_a + b.counts
    delta = b.means - means[ib]
    means[ib] += delta * (b.counts / total)[:, None]
    m2[ib] += b.m2 + np.einsum("ij,ij->i", delta, delta) * (n_a * b.counts / total)
    counts[ib] = total
    return ClusterMoments(labels, counts, means, m2)


def _calinski_harabasz_from_moments(s: ClusterMoments) -> float:
    """Between- over within-cluster dispersion, each over its degrees of freedom."""
    n, k = float(s.counts.sum()), int(s.counts.shape[0])
    if not 1 < k < n:
        raise LabelError(
            f"labels has {k} distinct clusters for {int(n)} samples; the valid number of "
            f"clusters is 2 to n_samples - 1 ({int(n) - 1})"
        )
    ref = s.means[0]
    centre = ref + (s.counts @ (s.means - ref)) / n
    diff = s.means - centre
    extra = float(s.counts @ np.einsum("ij,ij->i", diff, diff))
    intra = float(s.m2.sum())
    if intra == 0.0:
        return 1.0
    return extra * (n - k) / (intra * (k - 1.0))


def calinski_harabasz(X: ArrayLike, labels: ArrayLike) -> float:
    r"""Calinski–Harabasz index (scikit-learn's ``calinski_harabasz_score``).

    .. math:: \mathrm{CH} = \frac{\sum_k n_k \lVert c_k - c \rVert^2 / (K - 1)}
              {\sum_k \sum_{i \in k} \lVert x_i - c_k \rVert^2 / (n - K)}

    Higher is better. 1.0 when every point equals its centroid (scikit-learn's
    convention). Needs 2 to n_samples − 1 clusters. Centroids and dispersions
    are computed in two passes per cluster (no cancellation with large offsets).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).

    Examples
    --------
    Clusters {0, 2} and {10, 12}: centroids 1 and 11, overall 6; between
    2·25 + 2·25 = 100 over K − 1 = 1, within 1 + 1 + 1 + 1 = 4 over n − K = 2:

    >>> calinski_harabasz([[0], [2], [10], [12]], ["a", "a", "b", "b"])
    50.0
    """
    data = _features(X)
    codes, uniq = _codes(labels, data.shape[0], data)
    return _calinski_harabasz_from_moments(_cluster_moments_from_codes(data, codes, uniq))


def davies_bouldin(X: ArrayLike, labels: ArrayLike) -> float:
    r"""Davies–Bouldin index (scikit-learn's ``davies_bouldin_score``).

    .. math:: \mathrm{DB} = \frac1K \sum_k \max_{l \ne k} \frac{s_k + s_l}{\lVert c_k - c_l \rVert}

    :math:`s_k` is the mean Euclidean distance of cluster k's points to its
    centroid :math:`c_k`. Lower is better. scikit-learn's conventions: 0.0 when
    every :math:`s_k` or every centroid distance is within 1e-8 of 0; two
    identical centroids are ignored (distance taken as infinite).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).

    Examples
    --------
    Clusters {0, 2} and {10, 12}: s = 1 and 1, centroids 10 apart, (1 + 1)/10:

    >>> davies_bouldin([[0], [2], [10], [12]], [0, 0, 1, 1])
    0.2
    """
    from scipy.spatial.distance import cdist

    data = _features(X)
    codes, uniq = _codes(labels, data.shape[0], data)
    k = int(uniq.shape[0])
    counts, means, centred = _centre_by_cluster(data, codes, k)
    dist = np.sqrt(np.einsum("ij,ij->i", centred, centred))
    intra = np.bincount(codes, weights=dist, minlength=k) / counts
    centroid_dist = cdist(means, means)
    if np.all(np.abs(intra) <= 1e-8) or np.all(np.abs(centroid_dist) <= 1e-8):
        return 0.0
    centroid_dist[centroid_dist == 0] = np.inf
    scores = np.max((intra[:, None] + intra) / centroid_dist, axis=1)
    return float(np.mean(scores))
