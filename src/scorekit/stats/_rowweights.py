r"""Poisson(1) row weights in score order: every metric of a block of resamples from one pass over the rows.

``weights="poisson"`` of :func:`scorekit.stats.bootstrap_metrics` gives each
row of data a multiplicity :math:`w \sim \mathrm{Poisson}(1)` in each
resample, independently (the Poisson bootstrap: the resample size varies
around n). The rows are put in (score, label) order once (counted from their
cells: no sort); a block of B resamples is then
read chunk by chunk of rows in that order, and nothing per row and resample is
wider than one byte or an ``int32``:

- the weights are ``uint8``, looked up in :data:`POISSON_TABLE` (65,536
  entries) at 16 random bits each: :math:`w = \min\{k : u < \mathrm{round}(2^{16} F(k))\}`,
  F the Poisson(1) distribution function, i.e. the inverse distribution
  function at resolution :math:`2^{-16}` (each probability within
  :math:`2^{-16}` of Poisson(1)'s; :math:`w \le 8`);
- one ``int32`` cumulative sum of the chunk's weights, carried across chunks,
  read at the column boundaries only: the start and end of every distinct
  score that a positive row holds, and the score cut. Between two such
  boundaries lie negatives only, and every curve and count kernel reads them
  as one column (:class:`~scorekit.stats._vectorised.CellLayout`'s merged
  columns): the block becomes the ``(B, 2, columns)`` tables of
  :mod:`~scorekit.stats._vectorised`, whose kernels compute every metric;
- the positive rows' own weights (a few percent of the rows) give the
  positive weight below each boundary;
- the summed log loss and squared error of each resample: one matrix product
  of the chunk's weights with the rows' losses.

Seed contract: with ``rng = numpy.random.default_rng(seed)``, the resamples
come in blocks of :data:`ROW_BLOCK` (the last one smaller); block j draws with
the generator ``rng.spawn(number of blocks)[j]`` (so the values do not depend
on the threads). Rows are taken in (score, label) order, ties by row index
(``numpy.lexsort((labels, scores))``), chunk after chunk of :data:`ROW_CHUNK`
(the last one smaller); for a chunk of r rows and a block of B resamples the
generator's ``bit_generator.random_raw(ceil(B r / 4))`` are read as
little-endian 16-bit words, the first B r of them in row-major (B, r) order,
and each word u gives that resample and row the weight ``POISSON_TABLE[u]``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from .._typing import FloatArray, IntArray
from ..classification._proba import _log_clipped
from ._vectorised import BlockTables

__all__ = [
    "POISSON_TABLE",
    "ROW_BLOCK",
    "ROW_CHUNK",
    "RowLayout",
    "poisson_chunks",
    "poisson_weights",
]

#: Resamples per block (each block its own generator).
ROW_BLOCK = 40
#: Rows per chunk: a block's chunk of weights, its cumulative sums and random words stay in cache.
ROW_CHUNK = 4096
#: Resamples whose tables the kernels read at once.
_KERNEL_BLOCK = 2


def _table() -> npt.NDArray[np.uint8]:
    cdf, term, edges = 0.0, math.exp(-1.0), []
    for k in range(64):
        cdf += term
        term /= k + 1
        edge = round(cdf * 65536)
        edges.append(edge)
        if edge >= 65536:
            break
    # w = min{k : u < edge_k}
    table = np.searchsorted(np.array(edges), np.arange(65536), side="right")
    return table.astype(np.uint8)


#: The weight of each 16-bit random word: Poisson(1) by inverse distribution function.
POISSON_TABLE = _table()


def poisson_chunks(
    rng: np.random.Generator, size: int, n: int
) -> Iterator[tuple[int, int, npt.NDArray[np.uint8]]]:
    """``(start, stop, weights)`` of each chunk of rows in score order: ``(size, stop - start)`` ``uint8``.

    The weights of a chunk are overwritten by the next one (one buffer, in cache).
    """
    bits = rng.bit_generator
    buffer = np.empty(size * min(ROW_CHUNK, n), dtype=np.uint8)
    for start in range(0, n, ROW_CHUNK):
        r = min(ROW_CHUNK, n - start)
        raw = bits.random_raw(-(-size * r // 4)).astype("<u8", copy=False)
        words = raw.view("<u2")[: size * r].reshape(size, r)
        w = buffer[: size * r].reshape(size, r)
        yield start, start + r, np.take(POISSON_TABLE, words, out=w)


class RowLayout:
    """The rows in (score, label) order and where the merged columns begin (built once per data).

    ``cells``, ``groups``, ``scores`` are the rows' cell codes ``y G + g`` (g the
    rank of the row's score among the G distinct ``scores``): the sorted rows
    are counted from them (no sort). ``bounds`` are the sorted row positions
    where a column begins (0 first, n last): the start and the end of every
    distinct score held by a positive, and the score cut ``split`` (a rank of
    the distinct scores). ``split_column`` is the column the cut begins.
    """

    def __init__(self, cells: IntArray, groups: int, scores: FloatArray, split: int | None) -> None:
        self.n = n = int(cells.size)
        self._cells, self._groups = cells, groups
        count = np.bincount(cells, minlength=2 * groups)
        per = np.empty(2 * groups, dtype=np.int64)  # (g, label) order
        per[0::2], per[1::2] = count[:groups], count[groups:]
        held = np.flatnonzero(per)  # the nonempty (score, label) cells, in row order
        self._sizes, self._g, label = per[held], held >> 1, held & 1
        self.positive_rows = np.flatnonzero(np.repeat(label.astype(bool), self._sizes))
        starts = np.zeros(groups + 1, dtype=np.int64)  # the sorted row where each score begins
        np.cumsum(count[:groups] + count[groups:], out=starts[1:])
        with_pos = self._g[label == 1]  # distinct scores a positive holds
        marks = [np.array([0, n]), starts[with_pos], starts[with_pos + 1]]
        cut = None if split is None else int(starts[min(split, groups)])
        if cut is not None:
            marks.append(np.array([cut]))
        self.bounds = np.unique(np.concatenate(marks))
        self.columns = int(self.bounds.size) - 1
        self.split_column = None if cut is None else int(np.searchsorted(self.bounds, cut))
        # the positives below each boundary: where the positives' cumulative weight is read
        self._pos_below = np.searchsorted(self.positive_rows, self.bounds)
        self._label, self._scores = label, scores

    @property
    def order(self) -> IntArray:
        """The rows sorted by (score, label), ties by row index: ``numpy.lexsort((y, scores))``."""
        g = self._cells % self._groups
        out: IntArray = np.argsort(2 * g + (self._cells >= self._groups), kind="stable")
        return out

    def losses(self) -> FloatArray:
        """(n, 2): each row's log loss and squared error, in row order (scores in [0, 1])."""
        s, pos = self._scores[self._g], self._label == 1
        per_cell = np.empty((s.size, 2))
        # the losses of _unit_losses, each cell's own label only: -log(clip(s or 1 - s)), (1 - s or s)²
        np.negative(_log_clipped(np.where(pos, s, 1 - s)), out=per_cell[:, 0])
        np.square(np.where(pos, 1 - s, s), out=per_cell[:, 1])
        return np.repeat(per_cell, self._sizes, axis=0)

    def point(self, losses: FloatArray | None) -> BlockTables:
        """The ``(1, 2, columns)`` table of the data itself (every weight 1)."""
        pos = np.diff(self._pos_below)
        tables = np.stack([np.diff(self.bounds) - pos, pos])[None]
        summed = None if losses is None else losses.sum(axis=0)[None]
        return BlockTables(tables, None, self.split_column, summed)

    def block(
        self, rng: np.random.Generator, size: int, losses: FloatArray | None
    ) -> Iterator[BlockTables]:
        """The ``(b, 2, columns)`` tables of one block of Poisson resamples drawn by ``rng``, a few resamples at a time."""
        cuts = self.bounds[1:] - 1  # the last row of each column: the cumulative sum read there
        # sums of weights up to 8 each: int32 below 2**31 (half the bytes of the block's sums)
        kind = np.int32 if 8 * self.n < 2**31 else np.int64
        total = np.zeros((size, self.bounds.size), dtype=kind)
        pos_w = np.empty((size, self.positive_rows.size), dtype=np.uint8)
        summed = np.zeros((size, 2)) if losses is not None else None
        carry = np.zeros((size, 1), dtype=kind)
        cum = np.empty((size, ROW_CHUNK), dtype=np.int32)
        as_float = np.empty((size, ROW_CHUNK)) if losses is not None else None
        lo_c = lo_p = 0
        for start, stop, w in poisson_chunks(rng, size, self.n):
            hi_c = int(np.searchsorted(cuts, stop))
            hi_p = int(np.searchsorted(self.positive_rows, stop))
            part = cum[:, : stop - start]
            np.cumsum(w, axis=1, dtype=np.int32, out=part)
            if hi_c > lo_c:
                np.add(np.take(part, cuts[lo_c:hi_c] - start, axis=1), carry,
                       out=total[:, 1 + lo_c : 1 + hi_c])  # fmt: skip
            if hi_p > lo_p:
                np.take(w, self.positive_rows[lo_p:hi_p] - start, axis=1, out=pos_w[:, lo_p:hi_p])
            carry += part[:, -1:]
            if summed is not None:  # the weights as floats in a buffer that stays in cache
                wf = as_float[:, : stop - start]  # type: ignore[index]
                np.copyto(wf, w)
                summed += wf @ losses[start:stop]  # type: ignore[index]
            lo_c, lo_p = hi_c, hi_p
        pos_cum = np.zeros((_KERNEL_BLOCK, self.positive_rows.size + 1), dtype=kind)
        for a in range(0, size, _KERNEL_BLOCK):  # tables that stay in cache
            b = min(size, a + _KERNEL_BLOCK)
            np.cumsum(pos_w[a:b], axis=1, dtype=kind, out=pos_cum[: b - a, 1:])
            pos_at = np.take(pos_cum[: b - a], self._pos_below, axis=1)
            neg_at = total[a:b] - pos_at
            tables = np.empty((b - a, 2, self.columns), dtype=np.int64)
            np.subtract(pos_at[:, 1:], pos_at[:, :-1], out=tables[:, 1])
            np.subtract(neg_at[:, 1:], neg_at[:, :-1], out=tables[:, 0])
            losses_ = None if summed is None else summed[a:b]
            yield BlockTables(tables, None, self.split_column, losses_, (pos_at, neg_at))


def poisson_weights(rng: np.random.Generator, size: int, order: IntArray) -> npt.NDArray[np.uint8]:
    """A block's multiplicities of the rows in their own order, shape (size, n): row ``order[i]`` gets the i-th weight."""
    n = int(order.size)
    out = np.empty((size, n), dtype=np.uint8)
    for start, stop, w in poisson_chunks(rng, size, n):
        out[:, order[start:stop]] = w
    return out
