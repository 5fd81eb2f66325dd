"""Partitions -> Arrow batches -> one JSON state per partition -> merged on the driver.

Every ``scorekit.spark`` function runs one ``mapInArrow`` job (but see below): in each
partition the Python worker receives Arrow record batches of the needed
columns, turns each column into a NumPy array (no per-row Python), feeds the
batches to a ``scorekit.stream`` accumulator (the family's chunk kernel), and
yields a single row: the accumulator's ``to_dict()`` as JSON. The driver
collects those rows (one per non-empty partition) and merges them with
``merge`` (the family's merge kernel, through the accumulator's binary-counter
stack, so states of similar size meet: a tree merge on the driver).

``roc_auc`` / ``average_precision`` without weights (``aggregate``) run no Python
worker at all: the JVM counts the distinct (label, score) pairs and the
driver reads them as Arrow (:func:`collect_arrow`), already a curve's worth.

Why collect and not ``RDD.treeReduce``: the states are the sufficient
statistics (distinct scores, label pairs, exact sums), small next to the rows;
the driver needs the whole merged state anyway to compute the metric, and a
``treeReduce`` would add a stage and a JSON round trip per tree level.

Errors are data: a :class:`scorekit.ScorekitError` raised in a worker (a null
or NaN in a column, a third class, a negative weight) is sent back in the
partition's row and raised again on the driver, same class, same message, so
the user sees the scorekit error naming the column and not a Java traceback.
scorekit's warnings raised in the workers (``OmittedRowsWarning``) are
replayed on the driver too.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

import numpy as np

from .. import _errors
from .._errors import NonFiniteError, ParameterError, ScorekitError, ShapeError
from .._optional import require
from .._typing import AnyArray
from ..stream._base import Accumulator

__all__: list[str] = []

_SCHEMA = "state string"
Column = str | Sequence[str]  # one column, or several stacked as the columns of a 2-D array


def check_frame(df: Any, columns: Iterable[Column | None], name: str = "df") -> list[str]:
    """The distinct column names used; raise naming a missing one or a non-Spark frame."""
    if not hasattr(df, "mapInArrow") or not hasattr(df, "columns"):
        raise ShapeError(f"{name} must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    wanted: list[str] = []
    for c in columns:
        if c is None:
            continue
        for n in [c] if isinstance(c, str) else list(c):
            if not isinstance(n, str):
                raise ParameterError(f"column names must be strings, got {n!r}")
            wanted.append(n)
    have = list(df.columns)
    missing = [c for c in wanted if c not in have]
    if missing:
        raise ParameterError(f"{name} has no column {missing[0]!r}; its columns are {have[:20]}")
    return list(dict.fromkeys(wanted))


def partitions(df: Any, npartitions: int | None) -> int:
    """``npartitions`` checked (an integer >= 1), or the number of partitions of ``df``."""
    if npartitions is None:
        n: int = df.rdd.getNumPartitions()
        return n
    if isinstance(npartitions, bool) or not isinstance(npartitions, int) or npartitions < 1:
        raise ParameterError(f"npartitions={npartitions!r} must be an integer >= 1")
    return npartitions


def one_wave(df: Any) -> Any:
    """``df`` with at most one partition per core of the cluster (``coalesce``: no shuffle).

    Each Python task costs a fixed round trip between the JVM and a Python
    worker (tens of milliseconds here), so a stage of many small Python tasks
    spends more on them than on the rows. Coalescing reads several partitions
    in one task, one after another (each partition's aggregation is still its
    own): the Python side streams its batches, so its memory does not grow.
    Without a ``SparkContext`` (Spark Connect) ``df`` is returned as is.
    """
    try:
        cores = int(df.sparkSession.sparkContext.defaultParallelism)
    except Exception:  # Spark Connect has no SparkContext (and raises its own error)
        return df
    return df.coalesce(cores) if cores > 0 else df


def column(batch: Any, name: str, *, finite: bool, frame: str = "") -> AnyArray:
    """A column of an Arrow batch as a NumPy array; raise naming it if it has nulls (or NaN).

    ``frame`` (``"run_df"``) prefixes the column's name in the message.
    """
    where = f"{frame} column {name!r}" if frame else f"column {name!r}"
    return values(batch.column(name), where, finite=finite)


def values(col: Any, where: str, *, finite: bool) -> AnyArray:
    """An Arrow array as a NumPy array; raise naming it (``where``) if it has nulls (or NaN)."""
    pa = require("pyarrow", "spark")
    if col.null_count:
        raise NonFiniteError(f"{where} has {col.null_count} null values")
    if pa.types.is_decimal(col.type):
        col = col.cast(pa.float64())
    arr: AnyArray = col.to_numpy(zero_copy_only=False)
    if finite and arr.dtype.kind == "f":
        bad = int(np.count_nonzero(~np.isfinite(arr)))
        if bad:
            raise NonFiniteError(f"{where} has {bad} NaN or infinite values")
    return arr


def columns(batch: Any, spec: Column, *, finite: bool) -> AnyArray:
    """One argument of ``update``: a column, or several stacked as a 2-D array."""
    if isinstance(spec, str):
        return column(batch, spec, finite=finite)
    return np.column_stack([column(batch, n, finite=finite) for n in spec])


def _partition(batches: Iterator[Any], *, work: Callable[[Iterator[Any]], Any]) -> Iterator[Any]:
    """The ``mapInArrow`` function: ``work`` over the non-empty batches, one JSON row out."""
    pa = require("pyarrow", "spark")
    nonempty = (b for b in batches if b.num_rows)
    first = next(nonempty, None)
    if first is None:
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            payload: dict[str, Any] = {"state": work(_chain(first, nonempty))}
        except ScorekitError as exc:
            payload = {"error": type(exc).__name__, "message": str(exc)}
    payload["warnings"] = [
        [w.category.__name__, str(w.message)]
        for w in caught
        if w.category.__module__.startswith("scorekit")  # ours; a library's stay in the worker
    ]
    yield pa.RecordBatch.from_pydict({"state": [json.dumps(payload)]})


def _chain(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


def _raise(payload: dict[str, Any]) -> None:
    cls = getattr(_errors, payload["error"], None)
    if not (isinstance(cls, type) and issubclass(cls, ScorekitError)):
        cls = ScorekitError
    raise cls(payload["message"])


def _replay(caught: list[list[str]]) -> None:
    for category, message in caught:
        cls = getattr(_errors, category, None)
        if not (isinstance(cls, type) and issubclass(cls, Warning)):
            cls = UserWarning
        warnings.warn(message, cls, stacklevel=4)


def collect_states(df: Any, work: Callable[[Iterator[Any]], Any]) -> list[Any]:
    """Run ``work`` (Arrow batches -> JSON-safe state) on every non-empty partition of ``df``.

    Returns the states (in partition order); a ScorekitError raised by a
    worker is raised here, warnings are replayed.
    """
    with warnings.catch_warnings():
        # pyspark 4 warns on pandas 3 in mapInArrow; this path uses Arrow only, never pandas
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas")
        rows = df.mapInArrow(partial(_partition, work=work), _SCHEMA).collect()
    payloads = [json.loads(r[0]) for r in rows]
    for p in payloads:
        _replay(p["warnings"])
    for p in payloads:
        if "error" in p:
            _raise(p)
    return [p["state"] for p in payloads]


def collect_arrow(df: Any) -> Any:
    """All rows of ``df`` on the driver as one Arrow record batch (for small, aggregated frames).

    No Python worker runs: the JVM writes Arrow straight to the driver
    (``DataFrame.toArrow``; ``_collect_as_arrow`` on pyspark 3.5).
    """
    pa = require("pyarrow", "spark")
    to_arrow = getattr(df, "toArrow", None)
    if to_arrow is not None:
        table = to_arrow()
    else:  # pragma: no cover - pyspark 3.5
        batches = df._collect_as_arrow()
        if not batches:
            return None
        table = pa.Table.from_batches(batches)
    return table.combine_chunks().to_batches()[0] if table.num_rows else None


def _feed(
    batches: Iterator[Any],
    *,
    cls: type[Accumulator],
    params: dict[str, Any],
    args: tuple[Column, ...],
    weight: str | None,
    finite: bool,
) -> dict[str, Any]:
    acc = cls(**params)
    for batch in gathered(batches):
        values = [columns(batch, a, finite=finite) for a in args]
        if weight is None:
            acc.update(*values)  # type: ignore[attr-defined]
        else:
            w = column(batch, weight, finite=finite)
            acc.update(*values, sample_weight=w)  # type: ignore[attr-defined]
    return acc.to_dict()


_GATHER_ROWS = 1 << 20


def gathered(
    batches: Iterator[Any], rows: int = _GATHER_ROWS, size: Callable[[Any], int] | None = None
) -> Iterator[Any]:
    """Spark's Arrow batches (10,000 rows by default) joined into batches of ~``rows`` rows.

    Each ``update`` of an accumulator costs a fixed part (a sort of the chunk,
    a merge into the state): a thousand small updates per partition cost more
    than the rows. The accumulators give the same state for any chunking
    (streamed == one-shot, bit for bit), so joining changes no value.
    ``size(batch)`` counts something else than its rows towards ``rows``
    (e.g. list values); a batch that fills a chunk by itself is not copied.
    """
    pa = require("pyarrow", "spark")
    held: list[Any] = []
    count = 0
    for batch in batches:
        held.append(batch)
        count += batch.num_rows if size is None else size(batch)
        if count >= rows:
            yield _joined(pa, held)
            held, count = [], 0
    if held:
        yield _joined(pa, held)


def _joined(pa: Any, held: list[Any]) -> Any:
    if len(held) == 1:
        return held[0]
    return pa.Table.from_batches(held).combine_chunks().to_batches()[0]


def merge_states(cls: type[Accumulator], params: dict[str, Any], states: list[Any]) -> Any:
    """One accumulator holding every state (merged through the accumulator's merge stack)."""
    out = cls(**params)
    for d in states:
        out.merge(cls.from_dict(d))
    return out


def reduce_frame(
    df: Any,
    cls: type[Accumulator],
    params: dict[str, Any],
    args: Sequence[Column],
    weight: str | None = None,
    *,
    finite: bool = True,
) -> Any:
    """The accumulator ``cls(**params)`` fed with every row of ``df`` (columns ``args``, ``weight``).

    ``finite``: nulls always raise; NaN and infinities in float columns raise
    too when True (``nan_policy="raise"``) and are left to the accumulator
    otherwise.
    """
    cls(**params)  # check the options on the driver, before any job
    cols = check_frame(df, [*args, weight])
    work = partial(_feed, cls=cls, params=params, args=tuple(args), weight=weight, finite=finite)
    return merge_states(cls, params, collect_states(one_wave(df.select(*cols)), work))
