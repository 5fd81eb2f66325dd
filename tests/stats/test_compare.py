"""compare: paired tests between systems on per-query scores, tables, errors.

Tests that need the ranking engine (``scorekit.ranking._evaluate``) use the ``engine``
fixture, which skips them until the engine exists; the rest drive
``compare_results`` with stand-in results exposing ``.per_query`` and ``.mean()``.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass

import numpy as np
import pytest
import scipy.stats as ss

from scorekit._errors import EmptyInputError, ParameterError, ScorekitError
from scorekit.ranking import ComparisonResult, compare
from scorekit.ranking._compare import COLUMNS, compare_results
from scorekit.stats import holm


@dataclass
class FakeResult:
    per_query: dict

    def mean(self):
        return {m: float(np.mean(list(v.values()))) for m, v in self.per_query.items()}


def _systems(seed=0, n=30):
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    qids = [f"q{i}" for i in range(n)]
    shifts = {"bm25": 0.0, "dense": 0.15, "hybrid": 0.02}
    out = {}
    for k, (name, shift) in enumerate(shifts.items()):
        ap = np.clip(base + shift + rng.normal(0, 0.05, n), 0, 1)
        p10 = np.round(np.clip(base + shift * k, 0, 1) * 10) / 10
        out[name] = FakeResult(
            {"map": dict(zip(qids, ap, strict=False)), "P_10": dict(zip(qids, p10, strict=False))}
        )
    return out


def test_rows_equal_scipy_and_holm_within_measure():
    systems = _systems()
    res = compare_results(systems, test="t", correction="holm", alpha=0.05, family="measure")
    assert isinstance(res, ComparisonResult)
    assert len(res.rows) == 2 * 3
    assert [(r.measure, r.system_a, r.system_b) for r in res.rows[:3]] == [
        ("map", "bm25", "dense"),
        ("map", "bm25", "hybrid"),
        ("map", "dense", "hybrid"),
    ]
    for measure in ("map", "P_10"):
        rows = [r for r in res.rows if r.measure == measure]
        for r in rows:
            qa, qb = systems[r.system_a].per_query[measure], systems[r.system_b].per_query[measure]
            a = np.array([qa[q] for q in sorted(qa)])
            b = np.array([qb[q] for q in sorted(qa)])
            assert r.p_value == pytest.approx(ss.ttest_rel(a, b).pvalue, abs=1e-12)
            assert r.diff == pytest.approx(a.mean() - b.mean(), abs=1e-12)
            assert r.n_queries == 30
        adjusted = holm([r.p_value for r in rows])
        assert [r.p_adjusted for r in rows] == pytest.approx(adjusted.tolist(), abs=1e-15)
        assert [r.significant for r in rows] == [p < 0.05 for p in adjusted]
    assert any(r.significant for r in res.rows)
    assert not all(r.significant for r in res.rows)


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "randomization", "bootstrap"])
def test_every_test_runs_through_paired_test(test):
    from scorekit.stats import paired_test

    systems = _systems(1)
    res = compare_results(systems, test=test, n_resamples=300, seed=3)
    qa, qb = systems["bm25"].per_query["map"], systems["dense"].per_query["map"]
    expected = paired_test(
        [qa[q] for q in sorted(qa)], [qb[q] for q in sorted(qa)], test=test, n_resamples=300, seed=3
    )
    row = res.rows[0]
    assert (row.p_value, row.statistic, row.ci_low, row.ci_high, row.effect_size) == (
        expected.p_value,
        expected.statistic,
        expected.ci_low,
        expected.ci_high,
        expected.effect_size,
    )
    assert row.p_adjusted == row.p_value  # correction=None


def test_queries_present_in_both_results():
    a = FakeResult({"map": {"q1": 0.5, "q2": 0.1, "q3": 0.9, "q4": 0.3}})
    b = FakeResult({"map": {"q2": 0.2, "q3": 0.7, "q4": 0.4, "q5": 1.0}})
    (row,) = compare_results({"a": a, "b": b}).rows
    # common queries q2, q3, q4: differences -0.1, 0.2, -0.1
    assert row.n_queries == 3
    assert row.diff == pytest.approx((-0.1 + 0.2 - 0.1) / 3)
    assert row.mean_a == pytest.approx((0.1 + 0.9 + 0.3) / 3)
    assert row.p_value == pytest.approx(ss.ttest_rel([0.1, 0.9, 0.3], [0.2, 0.7, 0.4]).pvalue)


def test_to_pandas_and_to_dict():
    pytest.importorskip("pandas")
    res = compare_results(_systems(), correction="bonferroni")
    df = res.to_pandas()
    assert list(df.columns) == list(COLUMNS)
    assert len(df) == 6
    assert df["p_adjusted"].tolist() == [r.p_adjusted for r in res.rows]
    d = json.loads(json.dumps(res.to_dict()))
    assert d["correction"] == "bonferroni"
    assert d["systems"] == ["bm25", "dense", "hybrid"]
    assert d["rows"][0]["measure"] == "map"
    assert set(COLUMNS) <= set(d["rows"][0])


def _table_example():
    # Ten queries. B beats A by 0.2 on every query but one (t-test p << 0.05); C equals A
    # plus noise of mean zero. So B's mean carries the superscript "a" (better than A),
    # and also "c" (better than C), while A and C carry none.
    qids = [f"q{i}" for i in range(10)]
    a = np.linspace(0.1, 0.55, 10)
    b = a + 0.2
    b[0] = a[0] - 0.05
    c = a + np.array([0.01, -0.01] * 5)
    mk = lambda v: FakeResult({"ndcg_cut_10": dict(zip(qids, v, strict=False))})  # noqa: E731
    return compare_results({"A": mk(a), "B|x": mk(b), "C": mk(c)}, correction="holm")


def test_to_markdown_marks_significant_improvements():
    md = _table_example().to_markdown(digits=3)
    lines = md.splitlines()
    assert lines[0] == "| | System | ndcg_cut_10 |"
    assert lines[2] == "| a | A | 0.325 |"
    assert (
        lines[3] == "| b | B\\|x | **0.500**<sup>ac</sup> |"
    )  # mean of a is 0.325; b: 0.325 + 0.2 - 0.025
    assert lines[4] == "| c | C | 0.325 |"
    assert "paired t-test, Holm correction over all" in lines[-1]


def test_to_latex_marks_and_escapes():
    tex = _table_example().to_latex(digits=3)
    assert "\\begin{tabular}{llr}" in tex
    assert " & System & ndcg\\_cut\\_10 \\\\" in tex
    assert "b & B|x & \\textbf{0.500}$^{ac}$ \\\\" in tex
    assert "\\multicolumn{3}{l}{\\footnotesize Superscript letters" in tex
    assert tex.rstrip().endswith("\\end{tabular}")


def test_repr_is_short():
    assert repr(_table_example()).startswith("ComparisonResult(3 systems, 1 measures, 3 tests")


# ------------------------------------------------------------------ errors (no engine needed)


def test_error_unknown_test():
    with pytest.raises(ParameterError, match="test='ttest'"):
        compare(None, {"a": None, "b": None}, ["map"], test="ttest")


def test_error_unknown_correction():
    with pytest.raises(ParameterError, match="correction='fdr'"):
        compare(None, {"a": None, "b": None}, ["map"], correction="fdr")


def test_error_fewer_than_two_runs():
    with pytest.raises(ParameterError, match="at least two runs"):
        compare(None, {"a": None}, ["map"])


def test_error_fewer_than_two_common_queries():
    a = FakeResult({"map": {"q1": 0.5, "q2": 0.1}})
    b = FakeResult({"map": {"q2": 0.2, "q3": 0.7}})
    with pytest.raises(EmptyInputError, match="share 1 scored queries"):
        compare_results({"a": a, "b": b})


def test_error_run_without_qrels_queries():
    a = FakeResult({"map": {"q1": 0.5, "q2": 0.1}})
    b = FakeResult({"map": {}})
    with pytest.raises(EmptyInputError, match="run 'b' shares no query with the qrels"):
        compare_results({"a": a, "b": b})


def test_error_vectors_of_different_lengths_in_paired_test():
    from scorekit.stats import paired_test

    with pytest.raises(ScorekitError, match="entries"):
        paired_test([0.1, 0.2, 0.3], [0.1, 0.2])


# ------------------------------------------------------------------ with the ranking engine


@pytest.fixture
def engine():
    if importlib.util.find_spec("scorekit.ranking._evaluate") is None:
        pytest.skip("the ranking engine (scorekit.ranking._evaluate) is not available yet")
    import scorekit.ranking as ranking

    return ranking


def _trec_data(seed=0, n_queries=25):
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {"bm25": {}, "dense": {}, "random": {}}
    for q in range(n_queries):
        qid = f"q{q}"
        rel = rng.integers(0, 3, 40)
        qrels[qid] = {f"d{i}": int(r) for i, r in enumerate(rel)}
        for name, signal in (("bm25", 0.8), ("dense", 1.6), ("random", 0.0)):
            score = signal * rel + rng.normal(0, 1, 40)
            runs[name][qid] = {f"d{i}": float(s) for i, s in enumerate(score)}
    return qrels, runs


def test_compare_end_to_end_equals_scipy_on_pytrec_eval_scores(engine):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, runs = _trec_data()
    res = compare(
        engine.Qrels.from_dict(qrels),
        {k: engine.Run.from_dict(v) for k, v in runs.items()},
        ["map", "P_10"],
        correction="holm",
    )
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_10"})
    per = {k: ev.evaluate(v) for k, v in runs.items()}
    qids = sorted(qrels)
    for r in res.rows:
        key = "P_10" if r.measure.lower().startswith("p") else "map"
        a = [per[r.system_a][q][key] for q in qids]
        b = [per[r.system_b][q][key] for q in qids]
        assert r.p_value == pytest.approx(ss.ttest_rel(a, b).pvalue, abs=1e-9)
        assert r.mean_a == pytest.approx(np.mean(a), abs=1e-9)
    assert len(res.rows) == 6
    assert "<sup>" in res.to_markdown()


def test_compare_skips_text_measures_and_passes_evaluate_options(engine):
    qrels, runs = _trec_data(3, 6)
    del runs["dense"]["q0"]  # dense misses a query
    q, r = engine.Qrels.from_dict(qrels), {k: engine.Run.from_dict(v) for k, v in runs.items()}
    res = compare(q, r, ["map", "relstring_5", "runid", "P_5"], test="sign")
    assert res.measures == ("map", "P_5")
    row = next(x for x in res.rows if x.system_a == "bm25" and x.system_b == "dense")
    assert row.n_queries == 5  # only the queries both runs were scored on
    res = compare(q, r, ["map"], all_queries=True)  # trec_eval -c: the missing query scores 0
    row = next(x for x in res.rows if x.system_a == "bm25" and x.system_b == "dense")
    assert row.n_queries == 6
    assert res.means["dense"]["map"] == pytest.approx(row.mean_b, abs=1e-12)


def test_compare_run_not_overlapping_qrels_raises(engine):
    qrels, runs = _trec_data(1, 5)
    other = {f"x{q}": docs for q, docs in runs["dense"].items()}
    with pytest.raises(ScorekitError):
        compare(
            engine.Qrels.from_dict(qrels),
            {"bm25": engine.Run.from_dict(runs["bm25"]), "other": engine.Run.from_dict(other)},
            ["map"],
        )


def test_compare_single_query_raises(engine):
    qrels, runs = _trec_data(2, 1)
    with pytest.raises(ScorekitError):
        compare(
            engine.Qrels.from_dict(qrels),
            {k: engine.Run.from_dict(v) for k, v in runs.items()},
            ["map"],
        )


def test_holm_over_every_reported_test_is_the_default_family():
    systems = _systems()
    res = compare_results(systems, test="t", correction="holm")
    assert res.family == "all"
    adjusted = holm([r.p_value for r in res.rows])
    assert [r.p_adjusted for r in res.rows] == pytest.approx(adjusted.tolist(), abs=1e-15)
    assert "over all 6 tests reported (3 system pairs × 2 measures)" in res.correction_text()
    with pytest.raises(ParameterError, match="family"):
        compare_results(systems, family="pairs")


def test_p_values_below_the_resolution_print_as_a_bound():
    from scorekit.ranking._compare import format_p

    assert format_p(0.0, "randomization", 999) == "<1e-3"
    assert format_p(2e-5, "t", 0) == "<1e-4"
    assert format_p(0.5, "sign", 0) == "0.5000"


def test_comparison_displays_in_notebooks():
    res = compare_results(_systems(), test="t", correction="holm")
    html = res._repr_html_()
    assert "<table" in html
    assert "Holm correction over all" in html
