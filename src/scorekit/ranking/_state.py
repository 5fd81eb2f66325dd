"""The ranked state every measure kernel reads, and the cached quantities derived from it.

:class:`RankedState` is what a run looks like once joined to the qrels: for
each evaluated query a segment of relevance codes in rank order (the judged
grade, ``-1`` for a document that is not in the qrels, ``-2`` for one pooled but
not judged, i.e. a negative grade), plus the number of judged documents at
each grade. It is the "chunk -> state" of the ranking family: states of
disjoint query sets merge by concatenation (:func:`merge_states`), and every
measure is a pure function of a state (:class:`Context` caches what several
measures share). No Python loop runs over queries: per-query values come from
``bincount`` and ``searchsorted`` over position arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .._errors import ParameterError
from .._typing import AnyArray, BoolArray, IntArray
from ._conventions import Conventions

__all__: list[str] = []

NONPOOL = -1  # retrieved, not in the qrels
UNJUDGED = -2  # retrieved, in the qrels with a negative grade (pooled, not judged)


def pair_counts(q: IntArray, grade: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Distinct (query, grade) pairs sorted, and how often each occurs (grades >= 0).

    One key ``q * width + grade`` when it fits in 64 bits, counted by ``np.bincount``
    when the keys are few enough, else sorted (``np.unique``); a lexsort for huge grades.

    >>> [a.tolist() for a in pair_counts(np.array([1, 0, 1]), np.array([2**40, 3, 2**40]))]
    [[0, 1], [3, 1099511627776], [1, 2]]
    """
    if q.size == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    width = int(grade.max()) + 1
    span = (int(q.max()) + 1) * width
    if span <= max(4 * q.size, 1 << 16):  # dense keys: counted, not sorted
        counts = np.bincount(q.astype(np.int64) * width + grade, minlength=span)
        key = np.flatnonzero(counts)
        return key // width, key % width, counts[key].astype(np.int64)
    if span < 1 << 63:
        key, count = np.unique(q.astype(np.int64) * width + grade, return_counts=True)
        return key // width, key % width, count.astype(np.int64)
    order = np.lexsort([grade, q])
    q, grade = q[order], grade[order]
    first = np.flatnonzero(np.r_[True, (q[1:] != q[:-1]) | (grade[1:] != grade[:-1])])
    count = np.diff(np.r_[first, q.size]).astype(np.int64)
    return q[first].astype(np.int64), grade[first].astype(np.int64), count


@dataclass(frozen=True, slots=True)
class RankedState:
    """Relevance codes in rank order for a set of queries, with their judgment counts."""

    qids: AnyArray  # (n_q,) sorted query ids (padded S)
    in_run: BoolArray  # (n_q,) False for a qrels query the run does not have (all_queries)
    starts: IntArray  # (n_q + 1,) segment offsets into rel
    rel: AnyArray  # (n,) relevance codes in rank order (int32, int64 for huge grades)
    level_q: IntArray  # (m,) query of each (query, grade) count, grades >= 0, sorted
    level: IntArray  # (m,) the grade
    level_count: IntArray  # (m,) judged documents with that grade
    tag: str = "scorekit"
    # ties="average" only: True where a group of tied documents starts, and the
    # per-query max_docs (the last group is then kept whole, past max_docs)
    tie_start: BoolArray | None = None
    depth: IntArray | None = None

    @property
    def n_queries(self) -> int:
        """Number of evaluated queries."""
        return int(self.qids.size)


def merge_states(a: RankedState, b: RankedState) -> RankedState:
    """Concatenate the states of two disjoint sets of queries (ids sorted again).

    Exact: every per-query value of the merged state equals the one computed
    from the state that held the query.
    """
    size = max(a.qids.dtype.itemsize, b.qids.dtype.itemsize)
    qids = np.concatenate([a.qids.astype(f"S{size}"), b.qids.astype(f"S{size}")])
    if np.unique(qids).size != qids.size:
        raise ParameterError("merge_states needs states of disjoint query sets")
    order = np.argsort(qids, kind="stable")
    seg_start = np.concatenate([a.starts[:-1], a.starts[-1] + b.starts[:-1]])[order]
    seg_len = np.concatenate([np.diff(a.starts), np.diff(b.starts)])[order]
    starts = np.zeros(qids.size + 1, np.int64)
    np.cumsum(seg_len, out=starts[1:])
    pos = np.repeat(seg_start - starts[:-1], seg_len) + np.arange(starts[-1], dtype=np.int64)
    new_index = np.empty(qids.size, np.int64)
    new_index[order] = np.arange(qids.size)
    level_q = new_index[np.concatenate([a.level_q, b.level_q + a.n_queries])]
    level = np.concatenate([a.level, b.level])
    count = np.concatenate([a.level_count, b.level_count])
    lv = np.lexsort([level, level_q])
    if (a.tie_start is None) != (b.tie_start is None) or (a.depth is None) != (b.depth is None):
        raise ParameterError("merge_states needs states built with the same ties and max_docs")
    tie_start = depth = None
    if a.tie_start is not None and b.tie_start is not None:
        tie_start = np.concatenate([a.tie_start, b.tie_start])[pos]
    if a.depth is not None and b.depth is not None:
        depth = np.concatenate([a.depth, b.depth])[order]
    return RankedState(
        qids[order],
        np.concatenate([a.in_run, b.in_run])[order],
        starts,
        np.concatenate([a.rel, b.rel])[pos],
        level_q[lv],
        level[lv],
        count[lv],
        a.tag,
        tie_start,
        depth,
    )


def positions_before(events: IntArray, probe: IntArray, probe_start: IntArray) -> IntArray:
    """For sorted event positions: how many lie in ``[probe_start, probe)`` for each probe."""
    return np.searchsorted(events, probe) - np.searchsorted(events, probe_start)


class Context:
    """A state plus the options; caches what several measures share.

    ``R`` arrays describe the relevant retrieved documents (grade >= rel_level)
    in rank order: global position, query, rank (1-based) and ``k`` (how many
    relevant documents up to and including this one).
    """

    def __init__(
        self,
        state: RankedState,
        rel_level: int = 1,
        gain: str = "linear",
        conventions: Conventions | None = None,
    ) -> None:
        self.state = state
        self.rel_level = rel_level
        self.conv = Conventions(gain=gain) if conventions is None else conventions
        self.gain = self.conv.gain
        self.n_q = state.n_queries
        self.starts = state.starts
        self.first = state.starts[:-1]
        self.cache: dict[Any, Any] = {}

    # ------------------------------------------------------------- per query
    @cached_property
    def num_ret(self) -> IntArray:
        return np.diff(self.starts)

    def _level_sum(self, mask: BoolArray) -> IntArray:
        s = self.state
        out: IntArray = np.bincount(
            s.level_q[mask], weights=s.level_count[mask], minlength=self.n_q
        ).astype(np.int64)
        return out

    @cached_property
    def num_rel(self) -> IntArray:
        """Judged documents with grade >= rel_level."""
        return self._level_sum(self.state.level >= self.rel_level)

    @cached_property
    def num_nonrel(self) -> IntArray:
        """Judged documents with 0 <= grade < rel_level."""
        return self._level_sum(self.state.level < self.rel_level)

    @cached_property
    def num_levels(self) -> IntArray:
        """trec_eval's ``num_rel_levels``: highest judged grade + 1 (0 if none)."""
        s = self.state
        out = np.zeros(self.n_q, np.int64)
        has = s.level_count > 0
        np.maximum.at(out, s.level_q[has], s.level[has] + 1)
        return out

    @cached_property
    def candidate_levels(self) -> tuple[IntArray, IntArray, IntArray]:
        """Like the state's judgment counts, over the retrieved documents only (grades >= 0)."""
        rel = self.state.rel
        pos = np.flatnonzero(rel >= 0)
        q = np.searchsorted(self.starts, pos, side="right") - 1
        return pair_counts(q, rel[pos].astype(np.int64))

    @cached_property
    def query_of_position(self) -> IntArray:
        return np.repeat(np.arange(self.n_q, dtype=np.int64), self.num_ret)

    # ----------------------------------------------------------- event sets
    def events(self, mask: BoolArray) -> tuple[IntArray, IntArray, IntArray]:
        """Positions, queries and ranks of the positions where ``mask`` holds."""
        pos = np.flatnonzero(mask)
        q = np.searchsorted(self.starts, pos, side="right") - 1
        return pos, q, pos - self.starts[q] + 1

    @cached_property
    def relevant(self) -> tuple[IntArray, IntArray, IntArray]:
        return self.events(self.state.rel >= self.rel_level)

    @cached_property
    def rel_start(self) -> IntArray:
        """Offsets of each query's relevant retrieved documents in the ``relevant`` arrays."""
        return np.searchsorted(self.relevant[0], self.starts)

    @cached_property
    def num_rel_ret(self) -> IntArray:
        return np.diff(self.rel_start)

    @cached_property
    def rel_k(self) -> IntArray:
        """For each relevant retrieved document, its count among them (1-based)."""
        _, q, _ = self.relevant
        return np.arange(q.size, dtype=np.int64) - self.rel_start[q] + 1

    @cached_property
    def nonrel_pos(self) -> IntArray:
        """Positions of judged non-relevant documents (0 <= grade < rel_level)."""
        rel = self.state.rel
        return np.flatnonzero((rel >= 0) & (rel < self.rel_level))

    @cached_property
    def unjudged_pos(self) -> IntArray:
        """Positions of documents pooled but not judged (code -2)."""
        return np.flatnonzero(self.state.rel == UNJUDGED)

    @cached_property
    def unretrieved_pos(self) -> IntArray:
        """Positions of documents with no judgment at all (codes -1 and -2)."""
        return np.flatnonzero(self.state.rel < 0)

    def count_upto(self, events: IntArray, k: IntArray | int) -> IntArray:
        """Per query, how many of the sorted event positions have rank <= k (k may vary)."""
        depth = np.clip(np.minimum(k, self.num_ret), 0, None)
        return positions_before(events, self.first + depth, self.first)

    def relevant_upto(self, k: IntArray | int) -> IntArray:
        return self.count_upto(self.relevant[0], k)
