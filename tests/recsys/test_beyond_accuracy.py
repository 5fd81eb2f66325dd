"""Beyond-accuracy measures against straightforward re-derivations of their references' formulas.

RecBole (GiniIndex, ShannonEntropy, AveragePopularity, TailPercentage, ItemCoverage) and
Microsoft recommenders (novelty, diversity with item features) are not installed in the
tests (heavy dependencies); each is re-derived here in plain Python, loop by loop, as
their documentation and source state it, and checked on random lists plus one worked
example with a hand-checkable number.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import scorekit as sk


def _random_lists(seed, n_users=30, k=5, n_items=40):
    rng = np.random.default_rng(seed)
    return [list(rng.choice(n_items, size=k, replace=False)) for _ in range(n_users)], n_items


@pytest.mark.parametrize("seed", range(5))
def test_gini_equals_recbole_formula(seed):
    lists, n_items = _random_lists(seed)
    counts = Counter(i for lst in lists for i in lst)
    c = sorted([counts.get(i, 0) for i in range(n_items)])
    n = len(c)
    expected = sum((2 * (j + 1) - n - 1) * c[j] for j in range(n)) / (n * sum(c))
    assert sk.exposure_gini(lists, catalog_size=n_items) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_entropy_equals_recbole_and_ms_formulas(seed):
    lists, _ = _random_lists(seed)
    counts = Counter(i for lst in lists for i in lst)
    total = sum(counts.values())
    h = -sum(v / total * math.log(v / total) for v in counts.values())
    assert sk.exposure_entropy(lists) == pytest.approx(h, rel=1e-12)
    assert sk.exposure_entropy(lists, base=2) == pytest.approx(h / math.log(2), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_popularity_measures_equal_their_formulas(seed):
    lists, n_items = _random_lists(seed)
    rng = np.random.default_rng(seed + 100)
    pop = {i: int(rng.integers(1, 50)) for i in range(n_items)}
    arp = np.mean([np.mean([pop[i] for i in lst]) for lst in lists])
    assert sk.average_popularity(lists, pop) == pytest.approx(arp, rel=1e-12)
    n_users = 60
    nov = np.mean([-math.log2(pop[i] / n_users) for lst in lists for i in lst])
    assert sk.novelty(lists, pop, n_users=n_users) == pytest.approx(nov, rel=1e-12)
    tail = {i for i, v in pop.items() if v < 10}
    share = np.mean([sum(i in tail for i in lst) / len(lst) for lst in lists])
    assert sk.tail_share(lists, tail) == pytest.approx(share, rel=1e-12)
    items, counts = zip(*pop.items(), strict=True)
    assert sk.average_popularity(np.array(lists), (np.array(items), np.array(counts))) == (
        pytest.approx(arp, rel=1e-12)
    )


@pytest.mark.parametrize("metric", ["cosine", "jaccard"])
@pytest.mark.parametrize("seed", range(4))
def test_intra_list_diversity_equals_pairwise_loop(seed, metric):
    rng = np.random.default_rng(seed)
    lists = [list(rng.choice(20, size=int(rng.integers(1, 6)), replace=False)) for _ in range(15)]
    feats = rng.random((20, 6)) + 0.05 if metric == "cosine" else (rng.random((20, 6)) < 0.5) * 1.0
    feats[:, 0] = 1.0  # no all-zero vector

    def sim(a, b):
        if metric == "cosine":
            return a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
        return np.sum(a * b) / np.sum(np.maximum(a, b))

    per_user = [
        np.mean([1 - sim(feats[i], feats[j]) for x, i in enumerate(lst) for j in lst[x + 1 :]])
        for lst in lists
        if len(lst) >= 2
    ]
    got = sk.intra_list_diversity(lists, (np.arange(20), feats), metric=metric)
    assert got == pytest.approx(np.mean(per_user), rel=1e-12)


def test_worked_examples():
    # 8 users; "a" seen by 4 (1 bit), "b" by 1 (3 bits): (1 + 3 + 1) / 3
    assert sk.novelty([["a", "b"], ["a"]], {"a": 4, "b": 1}, n_users=8) == 5 / 3
    assert sk.exposure_gini([[1, 2], [1], [1]], catalog_size=4) == 0.625
    assert sk.exposure_gini([[1, 2], [3, 4]], catalog_size=4) == 0.0
    assert sk.user_coverage([[1], [], [2], []]) == 0.5
    assert sk.metric_info("item_coverage").function is sk.catalog_coverage


def test_bad_input_raises():
    with pytest.raises(sk.LabelError, match="no entry for recommended item 9"):
        sk.average_popularity([[1, 9]], {1: 3})
    with pytest.raises(sk.ParameterError, match="n_users"):
        sk.novelty([[1]], {1: 3}, n_users=0)
    with pytest.raises(sk.ParameterError, match=r"in 1\.\.n_users"):
        sk.novelty([[1]], {1: 30}, n_users=10)
    with pytest.raises(sk.EmptyInputError, match="empty lists"):
        sk.tail_share([[1], []], {1})
    with pytest.raises(sk.ParameterError, match="smaller than"):
        sk.exposure_gini([[1, 2, 3]], catalog_size=2)
    with pytest.raises(sk.ParameterError, match="all-zero"):
        sk.intra_list_diversity([[1, 2]], {1: [0, 0], 2: [1, 0]})
    with pytest.raises(sk.ParameterError, match="jaccard"):
        sk.intra_list_diversity([[1, 2]], {1: [0.5, 0], 2: [1, 0]}, metric="jaccard")
