"""ranx's measure names, given unchanged to scorekit with compat="ranx", equal ranx per query.

Random graded qrels (grades 0-3), tied scores, relevant documents never
retrieved, at most 15 documents per query (see docs/why-tools-disagree.md for
ranx's tie order beyond 15: numba's quicksort). Both tools get the same
strings; ranx's own names include ``hit_rate@k`` (the share of queries with
a hit, scorekit's ``success@k``), which the ranx preset maps.
"""

from __future__ import annotations

import numpy as np
import pytest

from scorekit.ranking import Qrels, Run, evaluate

ranx = pytest.importorskip("ranx")

pytestmark = [
    pytest.mark.reference,
    pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

NAMES = [
    "hits@5", "hit_rate@5", "precision@5", "recall@10", "f1@5", "r-precision", "mrr",
    "mrr@3", "map", "map@10", "ndcg@10", "ndcg_burges@10", "dcg@5", "dcg_burges@5", "ndcg",
]  # fmt: skip


def random_case(seed):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(int(rng.integers(2, 9))):
        docs = [f"d{i}" for i in range(20)]
        judged = {d: int(rng.integers(0, 4)) for d in docs if rng.random() < 0.4}
        judged.setdefault("d0", 1)
        qrels[f"q{q}"] = judged
        n = int(rng.integers(1, 16))
        ranked = rng.choice(docs, size=n, replace=False)
        run[f"q{q}"] = {str(d): float(rng.integers(0, 4)) for d in ranked}
    return qrels, run


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("level", [1, 2])
def test_ranx_names_per_query(seed, level):
    qrels, run = random_case(seed)
    suffix = "" if level == 1 else f"-l{level}"  # ranx's relevance level is part of the name
    ref = ranx.evaluate(
        ranx.Qrels(qrels), ranx.Run(run), [n + suffix for n in NAMES], return_mean=False
    )
    got = evaluate(
        Qrels.from_dict(qrels), Run.from_dict(run), NAMES, compat="ranx", rel_level=level
    ).per_query
    for name in NAMES:
        ours = [got[name][q] for q in sorted(qrels)]
        assert ours == pytest.approx(list(ref[name + suffix]), abs=1e-9), name


def test_numba_argsort_port_equals_numba():
    numba = pytest.importorskip("numba")
    from scorekit.ranking._ranx_order import numba_argsort

    compiled = numba.njit(lambda x: np.argsort(x))
    rng = np.random.default_rng(0)
    for n in [0, 1, 2, 15, 16, 17, 40, 300, 1000]:
        for _ in range(5):
            x = -rng.integers(0, max(2, n // 4 + 1), size=n).astype(np.float64)
            assert numba_argsort(x).tolist() == compiled(x).tolist()


@pytest.mark.parametrize("seed", range(4))
def test_more_than_15_tied_documents(seed):
    # the case: recall@20 0.2808 vs ranx 0.2758 came from ranking ties in input order
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(20):
        docs = [f"d{i}" for i in range(int(rng.integers(10, 60)))]
        qrels[f"q{q}"] = {d: int(rng.integers(0, 4)) for d in docs if rng.random() < 0.5}
        qrels[f"q{q}"].setdefault("d0", 1)
        run[f"q{q}"] = {d: float(rng.integers(0, 6)) for d in docs if rng.random() < 0.8}
    names = ["recall@20", "bpref", "ndcg@10", "map", "mrr", "precision@10"]
    ref = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), names, return_mean=False)
    got = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), names, compat="ranx").per_query
    for name in names:
        for q, theirs in zip(sorted(qrels), ref[name], strict=True):
            if np.isnan(theirs):  # ranx's bpref is 0/0 without judged non-relevant documents
                assert name == "bpref"
                assert min(qrels[q].values()) >= 1
                continue
            assert got[name][q] == pytest.approx(theirs, abs=1e-12), (name, q)
