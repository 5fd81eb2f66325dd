"""GAUC against a pandas groupby over scikit-learn's roc_auc_score; kernels; errors."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit
from scorekit import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NegativeWeightError,
    NonFiniteError,
    OmittedRowsWarning,
    ParameterError,
    ScorekitError,
    UndefinedMetricWarning,
)
from scorekit._codes import encode
from scorekit.recsys import GroupAUCTable, _gauc_kernel, gauc
from scorekit.recsys._gauc import gauc_from_state, gauc_from_stats
from scorekit.recsys._gauc_kernel import (
    group_aucs_from_state,
    group_stats_from_state,
    grouped_curve_from_chunk,
    merge_grouped_curves,
    unit_group_stats,
    weighted_group_aucs,
)

pd = pytest.importorskip("pandas")
sk_metrics = pytest.importorskip("sklearn.metrics")

WEIGHT_OPTIONS = ["impressions", "clicks", None, "array", "mapping"]


def make_data(seed, n=4000, n_groups=300, kind="str", ties=True):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 2 * n // n_groups, n_groups)
    g_code = np.repeat(np.arange(n_groups), sizes)
    rng.shuffle(g_code)
    m = g_code.size
    base = rng.random(m)
    s = np.round(base, 1) if ties else base  # ties: 11 distinct values
    y = rng.random(m) < np.clip(0.15 + 0.5 * base, 0, 1)
    y[g_code % 17 == 0] = False  # some groups with negatives only
    y[g_code % 19 == 0] = True  # some with positives only
    if kind == "str":
        g = np.array([f"user{c:04d}" for c in range(n_groups)])[g_code]
    elif kind == "int_dense":
        g = g_code + 1000
    else:  # wide-range int64 ids (hashed ids): the np.unique path
        g = (g_code.astype(np.int64) * 7_919_000_003) - 2**40
    w = rng.uniform(0.1, 3.0, m)
    return y, s, g, w


def reference_table(y, s, g, w=None):
    """Per group, from pandas + scikit-learn: n, n_pos, n_neg, auc (nan when one class)."""
    df = pd.DataFrame({"y": y.astype(int), "s": s, "g": g, "w": 1.0 if w is None else w})
    rows = []
    for key, d in df.groupby("g", sort=True):
        n_pos = float((d.w * d.y).sum())
        n_neg = float((d.w * (1 - d.y)).sum())
        if d.y.nunique() == 2:
            sw = None if w is None else d.w.to_numpy()
            auc = sk_metrics.roc_auc_score(d.y, d.s, sample_weight=sw)
        else:
            auc = math.nan
        rows.append((key, n_pos + n_neg, n_pos, n_neg, auc))
    return pd.DataFrame(rows, columns=["group", "n", "n_pos", "n_neg", "auc"])


def group_weights(table, option, seed=7):
    """The weight v_g of each group of a reference table, and what to pass as weights=."""
    if option in ("array", "mapping"):
        v = np.random.default_rng(seed).uniform(0.0, 5.0, len(table))
        passed = (
            v if option == "array" else dict(zip(table.group.tolist(), v.tolist(), strict=True))
        )
        return v, passed
    v = {"impressions": table.n, "clicks": table.n_pos, None: np.ones(len(table))}[option]
    return np.asarray(v, dtype=float), option


def expected_mean(table, v):
    ok = table.auc.notna().to_numpy()
    return float(np.sum(v[ok] * table.auc.to_numpy()[ok]) / np.sum(v[ok]))


@pytest.fixture(scope="module", params=["str", "int_dense", "int_wide"])
def case(request):
    y, s, g, w = make_data(3, n=1500, n_groups=120, kind=request.param)
    return y, s, g, w, reference_table(y, s, g), reference_table(y, s, g, w)


@pytest.mark.parametrize("option", WEIGHT_OPTIONS)
def test_matches_pandas_groupby_sklearn(case, option):
    y, s, g, _, table, _ = case
    assert table.auc.isna().any()  # the data has one-class groups, which are skipped
    v, passed = group_weights(table, option)
    assert gauc(y, s, g, weights=passed) == pytest.approx(expected_mean(table, v), abs=1e-9)


@pytest.mark.parametrize("option", WEIGHT_OPTIONS)
def test_matches_pandas_groupby_sklearn_with_sample_weight(case, option):
    y, s, g, w, _, table = case
    v, passed = group_weights(table, option)
    got = gauc(y, s, g, weights=passed, sample_weight=w)
    assert got == pytest.approx(expected_mean(table, v), abs=1e-9)


def test_table_matches_reference(case):
    y, s, g, _, table, _ = case
    value, got = gauc(y, s, g, return_groups=True)
    assert isinstance(got, GroupAUCTable)
    assert got.group.tolist() == table.group.tolist()
    np.testing.assert_array_equal(got.n, table.n)
    np.testing.assert_array_equal(got.n_pos, table.n_pos)
    np.testing.assert_array_equal(got.n_neg, table.n_neg)
    np.testing.assert_allclose(got.auc, table.auc, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(got.weight, np.where(table.auc.notna(), table.n, 0.0))
    frame = got.to_pandas()
    assert list(frame.columns) == ["group", "n", "n_pos", "n_neg", "auc", "weight"]
    assert len(frame) == len(got) == len(table)
    d = got.to_dict()
    assert d["group"] == table.group.tolist()
    assert value == pytest.approx(np.nansum(d["auc"] * frame.weight) / frame.weight.sum())


@pytest.mark.parametrize("seed", [0, 1])
def test_weights_spanning_twenty_decades_per_group(seed):
    # regression: each group's running weight was taken from a running sum over many
    # groups, so a group whose one class is tiny against that sum lost it (an AUC off
    # by up to 1.0); now each group is summed on its own, as scikit-learn does per group
    y, s, g, _ = make_data(seed, n=4000, n_groups=300, kind="int_dense")
    rng = np.random.default_rng(seed + 100)
    w = rng.random(y.size) * 10.0 ** rng.integers(-10, 11, y.size)
    table = reference_table(y, s, g, w)
    _, got = gauc(y, s, g, sample_weight=w, return_groups=True)
    # an AUC in [0, 1] rounded as scikit-learn's trapezoids are: 1e-14 absolute
    np.testing.assert_allclose(got.auc, table.auc, rtol=0, atol=1e-14)
    np.testing.assert_allclose(got.n_pos, table.n_pos, rtol=1e-13)


def test_no_ties_large_random():
    y, s, g, _ = make_data(11, n=20_000, n_groups=150, kind="int_dense", ties=False)
    table = reference_table(y, s, g)
    assert gauc(y, s, g) == pytest.approx(expected_mean(table, table.n.to_numpy()), abs=1e-9)


def test_worked_example_deep_interest_network_definition():
    # GAUC as defined by Zhou et al., "Deep Interest Network for Click-Through Rate
    # Prediction" (KDD 2018), eq. (9): sum_u impression_u * AUC_u / sum_u impression_u.
    # user a: positives 0.8, 0.4; negatives 0.5, 0.1 -> pairs in order: (0.8>0.5),
    #   (0.8>0.1), (0.4>0.1); (0.4<0.5) -> 3/4 = 0.75, 4 impressions.
    # user b: positive 0.3; negatives 0.3 (a tie, counts 1/2) and 0.2 (in order, 1)
    #   -> 1.5 / 2 = 0.75, 3 impressions.
    # user c: positive 0.9, negative 0.95 -> 0/1 = 0, 2 impressions.
    # user d: only negatives -> skipped.
    # GAUC = (4*0.75 + 3*0.75 + 2*0) / (4 + 3 + 2) = 5.25 / 9 = 0.58333...
    y = [1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0]
    s = [0.8, 0.4, 0.5, 0.1, 0.3, 0.3, 0.2, 0.9, 0.95, 0.5, 0.6]
    g = ["a", "a", "a", "a", "b", "b", "b", "c", "c", "d", "d"]
    assert gauc(y, s, g) == pytest.approx(5.25 / 9, abs=1e-15)
    # clicks: (2*0.75 + 1*0.75 + 1*0) / 4 = 0.5625; unweighted: 1.5 / 3 = 0.5
    assert gauc(y, s, g, weights="clicks") == pytest.approx(0.5625, abs=1e-15)
    assert gauc(y, s, g, weights=None) == pytest.approx(0.5, abs=1e-15)
    _, table = gauc(y, s, g, return_groups=True)
    assert table.auc[:3].tolist() == [0.75, 0.75, 0.0]
    assert math.isnan(table.auc[3])
    assert table.weight.tolist() == [4.0, 3.0, 2.0, 0.0]


def test_every_group_one_class_warns_and_returns_nan():
    with pytest.warns(UndefinedMetricWarning, match="only one class"):
        value = gauc([1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4], [1, 1, 2, 2])
    assert math.isnan(value)


def test_zero_total_weight_warns_and_returns_nan():
    with pytest.warns(UndefinedMetricWarning, match="total weight 0"):
        value = gauc([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.1], [1, 1, 2, 2], weights={1: 0.0, 2: 0.0})
    assert math.isnan(value)


def test_weights_array_aligns_with_sorted_unique_groups():
    # groups in order of appearance "z", "a"; sorted: "a" (AUC 1), "z" (AUC 0)
    y, s, g = [1, 0, 1, 0], [0.1, 0.9, 0.9, 0.1], ["z", "z", "a", "a"]
    assert gauc(y, s, g, weights=[3.0, 1.0]) == 0.75
    assert gauc(y, s, g, weights={"z": 1.0, "a": 3.0}) == 0.75
    assert gauc(y, s, g, weights=pd.Series({"z": 1.0, "a": 3.0})) == 0.75


def test_tie_between_negative_zero_and_zero():
    # -0.0 and 0.0 are the same score: one tied pair, AUC 1/2
    assert gauc([1, 0], [-0.0, 0.0], [5, 5]) == 0.5
    assert gauc([1, 0], [0.0, -0.0], [5, 5], sample_weight=[1, 1]) == 0.5


@pytest.mark.parametrize(
    "transform",
    [
        lambda s: s * 1e9 + 1e9,
        lambda s: s * 1e-9,
        lambda s: s - 0.5,  # negative scores
        lambda s: (s - 0.5) * 1e300,  # the widest float range
        lambda s: s.astype(np.float32).astype(np.float64),  # float32 precision
    ],
    ids=["huge", "tiny", "signed", "wide", "float32"],
)
def test_magnitudes(transform):
    y, s, g, _ = make_data(5, n=2000, n_groups=60, kind="int_dense", ties=False)
    s2 = transform(s)
    table = reference_table(y, s2, g)
    assert gauc(y, s2, g) == pytest.approx(expected_mean(table, table.n.to_numpy()), abs=1e-9)


def test_neighbouring_floats_over_the_widest_range(monkeypatch):
    # 1e300 and -1e300 leave no room for every score bit: neighbouring floats then
    # share a truncated key and must be told apart exactly (by _bucket_correction).
    import scorekit.recsys._gauc_kernel as mod

    calls = []
    original = mod._bucket_correction
    monkeypatch.setattr(
        mod, "_bucket_correction", lambda *a: calls.append(a[0].size) or original(*a)
    )
    rng = np.random.default_rng(2)
    x = np.array([0.5, -0.25, 3.0, 1e-200])
    s = np.concatenate([x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf), [1e300, -1e300]])
    s = np.tile(s, 30)
    g = rng.integers(0, 4, s.size)
    y = rng.random(s.size) < 0.5
    table = reference_table(y, s, g)
    assert gauc(y, s, g) == pytest.approx(expected_mean(table, table.n.to_numpy()), abs=1e-12)
    assert calls  # the exact correction ran


def test_group_id_types():
    y = np.array([1, 0, 0, 1, 1, 0])
    s = np.array([0.9, 0.1, 0.5, 0.4, 0.2, 0.3])
    expected = gauc(y, s, ["a", "a", "b", "b", "c", "c"])
    assert gauc(y, s, np.array([-128, -128, 0, 0, 127, 127], dtype=np.int8)) == expected
    assert gauc(y, s, np.array([0, 0, 2**63, 2**63, 2**64 - 1, 2**64 - 1], dtype=np.uint64)) == (
        expected
    )
    assert gauc(y, s, [2.5, 2.5, 3.5, 3.5, 1.0, 1.0]) == expected
    assert gauc([1, 0, 1, 0], [0.9, 0.1, 0.2, 0.3], [True, True, False, False]) == 0.5


def test_inputs_not_modified_and_frame_columns():
    y, s, g, w = make_data(9, n=500, n_groups=40, kind="int_dense")
    s[0] = -0.0
    g = g - g.min()  # int64 ids from 0: the codes are the user's own array
    copies = [a.copy() for a in (y, s, g, w)]
    frame = pd.DataFrame({"y": y, "s": s, "g": g})
    assert gauc(frame.y, frame.s, frame.g) == gauc(y, s, g)
    gauc(y, s, g, sample_weight=w)
    for before, after in zip(copies, (y, s, g, w), strict=True):
        np.testing.assert_array_equal(before, after)
    assert np.signbit(s[0])


def test_nan_policy_omit():
    y, s, g, _ = make_data(4, n=800, n_groups=50, kind="str")
    s = s.copy()
    s[[3, 50, 77]] = np.nan
    keep = ~np.isnan(s)
    with pytest.warns(OmittedRowsWarning, match="dropped 3"):
        got = gauc(y, s, g, nan_policy="omit")
    assert got == gauc(y[keep], s[keep], g[keep])


def test_top_level_export():
    assert scorekit.gauc is gauc


# --------------------------------------------------------------------------- kernels


def brute_force(y, s, g, w):
    """Per-group AUC by comparing every pair (for small inputs)."""
    out = {}
    for key in np.unique(g):
        m = g == key
        yy, ss, ww = y[m], s[m], w[m]
        p, q = ss[yy], ss[~yy]
        wp, wq = ww[yy], ww[~yy]
        if wp.sum() > 0 and wq.sum() > 0:
            cmp = (p[:, None] > q[None, :]) + 0.5 * (p[:, None] == q[None, :])
            out[key] = float(wp @ cmp @ wq / (wp.sum() * wq.sum()))
    return out


rows = st.integers(1, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(
            st.sampled_from([-1e300, -2.0, -0.0, 0.0, 0.25, 0.5, 0.5000000000000001, 1e-300, 7.0]),
            min_size=n,
            max_size=n,
        ),
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
    )
)


@given(data=rows, score_bits=st.sampled_from([None, 1, 2, 3, 7, 20]))
def test_fast_path_equals_kernel_and_brute_force(data, score_bits):
    y, s, g = (np.array(a) for a in data)
    y = y.astype(bool)
    s = s.astype(float)
    labels, codes = encode(g, gaps=True)
    fast = unit_group_stats(codes, labels.size, y, s, score_bits=score_bits)
    state = grouped_curve_from_chunk(codes, y, s, None, labels)
    slow = group_stats_from_state(state)
    present = (fast[0] + fast[1]) > 0
    for a, b in zip(fast, slow, strict=True):
        np.testing.assert_array_equal(a[present], b)
    brute = brute_force(y, s, g, np.ones(y.size))
    ok = (slow[0] > 0) & (slow[1] > 0)
    auc = slow[2][ok] / (slow[0][ok] * slow[1][ok])
    got = dict(zip(state.groups[ok].tolist(), auc.tolist(), strict=True))
    assert got.keys() == brute.keys()
    for key, value in brute.items():
        assert got[key] == pytest.approx(value, abs=1e-12)


weights = st.sampled_from([0.0, 0.1, 0.3, 1.0, 2.0, 3.0, 1e-300, 2.5e300, 7.25])


@given(
    data=rows,
    w=st.lists(weights, min_size=60, max_size=60),
    score_bits=st.sampled_from([None, 1, 2, 3, 7, 20]),
)
def test_weighted_one_shot_path_equals_state(data, w, score_bits):
    """Weighted ``gauc`` skips the state: its per-group floats are the state's, bit for bit."""
    y, s, g = (np.array(a) for a in data)
    y = y.astype(bool)
    s = s.astype(float)
    w = np.array(w[: y.size])
    labels, codes = encode(g, gaps=True)
    state = grouped_curve_from_chunk(codes, y, s, w, labels)
    want = group_aucs_from_state(state)
    entries = _gauc_kernel.grouped_weighted_entries
    with pytest.MonkeyPatch.context() as mp:  # truncated buckets: re-sorted by score within
        mp.setattr(
            _gauc_kernel,
            "grouped_weighted_entries",
            lambda *a: entries(*a, score_bits=score_bits),
        )
        got = weighted_group_aucs(codes, labels.size, y, s, w)
    assert got is not None
    assert labels[got[0]].tolist() == state.groups.tolist()
    for a, b in zip(got[1:], want, strict=True):
        assert a.tobytes() == b.tobytes()


@given(data=rows, cuts=st.lists(st.integers(0, 60), max_size=4), reverse=st.booleans())
def test_chunked_merge_equals_one_shot(data, cuts, reverse):
    y, s, g = (np.array(a) for a in data)
    y = y.astype(bool)
    s = s.astype(float)
    g = np.array([f"u{v}" for v in g])  # string ids, encoded per chunk
    edges = sorted({0, y.size, *(c % (y.size + 1) for c in cuts)})
    states = []
    for a, b in itertools.pairwise(edges):
        labels, codes = np.unique(g[a:b], return_inverse=True)
        states.append(grouped_curve_from_chunk(codes, y[a:b], s[a:b], None, labels))
    if reverse:
        states = states[::-1]
    merged = states[0]
    for st_ in states[1:]:
        merged = merge_grouped_curves(merged, st_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        one_shot = gauc(y, s, g, return_groups=True)
        chunked = gauc_from_state(merged, return_groups=True)
    assert isinstance(chunked, tuple)
    assert chunked[1].group.tolist() == one_shot[1].group.tolist()
    np.testing.assert_array_equal(chunked[1].auc, one_shot[1].auc)
    assert chunked[0] == one_shot[0] or (math.isnan(chunked[0]) and math.isnan(one_shot[0]))


def test_weighted_merge_equals_one_shot():
    y, s, g, w = make_data(8, n=3000, n_groups=100, kind="int_dense")
    labels, codes = encode(g, gaps=True)
    parts = np.array_split(np.arange(y.size), 5)
    states = [grouped_curve_from_chunk(codes[i], y[i], s[i], w[i], labels) for i in parts]
    merged = states[0]
    for st_ in states[1:]:
        merged = merge_grouped_curves(st_, merged)
    for option in ("impressions", "clicks", None):
        got = gauc_from_state(merged, weights=option)
        assert got == pytest.approx(gauc(y, s, g, sample_weight=w, weights=option), abs=1e-12)


def test_state_layout():
    state = grouped_curve_from_chunk(
        np.array([1, 0, 1, 1]),
        np.array([True, False, False, True]),
        np.array([0.5, 0.2, 0.5, 0.1]),
        None,
    )
    assert state.groups.tolist() == [0, 1]
    assert state.offsets.tolist() == [0, 1, 3]
    assert state.scores.tolist() == [0.2, 0.1, 0.5]
    assert state.pos.tolist() == [0.0, 1.0, 1.0]
    assert state.neg.tolist() == [1.0, 0.0, 1.0]
    # group 1: positive 0.1 below the negative 0.5 (0), positive 0.5 tied with it (1/2)
    assert gauc_from_state(state) == 0.25


def test_gauc_from_stats_checks_weights():
    with pytest.raises(LengthMismatchError):
        gauc_from_stats(np.array([1, 2]), np.ones(2), np.ones(2), np.ones(2), [1.0], False)


# --------------------------------------------------------------------------- errors


Y, S, G = [1, 0, 1, 0], [0.3, 0.2, 0.6, 0.7], [1, 1, 2, 2]


def test_error_lengths_differ():
    with pytest.raises(LengthMismatchError, match="y_true has 4 entries but y_score has 3"):
        gauc(Y, S[:3], G)


def test_error_groups_wrong_length():
    with pytest.raises(LengthMismatchError, match="groups has 5"):
        gauc(Y, S, [*G, 3])


def test_error_nan_scores():
    with pytest.raises(NonFiniteError, match="y_score contains 1 NaN"):
        gauc(Y, [0.3, np.nan, 0.6, 0.7], G)


def test_error_unknown_weights_option():
    with pytest.raises(ParameterError, match="weights='views'"):
        gauc(Y, S, G, weights="views")


def test_error_weights_bool():
    with pytest.raises(ParameterError, match="weights=True"):
        gauc(Y, S, G, weights=True)


def test_error_weights_array_wrong_length():
    with pytest.raises(LengthMismatchError, match="2 distinct groups"):
        gauc(Y, S, G, weights=[1.0, 2.0, 3.0])


def test_error_weights_mapping_missing_group():
    with pytest.raises(ParameterError, match=r"no entry for 1 groups \(\[2\]\)"):
        gauc(Y, S, G, weights={1: 1.0})


def test_error_negative_group_weights():
    with pytest.raises(ParameterError, match="negative"):
        gauc(Y, S, G, weights=[1.0, -1.0])


def test_error_nan_group_weights():
    with pytest.raises(NonFiniteError, match="weights contains 1 NaN"):
        gauc(Y, S, G, weights=[1.0, np.nan])


def test_error_negative_sample_weight():
    with pytest.raises(NegativeWeightError):
        gauc(Y, S, G, sample_weight=[1, -1, 1, 1])


def test_error_labels_not_binary():
    with pytest.raises(LabelError, match="y_true has 3 classes"):
        gauc([0, 1, 2, 1], S, G)


def test_error_empty():
    with pytest.raises(EmptyInputError):
        gauc([], [], [])


def test_error_nan_groups():
    with pytest.raises(NonFiniteError, match="groups"):
        gauc(Y, S, [1.0, np.nan, 2.0, 2.0])


def test_errors_are_scorekit_errors():
    with pytest.raises(ScorekitError):
        gauc(Y, S, G, weights="views")
