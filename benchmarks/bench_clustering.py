"""Clustering metrics: scorekit against scikit-learn on the same labelings.

Adjusted mutual information with 100 x 100 clusters (the SPEC target: at least
2x scikit-learn at 1M labels), then ARI, NMI, the Rand index and V-measure;
also AMI with 1000 x 1000 clusters, where scikit-learn's expected-MI loop is
the bottleneck (run there on a tenth of the rows unless --full-ami1000).

    python benchmarks/bench_clustering.py --rows 1000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit.clustering as skc
from _harness import compare, parser, peak_rss_mib


def main() -> None:
    p = parser(__doc__ or "", rows=1_000_000)
    p.add_argument("--clusters", type=int, default=100, help="clusters on each side (default 100)")
    p.add_argument("--skip-1000", action="store_true", help="skip the 1000-cluster AMI case")
    args = p.parse_args()
    from sklearn import metrics

    rng = np.random.default_rng(args.seed)
    n, k = args.rows, args.clusters
    t = rng.integers(0, k, n)
    # A noisy copy: half the samples keep their class, so the scores are not all ~0.
    pred = np.where(rng.random(n) < 0.5, t, rng.integers(0, k, n))
    print(f"{n:,} labels, {k} x {k} clusters")
    r = args.repeat
    compare(
        "adjusted_mutual_info",
        lambda: skc.adjusted_mutual_info(t, pred),
        lambda: metrics.adjusted_mutual_info_score(t, pred),
        "sklearn",
        repeat=r,
        ref_repeat=1,
    )
    compare(
        "adjusted_rand_index",
        lambda: skc.adjusted_rand_index(t, pred),
        lambda: metrics.adjusted_rand_score(t, pred),
        "sklearn",
        repeat=r,
    )
    compare(
        "normalized_mutual_info",
        lambda: skc.normalized_mutual_info(t, pred),
        lambda: metrics.normalized_mutual_info_score(t, pred),
        "sklearn",
        repeat=r,
    )
    compare(
        "rand_index",
        lambda: skc.rand_index(t, pred),
        lambda: metrics.rand_score(t, pred),
        "sklearn",
        repeat=r,
    )
    compare(
        "v_measure",
        lambda: skc.v_measure(t, pred),
        lambda: metrics.v_measure_score(t, pred),
        "sklearn",
        repeat=r,
    )
    names = np.array([f"cluster-{i:04d}" for i in range(k)])
    ts, ps = names[t], names[pred]
    compare(
        "adjusted_rand_index (str labels)",
        lambda: skc.adjusted_rand_index(ts, ps),
        lambda: metrics.adjusted_rand_score(ts, ps),
        "sklearn",
        repeat=r,
    )
    if not args.skip_1000:
        m = max(n // 10, 1000)
        t2 = rng.integers(0, 1000, m)
        p2 = np.where(rng.random(m) < 0.5, t2, rng.integers(0, 1000, m))
        compare(
            f"AMI 1000x1000 clusters, {m:,} rows",
            lambda: skc.adjusted_mutual_info(t2, p2),
            lambda: metrics.adjusted_mutual_info_score(t2, p2),
            "sklearn",
            repeat=r,
            ref_repeat=1,
        )
    print(f"peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
