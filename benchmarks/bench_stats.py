"""Statistics: DeLong, bootstrap AUC intervals, paired tests, rank correlation.

- delong_test on --rows rows (SPEC: a million rows in about a second); the
  reference is the floor of any DeLong implementation: two scikit-learn AUCs.
- bootstrap_ci of roc_auc (fast path: no sort per resample) against the same
  resampling loop around sklearn.metrics.roc_auc_score (run on fewer resamples
  and extrapolated).
- paired tests on 50 queries x 10,000 resamples against scipy.stats
  (ttest_rel, wilcoxon, permutation_test with sign flips, bootstrap).
- kendall_tau / spearman on --rows rows against scipy.stats.

    python benchmarks/bench_stats.py --rows 1000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import compare, parser, peak_rss_mib
from scorekit.ranking import kendall_tau, spearman
from scorekit.stats import bootstrap_ci, delong_test, paired_test


def main() -> None:
    p = parser(__doc__ or "", rows=1_000_000)
    p.add_argument("--resamples", type=int, default=200, help="bootstrap resamples (default 200)")
    args = p.parse_args()
    import scipy.stats as ss
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(args.seed)
    n, r = args.rows, args.repeat
    y = (rng.random(n) < 0.3).astype(np.int64)
    a = rng.random(n) + 0.3 * y
    b = np.round(rng.random(n) + 0.25 * y, 3)  # one continuous, one tied score
    print(f"{n:,} rows, 30% positive")

    compare(
        "delong_test",
        lambda: delong_test(y, a, b).diff,
        lambda: roc_auc_score(y, a) - roc_auc_score(y, b),
        "2x sklearn AUC",
        repeat=r,
    )

    k = args.resamples
    ref_k = max(2, k // 20)

    def sklearn_bootstrap(count: int) -> float:
        g = np.random.default_rng(0)
        vals = [roc_auc_score(y[i], a[i]) for i in g.integers(0, n, size=(count, n))]
        return float(np.quantile(vals, 0.025))

    compare(
        f"bootstrap_ci roc_auc x{k}",
        lambda: bootstrap_ci("roc_auc", y, a, n_resamples=k, seed=0)[0],
        lambda: sklearn_bootstrap(ref_k),
        "sklearn loop",
        repeat=1,
        ref_repeat=1,
        ref_scale=k / ref_k,
    )

    q = 50
    x1, x2 = rng.random(q), rng.random(q) + 0.05
    compare(
        "paired t",
        lambda: paired_test(x1, x2).p_value,
        lambda: ss.ttest_rel(x1, x2).pvalue,
        "scipy",
        repeat=r,
    )
    compare(
        "paired wilcoxon",
        lambda: paired_test(x1, x2, test="wilcoxon").p_value,
        lambda: ss.wilcoxon(x1, x2).pvalue,
        "scipy",
        repeat=r,
    )
    d = x1 - x2
    compare(
        "randomization 10k",
        lambda: paired_test(x1, x2, test="randomization").p_value,
        lambda: (
            ss.permutation_test(
                (d,),
                lambda v, axis: np.mean(v, axis=axis),
                permutation_type="samples",
                n_resamples=10_000,
                rng=0,
            ).pvalue
        ),
        "scipy permutation_test",
        repeat=r,
    )
    compare(
        "bootstrap test 10k",
        lambda: paired_test(x1, x2, test="bootstrap").ci_low,
        lambda: (
            ss.bootstrap(
                (d,), np.mean, n_resamples=10_000, method="percentile", rng=0
            ).confidence_interval.low
        ),
        "scipy bootstrap (CI only)",
        repeat=r,
    )

    s1 = rng.random(n)
    s2 = np.round(s1 + rng.random(n), 2)
    compare(
        "kendall_tau",
        lambda: kendall_tau(s1, s2),
        lambda: ss.kendalltau(s1, s2).statistic,
        "scipy",
        repeat=r,
    )
    compare(
        "spearman",
        lambda: spearman(s1, s2),
        lambda: ss.spearmanr(s1, s2).statistic,
        "scipy",
        repeat=r,
    )
    print(f"peak RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
