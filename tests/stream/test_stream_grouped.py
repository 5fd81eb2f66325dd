"""GroupedCurve: GAUC over groups split across chunks equals scorekit.gauc."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import close, feed, json_roundtrip, outcome, pickle_roundtrip, same

import scorekit as sk
from scorekit._errors import EmptyInputError, LabelError, LengthMismatchError, NonFiniteError
from scorekit.stream import GroupedCurve

SEEDS = st.integers(0, 2**32 - 1)


def _data(rng, n, kind):
    n_groups = int(rng.integers(1, 25))
    g = rng.integers(0, n_groups, n)
    s = np.round(rng.random(n), int(rng.integers(1, 4)))  # ties inside groups
    y = (rng.random(n) < 0.3 + 0.4 * s).astype(int)
    if kind == "str":
        g = np.char.add("user", g.astype(str))
    elif kind == "wide":
        g = g * 10_000_019 - 3
    elif kind == "bool_y":
        y = y.astype(bool)
    return y, s, g


def _cases(y, s, g, w):
    groups = np.unique(g)
    weight_options = {
        "impressions": "impressions",
        "clicks": "clicks",
        "none": None,
        "array": np.arange(1, groups.size + 1, dtype=float),
        "mapping": {k: float(i % 3) + 0.5 for i, k in enumerate(groups.tolist())},
    }
    out = []
    for name, weights in weight_options.items():
        out.append(
            (
                name,
                lambda v=weights: sk.gauc(y, s, g, weights=v, sample_weight=w),
                lambda a, v=weights: a.gauc(weights=v),
            )
        )
    out.append(
        (
            "table",
            lambda: tuple(
                sk.gauc(y, s, g, sample_weight=w, return_groups=True)[1].to_dict().values()
            ),
            lambda a: tuple(a.group_table().to_dict().values()),
        )
    )
    return out


@given(seed=SEEDS, kind=st.sampled_from(["int", "str", "wide", "bool_y"]))
def test_chunked_equals_one_shot_exactly(seed, kind):
    rng = np.random.default_rng(seed)
    y, s, g = _data(rng, int(rng.integers(1, 300)), kind)
    acc = feed(GroupedCurve, (y, s, g), rng)
    for name, one_shot, method in _cases(y, s, g, None):
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        if name == "table":
            assert all(
                same(np.asarray(a), np.asarray(b)) for a, b in zip(got, expected, strict=True)
            )
        else:
            assert same(got, expected), name
        assert got_warned == warned, name
    assert acc.n_groups == np.unique(g).size


@given(seed=SEEDS)
def test_chunked_equals_one_shot_float_weights(seed):
    rng = np.random.default_rng(seed)
    y, s, g = _data(rng, int(rng.integers(1, 300)), "int")
    w = rng.random(y.size) * 2
    acc = feed(GroupedCurve, (y, s, g), rng, sample_weight=w)
    for name, one_shot, method in _cases(y, s, g, w):
        if name == "table":
            continue
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        assert close(got, expected), name
        assert got_warned == warned, name


@given(seed=SEEDS)
def test_round_trips_change_nothing(seed):
    rng = np.random.default_rng(seed)
    y, s, g = _data(rng, 120, str(rng.choice(["int", "str"])))
    acc = feed(GroupedCurve, (y, s, g), rng)
    for back in (json_roundtrip(acc), pickle_roundtrip(acc)):
        for name, _, method in _cases(y, s, g, None):
            assert same(outcome(lambda m=method, b=back: m(b)), outcome(lambda m=method: m(acc))), (
                name
            )


def test_worked_example():
    # The example of scorekit.gauc, each group cut across chunks: a has AUC 1 over 2 rows,
    # b has 2 of 4 (pos, neg) pairs in order, AUC 0.5 over 4 rows, c has no negative and is
    # skipped: (2·1 + 4·0.5) / 6 = 2/3; unweighted (1 + 0.5) / 2 = 0.75.
    y = [0, 1, 1, 0, 0, 1, 1, 1]
    s = [0.2, 0.6, 0.2, 0.3, 0.3, 0.9, 0.5, 0.7]
    g = ["a", "a", "b", "b", "b", "b", "c", "c"]
    acc = GroupedCurve()
    for idx in ([0, 2, 6], [1, 3], [4, 5, 7]):
        acc.update([y[i] for i in idx], [s[i] for i in idx], [g[i] for i in idx])
    assert acc.gauc() == pytest.approx(2 / 3, abs=1e-15)
    assert acc.gauc(weights=None) == 0.75


def test_empty_raises():
    with pytest.raises(EmptyInputError, match="no rows"):
        GroupedCurve().gauc()


def test_length_mismatch_raises():
    with pytest.raises(LengthMismatchError, match="groups"):
        GroupedCurve().update([0, 1], [0.1, 0.2], [1])


def test_nan_raises():
    with pytest.raises(NonFiniteError, match="y_score"):
        GroupedCurve().update([0, 1], [0.1, np.nan], [1, 1])


def test_labels_mixing_conventions_raise():
    acc = GroupedCurve().update([0, 1], [0.1, 0.2], [1, 1])
    with pytest.raises(LabelError, match="y_true"):
        acc.update([-1, 1], [0.1, 0.2], [1, 1])


def test_groups_mixing_strings_and_numbers_raise():
    acc = GroupedCurve().update([0, 1], [0.1, 0.2], ["a", "a"])
    with pytest.raises(LabelError, match="groups"):
        acc.update([0, 1], [0.1, 0.2], [1, 1])
