"""Silhouette score: scorekit against scikit-learn, time and peak memory.

Each side runs in its own subprocess on the same generated blobs (20k points
× 16 features, 10 clusters by default), so neither pollutes the other's
memory figures. Printed per side: the best wall time of ``--repeat`` runs, the
peak of memory allocated during one call (tracemalloc, which NumPy reports to)
and the growth of the peak resident set size over the call.

scikit-learn reduces distances in chunks of up to ``working_memory`` (1 GiB
by default); scorekit in blocks of about 32 MiB, sorted by cluster so that one
``np.add.reduceat`` per block gives every per-cluster sum.

    python benchmarks/bench_silhouette.py --rows 20000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import ROWS, best_time, parser, peak_rss_mib


def _data(rows: int, features: int, clusters: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, clusters, rows)
    centres = rng.normal(scale=2.0, size=(clusters, features))
    return centres[labels] + rng.normal(size=(rows, features)), labels


def _worker(side: str, args: argparse.Namespace) -> None:
    X, labels = _data(args.rows, args.features, args.clusters, args.seed)
    metric = args.metric
    if side == "scorekit":
        import scorekit.clustering as skc

        def run() -> float:
            return skc.silhouette_score(X, labels, metric=metric)
    else:
        from sklearn.metrics import silhouette_score

        def run() -> float:
            return float(silhouette_score(X, labels, metric=metric))

    rss_before = peak_rss_mib()
    tracemalloc.start()
    value = run()
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_delta = peak_rss_mib() - rss_before
    seconds, _ = best_time(run, args.repeat)
    print(
        json.dumps(
            {"seconds": seconds, "traced_mib": traced / 2**20, "rss_mib": rss_delta, "value": value}
        )
    )


def main() -> None:
    p = parser(__doc__ or "", rows=20_000)
    p.add_argument("--features", type=int, default=16)
    p.add_argument("--clusters", type=int, default=10)
    p.add_argument("--metric", default="euclidean")
    p.add_argument(
        "--worker", choices=["scorekit", "sklearn"], help="internal: run one side, print JSON"
    )
    args = p.parse_args()
    if args.worker:
        _worker(args.worker, args)
        return
    full = args.rows * args.rows * 8 / 2**20
    print(
        f"silhouette_score, {args.rows:,} points × {args.features} features, "
        f"{args.clusters} clusters, metric={args.metric} (full distance matrix: {full:,.0f} MiB)"
    )
    results = {}
    for side in ("scorekit", "sklearn"):
        cmd = [sys.executable, __file__, "--worker", side, *sys.argv[1:]]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        results[side] = json.loads(out.strip().splitlines()[-1])
    ours, ref = results["scorekit"], results["sklearn"]
    ratio = ref["seconds"] / ours["seconds"]
    print(
        f"{'silhouette_score':<34} scorekit {ours['seconds']:9.4f} s   sklearn {ref['seconds']:9.4f} s"
        f"   ratio {ratio:7.1f}x   |diff| {abs(ours['value'] - ref['value']):.1e}"
    )
    for side, r in results.items():
        print(
            f"  {side:<9} peak allocated {r['traced_mib']:8.1f} MiB   "
            f"peak RSS growth {r['rss_mib']:8.1f} MiB"
        )
    ROWS.append(("silhouette_score", ours["seconds"], ref["seconds"], "sklearn"))


if __name__ == "__main__":
    main()
