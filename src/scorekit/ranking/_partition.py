"""The ranked state of one partition of a distributed run and qrels holding whole queries.

Shared by the Dask and Spark layers: after a shuffle by query, partition
``i`` of the run and of the qrels hold the same whole queries, and each gives
the engine's :class:`~scorekit.ranking._state.RankedState`; the states of
disjoint query sets are concatenated (:func:`merge_all`, a balanced tree of
``merge_states``) and the measures run once on the result.
"""

from __future__ import annotations

from typing import Any

from .._errors import EmptyInputError
from ._conventions import Conventions
from ._data import Qrels, Run
from ._evaluate import check_missing, ranked_state
from ._state import RankedState, merge_states

__all__: list[str] = []


def partition_state(
    run: tuple[Any, Any, Any] | None,
    qrels: tuple[Any, Any, Any] | None,
    *,
    tag: str,
    max_docs: int | None,
    judged_only: bool,
    conventions: Conventions,
    rel_level: int,
) -> RankedState | None:
    """The ranked state of ``run`` = (query, doc, score) and ``qrels`` = (query, doc, relevance).

    Either may be ``None`` (no rows in this partition); the run's rows are in
    input order. ``None`` when the partition evaluates no query.
    """
    if qrels is None or (run is None and conventions.missing_queries == "ignore"):
        return None
    judged = Qrels.from_arrays(*qrels)
    ranked = empty_run(judged.query_ids, tag) if run is None else Run.from_arrays(*run, tag=tag)
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
