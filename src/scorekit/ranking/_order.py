"""Ranking order: documents by score descending, ties by document id descending.

This is the one place that decides the order of a run's documents; the
measure kernels only ever see relevance values already in rank order. The
default is trec_eval's: within a query, higher score first, and among equal
scores the document id that is larger in byte order (C ``strcmp``) first.
Other tie conventions (issue 8: ``ties="docid_asc"``, ``"input_order"``,
``"average"``, ``"optimistic"``, ``"pessimistic"``) act on the tie groups that
:func:`tie_groups` finds in a ranked run, without touching the kernels.

Speed: a run file is usually written query by query in rank order; that is
checked in O(n) and only tied documents are then sorted. Otherwise one
argsort of the scores (NumPy's SIMD sort) followed by a stable radix pass over
the query codes orders everything, and the tied documents are sorted by id
afterwards (the score sort need not be stable for that).
"""

from __future__ import annotations

import numpy as np

from .._typing import AnyArray, FloatArray, IntArray
from ._ids import desc_order_key

__all__: list[str] = []


def _grouped_order(query: IntArray, score: FloatArray) -> IntArray | bool:
    """The permutation that puts whole query blocks in code order; True if none is needed.

    Succeeds when every query's rows are contiguous and already in
    non-increasing score order (the usual layout of a run file); False otherwise.
    """
    n = query.size
    if n == 0:
        return True
    change = np.flatnonzero(query[1:] != query[:-1]) + 1
    rising = np.greater(score[1:], score[:-1])
    rising[change - 1] = False  # a new query may start with a higher score
    if rising.any():
        return False
    seg_start = np.concatenate([[0], change])
    seg_q = query[seg_start]
    if (np.diff(seg_q) > 0).all():
        return True
    if np.unique(seg_q).size != seg_q.size:
        return False
    seg_len = np.diff(np.concatenate([seg_start, [n]]))
    order = np.argsort(seg_q)
    new_start = np.cumsum(seg_len[order]) - seg_len[order]
    return np.repeat(seg_start[order] - new_start, seg_len[order]) + np.arange(n, dtype=np.int64)


def _stable_by_query(code: IntArray) -> IntArray:
    """Stable argsort of query codes: radix passes over 16-bit digits (O(n) each)."""
    top = int(code.max()) if code.size else 0
    if top < 1 << 16:
        return np.argsort(code.astype(np.uint16), kind="stable")
    if top < 1 << 32:
        low = np.argsort((code & 0xFFFF).astype(np.uint16), kind="stable")
        high = np.argsort((code[low] >> 16).astype(np.uint16), kind="stable")
        return low[high]
    return np.argsort(code, kind="stable")  # pragma: no cover - over 4e9 queries


def tie_groups(query: IntArray, score: FloatArray) -> tuple[IntArray, IntArray]:
    """Start and stop positions of the runs of equal (query, score) in ranked rows.

    Only runs of two or more rows are returned.

    >>> tie_groups(np.array([0, 0, 0, 1]), np.array([2.0, 1.0, 1.0, 1.0]))
    (array([1]), array([3]))
    """
    tied = np.flatnonzero((query[1:] == query[:-1]) & (score[1:] == score[:-1]))
    if tied.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new_run = np.ones(tied.size, bool)
    new_run[1:] = tied[1:] != tied[:-1] + 1
    last = np.ones(tied.size, bool)
    last[:-1] = new_run[1:]
    return tied[new_run], tied[last] + 2


def rank_order(query: IntArray, score: FloatArray, doc: AnyArray) -> IntArray | None:
    """Permutation of rows into trec_eval's ranking (query, score desc, doc id desc).

    None when the rows are in that order already.

    Document ids are padded byte strings (:func:`._ids.padded`):

    >>> doc = np.array([b"x", b"a", b"b"], dtype="S8")
    >>> rank_order(np.array([1, 0, 0]), np.array([0.5, 0.2, 0.2]), doc)
    array([2, 1, 0])
    """
    grouped = _grouped_order(query, score)
    perm: IntArray | None
    if grouped is True:
        perm, q, s = None, query, score
    else:
        if grouped is False:
            by_score = np.argsort(-score)  # SIMD sort; ties are ordered below anyway
            perm = by_score[_stable_by_query(query[by_score])]
        else:
            perm = grouped
        q, s = query[perm], score[perm]
    lo, hi = tie_groups(q, s)
    if lo.size:
        length = hi - lo
        pos = np.repeat(lo - np.cumsum(length) + length, length) + np.arange(int(length.sum()))
        group = np.repeat(np.arange(lo.size), length)
        if perm is None:
            perm = np.arange(query.size, dtype=np.int64)
        rows = perm[pos]
        order = np.lexsort([*desc_order_key(doc[rows]), group])
        perm[pos] = rows[order]
    return perm
