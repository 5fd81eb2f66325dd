"""serendipity against Microsoft recommenders' definition, re-derived in pandas.

Microsoft recommenders (``recommenders.evaluation.python_evaluation``) is not
installed here (its dependencies do not install cleanly), so ``ms_serendipity``
below follows its code step by step with pandas merges: the co-occurrence
cosine of training items over item pairs ``i1 <= i2`` (``count / (sqrt(n_i1) *
sqrt(n_i2))``), each recommended item joined to the user's training items on
the user (users without history drop out), missing similarities 0, the mean
similarity per (user, item), ``(1 - mean) * relevance``, the mean per user,
the mean over users. Random cases have users without history, items nobody
trained on, users without recommendations, string and integer ids, and
relevance values float16 holds exactly (Microsoft recommenders casts relevance
to float16).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import scorekit as sk

pd = pytest.importorskip("pandas")


def ms_serendipity(train, reco, features=None):
    """Microsoft recommenders' serendipity on (user, item[, relevance]) frames."""
    if features is None:
        pairs = train.merge(train, on="user", suffixes=("1", "2"))
        pairs = pairs[pairs.item1 <= pairs.item2]
        count = pairs.groupby(["item1", "item2"]).size().rename("count").reset_index()
        n = train.groupby("item").size() ** 0.5
        count["sim"] = count["count"] / (
            n.loc[count.item1].to_numpy() * n.loc[count.item2].to_numpy()
        )
        sim = count.rename(columns={"item1": "i1", "item2": "i2"})[["i1", "i2", "sim"]]
    else:
        rows = []
        for a, fa in features.items():
            for b, fb in features.items():
                if a <= b:
                    v = float(np.dot(fa, fb)) / float(np.linalg.norm(fa) * np.linalg.norm(fb))
                    rows.append((a, b, v))
        sim = pd.DataFrame(rows, columns=["i1", "i2", "sim"])
    joined = reco[["user", "item"]].merge(train.rename(columns={"item": "hist"}), on="user")
    joined["i1"] = joined[["item", "hist"]].min(axis=1)
    joined["i2"] = joined[["item", "hist"]].max(axis=1)
    joined = joined.merge(sim, on=["i1", "i2"], how="left")
    joined["sim"] = joined["sim"].fillna(0.0)
    avg = joined.groupby(["user", "item"])["sim"].mean().rename("avg").reset_index()
    avg = avg.merge(reco, on=["user", "item"])
    avg["ser"] = (1 - avg["avg"]) * avg["relevance"]
    return float(avg.groupby("user")["ser"].mean().mean())


def case(seed, str_ids=True):
    rng = np.random.default_rng(seed)
    n_users, n_items = 14, 25
    name = (lambda p, i: f"{p}{i}") if str_ids else (lambda p, i: i)
    train, reco = [], []
    for u in range(n_users):
        items = rng.permutation(n_items)
        h = 0 if u % 5 == 3 else int(rng.integers(1, 9))  # u3, u8, u13: no history
        r = 0 if u % 7 == 6 else int(rng.integers(1, 6))  # u6, u13: no recommendations
        train += [(name("u", u), name("i", int(i))) for i in items[:h]]
        reco += [
            (name("u", u), name("i", int(i)), float(rng.choice([1.0, 0.5, 0.25, 0.0])))
            for i in items[h : h + r]
        ]
    return (
        pd.DataFrame(train, columns=["user", "item"]),
        pd.DataFrame(reco, columns=["user", "item", "relevance"]),
    )


def as_lists(train, reco):
    users = sorted(set(train.user) | set(reco.user))
    lists = [reco.item[reco.user == u].tolist() for u in users]
    rel = [reco.relevance[reco.user == u].tolist() for u in users]
    hist = [train.item[train.user == u].tolist() for u in users]
    return lists, hist, rel


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("str_ids", [True, False])
def test_equals_microsoft_recommenders(seed, str_ids):
    train, reco = case(seed, str_ids)
    lists, hist, rel = as_lists(train, reco)
    got = sk.serendipity(lists, hist, relevance=rel)
    assert got == pytest.approx(ms_serendipity(train, reco), rel=1e-12, abs=1e-15)
    ones = reco.assign(relevance=1.0)
    assert sk.serendipity(lists, hist) == pytest.approx(
        ms_serendipity(train, ones), rel=1e-12, abs=1e-15
    )


@pytest.mark.parametrize("seed", range(4))
def test_feature_similarity_equals_microsoft_recommenders(seed):
    train, reco = case(seed)
    rng = np.random.default_rng(100 + seed)
    items = sorted(set(train.item) | set(reco.item))
    features = {
        i: rng.integers(0, 3, 4).astype(float) + np.eye(4)[k % 4] for k, i in enumerate(items)
    }
    lists, hist, rel = as_lists(train, reco)
    got = sk.serendipity(lists, hist, relevance=rel, item_features=features)
    assert got == pytest.approx(ms_serendipity(train, reco, features), rel=1e-12)


def test_worked_example():
    # u0 had a, b; u1 had b, c: sim(a, b) = sim(b, c) = 1 / sqrt(2), sim(a, c) = 0.
    # u0 gets c: 1 - (0 + 1/sqrt(2)) / 2; u1 gets a with relevance 0.5 and d (no one
    # had d: similarity 0, serendipity 1): ((1 - 1/(2 sqrt(2))) * 0.5 + 1) / 2
    u0 = 1 - 1 / (2 * math.sqrt(2))
    u1 = (u0 * 0.5 + 1) / 2
    got = sk.serendipity([["c"], ["a", "d"]], [["a", "b"], ["b", "c"]], relevance=[[1], [0.5, 1]])
    assert got == pytest.approx((u0 + u1) / 2, abs=1e-15)


def test_bad_input_raises():
    with pytest.raises(sk.ShapeError, match="history has 1 lists"):
        sk.serendipity([["a"], ["b"]], [["c"]])
    with pytest.raises(sk.ParameterError, match="in the user's own history"):
        sk.serendipity([["a"]], [["a", "b"]])
    with pytest.raises(sk.ParameterError, match="twice in one user's history"):
        sk.serendipity([["a"]], [["b", "b"]])
    with pytest.raises(sk.ParameterError, match="twice in one list"):
        sk.serendipity([["a", "a"]], [["b"]])
    with pytest.raises(sk.EmptyInputError, match="no user with a recommendation"):
        sk.serendipity([["a"], []], [[], ["b"]])
    with pytest.raises(sk.ShapeError, match="relevance has 1 values"):
        sk.serendipity([["a", "c"]], [["b"]], relevance=[[1.0]])
    with pytest.raises(sk.ParameterError, match="NaN"):
        sk.serendipity([["a"]], [["b"]], relevance=[[float("nan")]])
    with pytest.raises(sk.LabelError, match="same kind"):
        sk.serendipity([[1]], [["b"]])
    with pytest.raises(sk.ParameterError, match="all-zero"):
        sk.serendipity([["a"]], [["b"]], item_features={"a": [0, 0], "b": [1, 0]})
    with pytest.raises(sk.LabelError, match="no entry"):
        sk.serendipity([["a"]], [["b"]], item_features={"a": [1, 0]})


def test_inputs_are_not_modified():
    lists, hist, rel = [np.array(["c"]), np.array(["a"])], [["a", "b"], ["b", "c"]], [[1.0], [2.0]]
    before = [x.copy() for x in lists]
    sk.serendipity(lists, hist, relevance=rel)
    assert all((a == b).all() for a, b in zip(lists, before, strict=True))
    assert hist == [["a", "b"], ["b", "c"]]
    assert rel == [[1.0], [2.0]]
