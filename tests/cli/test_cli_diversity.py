"""``scorekit rank`` with diversity measures reads the qrels as subtopic qrels (ndeval's format)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import scorekit
from scorekit.cli._commands import run

SUBTOPICS = {"q1": {"1": {"a": 1, "b": 1}, "2": {"a": 1, "d": 1}, "3": {"c": 1, "d": 1}}}
RUN = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0, "x": 1.0}}


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "subtopics.qrels"
    scorekit.SubtopicQrels.from_dict(SUBTOPICS).to_trec(qrels)
    path = tmp_path / "a.run"
    scorekit.Run.from_dict(RUN, tag="a").to_trec(path)
    return qrels, path


def expected(names, **kw):
    sq = scorekit.SubtopicQrels.from_dict(SUBTOPICS)
    return scorekit.evaluate(sq, scorekit.Run.from_dict(RUN), names, **kw).mean()


def test_rank_diversity_measures_equal_the_library(files, capsys):
    qrels, path = files
    names = ["alpha_nDCG@20", "ERR-IA@5", "NRBP", "P@2"]
    args = [a for n in names for a in ("-m", n)]
    code = run(
        ["rank", str(qrels), str(path), *args, "--ties", "docid_asc", "--format", "json-flat"]
    )
    out = capsys.readouterr().out
    assert code == 0
    got = json.loads(out)
    want = expected(names, ties="docid_asc")
    assert {k: pytest.approx(v) for k, v in want.items()} == got


def test_rank_subtopic_qrels_as_a_table(tmp_path, files, capsys):
    _, path = files
    table = tmp_path / "subtopics.csv"
    scorekit.SubtopicQrels.from_dict(SUBTOPICS).to_pandas().rename(
        columns={"subtopic": "intent"}
    ).to_csv(table, index=False)
    code = run(["rank", str(table), str(path), "-m", "alpha_nDCG@3", "--format", "json-flat"])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == pytest.approx(expected(["alpha_nDCG@3"]))


def test_bad_subtopic_line_is_one_line_exit_2(tmp_path, files):
    _, path = files
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 1 a 1\nq1 2 b\n")
    proc = subprocess.run(
        [sys.executable, "-m", "scorekit.cli", "rank", str(bad), str(path), "-m", "alpha_nDCG@5"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "bad.qrels: line 2" in proc.stderr


def test_bad_alpha_is_one_line_exit_2(files, capsys):
    qrels, path = files
    code = run(["rank", str(qrels), str(path), "-m", "alpha_nDCG(alpha=2)@5"])
    assert code == 2
    assert "alpha must lie in [0, 1]" in capsys.readouterr().err
