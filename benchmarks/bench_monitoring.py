"""Online monitoring: a windowed / decayed metric read after every chunk (issue 18).

``--rows`` rows (default 1M) arrive in ``--chunk``-row chunks (default 10k):
clicks with probability equal to the score, 1,000 users. After every chunk the
monitored value is read. Timed per chunk (update + read), against the plain
way of getting the same number in the same process:

1. ``Windowed(BinaryCurve(), window=W)`` ``roc_auc`` vs keeping the last ``W``
   rows by hand and calling ``scorekit.roc_auc`` on them (``--window``, 100k);
2. the same for ``Windowed(GroupedCurve())`` ``gauc`` and
   ``Windowed(Calibration())`` ``normalized_entropy``;
3. ``Decayed(Calibration(), decay=0.99)`` ``normalized_entropy`` vs
   ``scorekit.normalized_entropy`` on every row seen with the decayed weights
   (the reference grows with the stream; the accumulator does not).

Each value is checked equal to its reference at the last chunk.

    python benchmarks/bench_monitoring.py --rows 1000000 --chunk 10000
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit
from _harness import parser, record
from scorekit.stream import BinaryCurve, Calibration, Decayed, GroupedCurve, Windowed


def stream(rows: int, size: int, seed: int) -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(seed)
    out = []
    for start in range(0, rows, size):
        n = min(size, rows - start)
        p = rng.random(n) * 0.3
        out.append(((rng.random(n) < p).astype(np.int8), p, rng.integers(0, 1000, n)))
    return out


def run_wrapper(chunks: list[tuple[np.ndarray, ...]], acc: Any, read: str, grouped: bool) -> Any:
    value = None
    for y, p, g in chunks:
        acc.update(y, p, g) if grouped else acc.update(y, p)
        value = getattr(acc, read)()
    return value


def run_window_by_hand(
    chunks: list[tuple[np.ndarray, ...]], window: int, fn: Callable[..., float], grouped: bool
) -> float:
    kept: list[np.ndarray] = []
    value = float("nan")
    for y, p, g in chunks:
        new = (y, p, g) if grouped else (y, p)
        if kept:
            kept = [np.concatenate([k, c])[-window:] for k, c in zip(kept, new, strict=True)]
        else:
            kept = [c[-window:] for c in new]
        value = fn(*kept)
    return value


def run_decay_by_hand(chunks: list[tuple[np.ndarray, ...]], decay: float) -> float:
    ys: list[np.ndarray] = []
    ps: list[np.ndarray] = []
    value = float("nan")
    for y, p, _ in chunks:
        ys.append(y)
        ps.append(p)
        ages = np.repeat(np.arange(len(ys) - 1, -1, -1), [c.size for c in ys])
        yy, pp = np.concatenate(ys), np.concatenate(ps)
        value = scorekit.normalized_entropy(yy, pp, sample_weight=decay ** ages.astype(float))
    return value


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> None:
    p = parser(__doc__ or "", rows=1_000_000)
    p.add_argument("--chunk", type=int, default=10_000, help="rows per chunk (default 10k)")
    p.add_argument("--window", type=int, default=100_000, help="window rows (default 100k)")
    args = p.parse_args()
    chunks = stream(args.rows, args.chunk, args.seed)
    n_chunks, w = len(chunks), args.window
    print(f"{args.rows:,} rows in {n_chunks} chunks of {args.chunk:,}; a read after every chunk")
    cases = [
        ("roc_auc", BinaryCurve, scorekit.roc_auc, False),
        ("gauc", GroupedCurve, scorekit.gauc, True),
        ("normalized_entropy", Calibration, scorekit.normalized_entropy, False),
    ]
    for read, cls, fn, grouped in cases:
        acc = Windowed(cls(), window=w)
        t_ours, ours = timed(partial(run_wrapper, chunks, acc, read, grouped))
        t_ref, ref = timed(partial(run_window_by_hand, chunks, w, fn, grouped))
        record(
            f"Windowed {read}, window {w:,}: per chunk",
            t_ours / n_chunks,
            ref_name=f"{read} on the last {w:,} rows",
            ref_seconds=t_ref / n_chunks,
            note=f"same value: {ours == ref}",
        )
    t_ours, ours = timed(
        lambda: run_wrapper(chunks, Decayed(Calibration(), decay=0.99), "normalized_entropy", False)
    )
    t_ref, ref = timed(lambda: run_decay_by_hand(chunks, 0.99))
    record(
        "Decayed normalized_entropy, d=0.99: per chunk",
        t_ours / n_chunks,
        ref_name="one-shot on all rows, decayed weights",
        ref_seconds=t_ref / n_chunks,
        note=f"relative difference {abs(ours - ref) / abs(ref):.1e}",
    )


if __name__ == "__main__":
    main()
