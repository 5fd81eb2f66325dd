"""Diversity measures: a worked example, SubtopicQrels, options, bad input.

The differential test against pyndeval is in test_diversity_pyndeval.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import scorekit
from scorekit import DuplicateDocumentError, ParameterError, ParseError
from scorekit.ranking import Qrels, Run, SubtopicQrels, evaluate

# Clarke et al. (SIGIR 2008), alpha = 0.5: three subtopics (their "nuggets"),
# a covers 1 and 2, b covers 1, c covers 3, d covers 2 and 3.
EXAMPLE = {"q": {"1": {"a": 1, "b": 1}, "2": {"a": 1, "d": 1}, "3": {"c": 1, "d": 1}}}
EXAMPLE_RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def example(measures, **kw):
    sq = SubtopicQrels.from_dict(EXAMPLE)
    return evaluate(sq, Run.from_dict(EXAMPLE_RUN), measures, **kw).mean()


def test_worked_example_alpha_ndcg():
    # gains of the run a, b, c: a = 1 + 1 (two new subtopics); b = 0.5 (subtopic 1
    # seen once); c = 1 (subtopic 3 new). Discount 1/log2(1 + rank).
    r3 = math.log2(3)
    dcg = [2, 2 + 0.5 / r3, 2 + 0.5 / r3 + 1 / 2]
    # greedy ideal: d (2, ties with a: the larger id wins), then a (1 + 0.5 = 1.5),
    # then c (0.5; ties with b): gains 2, 1.5, 0.5
    ideal = [2, 2 + 1.5 / r3, 2 + 1.5 / r3 + 0.5 / 2]
    got = example(["alpha_nDCG@1", "alpha_nDCG@2", "alpha_nDCG@3"])
    assert list(got.values()) == pytest.approx([d / i for d, i in zip(dcg, ideal, strict=True)])
    assert got["alpha_nDCG@3"] == pytest.approx(0.8808251803598827, abs=1e-15)


def test_worked_example_other_measures():
    got = example(["alpha_DCG@3", "ERR_IA@3", "NRBP", "P_IA@3", "StRecall@2", "AP_IA"])
    r3 = math.log2(3)
    # "ideal ideal" list: 3 subtopics at rank 1, 3 x 0.5 at rank 2, 3 x 0.25 at rank 3
    assert got["alpha_DCG@3"] == pytest.approx((2 + 0.5 / r3 + 0.5) / (3 + 1.5 / r3 + 0.75 / 2))
    assert got["ERR_IA@3"] == pytest.approx((2 + 0.5 / 2 + 1 / 3) / (3 + 1.5 / 2 + 0.75 / 3))
    # NRBP: (1 - (1 - alpha) beta) / S * sum beta^(i-1) g_i = 0.75 / 3 * (2 + 0.25 + 0.25)
    assert got["NRBP"] == pytest.approx(0.625)
    assert got["P_IA@3"] == pytest.approx(4 / 9)  # 4 (document, subtopic) pairs / (3 x 3)
    assert got["StRecall@2"] == pytest.approx(1 / 3 * 1 + 1 / 3)  # subtopics 1 and 2
    # subtopic APs: 1 (a, b at 1, 2 of 2), 1/2 (a at 1 of 2), (1/3)/2 (c at 3 of 2)
    assert got["AP_IA"] == pytest.approx((1 + 0.5 + 1 / 6) / 3)


def test_rank_one_is_left_unnormalised_as_ndeval_does():
    got = example(["alpha_DCG@1", "ERR_IA@1", "alpha_DCG@2"])
    assert got["alpha_DCG@1"] == got["ERR_IA@1"] == 2.0  # ndeval's loop normalises from rank 2
    assert got["alpha_DCG@2"] < 1


def test_names_spellings_and_parameters():
    names = ["alpha-nDCG@3", "α_nDCG@3", "ALPHA_NDCG(alpha=0.5)@3", "alpha_nDCG(cutoff=3)"]
    got = example(names)
    assert len(set(got.values())) == 1
    assert example("MAP-IA")["MAP-IA"] == example("MAP_IA")["MAP_IA"] == example("AP_IA")["AP_IA"]
    assert example("strec@2")["strec@2"] == example("StRecall@2")["StRecall@2"]
    assert example("alpha_nDCG(alpha=0.9)@3")["alpha_nDCG(alpha=0.9)@3"] != got[names[0]]


def test_cutoffs_beyond_ndeval_depth_match_a_direct_computation():
    rng = np.random.default_rng(5)
    docs = [f"d{i:02d}" for i in range(40)]
    judged = [(str(s), d) for s in range(4) for d in rng.choice(docs, 12, replace=False)]
    sq = SubtopicQrels.from_arrays(["q"] * len(judged), *zip(*judged, strict=True), None)
    order = list(rng.permutation(docs))
    run = Run.from_arrays(["q"] * 40, order, np.arange(40, 0, -1.0))
    seen: dict[str, int] = {}
    dcg = 0.0
    for i, d in enumerate(order[:30]):
        subs = [s for s, dd in judged if dd == d]
        dcg += sum(0.5 ** seen.get(s, 0) for s in subs) / math.log2(i + 2)
        for s in subs:
            seen[s] = seen.get(s, 0) + 1
    ideal_ideal = sum(4 * 0.5**i / math.log2(i + 2) for i in range(30))
    assert example_free(sq, run, "alpha_DCG@30") == pytest.approx(dcg / ideal_ideal, rel=1e-12)
    assert 0 < example_free(sq, run, "alpha_nDCG@30") <= 1


def example_free(sq, run, name, **kw):
    return evaluate(sq, run, name, **kw).mean()[name]


def test_mixed_requests_use_the_document_level_qrels():
    sq = SubtopicQrels.from_dict(EXAMPLE)
    run = Run.from_dict(EXAMPLE_RUN)
    res = evaluate(sq, run, ["P@2", "alpha_nDCG@2", "map"])
    plain = evaluate(sq.to_qrels(), run, ["P@2", "map"]).mean()
    assert res.mean()["P@2"] == plain["P@2"]
    assert res.mean()["map"] == plain["map"]
    assert set(res.mean()) == {"P@2", "alpha_nDCG@2", "map"}
    assert "alpha_nDCG@2" in res.to_trec_eval()


def test_missing_queries_max_docs_and_judged_only():
    sq = SubtopicQrels.from_dict({**EXAMPLE, "q2": {"1": {"z": 1}}})
    run = Run.from_dict({"q": {"a": 3.0, "x": 2.5, "b": 2.0, "c": 1.0}})
    assert evaluate(sq, run, "alpha_nDCG@3").query_ids == ("q",)
    full = evaluate(sq, run, "alpha_nDCG@3", all_queries=True).per_query["alpha_nDCG@3"]
    assert full["q2"] == 0.0
    cut = evaluate(sq, run, "P_IA@3", max_docs=1).mean()["P_IA@3"]
    assert cut == pytest.approx(2 / 9)  # only a is kept
    judged = evaluate(sq, run, "alpha_nDCG@3", judged_only=True).mean()["alpha_nDCG@3"]
    assert judged == pytest.approx(example("alpha_nDCG@3")["alpha_nDCG@3"])


def test_no_relevant_document_scores_zero_everywhere():
    sq = SubtopicQrels.from_dict({"q": {"1": {"a": 0}, "2": {"b": 0}}})
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    names = ["alpha_nDCG@5", "nERR_IA@5", "NRBP", "nNRBP", "AP_IA", "P_IA@5", "StRecall@5"]
    assert set(evaluate(sq, run, names).mean().values()) == {0.0}


def test_subtopic_qrels_forms_agree(tmp_path):
    pd = pytest.importorskip("pandas")
    sq = SubtopicQrels.from_dict(EXAMPLE)
    path = tmp_path / "qrels.txt"
    sq.to_trec(path)
    assert SubtopicQrels.from_trec(path).to_dict() == sq.to_dict() == EXAMPLE
    frame = sq.to_pandas()
    assert SubtopicQrels.from_frame(frame).to_dict() == EXAMPLE
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == [
        "query",
        "subtopic",
        "doc",
        "relevance",
    ]
    assert scorekit.SubtopicQrels is SubtopicQrels
    assert repr(sq) == "SubtopicQrels(queries=1, subtopics=3, rows=6)"


def test_subtopic_ids_in_numeric_order():
    sq = SubtopicQrels.from_arrays(["q"] * 3, ["10", "9", "2"], ["a", "a", "a"], [1, 1, 1])
    assert list(sq.to_dict()["q"]) == ["2", "9", "10"]


def test_input_is_not_modified():
    q = np.array(["q", "q"])
    s = np.array([2, 1])
    d = np.array(["b", "a"])
    r = np.array([1, 1])
    SubtopicQrels.from_arrays(q, s, d, r)
    assert q.tolist() == ["q", "q"]
    assert s.tolist() == [2, 1]
    assert d.tolist() == ["b", "a"]


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("q 1 a 1\nq 2 b\n", 2, "exactly 4"),
        ("q 1 a 1\nq 2 b 1 extra\n", 2, "exactly 4"),
        ("q 1 a 1\nq 1 b x\n", 2, "integer"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, text, line, what):
    path = tmp_path / "sub.qrels"
    path.write_text(text)
    with pytest.raises(ParseError, match=rf"sub\.qrels: line {line}: .*{what}"):
        SubtopicQrels.from_trec(path)


def test_duplicate_judgment_names_the_file(tmp_path):
    path = tmp_path / "dup.qrels"
    path.write_text("q 1 a 1\nq 2 a 1\nq 1 a 0\n")
    with pytest.raises(DuplicateDocumentError, match=r"dup\.qrels: .*'a'.*'q'.*subtopic '1'"):
        SubtopicQrels.from_trec(path)


@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("alpha_nDCG(alpha=-0.1)@5", r"alpha must lie in \[0, 1\]"),
        ("NRBP(beta=1.5)", r"beta must lie in \[0, 1\]"),
        ("alpha_nDCG", "needs a cutoff"),
        ("NRBP@10", "takes no '@' cutoff"),
        ("alpha_nDCG@0", "whole number >= 1"),
        ("alpha_nDCG@2.5", "whole number >= 1"),
        ("P_IA(alpha=0.3)@5", "unknown parameter 'alpha'"),
        ("alpha_nDCG(cutoff=5)@5", "cutoff twice"),
        ("alpha_nDCG(alpha=x)@5", "must be a number"),
        ("P_IA(rel=-1)@5", "rel must be an integer >= 0"),
        ("P_IA(rel=1.5)@5", "must be a number"),
    ],
)
def test_bad_measure_parameters(name, match):
    with pytest.raises(ParameterError, match=match):
        example(name)


def test_diversity_measure_with_ordinary_qrels_raises():
    qrels = Qrels.from_dict({"q": {"a": 1}})
    with pytest.raises(ParameterError, match="need subtopic qrels"):
        evaluate(qrels, Run.from_dict({"q": {"a": 1.0}}), "alpha_nDCG@20")


@pytest.mark.parametrize("ties", ["average", "optimistic"])
def test_tie_policies_without_a_diversity_meaning_raise(ties):
    with pytest.raises(ParameterError, match="not defined for the diversity measures"):
        example("alpha_nDCG@3", ties=ties)


def test_bad_run_and_options():
    sq = SubtopicQrels.from_dict(EXAMPLE)
    with pytest.raises(ParameterError, match="run must be a scorekit Run"):
        evaluate(sq, {"q": {"a": 1.0}}, "alpha_nDCG@3")
    with pytest.raises(ParameterError, match="rel_level"):
        example("alpha_nDCG@3", rel_level=1.5)
    with pytest.raises(scorekit.LabelError, match="mapping"):
        SubtopicQrels.from_dict({"q": {"1": [("a", 1)]}})
    with pytest.raises(scorekit.LengthMismatchError):
        SubtopicQrels.from_arrays(["q"], ["1", "2"], ["a"], [1])


def test_docs_page_runs():
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "diversity.md"
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted >= 4
    assert result.failed == 0


def test_compare_runs_with_subtopic_qrels():
    sq = SubtopicQrels.from_dict({**EXAMPLE, "q2": {"1": {"a": 1}, "2": {"b": 1}}})
    r1 = Run.from_dict({**EXAMPLE_RUN, "q2": {"a": 1.0, "b": 0.5}})
    r2 = Run.from_dict({"q": {"d": 3.0, "a": 2.0, "c": 1.0}, "q2": {"x": 1.0, "b": 0.5}})
    res = scorekit.compare(sq, {"r1": r1, "r2": r2}, ["alpha_nDCG@3", "P@2"])
    means = res.to_dict()
    assert means  # both systems and both measures are there
    one = evaluate(sq, r2, ["alpha_nDCG@3"]).mean()["alpha_nDCG@3"]
    assert str(round(one, 4)) in res.to_markdown()


def test_stream_accumulator_needs_subtopic_qrels_for_diversity_measures():
    from scorekit.stream import RankingAccumulator

    with pytest.raises(ParameterError, match="'alpha_nDCG@3' is a diversity measure"):
        RankingAccumulator({"q": {"a": 1}}, ["alpha_nDCG@3"])
    with pytest.raises(ParameterError, match="SubtopicQrels or a mapping"):
        RankingAccumulator([("q", "1", "a", 1)], ["alpha_nDCG@3"])


def test_per_measure_rel_equals_rel_level():
    sq = SubtopicQrels.from_dict({"q": {"1": {"a": 2, "b": 1}, "2": {"b": 2, "c": 1}}})
    run = Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}})
    both = evaluate(sq, run, ["P_IA(rel=2)@2", "alpha_nDCG(rel=2)@3", "P_IA@2"]).mean()
    at2 = evaluate(sq, run, ["P_IA@2", "alpha_nDCG@3"], rel_level=2).mean()
    assert both["P_IA(rel=2)@2"] == at2["P_IA@2"] == 0.5  # a (s1), b (s2) over 2 x 2
    assert both["alpha_nDCG(rel=2)@3"] == at2["alpha_nDCG@3"] == 1.0
    assert both["P_IA@2"] == 0.75  # a (s1), b (s1, s2)


def test_empty_and_fractional_input_raise():
    with pytest.raises(scorekit.EmptyInputError):
        SubtopicQrels.from_dict({})
    with pytest.raises(scorekit.LabelError, match="integer grades"):
        SubtopicQrels.from_arrays(["q"], ["1"], ["a"], [0.5])
