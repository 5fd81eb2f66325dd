"""scorekit.dask on a distributed LocalCluster (2 worker processes) against the one-shot functions.

Rows are in random order, so every partition holds parts of many groups and
queries; the frames have several partitions, some of them tiny.
"""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

from scorekit import dask as skd  # noqa: E402
from scorekit._errors import EmptyInputError, ParameterError, ShapeError  # noqa: E402

pytestmark = pytest.mark.dask


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(2024)
    n = 3000
    s = np.round(rng.random(n), 3)
    y = (rng.random(n) < s).astype(int)
    true = rng.integers(0, 4, n)
    pred = np.where(rng.random(n) < 0.6, true, rng.integers(0, 4, n))
    target = rng.normal(size=n) * 10 + 1e6
    pdf = pd.DataFrame(
        {
            "y": y,
            "s": s,
            "w": rng.random(n) * 2,
            "g": np.char.add("u", rng.integers(0, 150, n).astype(str)),
            "t": np.array(["cat", "dog", "eel", "fox"])[true],
            "p": np.array(["cat", "dog", "eel", "fox"])[pred],
            "yt": target,
            "yp": target + rng.normal(size=n),
            "yt2": rng.random(n),
            "yp2": rng.random(n),
        }
    )
    return pdf, dd.from_pandas(pdf, npartitions=7)


def test_roc_auc_and_ap_exact(client, frame):
    pdf, ddf = frame
    assert skd.roc_auc(ddf, label="y", score="s") == sk.roc_auc(pdf.y, pdf.s)
    assert skd.average_precision(ddf, label="y", score="s", split_every=2) == (
        sk.average_precision(pdf.y, pdf.s)
    )


def test_roc_auc_weighted(client, frame):
    pdf, ddf = frame
    got = skd.roc_auc(ddf, label="y", score="s", sample_weight="w")
    assert got == pytest.approx(sk.roc_auc(pdf.y, pdf.s, sample_weight=pdf.w), rel=1e-12)


def test_classification_metrics_exact(client, frame):
    pdf, ddf = frame
    got = skd.classification_metrics(ddf, true="t", pred="p")
    t, p = pdf.t, pdf.p
    expected = {
        "accuracy": sk.accuracy(t, p),
        "precision_macro": sk.precision(t, p, average="macro"),
        "recall_macro": sk.recall(t, p, average="macro"),
        "f1_macro": sk.f1(t, p, average="macro"),
        "f1_micro": sk.f1(t, p, average="micro"),
        "f1_weighted": sk.f1(t, p, average="weighted"),
        "cohen_kappa": sk.cohen_kappa(t, p),
        "matthews_corrcoef": sk.matthews_corrcoef(t, p),
    }
    assert got == expected


def test_regression_metrics(client, frame):
    pdf, ddf = frame
    got = skd.regression_metrics(ddf, true="yt", pred="yp", sample_weight="w")
    for name in ("mae", "mse", "rmse", "r2", "explained_variance"):
        expected = getattr(sk, name)(pdf.yt, pdf.yp, sample_weight=pdf.w)
        assert got[name] == pytest.approx(expected, rel=1e-12), name
    two = skd.regression_metrics(
        ddf, true=["yt", "yt2"], pred=["yp", "yp2"], multioutput="raw_values"
    )
    y, p = pdf[["yt", "yt2"]].to_numpy(), pdf[["yp", "yp2"]].to_numpy()
    assert np.allclose(two["r2"], sk.r2(y, p, multioutput="raw_values"), rtol=1e-12, atol=0)


@pytest.mark.parametrize("shuffle", [True, False])
def test_gauc_exact(client, frame, shuffle):
    pdf, ddf = frame
    for weights in ("impressions", "clicks", None):
        got = skd.gauc(ddf, label="y", score="s", group="g", weights=weights, shuffle=shuffle)
        assert got == sk.gauc(pdf.y, pdf.s, pdf.g, weights=weights), weights
    got = skd.gauc(ddf, label="y", score="s", group="g", sample_weight="w", shuffle=shuffle)
    assert got == pytest.approx(sk.gauc(pdf.y, pdf.s, pdf.g, sample_weight=pdf.w), rel=1e-12)


def _ranking_frames(rng, int_ids=False):
    qrels_rows = [
        (q, d, int(rng.integers(0, 3)))
        for q in range(30)
        for d in rng.choice(60, size=int(rng.integers(1, 12)), replace=False)
    ]
    run_rows = [  # q0-q2 judged but not retrieved; q30-q33 retrieved, not judged
        (q, d, float(np.round(rng.random(), 1)))
        for q in range(3, 34)
        for d in rng.choice(60, size=int(rng.integers(1, 30)), replace=False)
    ]
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"]).sample(frac=1, random_state=1)
    if int_ids == "mixed":  # integer ids in the qrels, their decimal text in the run
        run["query"] = run["query"].astype(str)
        run["doc"] = run["doc"].astype(str)
    elif not int_ids:
        for f in (qrels, run):
            f["query"] = "q" + f["query"].astype(str)
            f["doc"] = "d" + f["doc"].astype(str)
    return qrels, run


MEASURES = ["map", "P.5,10", "ndcg_cut.10", "recip_rank", "num_ret", "gm_map", "micro_set_P"]


@pytest.mark.parametrize(
    ("all_queries", "int_ids"), [(False, False), (True, False), (True, True), (False, "mixed")]
)
def test_evaluate_exact(client, all_queries, int_ids):
    qrels, run = _ranking_frames(np.random.default_rng(5), int_ids)
    got = skd.evaluate(
        dd.from_pandas(qrels, npartitions=3),
        dd.from_pandas(run, npartitions=5),
        MEASURES,
        all_queries=all_queries,
        npartitions=6,
    )
    expected = sk.evaluate(
        sk.Qrels.from_frame(qrels), sk.Run.from_frame(run), MEASURES, all_queries=all_queries
    )
    assert got.mean() == expected.mean()
    assert got.per_query == expected.per_query
    assert got.to_trec_eval(per_query=True) == expected.to_trec_eval(per_query=True)


def test_evaluate_no_common_query_raises(client):
    qrels = pd.DataFrame({"query": ["a"], "doc": ["x"], "relevance": [1]})
    run = pd.DataFrame({"query": ["b"], "doc": ["x"], "score": [1.0]})
    with pytest.raises(EmptyInputError, match="no query"):
        skd.evaluate(
            dd.from_pandas(qrels, npartitions=1), dd.from_pandas(run, npartitions=1), "map"
        )


def test_missing_column_raises(frame):
    _, ddf = frame
    with pytest.raises(ParameterError, match="'score'"):
        skd.roc_auc(ddf, label="y", score="score")


def test_pandas_frame_raises(frame):
    pdf, _ = frame
    with pytest.raises(ShapeError, match="dask DataFrame"):
        skd.roc_auc(pdf, label="y", score="s")


def test_bad_split_every_raises(frame):
    _, ddf = frame
    with pytest.raises(ParameterError, match="split_every"):
        skd.classification_metrics(ddf, true="t", pred="p", split_every=1)


def test_bad_ranking_option_raises():
    frame = dd.from_pandas(pd.DataFrame({"query": ["q"], "doc": ["d"], "score": [1.0]}), 1)
    with pytest.raises(ParameterError, match="rel_level"):
        skd.evaluate(frame, frame, "map", rel_level=1.5)


def test_bad_gauc_weights_raise(frame):
    _, ddf = frame
    with pytest.raises(ParameterError, match="weights"):
        skd.gauc(ddf, label="y", score="s", group="g", weights="users")
