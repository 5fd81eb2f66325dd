"""iprec_rule=: how a recall level becomes a rank, as trec_eval 10, trec_eval 9 and the textbook."""

from __future__ import annotations

import numpy as np
import pytest

from scorekit import ParameterError
from scorekit.ranking import Qrels, Run, evaluate
from scorekit.stream import RankingAccumulator

# The textbook 11-point example: relevant {d3, d56, d129} retrieved at ranks 3, 8 and 15
# (precisions 1/3, 2/8, 3/15). Levels 0-0.3 / 0.4-0.6 / 0.7-1 reach 1, 2, 3 relevant
# documents: (4/3 + 3/4 + 4/5) / 11 = 0.2621. trec_eval 10 rounds x·3 (0.5 -> 2, 0.9 -> 3):
# (5/3 + 4/4 + 2/5) / 11 = 0.2788; trec_eval 9 truncates x·3 + 0.9 (0.7 -> 2, 0.8 -> 3):
# (4/3 + 4/4 + 3/5) / 11 = 0.2667.
RANKING = ["d123", "d84", "d3", "d6", "d8", "d9", "d511", "d56", "d129x", "d187",
           "d25", "d38", "d48", "d250", "d129"]  # fmt: skip
QRELS = Qrels.from_dict({"q": {"d3": 1, "d56": 1, "d129": 1}})
RUN = Run.from_dict({"q": {d: 100.0 - i for i, d in enumerate(RANKING)}})


@pytest.mark.parametrize(
    ("rule", "expected", "exact"),
    [
        ("trec_eval10", 0.2788, (5 / 3 + 4 / 4 + 2 / 5) / 11),
        ("trec_eval9", 0.2667, (4 / 3 + 4 / 4 + 3 / 5) / 11),
        ("textbook", 0.2621, (4 / 3 + 3 / 4 + 4 / 5) / 11),
    ],
)
def test_textbook_example(rule, expected, exact):
    res = evaluate(QRELS, RUN, "11pt_avg", iprec_rule=rule)
    assert round(res.mean()["11pt_avg"], 4) == expected
    assert res.mean()["11pt_avg"] == pytest.approx(exact, abs=1e-15)


def test_default_is_trec_eval10():
    assert (
        evaluate(QRELS, RUN, "11pt_avg").mean()
        == evaluate(QRELS, RUN, "11pt_avg", iprec_rule="trec_eval10").mean()
    )


def test_textbook_is_the_highest_precision_at_recall_at_least_x():
    rng = np.random.default_rng(3)
    for _ in range(30):
        n_rel = int(rng.integers(1, 12))
        rel = rng.permutation(np.r_[np.ones(n_rel), np.zeros(int(rng.integers(0, 20)))])
        docs = [f"d{i}" for i in range(rel.size)]
        qrels = Qrels.from_dict({"q": {d: 1 for d, r in zip(docs, rel, strict=True) if r}})
        run = Run.from_dict({"q": {d: float(rel.size - i) for i, d in enumerate(docs)}})
        hits = np.cumsum(rel)
        precision, recall = hits / np.arange(1, rel.size + 1), hits / n_rel
        res = evaluate(qrels, run, "iprec_at_recall", iprec_rule="textbook")
        for x in np.round(np.arange(11) / 10, 1):
            reached = recall >= x - 1e-12
            expected = precision[reached].max() if reached.any() else 0.0
            assert res.mean()[f"iprec_at_recall_{x:.2f}"] == pytest.approx(expected), x


def test_pytrec_eval_uses_the_trec_eval9_rule():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q": {"d3": 1, "d56": 1, "d129": 1}}
    run = {"q": {d: 100.0 - i for i, d in enumerate(RANKING)}}
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)["q"]
    res = evaluate(QRELS, RUN, "iprec_at_recall", iprec_rule="trec_eval9").mean()
    for key, value in ref.items():
        assert res[key] == pytest.approx(value, abs=1e-12)


def test_stream_takes_the_option_and_bad_rules_raise():
    acc = RankingAccumulator(QRELS, "11pt_avg", iprec_rule="textbook")
    acc.update(["q"] * len(RANKING), RANKING, [100.0 - i for i in range(len(RANKING))])
    assert round(acc.evaluate().mean()["11pt_avg"], 4) == 0.2621
    with pytest.raises(ParameterError, match="iprec_rule"):
        evaluate(QRELS, RUN, "11pt_avg", iprec_rule="trec_eval8")
