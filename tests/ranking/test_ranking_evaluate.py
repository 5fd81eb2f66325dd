"""evaluate(): options, the result object, merging states, and plain-Python references
for the measures pytrec_eval does not have (unj, rbp, rbp_resid, hit_rate, RR@k, exponential
nDCG, dcg)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scorekit import EmptyInputError, ParameterError, UnknownMeasureError
from scorekit.ranking import Qrels, RankingResult, Run, evaluate
from scorekit.ranking._evaluate import compute, ranked_state
from scorekit.ranking._parse import parse_requests
from scorekit.ranking._state import merge_states


def random_case(seed: int, n_q: int = 25):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_q):
        pool = [f"d{i}" for i in rng.choice(120, size=40, replace=False)]
        if q % 6 != 1:
            judged = rng.choice(pool, size=int(rng.integers(1, 30)), replace=False)
            qrels[f"q{q}"] = {
                str(d): int(g)
                for d, g in zip(judged, rng.integers(-1, 5, judged.size), strict=True)
            }
        if q % 9 != 4:
            docs = rng.choice(pool, size=int(rng.integers(1, 40)), replace=False)
            run[f"q{q}"] = {str(d): float(rng.integers(0, 6)) for d in docs}
    return qrels, run


def ranked_codes(qrels: dict, run: dict, qid: str) -> list[int]:
    """Plain-Python ranking: score desc, doc id desc; codes as trec_eval (-1 not judged, -2 < 0)."""
    docs = sorted(run[qid].items(), key=lambda kv: (kv[1], kv[0].encode()), reverse=True)
    judged = qrels[qid]
    return [(-1 if d not in judged else (-2 if judged[d] < 0 else judged[d])) for d, _ in docs]


CASE = random_case(0)
RESULT = evaluate(
    Qrels.from_dict(CASE[0]),
    Run.from_dict(CASE[1]),
    [
        "unj.3,10",
        "rbp",
        "rbp.p=0.5",
        "rbp_resid",
        "RR@3",
        "nDCG@5",
        "dcg",
        "ideal_dcg",
        "hit_rate@7",
    ],
)
EXPONENTIAL = evaluate(
    Qrels.from_dict(CASE[0]), Run.from_dict(CASE[1]), ["nDCG@5"], gain="exponential"
)
QUERIES = sorted(set(CASE[0]) & set(CASE[1]))


@pytest.mark.parametrize("qid", QUERIES)
def test_measures_outside_pytrec_eval_against_plain_python(qid):
    qrels, run = CASE
    codes = ranked_codes(qrels, run, qid)
    pq = RESULT.per_query
    top = max([g for g in qrels[qid].values() if g >= 0], default=-1)
    for k in (3, 10):
        assert pq[f"unj_{k}"][qid] == pytest.approx(sum(c < 0 for c in codes[:k]) / k)
    for p, key in ((0.9, "rbp"), (0.5, "rbp_p=0.5")):
        gain = [max(c, 0) / top if top > 1 else max(c, 0) for c in codes]  # grades scaled to [0, 1]
        assert pq[key][qid] == pytest.approx((1 - p) * sum(g * p**i for i, g in enumerate(gain)))
    unjudged = [i for i, c in enumerate(codes) if c < 0]
    resid = 0.9 ** len(codes) + 0.1 * sum(0.9**i for i in unjudged) if unjudged else 0.0
    assert pq["rbp_resid"][qid] == pytest.approx(resid)
    first = next((i + 1 for i, c in enumerate(codes) if c >= 1), None)
    assert pq["RR@3"][qid] == (1 / first if first and first <= 3 else 0.0)
    gains = sorted((g for g in qrels[qid].values() if g > 0), reverse=True)
    dcg = sum(max(c, 0) / math.log2(i + 2) for i, c in enumerate(codes))
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    assert pq["dcg"][qid] == pytest.approx(dcg, abs=1e-12)
    assert pq["ideal_dcg"][qid] == pytest.approx(idcg, abs=1e-12)
    dcg5 = sum((2 ** max(c, 0) - 1) / math.log2(i + 2) for i, c in enumerate(codes[:5]))
    idcg5 = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gains[:5]))
    expected = dcg5 / idcg5 if idcg5 else 0.0
    assert EXPONENTIAL.per_query["nDCG@5"][qid] == pytest.approx(expected, abs=1e-12)


def test_hit_rate_is_micro_recall():
    qrels, run = CASE
    found = relevant = 0
    for qid in QUERIES:
        codes = ranked_codes(qrels, run, qid)
        found += sum(c >= 1 for c in codes[:7])
        relevant += sum(g >= 1 for g in qrels[qid].values())
    assert RESULT.mean()["hit_rate@7"] == pytest.approx(found / relevant)


# ------------------------------------------------------------------ options
def test_max_docs_equals_a_truncated_run():
    qrels, run = CASE
    full = Run.from_dict(run)
    top = {q: dict(list(full.to_dict()[q].items())[:5]) for q in run}
    a = evaluate(Qrels.from_dict(qrels), full, "all_trec", max_docs=5).to_trec_eval(per_query=True)
    b = evaluate(Qrels.from_dict(qrels), Run.from_dict(top), "all_trec").to_trec_eval(
        per_query=True
    )
    assert a == b


def test_judged_only_equals_dropping_unjudged_documents():
    qrels, run = CASE
    # judged: graded >= 0 (a negative grade marks a pooled but unjudged document)
    judged = {
        q: {d: s for d, s in docs.items() if qrels.get(q, {}).get(d, -1) >= 0}
        for q, docs in run.items()
    }
    judged = {q: docs for q, docs in judged.items() if docs}
    a = evaluate(
        Qrels.from_dict(qrels), Run.from_dict(run), ["map", "P@5", "nDCG@10"], judged_only=True
    )
    b = evaluate(Qrels.from_dict(qrels), Run.from_dict(judged), ["map", "P@5", "nDCG@10"])
    for key in ("map", "P@5", "nDCG@10"):
        for qid, value in b.per_query[key].items():
            assert a.per_query[key][qid] == value


def test_all_queries_scores_missing_queries_as_zero():
    qrels, run = CASE
    Q, R = Qrels.from_dict(qrels), Run.from_dict(run)
    some = evaluate(Q, R, ["map", "gm_map", "num_q", "num_rel", "utility.1,-1,3,0"])
    everything = evaluate(
        Q, R, ["map", "gm_map", "num_q", "num_rel", "utility.1,-1,3,0"], all_queries=True
    )
    missing = sorted(set(qrels) - set(run))
    assert missing
    assert everything.mean()["num_q"] == len(qrels) == some.mean()["num_q"] + len(missing)
    for qid in missing:
        assert everything.per_query["map"][qid] == 0.0
        assert everything.per_query["utility_1,-1,3,0"][qid] == 0.0  # trec_eval zeroes it
        assert everything.per_query["num_rel"][qid] == sum(g >= 1 for g in qrels[qid].values())
    n = len(qrels)
    assert everything.mean()["map"] == pytest.approx(some.mean()["map"] * len(some.query_ids) / n)
    # gm_map: a missing query counts as AP 0, floored at 1e-5
    logs = [math.log(max(v, 1e-5)) for v in everything.per_query["gm_map"].values()]
    assert everything.mean()["gm_map"] == pytest.approx(math.exp(sum(logs) / n))


def test_rel_level_changes_relevance():
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 2}})
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    assert evaluate(qrels, run, "RR", rel_level=2).mean()["RR"] == 0.5
    assert evaluate(qrels, run, "RR", rel_level=0).mean()["RR"] == 1.0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rel_level": "1"}, "rel_level must be an integer"),
        ({"rel_level": 1.5}, "rel_level must be an integer"),
        ({"max_docs": -3}, "max_docs must be None or an integer >= 0"),
        ({"gain": "log"}, "gain='log' is not one of"),
    ],
)
def test_bad_options(options, message):
    qrels = Qrels.from_dict({"q": {"a": 1}})
    run = Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(ParameterError, match=message):
        evaluate(qrels, run, "map", **options)


def test_wrong_argument_types():
    run = Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(ParameterError, match="qrels must be a scorekit Qrels"):
        evaluate({"q": {"a": 1}}, run, "map")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="run must be a scorekit Run"):
        evaluate(Qrels.from_dict({"q": {"a": 1}}), {"q": {"a": 1.0}}, "map")  # type: ignore[arg-type]


def test_no_common_query():
    with pytest.raises(EmptyInputError, match="no query is in both"):
        evaluate(Qrels.from_dict({"q": {"a": 1}}), Run.from_dict({"p": {"a": 1.0}}), "map")


def test_unknown_measure_in_evaluate():
    qrels, run = Qrels.from_dict({"q": {"a": 1}}), Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(UnknownMeasureError, match="ndgc"):
        evaluate(qrels, run, ["ndgc@10"])


# ------------------------------------------------------------------- result
def test_result_object():
    qrels = Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}})
    run = Run.from_dict({"q1": {"a": 1.0, "x": 0.5}, "q2": {"x": 1.0, "b": 0.5}}, tag="sys")
    res = evaluate(qrels, run, ["P@1", "num_ret", "relstring", "runid"], per_query=True)
    assert isinstance(res, RankingResult)
    assert res.mean() == {"P@1": 0.5, "num_ret": 4.0}
    assert res.per_query["P@1"] == {"q1": 1.0, "q2": 0.0}
    assert res.per_query["relstring"] == {"q1": "1-", "q2": "-1"}
    assert res.array("P@1").tolist() == [1.0, 0.0]
    assert res.to_dict()["tag"] == "sys"
    assert res.to_trec_eval() == (
        "num_ret               \tq1\t2\n"
        "P_1                   \tq1\t1.0000\n"
        "relstring             \tq1\t'1-'\n"
        "num_ret               \tq2\t2\n"
        "P_1                   \tq2\t0.0000\n"
        "relstring             \tq2\t'-1'\n"
        "runid                 \tall\tsys\n"
        "num_ret               \tall\t4\n"
        "P_1                   \tall\t0.5000\n"
    )
    assert res.to_trec_eval(per_query=False).startswith("runid")
    assert "P@1=0.5000" in repr(res)
    with pytest.raises(UnknownMeasureError, match="was not evaluated"):
        res.array("map")
    with pytest.raises(UnknownMeasureError, match="text values"):
        res.array("relstring")


def test_to_pandas():
    pytest.importorskip("pandas")
    qrels = Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}})
    run = Run.from_dict({"q1": {"a": 1.0}, "q2": {"x": 1.0}})
    frame = evaluate(qrels, run, ["AP", "nDCG@10"]).to_pandas()
    assert frame.index.name == "query"
    assert list(frame.index) == ["q1", "q2"]
    assert frame.to_dict() == {"AP": {"q1": 1.0, "q2": 0.0}, "nDCG@10": {"q1": 1.0, "q2": 0.0}}


# ------------------------------------------------------------------ merging
def test_merged_states_equal_one_state():
    qrels, run = CASE
    Q, R = Qrels.from_dict(qrels), Run.from_dict(run)
    requests = parse_requests(["all_trec", "hit_rate@5", "micro_set_F", "RR@2"])
    whole = compute(ranked_state(Q, R, all_queries=True), requests)
    left = {q: v for q, v in qrels.items() if int(q[1:]) % 2 == 0}
    right = {q: v for q, v in qrels.items() if int(q[1:]) % 2 == 1}
    states = [ranked_state(Qrels.from_dict(part), R, all_queries=True) for part in (left, right)]
    merged = compute(merge_states(states[1], states[0]), requests)
    assert merged.to_trec_eval(per_query=True) == whole.to_trec_eval(per_query=True)
    assert merged.mean() == whole.mean()


def test_merge_needs_disjoint_queries():
    qrels, run = CASE
    state = ranked_state(Qrels.from_dict(qrels), Run.from_dict(run))
    with pytest.raises(ParameterError, match="disjoint"):
        merge_states(state, state)
