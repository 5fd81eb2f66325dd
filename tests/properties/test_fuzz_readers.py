"""Fuzzing the file readers and the command line (issue 12).

Clean CSV, JSON-lines and Parquet files are written from random rows, then
changed: a BOM, CRLF line ends (meaning kept: the result must equal the clean
file's), or random bytes, truncation, huge numbers and Latin-1 bytes in a
label (meaning lost: the reader returns something or raises a
ScorekitError, never another exception). The command, run in-process,
exits 0 or 2 (130 only on Ctrl-C), prints no traceback, and an error is one line.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from contextlib import redirect_stderr, redirect_stdout, suppress

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekit import ScorekitError
from scorekit.stream import read_chunks

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("rich")

from scorekit.cli._commands import run  # noqa: E402 - needs the cli extra
from scorekit.cli._io import read_frame  # noqa: E402

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ROWS = st.lists(
    st.tuples(st.sampled_from(["a", "b"]), st.floats(0, 1, allow_nan=False)),
    min_size=2,
    max_size=12,
)


def _csv(rows) -> bytes:
    return ("y,p\n" + "".join(f"{y},{p!r}\n" for y, p in rows)).encode()


def _jsonl(rows) -> bytes:
    return "".join(json.dumps({"y": y, "p": p}) + "\n" for y, p in rows).encode()


def _parquet(rows) -> bytes:
    buf = io.BytesIO()
    table = pa.table({"y": [y for y, _ in rows], "p": [p for _, p in rows]})
    pq.write_table(table, buf)
    return buf.getvalue()


WRITERS = {"csv": _csv, "jsonl": _jsonl, "parquet": _parquet}


def _write(directory: str, fmt: str, data: bytes) -> str:
    path = os.path.join(directory, f"data.{fmt}")
    with open(path, "wb") as f:
        f.write(data)
    return path


def _read_all(path: str, fmt: str) -> tuple[list[object], list[float], list[object], list[float]]:
    """The two columns through the command's reader and through stream.read_chunks."""
    frame = read_frame(path, fmt, ["y", "p"])
    labels, numbers = frame.labels("y", "--true"), frame.numbers("p", "--score")
    chunks = list(read_chunks(path, ["y", "p"], chunk_rows=3))
    y = [v for c in chunks for v in np.asarray(c[0]).tolist()]
    p = [float(v) for c in chunks for v in np.asarray(c[1], dtype=float).tolist()]
    return labels.tolist(), numbers.tolist(), y, p


def _cli(path: str, *extra: str) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = run(["classify", path, "--true", "y", "--score", "p", "--pos-label", "b", *extra])
    return code, err.getvalue()


def _check_cli(path: str) -> None:
    for extra in (("--format", "csv"), ("--threshold", "0.5", "--format", "markdown")):
        code, err = _cli(path, *extra)
        assert code in (0, 2), err
        assert "Traceback" not in err
        if code == 2:
            errors = [line for line in err.splitlines() if line.startswith("scorekit: error:")]
            assert len(errors) == 1, err


@FUZZ
@given(rows=ROWS, fmt=st.sampled_from(["csv", "jsonl"]), bom=st.booleans(), crlf=st.booleans())
def test_bom_and_crlf_change_nothing(rows, fmt, bom, crlf):
    clean = WRITERS[fmt](rows)
    changed = clean.replace(b"\n", b"\r\n") if crlf else clean
    changed = b"\xef\xbb\xbf" + changed if bom else changed
    with tempfile.TemporaryDirectory() as d:
        want = _read_all(_write(d, fmt, clean), fmt)
    with tempfile.TemporaryDirectory() as d:
        path = _write(d, fmt, changed)
        assert _read_all(path, fmt) == want
        _check_cli(path)


def _damage(data: bytes, how: str, where: int, junk: bytes) -> bytes:
    cut = where % (len(data) + 1)
    if how == "bytes":
        return data[:cut] + junk + data[cut:]
    if how == "truncate":
        return data[:cut]
    if how == "huge":
        return data.replace(b"0.", b"1e400", 1).replace(b"1.0", b"9" * 400, 1)
    if how == "latin1":
        return data.replace(b"a", "\u00e9".encode("latin-1"), 1)
    return bytes(b ^ 0xFF if i == cut else b for i, b in enumerate(data))  # flip one byte


@FUZZ
@given(
    rows=ROWS,
    fmt=st.sampled_from(["csv", "jsonl", "parquet"]),
    how=st.sampled_from(["bytes", "truncate", "huge", "latin1", "flip"]),
    where=st.integers(0, 10**6),
    junk=st.binary(min_size=1, max_size=12),
)
def test_damaged_files_give_a_result_or_a_scorekit_error(rows, fmt, how, where, junk):
    data = _damage(WRITERS[fmt](rows), how, where, junk)
    with tempfile.TemporaryDirectory() as d:
        path = _write(d, fmt, data)
        with suppress(ScorekitError):
            _read_all(path, fmt)
        _check_cli(path)


@FUZZ
@given(data=st.binary(max_size=200), fmt=st.sampled_from(["csv", "jsonl", "parquet", "tsv"]))
def test_random_bytes(data, fmt):
    with tempfile.TemporaryDirectory() as d:
        path = _write(d, fmt, data)
        with suppress(ScorekitError):
            read_frame(path, fmt, ["y", "p"])
        with suppress(ScorekitError):
            list(read_chunks(path, ["y", "p"]))
        _check_cli(path)


@FUZZ
@given(
    argv=st.lists(
        st.sampled_from(
            [
                "--true",
                "--score",
                "--pred",
                "y",
                "p",
                "--pos-label",
                "b",
                "--threshold",
                "nan",
                "-1",
                "1e999",
                "--bootstrap",
                "10",
                "--seed",
                "--format",
                "json",
                "csv",
                "-m",
                "roc_auc",
                "all",
                "[/]",
                "\x1b[2J",
                "--report",
                "/nonexistent/r.html",
                "-Q",
            ]
        ),
        max_size=10,
    )
)
def test_random_flags_exit_0_or_2_with_one_line(argv):
    with tempfile.TemporaryDirectory() as d:
        path = _write(d, "csv", _csv([("a", 0.2), ("b", 0.7), ("a", 0.4), ("b", 0.1)]))
        err = io.StringIO()
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = run(["classify", path, *argv])
    assert code in (0, 2), err.getvalue()
    assert "Traceback" not in err.getvalue()
    assert "\x1b" not in err.getvalue() + out.getvalue()
    if code == 2:
        assert len(err.getvalue().splitlines()) == 1, err.getvalue()
