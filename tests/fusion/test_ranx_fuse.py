"""Differential tests: scorekit.fuse against ranx.fuse for every method and normalisation.

The runs are random with tied scores, documents missing from some runs and
queries missing from some runs (ranx gets an empty result list there, which
is how scorekit reads a missing query). ranx ranks a run's documents by the
order of its dict, so each ranx run is built in scorekit's rank order (score
descending, ties by document id descending); the fused documents must then
carry the same scores (1e-12) and ranx's order must be ours up to equal scores.
"""

from __future__ import annotations

import numpy as np
import pytest
from fusion_helpers import assert_same_fusion, random_runs, to_ranx

import scorekit as sk

ranx = pytest.importorskip("ranx")

pytestmark = [
    pytest.mark.reference,
    pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

NORMS = [None, "min-max", "max", "sum", "zmuv", "rank", "borda"]
SCORE_METHODS = {
    "sum": {},
    "mnz": {},
    "max": {},
    "min": {},
    "med": {},
    "anz": {},
    "gmnz": {"gamma": 0.7},
    "wsum": {"weights": [0.5, 0.2, 1.3]},
    "wmnz": {"weights": [0.5, 0.2, 1.3]},
    "mixed": {"weights": [0.5, 0.2, 1.3]},
}
RANK_METHODS = {
    "rrf": {"k": 7},
    "isr": {},
    "log_isr": {},
    "logn_isr": {"sigma": 0.3},
    "rbc": {"phi": 0.8},
    "bordafuse": {},
    "w_bordafuse": {"weights": [0.5, 0.2, 1.3]},
}


def _pair(seed, n_runs=3, norm=None, **kw):
    if norm == "zmuv":  # ranx's zmuv loses later queries after an empty list: no gaps there
        kw["missing_query"] = 0.0  # (docs/why-tools-disagree.md, "Fusion")
    dicts = random_runs(seed, n_runs=n_runs, **kw)
    ours = [sk.Run.from_dict(d) for d in dicts]
    qids = sorted({q for d in dicts for q in d})
    return ours, [to_ranx(r, qids) for r in ours], qids


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("method", list(SCORE_METHODS))
def test_score_methods_match_ranx(method, norm, seed):
    ours, theirs, _ = _pair(seed, norm=norm)
    params = SCORE_METHODS[method]
    got = sk.fuse(ours, method=method, norm=norm, params=params)
    assert_same_fusion(got, ranx.fuse(theirs, norm=norm, method=method, params=params))


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("norm", [n for n in NORMS if n != "borda"])
@pytest.mark.parametrize("method", list(RANK_METHODS))
def test_rank_methods_match_ranx(method, norm, seed):
    # with norm="borda" ranx re-inserts every run's documents in the order of a Python
    # set, so its ranks are hash order; see docs/why-tools-disagree.md
    ours, theirs, _ = _pair(seed, norm=norm)
    params = RANK_METHODS[method]
    got = sk.fuse(ours, method=method, norm=norm, params=params)
    assert_same_fusion(got, ranx.fuse(theirs, norm=norm, method=method, params=params))


def _qrels(qids, seed):
    rng = np.random.default_rng(seed + 100)
    return {q: {f"d{d}": int(rng.integers(0, 3)) for d in range(10)} for q in qids}


@pytest.mark.parametrize("seed", range(4))
def test_training_matches_ranx(seed):
    from ranx.fusion import (
        bayesfuse_train,
        mapfuse_train,
        posfuse_train,
        probfuse_train,
        segfuse_train,
        slidefuse_train,
    )

    from scorekit.fusion._train import train

    ours, theirs, qids = _pair(seed, pool=30)
    qd = _qrels(qids, seed)
    q_ours, q_ranx = sk.Qrels.from_dict(qd), ranx.Qrels(qd)
    cases = [
        ("probfuse", probfuse_train(q_ranx, theirs, 3), {"n_segments": 3}),
        ("segfuse", segfuse_train(q_ranx, theirs), {}),
        ("slidefuse", slidefuse_train(q_ranx, theirs), {}),
        ("posfuse", posfuse_train(q_ranx, theirs), {}),
        ("bayesfuse", bayesfuse_train(q_ranx, theirs), {}),
        ("mapfuse", mapfuse_train(q_ranx, theirs), {}),
    ]
    for method, expected, kw in cases:
        got = train(method, q_ours, ours, **kw)
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12, err_msg=method)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("norm", [None, "min-max", "zmuv"])
@pytest.mark.parametrize(
    "method", ["probfuse", "segfuse", "slidefuse", "posfuse", "mapfuse", "bayesfuse"]
)
def test_probabilistic_methods_match_ranx(method, norm, seed):
    ours, theirs, qids = _pair(seed, norm=norm, pool=30)
    qd = _qrels(qids, seed)
    q_ours = sk.Qrels.from_dict(qd)
    train_fn = getattr(ranx.fusion, f"{method}_train")
    args = (3,) if method == "probfuse" else ()
    trained = train_fn(ranx.Qrels(qd), theirs, *args)
    key = {"mapfuse": "map_scores", "bayesfuse": "log_odds"}.get(method, "probs")
    extra = {"w": 2} if method == "slidefuse" else {}
    expected = ranx.fuse(theirs, norm=norm, method=method, params={key: trained, **extra})
    given = sk.fuse(ours, method=method, norm=norm, params={key: list(trained), **extra})
    assert_same_fusion(given, expected)
    kw = {"n_segments": 3} if method == "probfuse" else {}
    trained_here = sk.fuse(ours, method=method, norm=norm, qrels=q_ours, **kw, **extra)
    assert_same_fusion(trained_here, expected, tol=1e-9)


def _transitive_queries(dicts, weights):
    """Queries where ranx's comparator is a strict total order (no cycle, no tied vote)."""
    keep = []
    for q in dicts[0]:
        lists = [list(d[q]) for d in dicts]
        docs = sorted(set().union(*lists))
        idx = [{doc: i for i, doc in enumerate(lst)} for lst in lists]

        def beats(x, y, idx=idx):
            v = sum(
                w for w, ix in zip(weights, idx, strict=True) if ix.get(x, 10**6) < ix.get(y, 10**6)
            )
            return v > sum(weights) - v

        ok = all(beats(x, y) != beats(y, x) for x in docs for y in docs if x != y)
        ok = ok and all(
            not (beats(x, y) and beats(y, z)) or beats(x, z)
            for x in docs
            for y in docs
            for z in docs
            if len({x, y, z}) == 3
        )
        if ok:
            keep.append(q)
    return keep


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_condorcet_matches_ranx_where_defined(seed, weighted):
    weights = [0.45, 0.35, 0.3] if weighted else [1, 1, 1]
    rng = np.random.default_rng(seed)
    base = rng.random((40, 6))  # every run ranks the same 6 documents: noisy copies of one order
    dicts = [
        {
            f"q{q}": {f"d{d}": float(base[q, d] + rng.normal(0, 0.2)) for d in range(6)}
            for q in range(40)
        }
        for _ in range(3)
    ]
    ours = [sk.Run.from_dict(d) for d in dicts]
    qids = sorted(dicts[0])
    ordered = [r.to_dict() for r in ours]
    keep = _transitive_queries(ordered, weights)
    assert len(keep) >= 5
    theirs = [to_ranx(r, qids) for r in ours]
    method = "w_condorcet" if weighted else "condorcet"
    params = {"weights": weights} if weighted else {}
    ref = ranx.fuse(theirs, norm=None, method=method, params=params)
    got = sk.fuse(ours, method=method, norm=None, params=params).to_dict()
    for q in keep:
        assert got[q] == dict(ref.run[q]), q
