r"""Poisson(1) row weights in score order: every metric of a block of resamples from one pass over the rows.

``weights="poisson"`` of :func:`scorekit.stats.bootstrap_metrics` gives each
row of data a multiplicity :math:`w \sim \mathrm{Poisson}(1)` in each
resample, independently (the Poisson bootstrap: the resample size varies
around n). The rows are put in (score, label) order once (counted from their
cells: no sort); a block of B resamples is then
read chunk by chunk of rows in that order, and nothing per row and resample is
wider than one byte or an ``int32``:

- the weights are ``uint8``: :data:`POISSON_TABLE` at 16 random bits each,
  :math:`w = \min\{k : u < \mathrm{round}(2^{16} F(k))\}`, F the Poisson(1)
  distribution function, i.e. the inverse distribution function at
  resolution :math:`2^{-16}` (each probability within :math:`2^{-16}` of
  Poisson(1)'s; :math:`w \le 8`), computed as the number of those edges at or
  below u (eight SIMD comparisons, no gather);
- their cumulative sums 8 rows at a time: the weights viewed as ``uint64``
  words, each word times ``0x0101010101010101`` holds the sums of its first
  1 ... 8 bytes, and one ``int32`` cumulative sum over the words' totals
  (carried across chunks) gives the rest; it is read only where the kernels
  need it: below and through every distinct score that a positive holds, at
  the score cut and at the end (:meth:`RowLayout.block`);
- the positive rows' own weights (a few percent of the rows) give the
  positive weight below each of those places;
- the summed log loss and squared error of each resample: one matrix product
  of the chunk's weights with the rows' losses.

The kernels of :mod:`~scorekit.stats._vectorised` read a block from those
sums (:meth:`~scorekit.stats._vectorised.BlockTables.at_positives`): between
two positives' scores lie negatives only, which count as a total.

Seed contract: with ``rng = numpy.random.default_rng(seed)``, the resamples
come in blocks of :data:`ROW_BLOCK` (the last one smaller); block j draws with
``numpy.random.SFC64(rng.spawn(number of blocks)[j].bit_generator.seed_seq)``
(:func:`poisson_streams`; so the values do not depend on the threads). Rows
are taken in (score, label) order, ties by row index
(``numpy.lexsort((labels, scores))``), chunk after chunk of :data:`ROW_CHUNK`
(the last one smaller); for a chunk of r rows and a block of B resamples the
generator's ``random_raw(ceil(B r / 4))`` are read as little-endian 16-bit
words, the first B r of them in row-major (B, r) order, and each word u gives
that resample and row the weight ``POISSON_TABLE[u]``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from .._typing import BoolArray, FloatArray, IntArray
from ..classification._proba import _log_clipped
from ._vectorised import BlockTables

__all__ = [
    "POISSON_TABLE",
    "ROW_BLOCK",
    "ROW_CHUNK",
    "RowLayout",
    "poisson_chunks",
    "poisson_streams",
    "poisson_weights",
]

#: Resamples per block (each block its own generator): 1,000 resamples are 20 blocks, 10 per thread.
ROW_BLOCK = 50
#: Rows per chunk (a multiple of 8): a block's chunk of random words, weights and sums stays in cache.
ROW_CHUNK = 4096
#: Resamples whose sums the kernels read at once.
_KERNEL_BLOCK = 2
#: Every byte of a word times this: byte k of the product is the sum of bytes 0..k (no carry
#: while the bytes sum to at most 255: 8 weights of at most 8).
_BYTE_PREFIX = np.uint64(0x0101010101010101)


def _edges() -> list[int]:
    """``round(2**16 F(k))`` for k = 0, 1, ... below 2**16, F the Poisson(1) distribution function."""
    cdf, term, edges = 0.0, math.exp(-1.0), []
    for k in range(64):
        cdf += term
        term /= k + 1
        edge = round(cdf * 65536)
        if edge >= 65536:
            break
        edges.append(edge)
    return edges


#: The words at which the weight steps up: w = the number of edges at or below the word.
_EDGES = _edges()
_EDGE_ARRAY = np.array(_EDGES, dtype=np.uint16)[:, None, None]
#: The weight of each 16-bit random word: Poisson(1) by inverse distribution function.
POISSON_TABLE = np.searchsorted(np.array(_EDGES), np.arange(65536), side="right").astype(np.uint8)


def poisson_streams(rng: np.random.Generator, blocks: int) -> list[np.random.Generator]:
    """The generator of each block: ``SFC64`` seeded by the seed sequence of ``rng.spawn(blocks)[j]``.

    ``SFC64`` gives 64 random bits in about 70% of ``PCG64``'s time (the bits
    are a quarter of a block's work).
    """
    seqs = [cast(np.random.SeedSequence, g.bit_generator.seed_seq) for g in rng.spawn(blocks)]
    return [np.random.Generator(np.random.SFC64(seq)) for seq in seqs]


def _weights_of(
    words: npt.NDArray[np.uint16], out: npt.NDArray[np.uint8], steps: BoolArray
) -> None:
    """``out = POISSON_TABLE[words]`` as the count of edges at or below each word.

    One broadcast comparison with every edge (``steps``: ``(edges, *words.shape)``)
    and one sum of those bytes: SIMD passes with no index array (about 0.7 of the
    table gather's time), two calls per chunk.
    """
    np.greater_equal(words[None], _EDGE_ARRAY, out=steps)
    np.add.reduce(steps.view(np.uint8), axis=0, out=out)


def poisson_chunks(
    rng: np.random.Generator, size: int, n: int
) -> Iterator[tuple[int, int, npt.NDArray[np.uint8]]]:
    """``(start, stop, weights)`` of each chunk of rows in score order: ``(size, stop - start)`` ``uint8``.

    The weights of a chunk are overwritten by the next one (one buffer, in cache).
    """
    for start, stop, padded in _padded_chunks(rng, size, n):
        yield start, stop, padded[:, : stop - start]


def _padded_chunks(
    rng: np.random.Generator, size: int, n: int
) -> Iterator[tuple[int, int, npt.NDArray[np.uint8]]]:
    """As :func:`poisson_chunks`, the weights in one ``(size, width)`` buffer: width :data:`ROW_CHUNK` rounded up to 8, zero past the chunk."""
    raw_bits = rng.bit_generator.random_raw
    width = -(-min(ROW_CHUNK, n) // 8) * 8
    buffer = np.zeros((size, width), dtype=np.uint8)
    steps = np.empty(len(_EDGES) * size * min(ROW_CHUNK, n), dtype=np.bool_)
    full = min(ROW_CHUNK, n)  # the views of a full chunk, made once (less time holding the GIL)
    full_out, full_steps = buffer[:, :full], steps.reshape(-1, size, full)
    for start in range(0, n, ROW_CHUNK):
        r = min(ROW_CHUNK, n - start)
        words = raw_bits(-(-size * r // 4)).astype("<u8", copy=False).view("<u2")
        if r == full:
            _weights_of(words[: size * r].reshape(size, r), full_out, full_steps)
        else:
            out, part = buffer[:, :r], steps[: len(_EDGES) * size * r].reshape(-1, size, r)
            _weights_of(words[: size * r].reshape(size, r), out, part)
            buffer[:, r:] = 0
        yield start, start + r, buffer


class RowLayout:
    """The rows in (score, label) order and where the kernels read their cumulative weights (built once per data).

    ``cells``, ``groups``, ``scores`` are the rows' cell codes ``y G + g`` (g the
    rank of the row's score among the G distinct ``scores``): the sorted rows
    are counted from them (no sort). The cumulative weight is read below
    (``lo``) and through (``hi``) each distinct score that a positive holds
    (highest first), below the score cut ``split`` (a rank of the distinct
    scores) and over all rows: ``reads`` are those row positions p, ascending
    (the weight of the sorted rows before p).
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
        with_pos = self._g[label == 1][::-1]  # distinct scores a positive holds, highest first
        lo, hi = starts[with_pos], starts[with_pos + 1]
        if not lo.size:  # no positive: one empty column above every row (adds nothing)
            lo = hi = np.array([n])
            with_pos = np.array([groups])
        # through a score that no negative holds, the weight is below it plus its positives':
        # read only through the scores that negatives share (none with continuous scores)
        shared = np.flatnonzero(np.append(count[:groups], 0)[with_pos] > 0)
        self.has_cut = split is not None
        cut = np.array([starts[min(split, groups)]] if split is not None else [], dtype=np.int64)
        marks = np.concatenate([lo, hi[shared], cut, [n]])
        order = np.argsort(marks, kind="stable")
        self.reads = marks[order]
        where = np.empty_like(order)
        where[order] = np.arange(order.size)
        m, k = lo.size, shared.size
        #: positions in ``reads`` of lo, hi (of the shared scores), the cut and n
        self._at_lo, self._at_hi, self._at_cut, self._at_n = (
            where[:m],
            where[m : m + k],
            where[m + k : -1],
            where[-1],
        )
        self._shared = shared
        # the positives before each read: where the positives' cumulative weight is read
        self._pos_lo = np.searchsorted(self.positive_rows, lo)
        self._pos_hi = np.searchsorted(self.positive_rows, hi)
        self._pos_cut = np.searchsorted(self.positive_rows, cut)
        self._label, self._scores = label, scores
        self._chunks: tuple[int, list[tuple[int, int, IntArray, IntArray, int, int, IntArray]]]
        self._chunks = (0, [])

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
        return per_cell if s.size == self.n else np.repeat(per_cell, self._sizes, axis=0)

    def _tables(
        self, total: npt.NDArray[Any], pos_cum: npt.NDArray[Any], losses: FloatArray | None
    ) -> BlockTables:
        """A block from the weight before each read (b, reads) and the positives' cumulative weight (b, positives + 1)."""
        pos_lo = np.take(pos_cum, self._pos_lo, axis=1)
        pos = np.take(pos_cum, self._pos_hi, axis=1)
        pos -= pos_lo
        all_lo = np.take(total, self._at_lo, axis=1)
        ties = None
        if self._shared.size:  # the negatives at the scores they share: through - below - positives
            neg = np.take(total, self._at_hi, axis=1)
            neg -= all_lo[:, self._shared]
            neg -= pos[:, self._shared]
            ties = (self._shared, neg)
        totals = (pos_cum[:, -1], total[:, self._at_n])
        cut = None
        if self.has_cut:
            cut = (pos_cum[:, self._pos_cut[0]], total[:, self._at_cut[0]])
        return BlockTables.at_positives((pos_lo, all_lo), pos, totals, cut, losses, ties)

    def point(self, losses: FloatArray | None) -> BlockTables:
        """The block of the data itself (every weight 1)."""
        summed = None if losses is None else losses.sum(axis=0)[None]
        return self._tables(self.reads[None], np.arange(self.positive_rows.size + 1)[None], summed)

    def _chunk_reads(self) -> list[tuple[int, int, IntArray, IntArray, int, int, IntArray]]:
        """Per chunk of :data:`ROW_CHUNK` rows: the reads it ends, their words and bytes in it, and its positives."""
        if self._chunks[0] != ROW_CHUNK:
            out = []
            for start in range(0, self.n, ROW_CHUNK):
                stop = min(self.n, start + ROW_CHUNK)
                # a read p > 0 is the cumulative sum through row p - 1
                a, b = np.searchsorted(self.reads, [start + 1, stop + 1])
                last = self.reads[a:b] - 1 - start
                c, d = np.searchsorted(self.positive_rows, [start, stop])
                out.append(
                    (
                        int(a),
                        int(b),
                        last >> 3,
                        last,
                        int(c),
                        int(d),
                        self.positive_rows[c:d] - start,
                    )
                )
            self._chunks = (ROW_CHUNK, out)
        return self._chunks[1]

    def block(
        self, rng: np.random.Generator, size: int, losses: FloatArray | None
    ) -> Iterator[BlockTables]:
        """The tables of one block of Poisson resamples drawn by ``rng``, a few resamples at a time.

        The cumulative sums of each chunk's weights are taken 8 rows at a
        time: the ``uint8`` weights viewed as ``uint64`` words, each word times
        :data:`_BYTE_PREFIX` holds the sums of its first 1 ... 8 bytes, and one
        ``int32`` cumulative sum runs over the words' totals (its top byte).
        """
        # sums of weights up to 8 each: int32 below 2**31 (half the bytes of the block's sums)
        kind = np.int32 if 8 * self.n < 2**31 else np.int64
        total = np.zeros((size, self.reads.size), dtype=kind)
        pos_w = np.empty((size, self.positive_rows.size), dtype=np.uint8)
        summed = np.zeros((size, 2)) if losses is not None else None
        width = -(-min(ROW_CHUNK, self.n) // 8) * 8
        prefix = np.empty((size, width // 8), dtype="<u8")
        words = np.zeros((size, width // 8 + 1), dtype=kind)  # [carry, carry + word totals ...]
        as_float = np.empty((size, width)) if losses is not None else None
        reads = self._chunk_reads()
        # views made once: each chunk is a few NumPy calls (less time holding the GIL)
        sums, prefix_bytes = words[:, 1:], prefix.view(np.uint8)
        carry, last = words[:, :1], words[:, -1:]
        for (start, stop, padded), (a, b, word, byte, c, d, pos) in zip(
            _padded_chunks(rng, size, self.n), reads, strict=True
        ):
            w = padded if stop - start == padded.shape[1] else padded[:, : stop - start]
            np.multiply(padded.view("<u8"), _BYTE_PREFIX, out=prefix)
            np.right_shift(prefix, 56, out=sums, casting="unsafe")
            np.cumsum(words, axis=1, out=words)
            if b > a:
                np.add(words.take(word, axis=1), prefix_bytes.take(byte, axis=1), out=total[:, a:b])
            if d > c:
                w.take(pos, axis=1, out=pos_w[:, c:d])
            carry[...] = last
            if summed is not None and as_float is not None and losses is not None:
                # the weights as floats in a buffer that stays in cache
                wf = as_float if w is padded else as_float[:, : stop - start]
                np.copyto(wf, w)
                summed += wf @ losses[start:stop]
        pos_cum = np.zeros((_KERNEL_BLOCK, self.positive_rows.size + 1), dtype=kind)
        for a in range(0, size, _KERNEL_BLOCK):  # sums that stay in cache
            b = min(size, a + _KERNEL_BLOCK)
            np.cumsum(pos_w[a:b], axis=1, dtype=kind, out=pos_cum[: b - a, 1:])
            losses_ = None if summed is None else summed[a:b]
            yield self._tables(total[a:b], pos_cum[: b - a], losses_)


def poisson_weights(rng: np.random.Generator, size: int, order: IntArray) -> npt.NDArray[np.uint8]:
    """A block's multiplicities of the rows in their own order, shape (size, n): row ``order[i]`` gets the i-th weight."""
    n = int(order.size)
    out = np.empty((size, n), dtype=np.uint8)
    for start, stop, w in poisson_chunks(rng, size, n):
        out[:, order[start:stop]] = w
    return out
