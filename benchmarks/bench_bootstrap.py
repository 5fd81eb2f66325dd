"""Bootstrap intervals in the report: the time of N resamples against one evaluation.

- ``classify --bootstrap N``: the classification section (the default binary
  metrics: roc_auc, average_precision, ks_statistic, log_loss, brier_score,
  accuracy, precision, recall, f1) with N resamples, against the same section
  without intervals; issue 15's target is <= 20x for 1,000 resamples on 1M
  rows. Continuous scores (about one distinct score per row) and scores at a
  1e-4 resolution (a CTR model's output rounded); ``--draws rows`` (row
  indices, the draws of bootstrap_ci) and ``--draws cells`` (the counts of
  the (label, score) cells: the same distribution, a cost per resample in
  distinct scores).
- ``gauc --bootstrap N``: the GAUC section on --rows rows / --users users
  against the section without intervals: the default section (GAUC with
  users resampled: per-user AUCs once, then weighted means; the overall
  roc_auc with rows resampled by the engine) and ``-m gauc`` alone.

With ``--resamples`` below 1,000 the 1,000-resample time is extrapolated
linearly (the line says so).

    python benchmarks/bench_bootstrap.py --rows 1000000 --resamples 1000
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import best_time, parser, record
from scorekit.report import classification_section, gauc_section

TARGET = 20.0
FULL = 1000


def _line(label: str, one: float, boot: float, k: int, rows: int) -> None:
    t_full = one + (boot - one) * FULL / k
    note = "" if k == FULL else f"extrapolated from {k} resamples ({boot:.2f} s)"
    ratio = t_full / one
    record(
        label,
        t_full,
        rows=rows,
        ref_name="one evaluation",
        ref_seconds=one,
        ratio=ratio,
        target_text=f"<= {TARGET:g}x one evaluation" if "classify" in label else "",
        passed=ratio <= TARGET if "classify" in label else None,
        note=note,
    )


def main() -> None:
    p = parser(__doc__ or "", rows=1_000_000)
    p.add_argument("--resamples", type=int, default=FULL, help="bootstrap resamples (1000)")
    p.add_argument("--users", type=int, default=50_000, help="GAUC groups (default 50,000)")
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    n, k, r = args.rows, args.resamples, args.repeat
    y = (rng.random(n) < 0.05).astype(np.int64)
    s = np.clip(rng.beta(1.0, 15.0, n) + 0.03 * y, 0.0, 1.0)
    print(f"{n:,} rows, 5% positive, {k} resamples")

    for label, score in (("continuous", s), ("1e-4 grid", np.round(s, 4))):
        one, _ = best_time(lambda sc=score: classification_section(y, y_score=sc), r)
        for draws in ("rows", "cells"):
            boot, _ = best_time(
                lambda sc=score, d=draws: classification_section(
                    y, y_score=sc, bootstrap=k, seed=0, draws=d
                ),
                1,
            )
            _line(f"classify --bootstrap {FULL} --draws {draws} ({label})", one, boot, k, n)

    users = rng.integers(0, args.users, n)
    for which, wanted in (("gauc, roc_auc", None), ("-m gauc", ["gauc"])):
        one, _ = best_time(lambda m=wanted: gauc_section(y, s, users, details=False, metrics=m), r)
        boot, _ = best_time(
            lambda m=wanted: gauc_section(y, s, users, details=False, metrics=m, bootstrap=k), 1
        )
        _line(f"gauc --bootstrap {FULL} {which} ({args.users:,} users)", one, boot, k, n)


if __name__ == "__main__":
    main()
