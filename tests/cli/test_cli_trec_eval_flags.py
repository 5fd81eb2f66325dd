"""``scorekit rank`` flags as trec_eval 10.0 has them: -n -N -l, repeated -m, relstring, JSON shape."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from scorekit.cli._commands import run as cli

QRELS = "all 0 a 1\nall 0 b 0\nq2 0 c 2\nq2 0 d 1\n"
RUN = "all Q0 a 1 2 t\nall Q0 x 2 1 t\nq2 Q0 d 1 3 t\nq2 Q0 c 2 2 t\nq2 Q0 e 3 1 t\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return [str(tmp_path / "qrels"), str(tmp_path / "run")]


def rank(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli(["rank", "--quiet", *args])
    return code, out.getvalue(), err.getvalue()


def test_no_summary_flag(files):
    assert rank("-n", "-m", "P.1", *files) == (0, "", "")
    _, out, _ = rank("-n", "-q", "-m", "P.1", *files)
    assert out == "P_1                   \tall\t1.0000\nP_1                   \tq2\t1.0000\n"


def test_relstring_without_q_prints_nothing(files):
    assert rank("-m", "relstring", *files) == (0, "", "")


def test_first_parameter_list_of_a_family_wins(files):
    _, out, _ = rank("-m", "P.1", "-m", "P.2", "-m", "P", *files)
    assert out == "P_1                   \tall\t1.0000\n"
    _, out, _ = rank("-m", "P", "-m", "P.2", *files)
    assert out == "P_2                   \tall\t0.7500\n"


def test_collection_size_and_negative_level(files):
    _, out, _ = rank("-N", "1000", "-m", "utility.0,0,0,1", *files)
    # per query N + relret - ret - rel: all: 1000 + 1 - 2 - 1, q2: 1000 + 2 - 3 - 2
    assert out == "utility_0,0,0,1       \tall\t997.5000\n"
    code, out, _ = rank("-l", "-1", "-m", "num_rel", *files)
    assert code == 0
    assert out.startswith("num_rel")


def test_per_query_json_keeps_the_summary_apart_from_a_query_named_all(files):
    code, out, _ = rank("-q", "--format", "json", "-m", "P.2", *files)
    got = json.loads(out)
    assert code == 0
    assert got["per_query"]["P_2"] == {"all": 0.5, "q2": 1.0}
    assert got["mean"] == {"P_2": 0.75}


def test_huge_gain_grade_is_a_flag_error(files):
    code, _, err = rank("--gain", "1=1,100000000000000000000=2", "-m", "ndcg", *files)
    assert code == 2
    assert "--gain" in err
    assert "out of range" in err
