"""``evaluate`` over Spark DataFrames: rows grouped by query in the JVM, a ranked state per partition.

The run and the qrels rows are put in one frame (query and document ids as
text, so an integer 7 and a string "7" meet, as in a TREC file; integers stay
integers when both frames have them) and grouped by query in the JVM: each
row becomes a struct (document, score, grade, kind: 0 a run row, 1 a qrels
row), and ``collect_list`` gathers one list per query. The grouping is an
aggregation, so Spark combines the rows of a query within each input
partition before the shuffle (as MLlib's ``groupBy`` + ``collect_list`` input
for ``RankingEvaluator``): the shuffle moves one row per query and input
partition, not one per document, and no row is shuffled at all when the
frames are already partitioned by query. Each partition then holds whole
queries; its Arrow batches (a list column of structs: flattened, so columnar,
no per-row Python) give the ranking engine's ``RankedState`` (the relevance
code of each retrieved document in rank order and the judgment counts of its
queries), sent back as JSON; the driver concatenates the states of the
disjoint query sets in a balanced tree (``merge_states``) and computes the
measures once, so per-query values and summaries (means, ``gm_map``, micro
ratios) are those of :func:`scorekit.evaluate`. The driver holds one small
integer per retrieved document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from typing import Any

import numpy as np

from .._errors import EmptyInputError, LabelError, NonFiniteError
from .._optional import require
from ..ranking import RankingResult
from ..ranking._conventions import Conventions
from ..ranking._evaluate import compute
from ..ranking._ids import id_bytes
from ..ranking._options import EvalOptions
from ..ranking._parse import parse_requests
from ..ranking._partition import merge_all, partition_state
from ..ranking._state import RankedState
from ..stream._base import decode_array, encode_array
from ._reduce import check_frame, collect_states, column, partitions

__all__ = ["evaluate"]

_KIND = "__scorekit_kind"  # 0: a run row, 1: a qrels row
_POS = "__scorekit_input_position"
_ROWS = "__scorekit_rows"  # the list of a query's rows (structs)


def _narrow(a: Any) -> Any:
    """An integer array in the smallest signed type holding its values (bool, bytes unchanged)."""
    if a.dtype.kind != "i" or a.size == 0:
        return a
    lo, hi = int(a.min()), int(a.max())
    for t in (np.int8, np.int16, np.int32):
        info = np.iinfo(t)
        if info.min <= lo and hi <= info.max:
            return a.astype(t)
    return a


def _encode_state(state: RankedState) -> dict[str, Any]:
    """The state, JSON-safe; integer arrays travel in their smallest type (codes: one byte each)."""
    out: dict[str, Any] = {"dtypes": {}}
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if v is None or isinstance(v, str):
            out[f.name] = v
        else:
            out[f.name] = encode_array(_narrow(v))
            out["dtypes"][f.name] = v.dtype.str
    return out


def _decode_state(d: dict[str, Any]) -> RankedState:
    dtypes = d.pop("dtypes")
    fields: dict[str, Any] = {
        k: v if v is None or isinstance(v, str) else decode_array(v).astype(dtypes[k], copy=False)
        for k, v in d.items()
    }
    return RankedState(**fields)


def _state_of(
    batches: Iterator[Any],
    *,
    columns: tuple[str, str, str, str],
    ordered: bool,
    **options: Any,
) -> dict[str, Any] | None:
    """The ranked state of one partition (whole queries: one list of rows each), JSON-safe."""
    pa = require("pyarrow", "spark")
    query, doc, score, relevance = columns
    table = pa.Table.from_batches(list(batches)).combine_chunks()
    keys, lists = table.column(query).chunk(0), table.column(_ROWS).chunk(0)
    rows = pa.RecordBatch.from_struct_array(lists.flatten())
    lengths = lists.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
    kind = column(rows, _KIND, finite=True)
    is_run = kind == 0
    if keys.null_count:  # a null query id: name the frame it came from
        null_rows = np.repeat(keys.is_null().to_numpy(zero_copy_only=False), lengths)
        n_run = int(np.count_nonzero(null_rows & is_run))
        which, bad = ("run_df", n_run) if n_run else ("qrels_df", int(null_rows.sum()) - n_run)
        raise NonFiniteError(f"{which} column {query!r} has {bad} null values")
    # the query id of each row: the ids of the (few) queries as bytes, repeated
    qids = np.repeat(id_bytes(keys.to_numpy(zero_copy_only=False), query), lengths)
    run = qrels = None
    if is_run.any():
        b = rows.filter(pa.array(is_run))
        q, d, s = (
            qids[is_run],
            column(b, doc, finite=True, frame="run_df"),
            column(b, score, finite=True, frame="run_df"),
        )
        if ordered:  # ties="input_order": rows back in the frame's order
            order = np.argsort(column(b, _POS, finite=True), kind="stable")
            q, d, s = q[order], d[order], s[order]
        run = (q, d, s)
    if not is_run.all():
        b = rows.filter(pa.array(~is_run))
        d, r = (column(b, c, finite=True, frame="qrels_df") for c in (doc, relevance))
        qrels = (qids[~is_run], d, r)
    state = partition_state(run, qrels, **options)  # type: ignore[arg-type]
    return None if state is None else _encode_state(state)


def _id_column(frame: Any, name: str, which: str, text: bool) -> Any:
    """The id column (as text when ``text``); floating-point ids raise, as in ``Run.from_arrays``."""
    types = require("pyspark.sql.types", "spark")
    dtype = frame.schema[name].dataType
    if not isinstance(dtype, (types.StringType, types.IntegralType)):
        raise LabelError(
            f"{which} column {name!r} must hold strings or integers, got {dtype.simpleString()}"
        )
    return (frame[name].cast("string") if text else frame[name].cast("long")).alias(name)


def _integral(name: str, *frames: Any) -> bool:
    types = require("pyspark.sql.types", "spark")
    return all(isinstance(f.schema[name].dataType, types.IntegralType) for f in frames)


def _grouped(
    qrels_df: Any, run_df: Any, columns: tuple[str, str, str, str], conv: Conventions
) -> Any:
    """One row per query: the query id and the list of its run rows and qrels rows (structs).

    An aggregation (``groupBy`` + ``collect_list``), so the rows of a query
    are combined within each input partition before the shuffle; a frame
    already partitioned by query is not shuffled.
    """
    F = require("pyspark.sql.functions", "spark")
    query, doc, score, relevance = columns
    # integer ids stay integers (the engine writes them as decimal text); else all as text
    text_q, text_d = (not _integral(c, run_df, qrels_df) for c in (query, doc))
    score_t = run_df.schema[score].dataType
    rel_t = qrels_df.schema[relevance].dataType
    ordered = conv.ties == "input_order"
    run_row = [
        _id_column(run_df, doc, "run_df", text_d),
        run_df[score].alias(score),
        F.lit(None).cast(rel_t).alias(relevance),
        F.lit(0).cast("byte").alias(_KIND),
    ]
    qrels_row = [
        _id_column(qrels_df, doc, "qrels_df", text_d),
        F.lit(None).cast(score_t).alias(score),
        qrels_df[relevance].alias(relevance),
        F.lit(1).cast("byte").alias(_KIND),
    ]
    if ordered:  # the position in run_df, before any shuffle
        run_row.append(F.monotonically_increasing_id().alias(_POS))
        qrels_row.append(F.lit(0).cast("long").alias(_POS))
    run_side = run_df.select(
        _id_column(run_df, query, "run_df", text_q), F.struct(*run_row).alias(_ROWS)
    )
    qrels_side = qrels_df.select(
        _id_column(qrels_df, query, "qrels_df", text_q), F.struct(*qrels_row).alias(_ROWS)
    )
    both = run_side.unionByName(qrels_side)
    return both.groupBy(query).agg(F.collect_list(_ROWS).alias(_ROWS))


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
    npartitions: int | None = None,
) -> RankingResult:
    """:func:`scorekit.evaluate` of a run and qrels held in Spark DataFrames.

    ``run_df`` has columns ``query, doc, score`` and ``qrels_df`` columns
    ``query, doc, relevance`` (other names with the keyword arguments; ids are
    strings or integers). The rows of both are grouped by query in the JVM
    (``groupBy`` + ``collect_list``: the rows of a query are combined in each
    input partition before the shuffle, and a frame already partitioned by
    query is not shuffled), so each partition holds whole queries: as many
    partitions as Spark's aggregation gives (``spark.sql.shuffle.partitions``,
    coalesced by adaptive execution), or ``npartitions`` when given (one more
    shuffle, of the grouped rows). Each partition gives the engine's ranked
    state, the states are concatenated on the driver, and the measures run
    once: the result (per-query values, means, ``to_trec_eval()``) is that of
    :func:`scorekit.evaluate`. Options as :func:`scorekit.evaluate` (keywords
    or ``options=EvalOptions(...)``), conventions too (``ties="input_order"`` is the order of the rows in
    ``run_df``, partition by partition). A null id, score or grade raises,
    naming the frame and the column.

    Examples
    --------
    >>> qrels = spark.createDataFrame([("q", "a", 1), ("q", "c", 1), ("q", "z", 1)],
    ...                               ["query", "doc", "relevance"])
    >>> run = spark.createDataFrame([("q", "a", 0.9), ("q", "b", 0.8), ("q", "c", 0.7)],
    ...                             ["query", "doc", "score"])
    >>> res = evaluate(qrels, run, ["AP", "P@2"])
    >>> {k: round(v, 4) for k, v in res.mean().items()}
    {'AP': 0.5556, 'P@2': 0.5}
    >>> evaluate(qrels, run, "AP@2", ap_denominator="hits").mean()
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
    )
    conv = opts.conventions()
    requests = parse_requests(measures)
    check_frame(run_df, [query, doc, score], "run_df")
    check_frame(qrels_df, [query, doc, relevance], "qrels_df")
    columns = (query, doc, score, relevance)
    both = _grouped(qrels_df, run_df, columns, conv)
    if npartitions is not None:
        both = both.repartition(partitions(run_df, npartitions), query)
    work = partial(
        _state_of,
        columns=columns,
        ordered=conv.ties == "input_order",
        tag=str(tag),
        max_docs=opts.max_docs,
        judged_only=opts.judged_only,
        conventions=conv,
        rel_level=opts.rel_level,
    )
    states = [None if s is None else _decode_state(s) for s in collect_states(both, work)]
    state = merge_all(*states)
    if state is None:
        raise EmptyInputError(
            "no query is in both the run and the qrels (pass all_queries=True to score the "
            "qrels queries the run misses as 0)"
        )
    return compute(
        state, requests, rel_level=opts.rel_level, per_query=opts.per_query, conventions=conv
    )
