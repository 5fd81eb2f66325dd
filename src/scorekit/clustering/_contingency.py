"""The contingency kernel and the pair-counting clustering metrics.

One kernel serves every external clustering metric (this module and
``_information``): labels become integer codes, the codes become a
:class:`ContingencyState` (the non-zero cells of the contingency table as COO
arrays, never rows), and each metric is a pure function of that state.

Streaming and Dask build on three private functions:

- :func:`_contingency_from_chunk` (codes of one chunk -> state),
- :func:`_merge_contingency` (state ⊕ state; exact, counts are integers),
- :func:`_remap_contingency` (move a state into another code space).

Codes are positions in a label vocabulary. Two states can be merged only when
their codes refer to the same vocabularies. The intended accumulator keeps, for
each side, the labels in first-seen order (a new label is appended, so earlier
codes stay valid): it codes a chunk with :func:`scorekit._codes.encode`, maps the
chunk's classes to vocabulary positions (appending unseen ones), translates the
chunk codes with that map and calls :func:`_contingency_from_chunk` with the
vocabulary sizes. Merging two accumulators with different vocabularies first
moves the other's state into the union vocabulary with
:func:`_remap_contingency`. The metric values never depend on the order of the
codes; ``contingency_matrix`` wants sorted labels, which a remap through the
argsort of the vocabulary gives.

Conventions: values match scikit-learn's ``*_score`` functions, except that
empty input raises :class:`~scorekit.EmptyInputError` (scikit-learn returns
1.0), float labels are taken as names without a warning, and a column vector
of shape ``(n, 1)`` is accepted as 1-D labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._codes import encode
from .._errors import ParameterError
from .._typing import AnyArray, ArrayLike, IntArray
from .._validation import check_same_length, labels_1d, nonempty

__all__ = ["adjusted_rand_index", "contingency_matrix", "fowlkes_mallows", "rand_index"]

# Above this many cells (n_true * n_pred), or when the cells far outnumber the
# samples, the counts are found by sorting the packed keys of the samples
# (only non-zero cells) instead of a dense bincount over every cell.
_DENSE_CELLS = 10_000_000
# Pair sums are exact in int64 while n² < 2**63; beyond, Python integers are used.
_INT64_SAFE_N = 3_000_000_000


@dataclass(frozen=True, slots=True)
class ContingencyState:
    """Sufficient statistics of every external clustering metric.

    The non-zero cells of the ``n_true × n_pred`` contingency table, sorted by
    ``(row, col)``; each ``(row, col)`` pair appears once. Rows are codes of
    ``labels_true``, columns codes of ``labels_pred``; a code need not occur
    (a vocabulary may hold labels absent from the data).
    """

    n_true: int
    n_pred: int
    rows: IntArray  # int64, row code of each non-zero cell
    cols: IntArray  # int64, column code of each non-zero cell
    counts: IntArray  # int64 > 0, samples in each cell


def _aggregate(
    rows: IntArray, cols: IntArray, n_true: int, n_pred: int, weights: IntArray | None
) -> ContingencyState:
    """Sum (optionally weighted) cell occurrences into a state (the one counting kernel)."""
    n_cells = n_true * n_pred
    if n_cells >= 2**62:  # packed keys would overflow: compress the row codes first
        used, inv = np.unique(rows, return_inverse=True)
        s = _aggregate(inv.reshape(-1).astype(np.int64), cols, used.size, n_pred, weights)
        return ContingencyState(n_true, n_pred, used[s.rows].astype(np.int64), s.cols, s.counts)
    keys = rows * np.int64(n_pred) + cols
    if n_cells <= min(_DENSE_CELLS, 16 * keys.size + 65_536):
        full = np.bincount(keys, weights, minlength=n_cells)
        cells = np.flatnonzero(full)
        counts = full[cells]
    else:
        cells, inv = np.unique(keys, return_inverse=True)
        if weights is None:
            counts = np.bincount(inv.reshape(-1), minlength=cells.size)
        else:
            counts = np.bincount(inv.reshape(-1), weights, minlength=cells.size)
    # Weighted counts come back as float64; they are integers below 2**53, so exact.
    r = cells // n_pred
    return ContingencyState(
        n_true, n_pred, r, cells - r * n_pred, np.asarray(counts, dtype=np.int64)
    )


def _contingency_from_chunk(
    t_codes: IntArray,
    p_codes: IntArray,
    *,
    n_true: int | None = None,
    n_pred: int | None = None,
) -> ContingencyState:
    """Contingency state of one chunk of integer codes.

    Codes must lie in ``[0, n_true)`` and ``[0, n_pred)``; ``n_true``/``n_pred``
    are the vocabulary sizes (default: largest code + 1). Not validated.

    >>> s = _contingency_from_chunk(np.array([0, 0, 1]), np.array([1, 1, 0]))
    >>> s.rows.tolist(), s.cols.tolist(), s.counts.tolist()
    ([0, 1], [1, 0], [2, 1])
    """
    t = np.asarray(t_codes, dtype=np.int64)
    p = np.asarray(p_codes, dtype=np.int64)
    nt = int(t.max()) + 1 if n_true is None and t.size else int(n_true or 0)
    npr = int(p.max()) + 1 if n_pred is None and p.size else int(n_pred or 0)
    if t.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return ContingencyState(nt, npr, empty, empty.copy(), empty.copy())
    return _aggregate(t, p, nt, npr, None)


def _merge_contingency(a: ContingencyState, b: ContingencyState) -> ContingencyState:
    """Sum of two states whose codes refer to the same vocabularies (exact).

    >>> s = _contingency_from_chunk(np.array([0, 1]), np.array([0, 0]))
    >>> m = _merge_contingency(s, s)
    >>> m.counts.tolist()
    [2, 2]
    """
    n_true, n_pred = max(a.n_true, b.n_true), max(a.n_pred, b.n_pred)
    if a.counts.size == 0 or b.counts.size == 0:
        keep = b if a.counts.size == 0 else a
        return ContingencyState(n_true, n_pred, keep.rows, keep.cols, keep.counts)
    return _aggregate(
        np.concatenate([a.rows, b.rows]),
        np.concatenate([a.cols, b.cols]),
        n_true,
        n_pred,
        np.concatenate([a.counts, b.counts]),
    )


def _remap_contingency(
    s: ContingencyState, true_map: IntArray, pred_map: IntArray, n_true: int, n_pred: int
) -> ContingencyState:
    """Move a state into other vocabularies: row code ``r`` becomes ``true_map[r]``.

    Cells whose codes map to the same new cell are summed (exactly).

    >>> s = _contingency_from_chunk(np.array([0, 1, 1]), np.array([0, 0, 1]))
    >>> r = _remap_contingency(s, np.array([1, 0]), np.array([0, 1]), 2, 2)
    >>> r.rows.tolist(), r.cols.tolist(), r.counts.tolist()
    ([0, 0, 1], [0, 1, 0], [1, 1, 1])
    """
    rows = np.asarray(true_map, dtype=np.int64)[s.rows]
    cols = np.asarray(pred_map, dtype=np.int64)[s.cols]
    if s.counts.size == 0:
        return ContingencyState(n_true, n_pred, rows, cols, s.counts)
    return _aggregate(rows, cols, n_true, n_pred, s.counts)


def _marginals(s: ContingencyState) -> tuple[IntArray, IntArray]:
    """Row sums (class sizes) and column sums (cluster sizes), zeros included."""
    a = np.bincount(s.rows, s.counts, minlength=s.n_true).astype(np.int64)
    b = np.bincount(s.cols, s.counts, minlength=s.n_pred).astype(np.int64)
    return a, b


def _sum_squares(x: IntArray, big: bool) -> int:
    if big:
        obj = x.astype(object)
        return int(np.dot(obj, obj))
    return int(np.dot(x, x))


def _pair_sums(s: ContingencyState) -> tuple[int, int, int, int]:
    """``(N, Σ n_ij², Σ a_i², Σ b_j²)`` as exact Python integers."""
    a, b = _marginals(s)
    n = int(a.sum())
    big = n >= _INT64_SAFE_N
    return n, _sum_squares(s.counts, big), _sum_squares(a, big), _sum_squares(b, big)


def _pair_confusion(s: ContingencyState) -> tuple[int, int, int, int]:
    """Ordered-pair counts ``(tn, fp, fn, tp)`` as scikit-learn's pair_confusion_matrix."""
    n, sq, sq_a, sq_b = _pair_sums(s)
    tp = sq - n
    fp = sq_b - sq  # together in labels_pred, apart in labels_true
    fn = sq_a - sq  # together in labels_true, apart in labels_pred
    return n * n - fp - fn - sq, fp, fn, tp


def _rand_from_contingency(s: ContingencyState) -> float:
    tn, fp, fn, tp = _pair_confusion(s)
    agree, total = tn + tp, tn + fp + fn + tp
    if agree == total or total == 0:
        return 1.0
    return agree / total


def _ari_from_contingency(s: ContingencyState) -> float:
    tn, fp, fn, tp = _pair_confusion(s)
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


def _fowlkes_mallows_from_contingency(s: ContingencyState) -> float:
    n, sq, sq_a, sq_b = _pair_sums(s)
    tk, pk, qk = sq - n, sq_b - n, sq_a - n
    if tk == 0:
        return 0.0
    return float(np.sqrt(tk / pk) * np.sqrt(tk / qk))


def _clusterings(
    labels_true: ArrayLike, labels_pred: ArrayLike
) -> tuple[AnyArray, AnyArray, ContingencyState]:
    """Validate two labelings; return their sorted classes and their contingency state."""
    t = labels_1d(labels_true, "labels_true")
    p = labels_1d(labels_pred, "labels_pred")
    n = check_same_length(labels_true=t, labels_pred=p)
    nonempty(n, "labels_true")
    classes, t_codes = encode(t)
    clusters, p_codes = encode(p)
    state = _contingency_from_chunk(t_codes, p_codes, n_true=classes.size, n_pred=clusters.size)
    return classes, clusters, state


def _state_of(labels_true: ArrayLike, labels_pred: ArrayLike) -> ContingencyState:
    return _clusterings(labels_true, labels_pred)[2]


def contingency_matrix(
    labels_true: ArrayLike,
    labels_pred: ArrayLike,
    *,
    eps: float | None = None,
    sparse: bool = False,
) -> Any:
    r"""Contingency table of two labelings: rows true classes, columns predicted clusters.

    :math:`C_{ij}` is the number of samples of the ``i``-th class (in sorted
    label order) put in the ``j``-th cluster, as
    ``sklearn.metrics.cluster.contingency_matrix``.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
        Labels (ints, bools or strings).
    eps : float, default=None
        Added to every cell of the dense table (a float array is returned).
    sparse : bool, default=False
        Return a ``scipy.sparse.csr_matrix`` of int64 (``eps`` must be None).

    Returns
    -------
    ndarray of shape (n_classes, n_clusters) or scipy.sparse.csr_matrix

    Examples
    --------
    Class ``a`` has two samples in cluster 1, class ``b`` one in cluster 0:

    >>> contingency_matrix(["a", "a", "b"], [1, 1, 0]).tolist()
    [[0, 2], [1, 0]]
    """
    if eps is not None and sparse:
        raise ParameterError("eps cannot be set when sparse=True")
    if eps is not None and not (
        isinstance(eps, (int, float, np.number)) and np.isfinite(eps) and eps >= 0
    ):
        raise ParameterError(f"eps={eps!r} must be a finite number >= 0")
    s = _state_of(labels_true, labels_pred)
    if sparse:
        from scipy import sparse as sp

        return sp.csr_matrix((s.counts, (s.rows, s.cols)), shape=(s.n_true, s.n_pred))
    out = np.zeros((s.n_true, s.n_pred), dtype=np.int64)
    out[s.rows, s.cols] = s.counts
    return out + eps if eps is not None else out


def rand_index(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    r"""Rand index: the share of sample pairs on which the two labelings agree.

    .. math:: \mathrm{RI} = \frac{\mathrm{TP} + \mathrm{TN}}{\binom{N}{2}}

    A pair agrees when both labelings put it together (TP) or both apart (TN).
    Counted exactly in integers from the contingency table
    (:math:`\mathrm{TP} = \sum_{ij}\binom{n_{ij}}{2}`), never pair by pair.
    One sample gives 1.0, as ``sklearn.metrics.rand_score``.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).

    Examples
    --------
    Of the 3 pairs of ``[0, 0, 1]`` vs ``[0, 1, 1]`` only (1st, 3rd) agrees (apart in both):

    >>> round(rand_index([0, 0, 1], [0, 1, 1]), 4)
    0.3333
    """
    return _rand_from_contingency(_state_of(labels_true, labels_pred))


def adjusted_rand_index(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    r"""Rand index adjusted for chance (Hubert & Arabie), as ``adjusted_rand_score``.

    .. math:: \mathrm{ARI} = \frac{2(\mathrm{TP}\,\mathrm{TN} - \mathrm{FN}\,\mathrm{FP})}
              {(\mathrm{TP}+\mathrm{FN})(\mathrm{FN}+\mathrm{TN}) + (\mathrm{TP}+\mathrm{FP})(\mathrm{FP}+\mathrm{TN})}

    with the pair counts of :func:`rand_index`, in exact integer arithmetic.
    1.0 for identical partitions (up to label names), about 0 for random ones,
    and 1.0 when no pair is split by one labeling and joined by the other
    (e.g. both put every sample in its own cluster).

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).

    Examples
    --------
    >>> adjusted_rand_index([0, 0, 1, 1], ["b", "b", "a", "a"])
    1.0
    >>> adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1])
    -0.5
    """
    return _ari_from_contingency(_state_of(labels_true, labels_pred))


def fowlkes_mallows(labels_true: ArrayLike, labels_pred: ArrayLike) -> float:
    r"""Fowlkes–Mallows index: geometric mean of pair precision and pair recall.

    .. math:: \mathrm{FMI} = \frac{\mathrm{TP}}{\sqrt{(\mathrm{TP}+\mathrm{FP})(\mathrm{TP}+\mathrm{FN})}}

    0.0 when no pair is together in both labelings, as ``fowlkes_mallows_score``.

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        The true classes (any hashable labels).
    labels_pred : array-like of shape (n_samples,)
        The cluster labels (any hashable labels).

    Examples
    --------
    Pairs together: true {(1,2)}, predicted {(1,2), (1,3), (2,3)}; TP = 1:

    >>> round(fowlkes_mallows([0, 0, 1], [0, 0, 0]), 4)  # 1 / sqrt(3 * 1)
    0.5774
    """
    return _fowlkes_mallows_from_contingency(_state_of(labels_true, labels_pred))
