"""The report's bands, error bars and one-vs-rest curves in-process, and the values it shows.

Browser rendering of the same figures is in ``test_report_browser.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import scorekit
from scorekit._errors import UndefinedMetricWarning
from scorekit.report import Report, classification_section
from scorekit.report._figures import OKABE_ITO
from scorekit.report._sections import THRESHOLD_COLUMNS

EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def _binary(n=2000, seed=0, base=0.3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < base).astype(np.int64)
    return y, np.clip(rng.beta(2, 5, n) + 0.3 * y, 0.0, 1.0)


def _plot(section, start):
    return next(p for p in section.plots if p.caption.startswith(start))


def _aria(svg):
    return re.search(r'aria-label="([^"]*)"', svg).group(1)


def test_bands_contain_the_point_curve_and_the_caption_says_how():
    y, s = _binary()
    section = classification_section(y, y_score=s, bootstrap=200, seed=4)
    roc, pr = _plot(section, "ROC"), _plot(section, "Precision–recall")
    (fpr, low, high), = roc.args["bands"]  # fmt: skip
    point = np.array([scorekit.tpr_at_fpr(y, s, max_fpr=f).value for f in fpr])
    assert np.all(low <= point)
    assert np.all(point <= high)
    assert np.any(low < high)
    (recall, low, high), = pr.args["bands"]  # fmt: skip
    point = np.array([scorekit.precision_at_recall(y, s, min_recall=r).value for r in recall])
    assert np.all(low <= point)
    assert np.all(point <= high)
    for plot in (roc, pr):
        assert "95% pointwise percentile band" in plot.caption
        assert "200 bootstrap resamples of rows" in plot.caption
    cal = _plot(section, "Calibration")
    prob_true = cal.args["prob_true"]
    assert np.all(cal.args["low"] <= prob_true)
    assert np.all(prob_true <= cal.args["high"])
    assert "95% percentile interval" in cal.caption
    assert "200 bootstrap resamples" in cal.caption


def test_band_figures_draw_the_band_and_label_their_axes():
    y, s = _binary(600)
    section = classification_section(y, y_score=s, bootstrap=50)
    page = Report("bands", [section]).to_html()
    svgs = re.findall(r"<svg.*?</svg>", page, re.S)
    roc = next(v for v in svgs if "ROC curve" in _aria(v))
    assert 'fill-opacity="0.22"' in roc  # the shaded band
    assert "x: false positive rate" in _aria(roc)
    assert "y: true positive rate" in _aria(roc)
    pr = next(v for v in svgs if "Precision–recall curve" in _aria(v))
    assert 'fill-opacity="0.22"' in pr
    assert "x: recall" in _aria(pr)
    cal = next(v for v in svgs if "Calibration" in _aria(v))
    assert "95% interval" in cal
    assert "y: observed frequency" in _aria(cal)
    without = classification_section(y, y_score=s)
    assert "bands" not in _plot(without, "ROC").args
    assert 'fill-opacity="0.22"' not in Report("x", [without]).to_html()


def _multiclass(names, n=900, seed=0):
    rng = np.random.default_rng(seed)
    k = len(names)
    codes = rng.integers(0, k, n)
    raw = rng.random((n, k))
    raw[np.arange(n), codes] += 0.6
    order = np.argsort(np.array(names, dtype=object).astype(str))  # columns in sorted class order
    y = np.array(names, dtype=object)[codes].astype(str)
    return y, (raw / raw.sum(axis=1, keepdims=True))[:, np.argsort(order)]


def test_one_vs_rest_roc_has_a_line_per_class_with_its_auc():
    names = ["dog", "cat", "fox", "owl"]
    y, scores = _multiclass(names)
    section = classification_section(y, y_score=scores)
    values = section.to_dict()
    assert values["roc_auc_ovr"] == pytest.approx(
        scorekit.roc_auc(y, scores, multi_class="ovr"), abs=1e-12
    )
    (plot,) = section.plots
    assert plot.args["palette"] == OKABE_ITO
    classes = sorted(names)
    labels = [label for label, _, _ in plot.args["curves"]]
    for k, c in enumerate(classes):
        auc = scorekit.roc_auc((y == c).astype(int), scores[:, k])
        assert labels[k] == f"{c} (AUC = {auc:.3f})"
    svg = Report("mc", [section]).to_html()
    for colour in OKABE_ITO[:4]:
        assert f'stroke="{colour}"' in svg
    assert "x: false positive rate" in svg
    assert "y: true positive rate" in svg


def test_class_names_and_titles_are_escaped_in_the_multiclass_figure():
    names = [EVIL, "a & b", "$x$"]
    y, scores = _multiclass(names, n=600)
    section = classification_section(y, y_score=scores, title=EVIL)
    page = Report(EVIL, [section]).to_html()
    assert "<script" not in page.lower()
    assert page.count(ESCAPED) >= 5  # title, nav, heading, legend, table
    assert "a &amp; b (AUC" in page
    assert "$x$ (AUC" in page


def test_multiclass_scores_checked_and_unnormalised_rows_noted():
    y, scores = _multiclass(["a", "b", "c"], n=300)
    with pytest.raises(scorekit.ScorekitError, match="3 classes"):
        classification_section(y, y_score=scores[:, :2])
    section = classification_section(y, y_score=scores * 3)
    assert "top_k_accuracy" in section.to_dict()
    assert any("do not sum to 1" in n for n in section.notes)
    assert len(section.plots[0].args["curves"]) == 3


@pytest.mark.parametrize("ties", [False, True])
def test_threshold_rows_and_optima_equal_the_full_threshold_table(ties):
    y, s = _binary(5000, seed=2, base=0.08)
    if ties:
        s = np.round(s, 2)
    section = classification_section(y, y_score=s)
    full = scorekit.threshold_table(y, s)
    table = section.tables[1]
    for row in table.rows:
        at = int(np.flatnonzero(full.threshold == row[1])[0])
        for c, v in zip(THRESHOLD_COLUMNS, row[1:], strict=True):
            assert v == getattr(full, c)[at]  # the same numbers, not approximately
    f1 = np.nan_to_num(full.f1, nan=-1.0)
    best_f1 = next(r for r in table.rows if "max F1" in r[0])
    assert best_f1[1] == full.threshold[int(np.argmax(f1))]
    best_j = next(r for r in table.rows if "max Youden J" in r[0])
    assert best_j[1] == full.threshold[int(np.argmax(full.tpr - full.fpr))]


def test_curves_are_reduced_to_pixels_but_numbers_are_exact():
    y, s = _binary(200_000, seed=1, base=0.05)
    section = classification_section(y, y_score=s)
    (label, fpr, tpr), = _plot(section, "ROC").args["curves"]  # fmt: skip
    assert fpr.size < 20_000  # the grid crossings, not 200,000 points
    assert label == f"AUC = {scorekit.roc_auc(y, s):.3f}"
    exact_fpr, exact_tpr, _ = scorekit.roc_curve(y, s)
    # every point drawn lies on the exact curve
    at = np.searchsorted(exact_fpr, fpr[1:], side="left")
    assert np.all(np.isin(fpr, exact_fpr))
    assert np.all(tpr[1:] >= exact_tpr[at])
    page = Report("big", [section]).to_html()
    longest = max(len(m) for m in re.findall(r'<path d="([^"]*)"', page))
    assert longest < 120_000  # a path of pixels, not of rows


def test_cli_multiclass_scores_and_bootstrap_bands(tmp_path):
    y, scores = _multiclass(["cat", "dog", "fox"], n=400)
    data = tmp_path / "mc.csv"
    lines = "".join(
        f"{a},{b:.6f},{c:.6f},{d:.6f}\n" for a, (b, c, d) in zip(y, scores, strict=True)
    )
    data.write_text("animal,p_cat,p_dog,p_fox\n" + lines)
    page = tmp_path / "mc.html"
    proc = subprocess.run(
        [sys.executable, "-m", "scorekit.cli", "classify", str(data), "--true", "animal",
         "--score", "p_cat,p_dog,p_fox", "--format", "json", "--report", str(page), "--quiet"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    import json

    got = json.loads(proc.stdout)["roc_auc_ovr"]["value"]
    rounded = np.loadtxt(data, delimiter=",", skiprows=1, usecols=(1, 2, 3))
    assert got == pytest.approx(scorekit.roc_auc(y, rounded, multi_class="ovr"), abs=1e-12)
    assert "ROC curves, one class against the rest" in page.read_text()
    bad = subprocess.run(
        [sys.executable, "-m", "scorekit.cli", "classify", str(data), "--true", "animal",
         "--score", "p_cat,,p_fox"], capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2
    assert "empty column name" in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_no_positive_or_one_score_still_draws():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        section = classification_section(np.array([0, 0, 1, 1]), y_score=np.full(4, 0.5))
    assert "<svg" in Report("flat", [section]).to_html()


@pytest.mark.parametrize("ties", [False, True])
def test_score_histogram_counts_equal_numpy_histogram(ties):
    y, s = _binary(3000, seed=6)
    if ties:
        s = np.round(s * 4) / 4  # scores on the bin edges
    plot = _plot(classification_section(y, y_score=s), "Scores by class")
    edges = plot.args["edges"]
    for k, (label, counts) in enumerate(plot.args["groups"]):
        assert label == f"class {k}"
        np.testing.assert_array_equal(counts, np.histogram(s[y == k], bins=edges)[0])


def test_structured_metric_rows_show_a_summary_in_the_report():
    from scorekit.report import Report, classification_section

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 2)
    section = classification_section(
        y, y_score=s, metrics=["roc_auc", "precision_at_recall(min_recall=0.5)", "det_curve"]
    )
    (point,) = [m for m in section.metrics if m.name.startswith("precision_at_recall")]
    assert set(point.detail) == {"value", "threshold"}
    html = Report("r", [section]).to_html()
    assert "precision_at_recall(min_recall=0.5)" in html
    assert "value=" in html
    assert "3 arrays of" in html
