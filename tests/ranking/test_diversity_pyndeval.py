"""Differential test of the diversity measures against pyndeval (ndeval.c compiled in).

Random subtopic qrels and runs: grades -1..3 (and all-zero queries), documents
relevant to several subtopics, queries with one subtopic, queries only in the
run or only in the qrels, unjudged retrieved documents, heavy score ties, at
several alpha, beta and rel_level values. Every per-query value of every
measure at cutoffs 1..20 (ndeval's depth) is compared to 1e-12.

pyndeval ranks tied documents by id ascending (ndeval -traditional: descending,
scorekit's default), so the runs are evaluated with ``ties="docid_asc"``.
Subtopic ids are numbers given to pyndeval in numeric order, so both sum a
document's subtopic gains in the same order (ndeval's greedy ideal ranking
compares such sums exactly). pyndeval returns nan for nNRBP on a query with no
relevant document (0/0); scorekit returns 0 (docs/why-tools-disagree.md).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from diversity_cases import random_case

from scorekit.ranking import Run, SubtopicQrels, evaluate

pyndeval = pytest.importorskip("pyndeval")

pytestmark = pytest.mark.reference

CUTOFF_FAMILIES = {
    "ERR-IA": "ERR_IA",
    "nERR-IA": "nERR_IA",
    "alpha-DCG": "alpha_DCG",
    "alpha-nDCG": "alpha_nDCG",
    "P-IA": "P_IA",
    "strec": "StRecall",
}
WHOLE = {"NRBP": "NRBP", "nNRBP": "nNRBP", "MAP-IA": "AP_IA"}
CUTOFFS = (1, 2, 3, 5, 10, 20)
REF_NAMES = [f"{f}@{k}" for f in CUTOFF_FAMILIES for k in CUTOFFS] + list(WHOLE)


def ours(name: str, alpha: float, beta: float) -> str:
    """The scorekit spelling of an ndeval column, with explicit parameters."""
    if "@" in name:
        fam, k = name.split("@")
        mine = CUTOFF_FAMILIES[fam]
        params = (
            f"(alpha={alpha})" if fam in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG") else ""
        )
        return f"{mine}{params}@{k}"
    mine = WHOLE[name]
    return f"{mine}(alpha={alpha},beta={beta})" if mine != "AP_IA" else mine


def reference(qrels, run, alpha, beta, rel_level):
    ev = pyndeval.RelevanceEvaluator(
        [pyndeval.SubtopicQrel(*r) for r in qrels],
        REF_NAMES,
        relevance_level=rel_level,
        alpha=alpha,
        beta=beta,
    )
    return ev.evaluate([pyndeval.ScoredDoc(*r) for r in run])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(
    ("alpha", "beta", "rel_level"),
    [(0.5, 0.5, 1), (0.3, 0.8, 1), (0.5, 0.5, 2), (1.0, 0.5, 0), (0.0, 1.0, 1), (0.9, 0.1, 1)],
)
def test_every_per_query_value_matches(seed, alpha, beta, rel_level):
    qrels, run = random_case(seed)
    expected = reference(qrels, run, alpha, beta, rel_level)
    sq = SubtopicQrels.from_arrays(*zip(*qrels, strict=True))
    r = Run.from_arrays(*zip(*run, strict=True))
    names = [ours(n, alpha, beta) for n in REF_NAMES]
    got = evaluate(sq, r, names, ties="docid_asc", rel_level=rel_level).per_query
    assert set(got[names[0]]) == set(expected)
    for ref_name, name in zip(REF_NAMES, names, strict=True):
        for qid, values in expected.items():
            want = values[ref_name]
            if math.isnan(want):  # nNRBP 0/0 on a query without relevant documents
                assert ref_name == "nNRBP"
                assert got[name][qid] == 0.0
                continue
            assert got[name][qid] == pytest.approx(want, abs=1e-12, rel=1e-12), (name, qid)


def test_ndeval_names_and_defaults_equal_the_explicit_ones():
    qrels, run = random_case(3)
    sq = SubtopicQrels.from_arrays(*zip(*qrels, strict=True))
    r = Run.from_arrays(*zip(*run, strict=True))
    expected = reference(qrels, run, 0.5, 0.5, 1)
    got = evaluate(sq, r, REF_NAMES, ties="docid_asc").per_query
    for name in REF_NAMES:
        for qid, values in expected.items():
            want = values[name]
            assert got[name][qid] == pytest.approx(0.0 if math.isnan(want) else want, abs=1e-12)


def test_ties_default_is_ndeval_traditional_docid_descending():
    # one relevant (d1) and one non-relevant (d2) document with the same score:
    # ndeval -traditional ranks d2 first (docid descending), pyndeval d1
    sq = SubtopicQrels.from_arrays(["q", "q"], ["1", "2"], ["d1", "d3"], [1, 1])
    r = Run.from_arrays(["q", "q", "q"], ["d1", "d2", "d3"], [1.0, 1.0, 0.5])
    default = evaluate(sq, r, "P_IA@1").mean()["P_IA@1"]
    asc = evaluate(sq, r, "P_IA@1", ties="docid_asc").mean()["P_IA@1"]
    ref = reference(
        [("q", "1", "d1", 1), ("q", "2", "d3", 1)],
        [("q", "d1", 1.0), ("q", "d2", 1.0), ("q", "d3", 0.5)],
        0.5,
        0.5,
        1,
    )
    assert (default, asc) == (0.0, 0.5)
    assert asc == ref["q"]["P-IA@1"]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"ties": "docid_asc", "max_docs": 7},
        {"all_queries": True, "rel_level": 2},
        {"ties": "input_order", "gain": {-1: 0, 0: 0, 1: 1, 2: 3, 3: 7}},
        {"compat": "ranx"},
        {"judged_only": True, "ap_denominator": "min_relevant_k"},
    ],
)
def test_other_measures_with_subtopic_qrels_equal_the_document_level_qrels(seed, options):
    qrels, run = random_case(seed)
    sq = SubtopicQrels.from_arrays(*zip(*qrels, strict=True))
    r = Run.from_arrays(*zip(*run, strict=True))
    others = ["all_trec", "nDCG@5", "AP@10", "RR", "success@3"]
    if options.get("compat") == "ranx":
        others = ["nDCG@5", "AP@10", "RR", "P@5"]
        options = {**options, "missing_queries": "ignore"}
    mixed = evaluate(sq, r, [*others, "alpha_nDCG@5"], per_query=True, **options)
    alone = evaluate(sq.to_qrels(), r, others, per_query=True, **options)
    for key, values in alone.per_query.items():
        assert mixed.per_query[key] == values, key
    assert {k: v for k, v in mixed.mean().items() if k != "alpha_nDCG@5"} == alone.mean()


def port_of_ndeval(judged: dict[str, set[str]], ranking: list[str], k: int, alpha: float) -> dict:
    """ndeval.c's loops, transcribed for one query at any depth k (ndeval stops at 20)."""
    subs = sorted({s for v in judged.values() for s in v}, key=int)
    n_sub = len(subs)

    def gains(order: list[str]) -> list[float]:
        seen = dict.fromkeys(subs, 0)
        out = []
        for d in order:
            score = 0.0
            for s in subs:
                if s in judged.get(d, ()):
                    score += (1.0 - alpha) ** seen[s]
                    seen[s] += 1
            out.append(score)
        return out

    left, ideal = sorted(judged), []  # greedy: best gain, ties to the larger id
    gain = dict.fromkeys(subs, 1.0)
    while left:
        best = max(left, key=lambda d: (sum(gain[s] for s in subs if s in judged[d]), d))
        ideal.append(best)
        left.remove(best)
        for s in judged[best]:
            gain[s] *= 1.0 - alpha
    disc = [1.0] + [math.log(2) / math.log(i + 2) for i in range(1, k)]
    run_g, ideal_g = gains(ranking)[:k], gains(ideal)[:k]
    dcg = sum(g * w for g, w in zip(run_g, disc, strict=False))
    idcg = sum(g * w for g, w in zip(ideal_g, disc, strict=False))
    err = sum(g / (i + 1) for i, g in enumerate(run_g))
    ierr = sum(g / (i + 1) for i, g in enumerate(ideal_g))
    if n_sub == 0 or dcg == 0:
        return {"alpha_nDCG": 0.0, "nERR_IA": 0.0}
    return {"alpha_nDCG": dcg / idcg, "nERR_IA": err / ierr}


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [20, 30, 75])
def test_cutoffs_beyond_20_match_a_transcription_of_ndeval(seed, k):
    rng = np.random.default_rng(100 + seed)
    alpha = [0.5, 0.25, 0.8][seed % 3]
    docs = [f"d{i:03d}" for i in range(120)]
    judged: dict[str, set[str]] = {}
    rows = []
    for d in rng.choice(docs, 70, replace=False):
        subs = {str(s) for s in range(1, 9) if rng.random() < 0.25}
        judged[str(d)] = subs
        rows += [("q", s, str(d), 1) for s in sorted(subs)] or [("q", "1", str(d), 0)]
    ranking = [str(d) for d in rng.permutation(docs)[:100]]
    want = port_of_ndeval(judged, ranking, k, alpha)
    sq = SubtopicQrels.from_arrays(*zip(*rows, strict=True))
    run = Run.from_arrays(["q"] * len(ranking), ranking, np.arange(len(ranking), 0, -1.0))
    names = [f"alpha_nDCG(alpha={alpha})@{k}", f"nERR_IA(alpha={alpha})@{k}"]
    got = evaluate(sq, run, names).mean()
    assert got[names[0]] == pytest.approx(want["alpha_nDCG"], rel=1e-12)
    assert got[names[1]] == pytest.approx(want["nERR_IA"], rel=1e-12)


def test_the_greedy_ideal_ranking_scores_one():
    judged = {"a": {"1", "2"}, "b": {"1"}, "c": {"3"}, "d": {"2", "3"}, "e": {"1", "2", "3"}}
    rows = [("q", s, d, 1) for d, subs in judged.items() for s in sorted(subs)]
    sq = SubtopicQrels.from_arrays(*zip(*rows, strict=True))
    # the greedy order: e (3 new), then a/d (1.0 each) -> d, then a (0.75), then c/b (0.25 each)
    run = Run.from_dict({"q": {"e": 5.0, "d": 4.0, "a": 3.0, "c": 2.0, "b": 1.0}})
    got = evaluate(sq, run, ["alpha_nDCG@5", "nERR_IA@5", "nNRBP"]).mean()
    assert got == {"alpha_nDCG@5": 1.0, "nERR_IA@5": 1.0, "nNRBP": 1.0}
