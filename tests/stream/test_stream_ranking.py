"""RankingAccumulator: a run fed in chunks (queries cut anywhere) equals scorekit.evaluate."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import feed, json_roundtrip, pickle_roundtrip

import scorekit as sk
from scorekit._errors import (
    DuplicateDocumentError,
    EmptyInputError,
    LengthMismatchError,
    NonFiniteError,
    ParameterError,
    UnknownMeasureError,
)
from scorekit.stream import RankingAccumulator

SEEDS = st.integers(0, 2**32 - 1)
MEASURES = ["map", "P.5,10", "ndcg_cut.10", "recip_rank", "num_ret", "gm_map", "micro_set_P"]


def _collection(rng, n_queries=12, n_docs=40):
    qrels = {}
    for q in range(n_queries):
        docs = rng.choice(n_docs, size=int(rng.integers(1, 15)), replace=False)
        qrels[f"q{q}"] = {f"d{d}": int(rng.integers(0, 3)) for d in docs}
    rows = [
        (f"q{q}", f"d{d}", float(np.round(rng.random(), 1)))  # ties broken by doc id
        for q in range(n_queries + 2)  # two queries without judgments
        for d in rng.choice(n_docs, size=int(rng.integers(1, 25)), replace=False)
    ]
    order = rng.permutation(len(rows))  # queries interleaved: every chunk cuts queries
    query, doc, score = (np.array([rows[i][k] for i in order]) for k in range(3))
    return qrels, query, doc, score.astype(float)


def _text(result):
    return result.to_trec_eval(per_query=True)


@given(seed=SEEDS, all_queries=st.booleans())
def test_chunked_equals_one_shot(seed, all_queries):
    rng = np.random.default_rng(seed)
    qrels, query, doc, score = _collection(rng)
    opts = {"all_queries": all_queries}
    acc = feed(lambda: RankingAccumulator(qrels, MEASURES, **opts), (query, doc, score), rng)
    expected = sk.evaluate(
        sk.Qrels.from_dict(qrels), sk.Run.from_arrays(query, doc, score), MEASURES, **opts
    )
    got = acc.evaluate()
    assert got.mean() == expected.mean()
    assert got.per_query == expected.per_query
    assert _text(got) == _text(expected)
    assert acc.n_rows == query.size


@given(seed=SEEDS)
def test_round_trips_change_nothing(seed):
    rng = np.random.default_rng(seed)
    qrels, query, doc, score = _collection(rng, 5)
    acc = feed(
        lambda: RankingAccumulator(qrels, ["map", "ndcg"], max_docs=7), (query, doc, score), rng
    )
    for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
        assert _text(back.evaluate()) == _text(acc.evaluate())


def test_worked_example():
    # Relevant a and c at ranks 1 and 3, z never retrieved: AP = (1/1 + 2/3) / 3 = 5/9;
    # the row of b (rank 2) comes in a later chunk than c.
    acc = RankingAccumulator(sk.Qrels.from_dict({"q": {"a": 1, "c": 1, "z": 1}}), ["AP", "P@2"])
    acc.update(["q", "q"], ["a", "c"], [0.9, 0.7]).update(["q"], ["b"], [0.8])
    assert acc.evaluate().mean()["AP"] == pytest.approx(5 / 9, abs=1e-15)
    assert acc.evaluate().mean()["P@2"] == 0.5


def test_integer_ids():
    acc = RankingAccumulator({1: {10: 1}}, "P@1").update([1], [10], [0.5])
    assert acc.evaluate().mean() == {"P@1": 1.0}


def test_inputs_not_kept_by_reference():
    score = np.array([0.9, 0.1])
    acc = RankingAccumulator({"q": {"a": 1}}, "RR").update(["q", "q"], ["a", "b"], score)
    score[:] = [0.0, 1.0]
    assert acc.evaluate().mean() == {"RR": 1.0}


def test_empty_raises():
    with pytest.raises(EmptyInputError, match="no rows"):
        RankingAccumulator({"q": {"a": 1}}, "map").evaluate()


def test_unknown_measure_raises_at_construction():
    with pytest.raises(UnknownMeasureError):
        RankingAccumulator({"q": {"a": 1}}, ["nDCG@10", "mapp"])


def test_bad_qrels_raises():
    with pytest.raises(ParameterError, match="qrels"):
        RankingAccumulator([("q", "a", 1)], "map")


def test_length_mismatch_raises():
    with pytest.raises(LengthMismatchError, match="score"):
        RankingAccumulator({"q": {"a": 1}}, "map").update(["q"], ["a"], [0.1, 0.2])


def test_nan_score_raises():
    with pytest.raises(NonFiniteError, match="score"):
        RankingAccumulator({"q": {"a": 1}}, "map").update(["q"], ["a"], [np.nan])


def test_document_twice_across_chunks_raises():
    acc = RankingAccumulator({"q": {"a": 1}}, "map").update(["q"], ["a"], [0.1])
    acc.update(["q"], ["a"], [0.2])
    with pytest.raises(DuplicateDocumentError):
        acc.evaluate()


def test_merge_other_measures_raises():
    a = RankingAccumulator({"q": {"a": 1}}, "map")
    with pytest.raises(ParameterError, match="measures"):
        a.merge(RankingAccumulator({"q": {"a": 1}}, "P@5"))


def test_merge_other_qrels_raises():
    a = RankingAccumulator({"q": {"a": 1}}, "map")
    with pytest.raises(ParameterError, match="qrels"):
        a.merge(RankingAccumulator({"q": {"b": 1}}, "map"))
