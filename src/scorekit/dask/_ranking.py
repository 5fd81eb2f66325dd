"""``evaluate`` over dask DataFrames: a shuffle by query, a ranked state per partition, one result.

The run and the qrels are shuffled by query with the same number of
partitions, on a text key of the query id (so an integer 7 and a string "7"
meet), so partition ``i`` of both holds whole queries, the same ones. Each
partition pair becomes the ranking engine's ``RankedState`` (the relevance
code of each retrieved document in rank order, and the judgment counts of its
queries); the states of disjoint query sets are concatenated in a tree
(``merge_states``) and the measures are computed once on the client
(``compute``), so per-query values and summaries (means, ``gm_map``, micro
ratios) are those of :func:`scorekit.evaluate`. The client holds one small
integer per retrieved document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._optional import require
from ..ranking import RankingResult, Run, SubtopicQrels
from ..ranking._diversity import split_requests
from ..ranking._diversity_eval import evaluate_subtopics, merge_parts
from ..ranking._evaluate import compute
from ..ranking._ids import id_bytes
from ..ranking._options import EvalOptions
from ..ranking._parse import parse_requests
from ..ranking._partition import empty_run, merge_all, partition_state
from ..ranking._state import RankedState
from ._reduce import check_frame, check_split_every

__all__ = ["evaluate"]

_KEY = "__scorekit_query_key"
_POS = "__scorekit_input_position"


def _input_position(part: Any, partition_info: Any = None) -> Any:
    """A column that orders rows as the frame holds them: partition number, then row."""
    i = 0 if partition_info is None else int(partition_info["number"])
    pos = np.int64(i) * np.int64(1 << 40) + np.arange(len(part), dtype=np.int64)
    return part.assign(**{_POS: pos})


def _state_of(
    run_part: Any,
    qrels_part: Any,
    *,
    columns: tuple[str, str, str, str],
    **options: Any,
) -> RankedState | None:
    """The ranked state of one partition pair (None when it evaluates no query)."""
    query, doc, score, relevance = columns
    run = qrels = None
    if len(run_part):
        if _POS in run_part.columns:  # ties="input_order": rows back in the frame's order
            run_part = run_part.iloc[np.argsort(run_part[_POS].to_numpy(), kind="stable")]
        run = (run_part[query], run_part[doc], run_part[score])
    if len(qrels_part):
        qrels = (qrels_part[query], qrels_part[doc], qrels_part[relevance])
    return partition_state(run, qrels, **options)


def evaluate(
    qrels_df: Any,
    run_df: Any,
    measures: str | Iterable[str],
    *,
    query: str = "query",
    doc: str = "doc",
    score: str = "score",
    relevance: str = "relevance",
    tag: str = "scorekit",
    options: EvalOptions | None = None,
    rel_level: int | None = None,
    all_queries: bool | None = None,
    max_docs: int | None = None,
    judged_only: bool | None = None,
    gain: str | Mapping[int, float] | None = None,
    per_query: bool | None = None,
    ties: str | None = None,
    ap_denominator: str | None = None,
    missing_queries: str | None = None,
    ndcg_ideal: str | None = None,
    compat: str | None = None,
    num_docs: int | None = None,
    iprec_rule: str | None = None,
    subtopic: str | None = None,
    npartitions: int | None = None,
    split_every: int = 8,
) -> RankingResult:
    """:func:`scorekit.evaluate` of a run and qrels held in dask DataFrames.

    ``run_df`` has columns ``query, doc, score`` and ``qrels_df`` columns
    ``query, doc, relevance`` (other names with the keyword arguments). Both
    are shuffled by query into ``npartitions`` partitions (default: the run's
    count), so each partition holds whole queries; each partition gives the
    engine's ranked state, the states are concatenated in a tree of
    ``split_every`` per node, and the measures run once: the result (per-query
    values, means, ``to_trec_eval()``) is that of :func:`scorekit.evaluate`.
    Options as :func:`scorekit.evaluate` (keywords or ``options=EvalOptions(...)``),
    conventions too (``ties="input_order"``
    is the order of the rows in ``run_df``, partition by partition).

    With ``subtopic="COLUMN"`` the qrels are subtopic qrels (``query,
    subtopic, doc, relevance``: :class:`scorekit.SubtopicQrels`), as the
    diversity measures (``alpha_nDCG@20``, ``ERR_IA@20``, ...) need: each
    partition's whole queries give their per-query diversity values, which
    are concatenated in query order on the client; the other measures read
    the document-level qrels (a document's highest grade), as
    :func:`scorekit.evaluate` does.

    Parameters
    ----------
    qrels_df, run_df : dask.dataframe.DataFrame
        The judgments and the ranked documents.
    measures : str or iterable of str
        As :func:`scorekit.evaluate`.
    query, doc, score, relevance : str
        Column names.
    tag : str, default="scorekit"
        The run's tag (trec_eval's ``runid``).
    options : EvalOptions, optional
        All options at once; the keywords below override its fields.
    rel_level, all_queries, max_docs, judged_only, gain, per_query, ties, ap_denominator, missing_queries, ndcg_ideal, compat, num_docs, iprec_rule
        As :func:`scorekit.evaluate`.
    subtopic : str, optional
        The subtopic column of ``qrels_df`` (subtopic qrels, for the diversity measures).
    npartitions : int, optional
        Partitions of the shuffle by query (default: the run's count).
    split_every : int, default=8
        Fan-in of the merge tree.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> qrels = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "c", "z"], "relevance": [1, 1, 1]})
    >>> run = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "b", "c"], "score": [0.9, 0.8, 0.7]})
    >>> res = evaluate(dd.from_pandas(qrels, npartitions=1), dd.from_pandas(run, npartitions=2),
    ...                ["AP", "P@2"])
    >>> {k: round(v, 4) for k, v in res.mean().items()}
    {'AP': 0.5556, 'P@2': 0.5}
    >>> res = evaluate(dd.from_pandas(qrels, npartitions=1), dd.from_pandas(run, npartitions=2),
    ...                "AP@2", ap_denominator="hits")
    >>> res.mean()
    {'AP@2': 1.0}
    """
    opts = EvalOptions.build(
        options,
        rel_level=rel_level,
        all_queries=all_queries,
        max_docs=max_docs,
        judged_only=judged_only,
        gain=gain,
        per_query=per_query,
        ties=ties,
        ap_denominator=ap_denominator,
        missing_queries=missing_queries,
        ndcg_ideal=ndcg_ideal,
        compat=compat,
        num_docs=num_docs,
        iprec_rule=iprec_rule,
    )
    check_split_every(split_every)
    run_cols = check_frame(run_df, [query, doc, score], "run_df")
    qrels_cols = check_frame(qrels_df, [query, subtopic, doc, relevance], "qrels_df")
    n = run_df.npartitions if npartitions is None else int(npartitions)
    if n < 1:
        raise ParameterError(f"npartitions={npartitions!r} must be at least 1")
    cols = (query, doc, score, relevance)
    if subtopic is None:
        return _evaluate(qrels_df, run_df, measures, cols, str(tag), opts, n, split_every)
    div, other = split_requests(measures)
    doc_qrels = qrels_df[[query, doc, relevance]].groupby([query, doc]).max().reset_index()
    rest = None
    if other or not div:
        rest = _evaluate(doc_qrels, run_df, other, cols, str(tag), opts, n, split_every)
        if not div:
            return rest
    chunk = partial(
        _diversity_of, columns=(*cols, subtopic), measures=[k for k, _ in div], opts=opts
    )
    parts = _pairs(qrels_df[qrels_cols], run_df[run_cols], query, opts, n, chunk)
    dask = require("dask", "dask")
    (found,) = dask.compute(parts)
    return merge_parts(
        found, [k for k, _ in div], rest, tag=str(tag), per_query=bool(opts.per_query)
    )


def _diversity_of(
    run_part: Any,
    qrels_part: Any,
    *,
    columns: tuple[str, str, str, str, str],
    measures: list[str],
    opts: EvalOptions,
) -> tuple[Any, dict[str, Any]] | None:
    """Per-query diversity values of one partition pair holding whole queries (None: none)."""
    query, doc, score, relevance, subtopic = columns
    conv = opts.conventions()
    if not len(qrels_part) or (not len(run_part) and conv.missing_queries == "ignore"):
        return None
    if _POS in run_part.columns:  # ties="input_order": rows back in the frame's order
        run_part = run_part.iloc[np.argsort(run_part[_POS].to_numpy(), kind="stable")]
    judged = SubtopicQrels.from_arrays(
        qrels_part[query], qrels_part[subtopic], qrels_part[doc], qrels_part[relevance]
    )
    if len(run_part):
        ranked = Run.from_arrays(run_part[query], run_part[doc], run_part[score], tag="p")
    else:  # a query id no qrels query has: its qrels queries are all missing from the run
        ranked = empty_run(judged.query_ids)
    given = {f.name: getattr(opts, f.name) for f in dataclasses.fields(opts)}
    try:
        res = evaluate_subtopics(judged, ranked, measures, **given)
    except EmptyInputError:
        if conv.missing_queries == "error":
            raise
        return None
    return id_bytes(list(res.query_ids), "query"), {k: res.array(k) for k in measures}


def _pairs(
    qrels_df: Any, run_df: Any, query: str, opts: EvalOptions, n: int, chunk: Any
) -> list[Any]:
    """``chunk(run partition, qrels partition)`` for each pair of partitions holding whole queries.

    Both frames are shuffled by a text key of the query id (so an integer 7
    and a string "7" meet) into ``n`` partitions; with ``ties="input_order"``
    the run's rows carry their position in the frame.
    """
    dask = require("dask", "dask")
    if opts.conventions().ties == "input_order":
        meta = run_df._meta.assign(**{_POS: np.zeros(0, np.int64)})
        run_df = run_df.map_partitions(_input_position, meta=meta)

    def by_query(frame: Any) -> Any:
        keyed = frame.assign(**{_KEY: frame[query].astype(str).astype(object)})
        return keyed.shuffle(on=_KEY, npartitions=n)

    runs, judged = by_query(run_df).to_delayed(), by_query(qrels_df).to_delayed()
    return [dask.delayed(chunk)(r, q) for r, q in zip(runs, judged, strict=True)]


def _evaluate(
    qrels_df: Any,
    run_df: Any,
    measures: str | Iterable[str],
    columns: tuple[str, str, str, str],
    tag: str,
    opts: EvalOptions,
    n: int,
    split_every: int,
) -> RankingResult:
    """The measures of document-level qrels: ranked states per partition, merged in a tree."""
    query, doc, score, relevance = columns
    conv = opts.conventions()
    requests = parse_requests(measures, conv.renames)
    dask = require("dask", "dask")
    chunk = partial(
        _state_of,
        columns=columns,
        tag=tag,
        max_docs=opts.max_docs,
        judged_only=opts.judged_only,
        conventions=conv,
        rel_level=opts.rel_level,
    )
    states = _pairs(
        qrels_df[[query, doc, relevance]], run_df[[query, doc, score]], query, opts, n, chunk
    )
    while len(states) > 1:
        states = [
            dask.delayed(merge_all)(*states[i : i + split_every])
            for i in range(0, len(states), split_every)
        ]
    (state,) = dask.compute(states[0])
    if state is None:
        raise EmptyInputError(
            "no query is in both the run and the qrels (pass all_queries=True to score the "
            "qrels queries the run misses as 0)"
        )
    return compute(
        state, requests, rel_level=opts.rel_level, per_query=opts.per_query, conventions=conv
    )
