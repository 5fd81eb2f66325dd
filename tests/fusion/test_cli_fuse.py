"""``scorekit fuse``: writes the run fuse() returns; the fused run flows into rank, compare, report."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import scorekit as sk


def run_cli(*args):
    env = {**os.environ, "SCOREKIT_PROGRESS_DELAY": "60"}
    env.pop("SCOREKIT_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "scorekit.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def one_line_error(proc, *fragments):
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for f in fragments:
        assert f in lines[0], lines[0]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuse")
    rng = np.random.default_rng(5)
    qrels = {f"q{q}": {f"d{i}": int(rng.integers(0, 3)) for i in range(15)} for q in range(12)}
    sk.Qrels.from_dict(qrels).to_trec(d / "qrels.txt")
    paths = []
    for name in ("a", "b"):
        run = {
            f"q{q}": {f"d{i}": float(rng.random()) for i in rng.choice(15, 10, replace=False)}
            for q in range(12)
        }
        sk.Run.from_dict(run, tag=name).to_trec(d / f"{name}.run")
        paths.append(d / f"{name}.run")
    return d, paths


def test_fuse_writes_what_fuse_returns(files):
    d, paths = files
    out = d / "fused.run"
    proc = run_cli("fuse", *paths, "--method", "CombMNZ", "--norm", "min-max", "-o", out)
    assert proc.returncode == 0, proc.stderr
    expected = sk.fuse([sk.Run.from_trec(p) for p in paths], method="mnz", norm="min-max")
    assert sk.Run.from_trec(out).to_dict() == expected.to_dict()
    proc = run_cli("fuse", *paths, "--method", "rrf", "--param", "k=10")
    assert proc.returncode == 0, proc.stderr
    (d / "stdout.run").write_text(proc.stdout)
    expected = sk.fuse([sk.Run.from_trec(p) for p in paths], method="rrf", k=10)
    assert sk.Run.from_trec(d / "stdout.run").to_dict() == expected.to_dict()


def test_fused_run_in_rank_compare_and_report(files):
    d, paths = files
    fused = d / "rrf.run"
    assert run_cli("fuse", *paths, "--method", "rrf", "-o", fused).returncode == 0
    proc = run_cli("rank", d / "qrels.txt", fused, "-m", "ndcg_cut.10")
    assert proc.returncode == 0, proc.stderr
    assert "ndcg_cut_10" in proc.stdout
    report = d / "r.html"
    proc = run_cli("compare", d / "qrels.txt", *paths, fused, "-m", "map", "--report", report)
    assert proc.returncode == 0, proc.stderr
    assert "rrf" in proc.stdout
    assert "rrf" in report.read_text()


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--method", "rff"], ["--method", "did you mean 'rrf'"]),
        (["--norm", "minmaxx"], ["--norm"]),
        (["--method", "wsum", "--weights", "1"], ["--weights", "1 weights for 2 runs"]),
        (["--method", "wsum", "--weights", "1", "x"], ["--weights", "'x' is not a number"]),
        (["--param", "k"], ["--param", "KEY=VALUE"]),
        (["--param", "k=-3"], ["--param", "k=-3"]),
        (["--method", "rrf", "--param", "phi=0.3"], ["--param", "no parameter 'phi'"]),
        (["--method", "probfuse"], ["--qrels"]),
    ],
)
def test_fuse_errors_name_the_flag(files, args, fragments):
    _, paths = files
    one_line_error(run_cli("fuse", *paths, *args), *fragments)


def test_fuse_needs_two_runs(files):
    _, paths = files
    one_line_error(run_cli("fuse", paths[0]), "RUN", "at least 2")


def test_fuse_refuses_a_duplicate_document(tmp_path, files):
    _, paths = files
    dup = tmp_path / "dup.run"
    dup.write_text("q1 Q0 d1 1 2.0 t\nq1 Q0 d1 2 1.0 t\n")
    one_line_error(run_cli("fuse", dup, paths[0]), "dup.run:2", "more than once")
