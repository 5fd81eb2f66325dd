"""Unweighted rows counted by exact decimal code: one ``np.bincount``, and a growing table of them.

When the scores are exact decimals (:func:`._sortkeys.decimal_codes`), the
positives and negatives at every code are the whole sufficient statistic:

- :func:`code_counts` — rows -> ``int64`` counts, two per code (negatives, positives);
- :func:`curve_from_code_counts` — counts -> :class:`._curve_kernel.CurveState`
  (the codes with rows, highest first);
- :class:`CodeTable` — counts of many chunks added in place, for
  ``scorekit.stream.BinaryCurve``: a chunk of ``n`` rows costs one bincount
  and one addition, with no sort, no copy of the rows and no merge of states
  (counts are integers, so the sum is exact and does not depend on chunking).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._typing import BoolArray, IntArray
from ._sortkeys import DecimalCodes

if TYPE_CHECKING:
    from ._curve_kernel import CurveState

__all__ = ["CodeTable", "code_counts", "curve_from_code_counts"]

#: Codes a :class:`CodeTable` spans at most (two int64 counts each: 64 MiB).
TABLE_CODES = 1 << 22


def code_counts(y: BoolArray, dc: DecimalCodes) -> IntArray:
    """Negatives and positives at every code: ``counts[2 k]``, ``counts[2 k + 1]`` (int64).

    >>> from scorekit.classification._sortkeys import decimal_codes
    >>> code_counts(np.array([True, False, True]), decimal_codes(np.array([0.5, 0.5, 0.2]))).tolist()
    [0, 1, 0, 0, 0, 0, 1, 1]
    """
    cells = np.left_shift(dc.codes, 1)
    cells |= y
    counts: IntArray = np.bincount(cells, minlength=2 * dc.size)
    return counts


def curve_from_code_counts(counts: IntArray, dc: DecimalCodes) -> CurveState:
    """The curve of :func:`code_counts` output: codes with rows, in decreasing score order."""
    from ._curve_kernel import CurveState

    neg, pos = counts[0::2], counts[1::2]
    seen = np.flatnonzero((neg != 0) | (pos != 0))[::-1]
    return CurveState(dc.scores(seen), pos[seen].astype(np.float64), neg[seen].astype(np.float64))


class CodeTable:
    """Counts of unweighted rows at the codes ``low .. low + size - 1`` of one decimal scale.

    :meth:`add` adds a chunk's codes in place (growing the table when the
    chunk's codes lie outside it); it refuses (returns False) a chunk of
    another scale, or one that would make the table span more than
    :data:`TABLE_CODES` codes. :meth:`curve` is the curve of every row added.

    >>> from scorekit.classification._sortkeys import decimal_codes
    >>> t = CodeTable.start(np.array([True]), decimal_codes(np.array([0.25])))
    >>> t.add(np.array([False, True]), decimal_codes(np.array([0.75, 0.25])))
    True
    >>> t.add(np.array([True]), decimal_codes(np.array([0.1])))  # scale 10, not 100
    False
    >>> c = t.curve()
    >>> c.scores.tolist(), c.pos.tolist(), c.neg.tolist()
    ([0.75, 0.25], [0.0, 2.0], [1.0, 0.0])
    """

    __slots__ = ("counts", "low", "scale")

    def __init__(self, counts: IntArray, low: int, scale: float) -> None:
        self.counts = counts
        self.low = low
        self.scale = scale

    @classmethod
    def start(cls, y: BoolArray, dc: DecimalCodes) -> CodeTable:
        """A table holding one chunk (its codes as :func:`._sortkeys.decimal_codes` gave them)."""
        return cls(code_counts(y, dc), int(dc.low), dc.scale)

    @property
    def size(self) -> int:
        """Codes spanned by the table."""
        return self.counts.size // 2

    def add(self, y: BoolArray, dc: DecimalCodes) -> bool:
        """Add a chunk's rows in place; False (nothing added) if the chunk does not fit the table."""
        if dc.scale != self.scale:
            return False
        low = int(dc.low)
        lo, hi = min(self.low, low), max(self.low + self.size, low + dc.size)
        if hi - lo > TABLE_CODES:
            return False
        if lo < self.low or hi > self.low + self.size:
            grown = np.zeros(2 * (hi - lo), dtype=np.int64)
            at = 2 * (self.low - lo)
            grown[at : at + self.counts.size] = self.counts
            self.counts, self.low = grown, lo
        at = 2 * (low - self.low)
        self.counts[at : at + 2 * dc.size] += code_counts(y, dc)
        return True

    def curve(self) -> CurveState:
        """The curve of every row added (scores are the very floats of the input)."""
        dc = DecimalCodes(np.zeros(0, dtype=np.intp), float(self.low), self.scale, self.size)
        return curve_from_code_counts(self.counts, dc)
