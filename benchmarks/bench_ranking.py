"""Ranking engine: scorekit.evaluate vs ranx (prepared inputs) and pytrec_eval (from TREC files).

Data: ``--queries`` queries (default 10,000) x ``--docs`` retrieved documents
(default 1,000) drawn from a collection of 1,000,003 ids, scores with 4
decimals (so some ties), and 20 judgments a query (15 retrieved, 5 not,
grades 0-2). Measures: nDCG@10, AP, RR, P@10, R@100.

(a) prepared inputs: ``evaluate(qrels, run, ...)`` on Qrels/Run built from
    arrays, vs ``ranx.evaluate`` on ranx Qrels/Run built from the same data
    (after a warm-up call that compiles ranx's numba code).
(b) from TREC files to numbers (targets: >= 5x pytrec_eval, >= 1x the C binary):
    ``Run.from_trec`` + ``Qrels.from_trec`` +
    ``evaluate`` vs pytrec_eval's own readers (``parse_run``/``parse_qrel``)
    + ``RelevanceEvaluator``; both parse the same files in a temp dir.
    (b') the same with the run file's lines shuffled (no rank order to exploit).
    Both also against the trec_eval 10 C binary (one process per call, the same
    five measures; ``trec_eval`` on PATH or ``~/.cache/scorekit/trec_eval/trec_eval``,
    else that line is skipped with a note).

(c) the cost of ERR@20 + RBP: the kernels of ``ERR@20`` and ``RBP`` on the
    joined state, against those of the five measures above (same state; the
    join is shared and not timed). The issue's target: a ratio below 1.

The |diff| column compares the nDCG@10 means (ranx breaks score ties its own
way, hence its small difference). Develop with ``--queries 1000``; ``--parts a``
or ``--parts b`` runs one comparison.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _harness import best_time, compare, parser, peak_rss_mib
from scorekit.ranking import Qrels, Run, evaluate
from scorekit.ranking._evaluate import compute, ranked_state
from scorekit.ranking._parse import parse_requests

MEASURES = ["nDCG@10", "AP", "RR", "P@10", "R@100"]
CACHED = os.path.expanduser("~/.cache/scorekit/trec_eval/trec_eval")


def trec_eval_binary() -> str | None:
    """The trec_eval C binary: on PATH, else the cached build, else None."""
    found = shutil.which("trec_eval")
    if found:
        return found
    return CACHED if os.access(CACHED, os.X_OK) else None


RANX = ["ndcg@10", "map", "mrr", "precision@10", "recall@100"]
PYTREC = {"ndcg_cut.10", "map", "recip_rank", "P.10", "recall.100"}
EXTRA = ["ERR@20", "RBP"]
COLLECTION = 1_000_003
PYTREC_TARGET = 5.0  # issue 14: TREC files to numbers >= 5x pytrec_eval ...
BINARY_TARGET = 1.0  # ... and faster than the trec_eval 10 C binary


def generate(n_q: int, n_d: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    base = rng.integers(0, COLLECTION, n_q)
    step = rng.integers(1, COLLECTION - 1, n_q)
    j = np.arange(n_d)
    docs = (base[:, None] + j[None, :] * step[:, None]) % COLLECTION  # distinct per query
    scores = np.round(rng.random((n_q, n_d)) * 20, 4)
    judged = np.concatenate(
        [
            docs[:, :15],
            (base[:, None] + (n_d + np.arange(5))[None, :] * step[:, None]) % COLLECTION,
        ],
        axis=1,
    )
    take = np.argsort(rng.random((n_q, n_d)), axis=1)[:, :15]  # 15 retrieved docs at random ranks
    judged[:, :15] = np.take_along_axis(docs, take, 1)
    grades = rng.integers(0, 3, judged.shape)
    qid = np.repeat(np.arange(n_q), n_d)
    return {
        "run": (qid, docs.ravel(), scores.ravel()),
        "qrels": (np.repeat(np.arange(n_q), judged.shape[1]), judged.ravel(), grades.ravel()),
    }


def _ids(prefix: str, values: np.ndarray) -> np.ndarray:
    return np.char.add(prefix, values.astype("U"))


def write_files(data: dict[str, Any], folder: str, shuffle: bool, seed: int) -> tuple[str, str]:
    q, d, s = data["run"]
    order = np.argsort(-s, kind="stable")
    order = order[np.argsort(q[order], kind="stable")]  # by query, then rank
    if shuffle:
        order = np.random.default_rng(seed).permutation(q.size)
    rank = np.empty(q.size, np.int64)
    rank[np.lexsort((-s, q))] = np.tile(np.arange(1, (q == 0).sum() + 1), q.max() + 1)
    run_path = os.path.join(folder, "shuffled.run" if shuffle else "run.txt")
    lines = (
        f"{a} Q0 d{b} {c} {e:.4f} bench\n"
        for a, b, c, e in zip(
            q[order].tolist(),
            d[order].tolist(),
            rank[order].tolist(),
            s[order].tolist(),
            strict=True,
        )
    )
    with open(run_path, "w") as f:
        f.writelines(lines)
    qq, qd, qg = data["qrels"]
    qrels_path = os.path.join(folder, "qrels.txt")
    with open(qrels_path, "w") as f:
        f.writelines(
            f"{a} 0 d{b} {c}\n"
            for a, b, c in zip(qq.tolist(), qd.tolist(), qg.tolist(), strict=True)
        )
    return run_path, qrels_path


def nested(q: np.ndarray, d: np.ndarray, v: np.ndarray, cast: Any) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for a, b, c in zip(q.tolist(), d.tolist(), v.tolist(), strict=True):
        out.setdefault(str(a), {})[f"d{b}"] = cast(c)
    return out


def main() -> None:
    p = parser("scorekit.evaluate vs ranx and pytrec_eval", rows=10_000_000)
    p.add_argument("--queries", type=int, default=None, help="default: rows / docs (10,000)")
    p.add_argument("--docs", type=int, default=1_000, help="documents per query")
    p.add_argument(
        "--parts", default="abc", help="a (ranx), b (TREC files), c (cost of ERR@20 + RBP)"
    )
    args = p.parse_args()
    n_d = args.docs
    n_q = args.queries or max(1, args.rows // n_d)
    n_rows = n_q * n_d
    print(f"ranking: {n_q:,} queries x {n_d:,} documents = {n_rows:,} run rows")
    data = generate(n_q, n_d, args.seed)
    q, d, s = data["run"]
    qq, qd, qg = data["qrels"]
    run = Run.from_arrays(q, _ids("d", d), s)
    qrels = Qrels.from_arrays(qq, _ids("d", qd), qg)

    def ours() -> float:
        return evaluate(qrels, run, MEASURES).mean()["nDCG@10"]

    ranx_fn = None
    try:
        if "a" not in args.parts:
            raise ImportError
        import ranx

        r_qrels = ranx.Qrels(nested(qq, qd, qg, int))
        r_run = ranx.Run(nested(q, d, s, float))
        small_q = ranx.Qrels({"q": {"a": 1}})
        ranx.evaluate(small_q, ranx.Run({"q": {"a": 1.0, "b": 0.5}}), RANX)  # JIT warm-up

        def ranx_fn() -> float:
            return float(ranx.evaluate(r_qrels, r_run, RANX)["ndcg@10"])
    except ImportError:
        if "a" in args.parts:
            print("ranx not installed: (a) runs scorekit only")
    if "a" in args.parts:
        compare("(a) prepared inputs", ours, ranx_fn, "ranx", repeat=args.repeat)

    if "b" in args.parts:
        import pytrec_eval

        with tempfile.TemporaryDirectory() as folder:
            for shuffle in (False, True):
                run_path, qrels_path = write_files(data, folder, shuffle, args.seed)

                def ours_files(run_path: str = run_path, qrels_path: str = qrels_path) -> float:
                    res = evaluate(Qrels.from_trec(qrels_path), Run.from_trec(run_path), MEASURES)
                    return res.mean()["nDCG@10"]

                def pytrec(run_path: str = run_path, qrels_path: str = qrels_path) -> float:
                    with open(qrels_path) as f:
                        pq = pytrec_eval.parse_qrel(f)
                    with open(run_path) as f:
                        pr = pytrec_eval.parse_run(f)
                    per_q = pytrec_eval.RelevanceEvaluator(pq, PYTREC).evaluate(pr)
                    return float(np.mean([v["ndcg_cut_10"] for v in per_q.values()]))

                label = "(b') TREC files, shuffled" if shuffle else "(b) TREC files to numbers"
                compare(
                    label,
                    ours_files,
                    pytrec,
                    "pytrec_eval",
                    repeat=args.repeat,
                    ref_repeat=1,
                    target=PYTREC_TARGET,
                    rows=n_rows,
                )
                binary = trec_eval_binary()
                if binary is None:
                    print(
                        f"{label} vs trec_eval C (target >= {BINARY_TARGET:g}x): binary not "
                        f"found (PATH or {CACHED}): skipped"
                    )
                    continue

                def c_binary(
                    run_path: str = run_path, qrels_path: str = qrels_path, binary: str = binary
                ) -> float:
                    flags = [x for m in sorted(PYTREC) for x in ("-m", m)]
                    out = subprocess.run(
                        [binary, *flags, qrels_path, run_path],
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                    return float(
                        next(ln for ln in out.splitlines() if "ndcg_cut_10" in ln).split()[-1]
                    )

                compare(
                    label,
                    ours_files,
                    c_binary,
                    "trec_eval C",
                    repeat=args.repeat,
                    ref_repeat=1,
                    target=BINARY_TARGET,
                    rows=n_rows,
                )

    if "c" in args.parts:
        state = ranked_state(qrels, run)
        base, extra = parse_requests(MEASURES), parse_requests(EXTRA)
        t_base, _ = best_time(lambda: compute(state, base), args.repeat)
        t_extra, _ = best_time(lambda: compute(state, extra), args.repeat)
        print(
            f"{'(c) kernels on one state':<34} {' + '.join(EXTRA)} {t_extra:.4f} s   "
            f"{' + '.join(MEASURES)} {t_base:.4f} s   ratio {t_extra / t_base:.2f}",
            flush=True,
        )
    print(f"peak RSS {peak_rss_mib():.0f} MiB (machine shared: times are indicative)")


if __name__ == "__main__":
    main()
