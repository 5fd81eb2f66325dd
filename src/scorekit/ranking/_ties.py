"""Tie policies: the order of a query's documents that have equal scores (``ties=``).

A :class:`~._data.Run` is stored in trec_eval's order, ties by document id
descending. The other policies act on the run's groups of tied rows
(:func:`._order.tie_groups`) before the run is cut into the evaluated
queries, and only move relevance codes within a group, so the kernels never
see the difference:

- ``"docid_asc"`` mirrors each group;
- ``"input_order"`` sorts each group by the rows' input positions;
- ``"ranx"`` by the position numba's quicksort gives them (:mod:`._ranx_order`);
- ``"optimistic"`` / ``"pessimistic"`` sort each group by relevance (grade >=
  ``rel_level`` first / last), then gain, then grade; unjudged documents rank
  below grade 0;
- ``"average"`` does not move anything: :func:`group_ids` numbers the groups,
  and the kernels of :mod:`._average` take expectations over all orders.

One lexsort of the tied rows only (untied rows are never touched); nothing at
all runs for the default policy.
"""

from __future__ import annotations

import numpy as np

from .._typing import AnyArray, FloatArray, IntArray
from ._conventions import Conventions
from ._order import segments, tie_groups

__all__: list[str] = []


def arrange(
    rel: AnyArray,
    query: IntArray,
    score: FloatArray,
    conv: Conventions,
    rel_level: int,
    source: IntArray | None = None,
) -> AnyArray:
    """Relevance codes of a ranked run with its tied rows reordered by ``conv.ties``.

    ``rel``, ``query`` and ``score`` are per run row in trec_eval's order;
    ``source`` is the input position of each row (``"input_order"``).

    >>> rel = np.array([0, 1, 2, 0], np.int32)  # one query; rows 1-3 tie
    >>> q, s = np.zeros(4, np.int64), np.array([3.0, 1.0, 1.0, 1.0])
    >>> arrange(rel, q, s, Conventions(ties="docid_asc"), 1).tolist()
    [0, 0, 2, 1]
    >>> arrange(rel, q, s, Conventions(ties="pessimistic"), 1).tolist()
    [0, 0, 1, 2]
    """
    lo, hi = tie_groups(query, score)
    if lo.size == 0:
        return rel
    length = hi - lo
    pos = segments(lo, length)
    group = np.repeat(np.arange(lo.size), length)
    how = conv.ties
    if how == "docid_asc":
        src = np.repeat(lo + hi - 1, length) - pos
    elif how in ("input_order", "ranx"):
        if source is None:  # pragma: no cover - evaluate always passes it
            raise ValueError("input_order needs the input positions")
        src = pos[np.lexsort([source[pos], group])]
    else:
        codes = rel[pos].astype(np.int64)
        relevant = (codes >= rel_level).astype(np.int64)
        gain = conv.grade_gain(codes, rel_level)
        keys = [codes, gain, relevant]
        if how == "optimistic":
            keys = [-k for k in keys]
        src = pos[np.lexsort([*keys, group])]
    out: AnyArray = rel.copy()
    out[pos] = rel[src]
    return out


def group_ids(query: IntArray, score: FloatArray) -> IntArray:
    """Number of the (query, score) group of each ranked row: 0, 0, 1, 2, 2, ...

    >>> group_ids(np.array([0, 0, 0, 1]), np.array([2.0, 1.0, 1.0, 1.0]))
    array([0, 1, 1, 2])
    """
    n = query.size
    change = np.ones(n, bool)
    if n > 1:
        np.not_equal(score[1:], score[:-1], out=change[1:])
        change[1:] |= query[1:] != query[:-1]
    out: IntArray = np.cumsum(change, dtype=np.int64) - 1
    return out
