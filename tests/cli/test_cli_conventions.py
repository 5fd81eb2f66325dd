"""The convention flags of ``scorekit rank`` and ``scorekit compare`` equal the library options.

Run in-process through ``scorekit.cli._commands.run`` (fast), plus one real
subprocess for the one-line error rule.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import scorekit
from scorekit.cli._commands import run

QRELS = {
    "q1": {"d1": 1, "d2": 0, "d3": 0, "d9": 2},
    "q2": {"a": 2, "b": 1, "c": 0},
    "q3": {"z": 1},  # not in the run
}
RUN = {
    "q1": {"d1": 0.5, "d2": 0.5, "d3": 0.5, "d4": 0.1},
    "q2": {"c": 0.9, "b": 0.9, "a": 0.3, "x": 0.3},
}


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items())
    )
    paths = []
    for name, scale in (("a", 1.0), ("b", 0.5)):
        path = tmp_path / f"{name}.run"
        path.write_text(
            "".join(
                f"{q} Q0 {d} {i + 1} {s * scale} {name}\n"
                for q, docs in RUN.items()
                for i, (d, s) in enumerate(docs.items())
            )
        )
        paths.append(path)
    return qrels, paths


def cli(capsys, *args) -> tuple[int, str, str]:
    code = run([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


FLAGS = [
    (["--ties", "average"], {"ties": "average"}),
    (["--ties", "input_order"], {"ties": "input_order"}),
    (["--ties", "docid_asc", "--missing-queries", "zero"], {"ties": "docid_asc", "missing_queries": "zero"}),
    (["--ap-denominator", "hits"], {"ap_denominator": "hits"}),
    (["--ap-denominator", "min_relevant_k", "-l", "2"], {"ap_denominator": "min_relevant_k", "rel_level": 2}),
    (["--ndcg-ideal", "candidates"], {"ndcg_ideal": "candidates"}),
    (["--gain", "exponential"], {"gain": "exponential"}),
    (["--gain", "0=0,1=3,2=10"], {"gain": {0: 0, 1: 3, 2: 10}}),
    (["--compat", "sklearn"], {"compat": "sklearn"}),
    (["--compat", "spark", "--ties", "docid_desc"], {"compat": "spark", "ties": "docid_desc"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "options"), FLAGS, ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_rank_flags_equal_library_options(capsys, files, flags, options):  # fmt: skip
    qrels, (path, _) = files
    measures = ["map", "AP@2", "ndcg", "nDCG@2", "P.1", "recip_rank"]
    code, out, err = cli(capsys, "rank", qrels, path, *[a for m in measures for a in ("-m", m)],
                         "-q", *flags)  # fmt: skip
    assert code == 0, err
    expected = scorekit.evaluate(
        scorekit.Qrels.from_trec(qrels), scorekit.Run.from_trec(path), measures, per_query=True,
        **options,
    )  # fmt: skip
    assert out == expected.to_trec_eval()


def test_rank_flags_change_the_numbers(capsys, files):
    qrels, (path, _) = files
    _, default, _ = cli(capsys, "rank", qrels, path, "-m", "ndcg", "--format", "json")
    _, average, _ = cli(capsys, "rank", qrels, path, "-m", "ndcg", "--ties", "average",
                        "--format", "json")  # fmt: skip
    assert json.loads(default)["ndcg"] != json.loads(average)["ndcg"]


def test_compare_forwards_the_flags(capsys, files):
    qrels, paths = files
    code, out, err = cli(capsys, "compare", qrels, *paths, "-m", "ndcg", "--ties", "average",
                         "--missing-queries", "zero", "--test", "sign", "--format", "json")  # fmt: skip
    assert code == 0, err
    (row,) = json.loads(out)["ndcg"]
    runs = {p.stem: scorekit.Run.from_trec(p) for p in paths}
    expected = scorekit.compare(
        scorekit.Qrels.from_trec(qrels), runs, ["ndcg"], test="sign", correction="holm",
        ties="average", missing_queries="zero",
    ).rows[0]  # fmt: skip
    assert row["mean_a"] == pytest.approx(expected.mean_a, abs=1e-12)
    assert row["mean_b"] == pytest.approx(expected.mean_b, abs=1e-12)
    assert row["p_value"] == pytest.approx(expected.p_value, abs=1e-12)


def test_help_lists_the_convention_flags(capsys):
    code, out, _ = cli(capsys, "rank", "--help")
    assert code == 0
    for flag in ("--ties", "--ap-denominator", "--missing-queries", "--ndcg-ideal", "--gain",
                 "--compat"):  # fmt: skip
        assert flag in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--gain", "0=0,1=high"], "--gain '0=0,1=high': expected GRADE=GAIN pairs"),
        (["--gain", "log"], "--gain 'log' is not one of"),
        (["--gain", "0=0"], r"no entry for grade\(s\) 1, 2"),
        (["--missing-queries", "error"], "the run has no documents for 1 qrels query: 'q3'"),
        (["-c", "--missing-queries", "ignore"], "-c means --missing-queries 'zero'"),
        (["--ties", "average", "-m", "bpref"], "--ties 'average' has no closed form for bpref"),
        (["--ties", "shuffle"], "argument --ties: invalid choice"),
    ],
)
def test_bad_flags_exit_2_with_one_line(capsys, files, flags, message):
    qrels, (path, _) = files
    code, out, err = cli(capsys, "rank", qrels, path, *flags)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("scorekit: error: ")
    assert re.search(message, err), err


def test_error_line_in_a_real_process(files):
    qrels, (path, _) = files
    proc = subprocess.run(
        [sys.executable, "-m", "scorekit.cli", "rank", str(qrels), str(path), "--ties", "average",
         "-m", "infAP"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        line for line in proc.stderr.splitlines() if line.startswith("scorekit: error: ")
    ]
    assert "infAP" in proc.stderr
