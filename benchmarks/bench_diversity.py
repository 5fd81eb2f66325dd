"""Diversity measures: scorekit alpha-nDCG@20 vs pyndeval (ndeval.c) on the same data.

Data: ``--queries`` queries (default 10,000) x ``--docs`` retrieved documents
(default 1,000), scores with 4 decimals (some ties), and subtopic qrels of 6
subtopics a query, 30 judged documents each (20 retrieved at random ranks, 10
not), each judged relevant (grade 1) to 1-3 subtopics or to none (grade 0).

Lines:

- ``alpha-nDCG@20``: ``evaluate(SubtopicQrels, Run, ["alpha_nDCG@20"])`` on
  prepared inputs vs ``pyndeval.ndeval`` (ndeval.c per query, fed Python
  tuples) on ``--ref-queries`` queries, extrapolated to all of them;
- ``all ndeval measures``: the 9 families at @5, @10, @20 (ndeval's output);
- the issue-16 budget: what adding ERR@20, RBP and alpha-nDCG@20 to nDCG@10 +
  AP + RR + P@10 + R@100 costs (one ``evaluate`` with subtopic qrels, minus the
  five on the document-level qrels), against the five (ratio > 1: the
  addition is cheaper).

The |diff| column compares the means (pyndeval on its subset of queries).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _harness import best_time, compare, parser, peak_rss_mib, record
from scorekit.ranking import Run, SubtopicQrels, evaluate

NDEVAL = [
    f"{m}@{k}"
    for m in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG", "P-IA", "strec")
    for k in (5, 10, 20)
] + ["NRBP", "nNRBP", "MAP-IA"]
BASE = ["nDCG@10", "AP", "RR", "P@10", "R@100"]
ADDED = ["ERR@20", "RBP", "alpha_nDCG@20"]


def generate(n_q: int, n_d: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    docs = np.tile(np.arange(n_d), (n_q, 1)) + rng.integers(0, 10, (n_q, 1)) * n_d
    scores = np.round(rng.random((n_q, n_d)) * 20, 4)
    judged = np.concatenate(
        [
            np.argsort(rng.random((n_q, n_d)), axis=1)[:, :20],
            np.tile(n_d * 20 + np.arange(10), (n_q, 1)),
        ],
        axis=1,
    )
    judged[:, :20] = np.take_along_axis(docs, judged[:, :20], 1)
    n_j = judged.shape[1]
    covers = rng.random((n_q, n_j, 6)) < rng.choice([0.0, 0.2, 0.4], (n_q, n_j, 1))
    qi, ji, si = np.nonzero(covers | (np.arange(6) == 0)[None, None, :])
    grade = covers[qi, ji, si].astype(np.int64)
    return {
        "run": (np.repeat(np.arange(n_q), n_d), docs.ravel(), scores.ravel()),
        "qrels": (qi, si + 1, judged[qi, ji], grade),
    }


def _qid(q: np.ndarray) -> np.ndarray:
    return np.char.add("q", np.char.zfill(q.astype("U"), 6))


def main() -> None:
    p = parser("scorekit diversity measures vs pyndeval", rows=10_000_000)
    p.add_argument("--queries", type=int, default=None, help="default: rows / docs (10,000)")
    p.add_argument("--docs", type=int, default=1_000, help="documents per query")
    p.add_argument(
        "--ref-queries", type=int, default=500, help="queries given to pyndeval (0: skip it)"
    )
    args = p.parse_args()
    n_d = args.docs
    n_q = args.queries or max(1, args.rows // n_d)
    print(f"diversity: {n_q:,} queries x {n_d:,} documents = {n_q * n_d:,} run rows")
    data = generate(n_q, n_d, args.seed)
    q, d, s = data["run"]
    qq, qs, qd, qg = data["qrels"]
    run = Run.from_arrays(_qid(q), np.char.add("d", d.astype("U")), s)
    sq = SubtopicQrels.from_arrays(_qid(qq), qs, np.char.add("d", qd.astype("U")), qg)
    print(f"subtopic qrels: {len(sq):,} judgments")

    ref = None
    n_ref = min(n_q, args.ref_queries)  # the first queries (ids are zero-padded: byte order)

    try:
        if n_ref == 0:
            raise ImportError
        import pyndeval

        keep = qq < n_ref
        ref_qrels = [
            pyndeval.SubtopicQrel(f"q{a:06d}", str(b), f"d{c}", int(g))
            for a, b, c, g in zip(qq[keep], qs[keep], qd[keep], qg[keep], strict=True)
        ]
        rows = q < n_ref
        ref_run = [
            pyndeval.ScoredDoc(f"q{a:06d}", f"d{b}", float(c))
            for a, b, c in zip(q[rows], d[rows], s[rows], strict=True)
        ]

        def ref() -> float:
            out = pyndeval.ndeval(ref_qrels, ref_run, ["alpha-nDCG@20"])
            return float(np.mean([v["alpha-nDCG@20"] for v in out.values()]))

        def ref_all() -> float:
            out = pyndeval.ndeval(ref_qrels, ref_run, NDEVAL)
            return float(np.mean([v["alpha-nDCG@20"] for v in out.values()]))
    except ImportError:
        print("pyndeval not installed or --ref-queries 0: scorekit only")
        ref = ref_all = None  # type: ignore[assignment]

    def ours() -> float:  # the mean over pyndeval's queries, for the |diff| column
        res = evaluate(sq, run, ["alpha_nDCG@20"], ties="docid_asc")
        return float(res.array("alpha_nDCG@20")[: max(n_ref, 1)].mean())

    def ours_all() -> float:
        res = evaluate(sq, run, NDEVAL, ties="docid_asc")
        return float(res.array("alpha-nDCG@20")[: max(n_ref, 1)].mean())

    scale = n_q / max(n_ref, 1)
    compare(
        "alpha-nDCG@20", ours, ref, "pyndeval", repeat=args.repeat, ref_repeat=1, ref_scale=scale
    )
    compare(
        "all ndeval measures",
        ours_all,
        ref_all,
        "pyndeval",
        repeat=args.repeat,
        ref_repeat=1,
        ref_scale=scale,
    )
    qrels = sq.to_qrels()

    def base() -> float:
        return evaluate(qrels, run, BASE).mean()["AP"]

    def both() -> float:
        return evaluate(sq, run, [*BASE, *ADDED]).mean()["AP"]

    t_base = t_both = float("inf")
    for _ in range(max(1, args.repeat)):  # interleaved: both see the same machine load
        t_base = min(t_base, best_time(base, 1)[0])
        t_both = min(t_both, best_time(both, 1)[0])
    added = max(t_both - t_base, 1e-9)
    record(
        "+ ERR@20, RBP, alpha-nDCG@20 (added cost)",
        added,
        ref_name="the 5 base measures",
        ref_seconds=t_base,
        target=1.0,
        target_text="added cost < the 5 base measures",
        note=f"{n_q:,} queries x {n_d:,} docs; with them {t_both:.3g} s",
    )
    print(f"peak RSS {peak_rss_mib():.0f} MiB (machine shared: times are indicative)")


if __name__ == "__main__":
    main()
