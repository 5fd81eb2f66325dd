"""Top-k metrics of recommendation lists through the ranking engine (docs/recsys.md).

A user is a query, a recommended item a document, an interacted item a relevant
document. Skipped until ``scorekit.evaluate`` exists.
"""

from __future__ import annotations

import math

import pytest

import scorekit

if not hasattr(scorekit, "evaluate"):
    pytest.skip("the ranking engine (scorekit.evaluate) is not available", allow_module_level=True)

pd = pytest.importorskip("pandas")

ALIASES = {
    "nDCG@10": ("nDCG@10", "ndcg_cut_10"),
    "hit_rate@10": ("hit_rate@10",),
    "P@10": ("P@10", "P_10"),
    "R@100": ("R@100", "recall_100"),
}


def value(means, name):
    for key in ALIASES[name]:
        for k, v in means.items():
            if str(k).lower() == key.lower():
                return v
    raise KeyError(f"{name} not in {sorted(map(str, means))}")


def test_user_item_frames_through_evaluate():
    recs = pd.DataFrame(
        {
            "user": ["u1", "u1", "u1", "u2", "u2"],
            "item": ["i1", "i2", "i3", "i1", "i4"],
            "score": [0.9, 0.7, 0.1, 0.8, 0.3],
        }
    )
    held_out = pd.DataFrame(
        {"user": ["u1", "u2", "u2"], "item": ["i2", "i4", "i9"], "interaction": [1, 1, 1]}
    )
    run = scorekit.Run.from_frame(recs, query="user", doc="item", score="score")
    qrels = scorekit.Qrels.from_frame(held_out, query="user", doc="item", relevance="interaction")
    means = scorekit.evaluate(qrels, run, ["nDCG@10", "hit_rate@10", "P@10", "R@100"]).mean()
    # u1 ranks i1, i2, i3 and only i2 (rank 2) is relevant; u2 ranks i1, i4 and i4 (rank 2)
    # is relevant, i9 is relevant but not recommended.
    # nDCG@10: u1 (1/log2 3) / 1 = 0.63093; u2 (1/log2 3) / (1 + 1/log2 3) = 0.38685
    ndcg_u1 = 1 / math.log2(3)
    ndcg_u2 = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert value(means, "nDCG@10") == pytest.approx((ndcg_u1 + ndcg_u2) / 2, abs=1e-12)
    # hit rate: relevant items found in the top 10 over all relevant items: (1 + 1) / (1 + 2)
    assert value(means, "hit_rate@10") == pytest.approx(2 / 3, abs=1e-12)
    # P@10 (trec_eval: relevant in the top 10 over 10): 1/10 for each user
    assert value(means, "P@10") == pytest.approx(0.1, abs=1e-12)
    # R@100: u1 1/1, u2 1/2 -> 0.75
    assert value(means, "R@100") == pytest.approx(0.75, abs=1e-12)
