"""The ``scorekit`` command, run for real in a subprocess (``python -m scorekit.cli``).

Each command is run on small files of every input format and its JSON output
is compared with the library's own values; every error case must exit 2 with
exactly one line on stderr and no traceback. Commands whose library functions
are not in this installation yet are skipped (never failed) by ``needs``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import scorekit

TIMEOUT = 120


def sk(*args: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None):
    """Run ``scorekit ARGS`` in a fresh interpreter."""
    full_env = {**os.environ, "SCOREKIT_PROGRESS_DELAY": "60", **(env or {})}
    full_env.pop("SCOREKIT_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "scorekit.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=full_env,
        cwd=cwd,
    )


def needs(*names: str) -> None:
    """Skip while a library function the command calls is not implemented yet."""
    for name in names:
        obj = scorekit
        for part in name.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            pytest.skip(f"scorekit.{name} is not implemented yet")


def ok_json(proc) -> dict:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def assert_one_line_error(proc, *fragments: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("scorekit: error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def write_table(path: Path, columns: dict[str, list]) -> Path:
    """Write columns as CSV, TSV, JSON lines or Parquet (by suffix), independently of scorekit."""
    names = list(columns)
    rows = list(zip(*columns.values(), strict=True))
    suffix = path.suffix
    if suffix in (".csv", ".tsv"):
        sep = "," if suffix == ".csv" else "\t"
        lines = [sep.join(names)] + [sep.join(str(v) for v in row) for row in rows]
        path.write_text("\n".join(lines) + "\n")
    elif suffix == ".jsonl":
        path.write_text(
            "".join(json.dumps(dict(zip(names, row, strict=True))) + "\n" for row in rows)
        )
    elif suffix == ".parquet":
        pa = pytest.importorskip("pyarrow")
        pq = pytest.importorskip("pyarrow.parquet")
        pq.write_table(pa.table({k: list(v) for k, v in columns.items()}), path)
    else:
        raise ValueError(suffix)
    return path


def close(got: dict, expected: dict) -> None:
    assert set(got) == set(expected)
    for name, value in expected.items():
        assert got[name]["value"] == pytest.approx(value, rel=1e-12, abs=1e-12), name


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, size=120)
    s = np.round(np.clip(0.3 * y + rng.uniform(0, 0.7, size=120), 0, 1), 3)  # ties on purpose
    return y, s


# ----------------------------------------------------------------------------- help


def test_help_lists_examples():
    proc = sk("--help")
    assert proc.returncode == 0
    assert "examples:" in proc.stdout
    for command in ("demo", "classify", "regress", "cluster", "rank", "compare", "gauc"):
        assert command in proc.stdout
    proc = sk("rank", "--help")
    assert proc.returncode == 0
    assert "-m MEASURE" in proc.stdout
    assert "examples:" in proc.stdout


@pytest.mark.parametrize("command", ["demo", "classify", "regress", "cluster", "compare", "gauc"])
def test_every_command_has_help(command, capsys):
    from scorekit.cli._commands import run

    assert run([command, "--help"]) == 0
    assert "examples:" in capsys.readouterr().out


# ----------------------------------------------------------------------------- classify


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".jsonl"])
def test_classify_scores_each_format(tmp_path, binary, suffix):
    needs("roc_auc", "average_precision", "ks_statistic", "log_loss", "brier_score", "f1")
    y, s = binary
    path = write_table(tmp_path / f"preds{suffix}", {"label": y.tolist(), "p": s.tolist()})
    got = ok_json(sk("classify", path, "--true", "label", "--score", "p", "--format", "json"))
    y_hat = (s >= 0.5).astype(int)
    expected = {
        "roc_auc": scorekit.roc_auc(y, s),
        "average_precision": scorekit.average_precision(y, s),
        "ks_statistic": scorekit.ks_statistic(y, s),
        "log_loss": scorekit.log_loss(y, s),
        "brier_score": scorekit.brier_score(y, s),
        "accuracy": scorekit.accuracy(y, y_hat),
        "precision": scorekit.precision(y, y_hat),
        "recall": scorekit.recall(y, y_hat),
        "f1": scorekit.f1(y, y_hat),
    }
    close(got, expected)


def test_classify_string_labels_pos_label_threshold_and_report(tmp_path, binary):
    needs("roc_auc", "average_precision", "ks_statistic", "f1", "roc_curve")
    needs("precision_recall_curve", "threshold_table", "confusion_matrix")
    y, s = binary
    names = np.where(y == 1, "spam", "ham")
    scores = s * 10 - 2  # not probabilities: no log loss
    path = write_table(tmp_path / "p.csv", {"label": names.tolist(), "score": scores.tolist()})
    report = tmp_path / "r.html"
    proc = sk(
        "classify",
        path,
        "--true",
        "label",
        "--score",
        "score",
        "--pos-label",
        "spam",
        "--threshold",
        "1.5",
        "--format",
        "json",
        "--report",
        report,
    )
    got = ok_json(proc)
    y_hat = (scores >= 1.5).astype(int)
    assert "log_loss" not in got
    assert got["roc_auc"]["value"] == pytest.approx(scorekit.roc_auc(y, scores), abs=1e-12)
    assert got["f1"]["value"] == pytest.approx(scorekit.f1(y, y_hat), abs=1e-12)
    page = report.read_text()
    assert page.count("<svg") >= 3
    assert "Threshold table" in page
    assert "report written to" in proc.stderr


def test_classify_predicted_labels_multiclass(tmp_path):
    needs("accuracy", "balanced_accuracy", "f1", "cohen_kappa", "matthews_corrcoef")
    rng = np.random.default_rng(3)
    y = rng.choice(["a", "b", "c"], size=90)
    p = np.where(rng.random(90) < 0.7, y, rng.choice(["a", "b", "c"], size=90))
    path = write_table(tmp_path / "m.jsonl", {"y": y.tolist(), "yhat": p.tolist()})
    got = ok_json(sk("classify", path, "--true", "y", "--pred", "yhat", "--format", "json"))
    close(
        got,
        {
            "accuracy": scorekit.accuracy(y, p),
            "balanced_accuracy": scorekit.balanced_accuracy(y, p),
            "precision_macro": scorekit.precision(y, p, average="macro"),
            "recall_macro": scorekit.recall(y, p, average="macro"),
            "f1_macro": scorekit.f1(y, p, average="macro"),
            "f1_weighted": scorekit.f1(y, p, average="weighted"),
            "cohen_kappa": scorekit.cohen_kappa(y, p),
            "matthews_corrcoef": scorekit.matthews_corrcoef(y, p),
        },
    )


def test_classify_bootstrap_intervals_match_the_library(tmp_path, binary):
    needs("roc_auc", "average_precision", "ks_statistic", "log_loss", "stats.bootstrap_ci")
    y, s = binary
    path = write_table(tmp_path / "b.parquet", {"y": y.tolist(), "s": s.tolist()})
    got = ok_json(
        sk(
            "classify",
            path,
            "--true",
            "y",
            "--score",
            "s",
            "--bootstrap",
            "200",
            "--seed",
            "5",
            "--format",
            "json",
            "--draws",
            "rows",  # row indices: the draws of bootstrap_ci
        )
    )
    auc = got["roc_auc"]
    low, high = scorekit.stats.bootstrap_ci(scorekit.roc_auc, y, s, n_resamples=200, seed=5)
    assert auc["value"] == pytest.approx(scorekit.roc_auc(y, s), abs=1e-12)
    assert (auc["ci_low"], auc["ci_high"]) == pytest.approx((low, high), abs=1e-12)
    for entry in got.values():
        assert entry["ci_low"] <= entry["value"] + 1e-12 <= entry["ci_high"] + 2e-12
    # the default (--draws auto: Poisson row weights here) is the library's section
    auto = ok_json(sk("classify", path, "--true", "y", "--score", "s", "--bootstrap", "200",
                      "--seed", "5", "--format", "json"))  # fmt: skip
    from scorekit.report import classification_section

    want = {m.name: m for m in classification_section(y, y_score=s, bootstrap=200, seed=5).metrics}
    for name, entry in auto.items():
        assert (entry["ci_low"], entry["ci_high"]) == pytest.approx(
            (want[name].ci_low, want[name].ci_high), abs=1e-12
        ), name


# ----------------------------------------------------------------------------- regress


def test_regress_json_and_report(tmp_path):
    needs("mae", "mse", "rmse", "r2", "explained_variance", "mape", "median_absolute_error")
    needs("max_error")
    rng = np.random.default_rng(11)
    t = rng.normal(50, 10, size=80)
    p = t + rng.normal(0, 3, size=80)
    path = write_table(tmp_path / "reg.tsv", {"y": t.tolist(), "pred": p.tolist()})
    report = tmp_path / "reg.html"
    got = ok_json(
        sk("regress", path, "--true", "y", "--pred", "pred", "--format", "json", "--report", report)
    )
    close(
        got,
        {
            name: getattr(scorekit, name)(t, p)
            for name in (
                "mae",
                "mse",
                "rmse",
                "r2",
                "explained_variance",
                "mape",
                "median_absolute_error",
                "max_error",
            )
        },
    )
    assert report.read_text().count("<svg") == 2


def test_regress_output_formats(tmp_path):
    needs("mae", "r2", "max_error")
    path = write_table(tmp_path / "r.csv", {"y": [1.0, 2.0, 3.0, 5.0], "p": [1.5, 2.0, 2.0, 5.0]})
    base = ("regress", path, "--true", "y", "--pred", "p", "--format")
    csv_out = sk(*base, "csv")
    assert csv_out.returncode == 0
    lines = csv_out.stdout.splitlines()
    assert lines[0] == "metric,value"
    assert "mae,0.375" in lines  # (0.5 + 0 + 1 + 0) / 4
    md = sk(*base, "markdown").stdout.splitlines()
    assert md[0] == "| metric | value |"
    assert md[1] == "|:--|--:|"
    assert "| mae | 0.3750 |" in md
    tex = sk(*base, "latex").stdout
    assert tex.startswith("\\begin{tabular}{lr}")
    assert "mae & 0.3750 \\\\" in tex
    assert "median\\_absolute\\_error" in tex
    table = sk(*base, "table")
    assert table.returncode == 0
    assert "mae" in table.stdout
    assert "0.3750" in table.stdout


# ----------------------------------------------------------------------------- cluster


def test_cluster_with_features_parquet(tmp_path):
    needs("adjusted_rand_index", "normalized_mutual_info", "silhouette_score")
    needs("calinski_harabasz", "davies_bouldin", "fowlkes_mallows", "contingency_matrix")
    rng = np.random.default_rng(5)
    t = np.repeat([0, 1, 2], 30)
    x = rng.normal(size=(90, 2)) + np.array([[0, 0], [4, 0], [0, 4]])[t]
    pred = np.where(rng.random(90) < 0.85, t, rng.integers(0, 3, size=90))
    path = write_table(
        tmp_path / "c.parquet",
        {
            "true": t.tolist(),
            "cluster": pred.tolist(),
            "x": x[:, 0].tolist(),
            "y": x[:, 1].tolist(),
        },
    )
    report = tmp_path / "c.html"
    got = ok_json(
        sk(
            "cluster",
            path,
            "--true",
            "true",
            "--pred",
            "cluster",
            "--features",
            "x",
            "y",
            "--format",
            "json",
            "--report",
            report,
        )
    )
    expected = {
        name: getattr(scorekit, name)(t, pred)
        for name in (
            "adjusted_rand_index",
            "rand_index",
            "adjusted_mutual_info",
            "normalized_mutual_info",
            "homogeneity",
            "completeness",
            "v_measure",
            "fowlkes_mallows",
        )
    }
    expected.update(
        {
            name: getattr(scorekit, name)(x, pred)
            for name in ("silhouette_score", "calinski_harabasz", "davies_bouldin")
        }
    )
    close(got, expected)
    assert report.read_text().count("<svg") == 2


# ----------------------------------------------------------------------------- gauc


def test_gauc_csv(tmp_path):
    needs("gauc", "roc_auc")
    rng = np.random.default_rng(9)
    g = rng.integers(0, 12, size=150)
    y = rng.integers(0, 2, size=150)
    s = np.round(0.2 * y + rng.random(150), 2)
    path = write_table(
        tmp_path / "g.csv", {"click": y.tolist(), "ctr": s.tolist(), "user": g.tolist()}
    )
    report = tmp_path / "g.html"
    got = ok_json(
        sk(
            "gauc",
            path,
            "--label",
            "click",
            "--score",
            "ctr",
            "--group",
            "user",
            "--weights",
            "clicks",
            "--format",
            "json",
            "--report",
            report,
        )
    )
    close(
        got, {"gauc": scorekit.gauc(y, s, g, weights="clicks"), "roc_auc": scorekit.roc_auc(y, s)}
    )
    assert "<svg" in report.read_text()


# ----------------------------------------------------------------------------- rank


TREC_CASES = [
    ("out.test", ["qrels.test", "results.test"]),
    ("out.test.a", ["-m", "all_trec", "qrels.test", "results.test"]),
    ("out.test.aq", ["-m", "all_trec", "-q", "qrels.test", "results.test"]),
    ("out.test.aqc", ["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"]),
    ("out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"]),
    (
        "out.test.aql",
        ["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"],
    ),
    (
        "out.test.meas_params",
        [
            "-q",
            "-miprec_at_recall..10,.20,.25,.75,.50",
            "-m",
            "P.5,7,3",
            "-m",
            "recall.20,2000",
            "-m",
            "Rprec_mult.5.0,0.2,0.35",
            "-mutility.2,-1,0,0",
            "-m",
            "11pt_avg..25,.5,.75",
            "-mndcg.1=3,2=9,4=4.5",
            "-mndcg_cut.10,20,23.4",
            "-msuccess.2,5,20",
            "qrels.test",
            "results.test",
        ],
    ),
]


@pytest.mark.parametrize(("expected", "args"), TREC_CASES, ids=[c[0] for c in TREC_CASES])
def test_rank_is_trec_eval_byte_for_byte(conformance_dir, expected, args):
    needs("evaluate", "Qrels", "Run")
    proc = sk("rank", *args, cwd=conformance_dir)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (conformance_dir / expected).read_text()


def _trec_lines(qrels: dict, run: dict) -> tuple[str, str]:
    q = "".join(
        f"{qid} 0 {doc} {rel}\n" for qid, docs in qrels.items() for doc, rel in docs.items()
    )
    r = "".join(
        f"{qid} Q0 {doc} {k} {score} sys\n"
        for qid, docs in run.items()
        for k, (doc, score) in enumerate(docs.items(), 1)
    )
    return q, r


@pytest.fixture(scope="module")
def small_collection():
    rng = np.random.default_rng(21)
    qrels, runs = {}, {"a": {}, "b": {}}
    for i in range(8):
        qid = f"q{i}"
        rel = rng.choice([0, 0, 0, 1, 2], size=15)
        rel[0] = max(rel[0], 1)
        qrels[qid] = {f"d{j}": int(rel[j]) for j in range(15)}
        for name, gain in (("a", 0.5), ("b", 1.5)):
            scores = np.round(gain * rel + rng.random(15), 3)
            runs[name][qid] = {f"d{j}": float(scores[j]) for j in range(15)}
    return qrels, runs


def test_rank_table_formats_agree_with_trec(tmp_path, small_collection):
    needs("evaluate", "Qrels", "Run")
    qrels, runs = small_collection
    q_text, r_text = _trec_lines(qrels, runs["a"])
    (tmp_path / "qrels.txt").write_text(q_text)
    (tmp_path / "run.txt").write_text(r_text)
    write_table(
        tmp_path / "qrels.csv",
        {
            "query": [q for q, d in qrels.items() for _ in d],
            "doc": [doc for d in qrels.values() for doc in d],
            "relevance": [v for d in qrels.values() for v in d.values()],
        },
    )
    write_table(
        tmp_path / "run.jsonl",
        {
            "qid": [q for q, d in runs["a"].items() for _ in d],
            "docid": [doc for d in runs["a"].values() for doc in d],
            "score": [v for d in runs["a"].values() for v in d.values()],
        },
    )
    measures = ["-m", "map", "-m", "ndcg_cut.10", "-m", "P.5"]
    from_trec = ok_json(
        sk("rank", tmp_path / "qrels.txt", tmp_path / "run.txt", *measures, "--format", "json")
    )
    from_tables = ok_json(
        sk("rank", tmp_path / "qrels.csv", tmp_path / "run.jsonl", *measures, "--format", "json")
    )
    assert from_trec == from_tables
    expected = scorekit.evaluate(
        scorekit.Qrels.from_trec(tmp_path / "qrels.txt"),
        scorekit.Run.from_trec(tmp_path / "run.txt"),
        ["map", "ndcg_cut.10", "P.5"],
    ).mean()
    close(from_trec, dict(expected))


def test_rank_per_query_json_bootstrap_and_report(tmp_path, small_collection):
    needs("evaluate", "Qrels", "Run", "stats.bootstrap_ci")
    qrels, runs = small_collection
    q_text, r_text = _trec_lines(qrels, runs["b"])
    (tmp_path / "q.txt").write_text(q_text)
    (tmp_path / "r.txt").write_text(r_text)
    got = ok_json(
        sk("rank", tmp_path / "q.txt", tmp_path / "r.txt", "-m", "map", "-q", "--format", "json")
    )
    assert set(got["per_query"]["map"]) == set(qrels)  # the summary apart: a query may be "all"
    assert set(got["mean"]) == {"map"}
    report = tmp_path / "rank.html"
    got = ok_json(
        sk(
            "rank",
            tmp_path / "q.txt",
            tmp_path / "r.txt",
            "-m",
            "map",
            "-m",
            "P_5",
            "--bootstrap",
            "300",
            "--format",
            "json",
            "--report",
            report,
        )
    )
    assert got["map"]["ci_low"] <= got["map"]["value"] <= got["map"]["ci_high"]
    assert "<svg" in report.read_text()


def test_compare_json_matches_library(tmp_path, small_collection):
    needs("evaluate", "Qrels", "Run", "compare")
    qrels, runs = small_collection
    for name in ("a", "b"):
        q_text, r_text = _trec_lines(qrels, runs[name])
        (tmp_path / f"{name}.run").write_text(r_text)
    (tmp_path / "qrels").write_text(q_text)
    report = tmp_path / "cmp.html"
    got = ok_json(
        sk(
            "compare",
            tmp_path / "qrels",
            tmp_path / "a.run",
            tmp_path / "b.run",
            "-m",
            "map",
            "-m",
            "P_5",
            "--test",
            "randomization",
            "--correction",
            "holm",
            "--format",
            "json",
            "--report",
            report,
        )
    )
    expected = scorekit.compare(
        scorekit.Qrels.from_trec(tmp_path / "qrels"),
        {
            "a": scorekit.Run.from_trec(tmp_path / "a.run"),
            "b": scorekit.Run.from_trec(tmp_path / "b.run"),
        },
        ["map", "P_5"],
        test="randomization",
        correction="holm",
    )
    rows = [r for rows in got.values() for r in rows]
    assert len(rows) == len(expected.rows) == 2
    for mine, ref in zip(rows, expected.rows, strict=True):
        assert (mine["system_a"], mine["system_b"]) == (ref.system_a, ref.system_b)
        assert mine["p_value"] == pytest.approx(ref.p_value, abs=1e-12)
        assert mine["p_adjusted"] == pytest.approx(ref.p_adjusted, abs=1e-12)
    page = report.read_text()
    assert "Significance tests" in page
    assert "<svg" in page


# ----------------------------------------------------------------------------- demo and progress


def test_demo_writes_report_and_prints_its_path(tmp_path):
    out = tmp_path / "demo.html"
    proc = sk("demo", "--out", out, "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().splitlines()[-1].endswith(str(out.resolve()))
    assert "scorekit demo: summary" in proc.stdout
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "scorekit demo report" in page
    assert proc.stderr == ""


def test_progress_goes_to_stderr_only_and_quiet_silences_it(tmp_path):
    needs("mae", "r2")
    path = write_table(tmp_path / "r.csv", {"y": [1.0, 2.0, 3.0], "p": [1.0, 2.5, 3.0]})
    env = {
        "SCOREKIT_PROGRESS_DELAY": "0",
        "FORCE_COLOR": "1",
        "TTY_COMPATIBLE": "1",
        "COLUMNS": "80",
    }
    base = ("regress", path, "--true", "y", "--pred", "p", "--format", "json")
    shown = sk(*base, env=env)
    assert shown.returncode == 0
    json.loads(shown.stdout)  # nothing but the result on stdout
    assert "reading" in shown.stderr or "scoring" in shown.stderr
    quiet = sk(*base, "--quiet", env=env)
    assert quiet.returncode == 0
    assert quiet.stderr == ""
    assert json.loads(quiet.stdout) == json.loads(shown.stdout)


# ----------------------------------------------------------------------------- errors


def test_error_missing_file(tmp_path):
    assert_one_line_error(
        sk("regress", tmp_path / "nope.csv", "--true", "a", "--pred", "b"), "nope.csv"
    )


def test_error_unknown_column_lists_columns(tmp_path):
    path = write_table(tmp_path / "d.csv", {"y": [1, 2], "p": [1, 2], "other": [0, 0]})
    line = assert_one_line_error(sk("regress", path, "--true", "y", "--pred", "nope"), "'nope'")
    assert "y, p, other" in line


def test_error_malformed_csv_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("y,p\n1,2\n3,4\n5\n6,7\n")
    assert_one_line_error(
        sk("regress", path, "--true", "y", "--pred", "p"), f"{path}:4", "expected 2 fields"
    )


def test_error_malformed_jsonl_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"y": 1, "p": 2}\n{"y": 2, "p": 3}\n{"y": 3, "p": \n')
    assert_one_line_error(sk("regress", path, "--true", "y", "--pred", "p"), f"{path}:3", "JSON")


def test_error_value_that_is_not_a_number(tmp_path):
    path = tmp_path / "text.tsv"
    path.write_text("y\tp\n1\t2\n3\tabc\n")
    assert_one_line_error(sk("regress", path, "--true", "y", "--pred", "p"), f"{path}:3", "'abc'")


def test_error_malformed_trec_line(tmp_path):
    needs("evaluate", "Qrels", "Run")
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 0.5 x\n")
    line = assert_one_line_error(
        sk("rank", tmp_path / "qrels", tmp_path / "run"), str(tmp_path / "qrels")
    )
    assert re.search(r"(:2\b|line 2\b)", line), line


def test_error_from_the_library(tmp_path):
    needs("roc_auc")
    path = write_table(tmp_path / "m.csv", {"y": ["a", "b", "c"], "s": [0.1, 0.5, 0.9]})
    assert_one_line_error(sk("classify", path, "--true", "y", "--score", "s"), "'y'", "3 classes")


def test_error_usage_is_one_line(tmp_path):
    assert_one_line_error(sk("regress", "x.csv", "--true", "y"), "--pred")
    assert_one_line_error(
        sk("regress", "x.csv", "--true", "y", "--pred", "p", "--format", "xml"), "xml"
    )


def test_error_unknown_extension_and_missing_report_folder(tmp_path):
    path = write_table(tmp_path / "d.csv", {"y": [1.0, 2.0], "p": [1.0, 2.0]})
    weird = tmp_path / "d.data"
    weird.write_text(path.read_text())
    assert_one_line_error(sk("regress", weird, "--true", "y", "--pred", "p"), "--input-format")
    assert_one_line_error(
        sk("regress", path, "--true", "y", "--pred", "p", "--report", tmp_path / "no" / "r.html"),
        "does not exist",
    )
