"""The command line against hostile files and flags: one line, the flag's name, exit 2 (issue 12)."""

from __future__ import annotations

import json

import pytest

from scorekit.cli import __main__ as entry
from scorekit.cli import _commands
from scorekit.cli._commands import run

pytest.importorskip("pyarrow")
pytest.importorskip("rich")


def cli(capsys, *args) -> tuple[int, str, str]:
    code = run([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_error(code: int, out: str, err: str) -> str:
    assert code == 2, err
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("scorekit: error: ")
    assert "Traceback" not in err
    return err


@pytest.fixture
def scores(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("y,p\n0,0.1\n1,0.9\n0,0.4\n1,0.3\n")
    return path


@pytest.fixture
def ranking(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n=cmd 0 d3 1\n\x1b]0;pwned\x07q 0 d4 1\n")
    run_file = tmp_path / "run.txt"
    run_file.write_text(
        "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4 t\n=cmd Q0 d3 1 0.3 t\n\x1b]0;pwned\x07q Q0 d4 1 0.2 t\n"
    )
    return qrels, run_file


def test_the_same_column_twice_is_read_once(capsys, scores):
    code, out, err = cli(
        capsys, "classify", scores, "--true", "y", "--score", "y", "--format", "json"
    )
    assert code == 0, err
    assert json.loads(out)["roc_auc"]["value"] == 1.0


def test_column_names_are_not_markup(capsys, tmp_path):
    path = tmp_path / "markup.csv"
    path.write_text("label[true],[/]p\n0,0.1\n1,0.9\n0,0.4\n1,0.3\n")
    code, out, err = cli(capsys, "classify", path, "--true", "label[true]", "--score", "[/]p")
    assert code == 0, err
    assert "label[true]" in out
    assert "[/]p" in out


def test_escape_sequences_from_data_never_reach_the_terminal(capsys, ranking, tmp_path):
    qrels, run_file = ranking
    for fmt in ("table", "markdown", "csv", "latex"):
        code, out, err = cli(capsys, "rank", qrels, run_file, "-q", "-m", "P.1", "--format", fmt)
        assert code == 0, err
        assert "\x1b" not in out
        assert "\x07" not in out
        assert "x1b]0;pwned" in out
    path = tmp_path / "ansi.csv"
    path.write_text("\x1b[31my,p\n0,0.1\n1,0.9\n")
    err = one_error(*cli(capsys, "classify", path, "--true", "y", "--score", "p"))
    assert "\x1b" not in err
    assert "\\x1b[31my" in err


def test_spreadsheet_formulas_from_data_are_neutralised(capsys, ranking):
    qrels, run_file = ranking
    code, out, err = cli(capsys, "rank", qrels, run_file, "-q", "-m", "P.1", "--format", "csv")
    assert code == 0, err
    assert "'=cmd" in out.splitlines()[1:][0] or any(
        line.split(",")[1] == "'=cmd" for line in out.splitlines()
    )
    assert not any(line.split(",")[1].startswith("=") for line in out.splitlines())
    code, out, _ = cli(capsys, "rank", qrels, run_file, "-q", "-m", "P.1", "--format", "markdown")
    assert "| '=cmd |" in out


def test_negative_numbers_are_not_touched():
    from scorekit.cli._format import to_csv, to_markdown

    assert to_csv(["m", "v"], [["-x", -0.5]]) == "m,v\n'-x,-0.5\n"
    assert "| -0.5000 |" in to_markdown(["m", "v"], [["a", -0.5]])


def test_ctrl_c_while_starting_is_one_line(capsys, monkeypatch):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(_commands, "build_parser", interrupted)
    code = entry.main(["classify", "x.csv"])
    _out, err = capsys.readouterr()
    assert code == 130
    assert err == "scorekit: error: interrupted\n"


def test_text_that_is_not_utf8_names_the_file_and_line(capsys, tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes(b"y,p\na,0.1\n\xff\xfe,0.9\n")
    err = one_error(
        *cli(capsys, "classify", path, "--true", "y", "--score", "p", "--pos-label", "a")
    )
    assert f"{path}:3: column 'y' is not UTF-8" in err


def test_a_field_of_three_megabytes_is_read(capsys, tmp_path):
    path = tmp_path / "big.csv"
    path.write_text("y,p,note\n0,0.1," + "x" * 3_000_000 + "\n1,0.9,z\n")
    code, out, err = cli(
        capsys, "classify", path, "--true", "y", "--score", "p", "--format", "json"
    )
    assert code == 0, err
    assert json.loads(out)["roc_auc"]["value"] == 1.0


def test_a_header_only_file_says_it_has_no_rows(capsys, tmp_path):
    path = tmp_path / "header.csv"
    path.write_text("y,p\n")
    err = one_error(*cli(capsys, "classify", path, "--true", "y", "--score", "p"))
    assert "has no data rows" in err


@pytest.mark.parametrize(
    ("args", "flag", "library"),
    [
        (["--threshold", "nan"], "--threshold nan must be a finite number", "threshold"),
        (["--bootstrap", str(10**12)], "--bootstrap 1000000000000 is outside", "n_resamples"),
        (["--bootstrap", "10", "--seed", "-1"], "--seed -1 must be", "seed="),
    ],
)
def test_classify_errors_name_the_flags(capsys, scores, args, flag, library):
    err = one_error(*cli(capsys, "classify", scores, "--true", "y", "--score", "p", *args))
    assert flag in err
    assert library not in err.replace(flag, "")


def test_absent_pos_label_is_one_line_naming_the_flag(capsys, tmp_path):
    path = tmp_path / "strings.csv"
    path.write_text("y,p\nspam,0.1\nham,0.9\nspam,0.3\n")
    err = one_error(*cli(capsys, "classify", path, "--true", "y", "--score", "p"))
    assert "--pos-label" in err
    assert "pos_label" not in err
    assert "labels=" not in err


def test_rank_errors_name_the_flags(capsys, ranking):
    qrels, run_file = ranking
    err = one_error(*cli(capsys, "rank", qrels, run_file, "-M", "-1"))
    assert "-M must be" in err
    assert "max_docs" not in err
    err = one_error(*cli(capsys, "compare", qrels, run_file, run_file, "--resamples", "0"))
    assert "--resamples 0 is outside" in err
