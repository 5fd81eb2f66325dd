"""Run fusion: scorekit.fuse vs ranx.fuse (after its numba JIT warm-up), and the fused run's evaluation.

Data: ``--runs`` runs (default 3) of ``--queries`` queries (default 10,000) x
``--docs`` documents (default 1,000). Each query has a pool of 1.5 x docs
candidate ids; every run retrieves its own random ``docs`` of them, so runs
overlap partly and each document is missing from some runs. Scores have 4
decimals (some ties). 20 judgments per query, grades 0-2.

Timed: RRF (k=60, no normalisation) and CombMNZ with min-max normalisation,
from prepared runs to the fused run; then the fused RRF run evaluated
(nDCG@10, AP, RR, P@10) by ``scorekit.evaluate`` and ``ranx.evaluate`` (fuse +
evaluate is the pipeline a user runs, whose total is the last line). The
two fusion lines and the pipeline carry the target: >= 5x ranx. The ranx runs are built from the same
arrays without Python dicts (ranx's bulk constructor). ranx keeps its runs
as typed dicts, about 2 GB per 1,000 queries of this workload (some 20 GB at
the default 10,000): on a small machine ``--ranx-queries 1000`` times ranx on
the first 1,000 queries and multiplies its times by 10 (ranx works query by
query, so its time is linear in the queries; the lines say "extrapolated").
Develop with ``--queries 500``; the machine is shared.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import itertools

from _harness import ROWS, compare, parser, peak_rss_mib, record
from scorekit import Qrels, Run, evaluate, fuse

MEASURES = ["nDCG@10", "AP", "RR", "P@10"]
RANX = ["ndcg@10", "map", "mrr", "precision@10"]
TARGET = 5.0  # issue 17: fusion >= 5x ranx (after its JIT warm-up)


def generate(n_runs: int, n_q: int, n_d: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    pool = n_d * 3 // 2
    qid = np.repeat(np.arange(n_q), n_d)
    runs = []
    for _ in range(n_runs):
        pick = np.argsort(rng.random((n_q, pool)), axis=1)[:, :n_d]  # n_d of the pool per query
        docs = pick + (np.arange(n_q) * pool)[:, None]
        scores = np.round(rng.random((n_q, n_d)) * 20, 4)
        runs.append((qid, docs.ravel(), scores.ravel()))
    judged = np.argsort(rng.random((n_q, pool)), axis=1)[:, :20] + (np.arange(n_q) * pool)[:, None]
    qrels = (np.repeat(np.arange(n_q), 20), judged.ravel(), rng.integers(0, 3, judged.size))
    return {"runs": runs, "qrels": qrels}


def _ids(values: np.ndarray) -> np.ndarray:
    return np.char.add("d", values.astype("U"))


def ranx_run(q: np.ndarray, d: np.ndarray, s: np.ndarray) -> Any:
    """A ranx Run from arrays through its bulk constructor (rows grouped by query)."""
    import ranx
    from numba.typed import List
    from ranx.data_structures.common import create_and_sort

    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    bounds = np.r_[starts, q.size]
    ids = _ids(d)
    out = ranx.Run()
    out.run = create_and_sort(
        List([str(v) for v in q[starts].tolist()]),
        List([ids[a:b] for a, b in itertools.pairwise(bounds)]),
        List([s[a:b].astype(float) for a, b in itertools.pairwise(bounds)]),
    )
    out.sorted = True
    return out


def ranx_ndcg(qrels: Any, run: Any, scale: float) -> Any:
    """ranx's mean nDCG@10 (all its measures when it saw a subset: no |diff| is then shown)."""
    import ranx

    out = ranx.evaluate(qrels, run, RANX)
    return out["ndcg@10"] if scale == 1 else out


def main() -> None:
    p = parser("scorekit.fuse vs ranx.fuse", rows=10_000_000)
    p.add_argument("--queries", type=int, default=None, help="default: rows / docs (10,000)")
    p.add_argument("--docs", type=int, default=1_000, help="documents per query and run")
    p.add_argument("--runs", type=int, default=3, help="number of runs fused")
    p.add_argument(
        "--ranx-queries",
        type=int,
        default=1000,
        help="time ranx on the first N queries only and scale its times by queries / N "
        "(default 1,000: ranx holds every run as typed dicts, about 2 GB per 1,000 "
        "queries here, so all 10,000 would need ~20 GB; 0: every query)",
    )
    args = p.parse_args()
    n_d = args.docs
    n_q = args.queries or max(1, args.rows // n_d)
    r_q = min(n_q, args.ranx_queries or n_q)
    scale = n_q / r_q  # ranx's work is per query: its time scales with the queries
    print(f"fusion: {args.runs} runs x {n_q:,} queries x {n_d:,} documents")
    data = generate(args.runs, n_q, n_d, args.seed)
    runs = [Run.from_arrays(q, _ids(d), s) for q, d, s in data["runs"]]
    qq, qd, qg = data["qrels"]
    qrels = Qrels.from_arrays(qq, _ids(qd), qg)

    ranx: Any = None
    try:
        import ranx  # type: ignore[no-redef]

        warnings.simplefilter("ignore")
        if r_q < n_q:
            print(f"ranx: first {r_q:,} queries, times x{scale:g}")
        cut = r_q * n_d  # rows are grouped by query, queries 0, 1, 2, ...
        r_runs = [ranx_run(q[:cut], d[:cut], s[:cut]) for q, d, s in data["runs"]]
        r_qrels: dict[str, dict[str, int]] = {}
        sub = qq < r_q
        for a, b, c in zip(qq[sub].tolist(), _ids(qd[sub]).tolist(), qg[sub].tolist(), strict=True):
            r_qrels.setdefault(str(a), {})[b] = int(c)
        r_qrels = ranx.Qrels(r_qrels)
        # JIT warm-up on two queries built the same way (same numba types as the timed calls)
        tiny = [ranx_run(q[: 2 * n_d], d[: 2 * n_d], s[: 2 * n_d]) for q, d, s in data["runs"]]
        for method, norm in (("rrf", None), ("mnz", "min-max")):
            warm = ranx.fuse(tiny, norm=norm, method=method)
        ranx.evaluate(r_qrels, warm, RANX, make_comparable=True)
    except ImportError:
        print("ranx not installed: scorekit only")

    def ref(fn: Any) -> Any:
        return None if ranx is None else fn

    compare(
        "RRF (k=60)",
        lambda: fuse(runs, method="rrf", norm=None),
        ref(lambda: ranx.fuse(r_runs, norm=None, method="rrf")),
        "ranx",
        repeat=args.repeat,
        ref_scale=scale,
        target=TARGET,
        target_text=f">= {TARGET:g}x ranx",
    )
    compare(
        "CombMNZ (min-max)",
        lambda: fuse(runs, method="mnz", norm="min-max"),
        ref(lambda: ranx.fuse(r_runs, norm="min-max", method="mnz")),
        "ranx",
        repeat=args.repeat,
        ref_scale=scale,
        target=TARGET,
        target_text=f">= {TARGET:g}x ranx",
    )
    fused = fuse(runs, method="rrf", norm=None)
    r_fused = None if ranx is None else ranx.fuse(r_runs, norm=None, method="rrf")
    compare(
        "evaluate fused RRF run",
        lambda: evaluate(qrels, fused, MEASURES).mean()["nDCG@10"],
        ref(lambda: ranx_ndcg(r_qrels, r_fused, scale)),
        "ranx",
        repeat=args.repeat,
        ref_scale=scale,
    )
    (_, f_ours, f_ref, _), (_, e_ours, e_ref, _) = ROWS[0], ROWS[2]
    if f_ref is not None and e_ref is not None:  # the pipeline: fuse with RRF, evaluate the result
        record(
            "RRF fuse + evaluate (sum of the above)",
            f_ours + e_ours,
            ref_name="ranx",
            ref_seconds=f_ref + e_ref,
            target=TARGET,
            target_text=f">= {TARGET:g}x ranx",
        )
    print(f"peak RSS {peak_rss_mib():.0f} MiB (machine shared: times are indicative)")


if __name__ == "__main__":
    main()
