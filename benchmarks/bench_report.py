"""The classification report: one accumulator state per input, figures written as SVG text.

A report section of a binary scorer (metrics, ROC and PR curves, score
distributions, P/R/F1 against the threshold, gains, lift, calibration,
confusion matrix, threshold table) is built from one ``BinaryCurve`` (one sort
of the scores) and one ``ConfusionMatrix``; the figures are SVG text with
their curves reduced to pixels. Two references, same data, one process:

- how the report computed its values before the catalog: each metric, curve
  and table by its own function on the raw columns (each sorting again);
- with ``--old SRC`` (a ``src`` directory of an earlier scorekit, e.g. a
  checkout of the commit before the one-catalog work), that version's own
  ``classification_section(..., details=True)`` and the whole page
  (section + ``Report.to_html()``). The earlier package is imported under its
  own ``sys.modules`` entries, swapped in only while it runs, so each side runs
  its own code; the two are timed alternately, best of ``--repeat`` each.
  Without ``--old`` that line is skipped with a note.

    python benchmarks/bench_report.py --rows 1000000
    python benchmarks/bench_report.py --rows 1000000 --old /path/to/old/src
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit as sk
from _harness import compare, parser, record
from scorekit.report import Report, classification_section


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


def _ours(name: str) -> bool:
    return name == "scorekit" or name.startswith("scorekit.")


class OtherScorekit:
    """An earlier scorekit from ``src``, imported beside this one (its own module objects)."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.modules: dict[str, ModuleType] = {}
        with self.active():
            self.report: Any = __import__("scorekit.report", fromlist=["Report"])

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """Within: ``import scorekit`` (and lazy imports in its functions) give the earlier one."""
        current = {k: v for k, v in sys.modules.items() if _ours(k)}
        for k in current:
            del sys.modules[k]
        sys.modules.update(self.modules)
        sys.path.insert(0, self.src)
        try:
            yield
        finally:
            sys.path.remove(self.src)
            self.modules = {k: v for k, v in sys.modules.items() if _ours(k)}
            for k in self.modules:
                del sys.modules[k]
            sys.modules.update(current)


def alternate(a: Callable[[], Any], b: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Best time of each of two functions, run alternately (a, b, a, b ...)."""
    best = [float("inf"), float("inf")]
    for _ in range(max(1, repeat)):
        for k, fn in enumerate((a, b)):
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - t0)
    return best[0], best[1]


def against_old(old_src: str | None, y: np.ndarray, s: np.ndarray, repeat: int) -> None:
    if not old_src:
        print("earlier report: skipped (pass --old SRC, the src directory of an earlier scorekit)")
        return
    if not (Path(old_src) / "scorekit" / "__init__.py").exists():
        print(f"earlier report: skipped ({old_src} holds no scorekit package)")
        return
    old = OtherScorekit(old_src)

    def old_section() -> Any:
        with old.active():
            return old.report.classification_section(y, y_score=s, details=True)

    def old_page() -> str:
        with old.active():
            section = old.report.classification_section(y, y_score=s, details=True)
            return str(old.report.Report("report", [section]).to_html())

    def new_section() -> Any:
        return classification_section(y, y_score=s, details=True)

    def new_page() -> str:
        return Report("report", [new_section()]).to_html()

    a, b = new_section().to_dict(), old_section().to_dict()  # warm-up: lazy imports of both
    old_page()
    new_page()
    shared = sorted(a.keys() & b.keys())
    differ = [k for k in shared if a[k] != b[k]]
    gap = max((abs(a[k] - b[k]) for k in differ), default=0.0)
    note = f"{len(shared)} metrics shared, " + (
        "equal" if not differ else f"{', '.join(differ)} differ by {gap:.1e}"
    )
    for label, ours, theirs in (
        ("classification_section(details=True)", new_section, old_section),
        ("classification report (section + HTML)", new_page, old_page),
    ):
        t_new, t_old = alternate(ours, theirs, repeat)
        record(
            label,
            t_new,
            rows=y.size,
            ref_name="earlier scorekit",
            ref_seconds=t_old,
            target=3.0,
            target_text=">= 3x the earlier report",
            note=f"{Path(old_src).resolve()}; alternate runs; {note}",
        )


def main() -> None:
    p = parser(__doc__ or "", rows=1_000_000)
    p.add_argument(
        "--old",
        metavar="SRC",
        default=os.environ.get("SCOREKIT_BENCH_OLD_SRC"),
        help="src directory of an earlier scorekit to time (default: $SCOREKIT_BENCH_OLD_SRC)",
    )
    args = p.parse_args()
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
    against_old(args.old, y, s, args.repeat)


if __name__ == "__main__":
    main()
