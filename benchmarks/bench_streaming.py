"""Exact streaming AUC over generated chunks, in bounded memory (issue 14), and the Dask path.

Chunks are generated on the fly by a seeded generator (chunk i from seed
``(seed, i)``): scores uniform in [0, 1] rounded to 1e-6 (so the table of
distinct scores stays bounded at 1,000,001 rows whatever the row count),
labels positive with probability equal to the score. Per size (``--sizes``,
default 1M, 10M, 100M; ``--rows 1000000000`` runs one billion rows):

1. ``scorekit.stream.BinaryCurve`` over the rows in ``--chunk``-row chunks
   (after a short untimed warm-up): the time spent in ``update`` and
   ``roc_auc`` (generation excluded), against the sum of the one-shot
   ``scorekit.roc_auc`` times of the chunks (timed on ``--oneshot-chunks``
   chunks spread over the run, each right after its ``update``, so both see
   the same load, and scaled; target: stream <= 1.5x), and the peak RSS of the
   process (target < 1 GiB; nothing larger has run yet; the one-shot calls on
   single chunks add a few MiB at most);
2. sizes up to ``--check-rows``: the stream's value equals one-shot
   ``roc_auc`` on all rows concatenated, bit for bit;
3. with ``--dask-rows N``: ``scorekit.dask.roc_auc`` on a
   ``distributed.LocalCluster`` with 2 worker processes, each partition
   generated inside its worker (``dd.from_map``), beside the local stream.

    python benchmarks/bench_streaming.py --sizes 1e6,1e7
    python benchmarks/bench_streaming.py --rows 1000000000
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scorekit
from _harness import parser, peak_rss_mib, record, sizes
from scorekit.stream import BinaryCurve


def chunk(seed: int, i: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([seed, i])
    s = np.round(rng.random(size), 6)
    y = rng.random(size) < s
    return y, s


def chunks(seed: int, rows: int, size: int):
    for i, start in enumerate(range(0, rows, size)):
        yield chunk(seed, i, min(size, rows - start))


def stream_auc(
    seed: int, rows: int, size: int, sample: int = 0
) -> tuple[float, float, BinaryCurve, float, int]:
    """(seconds in update + roc_auc, AUC, accumulator, one-shot seconds scaled, chunks timed).

    ``sample`` chunks spread over the run are also timed one-shot (``scorekit.roc_auc`` on
    the chunk, right after its ``update``); their sum is scaled to all chunks.
    """
    acc = BinaryCurve()
    n_chunks = -(-rows // size)
    every = max(1, n_chunks // sample) if sample else 0
    spent = one = 0.0
    timed = 0
    for i, (y, s) in enumerate(chunks(seed, rows, size)):
        t0 = time.perf_counter()
        acc.update(y, s)
        spent += time.perf_counter() - t0
        if every and i % every == 0 and timed < sample:
            t0 = time.perf_counter()
            scorekit.roc_auc(y, s)
            one += time.perf_counter() - t0
            timed += 1
    t0 = time.perf_counter()
    auc = acc.roc_auc()
    spent += time.perf_counter() - t0
    return spent, auc, acc, one * n_chunks / max(timed, 1), timed


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
    p.add_argument(
        "--sizes",
        default=None,
        help="comma list of row counts (default 1e6,1e7,1e8, or --rows when given, e.g. 1e9)",
    )
    p.add_argument("--chunk", type=int, default=1_000_000, help="rows per chunk (default 1M)")
    p.add_argument(
        "--oneshot-chunks",
        type=int,
        default=20,
        help="chunks timed one-shot (the sum over all chunks is scaled from them; default 20)",
    )
    p.add_argument(
        "--check-rows",
        type=int,
        default=20_000_000,
        help="largest size checked bit for bit against one-shot roc_auc on all rows (20M)",
    )
    p.add_argument(
        "--dask-rows", type=int, default=0, help="rows of the Dask run (default 0: skipped)"
    )
    p.add_argument(
        "--partition-chunks",
        type=int,
        default=5,
        help="chunks per Dask partition (default 5: 5M-row partitions)",
    )
    args = p.parse_args()
    size, seed = args.chunk, args.seed
    given = "--rows" in " ".join(sys.argv)
    todo = sizes(args.sizes) if args.sizes else ([args.rows] if given else [10**6, 10**7, 10**8])
    print(
        f"chunks of {size:,} rows generated one by one; scores uniform on [0, 1] rounded to "
        "1e-6 (at most 1,000,001 distinct scores); wall clock on a shared machine"
    )
    stream_auc(seed + 1, min(max(todo), 8 * size), size)  # warm-up: first allocations fault
    results = {}
    for rows in sorted(todo):  # the peak RSS is the streams' own (plus one chunk's one-shot)
        t_stream, auc_stream, acc, t_one, timed = stream_auc(seed, rows, size, args.oneshot_chunks)
        rss = peak_rss_mib()
        record(
            "exact streaming AUC: time vs one-shot chunks",
            t_stream,
            rows=rows,
            ref_name="sum of one-shot roc_auc of the chunks",
            ref_seconds=t_one,
            target=1 / 1.5,
            target_text="<= 1.5x the one-shot chunks",
            note=f"one-shot scaled from {timed} chunks; {acc.n_distinct:,} distinct scores",
        )
        record(
            "exact streaming AUC: peak RSS",
            t_stream,
            rows=rows,
            target_text="< 1 GiB",
            passed=rss < 1024,
            note=f"peak RSS {rss:,.0f} MiB",
        )
        results[rows] = auc_stream
        del acc
    for rows in sorted(r for r in todo if r <= args.check_rows):
        parts = list(chunks(seed, rows, size))
        y = np.concatenate([c[0] for c in parts])
        s = np.concatenate([c[1] for c in parts])
        del parts
        same = scorekit.roc_auc(y, s) == results[rows]
        print(f"  {rows:,} rows: stream == one-shot roc_auc on all rows, bit for bit: {same}")
        del y, s

    if args.dask_rows > 0:
        result = dask_auc(seed, args.dask_rows, size, args.partition_chunks)
        if result is not None:
            t_dask, auc_dask = result
            t_local, auc_local = stream_auc(seed, args.dask_rows, size)[:2]
            print(
                f"dask     LocalCluster 2 procs {t_dask:9.3f} s   on {args.dask_rows:,} rows "
                f"(generation included)   local stream {t_local:.3f} s   "
                f"same value: {auc_dask == auc_local}"
            )


if __name__ == "__main__":
    main()
