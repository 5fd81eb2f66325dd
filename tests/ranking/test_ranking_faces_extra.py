"""Notebook display of a RankingResult and the --iprec-rule flag."""

from __future__ import annotations

import contextlib
import io
import json

import scorekit as sk
from scorekit.cli._commands import run

Q = {"q": {"d3": 1, "d56": 1, "d129": 1}}
# relevant at ranks 3, 8 and 15 of a 15-document ranking (the textbook example)
R = {
    "q": {
        f"d{i}": 100.0 - k
        for k, i in enumerate([1, 2, 3, 4, 5, 6, 7, 56, 9, 10, 11, 12, 13, 14, 129])
    }
}


def test_ranking_result_displays_in_notebooks():
    res = sk.evaluate(sk.Qrels.from_dict(Q), sk.Run.from_dict(R), ["map", "P_5"])
    html = res._repr_html_()
    assert "<table" in html
    assert "map" in html


def test_iprec_rule_flag_reaches_evaluate(tmp_path):
    (tmp_path / "q").write_text("".join(f"q 0 {d} 1\n" for d in Q["q"]))
    (tmp_path / "r").write_text(
        "".join(f"q Q0 {d} {k} {s} t\n" for k, (d, s) in enumerate(R["q"].items()))
    )
    got = {}
    for rule in ("trec_eval10", "trec_eval9", "textbook"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert run(["rank", str(tmp_path / "q"), str(tmp_path / "r"), "-m", "11pt_avg",
                        "--iprec-rule", rule, "--format", "json-flat"]) == 0  # fmt: skip
        got[rule] = json.loads(out.getvalue())["11pt_avg"]
    expected = {
        rule: sk.evaluate(
            sk.Qrels.from_dict(Q), sk.Run.from_dict(R), ["11pt_avg"], iprec_rule=rule
        ).mean()["11pt_avg"]
        for rule in got
    }
    assert got == expected
    assert [round(got[r], 4) for r in ("trec_eval10", "trec_eval9", "textbook")] == [
        0.2788,
        0.2667,
        0.2621,
    ]
