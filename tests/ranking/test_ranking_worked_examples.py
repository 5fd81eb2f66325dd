"""Worked examples from the IR literature, with the arithmetic written out."""

from __future__ import annotations

import math

import pytest

from scorekit import ParameterError
from scorekit.ranking import Qrels, Run, evaluate


def ranked(pattern: str, n_relevant_total: int, *, nonrel_judged: bool = True):
    """A run from a string of R/N (best first) and qrels with ``n_relevant_total`` relevant docs."""
    docs = [f"d{i:02d}" for i in range(1, len(pattern) + 1)]
    run = Run.from_dict({"q": {d: float(len(pattern) - i) for i, d in enumerate(docs)}})
    judged = {d: 1 for d, c in zip(docs, pattern, strict=True) if c == "R"}
    if nonrel_judged:
        judged.update({d: 0 for d, c in zip(docs, pattern, strict=True) if c == "N"})
    for i in range(n_relevant_total - pattern.count("R")):
        judged[f"missed{i}"] = 1  # relevant, never retrieved
    return Qrels.from_dict({"q": judged}), run


# Manning, Raghavan & Schütze, Introduction to Information Retrieval (2008),
# chapter 8, exercise 8.9: 20 results, 6 relevant among them, 8 relevant in all.
IIR_8_9 = "RRNNNNNNRNRNNNRNNNNR"


def test_iir_exercise_8_9_precision_recall_f():
    qrels, run = ranked(IIR_8_9, 8)
    m = evaluate(qrels, run, ["P@20", "set_recall", "set_F", "Rprec"]).mean()
    assert m["P@20"] == pytest.approx(6 / 20)  # 0.3
    assert m["set_recall"] == pytest.approx(6 / 8)  # 0.75
    # F1 = 2PR / (P + R) = 2 * 0.3 * 0.75 / 1.05 = 0.428571...
    assert m["set_F"] == pytest.approx(2 * 0.3 * 0.75 / 1.05)
    assert round(m["set_F"], 4) == 0.4286
    # R-precision: 2 relevant in the top R = 8 -> 0.25
    assert m["Rprec"] == pytest.approx(0.25)


def test_iir_exercise_8_9_average_precision():
    qrels, run = ranked(IIR_8_9, 8)
    # relevant at ranks 1, 2, 9, 11, 15, 20; 2 relevant never retrieved count as 0:
    # AP = (1/1 + 2/2 + 3/9 + 4/11 + 5/15 + 6/20) / 8 = 3.330303 / 8 = 0.416288
    ap = evaluate(qrels, run, "AP").mean()["AP"]
    assert ap == pytest.approx((1 + 1 + 3 / 9 + 4 / 11 + 5 / 15 + 6 / 20) / 8, abs=1e-15)
    assert round(ap, 6) == 0.416288


def test_iir_exercise_8_9_interpolated_precision():
    qrels, run = ranked(IIR_8_9, 8)
    res = evaluate(qrels, run, ["iprec@0.25", "iprec@0.33", "11pt_avg"]).mean()
    # p_interp(r) = max precision at any recall >= r. Recall 0.25 = 2 of 8 relevant,
    # reached at rank 2 with precision 1.
    assert res["iprec@0.25"] == 1.0
    # 0.33 * 8 = 2.64 rounds to 3 relevant: max(3/9, 4/11, 5/15, 6/20) = 4/11 = 0.3636
    assert res["iprec@0.33"] == pytest.approx(4 / 11)
    # 11 points: levels 0 .. 1 need 0,1,2,2,3,4,5,6,6,7,8 relevant documents; from the
    # k-th relevant on, the best precision is 1, 1, 4/11, 4/11, 1/3, 3/10 (k = 1..6), and 0
    # for 7 and 8 (never reached): (4 * 1 + 2 * 4/11 + 1/3 + 2 * 3/10 + 0 + 0) / 11 = 0.514601
    expected = (4 + 2 * 4 / 11 + 1 / 3 + 2 * 0.3) / 11
    assert res["11pt_avg"] == pytest.approx(expected, abs=1e-15)
    assert round(res["11pt_avg"], 6) == 0.514601


# Discounted cumulative gain, the six-document example of the Wikipedia article
# "Discounted cumulative gain" (after Järvelin & Kekäläinen, TOIS 2002): grades
# 3, 2, 3, 0, 1, 2 in rank order; ideal order 3, 3, 2, 2, 1, 0.
GRADES = [3, 2, 3, 0, 1, 2]


def graded_run():
    docs = [f"d{i}" for i in range(1, 7)]
    run = Run.from_dict({"q": {d: 10.0 - i for i, d in enumerate(docs)}})
    qrels = Qrels.from_dict({"q": dict(zip(docs, GRADES, strict=True))})
    return qrels, run


def test_ndcg_linear_gain():
    qrels, run = graded_run()
    # DCG = 3 + 2/log2(3) + 3/log2(4) + 0 + 1/log2(6) + 2/log2(7)
    #     = 3 + 1.26186 + 1.5 + 0 + 0.38685 + 0.71241 = 6.86113
    dcg = 3 + 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6) + 2 / math.log2(7)
    # IDCG = 3 + 3/log2(3) + 2/2 + 2/log2(5) + 1/log2(6) = 3 + 1.89279 + 1 + 0.86135 + 0.38685
    #      = 7.14100
    idcg = 3 + 3 / math.log2(3) + 2 / 2 + 2 / math.log2(5) + 1 / math.log2(6)
    res = evaluate(qrels, run, ["nDCG@6", "nDCG", "dcg", "ideal_dcg"]).mean()
    assert round(dcg, 3) == 6.861
    assert round(idcg, 3) == 7.141
    assert res["dcg"] == pytest.approx(dcg, abs=1e-12)
    assert res["ideal_dcg"] == pytest.approx(idcg, abs=1e-12)
    assert res["nDCG@6"] == pytest.approx(dcg / idcg, abs=1e-12)
    assert round(res["nDCG"], 3) == 0.961


def test_ndcg_exponential_gain():
    qrels, run = graded_run()
    # gain 2^g - 1 (Burges et al., ICML 2005): 7, 3, 7, 0, 1, 3
    # DCG = 7 + 3/log2(3) + 7/2 + 0 + 1/log2(6) + 3/log2(7) = 13.84826
    # IDCG (7, 7, 3, 3, 1, 0) = 7 + 7/log2(3) + 3/2 + 3/log2(5) + 1/log2(6) = 14.59539
    dcg = 7 + 3 / math.log2(3) + 7 / 2 + 1 / math.log2(6) + 3 / math.log2(7)
    idcg = 7 + 7 / math.log2(3) + 3 / 2 + 3 / math.log2(5) + 1 / math.log2(6)
    res = evaluate(qrels, run, ["nDCG@6", "nDCG@3"], gain="exponential").mean()
    assert res["nDCG@6"] == pytest.approx(dcg / idcg, abs=1e-12)
    assert round(res["nDCG@6"], 4) == 0.9488
    # top 3: (7 + 3/log2(3) + 7/2) / (7 + 7/log2(3) + 3/2) = 12.39279 / 12.91651 = 0.95945
    top3 = (7 + 3 / math.log2(3) + 3.5) / (7 + 7 / math.log2(3) + 1.5)
    assert res["nDCG@3"] == pytest.approx(top3, abs=1e-12)


def test_mean_reciprocal_rank():
    # Wikipedia "Mean reciprocal rank": first correct answers at ranks 3, 2 and 1:
    # MRR = (1/3 + 1/2 + 1) / 3 = 11/18 = 0.6111
    run = Run.from_dict(
        {
            "cat": {"catten": 3.0, "cati": 2.0, "cats": 1.0},
            "torus": {"torii": 3.0, "tori": 2.0, "toruses": 1.0},
            "virus": {"viruses": 3.0, "virii": 2.0, "viri": 1.0},
        }
    )
    qrels = Qrels.from_dict({"cat": {"cats": 1}, "torus": {"tori": 1}, "virus": {"viruses": 1}})
    res = evaluate(qrels, run, ["RR", "RR@2"])
    assert res.mean()["RR"] == pytest.approx(11 / 18)
    # cut at rank 2, "cat" scores 0: (0 + 1/2 + 1) / 3 = 0.5
    assert res.mean()["RR@2"] == pytest.approx(0.5)


def test_bpref():
    # Buckley & Voorhees, "Retrieval evaluation with incomplete information" (SIGIR 2004),
    # trec_eval's form: bpref = 1/R * sum over retrieved relevant r of
    #   1 - |judged non-relevant above r| / min(R, N).
    # Ranking: rel, nonrel, rel, unjudged (ignored), rel; R = 3, N = 2 (one nonrel unretrieved):
    # (1 + (1 - 1/2) + (1 - 1/2)) / 3 = 2/3
    run = Run.from_dict({"q": {"r1": 5.0, "n1": 4.0, "r2": 3.0, "u": 2.0, "r3": 1.0}})
    qrels = Qrels.from_dict({"q": {"r1": 1, "r2": 1, "r3": 1, "n1": 0, "n2": 0}})
    assert evaluate(qrels, run, "bpref").mean()["bpref"] == pytest.approx(2 / 3)


def test_hit_rate_spec_example():
    # three users with 10, 12 and 8 purchases, 6, 5 and 4 of them in their top 10:
    # hit_rate@10 = (6 + 5 + 4) / (10 + 12 + 8) = 15/30 = 0.5 (micro over users)
    purchases = {"u1": 10, "u2": 12, "u3": 8}
    hits = {"u1": 6, "u2": 5, "u3": 4}
    qrels = Qrels.from_dict(
        {u: {f"{u}-item{i}": 1 for i in range(n)} for u, n in purchases.items()}
    )
    run = {}
    for u, h in hits.items():
        items = [f"{u}-item{i}" for i in range(h)] + [f"{u}-other{i}" for i in range(10 - h)]
        run[u] = {item: 100.0 - i for i, item in enumerate(items)}
    res = evaluate(qrels, Run.from_dict(run), ["hit_rate@10", "R@10"])
    assert res.mean()["hit_rate@10"] == pytest.approx(0.5)
    # the macro mean of per-user recall differs: (0.6 + 5/12 + 0.5) / 3 = 0.50556
    assert res.mean()["R@10"] == pytest.approx((0.6 + 5 / 12 + 0.5) / 3)


def test_micro_set_measures_spec_example():
    # two queries with 100 and 50 relevant, 80 and 30 retrieved, 40 and 24 of them relevant:
    # micro P = (40 + 24) / (80 + 30) = 64/110, micro R = 64/150;
    # macro set_P = (40/80 + 24/30) / 2 = 0.65, set_recall = (40/100 + 24/50) / 2 = 0.44
    qrels = {"a": {f"a{i}": 1 for i in range(100)}, "b": {f"b{i}": 1 for i in range(50)}}
    run = {
        "a": {(f"a{i}" if i < 40 else f"a-x{i}"): 1.0 / (i + 1) for i in range(80)},
        "b": {(f"b{i}" if i < 24 else f"b-x{i}"): 1.0 / (i + 1) for i in range(30)},
    }
    m = evaluate(
        Qrels.from_dict(qrels),
        Run.from_dict(run),
        ["micro_set_P", "micro_set_recall", "micro_set_F", "set_P", "set_recall"],
    ).mean()
    assert m["micro_set_P"] == pytest.approx(64 / 110)
    assert m["micro_set_recall"] == pytest.approx(64 / 150)
    # F = 2PR / (P + R) = 2 * 64 / (110 + 150) = 0.49231
    assert m["micro_set_F"] == pytest.approx(128 / 260)
    assert m["set_P"] == pytest.approx(0.65)
    assert m["set_recall"] == pytest.approx(0.44)


def graded(grades: list[int | None]):
    """A run of len(grades) documents best first; None: retrieved but not in the qrels."""
    docs = [f"d{i:02d}" for i in range(1, len(grades) + 1)]
    run = Run.from_dict({"q": {d: float(len(grades) - i) for i, d in enumerate(docs)}})
    judged = {d: g for d, g in zip(docs, grades, strict=True) if g is not None}
    return Qrels.from_dict({"q": judged}), run


def test_err_chapelle_cascade():
    # Chapelle, Metzler, Zhang & Grinspan (CIKM 2009), eq. (3)-(4) with R = (2^g - 1) / 2^g_max.
    # Grades (0-4 scale) 3, 0, 4, 1: R = 7/16, 0, 15/16, 1/16.
    # ERR = 7/16 / 1 + (9/16)(15/16) / 3 + (9/16)(1/16)(1/16) / 4
    #     = 0.4375 + 0.17578125 + 0.000549316... = 0.613830566...
    qrels, run = graded([3, 0, 4, 1])
    expected = 7 / 16 + (9 / 16) * (15 / 16) / 3 + (9 / 16) * (1 / 16) * (1 / 16) / 4
    m = evaluate(qrels, run, ["ERR", "ERR@2"]).mean()
    assert m["ERR"] == pytest.approx(expected, abs=1e-15)
    assert round(m["ERR"], 4) == 0.6138
    assert m["ERR@2"] == pytest.approx(7 / 16)  # the grade-0 document adds nothing
    qrels3, run3 = graded([3, 0, 2])
    top3 = evaluate(qrels3, run3, "ERR(max_grade=3)@1").mean()
    assert top3["ERR(max_grade=3)@1"] == pytest.approx(7 / 8)  # R = (2^3 - 1) / 2^3
    with pytest.raises(ParameterError, match="max_grade=3"):  # gdeval refuses grades above 4
        evaluate(qrels, run, "ERR(max_grade=3)")


def test_rbp_moffat_zobel():
    # Moffat & Zobel (TOIS 2008), eq. (2): RBP = (1 - p) sum_i r_i p^(i-1).
    # Relevance 1, 0, 1, 1 with p = 0.5: 0.5 (1 + 0.25 + 0.125) = 0.6875.
    # Residual (their section 5): unjudged document at rank 2, list ends at rank 4:
    # (1 - p) p^1 + p^4 = 0.25 + 0.0625 = 0.3125, so the true RBP lies in [0.6875, 1.0].
    qrels, run = graded([1, None, 1, 1])
    m = evaluate(qrels, run, ["RBP(p=0.5)", "RBP_resid(p=0.5)"]).mean()
    assert m["RBP(p=0.5)"] == pytest.approx(0.6875)
    assert m["RBP_resid(p=0.5)"] == pytest.approx(0.3125)
    assert evaluate(qrels, run, "RBP(p=0.5)@2").mean()["RBP(p=0.5)@2"] == pytest.approx(0.5)
