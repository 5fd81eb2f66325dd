"""Metric names -> the accumulators that compute them in one pass (shared by the distributed layers).

A set of metric names (``["roc_auc", "log_loss", "f1", "r2"]``) needs a few
accumulators, each fed once per partition from its own columns: a
:class:`BinaryCurve` from (true, score), a :class:`ConfusionMatrix` or a
:class:`RegressionMoments` or a :class:`Contingency` from (true, pred).
:func:`plan` groups the names by accumulator and checks the columns they need;
:func:`values` reads every metric from the merged accumulators with its
method. Which metric is mergeable, and through which accumulator and method,
is read from the rows of ``_MERGEABLE`` below.

``_MERGEABLE`` is an internal stand-in with the shape of the catalog's
``MetricInfo`` rows (name, accumulator, method, inputs); it is limited to the
metrics an accumulator computes exactly, and is to be replaced by a read of
the catalog (``scorekit._catalog``) once it exists.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._errors import ParameterError
from ._base import Accumulator
from ._binary import BinaryCurve
from ._clustering import Contingency
from ._confusion import ConfusionMatrix
from ._regression import RegressionMoments

__all__: list[str] = []


@dataclass(frozen=True)
class _Row:
    """The part of a catalog row a distributed layer needs (until the catalog exists)."""

    name: str
    accumulator: type[Accumulator]
    method: str
    inputs: str  # "scores": (true, score); "labels" / "values" / "clusters": (true, pred)
    options: Mapping[str, Any] = field(default_factory=dict)


def _rows(acc: type[Accumulator], inputs: str, names: str) -> dict[str, _Row]:
    return {n: _Row(n, acc, n, inputs) for n in names.split()}


# INTERNAL STAND-IN for the catalog (issue 13): to be read from scorekit._catalog.
_MERGEABLE: dict[str, _Row] = {
    **_rows(
        BinaryCurve,
        "scores",
        "roc_auc gini rank_loss average_precision ks_statistic break_even_point log_loss",
    ),
    **_rows(
        ConfusionMatrix,
        "labels",
        "accuracy balanced_accuracy matthews_corrcoef hamming_loss cohen_kappa precision "
        "recall fbeta f1 e_measure specificity jaccard",
    ),
    **_rows(RegressionMoments, "values", "mae mse rmse mape max_error r2 explained_variance"),
    **_rows(
        Contingency,
        "clusters",
        "rand_index adjusted_rand_index fowlkes_mallows mutual_info normalized_mutual_info "
        "adjusted_mutual_info homogeneity completeness v_measure",
    ),
}


@dataclass(frozen=True)
class Part:
    """One accumulator of a plan: its class, constructor options, columns and metrics."""

    accumulator: type[Accumulator]
    params: dict[str, Any]
    columns: tuple[str, str]
    weight: str | None
    metrics: tuple[tuple[str, str, dict[str, Any]], ...]  # (name, method, kwargs)


def _requested(names: str | Iterable[str] | Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    if isinstance(names, str):
        return {names: {}}
    if isinstance(names, Mapping):
        return {str(k): dict(v or {}) for k, v in names.items()}
    out: dict[str, Any] = {}
    for n in names:
        if not isinstance(n, str):
            raise ParameterError(f"names must be metric names (str), got {n!r}")
        out[n] = {}
    return out


def requested_names(names: str | Iterable[str] | Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The metric names asked for, in order."""
    return list(_requested(names))


def plan(
    names: str | Iterable[str] | Mapping[str, Mapping[str, Any]],
    *,
    true: str,
    score: str | None,
    pred: str | None,
    weight: str | None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> list[Part]:
    """Group ``names`` by accumulator; raise naming an unknown metric or a missing column.

    ``names`` is a name, a list of names, or a mapping ``{name: {option: value}}``
    (the options go to the metric's method, e.g. ``{"f1": {"average": "macro"}}``).
    """
    requested = _requested(names)
    if not requested:
        raise ParameterError("names is empty: give at least one metric name")
    by_acc: dict[type[Accumulator], list[tuple[str, str, dict[str, Any]]]] = {}
    inputs: dict[type[Accumulator], str] = {}
    for name, kwargs in requested.items():
        row = _MERGEABLE.get(name)
        if row is None:
            close = difflib.get_close_matches(name, list(_MERGEABLE), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ParameterError(
                f"{name!r} is not a mergeable metric{hint}; the mergeable metrics are "
                f"{', '.join(sorted(_MERGEABLE))}"
            )
        by_acc.setdefault(row.accumulator, []).append((name, row.method, {**row.options, **kwargs}))
        inputs[row.accumulator] = row.inputs
    parts = []
    for acc, metrics in by_acc.items():
        kind = inputs[acc]
        second, flag = (score, "score") if kind == "scores" else (pred, "pred")
        if second is None:
            raise ParameterError(
                f"{metrics[0][0]} needs {flag}= (the column of the "
                f"{'scores' if kind == 'scores' else 'predictions'})"
            )
        if kind == "clusters" and weight is not None:
            raise ParameterError(f"{metrics[0][0]} takes no weight (clustering metrics)")
        params: dict[str, Any] = {}
        if acc is BinaryCurve:
            params = {"pos_label": pos_label, "nan_policy": nan_policy}
        elif acc is RegressionMoments:
            params = {"nan_policy": nan_policy}
        parts.append(Part(acc, params, (true, second), weight, tuple(metrics)))
    return parts


def values(parts: list[Part], accs: list[Accumulator]) -> dict[str, Any]:
    """Every metric of the plan, read from its merged accumulator (in the order of the parts)."""
    out: dict[str, Any] = {}
    for part, acc in zip(parts, accs, strict=True):
        for name, method, kwargs in part.metrics:
            out[name] = getattr(acc, method)(**kwargs)
    return out


REGRESSION_BUNDLE = ("mae", "mse", "rmse", "r2", "explained_variance")


def regression_bundle(acc: RegressionMoments, multioutput: Any) -> dict[str, Any]:
    """The ``regression_metrics`` of the distributed layers, from the merged moments."""
    return {n: getattr(acc, n)(multioutput=multioutput) for n in REGRESSION_BUNDLE}
