"""The diversity measures (ndeval) through the stream accumulator and Dask.

Random subtopic qrels and runs (the generator of the pyndeval differential
test: graded and negative grades, queries only in the run or only in the
qrels, unjudged documents, heavy ties), evaluated one-shot with
:func:`scorekit.evaluate` and through ``stream.RankingAccumulator`` (random
chunkings, merges, a ``to_dict`` round trip) and ``scorekit.dask.evaluate``
(queries spread over partitions): every per-query value and every summary
is the same float. The one-shot values are checked against pyndeval in
test_diversity_pyndeval.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from diversity_cases import random_case

import scorekit as sk
from scorekit.ranking import Run, SubtopicQrels
from scorekit.stream import RankingAccumulator

DIVERSITY = ["alpha_nDCG@20", "ERR_IA@5", "nERR_IA(alpha=0.3)@10", "NRBP", "P_IA@3", "AP_IA"]
MIXED = ["AP", *DIVERSITY[:3], "nDCG@10", "StRecall@5", "num_rel_ret"]


def one_shot(qrels, run, measures, **options):
    sq = SubtopicQrels.from_arrays(*zip(*qrels, strict=True))
    return sk.evaluate(sq, Run.from_arrays(*zip(*run, strict=True)), measures, **options)


def same(got, expected):
    assert got.keys == expected.keys
    assert got.query_ids == expected.query_ids
    assert got.per_query == expected.per_query
    assert got.mean() == expected.mean()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("measures", [DIVERSITY, MIXED])
def test_stream_equals_evaluate(seed, measures):
    qrels, run = random_case(seed)
    expected = one_shot(qrels, run, measures, ties="docid_asc")
    sub: dict = {}
    for q, s, d, g in qrels:
        sub.setdefault(q, {}).setdefault(s, {})[d] = g
    rng = np.random.default_rng(seed)
    rows = [run[i] for i in rng.permutation(len(run))]
    accs = [RankingAccumulator(sub, measures, ties="docid_asc") for _ in range(2)]
    lo = 0
    while lo < len(rows):
        hi = lo + int(rng.integers(1, 40))
        q, d, s = zip(*rows[lo:hi], strict=True)
        accs[int(rng.integers(0, 2))].update(list(q), list(d), list(s))
        lo = hi
    acc = accs[0].merge(accs[1])
    same(acc.evaluate(), expected)
    back = RankingAccumulator.from_dict(acc.to_dict())
    assert isinstance(back.qrels, SubtopicQrels)
    same(back.evaluate(), expected)


def test_stream_accepts_a_subtopic_qrels_object():
    qrels, run = random_case(5)
    sq = SubtopicQrels.from_arrays(*zip(*qrels, strict=True))
    acc = RankingAccumulator(sq, DIVERSITY, all_queries=True)
    q, d, s = zip(*run, strict=True)
    acc.update(list(q), list(d), list(s))
    same(acc.evaluate(), one_shot(qrels, run, DIVERSITY, all_queries=True))


@pytest.mark.dask
@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (0, {}),
        (1, {"all_queries": True}),
        (2, {"rel_level": 2, "ties": "docid_asc"}),
        (3, {"max_docs": 7, "per_query": True}),
        (4, {"ties": "input_order"}),
    ],
)
@pytest.mark.parametrize("measures", [DIVERSITY, MIXED])
def test_dask_equals_evaluate(seed, options, measures):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    import dask
    from scorekit.dask import evaluate as dask_evaluate

    qrels, run = random_case(seed)
    qf = pd.DataFrame(qrels, columns=["query", "subtopic", "doc", "relevance"])
    rf = pd.DataFrame(run, columns=["query", "doc", "score"])
    expected = one_shot(qrels, run, measures, **options)
    with dask.config.set(scheduler="sync"):
        got = dask_evaluate(
            dd.from_pandas(qf, npartitions=3),
            dd.from_pandas(rf, npartitions=4),
            measures,
            subtopic="subtopic",
            npartitions=5,
            **options,
        )
    same(got, expected)
    assert got.to_trec_eval() == expected.to_trec_eval()


@pytest.mark.dask
def test_dask_diversity_needs_the_subtopic_column():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from scorekit.dask import evaluate as dask_evaluate

    qf = dd.from_pandas(
        pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [1]}), npartitions=1
    )
    rf = dd.from_pandas(pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]}), npartitions=1)
    with pytest.raises(sk.ParameterError, match="need subtopic qrels"):
        dask_evaluate(qf, rf, ["alpha_nDCG@5"]).mean()
    with pytest.raises(sk.ParameterError, match="no column 'subtopic'"):
        dask_evaluate(qf, rf, ["alpha_nDCG@5"], subtopic="subtopic")
