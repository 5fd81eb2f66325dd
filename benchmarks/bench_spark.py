"""scorekit.spark against Spark MLlib's evaluators on the same cached DataFrame (local Spark).

1. Binary: ``--rows`` rows generated inside Spark, scores uniform in [0, 1]
   rounded to 3 decimals (1,001 distinct values, so many ties), labels
   positive with probability equal to the score. MLlib's
   ``BinaryClassificationEvaluator`` (areaUnderROC, areaUnderPR; it bins the
   scores into ``numBins=1000`` and computes the PR area by trapezoids) beside
   ``scorekit.spark.roc_auc`` / ``average_precision`` (exact) and the one-pass
   ``scorekit.spark.metrics(["roc_auc", "average_precision"])``, and the
   two with ``aggregate=True`` (equal (label, score) pairs counted in the JVM
   first, so only the distinct pairs reach Python); the printed
   ``|diff|`` is the difference of the values. Then the AUC again on
   ``--continuous-rows`` continuous scores, where MLlib's binning shows (every
   score is distinct there, so scorekit's exact state is as large as the rows). The exact values are checked
   against the one-shot ``scorekit`` functions on the collected columns when
   ``--check`` is given.
2. Ranking: ``--rows // 100`` queries of 100 documents (random scores, no
   ties), about 10% relevant (binary grades, more likely at high scores).
   MLlib's ``RankingEvaluator`` (meanAveragePrecision, ndcgAtK with k=10)
   needs one row per query with the predicted documents in rank order and the
   relevant ones, built with ``groupBy`` + ``collect_list`` (timed apart);
   ``scorekit.spark.evaluate`` reads the (query, doc, score) and (query, doc,
   relevance) rows directly and gives map and ndcg_cut.10 in one pass. Only
   queries with a relevant document are in both (MLlib counts a query with
   no relevant document as 0, trec_eval and scorekit skip it: see
   docs/why-tools-disagree.md).

Both sides read the same cached frames; each timing is the best of
``--repeat`` runs after a warm-up. Develop at 1M rows, report at 10M:

    python benchmarks/bench_spark.py --rows 10000000 --repeat 1
"""

from __future__ import annotations

import os
import sys
import time

from _harness import compare, parser


def session(partitions: int) -> object:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("scorekit-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "3g")
        .config("spark.sql.shuffle.partitions", str(partitions))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def binary_frame(spark, rows: int, partitions: int, seed: int, digits: int | None = 3):
    from pyspark.sql import functions as F

    s = F.rand(seed) if digits is None else F.round(F.rand(seed), digits)
    df = spark.range(rows, numPartitions=partitions).select(s.alias("s"))
    df = df.withColumn("y", (F.rand(seed + 1) < F.col("s")).cast("double")).cache()
    df.count()
    return df


def ranking_frames(spark, rows: int, partitions: int, seed: int):
    from pyspark.sql import functions as F

    run = spark.range(rows, numPartitions=partitions).select(
        (F.col("id") / 100).cast("long").alias("query"),
        (F.col("id") % 100).alias("doc"),
        F.rand(seed + 2).alias("score"),
    )
    run = run.withColumn("relevance", (F.rand(seed + 3) < 0.2 * F.col("score")).cast("int"))
    run = run.cache()
    qrels = run.where("relevance = 1").select("query", "doc", "relevance").cache()
    judged = qrels.select("query").distinct()
    run = run.join(judged, "query").select("query", "doc", "score").cache()
    run.count(), qrels.count()
    return run, qrels


def mllib_ranking_frame(run, qrels):
    """One row per query: predicted docs in rank order, relevant docs (as doubles)."""
    from pyspark.sql import functions as F

    ranked = run.groupBy("query").agg(
        F.sort_array(
            F.collect_list(F.struct((-F.col("score")).alias("k"), F.col("doc").alias("d")))
        ).alias("r")
    )
    ranked = ranked.select("query", F.col("r.d").cast("array<double>").alias("prediction"))
    relevant = qrels.groupBy("query").agg(
        F.collect_list(F.col("doc").cast("double")).alias("label")
    )
    out = ranked.join(relevant, "query").cache()
    out.count()
    return out


def main() -> None:
    p = parser(__doc__.splitlines()[0], 1_000_000)
    p.add_argument("--partitions", type=int, default=8)
    p.add_argument(
        "--continuous-rows",
        type=int,
        default=1_000_000,
        help="rows of the continuous-score AUC (every score distinct: the exact state is "
        "the rows, shipped as JSON; default 1,000,000)",
    )
    p.add_argument("--check", action="store_true", help="check against the one-shot values")
    args = p.parse_args()
    spark = session(args.partitions)
    from pyspark.ml.evaluation import BinaryClassificationEvaluator, RankingEvaluator

    import scorekit
    from scorekit import spark as sks

    print(f"== binary: {args.rows:,} rows, 3-decimal scores, {args.partitions} partitions")
    df = binary_frame(spark, args.rows, args.partitions, args.seed)
    roc = BinaryClassificationEvaluator(
        rawPredictionCol="s", labelCol="y", metricName="areaUnderROC"
    )
    pr = BinaryClassificationEvaluator(rawPredictionCol="s", labelCol="y", metricName="areaUnderPR")
    # warm-up (JVM code paths, Python workers) on both sides
    roc.evaluate(df)
    sks.roc_auc(df, label="y", score="s")
    r = args.repeat
    compare(
        "roc_auc vs MLlib areaUnderROC",
        lambda: sks.roc_auc(df, label="y", score="s"),
        lambda: roc.evaluate(df),
        "MLlib",
        repeat=r,
    )
    compare(
        "average_precision vs areaUnderPR",
        lambda: sks.average_precision(df, label="y", score="s"),
        lambda: pr.evaluate(df),
        "MLlib",
        repeat=r,
    )
    compare(
        "roc_auc(aggregate=True) vs MLlib",
        lambda: sks.roc_auc(df, label="y", score="s", aggregate=True),
        lambda: roc.evaluate(df),
        "MLlib",
        repeat=r,
    )
    compare(
        "AP(aggregate=True) vs areaUnderPR",
        lambda: sks.average_precision(df, label="y", score="s", aggregate=True),
        lambda: pr.evaluate(df),
        "MLlib",
        repeat=r,
    )
    t0 = time.perf_counter()
    both = sks.metrics(df, ["roc_auc", "average_precision"], true="y", score="s")
    print(
        f"{'metrics(roc_auc, AP), one pass':<34} scorekit {time.perf_counter() - t0:9.4f} s   "
        f"roc_auc {both['roc_auc']!r}  average_precision {both['average_precision']!r}"
    )
    print(f"{'':<34} MLlib areaUnderROC {roc.evaluate(df)!r}  areaUnderPR {pr.evaluate(df)!r}")
    df.unpersist()
    c_rows = args.continuous_rows
    print(f"== binary: {c_rows:,} rows, continuous scores (MLlib bins: numBins=1000)")
    df = binary_frame(spark, c_rows, args.partitions, args.seed, digits=None)
    compare(
        "roc_auc vs MLlib areaUnderROC",
        lambda: sks.roc_auc(df, label="y", score="s"),
        lambda: roc.evaluate(df),
        "MLlib",
        repeat=r,
    )
    df.unpersist()
    if args.check:
        df = binary_frame(spark, args.rows, args.partitions, args.seed)
        cols = df.toPandas()
        assert both["roc_auc"] == scorekit.roc_auc(cols.y, cols.s)
        assert both["average_precision"] == scorekit.average_precision(cols.y, cols.s)
        print("exact values equal the one-shot scorekit values: yes")

    print(f"== ranking: {args.rows // 100:,} queries x 100 documents, binary grades")
    run, qrels = ranking_frames(spark, args.rows, args.partitions, args.seed)
    t0 = time.perf_counter()
    mll = mllib_ranking_frame(run, qrels)
    t_prep = time.perf_counter() - t0
    print(f"{'MLlib input (groupBy+collect_list)':<34} MLlib    {t_prep:9.4f} s")
    ap = RankingEvaluator(metricName="meanAveragePrecision")
    ndcg = RankingEvaluator(metricName="ndcgAtK", k=10)
    measures = ["map", "ndcg_cut.10"]
    sks.evaluate(qrels, run, measures)  # warm-up
    compare(
        "map vs meanAveragePrecision",
        lambda: next(iter(sks.evaluate(qrels, run, "map").mean().values())),
        lambda: ap.evaluate(mll),
        "MLlib",
        repeat=r,
    )
    compare(
        "ndcg_cut.10 vs ndcgAtK(10)",
        lambda: next(iter(sks.evaluate(qrels, run, "ndcg_cut.10").mean().values())),
        lambda: ndcg.evaluate(mll),
        "MLlib",
        repeat=r,
    )
    t0 = time.perf_counter()
    res = sks.evaluate(qrels, run, measures).mean()
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    mll.unpersist()
    mll = mllib_ranking_frame(run, qrels)
    ref = {"map": ap.evaluate(mll), "ndcg_cut.10": ndcg.evaluate(mll)}
    t_ref = time.perf_counter() - t0
    print(
        f"{'both measures, from the rows':<34} scorekit {t_ours:9.4f} s   MLlib {t_ref:9.4f} s "
        f"(input + 2 evaluators)   ratio {t_ref / t_ours:7.1f}x\n{'':<34} scorekit {res}\n"
        f"{'':<34} MLlib    {ref}"
    )
    spark.stop()


if __name__ == "__main__":
    main()
