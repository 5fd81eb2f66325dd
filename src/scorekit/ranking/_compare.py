"""Significance testing between retrieval systems on per-query scores.

:func:`compare` evaluates every run with the ranking engine, then
:func:`compare_results` runs :func:`scorekit.stats.paired_test` between every
pair of systems for every measure and adjusts the p-values within each measure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._optional import require
from .._validation import check_option
from ..stats._corrections import CORRECTIONS, adjust
from ..stats._paired import TESTS, _check_alpha, _check_resamples, paired_test

__all__ = ["ComparisonResult", "ComparisonRow", "compare"]

COLUMNS = (
    "measure",
    "system_a",
    "system_b",
    "mean_a",
    "mean_b",
    "diff",
    "p_value",
    "p_adjusted",
    "significant",
    "ci_low",
    "ci_high",
    "effect_size",
)
_TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "randomization": "randomization test",
    "bootstrap": "bootstrap test",
}


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One paired test: ``measure``, ``system_a`` against ``system_b`` (``diff = mean_a - mean_b``).

    Means are over the ``n_queries`` queries both systems were scored on.
    """

    measure: str
    system_a: str
    system_b: str
    mean_a: float
    mean_b: float
    diff: float
    p_value: float
    p_adjusted: float
    significant: bool
    ci_low: float
    ci_high: float
    effect_size: float
    statistic: float
    n_queries: int


@dataclass(frozen=True, slots=True)
class ComparisonResult:
    """Result of :func:`compare`: one :class:`ComparisonRow` per (measure, system_a, system_b).

    ``means[system][measure]`` is each system's own mean (``RankingResult.mean()``),
    used by the summary tables.
    """

    rows: tuple[ComparisonRow, ...]
    systems: tuple[str, ...]
    measures: tuple[str, ...]
    means: Mapping[str, Mapping[str, float]]
    test: str
    correction: str | None
    alpha: float
    family: str = "all"
    n_resamples: int = 10_000

    def __repr__(self) -> str:
        return (
            f"ComparisonResult({len(self.systems)} systems, {len(self.measures)} measures, "
            f"{len(self.rows)} tests, test={self.test!r}, correction={self.correction!r})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Settings, means and rows as plain Python objects (JSON-safe)."""
        return {
            "test": self.test,
            "correction": self.correction,
            "family": self.family,
            "alpha": self.alpha,
            "systems": list(self.systems),
            "measures": list(self.measures),
            "means": {s: dict(m) for s, m in self.means.items()},
            "rows": [asdict(r) for r in self.rows],
        }

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, one row per (measure, system_a, system_b), columns as the spec."""
        pd = require("pandas", pip="pandas")
        return pd.DataFrame(
            [[getattr(r, c) for c in COLUMNS] for r in self.rows], columns=list(COLUMNS)
        )

    def _marks(self) -> dict[tuple[str, str], list[str]]:
        """Letters of the systems each (system, measure) mean is significantly better than."""
        letter = dict(zip(self.systems, _letters(len(self.systems)), strict=False))
        marks: dict[tuple[str, str], list[str]] = {}
        for r in self.rows:
            if r.significant and r.diff != 0:
                better, worse = (r.system_a, r.system_b) if r.diff > 0 else (r.system_b, r.system_a)
                marks.setdefault((better, r.measure), []).append(letter[worse])
        return {k: sorted(v) for k, v in marks.items()}

    def _legend(self) -> str:
        return (
            f"{_TEST_NAMES[self.test]}, {self.correction_text()}, "
            f"significance level {self.alpha:g}. {EFFECT_SIZE_TEXT}"
        )

    def correction_text(self) -> str:
        """Which correction, over which family of tests (the report's caption says it)."""
        if self.correction is None:
            return f"no multiple-comparison correction ({len(self.rows)} tests)"
        name = {"bonferroni": "Bonferroni", "holm": "Holm"}[self.correction]
        pairs = len(self.systems) * (len(self.systems) - 1) // 2
        if self.family == "all":
            return (
                f"{name} correction over all {len(self.rows)} tests reported "
                f"({pairs} system pairs × {len(self.measures)} measures)"
            )
        return f"{name} correction within each measure (families of {pairs} tests)"

    def _repr_html_(self) -> str:
        """The comparison as the report draws it (notebooks call this)."""
        from ..report import ranking_section
        from ..report._html import section_html

        results = {s: _MeanOnly(self.means[s]) for s in self.systems}
        return section_html(ranking_section(results, comparison=self, title="Comparison"))

    def to_markdown(self, digits: int = 4) -> str:
        """Systems × measures table of means, as IR papers print it.

        A superscript letter marks a mean significantly better than the system
        with that letter (for that measure); the best mean is bold; a legend
        line follows the table.
        """
        marks, best = self._marks(), self._best()
        head = "| | System | " + " | ".join(_md(m) for m in self.measures) + " |"
        lines = [head, "|---|---|" + "---:|" * len(self.measures)]
        for sys_name, letter in zip(self.systems, _letters(len(self.systems)), strict=False):
            cells = []
            for m in self.measures:
                value = f"{self.means[sys_name][m]:.{digits}f}"
                value = f"**{value}**" if sys_name in best[m] else value
                sup = "".join(marks.get((sys_name, m), []))
                cells.append(value + (f"<sup>{sup}</sup>" if sup else ""))
            lines.append(f"| {letter} | {_md(sys_name)} | " + " | ".join(cells) + " |")
        lines += [
            "",
            f"Superscript letters: significant improvement over that system ({self._legend()}); best mean in bold.",
        ]
        return "\n".join(lines)

    def to_latex(self, digits: int = 4) -> str:
        r"""The :meth:`to_markdown` table as a LaTeX ``tabular`` (``$^{ab}$`` superscripts, ``\textbf`` best)."""
        marks, best = self._marks(), self._best()
        k = len(self.measures)
        lines = [
            "\\begin{tabular}{ll" + "r" * k + "}",
            "\\hline",
            " & System & " + " & ".join(_tex(m) for m in self.measures) + " \\\\",
            "\\hline",
        ]
        for sys_name, letter in zip(self.systems, _letters(len(self.systems)), strict=False):
            cells = []
            for m in self.measures:
                value = f"{self.means[sys_name][m]:.{digits}f}"
                value = f"\\textbf{{{value}}}" if sys_name in best[m] else value
                sup = "".join(marks.get((sys_name, m), []))
                cells.append(value + (f"$^{{{sup}}}$" if sup else ""))
            lines.append(f"{letter} & {_tex(sys_name)} & " + " & ".join(cells) + " \\\\")
        legend = f"Superscript letters: significant improvement over that system ({_tex(self._legend())}); best mean in bold."
        lines += [
            "\\hline",
            f"\\multicolumn{{{k + 2}}}{{l}}{{\\footnotesize {legend}}} \\\\",
            "\\end{tabular}",
        ]
        return "\n".join(lines)

    def _best(self) -> dict[str, set[str]]:
        out = {}
        for m in self.measures:
            values = {s: self.means[s][m] for s in self.systems}
            top = max(values.values())
            out[m] = {s for s, v in values.items() if v == top}
        return out


def _letters(k: int) -> list[str]:
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    return [alphabet[i] if i < 26 else alphabet[i // 26 - 1] + alphabet[i % 26] for i in range(k)]


def _md(text: str) -> str:
    return str(text).replace("|", "\\|")


def _tex(text: str) -> str:
    table = {
        "\\": "\\textbackslash{}",
        "&": "\\&",
        "%": "\\%",
        "$": "\\$",
        "#": "\\#",
        "_": "\\_",
        "{": "\\{",
        "}": "\\}",
        "~": "\\textasciitilde{}",
        "^": "\\textasciicircum{}",
    }
    return "".join(table.get(ch, ch) for ch in str(text))


#: how the effect size is defined, for captions and legends
EFFECT_SIZE_TEXT = (
    "Effect size: the mean per-query difference over its standard deviation (Cohen's d_z)."
)


def format_p(p: float, test: str, n_resamples: int) -> str:
    """A p-value as printed: ``<1e-4`` below what the test can resolve (or below 1e-4).

    A randomization or bootstrap test with R resamples cannot show a p-value
    below 1/(R + 1); the analytic tests are printed down to 1e-4.

    >>> format_p(0.0, "randomization", 10_000), format_p(0.0312, "t", 0), format_p(3e-7, "t", 0)
    ('<1e-4', '0.0312', '<1e-4')
    """
    if p != p:  # nan
        return "nan"
    floor = max(1e-4, 1.0 / (n_resamples + 1)) if test in ("randomization", "bootstrap") else 1e-4
    if p < floor:
        return f"<{floor:.0e}".replace("e-0", "e-")
    return f"{p:.4f}" if p >= 1e-3 else f"{p:.1e}"


class _MeanOnly:
    """The two things a ranking section reads from a result, from the means alone."""

    def __init__(self, means: Mapping[str, float]) -> None:
        self._means = dict(means)
        self.per_query: dict[str, dict[str, float]] = {}

    def mean(self) -> dict[str, float]:
        return self._means


def compare(
    qrels: Any,
    runs: Mapping[str, Any],
    measures: Any,
    *,
    test: str = "t",
    correction: str | None = None,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = 0,
    family: str = "all",
    **evaluate_kwargs: Any,
) -> ComparisonResult:
    """Paired significance tests between every pair of systems, for every measure.

    Each run is scored with :func:`scorekit.evaluate` (``per_query=True``; other
    keyword arguments such as ``all_queries`` or ``rel_level`` are passed on).
    For each measure and each pair of systems (in the order of ``runs``), the
    per-query scores on the queries **both** systems were scored on are compared
    with :func:`scorekit.stats.paired_test` (``test``, ``n_resamples``, ``seed``:
    every pair draws from a fresh generator seeded with ``seed``, queries in
    sorted order). With ``all_queries=True`` every qrels query is scored (0 when
    missing), so all pairs share the same queries. p-values are adjusted
    (``correction``) over the family of every test reported (``family="all"``,
    system pairs × measures) or within each measure (``family="measure"``); a
    difference is significant when the adjusted p-value is below ``alpha``. Measures without
    numeric per-query values (``relstring``, ``runid``) are left out.

    Raises :class:`ScorekitError` for an unknown test or correction, fewer than
    two runs, a run sharing no query with the qrels, or a pair with fewer than
    two common queries.

    Parameters
    ----------
    qrels : Qrels
        The relevance judgments.
    runs : mapping of str to Run
        The systems to compare, by name.
    measures : str or sequence of str
        Measure names (trec_eval, ir_measures or ranx syntax).
    test : {"t", "randomization", "bootstrap", "wilcoxon", "sign"}, default="t"
        The paired test on per-query values.
    correction : {None, "bonferroni", "holm"}, default=None
        Multiple-comparison correction over every test reported.
    alpha : float
        See the formula above.
    n_resamples : int
        Resamples of the randomization or bootstrap test.
    seed : int or numpy Generator, default=0
        Seed of the resampling.
    family : {"all", "measure"}, default="all"
        The family of tests a correction is over: all (pair, measure) tests, or
        each measure's pairs.
    **evaluate_kwargs
        Convention options passed to :func:`scorekit.evaluate`.

    Examples
    --------
    One relevant document per query; "poor" ranks it second on q1 and q3, so its
    reciprocal ranks are 1/2, 1, 1/2. Differences 1/2, 0, 1/2: mean 1/3, sd 0.2887,
    t = 2 on 2 degrees of freedom, p = 1 − 2/√6 = 0.1835:

    >>> from scorekit.ranking import Qrels, Run
    >>> qrels = Qrels.from_dict({q: {"a": 1} for q in ("q1", "q2", "q3")})
    >>> good = Run.from_dict({q: {"a": 0.9, "b": 0.1} for q in ("q1", "q2", "q3")})
    >>> poor = Run.from_dict({"q1": {"a": 0.1, "b": 0.9}, "q2": {"a": 0.9}, "q3": {"b": 0.9, "a": 0.2}})
    >>> row = compare(qrels, {"good": good, "poor": poor}, ["RR"]).rows[0]
    >>> row.mean_a, round(row.mean_b, 4), round(row.statistic, 4), round(row.p_value, 4)
    (1.0, 0.6667, 2.0, 0.1835)
    """
    check_option(test, "test", TESTS)
    check_option(correction, "correction", CORRECTIONS)
    _check_alpha(alpha)
    _check_resamples(n_resamples)
    if not isinstance(runs, Mapping) or len(runs) < 2:
        raise ParameterError("runs must be a dict {name: Run} with at least two runs to compare")
    from ._evaluate import evaluate

    evaluate_kwargs.pop("per_query", None)
    results = {
        str(name): evaluate(qrels, run, measures, per_query=True, **evaluate_kwargs)
        for name, run in runs.items()
    }
    return compare_results(
        results,
        test=test,
        correction=correction,
        alpha=alpha,
        n_resamples=n_resamples,
        seed=seed,
        family=family,
    )


def compare_results(
    results: Mapping[str, Any],
    *,
    test: str = "t",
    correction: str | None = None,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = 0,
    family: str = "all",
) -> ComparisonResult:
    """The tests of :func:`compare` on already evaluated results (``.per_query``, ``.mean()``)."""
    check_option(test, "test", TESTS)
    check_option(correction, "correction", CORRECTIONS)
    check_option(family, "family", ("all", "measure"))
    _check_alpha(alpha)
    if len(results) < 2:
        raise ParameterError("at least two systems are needed for a comparison")
    per_query = {name: r.per_query for name, r in results.items()}
    for name, pq in per_query.items():
        if not any(len(scores) for scores in pq.values()):
            raise EmptyInputError(
                f"run {name!r} shares no query with the qrels; nothing to compare"
            )
    systems = tuple(results)
    measures = tuple(m for m in per_query[systems[0]] if _numeric(per_query, m))
    tests = [
        (measure, pair)
        for measure in measures  # a handful of measures
        for pair in (
            _pair(measure, per_query, a, b, test, n_resamples, seed, alpha)
            for a, b in combinations(systems, 2)
        )
    ]
    p_raw = np.array([r.p_value for _, (_, r) in tests])
    if family == "all":
        p_adj = adjust(p_raw, correction)
    else:
        p_adj = np.empty_like(p_raw)
        for measure in measures:
            at = np.array([m == measure for m, _ in tests])
            p_adj[at] = adjust(p_raw[at], correction)
    rows = [
        ComparisonRow(
            measure=measure,
            system_a=a,
            system_b=b,
            mean_a=r.mean_a,
            mean_b=r.mean_b,
            diff=r.diff,
            p_value=r.p_value,
            p_adjusted=float(p),
            significant=bool(p < alpha),
            ci_low=r.ci_low,
            ci_high=r.ci_high,
            effect_size=r.effect_size,
            statistic=r.statistic,
            n_queries=r.n,
        )
        for (measure, ((a, b), r)), p in zip(tests, p_adj, strict=True)
    ]
    means = {name: _means(r, measures) for name, r in results.items()}
    return ComparisonResult(
        tuple(rows), systems, measures, means, test, correction, float(alpha), family, n_resamples
    )


def _numeric(per_query: Mapping[str, Mapping[str, Mapping[str, Any]]], measure: str) -> bool:
    """Whether every system has numbers for ``measure`` (text measures such as relstring do not)."""
    return all(
        measure in pq and all(isinstance(v, (int, float, np.number)) for v in pq[measure].values())
        for pq in per_query.values()
    )


def _means(result: Any, measures: tuple[str, ...]) -> dict[str, float]:
    """The result's own means; the arithmetic per-query mean for a measure ``mean()`` lacks."""
    own = result.mean()
    return {
        m: float(own[m]) if m in own else float(np.mean(list(result.per_query[m].values())))
        for m in measures
    }


def _pair(
    measure: str,
    per_query: Mapping[str, Mapping[str, Mapping[str, float]]],
    a: str,
    b: str,
    test: str,
    n_resamples: int,
    seed: int | None,
    alpha: float,
) -> tuple[tuple[str, str], Any]:
    qa, qb = per_query[a][measure], per_query[b][measure]
    common = sorted(set(qa) & set(qb))
    if len(common) < 2:
        raise EmptyInputError(
            f"systems {a!r} and {b!r} share {len(common)} scored queries for {measure}; "
            "a paired test needs at least 2"
        )
    x = np.array([qa[q] for q in common], dtype=np.float64)
    y = np.array([qb[q] for q in common], dtype=np.float64)
    result = paired_test(x, y, test=test, n_resamples=n_resamples, seed=seed, alpha=alpha)
    return (a, b), result
