"""The conventions through scorekit.stream and scorekit.dask equal scorekit.evaluate."""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorekit as sk
from scorekit import EmptyInputError, ParameterError
from scorekit.stream import RankingAccumulator

MEASURES = ["map", "AP@3", "nDCG@3", "ndcg", "P@2", "RR", "hit_rate@3"]
OPTIONS = [
    {"ties": "input_order"},
    {"ties": "average", "max_docs": 4},
    {"ties": "pessimistic", "rel_level": 2},
    {"ap_denominator": "hits", "ndcg_ideal": "candidates", "gain": {-1: 0, 0: 0, 1: 1, 2: 5}},
    {"compat": "spark"},
    {"compat": "sklearn", "missing_queries": "zero"},
]


def rows(seed: int = 3):
    rng = np.random.default_rng(seed)
    qrels = {
        f"q{q}": {f"d{d}": int(rng.integers(-1, 3)) for d in rng.choice(30, 10, replace=False)}
        for q in range(12)
    }
    q = np.repeat([f"q{i}" for i in range(1, 14)], 8)  # q0 missing, q12-q13 unjudged
    d = np.concatenate([[f"d{x}" for x in rng.choice(30, 8, replace=False)] for _ in range(13)])
    s = rng.integers(0, 3, q.size) / 2  # many ties
    order = rng.permutation(q.size)
    return qrels, q[order], d[order], s[order]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_stream_accumulator_forwards_the_conventions(options):
    qrels, q, d, s = rows()
    acc = RankingAccumulator(qrels, MEASURES, **options)
    other = RankingAccumulator(qrels, MEASURES, **options)
    for lo in range(0, 42, 7):
        acc.update(q[lo : lo + 7], d[lo : lo + 7], s[lo : lo + 7])
    other.update(q[42:], d[42:], s[42:])
    acc.merge(other)
    again = RankingAccumulator.from_dict(json.loads(json.dumps(acc.to_dict())))
    expected = sk.evaluate(sk.Qrels.from_dict(qrels), sk.Run.from_arrays(q, d, s), MEASURES,
                           **options)  # fmt: skip
    assert acc.evaluate().per_query == expected.per_query
    assert again.evaluate().per_query == expected.per_query


def test_stream_accumulator_checks_options_at_once():
    with pytest.raises(ParameterError, match="ties='shuffle' is not one of"):
        RankingAccumulator({"q": {"a": 1}}, "map", ties="shuffle")


def test_stream_accumulator_rejects_unknown_options():
    with pytest.raises(ParameterError, match="unknown option\\(s\\) 'tie'"):
        RankingAccumulator({"q": {"a": 1}}, "map", tie="average")


# -------------------------------------------------------------------- dask
@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.mark.dask
def test_dask_evaluate_forwards_the_conventions(client):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from scorekit import dask as skd

    qrels, q, d, s = rows()
    qrels_pdf = pd.DataFrame(
        [(qid, doc, g) for qid, docs in qrels.items() for doc, g in docs.items()],
        columns=["query", "doc", "relevance"],
    )
    run_pdf = pd.DataFrame({"query": q, "doc": d, "score": s})  # index 0..n-1: row order kept
    qrels_dd = dd.from_pandas(qrels_pdf, npartitions=2)
    run_dd = dd.from_pandas(run_pdf, npartitions=5)
    for options in OPTIONS:
        got = skd.evaluate(qrels_dd, run_dd, MEASURES, npartitions=4, **options)
        expected = sk.evaluate(
            sk.Qrels.from_frame(qrels_pdf), sk.Run.from_frame(run_pdf), MEASURES, **options
        )
        assert got.per_query == expected.per_query, options
        assert got.mean() == expected.mean(), options
    with pytest.raises(EmptyInputError, match="'q0'"):
        skd.evaluate(qrels_dd, run_dd, "map", missing_queries="error", npartitions=4)
    with pytest.raises(ParameterError, match="no closed form for bpref"):
        skd.evaluate(qrels_dd, run_dd, "bpref", ties="average")


def test_dask_partition_rows_are_put_back_in_input_order():
    # a shuffle need not keep row order: the partition kernel sorts by the position column
    pd = pytest.importorskip("pandas")
    from scorekit.dask._ranking import _POS, _input_position, _state_of
    from scorekit.ranking._conventions import resolve_conventions
    from scorekit.ranking._evaluate import compute
    from scorekit.ranking._parse import parse_requests

    qrels, q, d, s = rows()
    run_part = _input_position(pd.DataFrame({"query": q, "doc": d, "score": s}))
    qrels_part = pd.DataFrame(
        [(qid, doc, g) for qid, docs in qrels.items() for doc, g in docs.items()],
        columns=["query", "doc", "relevance"],
    )
    conv = resolve_conventions(ties="input_order")
    scrambled = run_part.sample(frac=1, random_state=4)
    assert list(scrambled[_POS]) != sorted(scrambled[_POS])
    state = _state_of(
        scrambled, qrels_part, columns=("query", "doc", "score", "relevance"), tag="t",
        max_docs=None, judged_only=False, conventions=conv, rel_level=1,
    )  # fmt: skip
    assert state is not None
    got = compute(state, parse_requests(MEASURES), conventions=conv)
    expected = sk.evaluate(sk.Qrels.from_dict(qrels), sk.Run.from_arrays(q, d, s), MEASURES,
                           ties="input_order")  # fmt: skip
    assert got.per_query == expected.per_query
