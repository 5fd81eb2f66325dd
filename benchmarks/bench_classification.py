"""Classification metrics, scorekit vs scikit-learn, on generated data (SPEC §11).

Binary rows (labels, scores, probabilities): roc_auc, average_precision and
log_loss against scikit-learn, with ``np.sort`` of the scores as the floor of
any exact sort-based AUC (the ratio of scorekit's time to it is printed too).
Multiclass rows (10 classes): confusion matrix and macro F1 against
scikit-learn, when scorekit has them.

    python benchmarks/bench_classification.py --rows 1000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit
from _harness import best_time, compare, parser, peak_rss_mib


def main() -> None:
    args = parser(__doc__ or "", 10_000_000).parse_args()
    from sklearn import metrics

    n, r = args.rows, args.repeat
    rng = np.random.default_rng(args.seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    score = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.0, 1.0)  # probabilities, some tied at 0/1
    score_distinct = rng.random(n) * 0.5 + 0.3 * y
    print(f"binary: {n:,} rows, {int(y.sum()):,} positives")

    t_sort, _ = best_time(lambda: np.sort(score_distinct), max(r, 5))
    print(f"{'np.sort(scores) (floor)':<34} {t_sort:9.4f} s")
    for label, s in (("distinct scores", score_distinct), ("probabilities", score)):
        t_auc, _ = best_time(lambda s=s: scorekit.roc_auc(y, s), r)
        t_ap, _ = best_time(lambda s=s: scorekit.average_precision(y, s), r)
        print(
            f"  {label}: roc_auc {t_auc / t_sort:.2f}x np.sort, "
            f"average_precision {t_ap / t_sort:.2f}x np.sort"
        )
    ref_r = 1 if n >= 5_000_000 else r
    for label, ours, ref in (
        ("roc_auc", scorekit.roc_auc, metrics.roc_auc_score),
        ("average_precision", scorekit.average_precision, metrics.average_precision_score),
        ("log_loss", scorekit.log_loss, metrics.log_loss),
    ):
        compare(
            label,
            lambda ours=ours: ours(y, score),
            lambda ref=ref: ref(y, score),
            "sklearn",
            repeat=r,
            ref_repeat=ref_r,
        )

    n_classes = 10
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, n_classes, n))
    print(f"multiclass: {n:,} rows, {n_classes} classes")
    for name, ref, kwargs in (
        ("confusion_matrix", metrics.confusion_matrix, {}),
        ("f1", metrics.f1_score, {"average": "macro"}),
    ):
        ours = getattr(scorekit, name, None)
        if ours is None:
            print(f"{name:<34} skipped: scorekit.{name} is not available yet")
            continue
        compare(
            f"{name} {kwargs}" if kwargs else name,
            lambda ours=ours, kwargs=kwargs: ours(y_true, y_pred, **kwargs),
            lambda ref=ref, kwargs=kwargs: ref(y_true, y_pred, **kwargs),
            "sklearn",
            repeat=r,
            ref_repeat=ref_r,
        )
    print(f"peak memory {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
