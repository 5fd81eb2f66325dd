"""Weighted confusion counts as exact sums: one-shot, streamed and merged alike.

With sample weights, each cell ``(true, pred)`` of the confusion matrix is an
exact sum (:class:`~scorekit._limbs.SegmentSums`, one segment per cell, row-major):
whatever the order, chunking or merge tree of the rows, it is the same integer on
the limb grid, and every float read from it is rounded once, correctly. The
per-class sums (true positives, predicted and true totals, the total weight) are
exact sums of cells, rounded once too, so a streamed :class:`ConfusionMatrix`
equals the one-shot functions bit for bit. Integer weights (int, uint or bool
dtypes, beyond ``2**53`` too) are summed as integers and give an int64 matrix,
exactly, or a :class:`~scorekit.ParameterError` when a cell passes ``2**63 − 1``.
"""

from __future__ import annotations

import numpy as np

from .._errors import ParameterError
from .._limbs import (
    SegmentSums,
    add_segment_sums,
    bin_sums,
    int_bin_sums,
    place_segments,
    reduce_segments,
    round_sums,
    take_segments,
    to_int64,
)
from .._typing import AnyArray, FloatArray, IntArray

__all__: list[str] = []


def weighted_cells(
    key: IntArray, n_cells: int, weights: FloatArray, int_weights: AnyArray | None
) -> SegmentSums:
    """Exact weight per cell ``key`` (``true * k + pred``); integer weights as integers."""
    if int_weights is not None:
        return int_bin_sums(int_weights, key, n_cells)
    return bin_sums(weights, key, n_cells)


def counted_cells(counts: IntArray) -> SegmentSums:
    """The exact cells of a matrix of row counts (weight 1 each)."""
    flat = np.ascontiguousarray(counts, dtype=np.int64).reshape(-1)
    return int_bin_sums(flat, np.arange(flat.size), flat.size)


def select_cells(cells: SegmentSums, k: int, keep: IntArray) -> SegmentSums:
    """The cells of the classes at positions ``keep`` (rows and columns)."""
    return take_segments(cells, (keep[:, None] * k + keep[None, :]).reshape(-1))


def spread_cells(cells: SegmentSums, positions: IntArray, k: int) -> SegmentSums:
    """A ``k × k`` cell table with ``cells`` (classes at ``positions``) in place."""
    index = (positions[:, None] * k + positions[None, :]).reshape(-1)
    return place_segments(cells, index, k * k)


def merge_cells(
    a: SegmentSums, pos_a: IntArray, b: SegmentSums, pos_b: IntArray, k: int
) -> SegmentSums:
    """Exact sum of two cell tables over ``k`` merged classes (their positions given)."""
    return add_segment_sums(spread_cells(a, pos_a, k), spread_cells(b, pos_b, k))


def rounded_matrix(cells: SegmentSums, k: int) -> FloatArray:
    """Every cell rounded once to float64, as a ``k × k`` matrix."""
    out: FloatArray = round_sums(cells).reshape(k, k)
    return out


def int_matrix(cells: SegmentSums, k: int, name: str = "sample_weight") -> IntArray:
    """The cells as an exact int64 matrix (integer weights); raise past ``2**63 − 1``."""
    values = to_int64(cells)
    if values is None:
        raise ParameterError(
            f"{name}: a confusion-matrix cell sums to more than 2**63 - 1, beyond int64; "
            "pass the weights as floats for a float64 matrix"
        )
    return values.reshape(k, k)


def class_sums(cells: SegmentSums, k: int) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Exact per-class ``tp`` (diagonal), ``pred`` (columns), ``true`` (rows) and the total.

    Each is the exact sum of its cells, rounded once.
    """
    tp = round_sums(take_segments(cells, np.arange(k) * (k + 1)))
    pred = round_sums(reduce_segments(cells, (k, k), 0))
    true = round_sums(reduce_segments(cells, (k, k), 1))
    total = float(round_sums(reduce_segments(cells, (k * k,), 0))[0]) if k else 0.0
    return tp, pred, true, total


def class_sums_of_rows(
    true: IntArray, pred: IntArray, k: int, weights: FloatArray, int_weights: AnyArray | None
) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """:func:`class_sums` without the ``k × k`` table (many classes): per-class exact sums."""
    hit = true == pred

    def sums(codes: IntArray, rows: AnyArray, n: int) -> FloatArray:
        raw = None if int_weights is None else int_weights[rows]
        return round_sums(weighted_cells(codes, n, weights[rows], raw))

    every = np.arange(true.size)
    total = sums(np.zeros(true.size, np.int64), every, 1)
    return sums(true[hit], hit, k), sums(pred, every, k), sums(true, every, k), float(total[0])
