"""Recommendation / CTR metrics: GAUC and normalized entropy.

GAUC (impression-weighted, 10M rows, 1M users by default) against
- a pandas groupby calling scikit-learn's roc_auc_score per user; it takes
  minutes at full size, so it runs on the users with ids below --ref-groups
  and its time is extrapolated by (users in all) / (users in the subset);
- polars: the average rank of the score within each user
  (``rank("average").over(user)``, or ``rank`` inside ``group_by().agg``),
  positives' rank sums per user, then the weighted mean — timed to the final
  number, on a prepared DataFrame.

    python benchmarks/bench_recsys.py --rows 1000000 --groups 100000
"""

from __future__ import annotations

import math

import numpy as np

import scorekit
from _harness import best_time, compare, parser, peak_rss_mib


def polars_gauc(pl, df, *, window: bool) -> float:
    rank = pl.col("s").rank("average")
    if window:
        per = (
            df.with_columns(rank.over("g").alias("r"))
            .group_by("g")
            .agg(n=pl.len(), n_pos=pl.col("y").sum(), r_pos=(pl.col("r") * pl.col("y")).sum())
        )
    else:
        per = df.group_by("g").agg(
            n=pl.len(), n_pos=pl.col("y").sum(), r_pos=(rank * pl.col("y")).sum()
        )
    n, p = pl.col("n").cast(pl.Float64), pl.col("n_pos").cast(pl.Float64)
    auc = (pl.col("r_pos") - p * (p + 1) / 2) / (p * (n - p))
    return (
        per.filter((pl.col("n_pos") > 0) & (pl.col("n_pos") < pl.col("n")))
        .select((auc * n).sum() / n.sum())
        .item()
    )


def pandas_sklearn_gauc(df, roc_auc_score) -> float:
    def one(d):
        return roc_auc_score(d["y"], d["s"]) if 0 < d["y"].sum() < len(d) else math.nan

    per = df.groupby("g")[["y", "s"]].apply(one)
    n = df.groupby("g").size()
    ok = per.notna()
    return float((per[ok] * n[ok]).sum() / n[ok].sum())


def main() -> None:
    p = parser(__doc__ or "", rows=10_000_000)
    p.add_argument("--groups", type=int, default=1_000_000, help="users (default 1,000,000)")
    p.add_argument(
        "--ref-groups",
        type=int,
        default=20_000,
        help="users timed for pandas + scikit-learn (extrapolated; default 20,000)",
    )
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    n, n_groups = args.rows, args.groups
    g = rng.integers(0, n_groups, n)
    s = rng.random(n)
    y = rng.random(n) < 0.04 + 0.12 * s  # a CTR around 10%, related to the score
    print(f"GAUC: {n:,} rows, {n_groups:,} users, {y.mean():.3f} positive; float64 scores")

    value = scorekit.gauc(y, s, g)
    try:
        import pandas as pd
        from sklearn.metrics import roc_auc_score
    except ImportError:
        print("pandas / scikit-learn not installed: reference skipped")
    else:
        sub = g < args.ref_groups
        df = pd.DataFrame({"g": g[sub], "y": y[sub].astype(np.int8), "s": s[sub]})
        present = np.unique(g).size
        scale = present / max(1, np.unique(g[sub]).size)
        check = abs(pandas_sklearn_gauc(df, roc_auc_score) - scorekit.gauc(y[sub], s[sub], g[sub]))

        def on_subset() -> None:  # its value is of the subset: no |diff| against ours
            pandas_sklearn_gauc(df, roc_auc_score)

        compare(
            "gauc vs pandas+sklearn",
            lambda: scorekit.gauc(y, s, g),
            on_subset,
            "pandas+sklearn",
            repeat=args.repeat,
            ref_repeat=1,
            ref_scale=scale,
        )
        print(
            f"  (pandas+sklearn timed on {sub.sum():,} rows of {args.ref_groups:,} users, "
            f"extrapolated x{scale:.1f}; |diff| on that subset {check:.1e})"
        )
    try:
        import polars as pl
    except ImportError:
        print("polars not installed: reference skipped")
    else:
        frame = pl.DataFrame({"g": g, "y": y.astype(np.int8), "s": s})
        for window in (True, False):
            compare(
                f"gauc vs polars ({'rank.over' if window else 'rank in agg'})",
                lambda: scorekit.gauc(y, s, g),
                lambda window=window: polars_gauc(pl, frame, window=window),
                "polars",
                repeat=args.repeat,
            )
        del frame

    prob = np.clip(0.02 + 0.16 * s, 0, 1)
    try:
        from sklearn.metrics import log_loss
    except ImportError:
        t, _ = best_time(lambda: scorekit.normalized_entropy(y, prob), args.repeat)
        print(f"normalized_entropy {t:.4f} s")
    else:
        rate = y.mean()
        h = -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate))
        compare(
            "normalized_entropy vs sklearn",
            lambda: scorekit.normalized_entropy(y, prob),
            lambda: log_loss(y, prob) / h,
            "sklearn log_loss",
            repeat=args.repeat,
        )
    print(f"gauc = {value:.6f}; peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
