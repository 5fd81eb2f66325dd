"""Score-based classification metrics against scikit-learn (and scipy) on seeded random data.

Every case is compared to 1e-9 on: ties (scores rounded to a few values),
weights (zeros included), {0,1}, {-1,1}, bool and string labels, huge (1e6–1e9)
and tiny (1e-12 apart) scores, scores of both signs over a wide range (the
merge fallback of the sort), one class present, multiclass ovr/ovo with
labels=, multilabel averages and max_fpr.
"""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk
from scorekit._errors import UndefinedMetricWarning

metrics = pytest.importorskip("sklearn.metrics")
calibration = pytest.importorskip("sklearn.calibration")
stats = pytest.importorskip("scipy.stats")

pytestmark = pytest.mark.reference

# the texts of scikit-learn's warnings for undefined values
SKLEARN_WARNING = "Only one class|No positive|No negative|greater than or equal to"

KINDS = [
    "plain",
    "ties",
    "few_values",
    "huge",
    "tiny",
    "negative",
    "mixed_small",
    "wide_mixed",
    "int_scores",
    "clipped",
]


def _scores(rng, n, kind):
    s = rng.random(n)
    if kind == "ties":
        return np.round(s, 1)
    if kind == "few_values":
        return rng.integers(0, 3, n) * 0.25
    if kind == "huge":
        return 1e6 + s * 1e9
    if kind == "tiny":
        return 0.5 + rng.integers(0, 40, n) * 1e-12
    if kind == "negative":
        return -1e3 * s - 1
    if kind == "mixed_small":  # both signs, packed relative to the minimum
        return np.round(s - 0.5, 2)
    if kind == "wide_mixed":  # needs all 64 bits: the positives/negatives merge path
        return (s - 0.5) * 1e4
    if kind == "int_scores":
        return rng.integers(-5, 6, n)
    if kind == "clipped":  # mostly distinct, ties only at 0 and 1
        return np.clip(rng.normal(0.5, 0.4, n), 0.0, 1.0)
    return s


def _binary(seed, kind, n=None):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300)) if n is None else n
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int)
    y[:2] = [0, 1]
    rng.shuffle(y)
    return y, _scores(rng, n, kind), rng.random(n) * (rng.random(n) < 0.9)


def close(got, want, tol=1e-9):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            close(g, w, tol)
        return
    got_a, want_a = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got_a.shape == want_a.shape
    np.testing.assert_allclose(got_a, want_a, rtol=tol, atol=tol)


# ours, reference, reference needs sklearn's drop_intermediate=False
BINARY = [
    (sk.roc_auc, metrics.roc_auc_score),
    (sk.average_precision, metrics.average_precision_score),
    (sk.roc_curve, lambda y, s, **kw: metrics.roc_curve(y, s, drop_intermediate=False, **kw)),
    (sk.precision_recall_curve, metrics.precision_recall_curve),
    (sk.pr_auc, lambda y, s, **kw: metrics.auc(*metrics.precision_recall_curve(y, s, **kw)[1::-1])),
    (sk.gini, lambda y, s, **kw: 2 * metrics.roc_auc_score(y, s, **kw) - 1),
    (sk.rank_loss, lambda y, s, **kw: 1 - metrics.roc_auc_score(y, s, **kw)),
    (
        sk.ks_statistic,
        lambda y, s, **kw: np.max(np.subtract(*metrics.roc_curve(y, s, **kw)[1::-1])),
    ),
]
BINARY_IDS = [ours.__name__ for ours, _ in BINARY]


@pytest.mark.parametrize(("ours", "ref"), BINARY, ids=BINARY_IDS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_binary_unweighted(ours, ref, kind, seed):
    y, s, _ = _binary(seed, kind)
    close(ours(y, s), ref(y, s))


@pytest.mark.parametrize(("ours", "ref"), BINARY, ids=BINARY_IDS)
@pytest.mark.parametrize("kind", ["plain", "ties", "wide_mixed"])
@pytest.mark.parametrize("seed", range(3))
def test_binary_weighted(ours, ref, kind, seed):
    y, s, w = _binary(seed, kind)
    close(ours(y, s, sample_weight=w), ref(y, s, sample_weight=w))


@pytest.mark.parametrize(("ours", "ref"), BINARY, ids=BINARY_IDS)
def test_binary_large_with_ties(ours, ref):
    y, s, _ = _binary(7, "ties", n=20_000)
    close(ours(y, s), ref(y, s))
    y, s, _ = _binary(8, "plain", n=20_000)
    close(ours(y, s), ref(y, s))
    y, s, _ = _binary(9, "clipped", n=20_000)
    close(ours(y, s), ref(y, s))


@pytest.mark.parametrize(("ours", "ref"), BINARY, ids=BINARY_IDS)
def test_label_codings(ours, ref):
    y, s, _ = _binary(3, "ties")
    want = ref(y, s)
    close(ours(y.astype(bool), s), want)
    close(ours(np.where(y == 1, 1, -1), s), want)
    close(ours(y.astype(float), s), want)
    close(ours(np.where(y == 1, "spam", "ham"), s, pos_label="spam"), want)
    close(ours(np.where(y == 1, 3, 7), s, pos_label=3), want)
    close(ours(y, s.tolist()), want)


def test_ks_statistic_equals_scipy_one_sided_two_sample_ks():
    for seed in range(5):
        y, s, _ = _binary(seed, "ties")
        want = stats.ks_2samp(s[y == 0], s[y == 1], alternative="greater").statistic
        close(sk.ks_statistic(y, s), max(want, 0.0))


@pytest.mark.parametrize("max_fpr", [0.05, 0.3, 0.5, 0.99, 1.0])
@pytest.mark.parametrize("kind", ["plain", "ties", "few_values"])
def test_partial_auc(max_fpr, kind):
    for seed in range(3):
        y, s, w = _binary(seed, kind)
        close(sk.roc_auc(y, s, max_fpr=max_fpr), metrics.roc_auc_score(y, s, max_fpr=max_fpr))
        want = metrics.roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w)
        close(sk.roc_auc(y, s, max_fpr=max_fpr, sample_weight=w), want)


def test_one_class_roc_auc_is_nan_with_warning_like_sklearn():
    y, s = np.ones(5, int), np.linspace(0, 1, 5)
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref = metrics.roc_auc_score(y, s)
    with pytest.warns(UndefinedMetricWarning, match="only one class"):
        got = sk.roc_auc(y, s)
    assert np.isnan(got)
    assert np.isnan(ref)
    for fn in (sk.gini, sk.rank_loss, sk.ks_statistic):
        with pytest.warns(UndefinedMetricWarning):
            assert np.isnan(fn(np.zeros(5, int), s))


def test_no_positive_average_precision_matches_sklearn():
    y, s = np.zeros(6, int), np.linspace(0, 1, 6)
    with pytest.warns(UserWarning, match="No positive class"):
        ref = metrics.average_precision_score(y, s)
    with pytest.warns(UndefinedMetricWarning, match="no positive"):
        got = sk.average_precision(y, s)
    assert got == ref == 0.0
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref_curve = metrics.precision_recall_curve(y, s)
    with pytest.warns(UndefinedMetricWarning):
        close(sk.precision_recall_curve(y, s), ref_curve)


def test_roc_curve_one_class_gives_nan_rates_like_sklearn():
    y, s = np.zeros(4, int), np.array([0.1, 0.5, 0.5, 0.9])
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref = metrics.roc_curve(y, s, drop_intermediate=False)
    with pytest.warns(UndefinedMetricWarning, match="true positive rate"):
        got = sk.roc_curve(y, s)
    for g, r in zip(got, ref, strict=True):
        np.testing.assert_array_equal(g, r)


def test_roc_curve_drop_intermediate_matches_sklearn():
    for seed in range(4):
        y, s, w = _binary(seed, "few_values")
        close(sk.roc_curve(y, s, drop_intermediate=True), metrics.roc_curve(y, s))
        want = metrics.roc_curve(y, s, sample_weight=w)
        close(sk.roc_curve(y, s, drop_intermediate=True, sample_weight=w), want)
        y, s, _ = _binary(seed, "ties")
        close(
            sk.precision_recall_curve(y, s, drop_intermediate=True),
            metrics.precision_recall_curve(y, s, drop_intermediate=True),
        )


# ---------------------------------------------------------------- multiclass and multilabel


def _multiclass(seed, n_classes=4, n=None, ties=False):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(n_classes * 3, 300)) if n is None else n
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    raw = rng.random((n, n_classes))
    if ties:
        raw = np.round(raw * 4) + 1
    p = raw / raw.sum(axis=1, keepdims=True)
    return y, p, rng.random(n)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
@pytest.mark.parametrize("ties", [False, True])
def test_roc_auc_ovr(average, ties):
    for seed in range(3):
        y, p, w = _multiclass(seed, ties=ties)
        kw = {"multi_class": "ovr", "average": average}
        close(sk.roc_auc(y, p, **kw), metrics.roc_auc_score(y, p, **kw))
        close(
            sk.roc_auc(y, p, sample_weight=w, **kw),
            metrics.roc_auc_score(y, p, sample_weight=w, **kw),
        )


@pytest.mark.parametrize("average", ["macro", "weighted"])
@pytest.mark.parametrize("ties", [False, True])
def test_roc_auc_ovo(average, ties):
    for seed in range(3):
        y, p, _ = _multiclass(seed, n_classes=5, ties=ties)
        kw = {"multi_class": "ovo", "average": average}
        close(sk.roc_auc(y, p, **kw), metrics.roc_auc_score(y, p, **kw))


def test_roc_auc_multiclass_string_labels_and_labels_argument():
    y, p, _ = _multiclass(11, n_classes=3)
    names = np.array(["ant", "bee", "cat"])[y]
    for mc in ("ovr", "ovo"):
        close(sk.roc_auc(names, p, multi_class=mc), metrics.roc_auc_score(names, p, multi_class=mc))
    # a class absent from y_true, named by labels=: ovo skips it, ovr gives nan for it
    y3 = np.where(y == 2, 1, y)
    kw = {"multi_class": "ovo", "labels": [0, 1, 2]}
    close(sk.roc_auc(y3, p, **kw), metrics.roc_auc_score(y3, p, **kw))
    kw = {"multi_class": "ovr", "labels": [0, 1, 2], "average": None}
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref = metrics.roc_auc_score(y3, p, **kw)
    with pytest.warns(UndefinedMetricWarning):
        close(sk.roc_auc(y3, p, **kw), ref)


def _multilabel(seed, n_labels=5, ties=False):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 200))
    y = (rng.random((n, n_labels)) < 0.4).astype(int)
    y[0], y[1] = 1, 0
    y[2:4, :] = np.eye(2, n_labels, dtype=int)
    y[:, 0] = np.maximum(y[:, 0], rng.random(n) < 0.3)
    y[-1, :], y[-2, :] = 1 - y[-1, :], y[-1, :]
    s = rng.random((n, n_labels))
    if ties:
        s = np.round(s * 3) / 3
    return y, s, rng.random(n)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples", None])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize(
    ("ours", "ref"),
    [(sk.roc_auc, metrics.roc_auc_score), (sk.average_precision, metrics.average_precision_score)],
)
def test_multilabel_averages(ours, ref, average, ties):
    for seed in range(3):
        y, s, w = _multilabel(seed, ties=ties)
        keep = (y.sum(axis=1) > 0) & (y.sum(axis=1) < y.shape[1])  # rows with both classes
        y, s, w = y[keep], s[keep], w[keep]
        close(ours(y, s, average=average), ref(y, s, average=average))
        close(
            ours(y, s, average=average, sample_weight=w),
            ref(y, s, average=average, sample_weight=w),
        )


def test_multilabel_partial_auc():
    y, s, _ = _multilabel(4)
    y = y[(y.sum(axis=1) > 0) & (y.sum(axis=1) < y.shape[1])]
    s = s[: y.shape[0]]
    for average in ("macro", "micro", "samples"):
        kw = {"average": average, "max_fpr": 0.4}
        close(sk.roc_auc(y, s, **kw), metrics.roc_auc_score(y, s, **kw))


def test_multilabel_samples_rows_of_one_class_match_sklearn():
    y, s, _ = _multilabel(5)
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref = metrics.average_precision_score(y, s, average="samples")
    with pytest.warns(UndefinedMetricWarning):
        close(sk.average_precision(y, s, average="samples"), ref)
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref = metrics.roc_auc_score(y, s, average="samples")
    with pytest.warns(UndefinedMetricWarning):
        got = sk.roc_auc(y, s, average="samples")
    assert np.isnan(got)
    assert np.isnan(ref)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples", None])
def test_average_precision_multiclass(average):
    for seed in range(3):
        y, p, w = _multiclass(seed, ties=seed == 1)
        close(
            sk.average_precision(y, p, average=average),
            metrics.average_precision_score(y, p, average=average),
        )
        close(
            sk.average_precision(y, p, average=average, sample_weight=w),
            metrics.average_precision_score(y, p, average=average, sample_weight=w),
        )


@pytest.mark.parametrize(
    ("ours", "ref"),
    [
        (sk.coverage_error, metrics.coverage_error),
        (sk.label_ranking_average_precision, metrics.label_ranking_average_precision_score),
        (sk.label_ranking_loss, metrics.label_ranking_loss),
    ],
)
@pytest.mark.parametrize("ties", [False, True])
def test_multilabel_ranking(ours, ref, ties):
    for seed in range(4):
        y, s, w = _multilabel(seed, n_labels=6, ties=ties)
        close(ours(y, s), ref(y, s))
        close(ours(y, s, sample_weight=w), ref(y, s, sample_weight=w))
        close(ours(y.astype(bool), -s * 1e6), ref(y, -s * 1e6))


# ---------------------------------------------------------------- probabilities


def _probabilities(seed, n=None):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300)) if n is None else n
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = [0, 1]
    p = rng.random(n)
    p[:4] = [0.0, 1.0, 1.0, 0.0]  # clipped: log(eps)
    return y, p, rng.random(n)


def test_log_loss_binary():
    for seed in range(5):
        y, p, w = _probabilities(seed)
        close(sk.log_loss(y, p), metrics.log_loss(y, p))
        close(sk.log_loss(y, p, sample_weight=w), metrics.log_loss(y, p, sample_weight=w))
        close(sk.log_loss(y, p, normalize=False), metrics.log_loss(y, p, normalize=False))
        close(sk.log_loss(y.astype(bool), p), metrics.log_loss(y.astype(bool), p))
        names = np.where(y == 1, "yes", "no")  # 1-D y_prob: the larger label, "yes"
        close(sk.log_loss(names, p), metrics.log_loss(names, p))
        close(sk.log_loss(y, np.c_[1 - p, p]), metrics.log_loss(y, np.c_[1 - p, p]))


def test_log_loss_one_class_with_labels():
    y, p, _ = _probabilities(1)
    ones = np.ones_like(y)
    close(sk.log_loss(ones, p, labels=[0, 1]), metrics.log_loss(ones, p, labels=[0, 1]))


def test_log_loss_multiclass_and_labels():
    for seed in range(4):
        y, p, w = _multiclass(seed, n_classes=4)
        close(sk.log_loss(y, p), metrics.log_loss(y, p))
        close(sk.log_loss(y, p, sample_weight=w), metrics.log_loss(y, p, sample_weight=w))
        y3 = np.where(y == 3, 0, y)
        kw = {"labels": [0, 1, 2, 3]}
        close(sk.log_loss(y3, p, **kw), metrics.log_loss(y3, p, **kw))


def test_brier_score():
    for seed in range(5):
        y, p, w = _probabilities(seed)
        close(sk.brier_score(y, p), metrics.brier_score_loss(y, p))
        close(
            sk.brier_score(y, p, sample_weight=w), metrics.brier_score_loss(y, p, sample_weight=w)
        )
        close(
            sk.brier_score(y, p, scale_by_half=False),
            metrics.brier_score_loss(y, p, scale_by_half=False),
        )
        names = np.where(y == 1, "a", "b")
        close(
            sk.brier_score(names, p, pos_label="a"),
            metrics.brier_score_loss(names, p, pos_label="a"),
        )
        close(
            sk.brier_score(np.where(y == 1, 1, -1), p),
            metrics.brier_score_loss(np.where(y == 1, 1, -1), p),
        )
        y4, p4, w4 = _multiclass(seed, n_classes=4)
        close(sk.brier_score(y4, p4), metrics.brier_score_loss(y4, p4))
        close(
            sk.brier_score(y4, p4, sample_weight=w4),
            metrics.brier_score_loss(y4, p4, sample_weight=w4),
        )
        close(sk.brier_score(y, np.c_[1 - p, p]), metrics.brier_score_loss(y, np.c_[1 - p, p]))
        kw = {"scale_by_half": True, "labels": [0, 1, 2, 3]}
        close(sk.brier_score(y4, p4, **kw), metrics.brier_score_loss(y4, p4, **kw))


def test_hinge_loss():
    for seed in range(5):
        rng = np.random.default_rng(seed)
        y, d, w = _binary(seed, "wide_mixed")
        d = d / 1e3
        close(sk.hinge_loss(y, d), metrics.hinge_loss(y, d))
        close(
            sk.hinge_loss(np.where(y == 1, 1, -1), d, sample_weight=w),
            metrics.hinge_loss(np.where(y == 1, 1, -1), d, sample_weight=w),
        )
        close(
            sk.hinge_loss(np.where(y == 1, "b", "a"), d),
            metrics.hinge_loss(np.where(y == 1, "b", "a"), d),
        )
        ym, _, wm = _multiclass(seed, n_classes=4)
        dm = rng.normal(size=(ym.size, 4))
        close(sk.hinge_loss(ym, dm), metrics.hinge_loss(ym, dm))
        close(sk.hinge_loss(ym, dm, sample_weight=wm), metrics.hinge_loss(ym, dm, sample_weight=wm))
        y3 = np.where(ym == 3, 0, ym)
        close(
            sk.hinge_loss(y3, dm, labels=[0, 1, 2, 3]),
            metrics.hinge_loss(y3, dm, labels=[0, 1, 2, 3]),
        )
    # one class only, no labels: scikit-learn codes it -1
    close(
        sk.hinge_loss([3, 3, 3], [0.5, -1.0, 2.0]), metrics.hinge_loss([3, 3, 3], [0.5, -1.0, 2.0])
    )


@pytest.mark.parametrize("k", [1, 2, 3])
def test_top_k_accuracy_multiclass(k):
    for seed in range(4):
        y, p, w = _multiclass(seed, n_classes=5, ties=seed % 2 == 1)
        close(sk.top_k_accuracy(y, p, k=k), metrics.top_k_accuracy_score(y, p, k=k))
        close(
            sk.top_k_accuracy(y, p, k=k, sample_weight=w),
            metrics.top_k_accuracy_score(y, p, k=k, sample_weight=w),
        )
        close(
            sk.top_k_accuracy(y, p, k=k, normalize=False),
            metrics.top_k_accuracy_score(y, p, k=k, normalize=False),
        )
        y4 = np.where(y == 4, 0, y)
        kw = {"k": k, "labels": [0, 1, 2, 3, 4]}
        close(sk.top_k_accuracy(y4, p, **kw), metrics.top_k_accuracy_score(y4, p, **kw))


def test_top_k_accuracy_binary():
    for seed in range(4):
        y, p, w = _probabilities(seed)
        close(sk.top_k_accuracy(y, p, k=1), metrics.top_k_accuracy_score(y, p, k=1))
        d = p - 0.3  # decision values: threshold 0
        close(
            sk.top_k_accuracy(y, d, k=1, sample_weight=w),
            metrics.top_k_accuracy_score(y, d, k=1, sample_weight=w),
        )
    with pytest.warns(UserWarning, match=SKLEARN_WARNING):
        ref = metrics.top_k_accuracy_score(y, p, k=2)
    with pytest.warns(UndefinedMetricWarning):
        close(sk.top_k_accuracy(y, p, k=2), ref)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 3, 5, 10, 17])
def test_calibration_curve(strategy, n_bins):
    for seed in range(3):
        y, p, _ = _probabilities(seed)
        p = np.round(p, 2)  # values on bin edges
        want = calibration.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
        close(sk.calibration_curve(y, p, n_bins=n_bins, strategy=strategy), want)
        names = np.where(y == 1, "pos", "neg")
        got = sk.calibration_curve(names, p, n_bins=n_bins, strategy=strategy, pos_label="pos")
        close(got, want)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_expected_calibration_error_uses_sklearn_bins(strategy):
    for seed in range(3):
        y, p, _ = _probabilities(seed)
        prob_true, prob_pred = calibration.calibration_curve(y, p, n_bins=8, strategy=strategy)
        if strategy == "uniform":
            edges = np.linspace(0, 1, 9)
        else:
            edges = np.percentile(p, np.linspace(0, 100, 9))
        ids = np.clip(np.searchsorted(edges, p, side="left") - 1, 0, 7)  # lower bin on an edge
        counts = np.bincount(ids, minlength=8)
        counts = counts[counts > 0]
        want = np.sum(counts / p.size * np.abs(prob_true - prob_pred))
        close(sk.expected_calibration_error(y, p, n_bins=8, strategy=strategy), want)


def test_threshold_table_matches_sklearn_confusion_counts():
    for seed in range(4):
        y, s, w = _binary(seed, "ties")
        tns, fps, fns, tps, thr = metrics.confusion_matrix_at_thresholds(y, s, sample_weight=w)
        t = sk.threshold_table(y, s, sample_weight=w)
        close((t.threshold, t.tp, t.fp, t.tn, t.fn), (thr, tps, fps, tns, fns))
        precision = [
            metrics.precision_score(y, s >= x, sample_weight=w, zero_division=np.nan) for x in thr
        ]
        f1 = [metrics.f1_score(y, s >= x, sample_weight=w, zero_division=np.nan) for x in thr]
        close((t.precision, t.f1), (np.array(precision), np.array(f1)))
        fpr, tpr, _ = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        close((t.fpr, t.tpr), (fpr[1:], tpr[1:]))
