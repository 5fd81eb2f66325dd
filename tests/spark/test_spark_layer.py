"""scorekit.spark on a local[2] session against the one-shot functions.

The frames are built partition by partition (``parallelize`` of chunks, one
chunk per partition) from rows in random order, so groups and queries span
partitions, and some partitions are empty, hold one row, or one class only.
They are cached once built (every job then reads the JVM's copy instead of
re-running the Python ``parallelize``) and small: each Spark job costs a task
per partition, so the frames have as few partitions and rows as the cases
need, and every module shares the one session of ``conftest.py``.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from functools import partial

import numpy as np
import pytest

import scorekit as sk
from scorekit._catalog import get

pd = pytest.importorskip("pandas")
pytest.importorskip("pyspark.sql", reason="pyspark is not installed (dev extra)")

from scorekit import spark as sks  # noqa: E402
from scorekit._errors import (  # noqa: E402
    DuplicateDocumentError,
    EmptyInputError,
    LabelError,
    NegativeWeightError,
    NonFiniteError,
    ParameterError,
    ShapeError,
)
from scorekit.stream import (  # noqa: E402
    BinaryCurve,
    ConfusionMatrix,
    GroupedCurve,
    RankingAccumulator,
)

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def spark(spark_session):
    return spark_session


def chunked(spark, pdf, cuts, *, cache=False):
    """A Spark frame with one partition per slice of ``pdf`` between ``cuts`` (some empty).

    ``cache``: materialise it in the JVM once, for a frame that many jobs read.
    """
    from pyspark.sql import types as T

    kinds = {"i": T.LongType(), "f": T.DoubleType(), "O": T.StringType(), "U": T.StringType()}
    schema = T.StructType([T.StructField(c, kinds[pdf[c].dtype.kind], True) for c in pdf.columns])
    rows = [
        tuple(v.item() if hasattr(v, "item") else v for v in r) for r in pdf.itertuples(index=False)
    ]
    bounds = [0, *cuts, len(rows)]
    chunks = [rows[a:b] for a, b in itertools.pairwise(bounds)]
    rdd = spark.sparkContext.parallelize(chunks, len(chunks)).flatMap(lambda c: c)
    df = spark.createDataFrame(rdd, schema)
    if cache:
        df = df.cache()
        df.count()
    return df


@pytest.fixture(scope="module")
def frame(spark):
    rng = np.random.default_rng(2024)
    n = 600
    s = np.round(rng.random(n), 2)  # ties
    y = (rng.random(n) < s).astype(np.int64)
    y[:40] = 0  # partition 0 (rows 0-39): one class only
    true = rng.integers(0, 4, n)
    pred = np.where(rng.random(n) < 0.6, true, rng.integers(0, 4, n))
    target = rng.normal(size=n) * 10 + 1e6
    words = np.array(["cat", "dog", "eel", "fox"])
    pdf = pd.DataFrame(
        {
            "y": y,
            "s": s,
            "w": rng.random(n) * 2,
            "g": np.char.add("u", rng.integers(0, 60, n).astype(str)).astype(object),
            "gi": rng.integers(0, 20, n),
            "t": words[true].astype(object),
            "p": words[pred].astype(object),
            "yt": target,
            "yp": target + rng.normal(size=n),
            "yt2": rng.random(n),
            "yp2": rng.random(n),
        }
    )
    # partitions: one-class, empty, one row, then two uneven slices (groups span them)
    return pdf, chunked(spark, pdf, [40, 40, 41, 250], cache=True)


def test_roc_auc_and_ap_bit_for_bit(frame):
    from pyspark.sql import functions as F

    pdf, df = frame
    assert df.rdd.getNumPartitions() == 5
    sizes = dict(df.groupBy(F.spark_partition_id()).count().collect())
    assert sizes == {0: 40, 2: 1, 3: 209, 4: 350}  # partition 1 is empty
    assert set(pdf.y[:40]) == {0}
    assert sks.roc_auc(df, label="y", score="s") == sk.roc_auc(pdf.y, pdf.s)
    assert sks.average_precision(df, label="y", score="s") == sk.average_precision(pdf.y, pdf.s)


def test_aggregate_counts_pairs_in_spark_same_bits(frame):
    pdf, df = frame
    assert sks.roc_auc(df, label="y", score="s", aggregate=True) == sk.roc_auc(pdf.y, pdf.s)
    got = sks.average_precision(df, label="y", score="s", aggregate=True, pos_label=0)
    assert got == sk.average_precision(pdf.y, pdf.s, pos_label=0)
    with pytest.raises(ParameterError, match="no sample_weight"):
        sks.roc_auc(df, label="y", score="s", sample_weight="w", aggregate=True)


def test_roc_auc_weighted_and_pos_label(frame):
    pdf, df = frame
    got = sks.roc_auc(df, label="y", score="s", sample_weight="w")
    assert got == pytest.approx(sk.roc_auc(pdf.y, pdf.s, sample_weight=pdf.w), rel=1e-12)
    got = sks.average_precision(df, label="y", score="s", pos_label=0)
    assert got == sk.average_precision(pdf.y, pdf.s, pos_label=0)


SCORE_METRICS = ["roc_auc", "gini", "rank_loss", "average_precision", "pr_auc", "log_loss"]
LABEL_METRICS = [
    "accuracy",
    "balanced_accuracy",
    "matthews_corrcoef",
    "cohen_kappa",
    "precision_macro",
    "recall_weighted",
    "f1_micro",
    "jaccard_macro",
    "hamming_loss",
]
CLUSTER_METRICS = ["adjusted_rand_index", "fowlkes_mallows", "adjusted_mutual_info", "v_measure"]
VALUE_METRICS = ["mae", "mse", "rmse", "r2", "explained_variance", "max_error", "mape"]


def test_metrics_catalog_families_one_pass_each(frame):
    pdf, df = frame
    got = sks.metrics(df, [*SCORE_METRICS, "gauc"], true="y", score="s", group="g")
    assert list(got) == [*SCORE_METRICS, "gauc"]
    for name in SCORE_METRICS:
        assert got[name] == get(name)(pdf.y, pdf.s), name
    assert got["gauc"] == sk.gauc(pdf.y, pdf.s, pdf.g)
    got = sks.metrics(df, [*LABEL_METRICS, *CLUSTER_METRICS], true="t", pred="p")
    for name in [*LABEL_METRICS, *CLUSTER_METRICS]:
        assert got[name] == get(name)(pdf.t, pdf.p), name
    got = sks.metrics(df, VALUE_METRICS, true="yt", pred="yp")
    for name in VALUE_METRICS:
        assert got[name] == get(name)(pdf.yt, pdf.yp), name


def test_metrics_all_weighted(frame):
    pdf, df = frame
    df2 = df.withColumn("b", (df.s > 0.5).cast("long"))
    pred = (pdf.s > 0.5).astype(np.int64)
    got = sks.metrics(df2, ["all"], true="y", score="s", pred="b", weight="w")
    assert len(got) > 20
    for name, value in got.items():
        row = get(name)
        if not row.scalar or not row.weighted:
            continue
        data = (
            (pdf.y, pdf.s)
            if row.inputs in ("scores", "probabilities", "decision")
            else (pdf.y, pred)
        )
        expected = row(*data, sample_weight=pdf.w)
        assert value == pytest.approx(expected, rel=1e-12, abs=1e-15), name


def test_regression_metrics_exact_with_weights_and_outputs(frame):
    pdf, df = frame
    got = sks.regression_metrics(
        df, true=["yt", "yt2"], pred=["yp", "yp2"], sample_weight="w", multioutput="raw_values"
    )
    yt, yp, w = pdf[["yt", "yt2"]].to_numpy(), pdf[["yp", "yp2"]].to_numpy(), pdf.w
    for name in ("mae", "mse", "rmse", "r2", "explained_variance"):
        expected = getattr(sk, name)(yt, yp, sample_weight=w, multioutput="raw_values")
        np.testing.assert_array_equal(got[name], expected, err_msg=name)


@pytest.mark.parametrize(
    ("group", "weights", "sample_weight", "shuffle"),
    [
        ("g", "impressions", None, True),
        ("g", "clicks", None, False),
        ("gi", None, None, True),
        ("gi", "impressions", "w", False),
    ],
)
def test_gauc_groups_split_across_partitions(frame, group, weights, sample_weight, shuffle):
    pdf, df = frame
    got = sks.gauc(
        df,
        label="y",
        score="s",
        group=group,
        weights=weights,
        sample_weight=sample_weight,
        shuffle=shuffle,
    )
    w = None if sample_weight is None else pdf[sample_weight]
    expected = sk.gauc(pdf.y, pdf.s, pdf[group], weights=weights, sample_weight=w)
    if sample_weight is None:
        assert got == expected
    else:
        assert got == pytest.approx(expected, rel=1e-12)


def test_python_stages_run_one_task_per_core(spark, frame):
    """Each Python task costs a round trip: the workers' stages are coalesced to the cores."""
    from scorekit.spark._reduce import one_wave

    _, df = frame
    many = df.repartition(7)
    cores = spark.sparkContext.defaultParallelism
    assert one_wave(many).rdd.getNumPartitions() == min(7, cores)
    # Spark collapses two coalesces into the outer one: never more tasks than cores
    assert one_wave(df.coalesce(1)).rdd.getNumPartitions() <= cores


def test_accumulate_returns_the_merged_state(frame):
    pdf, df = frame
    acc = sks.accumulate(df, BinaryCurve, ["y", "s"])
    one = BinaryCurve().update(pdf.y, pdf.s)
    assert acc.to_dict() == one.to_dict()
    assert BinaryCurve.from_dict(acc.to_dict()).roc_auc() == sk.roc_auc(pdf.y, pdf.s)
    cm = sks.accumulate(df, ConfusionMatrix, ["t", "p"])
    np.testing.assert_array_equal(cm.confusion_matrix(), sk.confusion_matrix(pdf.t, pdf.p))
    grouped = sks.accumulate(df, GroupedCurve, ["y", "s", "g"], sample_weight="w")
    expected = sk.gauc(pdf.y, pdf.s, pdf.g, sample_weight=pdf.w)
    assert grouped.gauc() == pytest.approx(expected, rel=1e-12)


def _ranking_frames(rng, int_ids):
    qrels_rows = [
        (q, d, int(rng.integers(-1, 4)))
        for q in range(30)
        for d in rng.choice(60, size=int(rng.integers(1, 15)), replace=False)
    ]
    run_rows = [  # q0-q2 judged but not retrieved; q30-q33 retrieved, not judged
        (q, d, float(np.round(rng.random(), 1)))
        for q in range(3, 34)
        for d in rng.choice(60, size=int(rng.integers(1, 30)), replace=False)
    ]
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"]).sample(frac=1, random_state=1)
    run = run.reset_index(drop=True)
    if int_ids == "mixed":  # integer ids in the qrels, their decimal text in the run
        run["query"] = run["query"].astype(str).astype(object)
        run["doc"] = run["doc"].astype(str).astype(object)
    elif not int_ids:
        for f in (qrels, run):
            f["query"] = ("q" + f["query"].astype(str)).astype(object)
            f["doc"] = ("d" + f["doc"].astype(str)).astype(object)
    return qrels, run


MEASURES = ["map", "P.5,10", "ndcg_cut.10", "recip_rank", "num_ret", "gm_map", "micro_set_P"]


@pytest.mark.parametrize(
    ("options", "int_ids"),
    [
        ({}, False),
        ({"all_queries": True}, True),
        ({"ties": "input_order"}, "mixed"),
        ({"ties": "average", "max_docs": 8}, False),
        ({"missing_queries": "zero", "judged_only": True}, "mixed"),
    ],
)
@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_queries_split_across_partitions(spark, options, int_ids, broadcast):
    """Both ways of meeting the judgments: grouped with the run, or read on the driver and sent."""
    qrels, run = _ranking_frames(np.random.default_rng(5), int_ids)
    n = len(run)
    got = sks.evaluate(
        chunked(spark, qrels, [50, 50, 120]),
        chunked(spark, run, [0, 1, n // 3, n // 2]),
        MEASURES,
        npartitions=None if broadcast else 3,
        per_query=True,
        broadcast_qrels=broadcast,
        **options,
    )
    expected = sk.evaluate(
        sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), MEASURES, per_query=True, **options
    )
    assert got.mean() == expected.mean()
    assert got.per_query == expected.per_query
    assert got.to_trec_eval(per_query=True) == expected.to_trec_eval(per_query=True)


def test_evaluate_run_already_partitioned_by_query(spark):
    """A run hash-partitioned by query (as a join or groupBy leaves it) is not shuffled again."""
    qrels, run = _ranking_frames(np.random.default_rng(9), True)
    run_df = spark.createDataFrame(run).repartition(3, "query").cache()
    run_df.count()  # materialised: Spark knows its partitioning and drops the repartition
    got = sks.evaluate(spark.createDataFrame(qrels), run_df, MEASURES, per_query=True)
    expected = sk.evaluate(
        sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), MEASURES, per_query=True
    )
    assert got.per_query == expected.per_query
    assert got.mean() == expected.mean()
    run_df.unpersist()


def test_ranking_accumulator_through_accumulate(spark):
    qrels, run = _ranking_frames(np.random.default_rng(7), False)
    judged = sk.Qrels.from_frame(qrels)
    acc = sks.accumulate(
        chunked(spark, run, [10, 10, 200]),
        RankingAccumulator,
        ["query", "doc", "score"],
        qrels=judged,
        measures=["map"],
    )
    expected = sk.evaluate(judged, sk.Run.from_frame(run), ["map"])
    assert acc.evaluate().mean() == expected.mean()


@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_grades_scores_and_ids_of_other_types(spark, broadcast):
    """Integer scores (ties everywhere), negative grades, long string ids, one doc per query.

    The rows reach the workers as one list per query and column (``collect_list``);
    the result is the one-shot evaluation's, to the bit.
    """
    rng = np.random.default_rng(12)
    qrels, run = _ranking_frames(rng, False)
    run["score"] = (run["score"] * 3).round().astype(np.int64)  # 4 distinct scores
    run["doc"] = run["doc"].map(lambda d: f"clueweb12-{d}-0000-{len(d) * 7}").astype(object)
    qrels["doc"] = qrels["doc"].map(lambda d: f"clueweb12-{d}-0000-{len(d) * 7}").astype(object)
    qrels.loc[::5, "relevance"] = -2  # pooled, not judged
    run = pd.concat([run, pd.DataFrame({"query": ["q99"], "doc": ["x"], "score": [1]})])
    qrels = pd.concat([qrels, pd.DataFrame({"query": ["q99"], "doc": ["x"], "relevance": [1]})])
    got = sks.evaluate(
        chunked(spark, qrels, [len(qrels) // 2]),
        chunked(spark, run, [0, len(run) // 3]),
        MEASURES,
        per_query=True,
        broadcast_qrels=broadcast,
    )
    expected = sk.evaluate(
        sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), MEASURES, per_query=True
    )
    assert got.per_query == expected.per_query
    assert got.mean() == expected.mean()


@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_duplicates_raise_as_one_shot(spark, broadcast):
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q", "q", "q"], "doc": ["a", "b", "a"], "score": [3.0, 2, 1]})
    with pytest.raises(DuplicateDocumentError) as one_shot:
        sk.evaluate(sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), "map")
    with pytest.raises(DuplicateDocumentError) as spark_err:
        sks.evaluate(
            chunked(spark, qrels, []), chunked(spark, run, [1]), "map", broadcast_qrels=broadcast
        )
    assert str(spark_err.value) == str(one_shot.value)
    qrels2 = pd.concat([qrels, qrels.iloc[:1]])
    run2 = run.iloc[:2]
    with pytest.raises(DuplicateDocumentError) as one_shot:
        sk.evaluate(sk.Qrels.from_frame(qrels2), sk.Run.from_frame(run2), "map")
    with pytest.raises(DuplicateDocumentError) as spark_err:
        sks.evaluate(
            chunked(spark, qrels2, [1]), chunked(spark, run2, []), "map", broadcast_qrels=broadcast
        )
    assert str(spark_err.value) == str(one_shot.value)


@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_null_and_nan_in_any_column_name_it(spark, broadcast):
    """``collect_list`` drops nulls: a row null in every column is still caught (row counts)."""
    qrels_schema = "query string, doc string, relevance int"
    run_schema = "query string, doc string, score double"
    good_q = [("q", "a", 1), ("q", "c", 0)]
    good_r = [("q", "a", 1.0), ("q", "b", 0.5)]
    cases = [
        (good_q, [*good_r, ("q", None, None)], "run_df column 'doc' has 1 null"),
        (good_q, [*good_r, ("q", "z", None), ("q", "y", None)], "run_df column 'score' has 2"),
        (good_q, [*good_r, ("q", "z", float("nan"))], "run_df column 'score' has 1 NaN"),
        (good_q, [*good_r, (None, "z", 1.0)], "run_df column 'query' has 1 null"),
        ([*good_q, (None, "z", 1)], good_r, "qrels_df column 'query' has 1 null"),
        ([*good_q, ("q", "z", None)], good_r, "qrels_df column 'relevance' has 1 null"),
        ([*good_q, ("q", None, None)], good_r, "qrels_df column 'doc' has 1 null"),
    ]
    for qrels_rows, run_rows, message in cases:
        qrels = spark.createDataFrame(qrels_rows, qrels_schema)
        run = spark.createDataFrame(run_rows, run_schema)
        with pytest.raises(NonFiniteError, match=message):
            sks.evaluate(qrels, run, "map", broadcast_qrels=broadcast)


@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_no_common_query_raises(spark, broadcast):
    qrels = spark.createDataFrame([("a", "x", 1)], ["query", "doc", "relevance"])
    run = spark.createDataFrame([("b", "x", 1.0)], ["query", "doc", "score"])
    with pytest.raises(EmptyInputError, match="no query"):
        sks.evaluate(qrels, run, "map", broadcast_qrels=broadcast)
    empty = spark.createDataFrame([], "query string, doc string, relevance int")
    with pytest.raises(EmptyInputError, match="no query"):
        sks.evaluate(empty, run, "map", broadcast_qrels=broadcast)


@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_ranks_a_partition_chunk_by_chunk(spark, monkeypatch, broadcast):
    """A worker ranks its queries a few list values at a time (bounded memory): same values."""
    from scorekit.spark import _ranking

    monkeypatch.setattr(_ranking, "_CHUNK", 40)  # a few queries per chunk
    qrels, run = _ranking_frames(np.random.default_rng(8), "mixed")
    options = {"per_query": True, "all_queries": True, "ties": "input_order"}
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "3")  # 3 queries a batch
    try:
        got = sks.evaluate(
            chunked(spark, qrels, [60]),
            chunked(spark, run, [len(run) // 3]),
            MEASURES,
            broadcast_qrels=broadcast,
            **options,
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    expected = sk.evaluate(sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), MEASURES, **options)
    assert got.per_query == expected.per_query
    assert got.mean() == expected.mean()


def test_chunks_cut_between_batches_at_the_list_value_count():
    pa = pytest.importorskip("pyarrow")
    from scorekit.spark import _ranking
    from scorekit.spark._reduce import gathered

    lists = pa.array([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]])
    batches = [pa.RecordBatch.from_arrays([lists.slice(i, 1)], ["d"]) for i in range(4)]
    values = partial(_ranking._list_values, lists=("d",))
    sizes = [t.num_rows for t in gathered(iter(batches), 4, values)]
    assert sizes == [2, 2]  # 3 + 1 values, then 2 + 4 (a chunk ends once it holds >= 4)
    assert [t.num_rows for t in gathered(iter(batches), 100, values)] == [4]


@pytest.mark.parametrize("broadcast", [False, True])
def test_evaluate_missing_queries_error_names_them_as_one_shot(spark, broadcast):
    """A judged query no run row has: the one-shot error, whichever worker would have seen it."""
    qrels, run = _ranking_frames(np.random.default_rng(3), False)
    with pytest.raises(EmptyInputError) as one_shot:
        sk.evaluate(
            sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), "map", missing_queries="error"
        )
    with pytest.raises(EmptyInputError) as spark_err:
        sks.evaluate(
            chunked(spark, qrels, [30]),
            chunked(spark, run, [len(run) // 2]),
            "map",
            missing_queries="error",
            broadcast_qrels=broadcast,
        )
    assert str(spark_err.value) == str(one_shot.value)


def test_evaluate_broadcasts_the_judgments_spark_would_broadcast(spark, monkeypatch):
    """By default the judgments go to the workers when Spark's size estimate is under its
    join broadcast threshold (a cached frame of a few rows), and are grouped with the run
    otherwise (a frame of unknown size, or the threshold -1); the values are the same."""
    from scorekit.spark import _ranking

    qrels, run = _ranking_frames(np.random.default_rng(11), True)
    small = spark.createDataFrame(qrels).cache()
    small.count()
    unknown = chunked(spark, qrels, [40])  # an RDD: Spark does not know its size
    run_df = chunked(spark, run, [len(run) // 2])
    seen = []
    real = _ranking._broadcast_state
    monkeypatch.setattr(
        _ranking, "_broadcast_state", lambda *a, **k: seen.append(1) or real(*a, **k)
    )
    a = sks.evaluate(small, run_df, MEASURES, per_query=True)
    assert seen == [1]
    b = sks.evaluate(unknown, run_df, MEASURES, per_query=True)
    assert seen == [1]
    spark.conf.set("spark.sql.autoBroadcastJoinThreshold", "-1")
    try:
        c = sks.evaluate(small, run_df, MEASURES, per_query=True)
    finally:
        spark.conf.unset("spark.sql.autoBroadcastJoinThreshold")
    assert seen == [1]
    expected = sk.evaluate(
        sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), MEASURES, per_query=True
    )
    for got in (a, b, c):
        assert got.per_query == expected.per_query
        assert got.mean() == expected.mean()
    small.unpersist()


# ------------------------------------------------------------------ bad input, on the driver


@pytest.fixture(scope="module")
def holes(spark):
    """Rows with a null score, a NaN score, a null label and a null group, in separate frames."""
    base = [(0, 0.1, "a", 1.0), (1, 0.9, "a", 1.0), (0, 0.3, "b", 1.0), (1, 0.4, "b", 1.0)] * 3
    schema = "y long, s double, g string, w double"

    def with_row(row):
        rows = [*base[:5], row, *base[5:]]
        return spark.createDataFrame(rows, schema)

    return {
        "null_score": with_row((1, None, "a", 1.0)),
        "nan_score": with_row((1, math.nan, "a", 1.0)),
        "null_label": with_row((None, 0.5, "a", 1.0)),
        "null_group": with_row((1, 0.5, None, 1.0)),
        "inf_weight": with_row((1, 0.5, "a", math.inf)),
        "negative_weight": with_row((1, 0.5, "a", -1.0)),
        "three_classes": with_row((2, 0.5, "a", 1.0)),
    }


@pytest.mark.parametrize(
    ("case", "error", "match"),
    [
        ("null_score", NonFiniteError, "column 's' has 1 null values"),
        ("nan_score", NonFiniteError, "column 's' has 1 NaN or infinite values"),
        ("null_label", NonFiniteError, "column 'y' has 1 null values"),
        ("inf_weight", NonFiniteError, "column 'w' has 1 NaN or infinite values"),
        ("negative_weight", NegativeWeightError, "sample_weight"),
        ("three_classes", LabelError, "class"),
    ],
)
def test_bad_rows_raise_scorekit_errors_on_the_driver(holes, case, error, match):
    df = holes[case]
    if case in ("null_score", "negative_weight"):
        with pytest.raises(error, match=match):
            sks.roc_auc(df, label="y", score="s", sample_weight="w")
    else:
        with pytest.raises(error, match=match):
            sks.metrics(df, ["roc_auc", "log_loss"], true="y", score="s", weight="w")


def test_null_group_and_nan_in_gauc_raise(holes):
    with pytest.raises(NonFiniteError, match="column 'g' has 1 null values"):
        sks.gauc(holes["null_group"], label="y", score="s", group="g")
    with pytest.raises(NonFiniteError, match="column 's' has 1 NaN"):
        sks.gauc(holes["nan_score"], label="y", score="s", group="g", shuffle=False)
    with pytest.raises(NonFiniteError, match="column 'y' has 1 null"):
        sks.roc_auc(holes["null_label"], label="y", score="s", aggregate=True)


def test_nan_policy_omit_drops_nan_but_nulls_still_raise(holes):
    df = holes["nan_score"]
    with pytest.warns(sk.OmittedRowsWarning):
        got = sks.roc_auc(df, label="y", score="s", nan_policy="omit")
    assert got == 1.0
    with pytest.warns(sk.OmittedRowsWarning):
        acc = sks.accumulate(df, BinaryCurve, ["y", "s"], nan_policy="omit")
    assert acc.roc_auc() == 1.0
    with pytest.raises(NonFiniteError, match="null"):
        sks.roc_auc(holes["null_score"], label="y", score="s", nan_policy="omit")


def test_counted_pairs_report_rows_not_pairs(spark):
    # the default (no weights) counts (label, score) pairs in the JVM: a bad value
    # repeated on three rows is one pair, and the message must still say 3 rows
    base = [(0, 0.1), (1, 0.9), (0, 0.3), (1, 0.4)] * 3
    schema = "y long, s double"
    nan = spark.createDataFrame([*base, *[(1, math.nan)] * 3, (0, math.nan)], schema)
    null = spark.createDataFrame([*base, *[(None, 0.5)] * 3], schema)
    for aggregate in (None, True, False):
        with pytest.raises(NonFiniteError, match="column 's' has 4 NaN or infinite values"):
            sks.roc_auc(nan, label="y", score="s", aggregate=aggregate)
        with pytest.raises(NonFiniteError, match="column 'y' has 3 null values"):
            sks.average_precision(null, label="y", score="s", aggregate=aggregate)
        # (the per-partition path warns per partition: of the partition's rows)
        total = "" if aggregate is False else "16 rows"
        with pytest.warns(sk.OmittedRowsWarning, match=f"dropped 4 of {total}"):
            got = sks.roc_auc(nan, label="y", score="s", nan_policy="omit", aggregate=aggregate)
        assert got == 1.0
    only_nan = spark.createDataFrame([(1, math.nan), (0, math.nan)], schema)
    with pytest.warns(sk.OmittedRowsWarning), pytest.raises(EmptyInputError):
        sks.roc_auc(only_nan, label="y", score="s", nan_policy="omit")


def test_default_counts_in_the_jvm_only_without_weights(frame, monkeypatch):
    from scorekit.spark import _metrics

    pdf, df = frame
    ran = []
    real = _metrics.reduce_frame
    monkeypatch.setattr(_metrics, "reduce_frame", lambda *a, **k: ran.append(1) or real(*a, **k))
    assert sks.roc_auc(df, label="y", score="s") == sk.roc_auc(pdf.y, pdf.s)
    assert ran == []  # no Python worker: the pairs were counted in Spark
    got = sks.roc_auc(df, label="y", score="s", sample_weight="w")
    assert got == pytest.approx(sk.roc_auc(pdf.y, pdf.s, sample_weight=pdf.w), rel=1e-12)
    assert ran == [1]
    assert sks.roc_auc(df, label="y", score="s", aggregate=False) == sk.roc_auc(pdf.y, pdf.s)
    with pytest.raises(ParameterError, match="True, False or None"):
        sks.roc_auc(df, label="y", score="s", aggregate="yes")


def test_null_in_run_names_the_frame(spark):
    qrels = spark.createDataFrame([("q", "a", 1)], ["query", "doc", "relevance"])
    run = spark.createDataFrame(
        [("q", "a", 1.0), ("q", "b", None)], "query string, doc string, score double"
    )
    with pytest.raises(NonFiniteError, match="run_df column 'score' has 1 null"):
        sks.evaluate(qrels, run, "map")
    floats = spark.createDataFrame([(1.5, "a", 1.0)], ["query", "doc", "score"])
    with pytest.raises(LabelError, match="run_df column 'query' must hold strings or integers"):
        sks.evaluate(qrels, floats, "map")


def test_bad_arguments_raise_before_any_job(spark, frame):
    pdf, df = frame
    with pytest.raises(ParameterError, match="no column 'nope'"):
        sks.roc_auc(df, label="y", score="nope")
    with pytest.raises(ShapeError, match=r"pyspark\.sql\.DataFrame"):
        sks.roc_auc(pdf, label="y", score="s")
    with pytest.raises(ParameterError, match="roc_auc"):
        sks.metrics(df, ["roc_auk"], true="y", score="s")
    with pytest.raises(ParameterError, match="prediction"):
        sks.metrics(df, ["accuracy"], true="y", score="s")
    with pytest.raises(ParameterError, match="not both"):
        sks.metrics(df, ["roc_auc"], true="y", score="s", weight="w", sample_weight="w")
    with pytest.raises(ParameterError, match="accumulator class"):
        sks.accumulate(df, "BinaryCurve", ["y", "s"])
    with pytest.raises(ParameterError, match="npartitions"):
        sks.gauc(df, label="y", score="s", group="g", npartitions=0)
    with pytest.raises(ParameterError, match="nan_policy"):
        sks.roc_auc(df, label="y", score="s", nan_policy="skip")


def test_import_scorekit_does_not_import_pyspark():
    code = "import sys, scorekit; print('pyspark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
