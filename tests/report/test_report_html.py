"""The HTML report in-process: escaping, self-containment, SVG ids, sections, adapters."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

import numpy as np
import pytest

import scorekit
from scorekit.cli._demo import demo_data
from scorekit.report import (
    Metric,
    Plot,
    Report,
    Section,
    Table,
    _svg,
    classification_section,
    clustering_section,
    gauc_section,
    ranking_section,
    regression_section,
)
from scorekit.report._data import catalog_metrics, records
from scorekit.report._sections import THRESHOLD_COLUMNS

pytest.importorskip("matplotlib")

EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


@dataclass
class FakeRankingResult:
    """The two things a report reads from a RankingResult: mean() and per_query."""

    per_query: dict

    def mean(self) -> dict:
        return {m: float(np.mean(list(v.values()))) for m, v in self.per_query.items()}


def hostile_page() -> str:
    labels = [EVIL, "a & b", "$x$ costs $5"]
    plots = (
        Plot(
            "heatmap_svg",
            f"caption {EVIL}",
            {
                "matrix": np.array([[3, 1, 0], [1, 4, 1], [0, 2, 5]]),
                "row_labels": labels,
                "col_labels": labels,
                "title": EVIL,
                "xlabel": "predicted",
                "ylabel": "true",
            },
        ),
        Plot(
            "box_strip_svg",
            "distributions",
            {
                "data": [(EVIL, [(EVIL, np.array([0.1, 0.5, 0.9])), ("b", np.array([0.2, 0.4]))])],
                "title": EVIL,
            },
        ),
        Plot(
            "bar_svg",
            "bars",
            {"labels": labels, "values": [0.2, 0.5, 0.9], "title": "t", "ylabel": "F1"},
        ),
    )
    table = Table(EVIL, ("query", EVIL), ((EVIL, 0.5), ("$x$", 1)), note=EVIL, collapsed=True)
    section = Section(EVIL, "custom", (Metric(EVIL, 0.25, 0.1, 0.4),), plots, (table,), (EVIL,))
    return Report(EVIL, [section], subtitle=EVIL).to_html()


def test_every_user_string_is_escaped():
    page = hostile_page()
    assert "<script" not in page.lower()
    assert page.count(ESCAPED) >= 8  # title, subtitle, nav, heading, note, metric, table, caption
    assert "$x$" in page  # shown literally in tables


def test_page_is_self_contained():
    page = hostile_page()
    urls = re.findall(r"https?://[^\s\"'<>]+", page)
    assert set(urls) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert not re.search(r"\b(src|srcset)\s*=", page)
    assert "<link" not in page
    assert "@import" not in page
    assert "<script" not in page
    assert "Content-Security-Policy" in page


def test_svg_ids_are_unique_and_every_reference_resolves():
    page = hostile_page()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    refs = re.findall(r'(?:href="#|url\(#)([^")]+)', page)
    assert refs
    assert set(refs) <= set(ids)


def test_svg_is_deterministic_and_has_no_prolog():
    a = _svg.histogram_svg(np.arange(10.0), title="h", xlabel="x")
    b = _svg.histogram_svg(np.arange(10.0), title="h", xlabel="x")
    assert a == b
    assert a.startswith("<svg ")
    assert "<?xml" not in a
    assert "<!--" not in a
    assert "metadata" not in a


def test_dollar_signs_do_not_start_math_mode():
    assert _svg.plain("$\\alpha$") == "\\$\\alpha\\$"
    svg = _svg.bar_svg(["$\\frac{", "$"], [0.5, 0.5], title="$unbalanced", ylabel="y")
    assert svg.startswith("<svg")


def test_missing_matplotlib_names_the_plot_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(scorekit.MissingDependencyError, match=r"scorekit\[plot\]"):
        _svg.histogram_svg(np.arange(3.0), title="h", xlabel="x")


def test_records_reads_every_result_shape():
    arr = np.array([(0.5, 1), (0.7, 2)], dtype=[("threshold", "f8"), ("tp", "i8")])
    expected = [{"threshold": 0.5, "tp": 1}, {"threshold": 0.7, "tp": 2}]
    assert records(arr) == expected
    assert records({"threshold": [0.5, 0.7], "tp": [1, 2]}) == expected
    assert records({"rows": expected, "test": "t"}) == expected
    assert records(expected) == expected

    class WithToDict:
        def to_dict(self):
            return {"threshold": np.array([0.5, 0.7]), "tp": np.array([1, 2])}

    assert records(WithToDict()) == expected


def test_catalog_metrics_from_states_and_intervals():
    t = np.array([1.0, 2.0, 3.0, 5.0])
    p = np.array([1.5, 2.0, 2.0, 4.0])
    rows = [scorekit.metric_info("mae"), scorekit.metric_info("max_error")]
    acc = scorekit.stream.RegressionMoments().update(t, p)
    mae, mx = catalog_metrics(rows, {"regression": (t, p)}, {"RegressionMoments": acc})
    assert mae == Metric("mae", scorekit.mae(t, p))
    assert mx == Metric("max_error", 1.0)
    mae, mx = catalog_metrics(rows, {"regression": (t, p)}, {}, bootstrap=200, seed=1)
    expected = scorekit.stats.bootstrap_ci(scorekit.mae, t, p, n_resamples=200, seed=1)
    assert (mae.ci_low, mae.ci_high) == expected
    assert (mx.ci_low, mx.ci_high) == (None, None)  # an order statistic gets no interval


def test_regression_section_values_and_plots():
    t = np.array([1.0, 2.0, 3.0, 5.0])
    p = np.array([1.5, 2.0, 2.0, 5.0])
    section = regression_section(t, p)
    values = section.to_dict()
    assert values["mae"] == 0.375  # (0.5 + 0 + 1 + 0) / 4
    assert values["max_error"] == 1.0
    assert [pl.draw for pl in section.plots] == ["scatter_svg", "histogram_svg"]
    assert "<svg" in Report("r", [section]).to_html()


def test_binary_classification_section_has_every_part():
    d = demo_data()
    section = classification_section(d.binary_true, y_score=d.binary_prob)
    assert section.to_dict()["roc_auc"] == scorekit.roc_auc(d.binary_true, d.binary_prob)
    assert [p.caption.split(" ")[0] for p in section.plots] == [
        "ROC",
        "Precision–recall",
        "Scores",
        "Precision,",
        "Cumulative",
        "Lift:",
        "Calibration",
        "Confusion",
    ]
    data, table = section.tables
    assert dict(data.rows)["rows"] == d.binary_true.size
    assert table.columns[1:] == THRESHOLD_COLUMNS
    whys = [row[0] for row in table.rows]
    assert "5% quantile" in whys[0]
    assert any("max F1" in w for w in whys)
    assert any("max Youden J" in w for w in whys)
    first = table.rows[0]
    assert first[2] + first[5] == d.binary_true.sum()  # tp + fn = positives
    f1_row = next(r for r in table.rows if "max F1" in r[0])
    assert f1_row[-1] == pytest.approx(
        np.nanmax(scorekit.threshold_table(d.binary_true, d.binary_prob).f1)
    )


def test_skewed_data_gets_quantile_calibration_bins():
    rng = np.random.default_rng(0)
    y = (rng.random(5000) < 0.02).astype(int)
    p = np.clip(rng.beta(1, 40, 5000) + 0.05 * y, 0, 1)
    section = classification_section(y, y_score=p, threshold=0.05)
    caption = next(pl.caption for pl in section.plots if pl.draw == "calibration_svg")
    assert "quantile bins" in caption
    assert "0.02" in caption


def test_multiclass_and_clustering_sections():
    d = demo_data()
    multi = classification_section(d.multi_true, y_pred=d.multi_pred)
    assert multi.to_dict()["accuracy"] == scorekit.accuracy(d.multi_true, d.multi_pred)
    assert multi.tables[0].rows[0][0] == "bird"
    clusters = clustering_section(d.cluster_true, d.cluster_pred, features=d.cluster_points)
    assert clusters.to_dict()["silhouette_score"] == scorekit.silhouette_score(
        d.cluster_points, d.cluster_pred
    )
    only_features = clustering_section(
        None, d.cluster_pred, features=d.cluster_points, details=False
    )
    assert set(only_features.to_dict()) == {
        "silhouette_score",
        "calinski_harabasz",
        "davies_bouldin",
    }


def test_gauc_section_draws_per_group_auc():
    rng = np.random.default_rng(0)
    g = rng.integers(0, 20, size=400)
    y = rng.integers(0, 2, size=400)
    s = rng.random(400) + 0.3 * y
    section = gauc_section(y, s, g)
    assert section.to_dict()["gauc"] == scorekit.gauc(y, s, g)
    assert [p.draw for p in section.plots] == ["histogram_svg", "scatter_svg"]


def test_ranking_section_from_results_and_comparison():
    per_query_a = {
        "map": {EVIL: 0.2, "q2": 0.4, "q3": 0.9},
        "num_ret": {EVIL: 10, "q2": 10, "q3": 10},
    }
    per_query_b = {
        "map": {EVIL: 0.5, "q2": 0.3, "q3": 1.0},
        "num_ret": {EVIL: 10, "q2": 10, "q3": 10},
    }
    comparison = {
        "rows": [
            {
                "measure": "map",
                "system_a": "a",
                "system_b": EVIL,
                "mean_a": 0.5,
                "mean_b": 0.6,
                "diff": -0.1,
                "p_value": 0.3,
                "p_adjusted": 0.3,
                "significant": False,
            }
        ]
    }
    section = ranking_section(
        {"a": FakeRankingResult(per_query_a), EVIL: FakeRankingResult(per_query_b)},
        comparison=comparison,
    )
    titles = [t.title for t in section.tables]
    assert titles == [
        "Measures",
        "Significance tests",
        "Largest per-query differences in map",
        "Per-query values",
    ]
    measures = section.tables[0]
    assert measures.rows[0] == ("map", 0.5, 0.6)
    largest = section.tables[2]
    assert largest.rows[0][0] == EVIL
    assert largest.rows[0][3] == pytest.approx(0.3)
    assert [p.draw for p in section.plots] == ["box_strip_svg"]  # num_ret is not plotted
    page = Report("r", [section]).to_html()
    assert "<script" not in page
    assert ESCAPED in page


def test_demo_is_deterministic():
    a, b = demo_data(), demo_data()
    for field in a.__dataclass_fields__:
        x, y = getattr(a, field), getattr(b, field)
        if isinstance(x, dict):
            assert all(np.array_equal(x[k], y[k]) for k in x)
        else:
            assert np.array_equal(x, y)


def test_report_header_meta_and_notebook_display():
    section = regression_section([1.0, 2.0, 4.0], [1.0, 2.5, 3.0])
    page = Report("r", [section], meta=[("command", f"scorekit regress {EVIL}")]).to_html()
    assert "<dt>command</dt>" in page
    assert ESCAPED in page
    fragment = section._repr_html_()
    assert fragment.count("<svg") == 2
    assert "<section" in fragment


def test_gauc_section_draws_auc_against_group_size_and_counts_skipped():
    rng = np.random.default_rng(2)
    g = rng.integers(0, 30, 800)
    y = (rng.random(800) < 0.3).astype(int)
    s = rng.random(800) + 0.2 * y
    y[g == 0] = 0  # one group with one class only
    section = gauc_section(y, s, g)
    draws = [p.draw for p in section.plots]
    assert draws == ["histogram_svg", "scatter_svg"]
    facts = dict(section.tables[0].rows)
    assert facts["groups skipped (one class)"] >= 1
    assert facts["groups"] == 30
