"""Regression tests of issue 12: inputs that used to give a silent number or a raw exception."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scorekit as sk
from scorekit import LabelError, ParameterError, ScorekitError, ShapeError

DATES = np.array(["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04"], dtype="datetime64[D]")
Y = [0, 1, 0, 1]


@pytest.mark.parametrize(
    ("bad", "dtype"),
    [
        (DATES, "datetime64"),
        (DATES - DATES[0], "timedelta64"),
        (np.array([1, 2, 3, 4]) + 0j, "complex"),
        (np.array(["2020-01-01", "NaT", "NaT", "2020-01-01"], dtype="datetime64[D]"), "datetime64"),
    ],
)
@pytest.mark.parametrize("where", ["y_score", "sample_weight"])
def test_dates_durations_complex_are_not_numbers(bad, dtype, where):
    kwargs = {"y_score": bad} if where == "y_score" else {"sample_weight": bad}
    y_score = kwargs.pop("y_score", [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ShapeError, match=rf"{where} has dtype {dtype}"):
        sk.roc_auc(Y, y_score, **kwargs)


@pytest.mark.parametrize("frame", ["pandas", "polars", "pyarrow"])
def test_datetime_columns_of_frame_libraries_are_rejected(frame):
    lib = pytest.importorskip(frame)
    dates = DATES.astype("datetime64[us]")
    col = {
        "pandas": lambda: lib.Series(dates),
        "polars": lambda: lib.Series("d", dates),
        "pyarrow": lambda: lib.array(dates),
    }[frame]()
    with pytest.raises(ShapeError, match="y_pred has dtype datetime64"):
        sk.mae([1.0, 2.0, 3.0, 4.0], col)
    with pytest.raises(ShapeError, match="y_true has dtype datetime64"):
        sk.r2(col, [1.0, 2.0, 3.0, 4.0])


def test_dates_as_labels_name_the_dtype():
    with pytest.raises(LabelError, match=r"y_true has unsupported dtype datetime64.*dates"):
        sk.accuracy(DATES, DATES)


@pytest.mark.parametrize(
    "call",
    [
        lambda: sk.log_loss([0.2, 0.7, 0.1, 0.9], [0, 1, 0, 1]),
        lambda: sk.hinge_loss([0.2, 0.7, 0.1, 0.9], [0, 1, 0, 1]),
        lambda: sk.top_k_accuracy([0.2, 0.7, 0.1, 0.9], [0, 1, 0, 1], k=1),
        lambda: sk.brier_score([0.2, 0.7], [0.0, 1.0], pos_label=0.7),
    ],
)
def test_continuous_y_true_is_rejected_as_sklearn_does(call):
    with pytest.raises(ScorekitError, match="y_true holds continuous values"):
        call()


def test_integral_float_labels_still_work():
    assert sk.log_loss([0.0, 1.0], [0.1, 0.9]) == sk.log_loss([0, 1], [0.1, 0.9])


@pytest.mark.parametrize("metric", [sk.accuracy, sk.hamming_loss, sk.f1])
def test_multilabel_without_columns_is_rejected(metric):
    with pytest.raises(ShapeError, match="no label columns"):
        metric([[]], [[]])


def test_object_array_of_lists_is_not_labels():
    lists = np.empty(2, dtype=object)
    lists[0], lists[1] = [1, 2], [3]
    with pytest.raises(ShapeError, match="y_true holds list entries"):
        sk.accuracy(lists, lists)
    with pytest.raises(ShapeError, match="holds"):
        sk.hamming_loss(lists, lists)


def test_pos_label_absent_from_two_classes_raises():
    with pytest.raises(LabelError, match="pos_label=2 is not one of the labels"):
        sk.average_precision([0, 1], [0, 1], pos_label=2)
    with pytest.raises(LabelError, match="pos_label=2"):
        sk.roc_auc([0, 1], [0, 1], pos_label=2)
    with warnings.catch_warnings():  # one class present: undefined, not an error (as sklearn)
        warnings.simplefilter("ignore")
        assert sk.average_precision([1, 1], [0, 1], pos_label=2) == 0.0


def test_average_precision_multilabel_pos_label_is_fixed_to_one():
    y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    s = np.array([[0.2, 0.8], [0.6, 0.1], [0.3, 0.9], [0.5, 0.5]])
    with pytest.raises(ParameterError, match="pos_label=0"):
        sk.average_precision(y, s, pos_label=0)
    assert sk.average_precision(y, s, pos_label=1) == sk.average_precision(y, s)
    with pytest.raises(ParameterError, match="pos_label='a'"):
        sk.average_precision([0, 1, 2], np.eye(3), pos_label="a")


def test_ami_of_identical_partitions_is_one():
    assert sk.adjusted_mutual_info([0, 1, 2, 3], [3, 2, 1, 0]) == 1.0
    assert sk.adjusted_mutual_info(list("abcdefghij"), list(range(10))) == 1.0
    with pytest.warns(sk.UndefinedMetricWarning, match="0/0"):  # really 0/0: different partitions
        assert np.isnan(sk.adjusted_mutual_info([0, 1, 2, 3], [0, 0, 1, 1], average_method="min"))


def test_hamming_loss_of_labels_is_wrong_over_all():
    assert sk.hamming_loss([0, 1, 2], [0, 1, 1]) == 1 / 3
    assert sk.stream.ConfusionMatrix().update([0, 1, 2], [0, 1, 1]).hamming_loss() == 1 / 3


def test_rank_correlation_weights_must_be_numbers():
    with pytest.raises(ShapeError, match=r"weights\(u, v\) must be numeric"):
        sk.rank_correlation([1, 2, 3], [1, 3, 2], weights=lambda u, v: np.full(u.shape, "x"))
    with pytest.raises(ShapeError, match="weights must be numeric"):
        sk.rank_correlation([1, 2, 3], [1, 3, 2], weights=np.full((3, 3), "x"))


def test_python_sets_are_sets_of_items():
    assert sk.coverage_ratio({1, 2, 5, 6, 7, 9}, {1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 8}) == 0.5
    assert (
        sk.novelty_ratio(frozenset({1, 2, 5, 6, 7, 9}), {1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 8})
        == 0.6
    )


@pytest.mark.parametrize(
    ("y", "p"),
    [
        ([[1, 0], [0, 1], [0, 1]], [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]]),
        (
            [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0]],
            [[0.5, 0.2, 0.3], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4]],
        ),
        ([[1, 0, 1], [0, 1, 0]], [[0.5, 0.2, 0.3], [0.1, 0.6, 0.3]]),  # multilabel rows
    ],
)
def test_indicator_y_true_in_log_loss_and_brier(y, p):
    metrics = pytest.importorskip("sklearn.metrics")
    assert sk.log_loss(y, p) == pytest.approx(metrics.log_loss(y, p), rel=1e-12)
    assert sk.brier_score(y, p) == pytest.approx(metrics.brier_score_loss(y, p), rel=1e-12)
    w = np.arange(1.0, len(y) + 1)
    assert sk.log_loss(y, p, sample_weight=w) == pytest.approx(
        metrics.log_loss(y, p, sample_weight=w), rel=1e-12
    )
    p_arr = np.array(p)
    before = p_arr.copy()
    sk.log_loss(y, p_arr)
    np.testing.assert_array_equal(p_arr, before)  # inputs are never modified


def test_one_hot_equals_labels():
    p = [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]]
    assert sk.log_loss([[1, 0], [0, 1], [0, 1]], p) == sk.log_loss([0, 1, 1], p)
    with pytest.raises(ShapeError, match="values that are not 0/1"):
        sk.log_loss([[0.5, 0.5], [0.2, 0.8]], [[0.5, 0.5], [0.2, 0.8]])


@pytest.mark.parametrize(
    "call",
    [
        lambda c: sk.adjusted_rand_index(c, np.zeros(c.size)),
        lambda c: sk.contingency_matrix(c, np.zeros(c.size)),
        lambda c: sk.gauc(np.arange(c.size) % 2, np.arange(c.size, dtype=float), groups=c),
        lambda c: sk.pcoc_by_group(np.arange(c.size) % 2, np.full(c.size, 0.5), groups=c),
    ],
)
def test_strings_then_other_types_after_the_first_thousand(call):
    column = np.array(["a"] * 1000 + [1, 2], dtype=object)
    with pytest.raises(LabelError, match="mixes strings and other types"):
        call(column)


@pytest.mark.parametrize(
    "call",
    [
        lambda n: sk.stats.bootstrap_ci(
            sk.roc_auc, [0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6], n_resamples=n
        ),
        lambda n: sk.stats.paired_test([0.1, 0.5, 0.3], [0.2, 0.4, 0.1], n_resamples=n),
        lambda n: sk.calibration_curve([0, 1], [0.2, 0.7], n_bins=n),
        lambda n: sk.stream.BinaryCurve(bins=n),
    ],
)
def test_counts_have_a_sane_upper_bound(call):
    with pytest.raises(ParameterError, match=r"is outside \[1, 10_000_000\]"):
        call(10**12)
