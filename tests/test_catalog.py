"""The catalog walked row by row: function, accumulator (streamed == one-shot), Dask, CLI, report.

Every face that offers a metric by name reads ``scorekit._catalog``; this module
checks that each row really is reachable there and gives the one-shot value.
"""

from __future__ import annotations

import contextlib
import io
import json
import warnings

import numpy as np
import pytest

import scorekit as sk
from scorekit._catalog import FAMILIES, INPUT_KINDS, select
from scorekit.cli._commands import run

ROWS = sk.metrics()
RNG_SEEDS = (0, 1)
N = 200


def _data(kind: str, task: str, seed: int) -> tuple[np.ndarray, ...]:
    """Random data of a catalog input kind: ties on purpose, every class present."""
    rng = np.random.default_rng([seed, INPUT_KINDS.index(kind)])
    y = rng.integers(0, 2, N)
    y[:4] = [0, 1, 0, 1]
    if kind == "labels":
        k = 2 if task == "binary" else 3
        t, p = rng.integers(0, k, N), rng.integers(0, k, N)
        t[:k] = p[:k] = np.arange(k)
        return t, p
    if kind == "scores":
        return y, np.round(rng.normal(size=N) + y, 1)
    if kind == "probabilities":
        return y, np.clip(np.round(0.3 * y + 0.7 * rng.random(N), 2), 0.01, 0.99)
    if kind == "decision":
        return y, np.round(rng.normal(size=N) + y, 1)
    if kind == "multiclass_scores":
        t = rng.integers(0, 3, N)
        t[:3] = np.arange(3)
        return t, rng.dirichlet(np.ones(3), N)
    if kind == "multilabel_scores":
        t = rng.integers(0, 2, (N, 4))
        t[:, 0] = 1
        t[0] = 0
        return t, np.round(rng.random((N, 4)), 1)
    if kind == "regression":  # positive: every row (deviances, MSLE) is defined on it
        t = rng.uniform(1.0, 5.0, N)
        return t, np.round(t * rng.uniform(0.5, 1.5, N), 2)
    if kind == "clustering":
        a, b = rng.integers(0, 4, N), rng.integers(0, 5, N)
        return a, b
    if kind == "features":
        labels = rng.integers(0, 3, N)
        labels[:3] = np.arange(3)
        centres = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
        return centres[labels] + rng.normal(size=(N, 2)), labels
    if kind == "groups":
        g = rng.integers(0, 8, N)
        g[:16] = np.repeat(np.arange(8), 2)
        y[:16] = np.tile([0, 1], 8)
        return y, np.round(rng.random(N), 1), g
    if kind == "lists":
        return rng.integers(0, 25, (N // 4, 3)), np.int64(30)
    if kind == "sets":
        items = np.arange(30)
        return tuple(rng.choice(items, size=s, replace=False) for s in (12, 15, 18))
    raise AssertionError(kind)


def _same(a, b) -> bool:
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if hasattr(a, "to_dict") and not isinstance(a, np.ndarray):
        return _same(
            tuple(np.asarray(v) for v in a.to_dict().values()),
            tuple(np.asarray(v) for v in b.to_dict().values()),
        )
    x, y = np.asarray(a), np.asarray(b)
    if x.dtype.names:
        return all(np.array_equal(x[n], y[n], equal_nan=True) for n in x.dtype.names)
    return x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# ------------------------------------------------------------------------ the table


def test_every_public_metric_has_a_row():
    listed = {r.function for r in ROWS}
    result_classes = {"ThresholdTable", "GroupAUCTable", "GroupCalibrationTable", "OperatingPoint"}
    for family in FAMILIES:
        mod = getattr(sk, family)
        missing = [
            n for n in mod.__all__ if n not in result_classes and getattr(mod, n) not in listed
        ]
        assert missing == [], family


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_row_is_consistent(row):
    assert row.family in FAMILIES
    assert row.inputs in INPUT_KINDS
    assert getattr(sk, row.function.__name__) is row.function
    assert set(row.options) <= set(_params(row.function))
    assert row.description
    assert "\n" not in row.description
    if row.scalar:
        assert row.greater_is_better in (True, False) or row.name == "pcoc"
    if row.accumulator is not None:
        cls = getattr(sk.stream, row.accumulator)
        method = getattr(cls, row.method)
        assert set(row.options) <= set(_params(method))


def _params(fn):
    import inspect

    return inspect.signature(fn).parameters


def test_lookup_is_case_blind_and_suggests():
    assert sk.metric_info("F1_Macro") is sk.metric_info("f1_macro")
    with pytest.raises(sk.UnknownMetricError, match="did you mean 'f1_macro'"):
        sk.metric_info("f1_makro")
    with pytest.raises(sk.ParameterError, match="family must be one of"):
        sk.metrics("ranking")


def test_select_checks_inputs_and_classes():
    inputs = {"scores": None, "labels": "pass --threshold T"}
    assert [r.name for r in select(["roc_auc", "roc_auc"], inputs=inputs)] == ["roc_auc"]
    with pytest.raises(sk.ParameterError, match="f1 needs predicted labels: pass --threshold"):
        select(["f1"], inputs=inputs)
    with pytest.raises(sk.ParameterError, match=r"needs two classes.*f1_macro"):
        select(["f1"], inputs={"labels": None}, binary=False)
    with pytest.raises(sk.ParameterError, match="not a single number"):
        select(["roc_curve"], inputs=inputs)
    everything = select(["all"], inputs={"labels": None}, binary=False)
    assert everything
    assert all(r.task == "any" and r.scalar for r in everything)


# ------------------------------------------------------------- streamed == one-shot

MERGEABLE = [r for r in ROWS if r.mergeable]
#: the arguments a row needs besides its data (the operating points' limits)
LIMITS = {
    "precision_at_recall": {"min_recall": 0.5},
    "recall_at_precision": {"min_precision": 0.6},
    "sensitivity_at_specificity": {"min_specificity": 0.7},
    "specificity_at_sensitivity": {"min_sensitivity": 0.7},
    "tpr_at_fpr": {"max_fpr": 0.2},
}


@pytest.mark.parametrize("seed", RNG_SEEDS)
@pytest.mark.parametrize("row", MERGEABLE, ids=[r.name for r in MERGEABLE])
def test_streamed_equals_one_shot(row, seed):
    data = _data(row.inputs, row.task, seed)
    limits = LIMITS.get(row.name, {})
    expected = _quiet(row, *data, **limits)
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.integers(0, N, 3))
    parts = []
    for lo, hi in zip([0, *cuts], [*cuts, N], strict=True):
        acc = row.new_accumulator()
        acc.update(*(np.asarray(a)[lo:hi] for a in data))
        parts.append(acc)
    merged = row.new_accumulator()
    for acc in parts[::-1]:  # any merge order
        merged.merge(acc)
    assert _same(_quiet(row.from_state, merged, **limits), expected)


def test_metric_set_is_every_mergeable_row_at_once():
    y, s = _data("probabilities", "binary", 0)
    p = (s >= 0.5).astype(int)
    names = [r.name for r in select(["all"], inputs={"scores": None, "probabilities": None})]
    names = [n for n in names if sk.metric_info(n).mergeable]
    ms = sk.stream.MetricSet(names, score=True)
    for lo in range(0, N, 70):
        ms.update(y[lo : lo + 70], s[lo : lo + 70])
    again = sk.stream.MetricSet.from_dict(json.loads(json.dumps(ms.to_dict())))
    for name, value in again.values().items():
        assert value == sk.metric_info(name)(y, s), name
    labels = sk.stream.MetricSet(["f1", "accuracy"], pred=True).update(y, None, p)
    assert labels.values() == {"f1": sk.f1(y, p), "accuracy": sk.accuracy(y, p)}
    with pytest.raises(sk.ParameterError, match="not mergeable"):
        sk.stream.MetricSet(["brier_score"], score=True)
    with pytest.raises(sk.ParameterError, match="needs a prediction column"):
        sk.stream.MetricSet(["f1"], score=True)


# ---------------------------------------------------------------------------- Dask


@pytest.mark.dask
def test_dask_metrics_equal_one_shot():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    skd = pytest.importorskip("scorekit.dask")
    import dask

    y, s, g = _data("groups", "binary", 1)
    p = (s >= 0.5).astype(int)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "s": s, "p": p, "g": g}), npartitions=4)
    with dask.config.set(scheduler="synchronous"):
        got = skd.metrics(frame, ["all"], true="y", score="s", pred="p", group="g")
    assert {"roc_auc", "gauc", "f1_macro", "mae", "adjusted_rand_index"} <= set(got)
    data = {"scores": (y, s), "probabilities": (y, s), "groups": (y, s, g)}
    for name, value in got.items():
        row = sk.metric_info(name)
        args = data.get(row.inputs, (y, p))
        assert _same(value, _quiet(row, *args)), name


# ----------------------------------------------------------------- CLI and report

COMMANDS = {
    # (command, kinds it reaches, columns)
    "classify-score": (
        ["classify", "--true", "y", "--score", "s"],
        ("scores", "probabilities", "decision"),
    ),
    "classify-pred": (["classify", "--true", "y", "--pred", "p"], ("labels",)),
    "regress": (["regress", "--true", "t", "--pred", "r"], ("regression",)),
    "cluster": (["cluster", "--true", "a", "--pred", "b"], ("clustering",)),
    "gauc": (["gauc", "--true", "y", "--score", "s", "--group", "g"], ("groups",)),
}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    pd = pytest.importorskip("pandas")
    y, s = _data("probabilities", "binary", 0)
    _, _, g = _data("groups", "binary", 0)
    t, r = _data("regression", "any", 0)
    a, b = _data("clustering", "any", 0)
    frame = pd.DataFrame(
        {"y": y, "s": s, "p": (s >= 0.5).astype(int), "g": g, "t": t, "r": r, "a": a, "b": b}
    )
    path = tmp_path_factory.mktemp("catalog") / "data.csv"
    frame.to_csv(path, index=False)
    return path, frame


def _cli_json(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(argv)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("command", list(COMMANDS))
def test_cli_reaches_every_row_with_the_library_value(command, table):
    path, frame = table
    argv, kinds = COMMANDS[command]
    got = _cli_json([argv[0], str(path), *argv[1:], "-m", "all", "--format", "json", "-Q"])
    cols = {"y": frame.y.to_numpy(), "s": frame.s.to_numpy(), "p": frame.p.to_numpy()}
    data = {
        "scores": (cols["y"], cols["s"]),
        "probabilities": (cols["y"], cols["s"]),
        "decision": (cols["y"], cols["s"]),
        "labels": (cols["y"], cols["p"]),
        "regression": (frame.t.to_numpy(), frame.r.to_numpy()),
        "clustering": (frame.a.to_numpy(), frame.b.to_numpy()),
        "groups": (cols["y"], cols["s"], frame.g.to_numpy()),
    }
    reached = {r.name for r in ROWS if r.scalar and r.inputs in kinds}
    assert reached <= set(got)
    for name, entry in got.items():
        row = sk.metric_info(name)
        expected = _quiet(row, *data[row.inputs])
        value = np.nan if entry["value"] is None else entry["value"]
        assert value == pytest.approx(expected, rel=1e-12, abs=1e-15, nan_ok=True), name


def test_report_table_is_any_list_of_catalog_names():
    from scorekit.report import classification_section, regression_section

    y, s = _data("probabilities", "binary", 1)
    section = classification_section(
        y, y_score=s, metrics=["pr_auc", "gini,brier_score"], details=False
    )
    assert [m.name for m in section.metrics] == ["pr_auc", "gini", "brier_score"]
    assert section.metrics[1].value == sk.gini(y, s)
    t, r = _data("regression", "any", 1)
    section = regression_section(t, r, metrics=["all"], details=False)
    assert {m.name for m in section.metrics} == {
        x.name for x in sk.metrics("regression") if x.scalar
    }


REQUIRED = {
    "min_recall": 0.5,
    "min_precision": 0.6,
    "min_specificity": 0.5,
    "min_sensitivity": 0.5,
    "max_fpr": 0.2,
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_cli_reaches_every_structured_row_with_the_library_value(command, table):
    """Curves, tables and operating points: ``-m NAME(key=value)``, JSON == the library's."""
    import inspect

    from scorekit.report._data import structured

    path, frame = table
    argv, kinds = COMMANDS[command]
    rows = [r for r in ROWS if not r.scalar and r.inputs in kinds]
    cols = {"y": frame.y.to_numpy(), "s": frame.s.to_numpy(), "p": frame.p.to_numpy()}
    data = {
        "scores": (cols["y"], cols["s"]),
        "probabilities": (cols["y"], cols["s"]),
        "labels": (cols["y"], cols["p"]),
        "clustering": (frame.a.to_numpy(), frame.b.to_numpy()),
        "groups": (cols["y"], cols["s"], frame.g.to_numpy()),
    }
    for row in rows:
        params = inspect.signature(row.function).parameters
        opts = {k: v for k, v in REQUIRED.items() if k in params}
        name = row.name + (
            "(" + ",".join(f"{k}={v}" for k, v in opts.items()) + ")" if opts else ""
        )
        got = _cli_json([argv[0], str(path), *argv[1:], "-m", name, "--format", "json", "-Q"])
        expected = structured(_quiet(row, *data[row.inputs], **opts))
        assert got == {name: {"value": expected}}, row.name


def test_select_options_syntax():
    from scorekit._catalog import select

    inputs = {"scores": None}
    (r,) = select(["precision_at_recall(min_recall=0.9)"], inputs=inputs, structured=True)
    assert r.name == "precision_at_recall(min_recall=0.9)"
    assert dict(r.options) == {"min_recall": 0.9}
    assert r.accumulator is None
    assert r.bootstrap == "none"
    two = select(["roc_auc,tpr_at_fpr(max_fpr=0.1),pr_auc"], inputs=inputs, structured=True)
    assert [x.name for x in two] == ["roc_auc", "tpr_at_fpr(max_fpr=0.1)", "pr_auc"]
    with pytest.raises(sk.ParameterError, match="needs min_recall"):
        select(["precision_at_recall"], inputs=inputs, structured=True)
    with pytest.raises(sk.ParameterError, match="has no option 'min_recal'"):
        select(["precision_at_recall(min_recal=0.9)"], inputs=inputs, structured=True)
    with pytest.raises(sk.ParameterError, match="is not key=value"):
        select(["precision_at_recall(0.9)"], inputs=inputs, structured=True)
    with pytest.raises(sk.ParameterError, match="not a single number"):
        select(["det_curve"], inputs=inputs)
