"""The contingency kernel: coding, counting, merging, remapping; worked example; bad input."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import reduce
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekit._codes import encode
from scorekit._errors import (
    EmptyInputError,
    LengthMismatchError,
    NonFiniteError,
    ParameterError,
    ShapeError,
    UndefinedMetricWarning,
)
from scorekit.clustering import (
    adjusted_mutual_info,
    adjusted_rand_index,
    completeness,
    contingency_matrix,
    fowlkes_mallows,
    homogeneity,
    homogeneity_completeness_v_measure,
    mutual_info,
    normalized_mutual_info,
    rand_index,
    v_measure,
)
from scorekit.clustering._contingency import (
    ContingencyState,
    _ari_from_contingency,
    _contingency_from_chunk,
    _merge_contingency,
    _pair_confusion,
    _rand_from_contingency,
    _remap_contingency,
)
from scorekit.clustering._information import _ami_from_contingency, _mi_from_contingency

ALL_METRICS = [
    rand_index,
    adjusted_rand_index,
    fowlkes_mallows,
    mutual_info,
    normalized_mutual_info,
    adjusted_mutual_info,
    homogeneity,
    completeness,
    v_measure,
    homogeneity_completeness_v_measure,
    contingency_matrix,
]


def _same_state(a: ContingencyState, b: ContingencyState) -> None:
    assert (a.n_true, a.n_pred) == (b.n_true, b.n_pred)
    for field in ("rows", "cols", "counts"):
        x, y = getattr(a, field), getattr(b, field)
        assert x.dtype == np.int64
        assert y.dtype == np.int64
        np.testing.assert_array_equal(x, y)


def _brute_state(t: np.ndarray, p: np.ndarray, n_true: int, n_pred: int) -> ContingencyState:
    cells = Counter(zip(t.tolist(), p.tolist(), strict=True))
    keys = sorted(cells)
    return ContingencyState(
        n_true,
        n_pred,
        np.array([r for r, _ in keys], dtype=np.int64),
        np.array([c for _, c in keys], dtype=np.int64),
        np.array([cells[k] for k in keys], dtype=np.int64),
    )


# --- Worked example --------------------------------------------------------------------------
# Manning, Raghavan & Schütze, "Introduction to Information Retrieval" (2008), ch. 16.3,
# Figure 16.4: 17 points in three clusters; classes x, o and ◊ (written "d" here).
#   cluster 1: x x x x x o    cluster 2: x o o o o ◊    cluster 3: x x ◊ ◊ ◊
MANNING_TRUE = ["x"] * 5 + ["o"] + ["x"] + ["o"] * 4 + ["d"] + ["x"] * 2 + ["d"] * 3
MANNING_PRED = [1] * 6 + [2] * 6 + [3] * 5


def test_manning_rand_index_is_068():
    # Pairs in one cluster: C(6,2) + C(6,2) + C(5,2) = 15 + 15 + 10 = 40 = TP + FP.
    # Of those, same class: C(5,2) + C(4,2) + C(3,2) + C(2,2) = 10 + 6 + 3 + 1 = 20 = TP.
    # Pairs in one class: x: 8, o: 5, ◊: 4 -> C(8,2) + C(5,2) + C(4,2) = 28 + 10 + 6 = 44 = TP + FN.
    # So FP = 20, FN = 24, TN = C(17,2) - 20 - 20 - 24 = 136 - 64 = 72.
    # RI = (TP + TN) / C(17,2) = (20 + 72) / 136 = 0.676... = 0.68 in the book.
    ri = rand_index(MANNING_TRUE, MANNING_PRED)
    assert ri == 92 / 136
    assert round(ri, 2) == 0.68


def test_manning_adjusted_rand_and_fowlkes_mallows():
    # ARI = 2 (TP TN - FN FP) / ((TP + FN)(FN + TN) + (TP + FP)(FP + TN))
    #     = 2 (20·72 - 24·20) / (44·96 + 40·92) = 1920 / 7904.
    assert adjusted_rand_index(MANNING_TRUE, MANNING_PRED) == pytest.approx(1920 / 7904, abs=1e-15)
    # FMI = sqrt(P R) with pair precision P = 20/40 and pair recall R = 20/44.
    assert fowlkes_mallows(MANNING_TRUE, MANNING_PRED) == pytest.approx(
        math.sqrt(20 / 40 * 20 / 44), abs=1e-15
    )


def test_manning_mutual_information_and_nmi():
    # I = Σ n_ij/N log(N n_ij / (a_i b_j)); classes x: 8, o: 5, ◊: 4; clusters 6, 6, 5.
    n = 17
    cells = [(5, 8, 6), (1, 5, 6), (1, 8, 6), (4, 5, 6), (1, 4, 6), (2, 8, 5), (3, 4, 5)]
    mi = sum(c / n * math.log(n * c / (a * b)) for c, a, b in cells)
    h_class = -sum(k / n * math.log(k / n) for k in (8, 5, 4))
    h_cluster = -sum(k / n * math.log(k / n) for k in (6, 6, 5))
    assert mutual_info(MANNING_TRUE, MANNING_PRED) == pytest.approx(mi, abs=1e-14)
    nmi = normalized_mutual_info(MANNING_TRUE, MANNING_PRED)
    assert nmi == pytest.approx(mi / ((h_class + h_cluster) / 2), abs=1e-14)
    assert round(nmi, 2) == 0.36  # the book's Table 16.2


# --- Counting, merging, remapping ------------------------------------------------------------
def test_dense_and_sparse_paths_agree(rng):
    t = rng.integers(0, 50, 3000)
    p = rng.integers(0, 40, 3000)
    dense = _contingency_from_chunk(t, p, n_true=50, n_pred=40)
    # 5000 x 4000 = 2e7 cells: above the dense limit, so counted by sorting packed keys.
    sparse = _contingency_from_chunk(t, p, n_true=5000, n_pred=4000)
    _same_state(dense, _brute_state(t, p, 50, 40))
    _same_state(sparse, _brute_state(t, p, 5000, 4000))


def test_huge_code_space_does_not_overflow():
    t = np.array([0, 3 * 10**9, 3 * 10**9])
    p = np.array([4 * 10**9, 0, 0])
    s = _contingency_from_chunk(t, p)
    assert (s.n_true, s.n_pred) == (3 * 10**9 + 1, 4 * 10**9 + 1)
    assert s.rows.tolist() == [0, 3 * 10**9]
    assert s.cols.tolist() == [4 * 10**9, 0]
    assert s.counts.tolist() == [1, 2]


codes = st.integers(1, 8).flatmap(
    lambda k: st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, 5)), min_size=1, max_size=80)
)


@given(pairs=codes, cuts=st.lists(st.integers(0, 10**6), max_size=5), sparse=st.booleans())
def test_merged_chunks_equal_one_shot(pairs, cuts, sparse):
    t = np.array([a for a, _ in pairs])
    p = np.array([b for _, b in pairs])
    n_true, n_pred = (10**4, 10**4) if sparse else (8, 6)  # 1e8 cells forces the sparse path
    edges = sorted({0, len(t), *(c % (len(t) + 1) for c in cuts)})
    states = [
        _contingency_from_chunk(t[a:b], p[a:b], n_true=n_true, n_pred=n_pred)
        for a, b in pairwise(edges)
    ]
    one_shot = _contingency_from_chunk(t, p, n_true=n_true, n_pred=n_pred)
    _same_state(reduce(_merge_contingency, states), one_shot)
    _same_state(reduce(_merge_contingency, states[::-1]), one_shot)
    _same_state(one_shot, _brute_state(t, p, n_true, n_pred))


words = st.sampled_from(["ant", "bee", "cat", "dog", "eel", "fox"])


@given(
    labels=st.lists(st.tuples(words, st.integers(-3, 3)), min_size=1, max_size=60),
    cuts=st.lists(st.integers(0, 10**6), max_size=4),
)
def test_vocabulary_protocol_reproduces_one_shot(labels, cuts):
    # The protocol documented in _contingency: each chunk is coded locally, its classes are
    # appended to first-seen vocabularies, codes are translated, states merged; a final remap
    # through the argsort of the vocabularies gives the sorted-label state of the one-shot path.
    t = np.array([a for a, _ in labels])
    p = np.array([b for _, b in labels])
    edges = sorted({0, len(t), *(c % (len(t) + 1) for c in cuts)})
    vocab_t: dict[object, int] = {}
    vocab_p: dict[object, int] = {}
    state = _contingency_from_chunk(np.zeros(0, np.int64), np.zeros(0, np.int64))
    for a, b in pairwise(edges):
        if a == b:
            continue
        ct, kt = encode(t[a:b])
        cp, kp = encode(p[a:b])
        map_t = np.array([vocab_t.setdefault(c, len(vocab_t)) for c in ct.tolist()])
        map_p = np.array([vocab_p.setdefault(c, len(vocab_p)) for c in cp.tolist()])
        chunk = _contingency_from_chunk(
            map_t[kt], map_p[kp], n_true=len(vocab_t), n_pred=len(vocab_p)
        )
        state = _merge_contingency(state, chunk)
    rank_t = np.argsort(np.argsort(np.array(list(vocab_t))))
    rank_p = np.argsort(np.argsort(np.array(list(vocab_p))))
    final = _remap_contingency(state, rank_t, rank_p, len(vocab_t), len(vocab_p))
    classes_t, codes_t = encode(t)
    classes_p, codes_p = encode(p)
    _same_state(
        final,
        _contingency_from_chunk(codes_t, codes_p, n_true=classes_t.size, n_pred=classes_p.size),
    )


def test_metrics_ignore_empty_codes():
    # A vocabulary may hold labels absent from the data: rows/columns of zeros change nothing.
    t, p = np.array([0, 0, 1, 2, 2]), np.array([1, 0, 0, 1, 1])
    tight = _contingency_from_chunk(t, p)
    loose = _contingency_from_chunk(t * 2, p * 3, n_true=9, n_pred=7)
    for fn in (_rand_from_contingency, _ari_from_contingency, _mi_from_contingency):
        assert fn(tight) == fn(loose)
    assert _ami_from_contingency(tight) == pytest.approx(_ami_from_contingency(loose), abs=1e-15)


def test_pair_counts_are_exact_beyond_int64():
    # Two cells of 2e9 samples: N = 4e9, N² = 1.6e19 > 2**63. The ordered-pair counts of
    # scikit-learn's pair_confusion_matrix, by hand with Python integers:
    big = 2 * 10**9
    s = ContingencyState(
        2, 2, np.array([0, 1]), np.array([0, 0]), np.array([big, big], dtype=np.int64)
    )
    n = 2 * big
    sq = 2 * big * big  # Σ n_ij²
    tn, fp, fn, tp = _pair_confusion(s)
    assert tp == sq - n
    assert fp == n * n - sq  # one cluster holds everything: Σ b_j² = N²
    assert fn == 0  # Σ a_i² = Σ n_ij²
    assert tn == n * n - fp - fn - sq
    assert _rand_from_contingency(s) == float(Fraction(tn + tp, n * n - n))


# --- Bad input: one test per case ------------------------------------------------------------
@pytest.mark.parametrize("fn", ALL_METRICS, ids=lambda f: f.__name__)
def test_lengths_differ(fn):
    with pytest.raises(
        LengthMismatchError, match="labels_true has 3 entries but labels_pred has 2"
    ):
        fn([0, 1, 1], [0, 1])


@pytest.mark.parametrize("fn", ALL_METRICS, ids=lambda f: f.__name__)
def test_nan_labels(fn):
    with pytest.raises(NonFiniteError, match="labels_pred contains 1 NaN"):
        fn([0, 1, 1], [0.0, np.nan, 1.0])


@pytest.mark.parametrize("fn", ALL_METRICS, ids=lambda f: f.__name__)
def test_empty_input(fn):
    with pytest.raises(EmptyInputError, match="labels_true is empty"):
        fn([], [])


@pytest.mark.parametrize("fn", ALL_METRICS, ids=lambda f: f.__name__)
def test_two_dimensional_labels(fn):
    with pytest.raises(ShapeError, match="labels_true must be 1-D"):
        fn([[0, 1], [1, 0]], [0, 1])


@pytest.mark.parametrize("fn", [normalized_mutual_info, adjusted_mutual_info])
def test_unknown_average_method(fn):
    with pytest.raises(ParameterError, match="average_method='mean' is not one of"):
        fn([0, 1], [0, 1], average_method="mean")


@pytest.mark.parametrize("fn", [v_measure, homogeneity_completeness_v_measure])
def test_negative_beta(fn):
    with pytest.raises(ParameterError, match=r"beta=-1\.0 must be"):
        fn([0, 1], [0, 1], beta=-1.0)


def test_eps_with_sparse():
    with pytest.raises(ParameterError, match="eps cannot be set when sparse=True"):
        contingency_matrix([0, 1], [0, 1], eps=0.1, sparse=True)


def test_negative_eps():
    with pytest.raises(ParameterError, match=r"eps=-0\.5 must be"):
        contingency_matrix([0, 1], [0, 1], eps=-0.5)


def test_mutual_info_needs_labels_or_contingency():
    with pytest.raises(ShapeError, match="labels_true is None"):
        mutual_info()


def test_contingency_not_two_dimensional():
    with pytest.raises(ShapeError, match="contingency must be 2-D"):
        mutual_info(contingency=[1, 2, 3])


def test_contingency_negative_count():
    with pytest.raises(ParameterError, match="non-negative integer counts"):
        mutual_info(contingency=[[1, -2], [3, 4]])


def test_contingency_fractional_count():
    with pytest.raises(ParameterError, match="non-negative integer counts"):
        mutual_info(contingency=[[1.5, 2.0], [3.0, 4.0]])


def test_contingency_all_zero():
    with pytest.raises(EmptyInputError, match="contingency is empty"):
        mutual_info(contingency=np.zeros((2, 3)))


def test_inputs_are_not_modified():
    t = np.array([3, 1, 3, 2])
    p = np.array([True, False, False, True])
    t0, p0 = t.copy(), p.copy()
    for fn in ALL_METRICS:
        fn(t, p)
    np.testing.assert_array_equal(t, t0)
    np.testing.assert_array_equal(p, p0)


# --- Expected mutual information: exact reference --------------------------------------------
def _emi_exact(a: np.ndarray, b: np.ndarray, n: int):
    # Vinh, Epps & Bailey (2010), eq. (24a), every term of every pair, in 30-digit arithmetic.
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 30
    lf = lambda k: mp.loggamma(k + 1)  # noqa: E731
    big_n = mp.mpf(n)
    total = mp.mpf(0)
    for x in a.tolist():
        for y in b.tolist():
            for k in range(max(1, x + y - n), min(x, y) + 1):
                g = lf(x) + lf(y) + lf(n - x) + lf(n - y) - lf(n)
                g -= lf(k) + lf(x - k) + lf(y - k) + lf(n - x - y + k)
                total += k / big_n * mp.log(big_n * k / (x * y)) * mp.exp(g)
    return float(total)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([1000, 600, 400], [1200, 500, 300]),  # few large clusters: long ranges, tails skipped
        ([3, 1, 7, 2, 2, 9, 1, 5], [10, 4, 4, 1, 11]),  # small clusters, repeated sizes
        ([1, 1, 1, 1], [2, 2]),
    ],
    ids=["large", "small", "singletons"],
)
def test_expected_mutual_info_against_mpmath(a, b):
    from scorekit.clustering._information import _expected_mutual_info

    a_arr, b_arr = np.array(a), np.array(b)
    n = int(a_arr.sum())
    assert n == int(b_arr.sum())
    assert _expected_mutual_info(a_arr, b_arr, n) == pytest.approx(
        _emi_exact(a_arr, b_arr, n), rel=1e-11
    )


def test_ami_zero_over_zero_is_undefined_not_noise():
    # labels_pred all singletons: every labelling with these sizes has MI = H(true) =
    # E[MI], and with "min" the normalizer is H(true) too, so AMI is 0/0
    # (scikit-learn returns rounding noise / eps here: 0.667 and 0.862 on these inputs).
    a = [1, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1]
    for t, p in (([0, 1, 0, 1], [0, 1, 2, 3]), (a, list(range(30)))):
        with pytest.warns(UndefinedMetricWarning, match="0/0"):
            assert np.isnan(adjusted_mutual_info(t, p, average_method="min"))
    # with the other means the normalizer exceeds E[MI]: well defined, MI = E[MI], AMI = 0
    for method in ("arithmetic", "geometric", "max"):
        assert abs(adjusted_mutual_info([0, 1, 0, 1], [0, 1, 2, 3], average_method=method)) < 1e-12
