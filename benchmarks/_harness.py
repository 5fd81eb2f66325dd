"""Shared benchmark harness: scorekit and the reference on the same data, one process.

Each benchmark script builds its data once, then calls :func:`compare` for each
metric; it prints both times (best of ``--repeat`` runs) and the ratio
reference / scorekit, so "12.3x" means scorekit is 12.3 times faster. Benchmarks
never assert: they are measurements, run with ``make bench`` or directly.
"""

from __future__ import annotations

import argparse
import gc
import resource
import time
from collections.abc import Callable
from typing import Any

ROWS: list[tuple[str, float, float | None, str]] = []


def parser(description: str, rows: int) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--rows", type=int, default=rows, help=f"rows of generated data (default {rows:,})"
    )
    p.add_argument("--repeat", type=int, default=3, help="runs per timing; the best is kept")
    p.add_argument("--seed", type=int, default=0)
    return p


def best_time(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Best wall time of ``repeat`` calls, and the last result."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def compare(
    label: str,
    ours: Callable[[], Any],
    reference: Callable[[], Any] | None,
    ref_name: str,
    *,
    repeat: int = 3,
    ref_repeat: int | None = None,
    ref_scale: float = 1.0,
) -> float | None:
    """Time ``ours`` and ``reference``; print both and the speed-up; return the ratio.

    ``ref_scale`` multiplies the reference time when it ran on a subset and is
    extrapolated (the printed line says so).
    """
    t_ours, v_ours = best_time(ours, repeat)
    line = f"{label:<34} scorekit {t_ours:9.4f} s"
    ratio = None
    if reference is not None:
        t_ref, v_ref = best_time(reference, repeat if ref_repeat is None else ref_repeat)
        t_ref *= ref_scale
        ratio = t_ref / t_ours
        extra = f" (extrapolated x{ref_scale:g})" if ref_scale != 1.0 else ""
        line += f"   {ref_name} {t_ref:9.4f} s{extra}   ratio {ratio:7.1f}x"
        ROWS.append((label, t_ours, t_ref, ref_name))
        if _scalar(v_ours) is not None and _scalar(v_ref) is not None:
            line += f"   |diff| {abs(_scalar(v_ours) - _scalar(v_ref)):.1e}"  # type: ignore[operator]
    else:
        ROWS.append((label, t_ours, None, ""))
    print(line, flush=True)
    return ratio


def _scalar(v: Any) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
