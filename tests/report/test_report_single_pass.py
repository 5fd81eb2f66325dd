"""A report sorts the scores once and evaluates a ranking once (issue 13)."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import scorekit
from scorekit.classification import _curve_kernel
from scorekit.cli._commands import run
from scorekit.report import classification_section


def _count_full_sorts(monkeypatch, n):
    """Count the sort kernel's calls and every NumPy sort of n or more values."""
    calls = {"sort_rows": 0, "numpy": 0}
    original = _curve_kernel.sort_rows

    def sort_rows(*args, **kwargs):
        calls["sort_rows"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(_curve_kernel, "sort_rows", sort_rows)
    for name in ("sort", "argsort", "lexsort", "unique"):
        fn = getattr(np, name)

        def wrapped(*args, _fn=fn, **kwargs):
            first = args[0] if args else None
            if isinstance(first, np.ndarray) and first.size >= n:
                calls["numpy"] += 1
            return _fn(*args, **kwargs)

        monkeypatch.setattr(np, name, wrapped)
    return calls


@pytest.mark.parametrize("details", [False, True])
def test_classification_report_sorts_the_scores_once(monkeypatch, details):
    rng = np.random.default_rng(0)
    n = 20_000
    y = (rng.random(n) < 0.05).astype(int)
    s = rng.random(n) * 0.3 + 0.1 * y  # continuous: the sort path, not the decimal count
    calls = _count_full_sorts(monkeypatch, n)
    section = classification_section(y, y_score=s, details=details, metrics=["all"], threshold=0.2)
    assert calls == {"sort_rows": 1, "numpy": 0}
    assert section.to_dict()["roc_auc"] == scorekit.roc_auc(y, s)


def test_rank_and_compare_evaluate_each_run_once(monkeypatch, tmp_path):
    qrels = "".join(f"q{q} 0 d{d} {int(d % 3 == 0)}\n" for q in range(5) for d in range(8))
    runs = []
    for k in range(2):
        path = tmp_path / f"r{k}.txt"
        path.write_text(
            "".join(
                f"q{q} Q0 d{d} {d} {float((d * (k + 2)) % 7)} s\n"
                for q in range(5)
                for d in range(8)
            )
        )
        runs.append(str(path))
    (tmp_path / "qrels").write_text(qrels)
    count = {"n": 0}
    original = scorekit.ranking.evaluate

    def counting(*args, **kwargs):
        count["n"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(scorekit.ranking, "evaluate", counting)
    out = contextlib.redirect_stdout(io.StringIO())
    with out, contextlib.redirect_stderr(io.StringIO()):
        argv = [
            "rank",
            str(tmp_path / "qrels"),
            runs[0],
            "-q",
            "--report",
            str(tmp_path / "r.html"),
        ]
        assert run(argv) == 0
    assert count["n"] == 1
    count["n"] = 0
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        argv = ["compare", str(tmp_path / "qrels"), *runs, "--report", str(tmp_path / "c.html")]
        assert run(argv) == 0
    assert count["n"] == 2  # one per run, shared by the tests and the report
