"""Shared benchmark harness: scorekit and the reference on the same data, one process.

Each benchmark script builds its data once, then calls :func:`compare` for each
metric; it prints both times (best of ``--repeat`` runs) and the ratio
reference / scorekit, so "12.3x" means scorekit is 12.3 times faster. With
``target=`` (the smallest ratio that meets the project's target) the line also
says PASS or SHORT; with ``rows=`` it prints the time per row. :func:`record`
adds a line that is not a timing against a reference (memory, a ratio computed
by the script). Benchmarks never assert: they are measurements, run with
``make bench`` or directly.

The first line a process prints names the machine (CPU model, cores). When the
environment variable ``SCOREKIT_BENCH_RESULTS`` names a file, every line is
also appended to it as JSON at exit; ``benchmarks/update_readme.py`` turns that
file into ``benchmarks/RESULTS.md`` and the README's performance table.

    python benchmarks/_harness.py      # print the machine line only
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import os
import platform
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: (label, scorekit seconds, reference seconds or None, reference name): kept for scripts
#: that append to it directly.
ROWS: list[tuple[str, float, float | None, str]] = []
#: Every line as a dict (the RESULTS.md row).
RESULTS: list[dict[str, Any]] = []
_RECORDED: set[int] = set()  # ids of ROWS entries already in RESULTS
_SCRIPT = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else "python"
_MACHINE_SHOWN = False


def machine() -> str:
    """``CPU model, N cores`` of this machine (``/proc/cpuinfo`` where there is one)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model}, {cores} cores"


def show_machine() -> None:
    """Print the machine line once per process."""
    global _MACHINE_SHOWN
    if not _MACHINE_SHOWN:
        _MACHINE_SHOWN = True
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"machine: {machine()}; Python {platform.python_version()}; load average {load:.1f}",
            flush=True,
        )


def parser(description: str, rows: int) -> argparse.ArgumentParser:
    show_machine()
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--rows", type=int, default=rows, help=f"rows of generated data (default {rows:,})"
    )
    p.add_argument("--repeat", type=int, default=3, help="runs per timing; the best is kept")
    p.add_argument("--seed", type=int, default=0)
    return p


def sizes(text: str) -> list[int]:
    """``"1e6,1e7"`` -> ``[1000000, 10000000]`` (for a ``--sizes`` option)."""
    return [int(float(x)) for x in text.split(",") if x.strip()]


def memory_allows(rows: int, bytes_per_row: float) -> bool:
    """Whether ``rows`` rows of ``bytes_per_row`` fit in half the available memory."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return rows * bytes_per_row < int(line.split()[1]) * 1024 / 2
    except OSError:
        pass
    return rows <= 10_000_000


def best_time(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Best wall time of ``repeat`` calls, and the last result."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def best_times(fns: list[Callable[[], Any]], repeat: int = 3) -> list[float]:
    """Best wall time of each function over ``repeat`` rounds, the functions interleaved.

    One call of each per round, so a change of the machine's load between the
    rounds weighs on every function alike (ratios of these times are fair).
    """
    best = [float("inf")] * len(fns)
    for _ in range(max(1, repeat)):
        for i, fn in enumerate(fns):
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def extra_memory(fn: Callable[[], Any]) -> float:
    """Peak bytes allocated while ``fn()`` runs (NumPy reports its allocations to tracemalloc)."""
    tracemalloc.start()
    try:
        fn()
        return float(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()


def _status(ratio: float | None, target: float | None) -> str:
    if ratio is None or target is None:
        return ""
    return "PASS" if ratio >= target else "SHORT"


def _per_row(seconds: float, rows: int | None) -> str:
    return "" if not rows else f"{seconds / rows * 1e9:.1f} ns/row"


def record(
    label: str,
    seconds: float,
    *,
    rows: int | None = None,
    ref_name: str = "",
    ref_seconds: float | None = None,
    ratio: float | None = None,
    target: float | None = None,
    target_text: str | None = None,
    passed: bool | None = None,
    note: str = "",
    stated_rows: int | None = None,
    info: str = "",
) -> None:
    """Print and keep one result line.

    ``ratio`` defaults to ``ref_seconds / seconds``; ``target`` is the smallest
    ratio that passes (``target_text`` says it in words, e.g. ">= 5x sklearn");
    ``passed`` overrides the PASS/SHORT verdict (targets that are not a ratio).
    ``stated_rows``: the size the target is stated for (SPEC §11: "10M rows");
    a line at another size still prints its ratio and the target, but its
    status is ``info`` (the other sizes show how the cost grows, n log n).
    ``info``: the reason the line is not judged against its target (not the
    case the target speaks of); the status is ``info`` and the note says why.
    """
    show_machine()
    if ratio is None and ref_seconds is not None and seconds > 0:
        ratio = ref_seconds / seconds
    status = _status(ratio, target) if passed is None else ("PASS" if passed else "SHORT")
    text = target_text if target_text is not None else (f">= {target:g}x" if target else "")
    if status and stated_rows is not None and rows is not None and rows != stated_rows:
        status = "info"
        text += f" (stated at {stated_rows:,} rows)"
    if info:
        status = "info"
        note = "; ".join(x for x in (f"not judged: {info}", note) if x)
    line = f"{label:<40} scorekit {seconds:9.4f} s"
    if rows:
        line += f" ({_per_row(seconds, rows)})"
    if ref_seconds is not None:
        line += f"   {ref_name} {ref_seconds:9.4f} s"
    if ratio is not None:
        line += f"   ratio {ratio:7.2f}x"
    if text:
        line += f"   target {text}"
    if status:
        line += f"   {status}"
    if note:
        line += f"   ({note})"
    print(line, flush=True)
    RESULTS.append(
        {
            "script": _SCRIPT,
            "workload": label,
            "rows": rows,
            "scorekit_s": seconds,
            "reference": ref_name,
            "reference_s": ref_seconds,
            "ratio": ratio,
            "target": text,
            "status": status,
            "note": note,
        }
    )


def compare(
    label: str,
    ours: Callable[[], Any],
    reference: Callable[[], Any] | None,
    ref_name: str,
    *,
    repeat: int = 3,
    ref_repeat: int | None = None,
    ref_scale: float = 1.0,
    target: float | None = None,
    target_text: str | None = None,
    rows: int | None = None,
    stated_rows: int | None = None,
) -> float | None:
    """Time ``ours`` and ``reference``; print both and the speed-up; return the ratio.

    ``ref_scale`` multiplies the reference time when it ran on a subset and is
    extrapolated (the printed line says so). ``target``: the smallest ratio
    that passes (PASS/SHORT is printed); ``rows``: the row count, for the time per row;
    ``stated_rows``: the size the target is stated for (see :func:`record`).
    """
    t_ours, v_ours = best_time(ours, repeat)
    ratio, t_ref, notes = None, None, []
    if reference is not None:
        t_ref, v_ref = best_time(reference, repeat if ref_repeat is None else ref_repeat)
        t_ref *= ref_scale
        ratio = t_ref / t_ours
        if ref_scale != 1.0:
            notes.append(f"reference extrapolated x{ref_scale:g}")
        a, b = _scalar(v_ours), _scalar(v_ref)
        if a is not None and b is not None:
            notes.append(f"|diff| {abs(a - b):.1e}")
    entry = (label, t_ours, t_ref, ref_name if reference is not None else "")
    ROWS.append(entry)
    _RECORDED.add(id(entry))
    record(
        label,
        t_ours,
        rows=rows,
        ref_name=ref_name if reference is not None else "",
        ref_seconds=t_ref,
        ratio=ratio,
        target=target,
        target_text=target_text,
        note="; ".join(notes),
        stated_rows=stated_rows,
    )
    return ratio


def _scalar(v: Any) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _save() -> None:
    """Append this process's lines (and rows other scripts put in ROWS) to $SCOREKIT_BENCH_RESULTS."""
    path = os.environ.get("SCOREKIT_BENCH_RESULTS")
    if not path:
        return
    extra = [
        {
            "script": _SCRIPT,
            "workload": label,
            "rows": None,
            "scorekit_s": t_ours,
            "reference": name,
            "reference_s": t_ref,
            "ratio": None if t_ref is None or not t_ours else t_ref / t_ours,
            "target": "",
            "status": "",
            "note": "",
        }
        for label, t_ours, t_ref, name in (r for r in ROWS if id(r) not in _RECORDED)
    ]
    with open(path, "a", encoding="utf-8") as f:
        for row in [*RESULTS, *extra]:
            f.write(json.dumps(row) + "\n")


atexit.register(_save)


if __name__ == "__main__":
    show_machine()
