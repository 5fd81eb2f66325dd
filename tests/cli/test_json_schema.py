"""The stable JSON shape of metric tables (docs/cli-json.md), with and without --bootstrap."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

from scorekit.cli._commands import run

KEYS = {"value", "ci_low", "ci_high", "ci_level", "resamples", "unit", "note"}


def _json(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert run(argv) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1), 2)
    path = tmp_path_factory.mktemp("json") / "d.csv"
    rows = "\n".join(f"{a},{b},{b + 0.1 * a},{int(b >= 0.5)}" for a, b in zip(y, p, strict=True))
    path.write_text("y,p,t,h\n" + rows + "\n")
    return str(path)


def _check(obj, with_ci):
    assert obj
    for name, entry in obj.items():
        assert isinstance(entry, dict), name
        assert set(entry) <= KEYS
        assert "value" in entry
        assert entry["value"] is None or isinstance(entry["value"], float)
        if with_ci and "note" not in entry:
            assert {"ci_low", "ci_high", "ci_level", "resamples", "unit"} <= set(entry)
            assert entry["ci_level"] == 0.95
            assert entry["resamples"] == 50
            assert entry["unit"] == "rows"
        if not with_ci:
            assert set(entry) == {"value"}


@pytest.mark.parametrize("command", [
    ["classify", "--true", "y", "--score", "p"],
    ["classify", "--true", "y", "--pred", "h"],
    ["regress", "--true", "t", "--pred", "p"],
])  # fmt: skip
def test_shape_is_the_same_with_and_without_intervals(table, command):
    argv = [command[0], table, *command[1:], "--format", "json", "-Q"]
    plain = _json(argv)
    boot = _json([*argv, "--bootstrap", "50"])
    _check(plain, with_ci=False)
    _check(boot, with_ci=True)
    assert set(plain) == set(boot)
    assert all(plain[k]["value"] == boot[k]["value"] for k in plain)


def test_order_statistics_get_a_note_not_an_interval(table):
    got = _json(
        [
            "regress",
            table,
            "--true",
            "t",
            "--pred",
            "p",
            "--bootstrap",
            "50",
            "--format",
            "json",
            "-Q",
        ]
    )
    assert "ci_low" not in got["max_error"]
    assert "order statistic" in got["max_error"]["note"]


def test_json_flat_is_values_only(table):
    flat = _json(["classify", table, "--true", "y", "--score", "p", "--format", "json-flat", "-Q"])
    nested = _json(["classify", table, "--true", "y", "--score", "p", "--format", "json", "-Q"])
    assert flat == {k: v["value"] for k, v in nested.items()}
