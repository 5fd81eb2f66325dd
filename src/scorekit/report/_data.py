"""What a report shows, computed with scorekit's own metrics and kept apart from drawing.

A :class:`Section` holds the scalar metrics (with bootstrap intervals), the
tables and the plot specifications (:class:`Plot`: the name of a drawing
function of :mod:`scorekit.report._svg` and its arguments) of one evaluation.
The builders (``classification_section`` ... in :mod:`._sections` and
:mod:`._ranking`) are shared by the command line and ``scorekit demo``: the
command prints ``section.metrics`` and the report draws the rest.

Which metrics a section shows is a list of catalog names (:mod:`scorekit._catalog`);
:func:`catalog_metrics` computes them from one accumulator state per input.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._catalog import MetricInfo
from .._typing import AnyArray

__all__ = [
    "Metric",
    "Plot",
    "Section",
    "Table",
    "catalog_metrics",
    "finite_or_none",
    "records",
]

MetricFn = Callable[..., Any]


@dataclass(frozen=True)
class Metric:
    """One scalar result and, when computed, its bootstrap interval.

    ``ci_level`` is the interval's confidence, ``resamples`` how many bootstrap
    resamples made it and ``unit`` what was resampled (``"rows"``, ``"groups"``,
    ``"queries"``). ``note`` says why a metric has no interval (an order
    statistic such as ``max_error``).
    """

    name: str
    value: float
    ci_low: float | None = None
    ci_high: float | None = None
    ci_level: float | None = None
    resamples: int | None = None
    unit: str | None = None
    note: str | None = None
    detail: Any = None  # a row that is not one number: its result (see structured())


@dataclass(frozen=True)
class Table:
    """A table of the report: column names and rows of plain values."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""
    collapsed: bool = False


@dataclass(frozen=True)
class Plot:
    """A figure to draw: ``draw`` names a function of ``scorekit.report._svg``, ``args`` its keywords."""

    draw: str
    caption: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    """One evaluation in a report: metrics, plots, tables and notes (each note is plain text)."""

    title: str
    kind: str
    metrics: tuple[Metric, ...] = ()
    plots: tuple[Plot, ...] = ()
    tables: tuple[Table, ...] = ()
    notes: tuple[str, ...] = ()
    confidence: float = 0.95

    def _repr_html_(self) -> str:
        """The section as the report draws it (notebooks call this)."""
        from ._html import section_html

        return section_html(self)

    def to_dict(self) -> dict[str, float]:
        """The metrics as ``{name: value}``.

        >>> Section("t", "x", metrics=(Metric("mae", 0.5),)).to_dict()
        {'mae': 0.5}
        """
        return {m.name: m.value for m in self.metrics}


def records(obj: Any) -> list[dict[str, Any]]:
    """Rows of a structured result as dicts: a structured array, ``to_dict()``, a mapping or a list.

    >>> records({"a": [1, 2], "b": [3, 4]})
    [{'a': 1, 'b': 3}, {'a': 2, 'b': 4}]
    """
    if isinstance(obj, np.ndarray) and obj.dtype.names:
        columns = {n: obj[n].tolist() for n in obj.dtype.names}
        return [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]
    if isinstance(obj, Mapping):
        if "rows" in obj and not isinstance(obj["rows"], (int, float)):
            return records(obj["rows"])
        values = list(obj.values())
        if values and all(isinstance(v, (list, tuple, np.ndarray)) for v in values):
            columns = {str(k): np.asarray(v).tolist() for k, v in obj.items()}
            return [
                dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)
            ]
        return [dict(obj)]
    if isinstance(obj, (list, tuple)):
        return [dict(r) if isinstance(r, Mapping) else records(r)[0] for r in obj]
    for attr in ("to_dict", "to_pandas"):
        method = getattr(obj, attr, None)
        if method is not None:
            out = method()
            if attr == "to_pandas":
                return list(out.to_dict("records"))
            return records(out)
    names = getattr(obj, "__dataclass_fields__", None)
    if names:
        return records({n: getattr(obj, n) for n in names})
    raise TypeError(f"cannot read the rows of a {type(obj).__name__} result")


def catalog_metrics(
    rows: Sequence[MetricInfo],
    data: Mapping[str, tuple[AnyArray, ...]],
    states: Mapping[str, Any],
    *,
    kwargs: Callable[[MetricInfo], Mapping[str, Any]] = lambda row: {},
    bootstrap: int = 0,
    seed: int = 0,
    confidence: float = 0.95,
    method: str = "percentile",
    progress: Callable[[int, int], None] | None = None,
    weights: str = "multinomial",
) -> tuple[Metric, ...]:
    """The value of each catalog row, from an accumulator state where one is at hand.

    ``data`` maps an input kind to the arrays of that kind; ``states`` maps an
    accumulator class name to an accumulator already fed with those arrays, so
    that one sort (or one confusion count) serves every row it computes. A row
    without a state is called on its arrays. ``kwargs(row)`` gives the options
    the caller adds (``pos_label``, the GAUC weights ...). With ``bootstrap > 0``
    rows get an interval (``method``: percentile, bca or basic) from
    :func:`scorekit.stats.bootstrap_metrics` (every row from the same resamples;
    ``progress(done, total)`` after each block; ``weights``: how resamples are
    drawn), except rows whose ``bootstrap``
    is ``"none"`` (order statistics).
    """
    tables = {
        row.name: structured(row(*data[row.inputs], **kwargs(row)))
        for row in rows
        if not row.scalar
    }
    if tables:
        rest = catalog_metrics(
            [r for r in rows if r.scalar],
            data,
            states,
            kwargs=kwargs,
            bootstrap=bootstrap,
            seed=seed,
            confidence=confidence,
            method=method,
            progress=progress,
            weights=weights,
        )
        found = {m.name: m for m in rest}
        return tuple(
            found[r.name] if r.scalar else Metric(r.name, math.nan, detail=tables[r.name])
            for r in rows
        )
    values = []
    for row in rows:
        extra = dict(kwargs(row))
        state = states.get(row.accumulator or "")
        value = (
            row.from_state(state, **extra) if state is not None else row(*data[row.inputs], **extra)
        )
        values.append(float(value))
    if bootstrap <= 0:
        return tuple(Metric(row.name, v) for row, v in zip(rows, values, strict=True))
    from ..stats import bootstrap_metrics

    ci_rows = [row for row in rows if row.bootstrap != "none"]
    intervals = iter(
        bootstrap_metrics(
            ci_rows,
            data,
            kwargs=kwargs,
            n_resamples=bootstrap,
            confidence=confidence,
            seed=seed,
            method=method,
            progress=progress,
            weights=weights,
        )
    )
    out = []
    for row, value in zip(rows, values, strict=True):
        if row.bootstrap == "none":
            note = "no interval: an order statistic has no meaningful bootstrap interval"
            out.append(Metric(row.name, value, note=note))
            continue
        low, high = next(intervals)
        out.append(Metric(row.name, value, low, high, confidence, bootstrap, "rows"))
    return tuple(out)


def structured(value: Any) -> Any:
    """A result as JSON-ready values (arrays and tuples as lists, records as objects).

    Named tuples, dataclasses and ``to_dict()`` results become objects; NaN
    and infinities become ``None``.

    >>> import numpy as np
    >>> structured((np.array([0.5, np.nan]), 3))
    [[0.5, None], 3]
    """
    if hasattr(value, "_asdict"):
        return {k: structured(v) for k, v in value._asdict().items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: structured(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray) and value.dtype.names:
        return [structured(r) for r in records(value)]
    if hasattr(value, "to_dict") and not isinstance(value, np.ndarray):
        return structured(value.to_dict())
    if isinstance(value, Mapping):
        return {str(k): structured(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [structured(v) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return finite_or_none(value)
    return value if value is None or isinstance(value, str) else str(value)


def brief(detail: Any, more: str = "") -> str:
    """A short text for a structured result in a table cell (``more``: where the rest is).

    >>> brief({"value": 0.5, "threshold": 0.25}), brief([[0.0, 0.5, 1.0], [1.0, 0.5, 0.0]])
    ('value=0.5, threshold=0.25', '2 arrays of 3 values')
    """
    if isinstance(detail, dict) and all(not isinstance(v, (list, dict)) for v in detail.values()):
        return ", ".join(
            f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in detail.items()
        )
    if isinstance(detail, list) and detail and all(not isinstance(v, (list, dict)) for v in detail):
        if len(detail) <= 6:
            return ", ".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in detail)
        return f"{len(detail)} values{more}"
    if isinstance(detail, list) and detail and all(isinstance(v, list) for v in detail):
        sizes = {len(v) for v in detail}
        if len(sizes) == 1 and sizes != {0}:
            return f"{len(detail)} arrays of {sizes.pop()} values{more}"
    return f"a table{more}"


def finite_or_none(value: Any) -> float | None:
    """``float(value)``, or ``None`` for NaN/inf and non-numbers (JSON has no NaN).

    >>> finite_or_none(float("nan")) is None, finite_or_none(2)
    (True, 2.0)
    """
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None
