"""Report sections for rankings (one or more systems, significance tests) and GAUC."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._catalog import MetricInfo, select
from .._typing import FloatArray
from .._validation import binary_target, check_option, check_same_length, labels_1d, scores_1d
from ..ranking._compare import EFFECT_SIZE_TEXT, format_p
from ..stats import bootstrap_ci, group_bootstrap_ci
from ..stream import BinaryCurve, GroupedCurve
from ._data import Metric, Plot, Section, Table, catalog_metrics, records

__all__ = [
    "comparison_rows",
    "evaluate_runs",
    "gauc_section",
    "means",
    "per_query",
    "ranking_section",
]

_NOT_PLOTTED = ("runid", "relstring", "num_")
_MAX_PLOTTED = 6
_MAX_QUERY_ROWS = 1000
COMPARISON_COLUMNS = (
    "measure",
    "system_a",
    "system_b",
    "mean_a",
    "mean_b",
    "diff",
    "p_value",
    "p_adjusted",
    "significant",
)


def evaluate_runs(
    qrels: Any, runs: Mapping[str, Any], measures: Sequence[str], **options: Any
) -> dict[str, Any]:
    """``scorekit.evaluate`` of each run with per-query values kept: ``{system: RankingResult}``."""
    from ..ranking import evaluate

    return {
        name: evaluate(qrels, run, list(measures), per_query=True, **options)
        for name, run in runs.items()
    }


def means(result: Any) -> dict[str, Any]:
    """``result.mean()`` as a plain dict."""
    return dict(result.mean())


def per_query(result: Any) -> dict[str, dict[str, Any]]:
    """``result.per_query`` (``{measure: {qid: value}}``), whether it is an attribute or a method."""
    pq = result.per_query
    if callable(pq):
        pq = pq()
    return {str(m): dict(v) for m, v in dict(pq).items()}


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _plotted(measures: Sequence[str], pq: Mapping[str, Mapping[str, Any]]) -> list[str]:
    chosen = []
    for m in measures:
        values = pq.get(m)
        if not values or m.startswith(_NOT_PLOTTED):
            continue
        if all(_numeric(v) for v in values.values()):
            chosen.append(m)
        if len(chosen) == _MAX_PLOTTED:
            break
    return chosen


def comparison_rows(comparison: Any) -> list[dict[str, Any]]:
    """The rows of a ``scorekit.compare`` result, one dict per (measure, system_a, system_b)."""
    return records(comparison)


def _interval(values: FloatArray, mean: float, bootstrap: int, seed: int) -> tuple[Any, Any]:
    """Bootstrap interval of a mean over queries; ``None`` where the measure is not a plain mean."""
    if (
        bootstrap <= 0
        or values.size < 2
        or not math.isclose(float(values.mean()), mean, abs_tol=1e-9)
    ):
        return None, None
    low, high = bootstrap_ci(np.mean, values, n_resamples=bootstrap, seed=seed)
    return float(low), float(high)


def ranking_section(
    results: Mapping[str, Any],
    *,
    comparison: Any = None,
    bootstrap: int = 0,
    seed: int = 0,
    title: str = "Ranking",
    notes: Sequence[str] = (),
) -> Section:
    """Measures table, per-query distributions and (for several systems) the significance table.

    ``results`` maps a system name to its ``RankingResult`` (from
    :func:`evaluate_runs`); ``comparison`` is a ``scorekit.compare`` result.
    """
    systems = list(results)
    all_means = {s: means(r) for s, r in results.items()}
    all_pq = {s: per_query(r) for s, r in results.items()}
    measures = [m for m in all_means[systems[0]] if _numeric(all_means[systems[0]][m])]
    columns: list[str] = ["measure"]
    for s in systems:
        columns += [s] if bootstrap <= 0 else [s, f"{s} CI low", f"{s} CI high"]
    rows = []
    metrics = []
    for m in measures:
        row: list[Any] = [m]
        for s in systems:
            value = all_means[s].get(m)
            mean = float("nan") if value is None else float(value)
            row.append(value)
            if bootstrap > 0:
                values = np.asarray(
                    [v for v in all_pq[s].get(m, {}).values() if _numeric(v)], dtype=np.float64
                )
                low, high = _interval(values, mean, bootstrap, seed)
                row += [low, high]
                if len(systems) == 1:
                    metrics.append(Metric(m, mean, low, high, 0.95, bootstrap, "queries"))
            elif len(systems) == 1:
                metrics.append(Metric(m, mean))
        rows.append(tuple(row))
    note = "Mean over queries."
    if bootstrap > 0:
        note += f" Intervals: 95% bootstrap over queries ({bootstrap} resamples)."
    tables = [Table("Measures", tuple(columns), tuple(rows), note=note)]
    plotted = _plotted(measures, all_pq[systems[0]])
    plots = []
    if plotted:
        data = [
            (
                m,
                [
                    (s, np.asarray(list(all_pq[s].get(m, {}).values()), dtype=np.float64))
                    for s in systems
                ],
            )
            for m in plotted
        ]
        plots.append(
            Plot(
                "box_strip_svg",
                "Per-query distributions (box: quartiles; points: queries)",
                {"data": data, "title": "Per-query values"},
            )
        )
    if comparison is not None:
        crow = comparison_rows(comparison)
        extra = [c for c in ("ci_low", "ci_high", "effect_size") if crow and c in crow[0]]
        cols = (*COMPARISON_COLUMNS, *extra)
        test = getattr(comparison, "test", "t")
        resamples = int(getattr(comparison, "n_resamples", 10_000))

        def cell(r: Mapping[str, Any], c: str) -> Any:
            if c in ("p_value", "p_adjusted") and isinstance(r.get(c), float):
                return format_p(r[c], test, resamples)
            return r.get(c)

        family = getattr(comparison, "correction_text", None)
        how = family() if callable(family) else "see p_adjusted"
        tables.append(
            Table(
                "Significance tests",
                cols,
                tuple(tuple(cell(r, c) for c in cols) for r in crow),
                note=f"Paired tests on per-query values; p_adjusted: {how}. "
                f"p-values below the test's resolution print as a bound. {EFFECT_SIZE_TEXT}",
            )
        )
    if len(systems) >= 2 and plotted:
        tables.append(_largest_differences(plotted[0], systems[0], systems[1], all_pq))
    if plotted:
        tables.append(_query_table(plotted, systems, all_pq))
    return Section(title, "ranking", tuple(metrics), tuple(plots), tuple(tables), tuple(notes))


def _largest_differences(
    measure: str, a: str, b: str, pq: Mapping[str, Mapping[str, Mapping[str, Any]]]
) -> Table:
    va, vb = pq[a].get(measure, {}), pq[b].get(measure, {})
    common = [q for q in va if q in vb]
    diffs = np.asarray([float(vb[q]) - float(va[q]) for q in common], dtype=np.float64)
    order = np.argsort(-np.abs(diffs), kind="stable")[:10]
    rows = tuple(
        (common[i], float(va[common[i]]), float(vb[common[i]]), float(diffs[i])) for i in order
    )
    return Table(
        f"Largest per-query differences in {measure}",
        ("query", a, b, f"{b} − {a}"),
        rows,
        note="The ten queries where the two systems differ most.",
    )


def _query_table(
    plotted: Sequence[str],
    systems: Sequence[str],
    pq: Mapping[str, Mapping[str, Mapping[str, Any]]],
) -> Table:
    queries: dict[str, None] = {}
    for s in systems:
        for m in plotted:
            queries.update(dict.fromkeys(pq[s].get(m, {})))
    qids = sorted(queries, key=lambda q: (len(q), q) if q.isdigit() else (math.inf, q))
    note = ""
    if len(qids) > _MAX_QUERY_ROWS:
        note = f"The first {_MAX_QUERY_ROWS} of {len(qids)} queries."
        qids = qids[:_MAX_QUERY_ROWS]
    cols = ["query"] + [f"{m} ({s})" if len(systems) > 1 else m for m in plotted for s in systems]
    rows = tuple((q, *(pq[s].get(m, {}).get(q) for m in plotted for s in systems)) for q in qids)
    return Table("Per-query values", tuple(cols), rows, note=note, collapsed=True)


def _group_interval(m: Metric, table: Any, bootstrap: int, seed: int, method: str) -> Metric:
    """GAUC's interval from resampled groups: per-group AUCs once, then weighted means."""
    low, high = group_bootstrap_ci(
        table.auc, table.weight, n_resamples=bootstrap, seed=seed, method=method
    )
    return Metric(m.name, m.value, low, high, 0.95, bootstrap, "groups")


def gauc_section(
    y_true: Any,
    y_score: Any,
    groups: Any,
    *,
    weights: str | None = "impressions",
    pos_label: Any = None,
    bootstrap: int = 0,
    seed: int = 0,
    ci_method: str = "percentile",
    progress: Callable[[int, int], None] | None = None,
    details: bool = True,
    title: str = "GAUC",
    names: tuple[str, str, str] = ("y_true", "y_score", "groups"),
    metrics: Sequence[str] | None = None,
    resample: str = "groups",
) -> Section:
    """Group AUC (per-user AUC, weighted mean) with the overall AUC beside it.

    ``metrics`` replaces those two by any catalog names the inputs allow
    (``"all"``): the grouped metrics and every binary score metric of the whole
    data. One :class:`~scorekit.stream.GroupedCurve` and one
    :class:`~scorekit.stream.BinaryCurve` serve them all. With ``bootstrap``,
    GAUC's interval resamples the groups (``resample="groups"``, the default:
    users are the unit) or the rows (``"rows"``); the other metrics resample rows
    (``draws="auto"`` of :func:`classification_section`: Poisson row weights when
    every such metric has a block kernel, as roc_auc does).
    """
    y = labels_1d(y_true, names[0])
    s = scores_1d(y_score, names[1])
    g = labels_1d(groups, names[2])
    check_same_length(**{names[0]: y, names[1]: s, names[2]: g})
    y01 = binary_target(y, pos_label, names[0]).astype(np.int64)
    probabilities = bool(s.size) and float(s.min()) >= 0.0 and float(s.max()) <= 1.0
    wanted = select(
        metrics,
        inputs={
            "groups": None,
            "scores": None,
            "probabilities": None if probabilities else "the scores are not all in [0, 1]",
        },
        default=("gauc", "roc_auc"),
        flag="-m",
        structured=True,
    )
    grouped = GroupedCurve().update(y01, s, g)
    states: dict[str, Any] = {"GroupedCurve": grouped}
    if any(r.accumulator == "BinaryCurve" for r in wanted):
        states["BinaryCurve"] = BinaryCurve().update(y01, s)

    def extra(row: MetricInfo) -> dict[str, Any]:
        return {"weights": weights} if row.inputs == "groups" and row.accepts("weights") else {}

    check_option(resample, "resample", ("groups", "rows"))
    data = {"groups": (y01, s, g), "scores": (y01, s), "probabilities": (y01, s)}
    # GAUC's group interval is drawn below: its rows' bootstrap is left out here
    by_groups = bootstrap > 0 and resample == "groups"
    rows_ci = [r for r in wanted if not (by_groups and r.name == "gauc")]
    computed = {
        m.name: m
        for part, n_boot in ((rows_ci, bootstrap), ([r for r in wanted if r not in rows_ci], 0))
        for m in catalog_metrics(
            part,
            data,
            states,
            kwargs=extra,
            bootstrap=n_boot,
            seed=seed,
            method=ci_method,
            progress=progress,
            weights="auto",
        )
    }
    values = tuple(computed[r.name] for r in wanted)
    group_table = grouped.group_table(weights=weights)
    if bootstrap > 0 and resample == "groups":
        values = tuple(
            _group_interval(m, group_table, bootstrap, seed, ci_method) if m.name == "gauc" else m
            for m in values
        )
    n_groups = len(group_table)
    skipped = int(np.count_nonzero(np.isnan(group_table.auc)))
    plural = "" if n_groups == 1 else "s"
    notes = [
        f"{n_groups:,} group{plural}; weights: {weights}. {skipped:,} skipped: "
        "their labels are all one class (AUC undefined)."
    ]
    if bootstrap > 0:
        unit = f"the {n_groups:,} groups" if resample == "groups" else "rows"
        notes.append(f"GAUC's interval resamples {unit} ({bootstrap:,} resamples).")
    if not details:
        return Section(title, "gauc", values, notes=tuple(notes))
    aucs = np.asarray(group_table.auc, dtype=np.float64)
    valid = ~np.isnan(aucs)
    sizes = np.asarray(group_table.n, dtype=np.float64)
    plots = [
        Plot(
            "histogram_svg",
            f"AUC of each group ({int(valid.sum()):,} groups with both classes; "
            f"{skipped:,} skipped)",
            {"values": aucs[valid], "title": "Per-group AUC", "xlabel": "AUC", "bins": 20},
        ),
        Plot(
            "scatter_svg",
            "Per-group AUC against group size: small groups scatter widely, which is why "
            f"GAUC weights them ({weights}); {skipped:,} one-class groups are not drawn",
            {
                "x": np.log10(sizes[valid]),
                "y": aucs[valid],
                "title": "AUC by group size",
                "xlabel": "log10 rows in the group",
                "ylabel": "group AUC",
            },
        ),
    ]
    facts = Table(
        "Data",
        ("", "value"),
        (
            ("rows", int(y01.size)),
            ("positives", int(y01.sum())),
            ("base rate", float(y01.mean())),
            ("groups", n_groups),
            ("groups skipped (one class)", skipped),
        ),
    )
    return Section(title, "gauc", values, tuple(plots), (facts,), notes=tuple(notes))
