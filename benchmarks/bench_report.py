"""The classification report: one accumulator state per input against one call per metric.

A report section of a binary scorer (metrics, ROC and PR curves, threshold
table, calibration, confusion matrix at the threshold) is built from one
``BinaryCurve`` (one sort of the scores) and one ``ConfusionMatrix``. The
reference is how the report was built before the catalog: each metric, curve
and table computed by its own function on the raw columns (each sorting the
scores again). Same data, same outputs, one process.

    python benchmarks/bench_report.py --rows 1000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit as sk
from _harness import compare, parser
from scorekit.report import classification_section


def per_metric_report(y: np.ndarray, s: np.ndarray) -> float:
    """What the report computed before: every value by its own function on the raw rows."""
    values = [
        sk.roc_auc(y, s),
        sk.average_precision(y, s),
        sk.ks_statistic(y, s),
        sk.log_loss(y, s),
        sk.brier_score(y, s),
    ]
    y_hat = (s >= 0.5).astype(np.int64)
    values += [sk.accuracy(y, y_hat), sk.precision(y, y_hat), sk.recall(y, y_hat), sk.f1(y, y_hat)]
    sk.roc_curve(y, s)
    sk.precision_recall_curve(y, s)
    sk.calibration_curve(y, s, n_bins=10)
    sk.confusion_matrix(y, y_hat, labels=[0, 1])
    sk.threshold_table(y, s, thresholds=np.round(np.linspace(0.05, 0.95, 19), 2))
    return float(values[0])


def main() -> None:
    args = parser(__doc__ or "", rows=1_000_000).parse_args()
    rng = np.random.default_rng(args.seed)
    n = args.rows
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = np.clip(rng.beta(1, 8, n) + 0.1 * y, 0.0, 1.0)
    print(f"{n:,} rows, 10% positive, continuous probabilities")

    def ours() -> float:
        return classification_section(y, y_score=s, details=True).metrics[0].value

    compare(
        "classification report (details)",
        ours,
        lambda: per_metric_report(y, s),
        "one call per metric",
        repeat=args.repeat,
    )


if __name__ == "__main__":
    main()
