"""``evaluate`` over Spark DataFrames: rows grouped by query in the JVM, a ranked state per partition.

The run's rows are grouped by query in the JVM: one ``collect_list`` per
column and a ``count`` of the rows (fewer values than rows: a null, raised
naming the frame and column). The grouping is an aggregation, so Spark
combines the rows of a query within each input partition before the shuffle
(as MLlib's ``groupBy`` + ``collect_list`` input for ``RankingEvaluator``):
the shuffle moves one row per query and input partition, not one per
document, and no row is shuffled at all when the run is already partitioned
by query. Query and document ids are text, so an integer 7 and a string "7"
meet as in a TREC file; integers stay integers when both frames have them.

The judgments meet the run in one of two ways. Small ones (Spark's own rule
for a broadcast join: the size estimate under
``spark.sql.autoBroadcastJoinThreshold``) are read on the driver as Arrow
(no Python worker), checked and built into ``Qrels`` there, and travel to the
workers with the task; each worker ranks its run queries against them, and
the judged queries no worker saw (the run's missing ones) are evaluated on
the driver. Larger ones are put in one frame with the run's rows (each row
holding its frame's columns and NULL in the other's, which ``collect_list``
skips) and grouped with them.

Each partition then holds whole queries, one row each; the lists arrive as
Arrow list columns of plain values, whose flat values are the rows query
after query and whose lengths are the segments: the query of each row is
coded from the few distinct query ids (``run_from_segments``), never hashed
row by row, and there is no per-row Python. The Python stage runs one task
per core (each task costs a fixed round trip to a Python worker), and a
worker ranks its queries a chunk of list values at a time (``_CHUNK``), so
its memory is bounded. The ranking engine gives each chunk's ``RankedState``
(the relevance code of each retrieved document in rank order and the
judgment counts of its queries), sent back as JSON; the driver concatenates
the states of the disjoint query sets in a balanced tree (``merge_states``)
and computes the measures once, so per-query values and summaries (means,
``gm_map``, micro ratios) are those of :func:`scorekit.evaluate`. The driver
holds one small integer per retrieved document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from .._errors import EmptyInputError, LabelError, NonFiniteError
from .._optional import require
from .._threads import run_two
from ..ranking import RankingResult
from ..ranking._conventions import Conventions, check_gain_grades
from ..ranking._data import Qrels
from ..ranking._evaluate import compute
from ..ranking._options import EvalOptions
from ..ranking._order import segments
from ..ranking._parse import parse_requests
from ..ranking._partition import (
    merge_all,
    partition_state,
    qrels_from_segments,
    run_from_segments,
)
from ..ranking._state import RankedState
from ..stream._base import decode_array, encode_array
from ._reduce import (
    check_frame,
    collect_arrow,
    collect_states,
    gathered,
    one_wave,
    partitions,
    values,
)

__all__ = ["evaluate"]

_RUN, _QRELS = "__scorekit_run_", "__scorekit_qrels_"  # column prefixes of the two frames
_DOC = "docs"  # a query's document ids (a list)
_VALUE = "values"  # its scores or grades (a list)
_POS = "positions"  # its rows' positions in run_df (a list; ties="input_order")
_ROWS = "rows"  # how many rows it has (collect_list skips nulls: fewer values mean nulls)


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


def _rows(batch: Any, prefix: str) -> Any:
    """Per query (row of the grouped frame), how many rows a frame has there (maybe 0)."""
    return batch.column(prefix + _ROWS).fill_null(0).to_numpy(zero_copy_only=False)


def _side_rows(
    batch: Any, ids: Any, prefix: str, frame: str, labels: tuple[str, ...]
) -> tuple[Any, Any, list[Any]] | None:
    """One frame's rows in a partition: the ids of its queries, their row counts, the columns.

    The list columns (``labels``: the frame's names of the document, value and
    position columns) are flattened: the values of every row, query after
    query (NumPy arrays, null and NaN checked). ``collect_list`` skips nulls,
    so lists shorter than the query's row count had nulls: that raises,
    naming the frame and the column. ``None`` when the frame has no row here.
    """
    rows = _rows(batch, prefix)
    if not rows.any():
        return None
    flat = []
    for name, label in zip((_DOC, _VALUE, _POS), labels, strict=False):
        lists = batch.column(prefix + name)
        lengths = lists.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
        missing = int((rows - lengths).sum())
        if missing:
            raise NonFiniteError(f"{frame} column {label!r} has {missing} null values")
        flat.append(values(lists.flatten(), f"{frame} column {label!r}", finite=True))
    has = rows > 0
    return ids[has], rows[has], flat


_CHUNK = 1 << 20  # list values ranked at a time in a worker (Spark's batches: 10,000 queries)


def _state_of(
    batches: Iterator[Any],
    *,
    columns: tuple[str, str, str, str],
    ordered: bool,
    qrels: Qrels | None = None,
    chunk: int,
    **options: Any,
) -> dict[str, Any] | None:
    """The ranked state of one partition (whole queries, one row each: lists), JSON-safe.

    ``qrels``: the judgments, broadcast (the rows hold the run only); else
    the rows hold both frames' lists. Ranked ``chunk`` list values at a time.
    """
    lists = (_RUN + _DOC,) if qrels is not None else (_RUN + _DOC, _QRELS + _DOC)
    states = [
        _chunk_state(batch, columns=columns, ordered=ordered, qrels=qrels, **options)
        for batch in gathered(batches, chunk, partial(_list_values, lists=lists))
    ]
    state = merge_all(*states)
    return None if state is None else _encode_state(state)


def _list_values(batch: Any, lists: tuple[str, ...]) -> int:
    """How many values the list columns ``lists`` of an Arrow batch hold."""
    total = 0
    for name in lists:
        offsets = batch.column(name).offsets
        total += offsets[-1].as_py() - offsets[0].as_py()
    return total


def _chunk_state(
    batch: Any,
    *,
    columns: tuple[str, str, str, str],
    ordered: bool,
    qrels: Qrels | None,
    **options: Any,
) -> RankedState | None:
    query, doc, score, relevance = columns
    keys = batch.column(query)
    prefixes = (
        ((_RUN, "run_df"),) if qrels is not None else ((_RUN, "run_df"), (_QRELS, "qrels_df"))
    )
    if keys.null_count:  # a null query id: name the frame it came from
        null = keys.is_null().to_numpy(zero_copy_only=False)
        for prefix, frame in prefixes:
            bad = int(_rows(batch, prefix)[null].sum())
            if bad:
                raise NonFiniteError(f"{frame} column {query!r} has {bad} null values")
    ids = keys.to_numpy(zero_copy_only=False)
    run_side = _side_rows(batch, ids, _RUN, "run_df", (doc, score, _POS)[: 3 if ordered else 2])
    run = judged = None
    if run_side is not None:
        q, n, (d, s, *pos) = run_side
        run = partial(
            run_from_segments, q, n, d, s, tag=options["tag"], positions=next(iter(pos), None)
        )
    if qrels is not None:
        judged = lambda: qrels  # noqa: E731
    else:
        qrels_side = _side_rows(batch, ids, _QRELS, "qrels_df", (doc, relevance))
        if qrels_side is not None:
            q, n, (d, r) = qrels_side
            judged = partial(qrels_from_segments, q, n, d, r)
    return partition_state(run, judged, **options)


def _quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _id_column(frame: Any, name: str, which: str, text: bool) -> str:
    """The id column as text when ``text`` (an SQL expression); floating-point ids raise.

    As in ``Run.from_arrays``: ids are strings or integers.
    """
    types = require("pyspark.sql.types", "spark")
    dtype = frame.schema[name].dataType
    if not isinstance(dtype, (types.StringType, types.IntegralType)):
        raise LabelError(
            f"{which} column {name!r} must hold strings or integers, got {dtype.simpleString()}"
        )
    return f"CAST({_quoted(name)} AS {'STRING' if text else 'BIGINT'})"


def _integral(name: str, *frames: Any) -> bool:
    types = require("pyspark.sql.types", "spark")
    return all(isinstance(f.schema[name].dataType, types.IntegralType) for f in frames)


def _rows_of(
    frame: Any,
    which: str,
    prefix: str,
    cols: tuple[str, str, str],
    text: tuple[bool, bool],
    ordered: bool = False,
) -> Any:
    """One frame's rows: the query, its columns named with ``prefix``, a marker (the value 1)."""
    query, doc, value = cols
    return frame.selectExpr(
        f"{_id_column(frame, query, which, text[0])} AS {_quoted(query)}",
        f"{_id_column(frame, doc, which, text[1])} AS {prefix}{_DOC}",
        f"{_quoted(value)} AS {prefix}{_VALUE}",
        f"1 AS {prefix}{_ROWS}",
        # the position in the frame, before any shuffle (ties="input_order")
        *([f"monotonically_increasing_id() AS {prefix}{_POS}"] if ordered else []),
    )


def _grouped(
    qrels_df: Any | None,
    run_df: Any,
    columns: tuple[str, str, str, str],
    conv: Conventions,
    text: tuple[bool, bool],
) -> Any:
    """One row per query: the lists of its run rows' and qrels rows' values, and their counts.

    The two frames are put in one (each row holds its frame's columns and
    NULL in the other frame's) and grouped by query: an aggregation
    (``groupBy`` + ``collect_list``, which skips the NULLs; ``count`` of a
    frame's marker gives its number of rows), so the rows of a query are
    combined within each input partition before the shuffle, and a frame
    already partitioned by query is not shuffled. Written as SQL expressions:
    each DataFrame call is a round trip to the JVM. ``qrels_df=None`` (the
    judgments are broadcast): the run's rows only.
    """
    F = require("pyspark.sql.functions", "spark")
    query, doc, score, relevance = columns
    ordered = conv.ties == "input_order"
    both = _rows_of(run_df, "run_df", _RUN, (query, doc, score), text, ordered)
    lists = [_RUN + _DOC, _RUN + _VALUE] + ([_RUN + _POS] if ordered else [])
    counts = [_RUN + _ROWS]
    if qrels_df is not None:
        qrels = _rows_of(qrels_df, "qrels_df", _QRELS, (query, doc, relevance), text)
        both = both.unionByName(qrels, allowMissingColumns=True)
        lists += [_QRELS + _DOC, _QRELS + _VALUE]
        counts += [_QRELS + _ROWS]
    return both.groupBy(query).agg(
        *(F.expr(f"collect_list({c}) AS {c}") for c in lists),
        *(F.expr(f"count({c}) AS {c}") for c in counts),
    )


def _small(qrels_df: Any) -> bool:
    """Whether Spark would broadcast ``qrels_df`` in a join.

    That is: its size estimate is at most ``spark.sql.autoBroadcastJoinThreshold``
    (10 MB by default; -1: never). The estimate is the optimizer's (exact for a
    cached or local frame, the files' size for a file scan); without it (Spark
    Connect) the answer is no.
    """
    try:
        plan = qrels_df._jdf.queryExecution().optimizedPlan()
        size = int(str(plan.stats().sizeInBytes()))
        conf = qrels_df.sparkSession._jsparkSession.sessionState().conf()
        limit = int(conf.autoBroadcastJoinThreshold())
    except Exception:  # no JVM handle (Spark Connect) or another API: don't broadcast
        return False
    return 0 <= size <= limit


def _driver_qrels(
    qrels_df: Any, columns: tuple[str, str, str, str], text: tuple[bool, bool]
) -> tuple[Any, Any, Any] | None:
    """The judgments on the driver: ``(query, doc, grade)`` arrays (nulls raise, naming the column).

    Read as Arrow straight from the JVM (no Python worker); ``None`` without rows.
    """
    query, doc, _, relevance = columns
    batch = collect_arrow(
        qrels_df.selectExpr(
            f"{_id_column(qrels_df, query, 'qrels_df', text[0])} AS q",
            f"{_id_column(qrels_df, doc, 'qrels_df', text[1])} AS d",
            f"{_quoted(relevance)} AS r",
        )
    )
    if batch is None:
        return None
    q, d, r = (
        values(batch.column(i), f"qrels_df column {label!r}", finite=True)
        for i, label in enumerate((query, doc, relevance))
    )
    return q, d, r


def _missing_state(state: RankedState | None, judged: Qrels, **options: Any) -> RankedState | None:
    """The state of the judged queries no run row has (``missing_queries`` "zero" or "error").

    With the judgments broadcast, each worker ranks only its run's queries;
    the queries of the judgments that no worker saw are the run's missing
    ones, evaluated here as a partition with no run rows (all zero, or the
    error naming them). Their rows are read from ``judged`` (grouped by query).
    """
    if options["conventions"].missing_queries == "ignore":
        return None
    coded = judged._coded
    seen = np.zeros(0, coded.queries.dtype) if state is None else state.qids
    size = max(coded.queries.dtype.itemsize, seen.dtype.itemsize)
    missing = np.flatnonzero(~np.isin(coded.queries.astype(f"S{size}"), seen.astype(f"S{size}")))
    if not missing.size:
        return None
    length = coded.starts[missing + 1] - coded.starts[missing]
    rows = segments(coded.starts[missing], length)
    ids = np.repeat(coded.queries[missing], length)
    return partition_state(None, (ids, coded.doc[rows], judged.relevance[rows]), **options)


def _ranked(
    grouped: Any,
    run_df: Any,
    columns: tuple[str, str, str, str],
    conv: Conventions,
    npartitions: int | None,
    qrels: Qrels | None,
    options: dict[str, Any],
) -> RankedState | None:
    """The ranked states of the partitions of ``grouped`` (one row per query), concatenated."""
    if npartitions is not None:
        grouped = grouped.repartition(partitions(run_df, npartitions), columns[0])
    else:
        grouped = one_wave(grouped)
    work = partial(
        _state_of,
        columns=columns,
        ordered=conv.ties == "input_order",
        qrels=qrels,
        chunk=_CHUNK,  # read here: the workers get the driver's value
        **options,
    )
    states = collect_states(grouped, work)
    return merge_all(*(None if s is None else _decode_state(s) for s in states))


def _broadcast_state(
    qrels_df: Any,
    run_df: Any,
    columns: tuple[str, str, str, str],
    conv: Conventions,
    text: tuple[bool, bool],
    npartitions: int | None,
    options: dict[str, Any],
) -> RankedState | None:
    """The ranked state with the judgments read on the driver and sent to every worker.

    Each worker ranks its run queries against them (as ``missing_queries=
    "ignore"``); the judged queries no worker saw are the run's missing ones,
    evaluated here (:func:`_missing_state`). The judgments' job runs while
    this thread has the JVM plan the run's grouping.
    """
    grouped, rows = run_two(
        lambda: _grouped(None, run_df, columns, conv, text),
        lambda: _driver_qrels(qrels_df, columns, text),
    )
    if rows is None:
        return None
    judged = Qrels.from_arrays(*rows)
    check_gain_grades(conv, judged.relevance)
    work = {**options, "conventions": replace(conv, missing_queries="ignore")}
    state = _ranked(grouped, run_df, columns, conv, npartitions, judged, work)
    return merge_all(state, _missing_state(state, judged, **options))


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
    broadcast_qrels: bool | None = None,
) -> RankingResult:
    """:func:`scorekit.evaluate` of a run and qrels held in Spark DataFrames.

    ``run_df`` has columns ``query, doc, score`` and ``qrels_df`` columns
    ``query, doc, relevance`` (other names with the keyword arguments; ids are
    strings or integers). The run's rows (and the judgments' rows, unless
    they are broadcast: see ``broadcast_qrels``) are grouped by query in the
    JVM (``groupBy`` + ``collect_list``: the rows of a query are combined in
    each input partition before the shuffle, and a frame already partitioned
    by query is not shuffled), so each partition holds whole queries: one
    Python task per core (``coalesce``), or ``npartitions`` when given (one
    more shuffle, of the grouped rows). Each partition gives the engine's ranked
    state, the states are concatenated on the driver, and the measures run
    once: the result (per-query values, means, ``to_trec_eval()``) is that of
    :func:`scorekit.evaluate`. Options as :func:`scorekit.evaluate` (keywords
    or ``options=EvalOptions(...)``), conventions too (``ties="input_order"`` is the order of the rows in
    ``run_df``, partition by partition). A null id, score or grade raises,
    naming the frame and the column.

    ``broadcast_qrels``: when the judgments are small (by default: when
    Spark would broadcast ``qrels_df`` in a join, its size estimate at most
    ``spark.sql.autoBroadcastJoinThreshold``), they are read on the driver
    (Arrow, no Python worker), checked there and sent to every worker with
    the task; only the run's rows are grouped by query. ``True`` or ``False``
    forces the choice. Either way the result is the same, to the bit.

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
    # integer ids stay integers (the engine writes them as decimal text); else all as text
    text = (not _integral(query, run_df, qrels_df), not _integral(doc, run_df, qrels_df))
    options_: dict[str, Any] = {
        "tag": str(tag),
        "max_docs": opts.max_docs,
        "judged_only": opts.judged_only,
        "conventions": conv,
        "rel_level": opts.rel_level,
    }
    if _small(qrels_df) if broadcast_qrels is None else broadcast_qrels:
        state = _broadcast_state(qrels_df, run_df, columns, conv, text, npartitions, options_)
    else:
        grouped = _grouped(qrels_df, run_df, columns, conv, text)
        state = _ranked(grouped, run_df, columns, conv, npartitions, None, options_)
    if state is None:
        raise EmptyInputError(
            "no query is in both the run and the qrels (pass all_queries=True to score the "
            "qrels queries the run misses as 0)"
        )
    return compute(
        state, requests, rel_level=opts.rel_level, per_query=opts.per_query, conventions=conv
    )
