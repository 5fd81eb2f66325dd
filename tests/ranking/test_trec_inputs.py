"""TREC files as people have them: BOMs, gzip, pipes and stdin, trec_eval's number syntax, huge grades."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import threading

import numpy as np
import pandas as pd
import pytest

from scorekit import ParameterError, ParseError
from scorekit.ranking import EvalOptions, Qrels, Run, evaluate

RUN = "q1 Q0 a 1 3.5 t\nq1 Q0 b 2 2 t\nq2 Q0 c 1 1 t\n"
QRELS = "q1 0 a 1\nq1 0 b 0\nq2 0 c 2\n"


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("kind", ["run", "qrels"])
def test_utf8_bom_is_not_part_of_the_first_query_id(tmp_path, kind):
    cls, text = (Run, RUN) if kind == "run" else (Qrels, QRELS)
    plain = cls.from_trec(_write(tmp_path / "a", text.encode()))
    bom = cls.from_trec(_write(tmp_path / "b", b"\xef\xbb\xbf" + text.encode()))
    assert bom.query_ids == plain.query_ids == ["q1", "q2"]
    assert bom.to_dict() == plain.to_dict()


def test_gzip_files_are_read_by_their_magic_bytes(tmp_path):
    run = Run.from_trec(_write(tmp_path / "run.txt.gz", gzip.compress(RUN.encode())))
    qrels = Qrels.from_trec(_write(tmp_path / "qrels", gzip.compress(QRELS.encode())))
    assert run.to_dict() == Run.from_trec(_write(tmp_path / "r", RUN.encode())).to_dict()
    assert qrels.to_dict() == {"q1": {"a": 1, "b": 0}, "q2": {"c": 2}}
    with pytest.raises(ParseError, match="not a valid gzip file"):
        Run.from_trec(_write(tmp_path / "bad.gz", gzip.compress(RUN.encode())[:-9]))


def test_stdin_and_pipes_are_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(RUN.encode()))))
    assert Run.from_trec("-").to_dict() == {"q1": {"a": 3.5, "b": 2.0}, "q2": {"c": 1.0}}
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    lines = RUN * 1 + "".join(f"q3 Q0 d{i} {i} {i} t\n" for i in range(50_000))

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(gzip.compress(lines.encode()))

    writer = threading.Thread(target=feed)
    writer.start()
    run = Run.from_trec(fifo)  # a pipe reports size 0: it must still be read whole
    writer.join()
    assert len(run) == 50_003


def test_cli_reads_the_run_from_stdin_and_gzip(tmp_path):
    qrels = _write(tmp_path / "qrels", QRELS.encode())
    gz = _write(tmp_path / "run.gz", gzip.compress(RUN.encode()))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable, "-m", "scorekit.cli", "rank", "-m", "P.1", str(qrels)]
    piped = subprocess.run([*cmd, "-"], input=RUN.encode(), capture_output=True, env=env)
    from_gz = subprocess.run([*cmd, str(gz)], capture_output=True, env=env)
    assert piped.returncode == from_gz.returncode == 0, piped.stderr
    assert piped.stdout == from_gz.stdout == b"P_1                   \tall\t1.0000\n"


@pytest.mark.parametrize(
    ("token", "value"), [("inf", np.inf), ("-inf", -np.inf), ("1e400", np.inf), ("-1E-3", -0.001)]
)
def test_scores_as_c_strtod_reads_them(tmp_path, token, value):
    run = Run.from_trec(_write(tmp_path / "r", f"q Q0 a 1 {token} t\nq Q0 b 2 0 t\n".encode()))
    assert run.to_dict()["q"]["a"] == value


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("q Q0 a 1 1_0 t", "expected the score to be a number, found '1_0'"),
        ("q Q0 a 1 nan t", "not a number"),
        ("q Q0 a 1 0x1p3 t", "found '0x1p3'"),
        ("q Q0 a 1 \u0661 t", "expected the score to be a number"),  # an Arabic-Indic one
    ],
)
def test_scores_trec_eval_would_read_differently_are_rejected(tmp_path, line, message):
    with pytest.raises(ParseError, match=message):
        Run.from_trec(_write(tmp_path / "r", (line + "\n").encode()))


@pytest.mark.parametrize("grade", ["2e1", "1_0", "1.0", "0x2", "99999999999999999999"])
def test_grades_are_decimal_integers(tmp_path, grade):
    with pytest.raises(ParseError, match=r"line 1: .*relevance"):
        Qrels.from_trec(_write(tmp_path / "q", f"q 0 a {grade}\n".encode()))


def test_nul_byte_inside_a_line_names_file_and_line(tmp_path):
    with pytest.raises(ParseError, match=r"r: line 2: a NUL byte"):
        Run.from_trec(_write(tmp_path / "r", b"q Q0 a 1 1 t\nq Q0 b\x00 2 0 t\n"))


@pytest.mark.parametrize("big", [2**31, 2**32 + 1, 3 * 10**18, 2**63 - 1])
def test_huge_grades_do_not_wrap(tmp_path, big):
    qrels = Qrels.from_trec(_write(tmp_path / "q", f"q 0 a {big}\nq 0 b 0\nq 0 c 1\n".encode()))
    run = Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}})
    res = evaluate(qrels, run, ["P.1", "ndcg", "ndcg_cut.1", "map"]).mean()
    assert res["P_1"] == 1.0
    assert res["ndcg_cut_1"] == 1.0  # the huge grade is ranked first, as in the ideal
    ideal = big + 1 / np.log2(3)  # DCG: big/1 + 0 + 1/log2(4); ideal: big + 1/log2(3)
    assert res["ndcg"] == pytest.approx((big + 0.5) / ideal, rel=1e-15)
    assert res["map"] == pytest.approx((1 + 2 / 3) / 2)


def test_from_frame_names_a_missing_column():
    frame = pd.DataFrame({"query": ["q"], "doc": ["d"]})
    with pytest.raises(ParameterError, match=r"score='score': the frame has no column 'score'"):
        Run.from_frame(frame)
    with pytest.raises(ParameterError, match="relevance='grade'"):
        Qrels.from_frame(frame, relevance="grade")


def test_eval_options_and_keywords_agree():
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 2}, "p": {"x": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "b": 1.0, "c": 2.0}})
    kw = {"max_docs": 2, "ties": "docid_asc", "missing_queries": "zero", "rel_level": 2}
    by_kw = evaluate(qrels, run, ["P.2", "ndcg"], **kw).mean()
    by_opts = evaluate(qrels, run, ["P.2", "ndcg"], options=EvalOptions(**kw)).mean()
    assert by_kw == by_opts
    # keywords override the options' fields
    assert evaluate(qrels, run, "P.2", options=EvalOptions(**kw), rel_level=1).mean() == {
        "P_2": 0.25
    }
    with pytest.raises(ParameterError, match="ties"):
        EvalOptions(ties="random")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="unknown option"):
        EvalOptions.build(relevance_level=2)


def test_utility_uses_the_collection_size():
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "c": 0.5}})
    # 1*relret - 1*nonrelret + 0 + 1*(N + relret - ret - rel) = 1 - 1 + (100 + 1 - 2 - 2)
    res = evaluate(qrels, run, "utility.1,-1,0,1", num_docs=100)
    assert res.mean() == {"utility_1,-1,0,1": 97.0}
