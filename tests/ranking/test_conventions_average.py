"""ties="average" equals the mean over every order of the tied documents, enumerated.

The brute force never uses scorekit's tie machinery: for every query and every
combination of orders of its tied groups, a new query is written whose scores
are strictly decreasing in that order (so no ties are left), and all of them
are evaluated at once with trec_eval's conventions (checked line for line by
the conformance tests). The mean over a query's orders must equal the
closed-form expectation of ``ties="average"`` to 1e-9, for every measure that
supports it, with cutoffs, max_docs (cutting a tied group), judged_only, the
three AP denominators and both nDCG ideals.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pytest

from scorekit import ParameterError
from scorekit.ranking import Qrels, Run, evaluate

MEASURES = [
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "num_nonrel_judged_ret",
    "map",
    "gm_map",
    "AP@2",
    "AP@4",
    "Rprec",
    "Rprec_mult.0.5,1.5",
    "RR",
    "RR@2",
    "success.1,3",
    "P.1,2,5",
    "recall.3",
    "relative_P.3",
    "hit_rate@3",
    "unj.3",
    "set_P",
    "set_recall",
    "set_relative_P",
    "utility",
    "micro_set_P",
    "micro_set_recall",
    "ndcg",
    "ndcg.1=3,2=5",
    "nDCG@3",
    "dcg",
    "ideal_dcg",
]
WHOLE_LIST = ["set_map", "set_F", "micro_set_F"]  # supported while max_docs is not given


def random_case(seed: int) -> tuple[dict, dict]:
    """Small queries with tied scores, graded and unjudged documents, unretrieved relevant ones."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(5):
        n = int(rng.integers(1, 8))
        docs = [f"d{i}" for i in rng.permutation(12)[:n]]
        scores = rng.integers(0, 3, n) / 2  # at most 3 distinct scores: ties
        run[f"q{q}"] = {d: float(s) for d, s in zip(docs, scores, strict=True)}
        judged = list(rng.choice(docs, size=int(rng.integers(0, n + 1)), replace=False))
        judged += [f"u{i}" for i in range(int(rng.integers(0, 3)))]  # relevant, never retrieved
        qrels[f"q{q}"] = {str(d): int(rng.integers(-1, 3)) for d in judged} or {"x": 0}
    qrels["lonely"] = {"a": 1}  # a qrels query the run misses
    return qrels, run


def orders(docs: dict[str, float]) -> list[list[str]]:
    """Every ranking of the documents that sorts scores descending (all orders of each tie group)."""
    by_score: dict[float, list[str]] = defaultdict(list)
    for d, s in docs.items():
        by_score[s].append(d)
    groups = [by_score[s] for s in sorted(by_score, reverse=True)]
    return [
        [d for part in combo for d in part]
        for combo in itertools.product(*(itertools.permutations(g) for g in groups))
    ]


def brute_force(qrels: dict, run: dict, measures: list[str], **options) -> dict:
    """Per query and measure, the mean over every tie order (one evaluate call for all orders)."""
    big_qrels, big_run, owner = {}, {}, {}
    for qid, docs in run.items():
        for i, ranking in enumerate(orders(docs)):
            name = f"{qid}#{i}"
            owner[name] = qid
            big_run[name] = {d: float(len(ranking) - r) for r, d in enumerate(ranking)}
            if qid in qrels:
                big_qrels[name] = qrels[qid]
    for qid in qrels:
        if qid not in run:
            big_qrels[qid] = qrels[qid]
            owner[qid] = qid
    res = evaluate(Qrels.from_dict(big_qrels), Run.from_dict(big_run), measures, **options)
    out: dict[str, dict[str, float]] = {}
    for m, values in res.per_query.items():
        sums: dict[str, list[float]] = defaultdict(list)
        for name, v in values.items():
            sums[owner[name]].append(v)
        out[m] = {q: sum(v) / len(v) for q, v in sums.items()}
    return out


OPTIONS = [
    {},
    {"max_docs": 3},
    {"max_docs": 1},
    {"judged_only": True},
    {"rel_level": 2},
    {"ap_denominator": "hits"},
    {"ap_denominator": "hits", "max_docs": 2},
    {"ap_denominator": "min_relevant_k"},
    {"ndcg_ideal": "candidates"},
    {"missing_queries": "zero", "gain": "exponential"},
    {"gain": {-1: 0, 0: 0.5, 1: 1, 2: 4}},
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o.items())) or "-")
def test_average_equals_mean_over_enumerated_orders(seed, options):
    qrels, run = random_case(seed)
    measures = MEASURES + ([] if "max_docs" in options else WHOLE_LIST)
    expected = brute_force(qrels, run, measures, **options)
    res = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), measures, ties="average", **options)
    for m, values in res.per_query.items():
        for qid, v in values.items():
            assert v == pytest.approx(expected[m][qid], rel=1e-9, abs=1e-12), (m, qid)


def test_average_with_a_large_tied_group_cut_by_the_cutoff():
    # 7 tied documents, 3 relevant, cut by k = 4 (5040 orders), after two untied ones
    qrels = {"q": {"r1": 1, "r2": 2, "r3": 1, "top": 1, "far": 1}}
    docs = {"top": 3.0, "x": 2.0, **dict.fromkeys(("r1", "r2", "r3", "a", "b", "c", "e"), 1.0)}
    run = {"q": docs}
    measures = ["AP@4", "AP", "RR@3", "success.3", "P.4", "nDCG@4", "Rprec"]
    for denominator in ("relevant", "hits", "min_relevant_k"):
        expected = brute_force(qrels, run, measures, ap_denominator=denominator)
        res = evaluate(
            Qrels.from_dict(qrels),
            Run.from_dict(run),
            measures,
            ties="average",
            ap_denominator=denominator,
        )
        for m, values in res.per_query.items():
            assert values["q"] == pytest.approx(expected[m]["q"], rel=1e-9), (m, denominator)


def test_worked_example_tie_averaged_ndcg():
    # d1 relevant, d2 and d3 not, all scored 0.5. trec_eval ranks d3, d2, d1: nDCG = 1/log2(4)
    # = 0.5. Each order puts d1 at ranks 1, 2, 3 with probability 1/3: mean gain 1/3 at every
    # rank, nDCG = (1/3)(1 + 1/log2(3) + 1/2) = (1/3)(2.1309) = 0.7103 (scikit-learn: the same).
    qrels = Qrels.from_dict({"q": {"d1": 1, "d2": 0, "d3": 0}})
    run = Run.from_dict({"q": {"d1": 0.5, "d2": 0.5, "d3": 0.5}})
    assert evaluate(qrels, run, "ndcg").mean()["ndcg"] == pytest.approx(0.5, abs=1e-12)
    value = evaluate(qrels, run, "ndcg", ties="average").mean()["ndcg"]
    assert value == pytest.approx((1 + 1 / math.log2(3) + 0.5) / 3, rel=1e-12)
    assert round(value, 4) == 0.7103
    # RR: 1, 1/2, 1/3 with probability 1/3 each = 11/18; AP the same (one relevant document)
    res = evaluate(qrels, run, ["RR", "AP", "P.1"], ties="average").mean()
    assert res["RR"] == pytest.approx(11 / 18, rel=1e-12)
    assert res["AP"] == pytest.approx(11 / 18, rel=1e-12)
    assert res["P_1"] == pytest.approx(1 / 3, rel=1e-12)


@pytest.mark.parametrize(
    "measure",
    ["bpref", "infAP", "iprec_at_recall.0.5", "11pt_avg", "binG", "G", "ndcg_rel", "Rndcg",
     "rbp", "rbp_resid", "relstring", "gm_bpref", "all_trec"],
)  # fmt: skip
def test_average_raises_for_measures_without_a_closed_form(measure):
    qrels = Qrels.from_dict({"q": {"a": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "b": 1.0}})
    shown = "bpref" if measure == "all_trec" else measure.split(".")[0]
    with pytest.raises(ParameterError, match=rf"ties='average' has no closed form for .*{shown}"):
        evaluate(qrels, run, ["map", measure], ties="average")


def test_average_set_measures_need_the_whole_list():
    qrels = Qrels.from_dict({"q": {"a": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "b": 1.0}})
    assert evaluate(qrels, run, "set_F", ties="average").mean()["set_F"] == pytest.approx(2 / 3)
    with pytest.raises(ParameterError, match="no closed form for set_F"):
        evaluate(qrels, run, "set_F", ties="average", max_docs=1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"judged_only": True}, "cannot be combined with judged_only"),
        ({"ndcg_ideal": "candidates"}, "cannot be combined with ndcg_ideal='candidates'"),
    ],
)
def test_average_with_max_docs_refuses_order_dependent_sets(options, message):
    qrels = Qrels.from_dict({"q": {"a": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "b": 1.0}})
    with pytest.raises(ParameterError, match=message):
        evaluate(qrels, run, "map", ties="average", max_docs=1, **options)


def test_fractional_expected_counts_print_with_decimals():
    # max_docs=1 keeps one of two tied documents, the relevant one half the time
    qrels = Qrels.from_dict({"q": {"a": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "x": 1.0}})
    res = evaluate(qrels, run, ["num_ret", "num_rel_ret"], ties="average", max_docs=1)
    assert res.mean() == {"num_ret": 1.0, "num_rel_ret": 0.5}
    assert res.to_trec_eval().splitlines() == [
        "num_ret               \tall\t1",
        "num_rel_ret           \tall\t0.5000",
    ]
