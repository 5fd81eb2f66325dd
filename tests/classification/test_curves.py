"""Score-based classification metrics: worked examples, the curve kernel, properties, bad input.

References to scikit-learn are in tests/classification/test_sklearn_classification_scores.py;
here the expected numbers come from the literature or from arithmetic shown in comments,
and from a brute-force pair count.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit as sk
from scorekit._errors import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NegativeWeightError,
    NonFiniteError,
    OmittedRowsWarning,
    ParameterError,
    ProbabilityRangeError,
    ScorekitError,
    ShapeError,
    UndefinedMetricWarning,
)
from scorekit.classification import _curve_kernel as kc
from scorekit.classification._calibration import (
    _bin_edges,
    _calibration_bins,
    _ece_from_bins,
    _merge_calibration_bins,
)
from scorekit.classification._proba import _log_loss_from_curve, _units_total
from scorekit.classification._thresholds import _threshold_table_from_curve

# ---------------------------------------------------------------- worked examples

# Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters 27,
# Fig. 3: 20 instances, 10 positive and 10 negative, ranked by score.
FAWCETT_CLASS = list("ppnpppnnpnpnpnnnpnpn")
FAWCETT_SCORE = [.9, .8, .7, .6, .55, .54, .53, .52, .51, .505,
                 .4, .39, .38, .37, .36, .35, .34, .33, .30, .1]  # fmt: skip


def test_fawcett_roc_example():
    y = np.array(FAWCETT_CLASS) == "p"
    # positives ranked above each negative (negatives at ranks 3, 7, 8, 10, 12, 14, 15,
    # 16, 18, 20): 2 + 5 + 5 + 6 + 7 + 8 + 8 + 8 + 9 + 10 = 68 of 10 x 10 pairs
    assert sk.roc_auc(y, FAWCETT_SCORE) == 0.68
    assert sk.rank_loss(y, FAWCETT_SCORE) == pytest.approx(0.32, abs=1e-15)
    assert sk.gini(y, FAWCETT_SCORE) == pytest.approx(0.36, abs=1e-15)
    fpr, tpr, thr = sk.roc_curve(y, FAWCETT_SCORE)
    # Fawcett's text: threshold .54 gives the point (0.1, 0.5) (5 TP, 1 FP)
    i = int(np.flatnonzero(thr == 0.54)[0])
    assert (fpr[i], tpr[i]) == (0.1, 0.5)
    # KS: the largest TPR - FPR is that same point, 0.5 - 0.1
    assert sk.ks_statistic(y, FAWCETT_SCORE) == pytest.approx(0.4, abs=1e-15)


# Manning, Raghavan & Schütze, "Introduction to Information Retrieval" (2008),
# Exercise 8.9: a ranked list of 20 documents, R relevant, N not.
IIR_RANKING = "RRNNNNNNRNRNNNRNNNNR"


def test_manning_average_precision_example():
    y = np.array(list(IIR_RANKING)) == "R"
    score = np.arange(20, 0, -1)  # first document scores highest
    # relevant documents at ranks 1, 2, 9, 11, 15, 20: precisions 1, 1, 3/9, 4/11, 5/15, 6/20
    # AP = (1 + 1 + 1/3 + 4/11 + 1/3 + 3/10) / 6 = (1099/330) / 6 = 0.5550505...
    assert sk.average_precision(y, score) == pytest.approx(1099 / 1980, abs=1e-15)
    # no ties: the break-even point is the precision at rank R = 6: 2/6
    assert sk.break_even_point(y, score) == pytest.approx(1 / 3, abs=1e-15)


def test_break_even_point_interpolates_between_bracketing_points():
    # scores .9 (pos), .5 (neg), .5 (pos), .1 (neg). PR points from the top:
    # start (R 0, P 1); t=.9: (R .5, P 1), gap .5; t=.5: (R 1, P 2/3), gap -1/3.
    # crossing at t = .5 / (.5 + 1/3) = .6 of the segment: P = 1 + .6 (2/3 - 1) = 0.8
    assert sk.break_even_point([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1]) == pytest.approx(0.8, abs=1e-15)
    # the first point below the diagonal is hit exactly: P = R = 1/2 at t=.8
    assert sk.break_even_point([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6]) == 0.5


def test_break_even_point_without_negatives_is_one_and_without_positives_nan():
    assert sk.break_even_point([1, 1], [0.2, 0.4]) == 1.0
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(sk.break_even_point([0, 0], [0.2, 0.4]))


def test_pr_auc_and_curves_small_example():
    # the docstring example of scikit-learn's precision_recall_curve
    p, r, _ = sk.precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    np.testing.assert_allclose(p, [0.5, 2 / 3, 0.5, 1, 1])
    np.testing.assert_allclose(r, [1, 1, 0.5, 0.5, 0])
    # trapezoids from recall 1 down to 0: (1-1)·.., (1-.5)(2/3+.5)/2, 0, .5·(1+1)/2, ...
    assert sk.pr_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(
        0.5 * (2 / 3 + 0.5) / 2 + 0.5, abs=1e-15
    )


def test_threshold_table_hand_example():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    t = sk.threshold_table(y, s)
    assert t.threshold.tolist() == [0.8, 0.4, 0.35, 0.1]
    assert t.tp.tolist() == [1, 1, 2, 2]
    assert t.fp.tolist() == [0, 1, 1, 2]
    assert t.tn.tolist() == [2, 1, 1, 0]
    assert t.fn.tolist() == [1, 1, 0, 0]
    # f1 = 2tp / (2tp + fp + fn): 2/3, 2/4, 4/5, 4/6
    np.testing.assert_allclose(t.f1, [2 / 3, 0.5, 0.8, 2 / 3])
    explicit = sk.threshold_table(y, s, [np.inf, 0.4, -np.inf], zero_division=0.0)
    assert explicit.tp.tolist() == [0, 1, 2]
    assert explicit.fp.tolist() == [0, 1, 2]
    assert explicit.precision.tolist() == [0.0, 0.5, 0.5]
    assert math.isnan(sk.threshold_table(y, s, [2.0]).precision[0])  # 0/0, default nan
    assert len(t) == 4
    assert list(t.to_dict()) == list(t.columns)
    assert t.to_numpy()["fp"].tolist() == [0, 1, 1, 2]
    pd = pytest.importorskip("pandas")
    frame = t.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == list(t.columns)


def test_calibration_and_ece_hand_example():
    # uniform bins [0, .25], (.25, .5], (.5, .75], (.75, 1]; .5 sits on an edge: lower bin
    y, p = [0, 1, 0, 1, 1, 1], [0.1, 0.2, 0.5, 0.5, 0.8, 1.0]
    prob_true, prob_pred = sk.calibration_curve(y, p, n_bins=4)
    np.testing.assert_allclose(prob_true, [0.5, 0.5, 1.0])
    np.testing.assert_allclose(prob_pred, [0.15, 0.5, 0.9])
    # ECE = 2/6·|.5 − .15| + 2/6·|.5 − .5| + 2/6·|1 − .9| = (.35 + .1)/3 = 0.15
    assert sk.expected_calibration_error(y, p, n_bins=4) == pytest.approx(0.15, abs=1e-15)


def test_log_loss_and_brier_hand_example():
    y, p = [1, 0, 1], [0.8, 0.4, 1.0]
    eps = np.finfo(float).eps
    # −(log .8 + log .6 + log(1 − eps)) / 3; p = 1 is clipped to 1 − eps
    want = -(math.log(0.8) + math.log(0.6) + math.log(1 - eps)) / 3
    assert sk.log_loss(y, p) == pytest.approx(want, rel=1e-15)
    # ((.2)² + (.4)² + 0²) / 3 = 0.0666...
    assert sk.brier_score(y, p) == pytest.approx(0.2 / 3, rel=1e-12)


def test_multilabel_ranking_ties_hand_example():
    y = [[1, 0, 1, 0]]
    s = [[0.5, 0.5, 0.2, 0.9]]
    # relevant at .5 (tied with a non-relevant) and .2. Ranks with ties counted
    # pessimistically: .5 -> 3 labels >= .5, 1 relevant; .2 -> 4 labels, 2 relevant
    assert sk.label_ranking_average_precision(y, s) == pytest.approx((1 / 3 + 2 / 4) / 2)
    # pairs (true, false) with the false label >= the true one: (.5,.5), (.5,.9), (.2,.5), (.2,.9)
    assert sk.label_ranking_loss(y, s) == 1.0
    assert sk.coverage_error(y, s) == 4.0
    # samples-averaged AUC. Row 1: of the 4 (true, false) pairs only the tie (.5, .5)
    # counts, one half -> 0.5 / 4. Row 2: true 2 and 3 above false 1 and 0 -> 4 / 4.
    assert sk.roc_auc([[1, 0, 1, 0], [0, 1, 1, 0]], [[0.5, 0.5, 0.2, 0.9], [1, 2, 3, 0]],
                      average="samples") == pytest.approx((0.5 / 4 + 4 / 4) / 2)  # fmt: skip


def test_top_k_tie_breaking_favours_the_larger_class_index():
    # all scores tied: class 2 ranks first, then 1, then 0
    s = [[1 / 3] * 3] * 3
    assert sk.top_k_accuracy([0, 1, 2], s, k=1) == pytest.approx(1 / 3)
    assert sk.top_k_accuracy([0, 1, 2], s, k=2) == pytest.approx(2 / 3)


def test_hinge_multiclass_hand_example():
    # Crammer–Singer: margin = own score − best other score
    d = [[2.0, 1.5, -1.0], [0.0, 0.2, 0.1]]
    # row 1: 2 − 1.5 = .5 -> loss .5; row 2 (class 0): 0 − .2 -> loss 1.2
    assert sk.hinge_loss([0, 0], d, labels=[0, 1, 2]) == pytest.approx(0.85)


# ---------------------------------------------------------------- brute force and properties


def brute_force_auc(y, s, w=None):
    y, s = np.asarray(y, bool), np.asarray(s, float)
    w = np.ones(y.size) if w is None else np.asarray(w, float)
    num = den = 0.0
    for i in np.flatnonzero(y):
        for j in np.flatnonzero(~y):
            pair = w[i] * w[j]
            num += pair * ((s[i] > s[j]) + 0.5 * (s[i] == s[j]))
            den += pair
    return num / den


binary_cases = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(-6, 6), min_size=n, max_size=n),
        st.lists(st.integers(0, 4), min_size=n, max_size=n),
    )
)


@given(binary_cases)
def test_auc_equals_brute_force_pair_count(case):
    y, s, w = case
    assert sk.roc_auc(y, s) == pytest.approx(brute_force_auc(y, s), abs=1e-12)
    w_arr, y_arr = np.asarray(w), np.asarray(y)
    if w_arr[y_arr].sum() and w_arr[~y_arr].sum():
        want = brute_force_auc(y, s, w)
        assert sk.roc_auc(y, s, sample_weight=w) == pytest.approx(want, abs=1e-12)


@given(binary_cases)
def test_auc_is_one_minus_rank_loss(case):
    y, s, _ = case
    assert sk.roc_auc(y, s) == pytest.approx(1 - sk.rank_loss(y, s), abs=1e-12)


@given(binary_cases, st.sampled_from(["exp", "cube", "affine", "dense_rank"]))
def test_auc_and_ap_invariant_under_strictly_increasing_maps(case, transform):
    y, s, _ = case
    s = np.asarray(s, float)
    mapped = {
        "exp": np.exp(s),
        "cube": s**3,
        "affine": 1e6 * s + 7,
        "dense_rank": np.unique(s, return_inverse=True)[1].astype(float),
    }[transform]
    assert sk.roc_auc(y, mapped) == sk.roc_auc(y, s)
    assert sk.average_precision(y, mapped) == sk.average_precision(y, s)


@given(binary_cases, st.lists(st.integers(0, 10**6), max_size=4))
def test_chunked_curve_merge_equals_one_shot(case, cuts):
    y, s, _ = case
    y, s = np.asarray(y, bool), np.asarray(s, float) / 4
    edges = sorted({0, len(y), *(c % (len(y) + 1) for c in cuts)})
    state = kc.curve_from_chunk(y[:0], s[:0])
    for a, b in itertools.pairwise(edges):
        state = kc.merge_curves(state, kc.curve_from_chunk(y[a:b], s[a:b]))
    one_shot = kc.curve_from_chunk(y, s)
    for field in ("scores", "pos", "neg"):
        np.testing.assert_array_equal(getattr(state, field), getattr(one_shot, field))
    assert kc.auc_from_curve(state) == sk.roc_auc(y, s)
    assert kc.ap_from_curve(state) == sk.average_precision(y, s)


def _merge_by_unique(a, b):
    """The reference merge: re-sort the union of the scores, add the weights per score."""
    neg_scores, inverse = np.unique(-np.concatenate([a.scores, b.scores]), return_inverse=True)
    size = neg_scores.size
    pos = np.bincount(inverse, np.concatenate([a.pos, b.pos]), minlength=size)
    neg = np.bincount(inverse, np.concatenate([a.neg, b.neg]), minlength=size)
    return kc.CurveState(-neg_scores + 0.0, pos, neg)


@given(
    st.lists(st.sampled_from([0.0, -0.0, 0.25, 0.5, 0.75, 1.0, 3.0, -2.0]), max_size=8),
    st.lists(st.sampled_from([0.0, -0.0, 0.25, 0.5, 0.75, 1.0, 3.0, -2.0]), max_size=8),
    st.integers(0, 2**16),
)
def test_merge_of_sorted_scores_equals_a_full_re_sort(left, right, seed):
    rng = np.random.default_rng(seed)

    def state(scores):
        s = np.array(scores, float)
        # whole weights: the reference's float addition is then exact (fractional weights are
        # summed exactly by the merge, rounded once: see test_curve_exactness.py)
        y, w = rng.random(s.size) < 0.5, rng.integers(1, 9, s.size).astype(float)
        return kc.curve_from_chunk(y, s, w)

    a, b = state(left), state(right)
    got, want = kc.merge_curves(a, b), _merge_by_unique(a, b)
    for field in ("scores", "pos", "neg"):
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field))
    assert not np.signbit(got.scores).any() or (got.scores < 0).any()  # -0.0 became 0.0
    assert np.all(np.diff(got.scores) < 0)


def test_auc_and_rank_loss_exact_with_huge_integer_counts():
    # Odd counts up to 2**50 (P, N below 2**53), so 2·P·N ≈ 2**103: float64 sums of the
    # half-integer pair counts lose the low bits. The kernel counts pairs in integers and
    # rounds once, as the fast path binary_auc rounds its own integer count: (2·U) / 2 as
    # a Python true division.
    rng = np.random.default_rng(2)
    pos = rng.integers(2**40, 2**50, 4) | 1
    neg = rng.integers(2**40, 2**50, 4) | 1
    c = kc.CurveState(np.array([4.0, 3.0, 2.0, 1.0]), pos.astype(float), neg.astype(float))
    p, n = pos.tolist(), neg.tolist()
    before = [sum(p[:g]) for g in range(4)]
    twice_u = sum(n[g] * (2 * before[g] + p[g]) for g in range(4))  # exact, Python ints
    n_pos, n_neg = float(sum(p)), float(sum(n))
    want = float(np.float64(twice_u / 2) / (np.float64(n_pos) * np.float64(n_neg)))
    assert kc.auc_from_curve(c) == want
    # the float64 formula of small states gives another AUC here: this test can fail
    tp_before = np.cumsum(c.pos) - c.pos
    naive = float(np.sum(c.neg * (tp_before + c.pos / 2)))
    assert float(np.float64(naive) / (np.float64(n_pos) * np.float64(n_neg))) != want
    before_neg = [sum(n[:g]) for g in range(4)]
    twice_l = sum(p[g] * (2 * before_neg[g] + n[g]) for g in range(4))
    want_loss = float(np.float64(twice_l / 2) / (np.float64(n_pos) * np.float64(n_neg)))
    assert kc.rank_loss_from_curve(c) == want_loss


def test_auc_of_a_large_integer_state_equals_the_fast_path():
    # 2·P·N >= 2**53 with unit weights: the integer branch of the kernel, and the fast path
    # on the rows the state stands for (ties included), give the same bits.
    rng = np.random.default_rng(3)
    s = np.round(rng.random(12_000_000 // 64), 3)
    y = rng.random(s.size) < 0.5
    c = kc.curve_from_chunk(y, s)
    scale = 2**12  # the same curve, every count times 2**12: int64 pair counts
    big = kc.CurveState(c.scores, c.pos * scale, c.neg * scale)
    assert 2.0**53 <= 2 * big.pos.sum() * big.neg.sum() < 2.0**63
    p, n = [int(v) for v in big.pos], [int(v) for v in big.neg]
    tp, twice = 0, 0
    for pg, ng in zip(p, n, strict=True):
        twice += ng * (2 * tp + pg)
        tp += pg
    want = float(np.float64(twice / 2) / (np.float64(sum(p)) * np.float64(sum(n))))
    assert kc.auc_from_curve(big) == want


@pytest.mark.parametrize(
    "scores",
    [
        [0.5, 0.25, 0.5, 0.0, -0.0, 1.0],  # non-negative (and -0.0 tied with 0.0)
        [-3.0, -1e-300, -3.0, -7.5, -1e300, -2.0],  # all negative
        [-1.5, 0.25, -0.0, 0.0, 1.5, 0.25],  # both signs, small range
        [-1e300, 5.0, -5.0, 0.0, 1e300, 5.0],  # both signs, full range: merge fallback
    ],
)
def test_every_sort_path_matches_argsort_path(scores):
    y = np.array([True, False, False, True, False, True])
    s = np.array(scores)
    packed = kc.curve_from_chunk(y, s)
    argsorted = kc.curve_from_chunk(y, s, np.ones(s.size))
    np.testing.assert_array_equal(packed.scores, argsorted.scores)
    np.testing.assert_array_equal(packed.pos, argsorted.pos)
    np.testing.assert_array_equal(packed.neg, argsorted.neg)
    assert np.all(np.diff(packed.scores) < 0)
    assert sk.roc_auc(y, s) == brute_force_auc(y, s)


@pytest.mark.parametrize("ties", ["none", "sparse", "heavy"])
def test_fast_paths_equal_the_kernel_exactly(ties):
    rng = np.random.default_rng(5)
    y, s = rng.random(5000) < 0.3, rng.random(5000)
    if ties == "sparse":  # a few runs among distinct scores
        s = np.clip(rng.normal(0.5, 0.4, 5000), 0.0, 1.0)
    elif ties == "heavy":  # few distinct scores
        s = np.round(s, 2)
    state = kc.curve_from_chunk(y, s, np.ones(s.size))
    assert kc.binary_auc(y, s, None) == kc.auc_from_curve(state)
    assert kc.binary_ap(y, s, None) == kc.ap_from_curve(state)


def test_average_precision_positive_after_a_run_of_ties():
    # ascending: eight tied negatives, then the positive; AP = 1 (the positive is first)
    y, s = [0] * 8 + [1], [0.0] * 8 + [0.25]
    assert sk.average_precision(y, s) == 1.0


def test_weight_k_equals_k_copies():
    y, s = np.array([1, 0, 1, 0, 1]), np.array([0.3, 0.3, 0.9, 0.1, 0.2])
    w = np.array([2, 1, 3, 1, 1])
    rep_y, rep_s = np.repeat(y, w), np.repeat(s, w)
    for fn in (sk.roc_auc, sk.average_precision, sk.ks_statistic, sk.pr_auc, sk.break_even_point):
        assert fn(y, s, sample_weight=w) == pytest.approx(fn(rep_y, rep_s), abs=1e-15)
    assert sk.log_loss(y, s, sample_weight=w) == pytest.approx(sk.log_loss(rep_y, rep_s))


def test_zero_weight_rows_are_dropped_like_sklearn():
    _, _, thr = sk.roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6], sample_weight=[1, 0, 1, 1])
    assert thr.tolist() == [np.inf, 0.9, 0.7, 0.6]


def test_log_loss_from_curve_equals_log_loss():
    y, p = np.array([1, 0, 1, 1, 0]), np.array([0.9, 0.2, 0.2, 1.0, 0.0])
    state = kc.curve_from_chunk(y.astype(bool), p)
    assert _log_loss_from_curve(state) == sk.log_loss(y, p)  # the same fixed-point integers


def test_log_loss_integer_weights_equal_repeated_rows_bit_for_bit():
    # Fixed-point sums are exact: weight k is k copies of the row, to the last bit.
    rng = np.random.default_rng(4)
    y, p = rng.random(3000) < 0.4, np.round(rng.random(3000), 3)
    w = rng.integers(0, 5, 3000)
    assert sk.log_loss(y, p, sample_weight=w) == sk.log_loss(np.repeat(y, w), np.repeat(p, w))


def test_log_loss_fixed_point_is_the_correctly_rounded_mean_to_7e_18():
    # math.fsum gives the exactly rounded sum of the float64 row losses; the fixed-point
    # mean truncates each row to a multiple of 2**-57 (< 7e-18) and rounds once.
    rng = np.random.default_rng(9)
    y, p = rng.random(20_000) < 0.5, rng.random(20_000)
    q = np.where(y, p, 1 - p).clip(2.0**-52, 1 - 2.0**-52)
    exact = math.fsum(-np.log(q)) / q.size
    assert abs(sk.log_loss(y, p) - exact) <= 2.0**-57 + 2.0**-53 * exact


@pytest.mark.parametrize("count_bits", [0, 20, 36])  # None-like, int64 halves, 21-bit limbs
def test_units_total_is_exact(count_bits):
    rng = np.random.default_rng(count_bits)
    units = rng.integers(0, 2**62, 64)
    counts = None if count_bits == 0 else rng.integers(0, 2**count_bits, 64)
    want = sum(
        int(u) * (1 if counts is None else int(c))
        for u, c in zip(units, counts if counts is not None else units, strict=True)
    )
    assert _units_total(units, counts) == want


def test_threshold_table_from_merged_curve():
    y, s = np.array([True, False, True, False]), np.array([0.9, 0.5, 0.5, 0.1])
    merged = kc.merge_curves(kc.curve_from_chunk(y[:2], s[:2]), kc.curve_from_chunk(y[2:], s[2:]))
    table = _threshold_table_from_curve(merged)
    assert table.tp.tolist() == [1, 2, 2]
    assert table.fp.tolist() == [0, 1, 2]


def test_calibration_bins_merge():
    y, p = np.array([True, False, True, True]), np.array([0.1, 0.35, 0.6, 0.95])
    edges = _bin_edges(p, 4, "uniform")
    merged = _merge_calibration_bins(
        _calibration_bins(y[:2], p[:2], edges), _calibration_bins(y[2:], p[2:], edges)
    )
    assert _ece_from_bins(merged) == sk.expected_calibration_error(y, p, n_bins=4)


def test_inputs_are_not_modified():
    y = np.array([0, 1, 1, 0])
    s = np.array([-0.0, 0.5, -0.25, 0.75])
    w = np.array([1.0, 2.0, 1.0, 0.0])
    before = (y.copy(), s.copy(), w.copy())
    sk.roc_auc(y, s)
    sk.average_precision(y, s, sample_weight=w)
    sk.log_loss(y, np.abs(s))
    sk.threshold_table(y, s)
    for a, b in zip((y, s, w), before, strict=True):
        np.testing.assert_array_equal(a, b)
    assert np.signbit(s[0])


def test_nan_policy_omit_drops_rows_and_says_how_many():
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.1, np.nan, 0.8, 0.3, 0.6])
    with pytest.warns(OmittedRowsWarning, match="dropped 1 of 5"):
        got = sk.roc_auc(y, s, nan_policy="omit")
    assert got == sk.roc_auc(y[[0, 2, 3, 4]], s[[0, 2, 3, 4]])
    with pytest.warns(OmittedRowsWarning):
        assert sk.log_loss(y, s, nan_policy="omit") == sk.log_loss(y[[0, 2, 3, 4]], s[[0, 2, 3, 4]])


def test_sequences_and_pandas_inputs():
    pd = pytest.importorskip("pandas")
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert sk.roc_auc(pd.Series(y), pd.Series(s)) == sk.roc_auc(y, s) == 0.75


def test_results_are_python_floats_and_arrays():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    for fn in (sk.roc_auc, sk.average_precision, sk.pr_auc, sk.gini, sk.ks_statistic, sk.rank_loss):
        assert type(fn(y, s)) is float
    per_label = sk.roc_auc(
        [[0, 1], [1, 0], [1, 1]], [[0.2, 0.8], [0.7, 0.1], [0.6, 0.5]], average=None
    )
    assert isinstance(per_label, np.ndarray)
    assert per_label.tolist() == [1.0, 1.0]


# ---------------------------------------------------------------- bad input: one test per case

Y, S = [0, 1, 1, 0], [0.1, 0.9, 0.7, 0.4]


def test_nan_score_raises_naming_the_argument():
    with pytest.raises(NonFiniteError, match=r"y_score contains 1 NaN.*nan_policy"):
        sk.roc_auc(Y, [0.1, np.nan, 0.7, 0.4])


def test_infinite_score_raises():
    with pytest.raises(NonFiniteError):
        sk.average_precision(Y, [0.1, np.inf, 0.7, 0.4])


def test_all_rows_nan_with_omit_raises_empty():
    with pytest.warns(OmittedRowsWarning), pytest.raises(EmptyInputError):
        sk.roc_auc(Y, [np.nan] * 4, nan_policy="omit")


def test_unknown_nan_policy_raises():
    with pytest.raises(ParameterError, match="nan_policy"):
        sk.roc_auc(Y, S, nan_policy="ignore")


def test_lengths_differ_raise():
    with pytest.raises(LengthMismatchError, match="y_true has 4 entries but y_score has 3"):
        sk.roc_curve(Y, S[:3])


def test_empty_input_raises():
    with pytest.raises(EmptyInputError, match="y_true is empty"):
        sk.roc_auc([], [])


def test_labels_not_binary_without_pos_label_raise():
    with pytest.raises(LabelError, match="pos_label"):
        sk.roc_auc([1, 2, 2, 1], S)


def test_string_labels_without_pos_label_raise():
    with pytest.raises(LabelError, match="pos_label"):
        sk.precision_recall_curve(["a", "b", "b", "a"], S)


def test_three_classes_for_a_binary_curve_raise():
    with pytest.raises(LabelError, match="at most two"):
        sk.roc_curve([0, 1, 2, 1], S)


def test_two_dimensional_scores_for_a_binary_metric_raise():
    with pytest.raises(ShapeError, match="y_score must be 1-D"):
        sk.ks_statistic(Y, np.ones((4, 2)) / 2)


def test_two_column_scores_for_binary_roc_auc_raise():
    with pytest.raises(ShapeError):
        sk.roc_auc(Y, np.ones((4, 2)) / 2)


def test_negative_weights_raise():
    with pytest.raises(NegativeWeightError):
        sk.roc_auc(Y, S, sample_weight=[1, -1, 1, 1])


def test_probabilities_above_one_raise_for_log_loss():
    with pytest.raises(ProbabilityRangeError, match="y_prob"):
        sk.log_loss(Y, [0.1, 1.2, 0.7, 0.4])


def test_negative_probabilities_raise_for_brier():
    with pytest.raises(ProbabilityRangeError):
        sk.brier_score(Y, [0.1, -0.2, 0.7, 0.4])


def test_probabilities_outside_unit_interval_raise_for_calibration():
    with pytest.raises(ProbabilityRangeError):
        sk.calibration_curve(Y, [0.1, 1.5, 0.7, 0.4])
    with pytest.raises(ProbabilityRangeError):
        sk.expected_calibration_error(Y, [0.1, 1.5, 0.7, 0.4])


def test_probability_rows_not_summing_to_one_raise():
    with pytest.raises(ProbabilityRangeError, match="do not sum to 1"):
        sk.log_loss([0, 1, 2], [[0.5, 0.4, 0.2], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8]])


def test_multiclass_roc_auc_rows_not_summing_to_one_raise():
    with pytest.raises(ProbabilityRangeError):
        sk.roc_auc(
            [0, 1, 2], [[0.5, 0.4, 0.2], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8]], multi_class="ovr"
        )


def test_log_loss_one_class_without_labels_raises():
    with pytest.raises(LabelError, match="labels="):
        sk.log_loss([1, 1, 1], [0.5, 0.6, 0.9])


def test_log_loss_columns_differ_from_classes_raise():
    with pytest.raises(ShapeError, match="3 columns but there are 2 classes"):
        sk.log_loss([0, 1], [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])


def test_labels_not_containing_y_true_raise():
    with pytest.raises(LabelError, match="not in labels"):
        sk.log_loss([0, 1, 5], [[0.2, 0.3, 0.5]] * 3, labels=[0, 1, 2])


def test_unsorted_labels_raise():
    with pytest.raises(LabelError, match="sorted"):
        sk.top_k_accuracy([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, labels=[2, 1, 0])


@pytest.mark.parametrize("k", [0, -1, 2.5, True])
def test_k_out_of_range_raises(k):
    with pytest.raises(ParameterError, match="k must be"):
        sk.top_k_accuracy([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, k=k)


def test_unknown_multi_class_raises():
    with pytest.raises(ParameterError, match="multi_class"):
        sk.roc_auc(Y, S, multi_class="ova")


def test_multiclass_without_multi_class_raises():
    with pytest.raises(ParameterError, match="ovr"):
        sk.roc_auc([0, 1, 2], [[0.2, 0.3, 0.5]] * 3)


def test_unknown_average_raises():
    with pytest.raises(ParameterError, match="average"):
        sk.average_precision(Y, S, average="mean")


def test_samples_average_for_multiclass_ovr_raises():
    with pytest.raises(ParameterError, match="average"):
        sk.roc_auc([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ovr", average="samples")


def test_ovo_with_sample_weight_raises():
    with pytest.raises(ParameterError, match="sample_weight"):
        sk.roc_auc([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ovo", sample_weight=[1, 1, 1])


def test_max_fpr_out_of_range_raises():
    with pytest.raises(ParameterError, match="max_fpr"):
        sk.roc_auc(Y, S, max_fpr=0.0)


def test_max_fpr_for_multiclass_raises():
    with pytest.raises(ParameterError, match="max_fpr"):
        sk.roc_auc([0, 1, 2], [[0.2, 0.3, 0.5]] * 3, multi_class="ovr", max_fpr=0.5)


def test_unknown_strategy_raises():
    with pytest.raises(ParameterError, match="strategy"):
        sk.calibration_curve(Y, S, strategy="kmeans")


def test_bad_n_bins_raises():
    with pytest.raises(ParameterError, match="n_bins"):
        sk.expected_calibration_error(Y, S, n_bins=0)


def test_bad_scale_by_half_raises():
    with pytest.raises(ParameterError, match="scale_by_half"):
        sk.brier_score(Y, S, scale_by_half="yes")


def test_nan_threshold_raises():
    with pytest.raises(NonFiniteError, match="thresholds"):
        sk.threshold_table(Y, S, [0.5, np.nan])


def test_multilabel_shapes_differ_raise():
    with pytest.raises(ShapeError, match="shape"):
        sk.label_ranking_loss([[0, 1], [1, 0]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])


def test_multilabel_metric_needs_an_indicator_matrix():
    with pytest.raises(ShapeError, match="indicator"):
        sk.coverage_error([[0, 2], [1, 0]], [[0.1, 0.2], [0.3, 0.2]])


def test_multiclass_scores_of_wrong_width_raise():
    with pytest.raises(ShapeError):
        sk.average_precision([0, 1, 2, 1], np.full((4, 2), 0.5))


def test_every_error_is_a_value_error():
    assert issubclass(LabelError, ScorekitError)
    assert issubclass(ScorekitError, ValueError)
