"""Per-query values equal ir_measures 0.4's providers on random graded qrels and runs.

Each measure is written as ir_measures writes it and given, unchanged, to both
tools. Queries: graded and negative judgments, tied scores, qrels queries the
run misses and run queries the qrels miss. Tie order: each provider's own
(gdeval and pytrec_eval: document id descending, scorekit's default; the
judged provider: ascending; cwl_eval: the run's input order). gdeval prints 5
decimals; the others are compared to 1e-9.
"""

from __future__ import annotations

import numpy as np
import pytest

from scorekit.ranking import Qrels, Run, evaluate

irm = pytest.importorskip("ir_measures")

# (measure as written, provider, ties=, tolerance)
CASES = [
    ("ERR@20", "gdeval", "docid_desc", 5e-6),
    ("ERR@5", "gdeval", "docid_desc", 5e-6),
    ("nDCG(dcg='exp-log2')@10", "gdeval", "docid_desc", 5e-6),
    ("Judged@5", "judged", "docid_asc", 1e-9),
    ("Judged@20", "judged", "docid_asc", 1e-9),
    ("RBP(rel=1)", "cwl_eval", "input_order", 1e-9),
    ("RBP(rel=2,p=0.5)", "cwl_eval", "input_order", 1e-9),
    ("SDCG(max_rel=4)@10", "cwl_eval", "input_order", 1e-9),
    ("SDCG(min_rel=1,max_rel=3)@5", "cwl_eval", "input_order", 1e-9),
    ("P(rel=2)@5", "pytrec_eval", "docid_desc", 1e-9),
    ("AP(rel=2)", "pytrec_eval", "docid_desc", 1e-9),
    ("AP(judged_only=True)@10", "pytrec_eval", "docid_desc", 1e-9),
    ("nDCG(judged_only=True)@10", "pytrec_eval", "docid_desc", 1e-9),
    ("nDCG(gains={0:0,1:1,2:5,3:7,4:10})@10", "pytrec_eval", "docid_desc", 1e-9),
    ("R(judged_only=True)@10", "pytrec_eval", "docid_desc", 1e-9),
    ("RR(rel=2)", "pytrec_eval", "docid_desc", 1e-9),
    ("Rprec(rel=2)", "pytrec_eval", "docid_desc", 1e-9),
    ("Bpref(rel=2)", "pytrec_eval", "docid_desc", 1e-9),
    ("SetF(rel=2,beta=0.5)", "pytrec_eval", "docid_desc", 1e-9),
    ("Success(rel=2)@3", "pytrec_eval", "docid_desc", 1e-9),
    ("infAP", "pytrec_eval", "docid_desc", 1e-9),
    ("NERR8(max_rel=4)@10", "cwl_eval", "input_order", 1e-9),
    ("NERR9(min_rel=1,max_rel=3)@5", "cwl_eval", "input_order", 1e-9),
    ("NERR10(max_rel=4,p=0.8)", "cwl_eval", "input_order", 1e-9),
    ("NERR11(max_rel=4,T=2)", "cwl_eval", "input_order", 1e-9),
    ("INST(max_rel=4)", "cwl_eval", "input_order", 1e-9),
    ("INSQ(max_rel=3,T=2.5)", "cwl_eval", "input_order", 1e-9),
    ("Compat", "compat", "docid_asc", 1e-9),
    ("Compat(p=0.8,normalize=False)", "compat", "docid_asc", 1e-9),
]


def random_case(seed):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(1, int(rng.integers(2, 8))):
        qid = str(q)  # gdeval reads numeric topics only
        docs = [f"d{i}" for i in range(int(rng.integers(1, 25)))]
        if rng.random() < 0.9:
            judged = {d: int(rng.integers(-1, 5)) for d in docs if rng.random() < 0.6}
            if judged:
                qrels[qid] = judged
        if rng.random() < 0.9:
            ranked = {d: float(rng.integers(0, 6)) for d in docs if rng.random() < 0.8}
            if ranked:
                run[qid] = ranked
    if not set(qrels) & set(run):
        qrels["1"], run["1"] = {"d0": 1}, {"d0": 1.0}
    return qrels, run


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("name", "provider", "ties", "tol"), CASES, ids=[c[0] for c in CASES])
def test_per_query_equals_ir_measures(seed, name, provider, ties, tol):
    qrels, run = random_case(seed)
    if provider == "compat":
        # its ideal ranking breaks equal grades by run score (unretrieved: 0.0), then by
        # the qrels' order: positive scores and qrels in id order make that scorekit's order
        qrels = {q: dict(sorted(docs.items())) for q, docs in qrels.items()}
        run = {q: {d: s + 1.0 for d, s in docs.items()} for q, docs in run.items()}
    measure = irm.parse_measure(name)
    ref = {m.query_id: float(m.value) for m in irm.providers.registry[provider].iter_calc(
        [measure], qrels, run)}  # fmt: skip
    q, r = Qrels.from_dict(qrels), Run.from_dict(run)
    # ir_measures scores a qrels query the run misses 0
    got = evaluate(q, r, name, ties=ties, missing_queries="zero").per_query[name]
    assert set(ref) <= set(got)
    for qid, value in ref.items():
        if provider == "gdeval":  # its printed precision, rounded as C's printf rounds
            assert f"{got[qid]:.5f}" == f"{value:.5f}", qid
        else:
            assert got[qid] == pytest.approx(value, abs=tol), qid
    # queries the reference leaves out: gdeval skips those without a positive judgment
    for qid in set(got) - set(ref):
        assert provider == "gdeval"
        assert not any(g > 0 for g in qrels[qid].values())
