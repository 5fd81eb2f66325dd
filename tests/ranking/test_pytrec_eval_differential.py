"""Differential test against pytrec_eval (trec_eval 9 compiled in) on random runs.

Random qrels and runs with heavy score ties, grades -1..3 (negative grades:
pooled but unjudged), queries only in the run, queries only in the qrels,
queries with no relevant document, at rel_level 1 and 2, with and without
judged_only. Every per-query value of every measure pytrec_eval supports is
compared to 1e-9.

Scores are multiples of 1/4, so they are exact in float32: pytrec_eval stores
scores as float32, which would merge scores that differ beyond float32
precision and change the order of ties.

Left to the trec_eval 10 conformance files (tests/ranking/test_trec_eval_conformance.py):
``iprec_at_recall`` and ``11pt_avg`` (trec_eval 9 truncates x·R + 0.9 to find
the recall level, trec_eval 10 rounds), ``Rprec_mult`` (float32 products of
x·R in pytrec_eval), ``runid`` and ``relstring`` (text), and ``rbp``,
``rbp_resid``, ``unj`` (not in pytrec_eval).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scorekit.ranking import Qrels, Run, evaluate

pytrec_eval = pytest.importorskip("pytrec_eval")

pytestmark = pytest.mark.reference

SKIPPED = {"iprec_at_recall", "11pt_avg", "Rprec_mult", "runid", "relstring"}
MEASURES = sorted(m for m in pytrec_eval.supported_measures if m not in SKIPPED)


def random_case(seed: int) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(30):
        qid = f"q{q}"
        pool = [f"d{i}" for i in rng.choice(150, size=50, replace=False)]
        if q % 7 != 3:  # q3, q10, ... are only in the run
            judged = rng.choice(
                pool + [f"x{i}" for i in range(15)], size=int(rng.integers(1, 35)), replace=False
            )
            grades = rng.integers(-1, 4, judged.size) if q % 5 else np.zeros(judged.size, int)
            qrels[qid] = {str(d): int(g) for d, g in zip(judged, grades, strict=True)}
        if q % 11 != 5:  # q5, q16, ... are only in the qrels
            n = int(rng.integers(1, 50))
            docs = rng.choice(pool, size=n, replace=False)
            run[qid] = {str(d): float(rng.integers(0, 8)) / 4 for d in docs}
    return qrels, run


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rel_level", [1, 2])
@pytest.mark.parametrize("judged_only", [False, True])
def test_every_per_query_value_matches(seed, rel_level, judged_only):
    qrels, run = random_case(seed)
    reference = pytrec_eval.RelevanceEvaluator(
        qrels, set(MEASURES), relevance_level=rel_level, judged_docs_only_flag=judged_only
    ).evaluate(run)
    ours = evaluate(
        Qrels.from_dict(qrels),
        Run.from_dict(run),
        MEASURES,
        rel_level=rel_level,
        judged_only=judged_only,
    ).per_query
    assert set(ours["map"]) == set(reference)
    compared = 0
    for qid, values in reference.items():
        for name, expected in values.items():
            got = ours[name][qid]
            if name in ("gm_map", "gm_bpref"):  # pytrec_eval keeps log(max(value, 1e-5))
                got = math.log(max(got, 1e-5))
            assert got == pytest.approx(expected, abs=1e-9, rel=0), (qid, name)
            compared += 1
    assert compared > 1000


def test_case_has_ties_missing_queries_and_empty_relevance():
    qrels, run = random_case(0)
    assert set(run) - set(qrels)
    assert set(qrels) - set(run)
    assert any(all(g < 1 for g in docs.values()) for docs in qrels.values())
    assert any(len(set(docs.values())) < len(docs) for docs in run.values())
