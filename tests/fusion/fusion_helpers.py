"""Shared helpers of the fusion tests: random runs with ties, gaps and missing queries, and ranx."""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk


def random_runs(seed, n_runs=3, n_queries=6, pool=10, levels=4, missing_query=0.15):
    """Runs as dicts with tied scores (``levels`` distinct values), missing documents and queries."""
    rng = np.random.default_rng(seed)
    runs = [{} for _ in range(n_runs)]
    for q in range(n_queries):
        qid = f"q{q}"
        have = rng.random(n_runs) > missing_query
        if not have.any():
            have[rng.integers(n_runs)] = True
        for r in range(n_runs):
            if not have[r]:
                continue
            n = int(rng.integers(1, pool + 1))
            docs = rng.choice(pool, size=n, replace=False)
            scores = rng.integers(0, levels, size=n) / levels + rng.integers(0, 3)
            runs[r][qid] = {f"d{d}": float(s) for d, s in zip(docs, scores, strict=True)}
    return runs


def to_ranx(run: sk.Run, qids):
    """A ranx Run whose documents are in scorekit's rank order (ranx ranks by dict order).

    Built with ranx's own (unsorted) bulk constructor; a query the run lacks gets
    an empty result list, as ranx needs every run to hold the same queries.
    """
    ranx = pytest.importorskip("ranx")
    from numba.typed import List
    from ranx.data_structures.common import create_bulk

    d = run.to_dict()
    width = max(len(doc) for docs in d.values() for doc in docs)
    out = ranx.Run()
    out.run = create_bulk(
        List(sorted(qids)),
        List([np.array(list(d.get(q, {})), dtype=f"<U{width}") for q in sorted(qids)]),
        List([np.array(list(d.get(q, {}).values()), dtype=float) for q in sorted(qids)]),
    )
    out.sorted = True
    return out


def assert_same_fusion(ours: sk.Run, theirs, tol=1e-12):
    """Same documents per query, scores equal to ``tol``, ranx's order equal to ours up to ties.

    ranx sorts the fused scores with numba's (unstable) argsort, so within a
    group of equal scores its order is an accident of the sort; the groups are
    compared as sets: walking ranx's order, our scores never increase.
    """
    mine = ours.to_dict()
    ref = {q: dict(v) for q, v in theirs.run.items() if len(v)}
    assert set(mine) == set(ref)
    for q, docs in ref.items():
        assert set(mine[q]) == set(docs), q
        for doc, s in docs.items():
            assert abs(mine[q][doc] - s) <= tol * max(1.0, abs(s)), (q, doc, mine[q][doc], s)
        ranx_order = [mine[q][doc] for doc in docs]
        slack = [tol * max(1.0, abs(v)) for v in ranx_order]
        assert all(
            a >= b - e for a, b, e in zip(ranx_order, ranx_order[1:], slack, strict=False)
        ), q
