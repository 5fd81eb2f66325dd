"""Pair confusion, best-matching accuracy and the Dunn index.

``pair_confusion_matrix`` and ``cluster_accuracy`` read the contingency state
(so :class:`scorekit.stream.Contingency` computes them from a stream);
``dunn_index`` reads the points.
"""

from __future__ import annotations

import numpy as np

from .._errors import ParameterError
from .._typing import AnyArray, ArrayLike
from ._contingency import ContingencyState, _pair_confusion, _state_of
from ._internal import _codes, _features

__all__ = ["cluster_accuracy", "dunn_index", "pair_confusion_matrix"]


def pair_confusion_from_contingency(s: ContingencyState) -> AnyArray:
    """``[[tn, fp], [fn, tp]]`` of ordered pairs (state -> value)."""
    tn, fp, fn, tp = _pair_confusion(s)
    values = [tn, fp, fn, tp]
    big = max(abs(v) for v in values) >= 2**63
    return np.array(values, dtype=object if big else np.int64).reshape(2, 2)


def cluster_accuracy_from_contingency(s: ContingencyState) -> float:
    """Share of points on the diagonal of the best one-to-one class/cluster matching."""
    from scipy.optimize import linear_sum_assignment

    table = np.zeros((s.n_true, s.n_pred), dtype=np.int64)
    table[s.rows, s.cols] = s.counts
    rows, cols = linear_sum_assignment(table, maximize=True)
    total = int(s.counts.sum())
    return float(table[rows, cols].sum() / total) if total else float("nan")


def pair_confusion_matrix(labels_true: ArrayLike, labels_pred: ArrayLike) -> AnyArray:
    r"""Pair confusion matrix: ordered pairs of points grouped alike or apart, as scikit-learn.

    ``C[1, 1]`` counts the ordered pairs ``(i, j), i ≠ j`` in one class and one
    cluster, ``C[0, 1]`` those in one cluster but two classes, ``C[1, 0]`` one
    class but two clusters, ``C[0, 0]`` neither; the entries sum to n(n − 1).
    From the contingency table n_ij with class sizes a_i and cluster sizes b_j:

    .. math:: C_{11} = \sum n_{ij}^2 - n,\quad C_{01} = \sum_j b_j^2 - \sum n_{ij}^2,\quad
              C_{10} = \sum_i a_i^2 - \sum n_{ij}^2

    Exact in integers at any size (Python integers past int64).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
        Two labelings of the same points (any hashable labels).

    Returns
    -------
    ndarray of shape (2, 2)
        ``[[tn, fp], [fn, tp]]``, int64 (object for counts past int64).

    Examples
    --------
    >>> pair_confusion_matrix([0, 0, 1, 1], [0, 0, 1, 2]).tolist()
    [[8, 0], [2, 2]]
    """
    return pair_confusion_from_contingency(_state_of(labels_true, labels_pred))


def cluster_accuracy(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    r"""Clustering accuracy: accuracy under the best one-to-one matching of clusters to classes.

    .. math:: \mathrm{ACC} = \max_{m} \frac1n \sum_i [\,y_i = m(c_i)\,]

    over the one-to-one maps m from clusters to classes (the Hungarian algorithm
    on the contingency table, :func:`scipy.optimize.linear_sum_assignment`); with
    more clusters than classes the unmatched clusters count as wrong, as
    torchmetrics' ``cluster_accuracy``.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
        True classes and cluster labels (any hashable labels).

    Returns
    -------
    float
        In [0, 1]; 1.0 when the clustering is the classes under other names.

    Examples
    --------
    >>> cluster_accuracy([0, 0, 1, 1, 2], ["b", "b", "a", "a", "a"])
    0.8
    """
    return cluster_accuracy_from_contingency(_state_of(labels_true, labels_pred))


def dunn_index(X: ArrayLike, labels: ArrayLike, *, p: float = 2.0) -> float:
    r"""Dunn index (centroid form): the closest pair of centroids over the widest cluster.

    .. math:: D = \frac{\min_{k < l} \lVert \mu_k - \mu_l \rVert_p}
                       {\max_k \max_{i \in k} \lVert x_i - \mu_k \rVert_p}

    with :math:`\mu_k` the mean of cluster k, as torchmetrics' ``dunn_index``
    (higher is better). Needs at least two clusters; 0/0 (every point on its
    centroid and two equal centroids) gives ``nan``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points.
    labels : array-like of shape (n_samples,)
        The cluster of each point.
    p : float, default=2.0
        The norm (``p >= 1``, ``inf`` allowed).

    Returns
    -------
    float

    Examples
    --------
    Centroids (0.5, 0) and (0.5, 1) are 1 apart; the widest cluster reaches 0.5:

    >>> dunn_index([[0, 0], [0.5, 0], [1, 0], [0.5, 1]], [0, 0, 0, 1])
    2.0
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not p >= 1:
        raise ParameterError(f"p must be a number >= 1 (the norm); got {p!r}")
    x = _features(X)
    codes, classes = _codes(labels, x.shape[0], x)
    k = int(classes.size)
    counts = np.bincount(codes, minlength=k).astype(np.float64)
    sums = np.column_stack([np.bincount(codes, x[:, f], minlength=k) for f in range(x.shape[1])])
    centroids = sums / counts[:, None]
    spread = np.linalg.norm(x - centroids[codes], ord=p, axis=1)
    widest = float(spread.max())
    i, j = np.triu_indices(k, 1)
    closest = float(np.linalg.norm(centroids[i] - centroids[j], ord=p, axis=1).min())
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(closest) / np.float64(widest))
