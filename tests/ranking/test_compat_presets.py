"""compat= presets reproduce each tool's numbers (ranx: test_conventions_ranx.py).

Fixtures hold tied scores, graded relevance, relevant documents the run never
retrieved and qrels queries the run misses. scikit-learn and pytrec_eval run
here; torchmetrics, Spark and RecBole cannot be installed, so their numbers
come from the library's own documented examples and test suite (quoted with
their source) or by hand from the formula in the library's code, with the
arithmetic in a comment.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scorekit.ranking import Qrels, Run, evaluate

# ----------------------------------------------------------------- sklearn
sklearn_metrics = pytest.importorskip("sklearn.metrics")


def dense_case(seed: int):
    """Dense rows (every column a candidate), tied scores, grades 0-3, one all-zero row."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, (9, 6))
    y_true[4] = 0
    y_score = rng.integers(0, 4, (9, 6)) / 4  # few distinct values: many ties
    qrels: dict[str, dict[str, int]] = {}
    for i, row in enumerate(y_true):
        qrels[f"q{i}"] = {f"d{j}": int(g) for j, g in enumerate(row)}
        qrels[f"q{i}"]["unretrieved"] = 3  # judged relevant, not a candidate
    qrels["only_in_qrels"] = {"d0": 2}  # no row: sklearn never sees this query
    return y_true, y_score, qrels


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [None, 1, 3])
def test_sklearn_ndcg_score_tie_averaged(seed, k):
    y_true, y_score, qrels = dense_case(seed)
    run = {f"q{i}": {f"d{j}": float(s) for j, s in enumerate(row)} for i, row in enumerate(y_score)}
    name = "ndcg" if k is None else f"nDCG@{k}"
    res = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), name, compat="sklearn")
    per_row = [
        sklearn_metrics.ndcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k)
        for i in range(len(y_true))
    ]
    assert [res.per_query[name][f"q{i}"] for i in range(len(y_true))] == pytest.approx(
        per_row, rel=1e-12, abs=1e-15
    )
    expected = sklearn_metrics.ndcg_score(y_true, y_score, k=k)
    assert res.mean()[name] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_sklearn_ndcg_score_ignore_ties(seed):
    # ignore_ties=True ranks by np.argsort(y_score)[:, ::-1] (its order among ties is NumPy's):
    # the run lists each row's documents in that order and ties="input_order" keeps it
    y_true, y_score, qrels = dense_case(seed)
    ranking = np.argsort(y_score)[:, ::-1]
    run = {f"q{i}": {f"d{j}": float(y_score[i, j]) for j in ranking[i]} for i in range(len(y_true))}
    for k in (None, 2):
        name = "ndcg" if k is None else f"nDCG@{k}"
        res = evaluate(
            Qrels.from_dict(qrels), Run.from_dict(run), name, compat="sklearn", ties="input_order"
        )
        expected = sklearn_metrics.ndcg_score(y_true, y_score, k=k, ignore_ties=True)
        assert res.mean()[name] == pytest.approx(expected, rel=1e-12)


def test_sklearn_worked_example():
    # one row: d1 relevant, d2 and d3 not, all scored 0.5; scikit-learn averages the three
    # orders: (1/3)(1 + 1/log2(3) + 1/2) = 0.7103; trec_eval's order d3, d2, d1 gives 0.5
    qrels = Qrels.from_dict({"q": {"d1": 1, "d2": 0, "d3": 0}})
    run = Run.from_dict({"q": {"d1": 0.5, "d2": 0.5, "d3": 0.5}})
    ours = evaluate(qrels, run, "ndcg", compat="sklearn").mean()["ndcg"]
    theirs = sklearn_metrics.ndcg_score([[1, 0, 0]], [[0.5, 0.5, 0.5]])
    assert ours == pytest.approx(theirs, rel=1e-12)
    assert round(ours, 4) == 0.7103
    assert evaluate(qrels, run, "ndcg", compat="trec_eval").mean()["ndcg"] == 0.5


# ------------------------------------------------------------- pytrec_eval
def test_trec_eval_preset_is_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(8)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(15):
        docs = [f"d{i}" for i in rng.choice(30, size=12, replace=False)]
        qrels[f"q{q}"] = {d: int(rng.integers(0, 4)) for d in docs[:8]} | {"never": 2}
        if q % 4:  # q0, q4, ... are missing from the run
            run[f"q{q}"] = {d: float(rng.integers(0, 4)) / 4 for d in docs[4:]}  # ties
    measures = {"ndcg", "map", "P_5", "recip_rank", "ndcg_cut_3", "map_cut_5"}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    ours = evaluate(
        Qrels.from_dict(qrels), Run.from_dict(run), sorted(measures), compat="trec_eval"
    )
    assert set(ours.query_ids) == set(theirs)
    for m in measures:
        for qid, values in theirs.items():
            assert ours.per_query[m][qid] == pytest.approx(values[m], abs=1e-12), (m, qid)


# ------------------------------------------------------------ torchmetrics
def test_torchmetrics_documented_examples():
    # torchmetrics/functional/retrieval/average_precision.py docstring:
    # retrieval_average_precision(tensor([0.2, 0.3, 0.5]), tensor([True, False, True])) = 0.8333
    # (ranked 0.5 rel, 0.3 non-rel, 0.2 rel: (1/1 + 2/3) / 2 hits)
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 0, "c": 1}})
    run = Run.from_dict({"q": {"a": 0.2, "b": 0.3, "c": 0.5}})
    assert evaluate(qrels, run, "AP", compat="torchmetrics").mean()["AP"] == pytest.approx(5 / 6)
    # torchmetrics/functional/retrieval/ndcg.py docstring:
    # retrieval_normalized_dcg(tensor([.1, .2, .3, 4, 70]), tensor([10, 0, 0, 1, 5])) = 0.6957
    qrels = Qrels.from_dict({"q": {"a": 10, "b": 0, "c": 0, "d": 1, "e": 5}})
    run = Run.from_dict({"q": {"a": 0.1, "b": 0.2, "c": 0.3, "d": 4.0, "e": 70.0}})
    value = evaluate(qrels, run, "ndcg", compat="torchmetrics").mean()["ndcg"]
    # DCG = 5/1 + 1/log2(3) + 0 + 0 + 10/log2(6); IDCG = 10 + 5/log2(3) + 1/2
    dcg = 5 + 1 / math.log2(3) + 10 / math.log2(6)
    assert value == pytest.approx(dcg / (10 + 5 / math.log2(3) + 0.5), rel=1e-12)
    assert round(value, 4) == 0.6957


def test_torchmetrics_fixture_by_its_formulas():
    # query A: targets 1, 0, 2, 0, 1 in score order, plus "ua" (grade 2) never retrieved, which
    # torchmetrics never sees (targets exist only for the given preds).
    # query B: targets 0 and 1 tied at 0.4, then 0 at 0.2.  query C: qrels only (no preds).
    qrels = Qrels.from_dict(
        {
            "A": {"a1": 1, "a2": 0, "a3": 2, "a4": 0, "a5": 1, "ua": 2},
            "B": {"b1": 0, "b2": 1, "b3": 0},
            "C": {"c1": 1},
        }
    )
    run = Run.from_dict(
        {
            "A": {"a1": 0.9, "a2": 0.8, "a3": 0.7, "a4": 0.6, "a5": 0.5},
            "B": {"b1": 0.4, "b2": 0.4, "b3": 0.2},
        }
    )
    res = evaluate(qrels, run, ["AP@3", "AP", "nDCG@3", "nDCG@1"], compat="torchmetrics")
    pq = res.per_query
    assert res.query_ids == ("A", "B")  # C: torchmetrics has no index for it
    # retrieval_average_precision(top_k=3): relevant at ranks 1, 3 of the top 3: (1 + 2/3) / 2
    assert pq["AP@3"]["A"] == pytest.approx((1 + 2 / 3) / 2, rel=1e-15)
    # top_k=None: ranks 1, 3, 5: (1 + 2/3 + 3/5) / 3 hits
    assert pq["AP"]["A"] == pytest.approx((1 + 2 / 3 + 3 / 5) / 3, rel=1e-15)
    # retrieval_normalized_dcg(top_k=3), ideal from the targets given, sorted: 2, 1, 1:
    # DCG = 1 + 0 + 2/log2(4) = 2; IDCG = 2 + 1/log2(3) + 1/2
    assert pq["nDCG@3"]["A"] == pytest.approx(2 / (2.5 + 1 / math.log2(3)), rel=1e-12)
    # B, sklearn's tie average (torchmetrics' _tie_average_dcg): the tied pair's mean target
    # 1/2 at ranks 1 and 2: DCG = (1/2)(1 + 1/log2(3)), IDCG = 1; at k = 1: (1/2)(1) / 1
    assert pq["nDCG@3"]["B"] == pytest.approx(0.5 * (1 + 1 / math.log2(3)), rel=1e-12)
    assert pq["nDCG@1"]["B"] == pytest.approx(0.5, rel=1e-12)


# ------------------------------------------------------------------- Spark
def spark_fixture(relevance: bool = False):
    """RankingMetricsSuite's predictions (ordered arrays) as a fully tied run in that order."""
    preds = [[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3, 4, 5]]
    labels = [[1, 2, 3, 4, 5], [1, 2, 3], []]
    grades = [[3, 2, 1, 1, 1], [2, 0, 0], []] if relevance else [[1] * 5, [1] * 3, []]
    run = {f"u{i}": {str(d): 1.0 for d in p} for i, p in enumerate(preds)}  # all scores tie
    qrels = {f"u{i}": {str(d): g for d, g in zip(lab, gr, strict=True)} for i, (lab, gr) in
             enumerate(zip(labels, grades, strict=True))}  # fmt: skip
    # an empty label set (Spark scores it 0): in the qrels, nothing relevant at any rel_level
    qrels["u2"] = {"1": -1}
    return Qrels.from_dict(qrels), Run.from_dict(run)


def test_spark_ranking_metrics_suite():
    # mllib/src/test/.../RankingMetricsSuite.scala, "Ranking metrics: MAP, NDCG, Recall"
    qrels, run = spark_fixture()
    names = ["P@1", "P@4", "P@15", "AP", "AP@1", "AP@2", "AP@3", "nDCG@3", "nDCG@5", "nDCG@10",
             "R@2", "R@5"]  # fmt: skip
    got = evaluate(qrels, run, names, compat="spark").mean()
    expected = {
        "P@1": 1.0 / 3, "P@4": 0.75 / 3, "P@15": 8.0 / 45, "AP": 0.355026, "AP@1": 0.333334,
        "AP@2": 0.25, "AP@3": 0.24074, "nDCG@3": 1.0 / 3, "nDCG@5": 0.328788,
        "nDCG@10": 0.487913, "R@2": 8.0 / 45, "R@5": 16.0 / 45,
    }  # fmt: skip
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=1e-5), name  # the suite's eps
    # trec_eval's conventions differ: AP@3 divides by R (5 and 3), ties by id descending
    assert evaluate(qrels, run, "AP@3").mean()["AP@3"] != pytest.approx(0.24074, abs=1e-5)


def test_spark_ndcg_with_relevance():
    # the suite's "NDCG with relevance": gains 2^rel - 1; every label counts as relevant for
    # MAP, grade 0 too (rel_level=0)
    qrels, run = spark_fixture(relevance=True)
    got = evaluate(
        qrels, run, ["AP", "nDCG@3", "nDCG@5", "nDCG@10"], compat="spark", gain="exponential",
        rel_level=0,
    ).mean()  # fmt: skip
    expected = {"AP": 0.355026, "nDCG@3": 0.511959, "nDCG@5": 0.487806, "nDCG@10": 0.518700}
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=1e-5), name


def test_spark_few_predictions_and_a_missing_query():
    # the suite's SPARK-14886 case: predictions [1, 6, 2] for labels 1-5, and an empty
    # prediction array for labels 1-3, which counts 0 (missing_queries="zero")
    qrels = Qrels.from_dict({"a": {str(d): 1 for d in range(1, 6)}, "b": {"1": 1, "2": 1, "3": 1}})
    run = Run.from_dict({"a": {"1": 1.0, "6": 1.0, "2": 1.0}})
    got = evaluate(qrels, run, ["P@1", "P@2", "nDCG@1", "nDCG@2", "R@1", "R@2"], compat="spark")
    expected = {"P@1": 0.5, "P@2": 0.25, "nDCG@1": 0.5, "nDCG@2": 0.30657, "R@1": 0.1, "R@2": 0.1}
    for name, value in expected.items():
        assert got.mean()[name] == pytest.approx(value, abs=1e-5), name


# ----------------------------------------------------------------- RecBole
def test_recbole_by_its_formulas():
    # recbole/evaluator/metrics.py: MAP@K divides by min(|R(u)|, K); NDCG@K has binary gains
    # and an ideal of min(|R(u)|, K) ones; Recall@K = hits / |R(u)|; every test user counts.
    # u1 ranks i1, i5, i3, i9, i2 (tied scores, list order kept); R(u1) = {i1, i3, i7}, i7
    # graded 2 and never ranked. u2 ranks i4, i2, i6 with R(u2) = {i6}. u3 has test items
    # but no list. K = 3.
    qrels = Qrels.from_dict(
        {"u1": {"i1": 1, "i3": 1, "i7": 2, "i5": 0}, "u2": {"i6": 1}, "u3": {"i8": 1}}
    )
    run = Run.from_dict(
        {
            "u1": {"i1": 0.9, "i5": 0.7, "i3": 0.7, "i9": 0.7, "i2": 0.1},
            "u2": {"i4": 0.5, "i2": 0.5, "i6": 0.5},
        }
    )
    got = evaluate(qrels, run, ["AP@3", "nDCG@3", "R@3", "P@3", "RR@3"], compat="recbole")
    pq = got.per_query
    # u1: relevant at ranks 1 and 3 -> MAP@3 = (1/1 + 2/3) / min(3, 3)
    assert pq["AP@3"]["u1"] == pytest.approx((1 + 2 / 3) / 3, rel=1e-15)
    # NDCG@3 = (1 + 1/log2(4)) / (1 + 1/log2(3) + 1/log2(4))
    ndcg_u1 = 1.5 / (1.5 + 1 / math.log2(3))
    assert pq["nDCG@3"]["u1"] == pytest.approx(ndcg_u1, rel=1e-12)
    # u2: relevant at rank 3 -> MAP@3 = (1/3) / min(1, 3); NDCG@3 = (1/log2(4)) / 1
    assert pq["AP@3"]["u2"] == pytest.approx(1 / 3, rel=1e-15)
    assert pq["nDCG@3"]["u2"] == pytest.approx(0.5, rel=1e-15)
    # means over the three users (u3 scores 0)
    assert got.mean()["AP@3"] == pytest.approx((5 / 9 + 1 / 3) / 3, rel=1e-12)
    assert got.mean()["nDCG@3"] == pytest.approx((ndcg_u1 + 0.5) / 3, rel=1e-12)
    assert got.mean()["R@3"] == pytest.approx((2 / 3 + 1) / 3, rel=1e-12)
    assert got.mean()["P@3"] == pytest.approx((2 / 3 + 1 / 3) / 3, rel=1e-12)
    assert got.mean()["RR@3"] == pytest.approx((1 + 1 / 3) / 3, rel=1e-12)
