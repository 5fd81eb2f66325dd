"""``RankingResult``: per-query values and summaries of :func:`~scorekit.evaluate`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import UnknownMeasureError
from .._optional import require
from .._typing import FloatArray
from ._measures import ORDER, Measure

__all__ = ["RankingResult"]

PerQuery = FloatArray | list[str]


def _print_order(measures: list[Measure]) -> list[Measure]:
    """trec_eval's output order: the measure table, cutoffs ascending within a family."""
    first = {m: i for i, m in enumerate(measures)}

    def key(m: Measure) -> tuple[Any, ...]:
        cut = m.definition.syntax in ("cut_int", "cut_float")
        return (ORDER[m.family], float(m.params[0]) if cut else 0.0, first[m])

    return sorted(dict.fromkeys(measures), key=key)


def _as_list(values: PerQuery) -> list[Any]:
    return values if isinstance(values, list) else values.tolist()


def _fmt(m: Measure, value: Any) -> str:
    kind = m.definition.value
    if kind == "int":  # an expectation (ties="average") may be fractional: 4 decimals then
        return str(int(value)) if float(value) == int(value) else f"{value:6.4f}"
    if kind == "str":
        return f"'{value}'" if m.family == "relstring" else str(value)
    return f"{value:6.4f}"


@dataclass(frozen=True, eq=False)
class RankingResult:
    r"""Per-query values and summaries of a set of measures over a run.

    ``mean()`` gives the summary trec_eval prints on its ``all`` lines (the
    mean over the evaluated queries; totals for the ``num_*`` counts; the
    geometric mean for ``gm_map``/``gm_bpref``; ratios of totals for
    ``hit_rate@k`` and the ``micro_set_*`` measures). ``per_query`` gives
    ``{measure: {query_id: value}}``; ``to_trec_eval()`` the exact text of
    trec_eval (``-q`` when ``per_query=True``). Keys are the measure names as
    requested (trec_eval names for trec_eval syntax, e.g. ``P_10`` for
    ``P.10``; the alias as written, e.g. ``nDCG@10``).

    Examples
    --------
    >>> from scorekit.ranking import Qrels, Run, evaluate
    >>> qrels = Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}})
    >>> run = Run.from_dict({"q1": {"a": 2.0, "x": 1.0}, "q2": {"x": 2.0, "b": 1.0}}, tag="bm25")
    >>> res = evaluate(qrels, run, ["runid", "P.1", "RR"])
    >>> res.mean(), res.per_query["RR"]
    ({'P_1': 0.5, 'RR': 0.75}, {'q1': 1.0, 'q2': 0.5})
    >>> res.to_trec_eval().splitlines()
    ['runid                 \tall\tbm25', 'recip_rank            \tall\t0.7500', 'P_1                   \tall\t0.5000']
    """

    query_ids: tuple[str, ...]
    keys: tuple[str, ...]
    measures: tuple[Measure, ...]
    values: Mapping[Measure, PerQuery] = field(repr=False)
    summary: Mapping[Measure, Any] = field(repr=False)
    tag: str = "scorekit"
    show_queries: bool = False

    def __repr__(self) -> str:
        means = ", ".join(f"{k}={v:.4f}" for k, v in list(self.mean().items())[:6])
        return f"RankingResult(queries={len(self.query_ids)}, {means})"

    def _measure(self, key: str) -> Measure:
        try:
            return self.measures[self.keys.index(key)]
        except ValueError:
            raise UnknownMeasureError(
                f"{key!r} was not evaluated; available: {', '.join(self.keys)}"
            ) from None

    def mean(self) -> dict[str, float]:
        """``{measure: summary value}`` as trec_eval's ``all`` lines (runid, relstring left out)."""
        return {
            k: float(self.summary[m])
            for k, m in zip(self.keys, self.measures, strict=True)
            if m.definition.summary not in ("none", "tag")
        }

    def array(self, key: str) -> FloatArray:
        """Per-query values of one measure, aligned with :attr:`query_ids`."""
        m = self._measure(key)
        values = self.values[m]
        if isinstance(values, list):
            raise UnknownMeasureError(f"{key!r} has text values; use per_query")
        out: FloatArray = values.copy()
        return out

    @property
    def per_query(self) -> dict[str, dict[str, Any]]:
        """``{measure: {query_id: value}}`` (gm_map/gm_bpref: the per-query AP/bpref)."""
        out: dict[str, dict[str, Any]] = {}
        for k, m in zip(self.keys, self.measures, strict=True):
            if m.family == "runid":
                continue
            v = self.values[m]
            items = v if isinstance(v, list) else v.tolist()
            out[k] = dict(zip(self.query_ids, items, strict=True))
        return out

    def to_dict(self) -> dict[str, Any]:
        """``{"mean": mean(), "per_query": per_query, "tag": tag}``."""
        return {"mean": self.mean(), "per_query": self.per_query, "tag": self.tag}

    def _repr_html_(self) -> str:
        """The measures table and per-query plots as the report draws them (notebooks call this)."""
        from ..report import ranking_section
        from ..report._html import section_html

        return section_html(ranking_section({self.tag or "run": self}, title="Ranking"))

    def to_pandas(self) -> Any:
        """A pandas DataFrame: one row per query (index ``query``), one column per measure."""
        pd = require("pandas", pip="pandas")
        return pd.DataFrame(self.per_query, index=pd.Index(list(self.query_ids), name="query"))

    def to_trec_eval(self, per_query: bool | None = None, *, summary: bool = True) -> str:
        """trec_eval's output text: ``measure<TAB>query|all<TAB>value`` lines.

        The measure name is left-justified in 22 characters, floats have 4
        decimals, counts are integers; lines come in trec_eval's order (per
        query first when ``per_query`` — default: the ``per_query`` option of
        :func:`~scorekit.evaluate` — then the ``all`` lines, ``runid`` first;
        ``summary=False`` leaves them out, trec_eval's ``-n``). No line, no text.
        """
        show = self.show_queries if per_query is None else per_query
        order = _print_order(list(self.measures))
        lines: list[str] = []
        if show:
            columns = [(m, _as_list(self.values[m])) for m in order if m.definition.per_query]
            for i, qid in enumerate(self.query_ids):
                lines.extend(f"{m.name:<22}\t{qid}\t{_fmt(m, v[i])}" for m, v in columns)
        for m in order if summary else ():
            kind = m.definition.summary
            if kind == "none":
                continue
            value = self.tag if kind == "tag" else self.summary[m]
            lines.append(f"{m.name:<22}\tall\t{_fmt(m, value)}")
        return "".join(line + "\n" for line in lines)


def summarize(m: Measure, values: PerQuery, n_q: int, ctx: Any = None) -> Any:
    """trec_eval's summary over queries for one measure (``ctx``: the context micro ratios read)."""
    kind = m.definition.summary
    if kind in ("none", "tag") or isinstance(values, list):
        return None
    if kind == "count":
        return float(n_q)
    micro = m.definition.micro
    if kind == "micro" and micro is not None:
        return micro(ctx, m.params)
    if kind == "gm":
        logs = np.log(np.maximum(values, 0.00001)).tolist()
        return math.exp(sum(logs) / n_q) if n_q else 0.0
    total = sum(values.tolist())
    if kind == "sum":
        return float(total)
    return total / n_q if n_q else 0.0
