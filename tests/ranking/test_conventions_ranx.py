"""compat="ranx" reproduces ranx.evaluate (kept small: ranx compiles its numba code first).

ranx sorts each query's documents with numba's argsort, which for up to 15
documents is an insertion sort, so equal scores keep an order set by how the
run was given: a ``ranx.Run`` (argsort of the negated scores) keeps insertion
order, which is ``ties="input_order"``; plain dicts (argsort of the scores,
reversed) get the reverse of it. Its ``ndcg`` drops judgments below
``rel_lvl`` from DCG and ideal alike, and ``evaluate`` refuses qrels and runs
with different queries unless ``make_comparable=True`` (which scores the
missing ones 0).
"""

from __future__ import annotations

import pytest

from scorekit import EmptyInputError
from scorekit.ranking import Qrels, Run, evaluate

ranx = pytest.importorskip("ranx")

pytestmark = [
    pytest.mark.reference,
    pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

# ties, graded relevance (0-3), relevant documents never retrieved (u*)
QRELS = {
    "q1": {"a": 1, "b": 0, "c": 2, "d": 3, "u1": 1},
    "q2": {"x": 1, "y": 2, "u2": 3},
    "q3": {"m": 0, "n": 1},
}
RUN = {
    "q1": {"a": 0.5, "b": 0.5, "c": 0.5, "e": 0.9, "d": 0.2, "f": 0.2},
    "q2": {"z": 0.7, "x": 0.3, "y": 0.3},
    "q3": {"n": 0.1, "m": 0.1, "o": 0.1},
}
# ranx name -> scorekit name (ranx's hit_rate@k is success@k; its ndcg uses rel_lvl)
PAIRS = {
    "ndcg": "ndcg",
    "ndcg@3": "nDCG@3",
    "ndcg@4-l2": "nDCG@4",
    "map": "AP",
    "map@3": "AP@3",
    "precision@2": "P@2",
    "recall@3": "R@3",
    "mrr": "RR",
    "mrr@2": "RR@2",
    "hit_rate@2": "success@2",
    "r-precision": "Rprec",
}


def ours(run: dict, names: list[str], **options) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for level in (1, 2):
        chosen = [PAIRS[n] for n in names if n.endswith("-l2") == (level == 2)]
        res = evaluate(Qrels.from_dict(QRELS), Run.from_dict(run), chosen, compat="ranx",
                       rel_level=level, **options)  # fmt: skip
        out.update(res.per_query)
    return out


def theirs(qrels, run, **kwargs) -> dict[str, list[float]]:
    scores = ranx.evaluate(qrels, run, list(PAIRS), return_mean=False, **kwargs)
    return {m: list(v) for m, v in scores.items()}


def test_ranx_run_objects():
    got = ours(RUN, list(PAIRS))
    expected = theirs(ranx.Qrels(QRELS), ranx.Run(RUN))
    for name, values in expected.items():
        assert [got[PAIRS[name]][q] for q in sorted(QRELS)] == pytest.approx(values, abs=1e-12)


def test_ranx_plain_dicts_reverse_insertion_order():
    got = ours(RUN, list(PAIRS))
    reversed_run = {q: dict(reversed(list(docs.items()))) for q, docs in RUN.items()}
    expected = theirs(QRELS, reversed_run)  # plain dicts: ties in reverse of the given order
    for name, values in expected.items():
        assert [got[PAIRS[name]][q] for q in sorted(QRELS)] == pytest.approx(values, abs=1e-12)


def test_ranx_missing_queries():
    run = {q: docs for q, docs in RUN.items() if q != "q2"}
    with pytest.raises(AssertionError):
        ranx.evaluate(QRELS, run, "map")
    with pytest.raises(EmptyInputError, match="'q2'"):
        evaluate(Qrels.from_dict(QRELS), Run.from_dict(run), "map", compat="ranx")
    expected = ranx.evaluate(
        ranx.Qrels(QRELS), ranx.Run(run), ["map", "ndcg"], make_comparable=True
    )
    got = evaluate(
        Qrels.from_dict(QRELS), Run.from_dict(run), ["map", "ndcg"], compat="ranx",
        missing_queries="zero",
    ).mean()  # fmt: skip
    assert got == pytest.approx(expected, abs=1e-12)


def test_ranx_numbers_of_the_docs_page():
    # docs/why-tools-disagree.md, sections 1, 3, 4 and 5
    qrels = {"q": {"d1": 1, "d2": 0, "d3": 0}}
    run = {"q": {"d1": 0.5, "d2": 0.5, "d3": 0.5}}
    assert ranx.evaluate(qrels, run, "ndcg") == pytest.approx(0.5)  # plain dicts: d3, d2, d1
    assert ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg") == pytest.approx(1.0)
    mine = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), "ndcg", compat="ranx")
    assert mine.mean()["ndcg"] == 1.0
    qrels = {"q": {"a": 1, "b": 2, "c": 0}}
    run = {"q": {"a": 3.0, "x": 2.0, "b": 1.0}}
    expected = ranx.evaluate(qrels, run, ["ndcg-l2", "map-l2"])
    assert expected == pytest.approx({"ndcg-l2": 0.5, "map-l2": 1 / 3})
    mine = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), ["ndcg", "map"], compat="ranx",
                    rel_level=2)  # fmt: skip
    assert mine.mean() == pytest.approx({"ndcg": 0.5, "map": 1 / 3}, abs=1e-12)
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 2.0, "x": 1.0}}
    assert ranx.evaluate(qrels, run, "ndcg@2") == pytest.approx(0.38009376671593426)
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0, "x": 0.5}}
    comparable = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg", make_comparable=True)
    assert comparable == pytest.approx(0.5)
