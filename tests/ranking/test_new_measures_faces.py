"""ERR, RBP, Judged and the ir_measures/ranx names through every face: evaluate, compare,
the stream accumulator, Dask and the CLI (per-query output)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorekit as sk
from scorekit.cli._commands import run as cli
from scorekit.stream import RankingAccumulator

MEASURES = ["ERR@20", "RBP(p=0.5)", "Judged@5", "nDCG(judged_only=True)@10", "P(rel=2)@5"]


def case(seed=0):
    rng = np.random.default_rng(seed)
    qrels, rows = {}, []
    for q in range(12):
        docs = [f"d{i}" for i in range(30)]
        qrels[str(q)] = {d: int(rng.integers(-1, 4)) for d in docs if rng.random() < 0.5}
        rows += [(str(q), d, float(rng.integers(0, 9))) for d in docs if rng.random() < 0.7]
    q, d, s = (list(x) for x in zip(*rows, strict=True))
    return qrels, q, d, s


def test_stream_equals_evaluate():
    qrels, q, d, s = case()
    expected = sk.evaluate(sk.Qrels.from_dict(qrels), sk.Run.from_arrays(q, d, s), MEASURES)
    acc = RankingAccumulator(sk.Qrels.from_dict(qrels), MEASURES)
    for lo in range(0, len(q), 37):
        acc.update(q[lo : lo + 37], d[lo : lo + 37], s[lo : lo + 37])
    assert acc.evaluate().per_query == expected.per_query


@pytest.mark.dask
def test_dask_equals_evaluate():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from scorekit.dask import evaluate as dask_evaluate

    qrels, q, d, s = case(1)
    qrels_pdf = pd.DataFrame(
        [(qq, dd_, g) for qq, docs in qrels.items() for dd_, g in docs.items()],
        columns=["query", "doc", "relevance"],
    )
    run_pdf = pd.DataFrame({"query": q, "doc": d, "score": s})
    got = dask_evaluate(
        dd.from_pandas(qrels_pdf, npartitions=2), dd.from_pandas(run_pdf, npartitions=3), MEASURES
    )
    expected = sk.evaluate(sk.Qrels.from_frame(qrels_pdf), sk.Run.from_frame(run_pdf), MEASURES)
    assert got.per_query == expected.per_query


def test_compare_runs_new_measures():
    qrels, q, d, s = case(2)
    other = sk.Run.from_arrays(q, d, list(np.asarray(s)[::-1]))
    res = sk.compare(
        sk.Qrels.from_dict(qrels), {"a": sk.Run.from_arrays(q, d, s), "b": other}, ["ERR@20"]
    )
    assert "ERR@20" in str(res.to_dict())


def test_cli_rank_per_query(tmp_path, capsys):
    qrels, q, d, s = case(3)
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text(
        "".join(f"{qq} 0 {x} {g}\n" for qq, docs in qrels.items() for x, g in docs.items())
    )
    rp.write_text("".join(f"{a} Q0 {b} 0 {c} tag\n" for a, b, c in zip(q, d, s, strict=True)))
    assert cli(["rank", str(qp), str(rp), "-m", "ERR@20", "-q", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = sk.evaluate(sk.Qrels.from_trec(qp), sk.Run.from_trec(rp), "ERR@20")
    text = json.dumps(got)
    assert f"{expected.mean()['ERR@20']}"[:6] in text
    assert cli(["rank", str(qp), str(rp), "-m", "ERR@20", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("ERR@20") for line in lines) == len(expected.query_ids) + 1


def test_a_querys_value_does_not_depend_on_the_other_queries():
    # regression: ERR's within-query running sums (of log(1 - R)) were one running sum
    # over every query minus the sum before the query, so a query's value picked up
    # rounding from the queries before it; now each query is summed on its own
    rng = np.random.default_rng(5)
    qrels, rows = {}, []
    for q in range(400):
        docs = [f"d{i}" for i in range(60)]
        qrels[f"q{q:03d}"] = {d: int(rng.integers(0, 5)) for d in docs if rng.random() < 0.8}
        rows += [(f"q{q:03d}", d, float(rng.random())) for d in docs]
    q, d, s = (list(x) for x in zip(*rows, strict=True))
    measures = ["ERR@20", "ERR", "nDCG@10"]
    whole = sk.evaluate(sk.Qrels.from_dict(qrels), sk.Run.from_arrays(q, d, s), measures)
    for name in ("q000", "q201", "q399"):
        keep = [i for i, x in enumerate(q) if x == name]
        alone = sk.evaluate(
            sk.Qrels.from_dict({name: qrels[name]}),
            sk.Run.from_arrays([q[i] for i in keep], [d[i] for i in keep], [s[i] for i in keep]),
            measures,
        )
        for m in measures:
            assert whole.per_query[m][name] == alone.per_query[m][name], (m, name)
