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

from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._optional import require
from ..ranking import RankingResult
from ..ranking._evaluate import compute
from ..ranking._options import EvalOptions
from ..ranking._parse import parse_requests
from ..ranking._partition import merge_all, partition_state
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
    conv = opts.conventions()
    check_split_every(split_every)
    requests = parse_requests(measures, conv.renames)
    run_cols = check_frame(run_df, [query, doc, score], "run_df")
    qrels_cols = check_frame(qrels_df, [query, doc, relevance], "qrels_df")
    dask = require("dask", "dask")
    n = run_df.npartitions if npartitions is None else int(npartitions)
    if n < 1:
        raise ParameterError(f"npartitions={npartitions!r} must be at least 1")
    if conv.ties == "input_order":
        meta = run_df[run_cols]._meta.assign(**{_POS: np.zeros(0, np.int64)})
        run_df = run_df[run_cols].map_partitions(_input_position, meta=meta)
        run_cols = [*run_cols, _POS]

    def by_query(frame: Any, cols: list[str]) -> Any:
        keyed = frame[cols].assign(**{_KEY: frame[query].astype(str).astype(object)})
        return keyed.shuffle(on=_KEY, npartitions=n)

    runs = by_query(run_df, run_cols).to_delayed()
    judged = by_query(qrels_df, qrels_cols).to_delayed()
    chunk = partial(
        _state_of,
        columns=(query, doc, score, relevance),
        tag=str(tag),
        max_docs=opts.max_docs,
        judged_only=opts.judged_only,
        conventions=conv,
        rel_level=opts.rel_level,
    )
    states = [dask.delayed(chunk)(r, q) for r, q in zip(runs, judged, strict=True)]
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
