"""Regression metrics: scorekit against scikit-learn on the same 10M rows.

MAE, MSE and R² (the core of every regression report), unweighted and
weighted, then explained variance, MAPE and three outputs; the last block
shows R² at a 1e9 offset. scorekit sums exactly (error-free products and an
exact accumulator, so chunked, streamed and one-shot values are bit-identical and
correctly rounded); that costs time: expect ratios below 1 for the second moments.

    python benchmarks/bench_regression.py --rows 10000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit.regression as skr
from _harness import compare, parser, peak_rss_mib


def main() -> None:
    args = parser(__doc__ or "", rows=10_000_000).parse_args()
    from sklearn import metrics

    rng = np.random.default_rng(args.seed)
    n, r = args.rows, args.repeat
    y = rng.normal(size=n)
    p = y + rng.normal(scale=0.5, size=n)
    w = rng.random(n)
    print(f"{n:,} rows")
    pairs = [
        ("mae", skr.mae, metrics.mean_absolute_error),
        ("mse", skr.mse, metrics.mean_squared_error),
        ("r2", skr.r2, metrics.r2_score),
    ]
    for name, ours, ref in pairs:
        compare(name, lambda o=ours: o(y, p), lambda f=ref: f(y, p), "sklearn", repeat=r)
    for name, ours, ref in pairs:
        compare(
            f"{name} (weighted)",
            lambda o=ours: o(y, p, sample_weight=w),
            lambda f=ref: f(y, p, sample_weight=w),
            "sklearn",
            repeat=r,
        )
    compare(
        "explained_variance",
        lambda: skr.explained_variance(y, p),
        lambda: metrics.explained_variance_score(y, p),
        "sklearn",
        repeat=r,
    )
    compare(
        "mape",
        lambda: skr.mape(y, p),
        lambda: metrics.mean_absolute_percentage_error(y, p),
        "sklearn",
        repeat=r,
    )
    y3 = y[: n // 3 * 3].reshape(-1, 3)
    p3 = p[: n // 3 * 3].reshape(-1, 3)
    compare(
        "r2 (3 outputs, raw_values)",
        lambda: skr.r2(y3, p3, multioutput="raw_values"),
        lambda: metrics.r2_score(y3, p3, multioutput="raw_values"),
        "sklearn",
        repeat=r,
    )
    big_y, big_p = y + 1e9, p + 1e9
    compare(
        "r2 (values near 1e9)",
        lambda: skr.r2(big_y, big_p),
        lambda: metrics.r2_score(big_y, big_p),
        "sklearn",
        repeat=r,
    )
    print(f"peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
