"""The report in a real browser: headless Chromium renders it without console errors,
its plots are drawn, and a hostile string from the data is shown as text, never run.

Skipped where Chromium is not installed (``apt-get install chromium``). Set
``SCOREKIT_SCREENSHOT=docs/report-screenshot.png`` to keep the demo's screenshot.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import scorekit

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
CHROMIUM = next((p for p in (shutil.which(c) for c in CANDIDATES) if p), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)"
)
EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
PLOT_BLUE = np.array([0x33, 0x66, 0xCC]) / 255  # the first colour of the report's palette


def chromium(profile: Path, page: Path, *args: str) -> subprocess.CompletedProcess:
    """Run headless Chromium on a local file; a page stuck on an alert() dialog times out."""
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        page.resolve().as_uri(),
    ]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        pytest.fail("Chromium did not finish: the page is blocked (an alert dialog?)")


def console_messages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def scorekit_cli(*args: str | Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scorekit.cli", *map(str, args), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr


def dump_dom(tmp_path: Path, page: Path) -> str:
    proc = chromium(tmp_path / "profile-dom", page, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert console_messages(proc.stderr) == []
    return proc.stdout


def test_demo_report_renders_with_plots_and_no_console_errors(tmp_path):
    page = tmp_path / "demo.html"
    scorekit_cli("demo", "--out", page)
    dom = dump_dom(tmp_path, page)
    assert "scorekit demo report" in dom
    assert dom.count("<svg") >= 5

    shot = tmp_path / "shot.png"
    proc = chromium(
        tmp_path / "profile-shot",
        page,
        f"--screenshot={shot}",
        "--window-size=1280,1900",
        "--hide-scrollbars",
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists()
    assert console_messages(proc.stderr) == []
    image = pytest.importorskip("matplotlib.image").imread(shot)[..., :3]
    assert image.shape[:2] == (1900, 1280)
    not_white = (image < 0.94).any(axis=2).mean()
    assert not_white > 0.05, f"the page is almost blank ({not_white:.1%} of pixels drawn)"
    blue = (np.abs(image - PLOT_BLUE) < 0.08).all(axis=2).sum()
    assert blue > 500, f"no plot lines or bars found ({blue} pixels of the plot colour)"
    keep = os.environ.get("SCOREKIT_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)


def test_class_label_with_a_script_is_shown_as_text(tmp_path):
    if not hasattr(scorekit, "cohen_kappa"):
        pytest.skip("scorekit.cohen_kappa is not implemented yet")
    data = tmp_path / "labels.csv"
    rows = [
        (EVIL, EVIL),
        (EVIL, "cat"),
        ("cat", "cat"),
        ("cat", EVIL),
        ("dog", "dog"),
        ("dog", "cat"),
    ]
    data.write_text("y,p\n" + "".join(f"{a},{b}\n" for a, b in rows))
    page = tmp_path / "labels.html"
    scorekit_cli("classify", data, "--true", "y", "--pred", "p", "--report", page)
    dom = dump_dom(tmp_path, page)
    assert ESCAPED in dom
    assert not re.search(r"<script", dom, re.IGNORECASE)


def test_query_id_with_a_script_is_shown_as_text(tmp_path):
    if not all(hasattr(scorekit, n) for n in ("evaluate", "Qrels", "Run")):
        pytest.skip("scorekit.evaluate is not implemented yet")
    qids = [EVIL, "q2", "q3"]
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 d{j} {int(j % 3 == 0)}\n" for q in qids for j in range(6))
    )
    (tmp_path / "run").write_text(
        "".join(
            f"{q} Q0 d{j} {j + 1} {10 - j + k} sys\n" for k, q in enumerate(qids) for j in range(6)
        )
    )
    page = tmp_path / "rank.html"
    scorekit_cli(
        "rank", tmp_path / "qrels", tmp_path / "run", "-m", "map", "-m", "P_5", "--report", page
    )
    dom = dump_dom(tmp_path, page)
    assert ESCAPED in dom
    assert not re.search(r"<script", dom, re.IGNORECASE)


def _ctr_file(tmp_path: Path) -> Path:
    rng = np.random.default_rng(7)
    n = 4000
    users = rng.integers(0, 150, n)
    y = (rng.random(n) < 0.03).astype(int)
    p = np.clip(rng.beta(1, 30, n) + 0.04 * y, 0, 1).round(4)
    path = tmp_path / "ctr.csv"
    path.write_text(
        "click,p,user\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(y, p, users, strict=True))
    )
    return path


def test_ctr_report_draws_every_plot_with_labelled_axes(tmp_path):
    data = _ctr_file(tmp_path)
    page = tmp_path / "ctr.html"
    scorekit_cli(
        "classify", data, "--true", "click", "--score", "p", "--bootstrap", "100", "--report", page
    )
    dom = dump_dom(tmp_path, page)
    for caption in ("ROC curve", "Precision–recall curve", "Scores by class", "Precision, recall and F1",
                    "Cumulative gains", "Lift", "quantile bins", "Confusion matrix"):  # fmt: skip
        assert caption in dom, caption
    labels = re.findall(r'aria-label="([^"]*)"', dom)
    for axis in ("x: false positive rate", "x: share of rows targeted", "x: threshold", "x: score",
                 "y: lift", "y: observed frequency"):  # fmt: skip
        assert any(axis in label for label in labels), axis
    assert all("x: " in label and "y: " in label for label in labels), labels
    assert "<dt>command</dt>" in dom
    assert dom.count("<svg") >= 8
    for svg in re.findall(r"<svg.*?</svg>", dom, re.S):
        assert svg.count("<path") >= 5, "a plot without drawn paths"
    shot = tmp_path / "ctr.png"
    proc = chromium(tmp_path / "profile-ctr", page, f"--screenshot={shot}", "--window-size=1280,2400",
                    "--hide-scrollbars")  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    image = pytest.importorskip("matplotlib.image").imread(shot)[..., :3]
    assert (image < 0.94).any(axis=2).mean() > 0.05
    keep = os.environ.get("SCOREKIT_CTR_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)


def test_gauc_report_renders(tmp_path):
    data = _ctr_file(tmp_path)
    page = tmp_path / "gauc.html"
    scorekit_cli("gauc", data, "--true", "click", "--score", "p", "--group", "user", "--bootstrap", "100",
                 "--report", page)  # fmt: skip
    dom = dump_dom(tmp_path, page)
    assert "Per-group AUC against group size" in dom
    assert any("AUC by group size" in label for label in re.findall(r'aria-label="([^"]*)"', dom))
    assert "groups skipped (one class)" in dom


def _colour_pixels(image: np.ndarray, hex_colour: str, tol: float = 0.08) -> int:
    rgb = np.array([int(hex_colour[k : k + 2], 16) for k in (1, 3, 5)]) / 255
    return int((np.abs(image - rgb) < tol).all(axis=2).sum())


def test_bands_error_bars_and_one_vs_rest_curves_render(tmp_path):
    from scorekit.report import Report, Section, classification_section
    from scorekit.report._figures import OKABE_ITO

    rng = np.random.default_rng(0)
    y = (rng.random(3000) < 0.3).astype(int)
    s = np.clip(rng.beta(2, 5, 3000) + 0.3 * y, 0, 1)
    binary = classification_section(y, y_score=s, bootstrap=100)
    names = np.array([EVIL, "cat", "dog"])
    codes = rng.integers(0, 3, 1500)
    raw = rng.random((1500, 3))
    raw[np.arange(1500), codes] += 0.6
    order = np.argsort(names)
    multi = classification_section(
        names[codes], y_score=(raw / raw.sum(axis=1, keepdims=True))[:, np.argsort(order)]
    )
    keep = [p for p in binary.plots if p.caption.startswith(("ROC", "Precision–", "Calibration"))]
    page = tmp_path / "bands.html"
    only = Section(binary.title, "classification", plots=tuple(keep))
    Report("bands", [only, multi]).write(page)
    dom = dump_dom(tmp_path, page)
    assert EVIL not in dom
    assert ESCAPED in dom
    labels = re.findall(r'aria-label="([^"]*)"', dom)
    assert len(labels) == 4
    assert all("x: " in label and "y: " in label for label in labels), labels
    assert "pointwise percentile band" in dom
    assert "Error bars: 95% percentile interval" in dom
    shot = tmp_path / "bands.png"
    proc = chromium(tmp_path / "profile-bands", page, f"--screenshot={shot}",
                    "--window-size=1280,1400", "--hide-scrollbars")  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert console_messages(proc.stderr) == []
    image = pytest.importorskip("matplotlib.image").imread(shot)[..., :3]
    assert (image < 0.94).any(axis=2).mean() > 0.02  # lines on white: not blank
    band = 1 - 0.22 * (1 - PLOT_BLUE)  # the band's fill over white
    assert (np.abs(image - band) < 0.03).all(axis=2).sum() > 2000, "no shaded band drawn"
    assert _colour_pixels(image, "#3366cc") > 300, "no curve drawn"
    for colour in OKABE_ITO[:3]:  # one line per class (the curves overlap; the legend shows each)
        assert _colour_pixels(image, colour) > 20, colour
