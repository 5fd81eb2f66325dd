"""``bootstrap_metrics``: every catalog row from one set of draws equals a per-resample recomputation.

The reference draws the resamples itself (``default_rng(seed)``, the blocks of
``bootstrap_ci``) and calls each metric on the resampled rows: the engine's
per-resample values must equal it exactly for counts and to 1e-12 for curves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from conftest import poisson_counts
from scorekit import ParameterError, UndefinedMetricWarning
from scorekit._catalog import get, metrics
from scorekit.stats import bootstrap_ci, bootstrap_metrics
from scorekit.stats._bootstrap import _blocks
from scorekit.stats._engine import _resample
from scorekit.stats._vectorised import draw_cell_counts

CURVE_ROWS = [
    r.name
    for r in metrics("classification")
    if r.accumulator == "BinaryCurve" and r.scalar and not r.options
]
LABEL_ROWS = [
    r.name
    for r in metrics("classification")
    if r.accumulator == "ConfusionMatrix" and r.scalar and r.inputs == "labels"
]
OTHER_ROWS = ["brier_score", "expected_calibration_error", "hinge_loss"]


def _data(n: int, seed: int, decimals: int | None = None) -> dict[str, tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.clip(rng.beta(2, 5, n) + 0.2 * y, 0.0, 1.0)
    if decimals is not None:
        s = np.round(s, decimals)  # ties
    y_hat = (s >= 0.4).astype(np.int64)
    return {
        "scores": (y, s),
        "probabilities": (y, s),
        "decision": (y, s),
        "labels": (y, y_hat),
    }


def _reference(names, data, n_resamples, seed, weights="multinomial"):
    """Each metric called on each resample's rows (the draws made here, as the seed contract says)."""
    n = data["scores"][0].shape[0]
    rng = np.random.default_rng(seed)
    draws = []
    if weights == "poisson":  # each row's multiplicity, rows in score order (conftest)
        counts = poisson_counts(n_resamples, seed, *data["scores"])
        draws = [np.repeat(np.arange(n), c) for c in counts]
    for size in _blocks(n_resamples, n) if weights == "multinomial" else ():
        draws.extend(rng.integers(0, n, size=(size, n)))
    out = np.empty((len(names), n_resamples))
    for j, name in enumerate(names):
        row = get(name)
        for b, rows in enumerate(draws):
            try:
                with warnings.catch_warnings():  # the metric's value where it warns (AP: 0)
                    warnings.simplefilter("ignore", UndefinedMetricWarning)
                    out[j, b] = row(*(a[rows] for a in data[row.inputs]))
            except Exception:  # one class drawn: undefined
                out[j, b] = np.nan
    return out


@pytest.mark.parametrize("decimals", [None, 2])
@pytest.mark.parametrize("weights", ["multinomial", "poisson"])
def test_curve_rows_equal_per_resample_recomputation(decimals, weights):
    names = CURVE_ROWS
    assert {"roc_auc", "average_precision", "ks_statistic", "log_loss", "pr_auc", "gini"} <= set(
        names
    )
    data = _data(400, 1, decimals)
    rows = [get(m) for m in names]
    _, theta_hat, got = _resample(rows, data, lambda r: {}, 60, 7, weights, None)
    want = _reference(names, data, 60, 7, weights)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    point = [get(m)(*data[get(m).inputs]) for m in names]
    np.testing.assert_allclose(theta_hat, point, rtol=0, atol=1e-12)


@pytest.mark.parametrize("cut", [True, False])
@pytest.mark.parametrize("weights", ["multinomial", "poisson"])
def test_count_rows_equal_exactly(weights, cut):
    names = LABEL_ROWS
    assert {"accuracy", "precision", "recall", "f1", "matthews_corrcoef"} <= set(names)
    data = _data(300, 2)
    if not cut:  # predicted labels that are not a cut of the scores: their own 2x2 cells
        y = data["labels"][0]
        data["labels"] = (y, np.random.default_rng(0).integers(0, 2, y.size))
    rows = [get(m) for m in names]
    _, _, got = _resample(rows, data, lambda r: {}, 40, 3, weights, None)
    want = _reference(names, data, 40, 3, weights)
    for j, name in enumerate(names):
        # counts are exact; ratios of the same counts are the same floats up to one rounding
        np.testing.assert_allclose(got[j], want[j], rtol=1e-15, atol=0, err_msg=name)
    # the 2x2 tables of each resample are exact counts
    plan, _, _ = _resample(rows, data, lambda r: {}, 1, 3, weights, None)
    assert (plan.split is not None) == cut
    idx = np.random.default_rng(3).integers(0, 300, size=(5, 300))
    y, y_hat = data["labels"]
    curves = plan._curve_counts(idx, None) if cut else None
    tables = plan._confusion_counts(idx, None, curves)
    for b in range(5):
        want_table = np.bincount(2 * y[idx[b]] + y_hat[idx[b]], minlength=4)
        np.testing.assert_array_equal(tables[b], want_table)


def test_weighted_rows_equal_per_resample_recomputation():
    data = _data(300, 4, 3)
    rows = [get(m) for m in OTHER_ROWS]
    _, _, got = _resample(rows, data, lambda r: {}, 30, 11, "multinomial", None)
    want = _reference(OTHER_ROWS, data, 30, 11)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_regression_rows_resample_rows():
    rng = np.random.default_rng(5)
    t = rng.normal(size=200)
    p = t + rng.normal(size=200)
    names = ["mae", "rmse", "r2", "median_absolute_error"]
    got = bootstrap_metrics([get(m) for m in names], {"regression": (t, p)}, n_resamples=50, seed=2)
    for name, interval in zip(names, got, strict=True):
        row = get(name)
        want = bootstrap_ci(lambda a, b, r=row: r(a, b), t, p, n_resamples=50, seed=2)
        assert interval == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_intervals_equal_bootstrap_ci(method):
    # scores on a grid: few cells, so BCa's jackknife is the exact leave-one-row-out one
    data = _data(250, 6, 1)
    names = ["roc_auc", "average_precision", "ks_statistic", "accuracy", "f1", "brier_score"]
    got = bootstrap_metrics(
        [get(m) for m in names], data, n_resamples=80, seed=9, method=method, confidence=0.9
    )
    for name, interval in zip(names, got, strict=True):
        row = get(name)
        fn = "roc_auc" if name == "roc_auc" else (lambda *a, r=row: r(*a))
        want = bootstrap_ci(
            fn, *data[row.inputs], n_resamples=80, seed=9, method=method, confidence=0.9
        )
        assert interval == pytest.approx(want, abs=1e-12), name


def test_bca_grouped_jackknife_for_many_rows():
    # more distinct cells than the jackknife's 256 units: the acceleration uses groups of rows
    data = _data(2000, 8)
    (low, high), = bootstrap_metrics([get("average_precision")], data, n_resamples=200, seed=1,
                                     method="bca")  # fmt: skip
    (plow, phigh), = bootstrap_metrics([get("average_precision")], data, n_resamples=200, seed=1)  # fmt: skip
    ap = get("average_precision")(*data["scores"])
    assert low < ap < high
    assert abs(low - plow) < 0.02
    assert abs(high - phigh) < 0.02


def test_basic_is_the_percentile_interval_reflected():
    data = _data(300, 3)
    names = ["roc_auc", "log_loss", "recall"]
    rows = [get(m) for m in names]
    pct = bootstrap_metrics(rows, data, n_resamples=100, seed=4)
    basic = bootstrap_metrics(rows, data, n_resamples=100, seed=4, method="basic")
    for row, (lo, hi), (blo, bhi) in zip(rows, pct, basic, strict=True):
        theta = row(*data[row.inputs])
        assert blo == pytest.approx(2 * theta - hi, abs=1e-12)
        assert bhi == pytest.approx(2 * theta - lo, abs=1e-12)


def test_basic_worked_example():
    # values 0 and 1, mean 0.5 on the data: resample means lie in [0, 1] and the
    # basic interval is the percentile one reflected about 0.5 (symmetric here)
    x = np.array([0.0, 1.0] * 50)
    lo, hi = bootstrap_ci(np.mean, x, n_resamples=500, seed=0)
    blo, bhi = bootstrap_ci(np.mean, x, n_resamples=500, seed=0, method="basic")
    assert (blo, bhi) == pytest.approx((1.0 - hi, 1.0 - lo), abs=1e-15)


def test_progress_is_called_per_block_and_ends_at_total():
    data = _data(300_000, 1, 3)  # 6 resamples per block of 2M draws
    calls = []
    bootstrap_metrics(
        [get("roc_auc")], data, n_resamples=13, seed=0, progress=lambda d, t: calls.append((d, t))
    )
    # one call per block (6, 6 and 1 resamples); two threads may finish them in either order
    done = [d for d, _ in calls]
    assert {t for _, t in calls} == {13}
    assert done == sorted(done)
    assert done[-1] == 13
    assert sorted(np.diff([0, *done]).tolist()) == [1, 6, 6]


def test_undefined_resamples_are_dropped_with_a_warning():
    y = np.array([1] + [0] * 9)
    s = np.linspace(0, 1, 10)
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        ((lo, hi),) = bootstrap_metrics([get("roc_auc")], {"scores": (y, s)}, n_resamples=50)
    assert 0.0 <= lo <= hi <= 1.0


def test_inputs_are_not_modified_and_same_seed_same_result():
    data = _data(200, 2)
    copies = {k: tuple(a.copy() for a in v) for k, v in data.items()}
    rows = [get(m) for m in ("roc_auc", "brier_score", "f1")]
    a = bootstrap_metrics(rows, data, n_resamples=30, seed=3)
    b = bootstrap_metrics(rows, data, n_resamples=30, seed=3)
    assert a == b
    for k, v in data.items():
        for x, y in zip(v, copies[k], strict=True):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_resamples": 0}, "n_resamples=0 is outside"),
        ({"n_resamples": 2.5}, "n_resamples must be an integer"),
        ({"method": "student"}, "method='student'"),
        ({"weights": "bayesian"}, "weights='bayesian'"),
        ({"confidence": 1.0}, "confidence=1.0"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_arguments_raise(kwargs, match):
    with pytest.raises(ParameterError, match=match):
        bootstrap_metrics([get("roc_auc")], _data(20, 0), **kwargs)


def test_different_lengths_raise():
    y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.2, 0.3])
    with pytest.raises(ParameterError, match="different lengths"):
        bootstrap_metrics(
            [get("roc_auc"), get("accuracy")],
            {"scores": (y, np.r_[s, 0.5]), "labels": (y[:3], y[:3])},
            n_resamples=5,
        )


def test_no_rows_no_intervals():
    assert bootstrap_metrics([], {}, n_resamples=5) == []


# ----------------------------------------------------------------------------- CLI


def _sk(*args):
    env = {**os.environ, "SCOREKIT_PROGRESS_DELAY": "60"}
    return subprocess.run(
        [sys.executable, "-m", "scorekit.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.parametrize("method", ["bca", "basic"])
def test_cli_ci_method(tmp_path, method):
    data = _data(300, 5, 2)
    y, s = data["scores"]
    path = tmp_path / "p.csv"
    path.write_text(
        "y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))
    )
    args = ["classify", path, "--true", "y", "--score", "s", "--bootstrap", "60", "--seed", "2"]
    args += ["--draws", "rows"]  # bootstrap_ci's draws (auto draws Poisson weights here)
    out = _sk(*args, "--ci-method", method, "--format", "json", "--quiet")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    got = json.loads(out.stdout)
    want = bootstrap_ci("roc_auc", y, s, n_resamples=60, seed=2, method=method)
    assert (got["roc_auc"]["ci_low"], got["roc_auc"]["ci_high"]) == pytest.approx(want, abs=1e-12)
    bad = _sk(*args, "--ci-method", "student")
    assert bad.returncode == 2
    assert "--ci-method" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_cli_progress_bar_replaces_the_spinner_and_is_silent_when_quiet():
    from scorekit.cli._progress import Progress

    with Progress(quiet=True) as p:
        assert p.bar("bootstrap") is None
    with Progress(quiet=False, delay=60) as p:
        bar = p.bar("bootstrap")
        assert bar is not None
        bar(5, 10)
        assert bar._bar is not None
        assert bar._bar._display is not None
        bar(10, 10)
        assert bar._bar is None


def test_cell_draws_follow_their_seed_contract():
    # weights="cells": resample b is a multinomial(n, cell_counts / n) over the (label, score)
    # cells; the rows it stands for are each cell's (label, score) repeated by its count
    data = _data(500, 3, 2)
    y, s = data["scores"]
    names = [*CURVE_ROWS, "brier_score", "accuracy", "f1"]
    rows = [get(m) for m in names]
    _, _, got = _resample(rows, data, lambda r: {}, 110, 5, "cells", None)
    uniq, g = np.unique(s, return_inverse=True)
    cells = g + uniq.size * y
    full = np.bincount(cells, minlength=2 * uniq.size)
    # blocks of 50 resamples, block j drawn by the j-th of the generators spawned in order
    streams = np.random.default_rng(5).spawn(3)
    tables = np.zeros((110, full.size), dtype=np.int64)
    tables[:, full > 0] = np.concatenate(
        [
            draw_cell_counts(st, full[full > 0], k)
            for st, k in zip(streams, (50, 50, 10), strict=True)
        ]
    )
    label = np.repeat([0, 1], uniq.size)
    score = np.tile(uniq, 2)
    y_hat = data["labels"][1]
    cut = uniq[np.unique(g[y_hat == 1]).min()]
    for b in range(110):
        yy, ss = np.repeat(label, tables[b]), np.repeat(score, tables[b])
        resample = {
            "scores": (yy, ss),
            "probabilities": (yy, ss),
            "labels": (yy, (ss >= cut).astype(np.int64)),
        }
        for j, row in enumerate(rows):
            want = row(*resample[row.inputs])
            assert got[j, b] == pytest.approx(want, abs=1e-12), row.name


def test_cell_draws_need_every_metric_on_the_cells():
    data = _data(100, 1)
    data["labels"] = (data["labels"][0], np.random.default_rng(0).integers(0, 2, 100))
    with pytest.raises(ParameterError, match="weights='cells'"):
        bootstrap_metrics([get("roc_auc"), get("accuracy")], data, n_resamples=5, weights="cells")


def test_cli_draws_cells_and_its_error(tmp_path):
    data = _data(300, 5, 2)
    y, s = data["scores"]
    path = tmp_path / "p.csv"
    path.write_text(
        "y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))
    )
    args = ["classify", path, "--true", "y", "--score", "s", "--bootstrap", "40", "--seed", "1"]
    out = _sk(*args, "--draws", "cells", "--format", "json", "--quiet")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["roc_auc"]
    ((low, high),) = bootstrap_metrics(
        [get("roc_auc")], {"scores": (y, s)}, n_resamples=40, seed=1, weights="cells"
    )
    assert (got["ci_low"], got["ci_high"]) == pytest.approx((low, high), abs=1e-12)
    bad = _sk(*args, "--draws", "cells", "-m", "roc_auc,expected_calibration_error")
    assert bad.returncode == 2
    assert "--draws cells" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- block kernels

VECTOR_ROWS = [
    "roc_auc",
    "gini",
    "average_precision",
    "ks_statistic",
    "log_loss",
    "brier_score",
    "accuracy",
    "precision",
    "recall",
    "sensitivity",
    "specificity",
    "f1",
]


def _small_blocks(monkeypatch):
    # blocks of a few resamples, so that both threads take several blocks
    from scorekit.stats import _bootstrap

    monkeypatch.setattr(_bootstrap, "_BLOCK_ELEMENTS", 64)


@pytest.mark.parametrize("weights", ["multinomial", "poisson"])
def test_block_kernels_on_degenerate_resamples(weights, monkeypatch):
    # 12 rows, 2 positives, tied scores: resamples with one class, no predicted positive,
    # no positive at all; every kernel's convention (nan, 0) equals the per-resample metric
    _small_blocks(monkeypatch)
    y = np.array([0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    s = np.array([0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.5, 0.6, 0.6, 0.7, 0.9, 0.95])
    data = {
        "scores": (y, s),
        "probabilities": (y, s),
        "labels": (y, (s >= 0.6).astype(np.int64)),
    }
    rows = [get(m) for m in VECTOR_ROWS]
    plan, theta_hat, got = _resample(rows, data, lambda r: {}, 300, 4, weights, None)
    assert all(job.vector is not None for job in plan.jobs)  # the block kernels ran
    want = _reference(VECTOR_ROWS, data, 300, 4, weights)
    assert np.isnan(want[0]).any()  # some resamples drew one class
    for j, name in enumerate(VECTOR_ROWS):
        np.testing.assert_allclose(got[j], want[j], rtol=1e-15, atol=1e-12, err_msg=name)
    point = [get(m)(*data[get(m).inputs]) for m in VECTOR_ROWS]
    np.testing.assert_allclose(theta_hat, point, rtol=1e-15, atol=1e-12)


@pytest.mark.parametrize("case", ["no positive", "no negative", "every score shared", "top cut"])
def test_poisson_rows_on_one_class_and_shared_scores(case):
    # the kernels read the cumulative weights at the positives' scores only: data with no
    # positive (one empty column), no negative, every positive's score also a negative's
    # (the weight through each score read, not derived) and a cut above every score
    rng = np.random.default_rng(17)
    n = 500
    s = np.round(rng.random(n), 1 if case == "every score shared" else 6)
    y = (rng.random(n) < 0.2).astype(np.int64)
    if case == "no positive":
        y[:] = 0
    elif case == "no negative":
        y[:] = 1
    cut = 2.0 if case == "top cut" else 0.5
    data = {"scores": (y, s), "probabilities": (y, s), "labels": (y, (s >= cut).astype(np.int64))}
    names = VECTOR_ROWS
    rows = [get(m) for m in names]
    plan, theta_hat, got = _resample(rows, data, lambda r: {}, 30, 6, "poisson", None)
    assert plan.on_rows()  # the block kernels on the sorted rows ran
    want = _reference(names, data, 30, 6, "poisson")
    for j, name in enumerate(names):
        np.testing.assert_allclose(got[j], want[j], rtol=1e-14, atol=1e-12, err_msg=name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        point = [_undefined_nan(get(m), data) for m in names]
    np.testing.assert_allclose(theta_hat, point, rtol=1e-14, atol=1e-12)


def _undefined_nan(row, data):
    try:
        return row(*data[row.inputs])
    except Exception:  # one class: undefined
        return np.nan


@pytest.mark.parametrize("weights", ["multinomial", "cells"])
def test_merged_columns_on_rare_positives(weights, monkeypatch):
    # 3% positives, continuous scores: runs of negative-only scores are merged into one
    # column each; every value still equals the per-resample recomputation
    _small_blocks(monkeypatch)
    rng = np.random.default_rng(12)
    n = 3000
    y = (rng.random(n) < 0.03).astype(np.int64)
    s = np.clip(rng.beta(1, 8, n) + 0.1 * y, 0, 1)
    s[:200] = np.round(s[:200], 2)  # some ties too
    data = {"scores": (y, s), "probabilities": (y, s), "labels": (y, (s >= 0.2).astype(np.int64))}
    names = [*VECTOR_ROWS, "pr_auc", "matthews_corrcoef"]  # the last two: per resample
    rows = [get(m) for m in names]
    plan, _, got = _resample(rows, data, lambda r: {}, 24, 8, weights, None)
    layout = plan.layout()
    assert layout.columns < plan.curve[1] / 5  # far fewer columns than distinct scores
    if weights == "multinomial":
        want = _reference(names, data, 24, 8)
    else:  # the cell draws' own contract: the rows each cell's count stands for
        uniq, g = np.unique(s, return_inverse=True)
        full = np.bincount(g + uniq.size * y, minlength=2 * uniq.size)
        tables = np.zeros((24, full.size), dtype=np.int64)
        tables[:, full > 0] = draw_cell_counts(
            np.random.default_rng(8).spawn(1)[0], full[full > 0], 24
        )
        want = np.empty((len(names), 24))
        for b in range(24):
            yy = np.repeat(np.repeat([0, 1], uniq.size), tables[b])
            ss = np.repeat(np.tile(uniq, 2), tables[b])
            resample = {"scores": (yy, ss), "probabilities": (yy, ss),
                        "labels": (yy, (ss >= 0.2).astype(np.int64))}  # fmt: skip
            for j, row in enumerate(rows):
                want[j, b] = row(*resample[row.inputs])
    for j, name in enumerate(names):
        np.testing.assert_allclose(got[j], want[j], rtol=1e-14, atol=1e-12, err_msg=name)


def test_threads_do_not_change_the_resamples(monkeypatch):
    _small_blocks(monkeypatch)
    data = _data(400, 9)
    rows = [get(m) for m in ("roc_auc", "log_loss", "f1")]
    from scorekit.stats import _vectorised

    _, _, two = _resample(rows, data, lambda r: {}, 90, 1, "multinomial", None)
    monkeypatch.setattr(_vectorised, "_THREADS", 1)
    _, _, one = _resample(rows, data, lambda r: {}, 90, 1, "multinomial", None)
    np.testing.assert_array_equal(two, one)
    np.testing.assert_allclose(two, _reference(["roc_auc", "log_loss", "f1"], data, 90, 1),
                               rtol=1e-15, atol=1e-12)  # fmt: skip


def test_auto_draws_cells_when_they_are_few():
    grid = _data(5000, 2, 2)  # at most 2 x 101 cells for 5,000 rows: cells
    rows = [get(m) for m in ("roc_auc", "average_precision", "brier_score", "recall")]
    auto = bootstrap_metrics(rows, grid, n_resamples=40, seed=3, weights="auto")
    assert auto == bootstrap_metrics(rows, grid, n_resamples=40, seed=3, weights="cells")
    fine = _data(5000, 2)  # one cell per row, every row with a block kernel: Poisson rows
    auto = bootstrap_metrics(rows, fine, n_resamples=40, seed=3, weights="auto")
    assert auto == bootstrap_metrics(rows, fine, n_resamples=40, seed=3, weights="poisson")
    assert auto != bootstrap_metrics(rows, fine, n_resamples=40, seed=3)
    # a row without a block kernel (MCC: per resample): row indices
    mcc = [*rows, get("matthews_corrcoef")]
    auto = bootstrap_metrics(mcc, fine, n_resamples=40, seed=3, weights="auto")
    assert auto == bootstrap_metrics(mcc, fine, n_resamples=40, seed=3)
    # a metric that is not on the cells (labels that are no score cut): rows
    grid["labels"] = (grid["labels"][0], np.random.default_rng(0).integers(0, 2, 5000))
    auto = bootstrap_metrics(rows, grid, n_resamples=40, seed=3, weights="auto")
    assert auto == bootstrap_metrics(rows, grid, n_resamples=40, seed=3)


@pytest.mark.parametrize("counts", [[1, 2], [3, 0, 1, 2], [5, 1, 1, 1, 2]])
def test_poissonised_cell_draws_are_the_multinomial(counts):
    # every outcome's frequency over 40,000 draws against the multinomial pmf (scipy):
    # the Poisson draws plus the fix-up (added or removed draws) must be exactly Mult(n, p)
    from scipy.stats import multinomial

    counts = np.array(counts)
    n, draws = int(counts.sum()), 40_000
    x = draw_cell_counts(np.random.default_rng(1), counts, draws)
    assert (x.sum(axis=1) == n).all()
    assert (x[:, counts == 0] == 0).all()
    outcomes, freq = np.unique(x, axis=0, return_counts=True)
    pmf = multinomial.pmf(outcomes, n, counts / n)
    # each common outcome's frequency within 5 standard errors of its probability, and
    # the rare ones (expected fewer than 20 times, or never drawn) pooled
    common = pmf * draws >= 20
    rare = 1.0 - pmf[common].sum()
    freq = np.r_[freq[common], freq[~common].sum()] / draws
    pmf = np.r_[pmf[common], rare]
    se = np.sqrt(pmf * (1 - pmf) / draws)
    assert np.all(np.abs(freq - pmf) <= 5 * se + 1e-12)
    # and the plain row bootstrap's cell counts have the same first two moments
    np.testing.assert_allclose(x.mean(axis=0), counts, atol=0.05 * n)
    cov = np.cov(x.T)
    p = counts / n
    np.testing.assert_allclose(cov, n * (np.diag(p) - np.outer(p, p)), atol=0.05 * n)


def test_values_take_full_cell_tables_as_before():
    # callers that pass every (label, score) cell's count, shape (block, 2G), get the same values
    data = _data(300, 4, 2)
    rows = [get(m) for m in ("roc_auc", "average_precision", "brier_score", "f1")]
    plan, _, _ = _resample(rows, data, lambda r: {}, 5, 0, "cells", None)
    full = np.bincount(plan.curve[0], minlength=2 * plan.curve[1])
    tables = np.random.default_rng(0).multinomial(300, full / 300, size=7)
    got = plan.values(None, None, tables)
    want = plan.values(None, None, tables[:, full > 0])
    np.testing.assert_array_equal(got, want)
    for b in range(7):
        rows_b = np.repeat(np.arange(full.size), tables[b])
        y_b, s_b = rows_b // plan.curve[1], plan.curve[2][rows_b % plan.curve[1]]
        assert got[0, b] == pytest.approx(get("roc_auc")(y_b, s_b), abs=1e-12)


@pytest.mark.parametrize("decimals", [None, 0, 2, 4])
def test_score_cells_equal_the_sorted_codes(decimals):
    # exact decimal scores are coded by a bincount (no sort): the same codes as np.unique's
    from scorekit.stats._bootstrap import auc_cells
    from scorekit.stats._vectorised import score_cells

    rng = np.random.default_rng(3)
    s = rng.random(5000) * 3 - 1
    if decimals is not None:
        s = np.round(s, decimals)
    s[:3] = [-0.0, 0.0, 0.0]
    y = rng.random(5000) < 0.2
    cells, groups, uniq = score_cells(y, s)
    want_cells, want_groups = auc_cells(y, s)
    assert groups == want_groups
    np.testing.assert_array_equal(cells, want_cells)
    np.testing.assert_array_equal(uniq, np.unique(s))


def test_poisson_table_is_the_inverse_cdf_at_16_bits():
    from scipy.stats import poisson

    from scorekit.stats._rowweights import POISSON_TABLE

    edges = np.round(poisson.cdf(np.arange(30), 1.0) * 65536)
    want = np.searchsorted(edges, np.arange(65536), side="right")
    np.testing.assert_array_equal(POISSON_TABLE, want)
    freq = np.bincount(POISSON_TABLE, minlength=12) / 65536
    assert np.abs(freq - poisson.pmf(np.arange(12), 1.0)).max() <= 2.0**-16
    assert POISSON_TABLE.max() == 8  # P(w = 8) is 1 / 65536


@pytest.mark.parametrize("threads", [1, 2])
def test_poisson_rows_across_chunks_and_blocks(threads, monkeypatch):
    # chunks of 256 rows and blocks of 7 resamples: the cumulative sums carried across
    # chunks, the positives' weights, the cut and the losses; rare positives and ties
    from scorekit.stats import _engine, _rowweights, _vectorised

    monkeypatch.setattr(_rowweights, "ROW_CHUNK", 256)
    monkeypatch.setattr(_rowweights, "ROW_BLOCK", 7)
    monkeypatch.setattr(_engine, "ROW_BLOCK", 7)
    monkeypatch.setattr(_vectorised, "_THREADS", threads)
    rng = np.random.default_rng(21)
    n = 3001
    y = (rng.random(n) < 0.04).astype(np.int64)
    s = np.clip(rng.beta(1, 8, n) + 0.1 * y, 0, 1)
    s[:300] = np.round(s[:300], 2)
    data = {"scores": (y, s), "probabilities": (y, s), "labels": (y, (s >= 0.2).astype(np.int64))}
    names = [*VECTOR_ROWS, "pr_auc", "matthews_corrcoef"]  # the last two: per resample
    rows = [get(m) for m in names]
    _, _, got = _resample(rows[:-2], data, lambda r: {}, 30, 5, "poisson", None)
    want = _reference(names, data, 30, 5, "poisson")
    for j, name in enumerate(names[:-2]):
        np.testing.assert_allclose(got[j], want[j], rtol=1e-14, atol=1e-12, err_msg=name)
    _, _, got = _resample(rows, data, lambda r: {}, 30, 5, "poisson", None)  # weights per row
    for j, name in enumerate(names):
        np.testing.assert_allclose(got[j], want[j], rtol=1e-14, atol=1e-12, err_msg=name)
