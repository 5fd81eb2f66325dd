"""What a report shows, computed with scorekit's own metrics and kept apart from drawing.

A :class:`Section` holds the scalar metrics (with bootstrap intervals), the
tables and the plot specifications (:class:`Plot`: the name of a drawing
function of :mod:`scorekit.report._svg` and its arguments) of one evaluation.
The builders (``classification_section`` ... in :mod:`._sections` and
:mod:`._ranking`) are shared by the command line and ``scorekit demo``: the
command prints ``section.metrics`` and the report draws the rest.

Every metric is looked up in the ``scorekit`` namespace when it is used
(:func:`metric_function`), so a function that this installation lacks raises
:class:`UnavailableError` (a :class:`~scorekit.ScorekitError`) naming it,
instead of failing at import.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import ScorekitError
from .._typing import AnyArray

__all__ = [
    "Metric",
    "Plot",
    "Section",
    "Table",
    "UnavailableError",
    "finite_or_none",
    "metric_function",
    "records",
    "require_functions",
    "with_intervals",
]

MetricFn = Callable[..., Any]


class UnavailableError(ScorekitError):
    """A scorekit function that this command or section needs is not in this installation."""


def metric_function(name: str) -> MetricFn:
    """The callable ``scorekit.<name>`` (dotted names allowed), or :class:`UnavailableError`.

    >>> metric_function("no_such_metric")
    Traceback (most recent call last):
    ...
    scorekit.report._data.UnavailableError: scorekit.no_such_metric is not available in this version of scorekit
    """
    import scorekit

    obj: Any = scorekit
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise UnavailableError(f"scorekit.{name} is not available in this version of scorekit")
    if not callable(obj):
        raise UnavailableError(f"scorekit.{name} is not a function")
    return obj  # type: ignore[no-any-return]


def require_functions(*names: str) -> None:
    """Raise :class:`UnavailableError` naming every one of ``names`` that is missing."""
    missing = []
    for name in names:
        try:
            metric_function(name)
        except UnavailableError:
            missing.append(f"scorekit.{name}")
    if missing:
        raise UnavailableError(
            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not available "
            "in this version of scorekit"
        )


@dataclass(frozen=True)
class Metric:
    """One scalar result; ``ci_low``/``ci_high`` are the bootstrap interval when computed."""

    name: str
    value: float
    ci_low: float | None = None
    ci_high: float | None = None


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
    raise UnavailableError(f"cannot read the rows of a {type(obj).__name__} result")


def with_intervals(
    specs: Sequence[tuple[str, MetricFn, tuple[AnyArray, ...]]],
    *,
    bootstrap: int = 0,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[Metric, ...]:
    """Evaluate ``(name, function, arrays)`` triples; with ``bootstrap > 0`` add percentile intervals."""
    ci: MetricFn | None = metric_function("stats.bootstrap_ci") if bootstrap > 0 else None
    out = []
    for name, fn, arrays in specs:
        value = float(fn(*arrays))
        if ci is None:
            out.append(Metric(name, value))
            continue
        low, high = ci(fn, *arrays, n_resamples=bootstrap, confidence=confidence, seed=seed)
        out.append(Metric(name, value, float(low), float(high)))
    return tuple(out)


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
