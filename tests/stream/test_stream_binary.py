"""BinaryCurve: chunked and merged in any order equals the one-shot functions; bins mode bounds."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import close, feed, json_roundtrip, outcome, pickle_roundtrip, same

import scorekit as sk
from scorekit._errors import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NonFiniteError,
    ParameterError,
    ProbabilityRangeError,
)
from scorekit.stream import BinaryCurve
from scorekit.stream import _binary as binary_module

SEEDS = st.integers(0, 2**32 - 1)


def _data(rng, n=None, kind=None):
    n = int(rng.integers(2, 300)) if n is None else n
    kind = kind or rng.choice(["ties", "few", "plain", "huge", "tiny", "negative"])
    if kind == "ties":
        s = np.round(rng.random(n), 2)
    elif kind == "few":
        s = rng.integers(0, 4, n) / 3.0
    elif kind == "huge":
        s = rng.integers(0, 50, n) * 1e7 + 1e9
    elif kind == "tiny":
        s = 0.5 + rng.integers(0, 30, n) * 1e-12
    elif kind == "negative":
        s = np.round(rng.normal(size=n) * 1e3, 1)
    else:
        s = rng.random(n)
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = [0, 1]  # both classes
    perm = rng.permutation(n)
    return y[perm], s[perm]


def _methods(y, s, w=None, pos_label=None):
    """(one-shot thunk, accumulator method thunk) pairs for every metric."""
    kw = {"sample_weight": w, "pos_label": pos_label}
    thr = np.r_[np.inf, np.quantile(s, [0.9, 0.5, 0.1]), -np.inf]
    return {
        "roc_auc": (lambda: sk.roc_auc(y, s, **kw), lambda a: a.roc_auc()),
        "partial_auc": (
            lambda: sk.roc_auc(y, s, max_fpr=0.3, **kw),
            lambda a: a.roc_auc(max_fpr=0.3),
        ),
        "average_precision": (
            lambda: sk.average_precision(y, s, **kw),
            lambda a: a.average_precision(),
        ),
        "roc_curve": (lambda: sk.roc_curve(y, s, **kw), lambda a: a.roc_curve()),
        "roc_curve_drop": (
            lambda: sk.roc_curve(y, s, drop_intermediate=True, **kw),
            lambda a: a.roc_curve(drop_intermediate=True),
        ),
        "pr_curve": (
            lambda: sk.precision_recall_curve(y, s, **kw),
            lambda a: a.precision_recall_curve(),
        ),
        "gini": (lambda: sk.gini(y, s, **kw), lambda a: a.gini()),
        "rank_loss": (lambda: sk.rank_loss(y, s, **kw), lambda a: a.rank_loss()),
        "ks": (lambda: sk.ks_statistic(y, s, **kw), lambda a: a.ks_statistic()),
        "bep": (lambda: sk.break_even_point(y, s, **kw), lambda a: a.break_even_point()),
        "table": (
            lambda: tuple(sk.threshold_table(y, s, **kw).to_numpy().tolist()),
            lambda a: tuple(a.threshold_table().to_numpy().tolist()),
        ),
        "table_thr": (
            lambda: tuple(sk.threshold_table(y, s, thr, **kw).to_numpy().tolist()),
            lambda a: tuple(a.threshold_table(thr).to_numpy().tolist()),
        ),
    }


@given(seed=SEEDS)
def test_chunked_equals_one_shot_exactly_unit_weights(seed):
    rng = np.random.default_rng(seed)
    y, s = _data(rng)
    acc = feed(BinaryCurve, (y, s), rng)
    for name, (one_shot, method) in _methods(y, s).items():
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        assert same(got, expected), name
        assert got_warned == warned, name


@given(seed=SEEDS)
def test_chunked_equals_one_shot_float_weights(seed):
    rng = np.random.default_rng(seed)
    y, s = _data(rng)
    w = rng.random(y.size) * 3
    w[rng.random(y.size) < 0.1] = 0.0
    w[:2] = 1.0
    acc = feed(BinaryCurve, (y, s), rng, sample_weight=w)
    for name, (one_shot, method) in _methods(y, s, w).items():
        expected, _ = outcome(one_shot)
        got, _ = outcome(lambda m=method: m(acc))
        assert close(got, expected), name


@given(seed=SEEDS)
def test_log_loss_equals_one_shot(seed):
    # Unit and integer weights: bit-identical (both sum the same fixed-point integers).
    # Fractional weights, and the binned mode (per-chunk float sums): to rounding.
    rng = np.random.default_rng(seed)
    y, s = _data(rng, kind=str(rng.choice(["ties", "few", "plain", "tiny"])))
    for w in (None, rng.integers(0, 4, y.size)):
        acc = feed(BinaryCurve, (y, s), rng, sample_weight=w)
        if w is not None and not w.any():  # nothing to average over: both raise
            with pytest.raises(sk.EmptyInputError, match="sample_weight sums to zero"):
                sk.log_loss(y, s, sample_weight=w)
            with pytest.raises(sk.EmptyInputError, match="sample_weight sums to zero"):
                acc.log_loss()
            continue
        assert acc.log_loss() == sk.log_loss(y, s, sample_weight=w)
    fractional = rng.random(y.size)
    acc = feed(BinaryCurve, (y, s), rng, sample_weight=fractional)
    want = sk.log_loss(y, s, sample_weight=fractional)
    assert acc.log_loss() == pytest.approx(want, rel=1e-12)
    for w in (None, fractional):
        binned = feed(lambda: BinaryCurve(bins=7), (y, s), rng, sample_weight=w)
        assert binned.log_loss() == pytest.approx(sk.log_loss(y, s, sample_weight=w), rel=1e-12)


def test_log_loss_bit_identical_on_large_continuous_chunks():
    # 200k distinct probabilities in 7 uneven chunks, merged in two accumulators.
    rng = np.random.default_rng(11)
    y = rng.random(200_000) < 0.3
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.0, 1.0)  # ties at 0 and 1
    edges = [0, 1, 999, 40_000, 40_001, 120_000, 150_000, 200_000]
    parts = [BinaryCurve(), BinaryCurve()]
    for i, (a, b) in enumerate(itertools.pairwise(edges)):
        parts[i % 2].update(y[a:b], s[a:b])
    assert parts[0].merge(parts[1]).log_loss() == sk.log_loss(y, s)


@given(seed=SEEDS)
def test_json_and_pickle_round_trips_change_nothing(seed):
    rng = np.random.default_rng(seed)
    y, s = _data(rng, kind="plain")
    for acc in (feed(BinaryCurve, (y, s), rng), feed(lambda: BinaryCurve(bins=5), (y, s), rng)):
        for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
            for name, (_, method) in _methods(y, s).items():
                assert same(method(back), method(acc)), name
            assert back.log_loss() == acc.log_loss()
            # the copy is a working accumulator: both take the same chunk alike
            back.update(y[:3], s[:3])
            acc2 = pickle_roundtrip(acc).update(y[:3], s[:3])
            assert back.roc_auc() == acc2.roc_auc()


def test_string_labels_and_pos_label():
    rng = np.random.default_rng(1)
    y, s = _data(rng, 200)
    labels = np.where(y == 1, "spam", "ham")
    acc = feed(lambda: BinaryCurve(pos_label="spam"), (labels, s), rng)
    assert acc.roc_auc() == sk.roc_auc(labels, s, pos_label="spam")
    assert acc.average_precision() == sk.average_precision(labels, s, pos_label="spam")


def test_bool_and_minus_one_labels():
    rng = np.random.default_rng(2)
    y, s = _data(rng, 100)
    assert BinaryCurve().update(y.astype(bool), s).roc_auc() == sk.roc_auc(y, s)
    assert BinaryCurve().update(2 * y - 1, s).roc_auc() == sk.roc_auc(y, s)


def test_worked_example_sklearn_docs():
    # scikit-learn's roc_curve documentation: y = [1, 1, 2, 2], scores [.1, .4, .35, .8],
    # pos_label=2. Ranked .8 (pos), .4 (neg), .35 (pos), .1 (neg): fpr 0, 0, .5, .5, 1 and
    # tpr 0, .5, .5, 1, 1; AUC = 3 of 4 (pos, neg) pairs in order = 0.75;
    # AP = ½·1 + ½·(2/3) = 5/6.
    acc = BinaryCurve(pos_label=2).update([1, 1], [0.1, 0.4]).update([2, 2], [0.35, 0.8])
    fpr, tpr, thr = acc.roc_curve()
    assert fpr.tolist() == [0.0, 0.0, 0.5, 0.5, 1.0]
    assert tpr.tolist() == [0.0, 0.5, 0.5, 1.0, 1.0]
    assert thr.tolist() == [np.inf, 0.8, 0.4, 0.35, 0.1]
    assert acc.roc_auc() == 0.75
    assert acc.average_precision() == pytest.approx(5 / 6, abs=1e-15)


def test_ties_across_chunks_count_one_half():
    # one positive and one negative at 0.5, in different chunks: a single tie, AUC 1/2
    acc = BinaryCurve().update([1], [0.5]).update([0], [0.5])
    assert acc.roc_auc() == 0.5
    assert acc.n_distinct == 1


def test_one_class_warns_like_one_shot():
    acc = BinaryCurve().update([1, 1], [0.2, 0.3])
    with pytest.warns(sk.UndefinedMetricWarning):
        assert np.isnan(acc.roc_auc())


def test_big_chunks_exact():
    rng = np.random.default_rng(3)
    n = 200_000
    s = np.round(rng.random(n), 4)
    y = rng.random(n) < s
    acc = BinaryCurve()
    for part in np.array_split(np.arange(n), 7):
        acc.update(y[part], s[part])
    assert acc.roc_auc() == sk.roc_auc(y, s)
    assert acc.average_precision() == sk.average_precision(y, s)


@given(seed=SEEDS)
def test_buffered_rows_flush_at_every_boundary(seed):
    # a tiny buffer: chunks above it bypass it, smaller ones fill it, weights switch on and off
    rng = np.random.default_rng(seed)
    y, s = _data(rng, 400, "ties")
    w = np.where(rng.random(400) < 0.5, 1.0, 2.0)
    acc = BinaryCurve()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(binary_module, "_BUFFER_ROWS", int(rng.integers(1, 60)))
        edges = np.unique(np.r_[0, rng.integers(0, 400, 12), 400])
        for i, (a, b) in enumerate(itertools.pairwise(edges)):
            acc.update(y[a:b], s[a:b], sample_weight=w[a:b] if i % 3 == 0 else None)
    used = np.where(np.isin(np.arange(400), _weighted_rows(edges)), w, 1.0)
    assert acc.roc_auc() == sk.roc_auc(y, s, sample_weight=used)  # weights are small integers


def _weighted_rows(edges):
    return np.concatenate(
        [np.arange(a, b) for i, (a, b) in enumerate(itertools.pairwise(edges)) if i % 3 == 0]
    )


# ---------------------------------------------------------------- bins mode


@given(seed=SEEDS, bins=st.integers(1, 40))
def test_bins_error_bounds_hold(seed, bins):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    s = rng.random(n) ** float(rng.choice([0.3, 1.0, 3.0]))
    y = (rng.random(n) < s).astype(int)
    y[:2] = [0, 1]
    w = None if seed % 3 else rng.random(n) + 0.1
    binned = feed(lambda: BinaryCurve(bins=bins), (y, s), rng, sample_weight=w)
    exact = sk.roc_auc(y, s, sample_weight=w)
    bound = binned.error_bounds()
    assert binned.n_distinct <= bins
    assert abs(binned.roc_auc() - exact) <= bound["roc_auc"] + 1e-12
    gap = sk.ks_statistic(y, s, sample_weight=w) - binned.ks_statistic()
    assert -1e-12 <= gap <= bound["ks_statistic"] + 1e-12


def test_bins_bound_is_attained():
    # all rows in one bin: every pair becomes a tie, AUC 1/2; the exact AUC is 1
    # and the bound Σ P_g N_g / (2 P N) = 2·2 / (2·2·2) = 1/2 is attained.
    acc = BinaryCurve(bins=2).update([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4])
    assert acc.roc_auc() == 0.5
    assert acc.error_bounds() == {"roc_auc": 0.5, "ks_statistic": 1.0}
    assert BinaryCurve().update([0], [0.5]).error_bounds()["roc_auc"] == 0.0


def test_bins_counts_exact_at_edges():
    rng = np.random.default_rng(4)
    s = rng.random(1000)
    y = rng.random(1000) < s
    acc = BinaryCurve(bins=10).update(y, s)
    table = acc.threshold_table()
    expected = sk.threshold_table(y, s, table.threshold)
    assert np.array_equal(table.tp, expected.tp)
    assert np.array_equal(table.fp, expected.fp)
    assert np.allclose(table.threshold, np.linspace(0, 1, 11)[:-1][::-1])


def test_bins_chunked_equals_unchunked_exactly():
    rng = np.random.default_rng(5)
    y, s = _data(rng, 500, "plain")
    one = BinaryCurve(bins=16, range=(0.2, 0.9)).update(y, s)
    many = feed(lambda: BinaryCurve(bins=16, range=(0.2, 0.9)), (y, s), rng)
    for name, (_, method) in _methods(y, s).items():
        assert same(method(many), method(one)), name


# ---------------------------------------------------------------- errors


def test_empty_accumulator_raises():
    with pytest.raises(EmptyInputError, match="no rows"):
        BinaryCurve().roc_auc()


def test_empty_chunks_are_skipped():
    acc = BinaryCurve().update([], []).update(np.zeros(0), np.zeros(0))
    assert acc.n_distinct == 0
    with pytest.raises(EmptyInputError):
        acc.average_precision()


def test_length_mismatch_raises():
    with pytest.raises(LengthMismatchError, match="y_score"):
        BinaryCurve().update([0, 1], [0.5])


def test_nan_scores_raise_or_are_omitted():
    with pytest.raises(NonFiniteError, match="y_score"):
        BinaryCurve().update([0, 1], [0.5, np.nan])
    acc = BinaryCurve(nan_policy="omit")
    with pytest.warns(sk.OmittedRowsWarning):
        acc.update([0, 1, 1], [0.5, np.nan, 0.7])
    assert acc.roc_auc() == 1.0


def test_three_classes_across_chunks_raise():
    acc = BinaryCurve().update([0, 1], [0.1, 0.2])
    with pytest.raises(LabelError, match="y_true"):
        acc.update([-1, 1], [0.1, 0.2])


def test_strings_then_numbers_raise():
    acc = BinaryCurve(pos_label=1).update([0, 1], [0.1, 0.2])
    with pytest.raises(LabelError, match="y_true"):
        acc.update(["a", "b"], [0.1, 0.2])


def test_strings_without_pos_label_raise():
    with pytest.raises(LabelError, match="pos_label"):
        BinaryCurve().update(["a", "b"], [0.1, 0.2])


def test_bad_bins_raise():
    with pytest.raises(ParameterError, match="bins"):
        BinaryCurve(bins=0)


def test_bad_range_raises():
    with pytest.raises(ParameterError, match="range"):
        BinaryCurve(bins=4, range=(1.0, 0.0))


def test_bad_nan_policy_raises():
    with pytest.raises(ParameterError, match="nan_policy"):
        BinaryCurve(nan_policy="drop")


def test_bad_max_fpr_raises():
    with pytest.raises(ParameterError, match="max_fpr"):
        BinaryCurve().update([0, 1], [0.1, 0.2]).roc_auc(max_fpr=0)


def test_nan_threshold_raises():
    with pytest.raises(NonFiniteError, match="thresholds"):
        BinaryCurve().update([0, 1], [0.1, 0.2]).threshold_table([np.nan])


def test_log_loss_outside_unit_interval_raises():
    with pytest.raises(ProbabilityRangeError, match="y_score"):
        BinaryCurve().update([0, 1], [0.1, 1.5]).log_loss()


def test_log_loss_one_class_raises():
    with pytest.raises(LabelError, match="one class"):
        BinaryCurve().update([1, 1], [0.1, 0.5]).log_loss()


def test_merge_other_kind_raises():
    with pytest.raises(ParameterError, match="ConfusionMatrix"):
        BinaryCurve().merge(sk.stream.ConfusionMatrix())


def test_merge_other_options_raises():
    with pytest.raises(ParameterError, match="options"):
        BinaryCurve(bins=4).merge(BinaryCurve(bins=5))


def test_from_dict_wrong_type_raises():
    d = sk.stream.RegressionMoments().to_dict()
    with pytest.raises(ParameterError, match="BinaryCurve"):
        BinaryCurve.from_dict(d)


def test_from_dict_wrong_version_raises():
    d = json.loads(json.dumps(BinaryCurve().to_dict()))
    d["version"] = 99
    with pytest.raises(ParameterError, match="version"):
        BinaryCurve.from_dict(d)


def test_inputs_not_modified():
    y = np.array([0, 1, 1, 0])
    s = np.array([0.3, -0.0, 0.5, 0.2])
    w = np.array([1.0, 2.0, 0.0, 1.0])
    copies = y.copy(), s.copy(), w.copy()
    BinaryCurve(bins=3).update(y, s, sample_weight=w).update(y, s)
    for a, b in zip((y, s, w), copies, strict=True):
        assert np.array_equal(a, b)
