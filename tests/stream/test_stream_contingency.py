"""Contingency: chunked and merged in any order equals the one-shot clustering metrics, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import feed, json_roundtrip, outcome, pickle_roundtrip, same

import scorekit as sk
from scorekit._errors import EmptyInputError, LabelError, LengthMismatchError, ParameterError
from scorekit.stream import Contingency

SEEDS = st.integers(0, 2**32 - 1)


def _labels(rng, n, kind):
    k1, k2 = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    t = rng.integers(0, k1, n)
    p = np.where(rng.random(n) < 0.5, t % k2, rng.integers(0, k2, n))
    if kind == "str":
        return np.char.add("c", t.astype(str)), np.char.add("k", p.astype(str))
    if kind == "wide":
        return t * 1_000_003 - 5, p.astype(np.uint32) * 77
    if kind == "bool":
        return t % 2 == 0, p % 2 == 0
    return t, p


def _one_shot(name, t, p, **kw):
    return lambda: getattr(sk, name)(t, p, **kw)


def _method(name, **kw):
    return lambda acc: getattr(acc, name)(**kw)


def _cases(t, p):
    plain = (
        "rand_index",
        "adjusted_rand_index",
        "fowlkes_mallows",
        "mutual_info",
        "homogeneity",
        "completeness",
        "contingency_matrix",
    )
    out = [(name, _one_shot(name, t, p), _method(name)) for name in plain]
    out += [
        (f"{name}-{m}", _one_shot(name, t, p, average_method=m), _method(name, average_method=m))
        for m in ("arithmetic", "geometric", "min", "max")
        for name in ("normalized_mutual_info", "adjusted_mutual_info")
    ]
    out.append(("v_measure", lambda: sk.v_measure(t, p, beta=2.0), lambda a: a.v_measure(beta=2.0)))
    out.append(
        (
            "hcv",
            lambda: sk.homogeneity_completeness_v_measure(t, p, beta=0.5),
            lambda a: a.homogeneity_completeness_v_measure(beta=0.5),
        )
    )
    out.append(
        (
            "sparse",
            lambda: sk.contingency_matrix(t, p, sparse=True).toarray(),
            lambda a: a.contingency_matrix(sparse=True).toarray(),
        )
    )
    out.append(
        (
            "eps",
            lambda: sk.contingency_matrix(t, p, eps=0.5),
            lambda a: a.contingency_matrix(eps=0.5),
        )
    )
    return out


@given(seed=SEEDS, kind=st.sampled_from(["int", "str", "wide", "bool"]))
def test_chunked_equals_one_shot_exactly(seed, kind):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, int(rng.integers(1, 300)), kind)
    acc = feed(Contingency, (t, p), rng)
    for name, one_shot, method in _cases(t, p):
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        assert same(got, expected), name
        assert got_warned == warned, name
    assert np.array_equal(acc.classes_true, np.unique(t))
    assert np.array_equal(acc.classes_pred, np.unique(p))


@given(seed=SEEDS)
def test_round_trips_change_nothing(seed):
    rng = np.random.default_rng(seed)
    t, p = _labels(rng, 100, str(rng.choice(["int", "str"])))
    acc = feed(Contingency, (t, p), rng)
    for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
        for name, _, method in _cases(t, p):
            assert same(method(back), method(acc)), name
        # the vocabulary comes back too: more data goes on working
        back.update(t[:5], p[:5])
        again = pickle_roundtrip(acc).update(t[:5], p[:5])
        assert back.adjusted_mutual_info() == again.adjusted_mutual_info()


def test_many_clusters_large_chunks():
    rng = np.random.default_rng(7)
    t = rng.integers(0, 300, 60_000)
    p = (t + rng.integers(0, 3, t.size)) % 310
    acc = Contingency()
    for part in np.array_split(np.arange(t.size), 5):
        acc.update(t[part], p[part])
    assert acc.adjusted_mutual_info() == sk.adjusted_mutual_info(t, p)
    assert acc.adjusted_rand_index() == sk.adjusted_rand_index(t, p)


def test_worked_example():
    # Hubert & Arabie's ARI on [0, 0, 1, 1] vs [0, 1, 0, 1] (the example of
    # scorekit.adjusted_rand_index): pairs together in both TP = 0, apart in both
    # TN = 4 (ordered: 2·2), FP = FN = 4, so ARI = 2(0·4 − 4·4)/((0+4)(4+4)+(0+4)(4+4)) = −0.5;
    # the six unordered pairs agree on 2 of 6: RI = 1/3.
    acc = Contingency().update([0, 0], [0, 1]).update([1, 1], [0, 1])
    assert acc.adjusted_rand_index() == -0.5
    assert acc.rand_index() == pytest.approx(1 / 3, abs=1e-15)
    assert acc.contingency_matrix().tolist() == [[1, 1], [1, 1]]


def test_merge_accumulators_with_different_vocabularies():
    a = Contingency().update(["x", "y"], [3, 1])
    b = Contingency().update(["z", "x"], [2, 3])
    a.merge(b)
    t, p = ["x", "y", "z", "x"], [3, 1, 2, 3]
    assert same(a.contingency_matrix(), sk.contingency_matrix(t, p))
    assert a.mutual_info() == sk.mutual_info(t, p)
    assert b.classes_true.tolist() == ["x", "z"]  # other is not modified


def test_empty_raises():
    with pytest.raises(EmptyInputError, match="no rows"):
        Contingency().mutual_info()


def test_length_mismatch_raises():
    with pytest.raises(LengthMismatchError, match="labels_pred"):
        Contingency().update([0, 1], [0])


def test_strings_then_numbers_raise():
    acc = Contingency().update(["a"], [0])
    with pytest.raises(LabelError, match="labels_true"):
        acc.update([1], [0])


def test_bad_average_method_raises():
    with pytest.raises(ParameterError, match="average_method"):
        Contingency().update([0], [0]).normalized_mutual_info(average_method="mean")


def test_bad_beta_raises():
    with pytest.raises(ParameterError, match="beta"):
        Contingency().update([0], [0]).v_measure(beta=-1)


def test_eps_with_sparse_raises():
    with pytest.raises(ParameterError, match="eps"):
        Contingency().update([0], [0]).contingency_matrix(eps=1.0, sparse=True)


def test_all_true_bool_chunk_keeps_its_class_name():
    # The chunk coder once named the classes of an all-True chunk [False], which merged
    # True rows into the False row of the next chunk.
    t, p = np.array([True, True, False, False]), np.array([True, False, True, True])
    acc = Contingency().update(t[:2], p[:2]).update(t[2:], p[2:])
    np.testing.assert_array_equal(acc.contingency_matrix(), sk.contingency_matrix(t, p))
    assert acc.adjusted_rand_index() == sk.adjusted_rand_index(t, p)
