"""Exact per-score weight sums of a curve: order-free, so streamed == one-shot bit for bit.

A curve's ``pos``/``neg`` floats must not depend on how the rows were chunked,
ordered or merged. A float is the exact sum when it holds one row's weight, or
sums of whole weights below :math:`2^{53}` (unit weights, counts). Any other
entry keeps its exact sum (:class:`ExactPart`, the per-segment exact sums of
:mod:`scorekit._exactsum`) and its float is that sum rounded once. Only such
entries are tracked: for continuous scores (few ties) the part stays tiny.

- :func:`exact_runs` — rows sorted into runs of equal score -> the exact part of
  the runs of two rows or more (when the weights are not whole);
- :func:`exact_bins` — rows labelled with a bin (decimal codes) -> the exact
  part of every bin;
- :func:`merge_exact` — the exact part of the merge of two curves, entries
  summed where both hold a score (a sum of two floats is checked with an
  error-free transformation: only inexact ones are tracked).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exactsum import (
    SegmentSums,
    bin_sums,
    decode_segment_sums,
    encode_segment_sums,
    merge_keyed,
    round_sums,
)
from .._typing import BoolArray, FloatArray, IntArray

__all__ = [
    "ExactPart",
    "decode_exact",
    "encode_exact",
    "exact_bins",
    "exact_runs",
    "exact_runs_split",
    "merge_exact",
    "whole_weights",
]


@dataclass(frozen=True, slots=True)
class ExactPart:
    """Exact class weights of the curve entries ``index`` (increasing).

    ``sums`` has two segments per entry: ``2 i`` the negative and ``2 i + 1``
    the positive weight of entry ``index[i]``.
    """

    index: IntArray
    sums: SegmentSums

    def rounded(self) -> tuple[FloatArray, FloatArray]:
        """``(pos, neg)`` of the tracked entries, each rounded once."""
        r = round_sums(self.sums)
        return r[1::2], r[0::2]


def whole_weights(w: FloatArray) -> bool:
    """Whether float sums of ``w`` are exact in any order: whole numbers, total below 2**53."""
    for start in range(0, w.size, 1 << 16):  # blocks: fractional weights stop at the first
        block = w[start : start + (1 << 16)]
        if not np.array_equal(block, np.rint(block)):
            return False
    return bool(float(np.sum(w)) < 2.0**53)


def _take(s: SegmentSums, rows: IntArray) -> SegmentSums:
    return SegmentSums(s.low, s.limbs[rows], s.special[rows])


def exact_runs(
    y: BoolArray, w: FloatArray, starts: IntArray, n: int
) -> tuple[IntArray, FloatArray, FloatArray, ExactPart] | None:
    """Exact sums of the runs of two rows or more (rows sorted, runs beginning at ``starts``).

    Returns ``(runs, pos, neg, part)``: the indices of those runs, their
    positive and negative weights rounded once, and their :class:`ExactPart`;
    ``None`` when every run is a single row.
    """
    return _exact_runs(starts, n, lambda rows: (w[rows], y[rows]))


def exact_runs_split(
    pos: FloatArray, neg: FloatArray, starts: IntArray, n: int
) -> tuple[IntArray, FloatArray, FloatArray, ExactPart] | None:
    """:func:`exact_runs` of rows given as two columns: a row's weight (``> 0``) in its class's.

    A row is positive when ``pos > 0``; its weight is ``pos + neg`` (the other is 0: exact).
    """

    def rows_of(rows: BoolArray) -> tuple[FloatArray, BoolArray]:
        weight = pos[rows]
        label = weight > 0
        weight += neg[rows]
        return weight, label

    return _exact_runs(starts, n, rows_of)


def _exact_runs(
    starts: IntArray, n: int, rows_of: Callable[[BoolArray], tuple[FloatArray, BoolArray]]
) -> tuple[IntArray, FloatArray, FloatArray, ExactPart] | None:
    """:func:`exact_runs`; ``rows_of(mask)`` gives the weights and labels of the masked rows."""
    sizes = np.diff(np.append(starts, n))
    multi = sizes >= 2
    runs = np.flatnonzero(multi)
    if runs.size == 0:
        return None
    weight, label = rows_of(np.repeat(multi, sizes))
    cell = np.repeat(np.arange(runs.size) * 2, sizes[runs]) + label
    sums = bin_sums(weight, cell, 2 * runs.size)
    part = ExactPart(runs, sums)
    pos, neg = part.rounded()
    return runs, pos, neg, part


def exact_bins(cells: IntArray, w: FloatArray, n_codes: int) -> tuple[IntArray, ExactPart]:
    """Exact sums per cell ``2 code + label`` (codes below ``n_codes``), kept for the codes seen.

    Returns the codes with weight, highest first (the curve's entry order), and
    the :class:`ExactPart` of those entries.
    """
    sums = bin_sums(w, cells, 2 * n_codes)
    r = round_sums(sums)
    seen = np.flatnonzero((r[0::2] != 0) | (r[1::2] != 0))[::-1]
    rows = np.stack([2 * seen, 2 * seen + 1], axis=1).reshape(-1)
    return seen, ExactPart(np.arange(seen.size), _take(sums, rows))


def _two_sum_exact(x: FloatArray, y: FloatArray) -> BoolArray:
    """Whether ``x + y`` is exact in float64 (Knuth's TwoSum error term is zero)."""
    s = x + y
    bv = s - x
    err = (x - (s - bv)) + (y - bv)
    out: BoolArray = (err == 0) & np.isfinite(s)
    return out


def _side(
    part: ExactPart | None, where: IntArray, pos: FloatArray, neg: FloatArray, need: IntArray
) -> tuple[IntArray, SegmentSums]:
    """One curve's exact sums for its entries ``need``, keyed ``2 · merged position + label``.

    ``where[i]`` is the merged position of entry ``i``; entries not in ``part``
    are exact floats and enter as one-row sums.
    """
    tracked = np.zeros(0, np.int64) if part is None else part.index
    plain = np.setdiff1d(need, tracked, assume_unique=True)
    k = plain.size
    values = np.stack([neg[plain], pos[plain]], axis=1).reshape(-1)
    keys = np.stack([2 * where[plain], 2 * where[plain] + 1], axis=1).reshape(-1)
    sums = bin_sums(values, np.arange(2 * k), 2 * k)
    if part is None or tracked.size == 0:
        return keys, sums
    t_keys = np.stack([2 * where[tracked], 2 * where[tracked] + 1], axis=1).reshape(-1)
    if k == 0:
        return t_keys, part.sums
    return merge_keyed(t_keys, part.sums, keys, sums)


def merge_exact(
    a: Any, b: Any, where_a: IntArray, where_b: IntArray, shared_b: BoolArray, size: int
) -> tuple[IntArray, FloatArray, FloatArray, ExactPart] | None:
    """The exact part of the merge of curves ``a`` and ``b`` (``CurveState`` with ``exact``).

    ``where_a``/``where_b``: merged position of each entry; ``shared_b``: the
    entries of ``b`` whose score ``a`` holds too. Returns ``(index, pos, neg,
    part)`` for the merged entries to overwrite, or ``None`` when every merged
    float is exact.
    """
    a_at = np.full(size, -1, np.int64)
    a_at[where_a] = np.arange(where_a.size)
    sb = np.flatnonzero(shared_b)
    sa = a_at[where_b[sb]]
    ok = _two_sum_exact(a.pos[sa], b.pos[sb]) & _two_sum_exact(a.neg[sa], b.neg[sb])
    if a.exact is not None:
        ok &= ~np.isin(sa, a.exact.index)
    if b.exact is not None:
        ok &= ~np.isin(sb, b.exact.index)
    tracked = np.zeros(size, dtype=bool)
    tracked[where_b[sb[~ok]]] = True
    for part, where in ((a.exact, where_a), (b.exact, where_b)):
        if part is not None:
            tracked[where[part.index]] = True
    index = np.flatnonzero(tracked)
    if index.size == 0:
        return None
    need_a = np.flatnonzero(tracked[where_a])
    need_b = np.flatnonzero(tracked[where_b])
    ka, ea = _side(a.exact, where_a, a.pos, a.neg, need_a)
    kb, eb = _side(b.exact, where_b, b.pos, b.neg, need_b)
    if need_a.size == 0:
        keys, sums = kb, eb
    elif need_b.size == 0:
        keys, sums = ka, ea
    else:
        keys, sums = merge_keyed(ka, ea, kb, eb)
    order = np.argsort(keys, kind="stable")
    sums = _take(sums, order)
    part = ExactPart(index, sums)
    pos, neg = part.rounded()
    return index, pos, neg, part


def encode_exact(part: ExactPart | None, encode_array: Any) -> dict[str, Any] | None:
    """JSON-safe form of an exact part (``encode_array`` encodes the index)."""
    if part is None:
        return None
    return {"index": encode_array(part.index), "sums": encode_segment_sums(part.sums)}


def decode_exact(data: dict[str, Any] | None, decode_array: Any) -> ExactPart | None:
    """The exact part stored by :func:`encode_exact`."""
    if data is None:
        return None
    return ExactPart(
        np.asarray(decode_array(data["index"]), np.int64), decode_segment_sums(data["sums"])
    )
