"""Multilabel ranking metrics (coverage error, LRAP, label ranking loss) on one row-wise sort.

The kernel :func:`_row_ranks` sorts every row of the score matrix at once
(``argsort`` along axis 1) and returns, for each entry, how many labels of its
row score at least as high / strictly higher, and how many of those are
relevant. LRAP, the ranking loss and the ``average="samples"`` AUC and AP of
:mod:`._curves` are sums of these counts; no Python loop over rows. Each metric
is a weighted mean of per-row values, so the streaming state is the pair
(Σ w·value, Σ w).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._errors import ShapeError
from .._typing import ArrayLike, BoolArray, FloatArray, IntArray
from .._validation import (
    as_array,
    check_weight_total,
    checked_rows,
    scores_2d,
)

__all__ = ["coverage_error", "label_ranking_average_precision", "label_ranking_loss"]


@dataclass(frozen=True, slots=True)
class RowRanks:
    """Per-entry counts within each row, entries in decreasing score order per row.

    ``y`` relevance in that order; ``ge`` / ``gt`` labels of the row scoring
    ``>=`` / ``>`` the entry; ``pos_ge`` / ``pos_gt`` the relevant ones among them.
    """

    y: BoolArray
    ge: IntArray
    gt: IntArray
    pos_ge: IntArray
    pos_gt: IntArray


def _row_ranks(y: BoolArray, s: FloatArray) -> RowRanks:
    """Rank counts of every entry within its row, ties grouped, from one row-wise sort.

    >>> r = _row_ranks(np.array([[True, False, True]]), np.array([[0.5, 0.5, 0.9]]))
    >>> r.ge.tolist(), r.gt.tolist(), r.pos_ge.tolist()
    ([[1, 3, 3]], [[0, 1, 1]], [[1, 2, 2]])
    """
    order = np.argsort(-s, axis=1)
    s_desc = np.take_along_axis(s, order, axis=1)
    y_desc = np.take_along_axis(y, order, axis=1)
    n_labels = s.shape[1]
    idx = np.arange(n_labels)
    new = np.ones(s.shape, dtype=bool)
    new[:, 1:] = s_desc[:, 1:] != s_desc[:, :-1]
    last = np.ones(s.shape, dtype=bool)
    last[:, :-1] = new[:, 1:]
    start = np.maximum.accumulate(np.where(new, idx, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, idx, n_labels - 1)[:, ::-1], axis=1)[:, ::-1]
    cum_pos = np.cumsum(y_desc, axis=1, dtype=np.int64)
    pos_ge = np.take_along_axis(cum_pos, end, axis=1)
    before = np.take_along_axis(cum_pos, np.maximum(start - 1, 0), axis=1)
    pos_gt = np.where(start > 0, before, 0).astype(np.int64)
    return RowRanks(y_desc, end + 1, start, pos_ge, pos_gt)


def _multilabel_inputs(
    y_true: ArrayLike, y_score: ArrayLike, sample_weight: ArrayLike | None, nan_policy: str
) -> tuple[BoolArray, FloatArray, FloatArray | None]:
    y = as_array(y_true, "y_true")
    if y.ndim != 2:
        raise ShapeError(f"y_true must be a 2-D label indicator matrix, got shape {y.shape}")
    if y.dtype.kind not in "biuf" or not np.isin(y, (0, 1)).all():
        raise ShapeError("y_true must be a 0/1 (or bool) label indicator matrix")
    s = scores_2d(y_score, "y_score")
    if s.shape != y.shape:
        raise ShapeError(f"y_score has shape {s.shape} but y_true has shape {y.shape}")
    y, s, w = checked_rows(nan_policy, sample_weight, ("y_score",), y_true=y, y_score=s)
    check_weight_total(w)
    return np.asarray(y == 1), s, w


def _weighted_mean(rows: FloatArray, w: FloatArray | None) -> float:
    return float(np.average(rows, weights=w))


def coverage_error(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Coverage error: how far down each row's ranking one must go to cover every true label.

    Per row, the number of labels scoring at least the lowest score of a true
    label (ties counted in full, the pessimistic rank); 0 for a row without true
    labels; the mean over rows (weighted by ``sample_weight``). As
    scikit-learn's ``coverage_error``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Row 1: true label scored .75, two labels score >= .75 -> 2. Row 2: true
    label scored .2, all three score >= .2 -> 3. Mean 2.5.

    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.2]])
    2.5
    """
    y, s, w = _multilabel_inputs(y_true, y_score, sample_weight, nan_policy)
    lowest_true = np.where(y, s, np.inf).min(axis=1)
    return _weighted_mean((s >= lowest_true[:, None]).sum(axis=1).astype(np.float64), w)


def label_ranking_average_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Label ranking average precision (LRAP), scikit-learn's ``label_ranking_average_precision_score``.

    .. math:: \mathrm{LRAP} = \frac{1}{n} \sum_i \frac{1}{|Y_i|} \sum_{j \in Y_i}
              \frac{|\{k \in Y_i : s_{ik} \ge s_{ij}\}|}{|\{k : s_{ik} \ge s_{ij}\}|}

    Ties count pessimistically (rank = labels scoring >= the entry). A row
    whose labels are all true or all false scores 1. Weighted by ``sample_weight``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Row 1: the true label ranks 2nd -> 1/2. Row 2: ranks 3rd -> 1/3. Mean 5/12.

    >>> round(label_ranking_average_precision([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]), 4)
    0.4167
    """
    y, s, w = _multilabel_inputs(y_true, y_score, sample_weight, nan_policy)
    r = _row_ranks(y, s)
    n_pos = y.sum(axis=1)
    trivial = (n_pos == 0) | (n_pos == y.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        rows = np.where(r.y, r.pos_ge / r.ge, 0.0).sum(axis=1) / n_pos
    return _weighted_mean(np.where(trivial, 1.0, rows), w)


def label_ranking_loss(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Label ranking loss: per row, the share of (true, false) label pairs not ordered correctly.

    A pair counts as wrong when the false label scores at least as high as the
    true one (ties count in full, as scikit-learn's ``label_ranking_loss``);
    rows whose labels are all true or all false lose 0. Weighted mean over rows.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Row 1: true .75 below false 1 -> 1 of 2 pairs wrong. Row 2: true .1 below
    both -> 2 of 2. Mean (1/2 + 1) / 2 = 0.75.

    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    y, s, w = _multilabel_inputs(y_true, y_score, sample_weight, nan_policy)
    r = _row_ranks(y, s)
    n_pos = y.sum(axis=1)
    n_neg = y.shape[1] - n_pos
    wrong = np.where(r.y, r.ge - r.pos_ge, 0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rows = wrong / (n_pos * n_neg)
    return _weighted_mean(np.where((n_pos == 0) | (n_neg == 0), 0.0, rows), w)
