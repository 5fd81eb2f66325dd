"""The ranked state of one partition of a distributed run and qrels holding whole queries.

Shared by the Dask and Spark layers: after a shuffle by query, partition
``i`` of the run and of the qrels hold the same whole queries, and each gives
the engine's :class:`~scorekit.ranking._state.RankedState`; the states of
disjoint query sets are concatenated (:func:`merge_all`, a balanced tree of
``merge_states``) and the measures run once on the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._errors import EmptyInputError
from .._typing import AnyArray, IntArray
from ._conventions import Conventions
from ._data import Qrels, Run, run_columns
from ._evaluate import check_missing, ranked_state
from ._ids import id_bytes
from ._order import segments
from ._state import RankedState, merge_states

__all__: list[str] = []


Rows = tuple[Any, Any, Any] | Callable[[], Any]


def partition_state(
    run: Rows | None,
    qrels: Rows | None,
    *,
    tag: str,
    max_docs: int | None,
    judged_only: bool,
    conventions: Conventions,
    rel_level: int,
) -> RankedState | None:
    """The ranked state of ``run`` = (query, doc, score) and ``qrels`` = (query, doc, relevance).

    Either may be ``None`` (no rows in this partition); the run's rows are in
    input order. Either may instead be a function building the ``Run`` or
    ``Qrels`` (:func:`run_from_segments`), called only when needed. ``None``
    when the partition evaluates no query.
    """
    if qrels is None or (run is None and conventions.missing_queries == "ignore"):
        return None
    judged = qrels() if callable(qrels) else Qrels.from_arrays(*qrels)
    if run is None:
        ranked = empty_run(judged.query_ids, tag)
    else:
        ranked = run() if callable(run) else Run.from_arrays(*run, tag=tag)
    if conventions.missing_queries == "error":
        check_missing(judged, ranked)  # this partition holds every row of its queries
    try:
        return ranked_state(
            judged,
            ranked,
            max_docs=max_docs,
            judged_only=judged_only,
            conventions=conventions,
            rel_level=rel_level,
        )
    except EmptyInputError:  # no query of this partition is in both
        return None


def _segment_codes(query_ids: Any, lengths: IntArray) -> tuple[AnyArray, IntArray, IntArray]:
    """Sorted distinct ids of the segments (one per segment), the code of each segment and row."""
    queries, code = np.unique(id_bytes(query_ids, "query"), return_inverse=True)
    small = np.int32 if queries.size < 1 << 31 else np.int64
    return queries, code, np.repeat(code.astype(small), lengths)


def run_from_segments(
    query_ids: Any,
    lengths: IntArray,
    doc: Any,
    score: Any,
    *,
    tag: str = "scorekit",
    positions: IntArray | None = None,
) -> Run:
    """``Run.from_arrays`` of rows grouped by query: ``lengths[i]`` rows of ``query_ids[i]``.

    The ids of the segments are distinct (one segment per query, as a
    ``groupBy`` gives them), so the query of each row is coded from the few
    segment ids, never hashed row by row; documents and scores are checked and
    converted as ``Run.from_arrays`` does, so the run is the same. The segments
    are put in query order first (each keeps its rows' order), so the ranking
    sorts query after query, in cache; ``positions`` (the rows' input order,
    ``ties="input_order"``) puts the rows back in that order instead.

    >>> run_from_segments(["q2", "q1"], np.array([1, 2]), ["c", "a", "b"], [1.0, 1.0, 2.0]).to_dict()
    {'q1': {'b': 2.0, 'a': 1.0}, 'q2': {'c': 1.0}}
    """
    queries, seg_code, code = _segment_codes(query_ids, lengths)
    d, s = run_columns(code, doc, score)
    if positions is not None:
        order = np.argsort(positions, kind="stable")
    elif (np.diff(seg_code) < 0).any():  # whole segments in query order (ranked in cache)
        by_id = np.argsort(seg_code)
        order = segments((np.cumsum(lengths) - lengths)[by_id], lengths[by_id])
    else:
        order = None
    if order is not None:
        code, d, s = code[order], d[order], s[order]
    return Run._from_codes(queries, code, d, s, str(tag))


def qrels_from_segments(query_ids: Any, lengths: IntArray, doc: Any, relevance: Any) -> Qrels:
    """``Qrels.from_arrays`` of rows grouped by query: ``lengths[i]`` rows of ``query_ids[i]``.

    >>> qrels_from_segments([7, 3], np.array([1, 1]), ["a", "b"], [2, 0]).to_dict()
    {'3': {'b': 0}, '7': {'a': 2}}
    """
    q = np.repeat(id_bytes(query_ids, "query"), lengths)
    return Qrels.from_arrays(q, doc, relevance)


def empty_run(query_ids: list[str], tag: str = "scorekit") -> Run:
    """A run that retrieves nothing for ``query_ids``: their evaluation as missing queries.

    Every query of the judgments is missing from it: a one-row run of a query
    id longer than any judged one (so never evaluated) gives their all-zero
    state (or the error of ``missing_queries="error"``).
    """
    dummy = "q" * (max(map(len, query_ids)) + 1)
    return Run.from_arrays([dummy], ["d"], [0.0], tag=tag)


def merge_all(*states: RankedState | None) -> RankedState | None:
    """The states (``None`` skipped) concatenated in a balanced tree; ``None`` if all are."""
    level = [s for s in states if s is not None]
    if not level:
        return None
    while len(level) > 1:
        pairs = [merge_states(a, b) for a, b in zip(level[::2], level[1::2], strict=False)]
        level = pairs + level[len(pairs) * 2 :]
    return level[0]
