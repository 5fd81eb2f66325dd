"""Streaming exact AUC: 100M rows fed in 1M-row chunks, in bounded memory, then the Dask path.

Chunks are generated on the fly by a seeded generator (chunk i from seed
``(seed, i)``): scores uniform in [0, 1] rounded to 1e-6 (so the table of
distinct scores stays bounded at 1,000,001 rows whatever the row count),
labels positive with probability equal to the score. The script prints

1. ``scorekit.stream.BinaryCurve`` over ``--rows`` rows in ``--chunk``-row
   chunks (after a short untimed warm-up run): the time spent in ``update``
   and ``roc_auc`` (generation excluded) and the peak RSS of the process at
   that point (nothing larger has run yet);
2. the one-shot ``scorekit.roc_auc`` on the largest input that fits
   (``--oneshot-rows``, default min(rows, 20M), the same generated chunks
   concatenated), its time scaled linearly to ``--rows``, and the ratio
   streaming / one-shot (target: at most 2); the stream fed the same rows is
   checked to give the same value bit for bit;
3. ``scorekit.dask.roc_auc`` on a ``distributed.LocalCluster`` with 2 worker
   processes, each partition (``--partition-chunks`` chunks, 5M rows by
   default) generated inside its worker (``dd.from_map``), beside the local
   streaming time on the same rows (``--dask-rows``, default ``--rows``;
   ``--dask-rows 0`` skips it).

    python benchmarks/bench_streaming.py --rows 10000000
"""

from __future__ import annotations

import time

import numpy as np

import scorekit
from _harness import parser, peak_rss_mib
from scorekit.stream import BinaryCurve


def chunk(seed: int, i: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([seed, i])
    s = np.round(rng.random(size), 6)
    y = rng.random(size) < s
    return y, s


def chunks(seed: int, rows: int, size: int):
    for i, start in enumerate(range(0, rows, size)):
        yield chunk(seed, i, min(size, rows - start))


def stream_auc(seed: int, rows: int, size: int) -> tuple[float, float, BinaryCurve]:
    """(seconds in update + roc_auc, AUC, accumulator)."""
    acc = BinaryCurve()
    spent = 0.0
    for y, s in chunks(seed, rows, size):
        t0 = time.perf_counter()
        acc.update(y, s)
        spent += time.perf_counter() - t0
    t0 = time.perf_counter()
    auc = acc.roc_auc()
    spent += time.perf_counter() - t0
    return spent, auc, acc


def partition(i: int, seed: int, size: int, rows: int, per: int):
    """Partition ``i``: the generated chunks ``i * per .. i * per + per - 1`` (the stream's rows)."""
    import pandas as pd

    first = i * per
    parts = [chunk(seed, j, min(size, rows - j * size)) for j in range(first, first + per)
             if j * size < rows]  # fmt: skip
    return pd.DataFrame({"y": np.concatenate([p[0] for p in parts]),
                         "s": np.concatenate([p[1] for p in parts])})  # fmt: skip


def dask_auc(seed: int, rows: int, size: int, per: int) -> tuple[float, float] | None:
    try:
        import dask.dataframe as dd
        import distributed
        import pandas as pd
    except ImportError:
        print("dask / distributed not installed: Dask path skipped")
        return None
    import scorekit.dask as skd

    n_parts = -(-rows // (size * per))
    meta = pd.DataFrame({"y": np.zeros(0, bool), "s": np.zeros(0)})
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        kw = {"seed": seed, "size": size, "rows": rows, "per": per, "meta": meta}
        ddf = dd.from_map(partition, range(n_parts), **kw)
        warm = {**kw, "size": 1000, "rows": 2000, "per": 1}
        skd.roc_auc(dd.from_map(partition, [0, 1], **warm), label="y", score="s")  # warm up
        t0 = time.perf_counter()
        auc = skd.roc_auc(ddf, label="y", score="s")
        return time.perf_counter() - t0, auc


def main() -> None:
    p = parser(__doc__ or "", rows=100_000_000)
    p.add_argument("--chunk", type=int, default=1_000_000, help="rows per chunk (default 1M)")
    p.add_argument(
        "--oneshot-rows",
        type=int,
        default=None,
        help="rows of the one-shot run (default min(rows, 20M)); its time is scaled to --rows",
    )
    p.add_argument(
        "--dask-rows", type=int, default=None, help="rows of the Dask run (default --rows; 0: skip)"
    )
    p.add_argument(
        "--partition-chunks",
        type=int,
        default=5,
        help="chunks per Dask partition (default 5: 5M-row partitions)",
    )
    args = p.parse_args()
    rows, size, seed = args.rows, args.chunk, args.seed
    print(
        f"{rows:,} rows in chunks of {size:,}; scores uniform on [0, 1] rounded to 1e-6 "
        "(at most 1,000,001 distinct scores); machine shared, times are wall clock"
    )

    stream_auc(seed + 1, min(rows, 8 * size), size)  # warm-up: first allocations page-fault
    t_stream, auc_stream, acc = stream_auc(seed, rows, size)
    print(
        f"stream   BinaryCurve          {t_stream:9.3f} s   AUC {auc_stream:.12f}   "
        f"distinct scores {acc.n_distinct:,}   peak RSS {peak_rss_mib():,.0f} MiB"
    )
    del acc

    one_rows = min(rows, 20_000_000) if args.oneshot_rows is None else args.oneshot_rows
    one_rows = -(-one_rows // size) * size if one_rows < rows else rows
    parts = list(chunks(seed, one_rows, size))
    y = np.concatenate([c[0] for c in parts])
    s = np.concatenate([c[1] for c in parts])
    del parts
    best = float("inf")
    for _ in range(max(1, args.repeat)):
        t0 = time.perf_counter()
        auc_one = scorekit.roc_auc(y, s)
        best = min(best, time.perf_counter() - t0)
    del y, s
    scale = rows / one_rows
    t_same, auc_same, _ = stream_auc(seed, one_rows, size)
    print(
        f"one-shot scorekit.roc_auc     {best * scale:9.3f} s   on {one_rows:,} rows "
        f"({best:.3f} s) x{scale:g}   stream on the same rows: {t_same:.3f} s, "
        f"same value bit for bit: {auc_same == auc_one}"
    )
    print(f"ratio stream / one-shot (scaled): {t_stream / (best * scale):.2f}x (target <= 2)")

    dask_rows = rows if args.dask_rows is None else args.dask_rows
    if dask_rows > 0:
        result = dask_auc(seed, dask_rows, size, args.partition_chunks)
        if result is not None:
            t_dask, auc_dask = result
            t_local = t_stream if dask_rows == rows else stream_auc(seed, dask_rows, size)[0]
            same = auc_dask == (auc_stream if dask_rows == rows else auc_dask)
            print(
                f"dask     LocalCluster 2 procs {t_dask:9.3f} s   on {dask_rows:,} rows "
                f"(generation included)   local stream {t_local:.3f} s   "
                f"same value: {same if dask_rows == rows else 'n/a'}"
            )


if __name__ == "__main__":
    main()
