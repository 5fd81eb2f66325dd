"""Condorcet fusion without a comparator: Copeland counts of the pairwise majority.

ranx sorts each query's candidates with Python's ``sorted`` and a comparator
``x before y iff votes(x over y) >= total / 2``, where a run votes for x when
it ranks x strictly above y (an unretrieved document ranks below every
retrieved one). When that majority relation is a strict total order (no
cycles, no tied votes), the sorted order is the only one consistent with it,
and it is also the order by Copeland count, the number of candidates a
document beats: the document in position i beats exactly c - 1 - i others.
So the count is a key: one vectorised pass over the pairs of each query
(chunked, all queries at once) replaces the comparator, and the fused score
is ranx's ``c - position``. Where the relation has cycles or tied votes,
ranx's order depends on the order of a Python set (string hashing) and is not
reproducible; the Copeland order (a tied pair counts 1/2 for each side,
equal counts broken by document id descending) is well defined. Cost: the
sum over queries of c**2 pairs.
"""

from __future__ import annotations

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray
from ..ranking._ids import desc_order_key
from ..ranking._order import segments
from ._align import Aligned

__all__: list[str] = []

_PAIRS = 1 << 22  # pairs per chunk


def copeland_scores(
    al: Aligned, present: BoolArray, pos: IntArray, weights: FloatArray
) -> FloatArray:
    """``c - position`` of every document in the Copeland order of its query."""
    g = al.query.size
    big = np.iinfo(np.int64).max
    rank = np.where(present, pos, big)
    qstart = np.searchsorted(al.query, np.arange(al.queries.size + 1))
    first = qstart[al.query]
    c = al.candidates
    ends = np.cumsum(c)
    wins = np.zeros(g)
    lo = 0
    while lo < g:  # chunks of about _PAIRS pairs, every query at once
        hi = max(lo + 1, int(np.searchsorted(ends, ends[lo] - c[lo] + _PAIRS, side="right")))
        hi = min(hi, g)
        i = np.repeat(np.arange(lo, hi), c[lo:hi])
        j = segments(first[lo:hi], c[lo:hi])
        ri, rj = rank[i], rank[j]
        x = (ri < rj) @ weights
        y = (rj < ri) @ weights
        score = (x > y) + 0.5 * (x == y)
        wins[lo:hi] = np.bincount(i - lo, score, minlength=hi - lo) - 0.5  # minus self
        lo = hi
    order = np.lexsort([*desc_order_key(al.doc), -wins, al.query])
    position = np.empty(g, np.int64)
    position[order] = np.arange(g) - np.repeat(qstart[:-1], np.diff(qstart))
    out: FloatArray = (c - position).astype(np.float64)
    return out
