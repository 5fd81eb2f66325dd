"""ir_measures' ``Name(key=value)@at`` syntax and ranx's names, parsed into the same measures."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekit import ParameterError, ScorekitError, UnknownMeasureError
from scorekit.ranking import Qrels, Run, evaluate, parse_measure
from scorekit.ranking._measures import MEASURES, Measure
from scorekit.ranking._parse import parse_requests


@pytest.mark.parametrize(
    ("name", "same_as"),
    [
        ("mrr", "recip_rank"),
        ("MRR@10", "RR@10"),
        ("precision@10", "P_10"),
        ("recall@10", "recall_10"),
        ("r-precision", "Rprec"),
        ("map@100", "map_cut_100"),
        ("MAP", "map"),
        ("ndcg@10", "ndcg_cut_10"),
        ("ndcg_burges@10", "nDCG(dcg=exp-log2)@10"),
        ("dcg_burges@5", "DCG(dcg=exp-log2)@5"),
        ("dcg@5", "DCG@5"),
        ("cg@5", "CG@5"),
        ("P(cutoff=10)", "P_10"),
        ("P(rel=1,judged_only=False)@10", "P(rel=1)@10"),
        ("nDCG(dcg=log2)@10", "ndcg_cut_10"),
        ("SetF(beta=0.5)", "set_F.0.5"),
        ("RBP(p=0.8)", "RBP"),
        ("ERR(cutoff=20)", "ERR@20"),
        ("Judged(cutoff=5)", "Judged@5"),
        ("rbp(p=0.8)", "rbp.p=0.8"),
    ],
)
def test_names_of_other_tools(name, same_as):
    assert parse_measure(name) == parse_measure(same_as)


def test_options_are_carried_by_the_measure():
    (m,) = parse_measure("nDCG(judged_only=True,gains={0:0,1:1,2:3})@10")
    assert m.family == "ndcg_cut"
    assert m.params == (10,)
    assert m.options == (("gains", ((0, 0.0), (1, 1.0), (2, 3.0))), ("judged_only", True))
    (p,) = parse_measure("P(rel=2)@10")
    assert p.options == (("rel", 2),)
    assert p.params == (10,)
    assert parse_measure("RBP(p=0.5,rel=2)@20")[0] == Measure("RBP", (20, 0.5), "", (("rel", 2),))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nDCG(cutoff=20)@10", "cutoff twice"),
        ("nDCG(foo=1)@10", "unknown parameter 'foo'; known: cutoff, judged_only, dcg, gains"),
        ("P(rel=x)@10", "whole number"),
        ("P(judged_only=maybe)@10", "True or False"),
        ("nDCG(dcg=exp)@10", "one of log2, exp-log2"),
        ("nDCG(gains={0:0,1})@10", "grade:gain"),
        ("nDCG(gains={0:0,1)@10", "unbalanced"),
        ("nDCG(gains={0:0@10", "missing"),
        ("ERR(max_grade=1.5)@10", "whole number"),
        ("Judged@0", "cutoff must lie in"),
        ("P(rel)@10", "key=value"),
        ("P@1000000000000000000000", "at most 2\\*\\*53"),
        ("P.1000000000000000000000", "at most 2\\*\\*53"),
        ("ERR@1000000000000000000000", "cutoff must lie in"),
    ],
)
def test_bad_call_syntax(text, message):
    with pytest.raises(ParameterError, match=message):
        parse_measure(text)


def test_huge_cutoff_is_a_scorekit_error_through_evaluate():
    q, r = Qrels.from_dict({"q": {"a": 1}}), Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(ScorekitError):
        evaluate(q, r, "P@1000000000000000000000")


def test_unknown_name_suggests():
    with pytest.raises(UnknownMeasureError, match=r"did you mean.*ERR"):
        parse_measure("ERRR@10")
    with pytest.raises(UnknownMeasureError, match=r"did you mean.*Judged"):
        parse_measure("Jugded@10")


def test_set_F_takes_several_values_and_reads_the_first():
    # trec_eval 10: -m set_F.1,2 prints set_F_1,2 with beta = 1 (the first value)
    (m,) = parse_measure("set_F.1,2")
    assert m.name == "set_F_1,2"
    q, r = Qrels.from_dict({"q": {"a": 1, "b": 1}}), Run.from_dict({"q": {"a": 2.0, "c": 1.0}})
    res = evaluate(q, r, ["set_F.1,2", "set_F.1", "set_F.2,1", "set_F.2"])
    assert res.mean()["set_F_1,2"] == res.mean()["set_F_1"] == 0.5
    assert res.mean()["set_F_2,1"] == res.mean()["set_F_2"]


def test_two_parameters_printing_one_name_print_both_lines():
    keys = [k for k, _ in parse_requests(["iprec_at_recall.0.333,0.334"])]
    assert len(keys) == 2
    q = Qrels.from_dict({"q": {"a": 1, "b": 1, "c": 1}})
    r = Run.from_dict({"q": {"a": 3.0, "x": 2.0, "b": 1.0}})
    text = evaluate(q, r, "iprec_at_recall.0.333,0.334").to_trec_eval()
    assert [line.split("\t")[0].strip() for line in text.splitlines()] == [
        "iprec_at_recall_0.33",
        "iprec_at_recall_0.33",
    ]


_NAMED = [d for d in MEASURES if d.syntax == "named"]
_CUT = [d for d in MEASURES if d.syntax == "cut_int"]


@st.composite
def measures_with_options(draw):
    d = draw(st.sampled_from(_CUT + _NAMED))
    options = {}
    names = {p.name for p in d.params}
    if "rel" in names and draw(st.booleans()):
        options["rel"] = draw(st.integers(0, 3))
    if "judged_only" in names and draw(st.booleans()):
        options["judged_only"] = True
    if "dcg" in names and draw(st.booleans()):
        options["dcg"] = "exp-log2"
    if "gains" in names and draw(st.booleans()):
        grades = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3, unique=True))
        options["gains"] = tuple(sorted((g, float(draw(st.integers(0, 9)))) for g in grades))
    if d.syntax == "cut_int":
        params: tuple = (draw(st.integers(1, 10**6)),)
    else:
        values = []
        for p in d.kernel_params:
            if p.type is bool:
                values.append(draw(st.booleans()))
            elif p.type is int and p.required:
                values.append(draw(st.integers(1, 10**6)))
            elif p.type is int:
                values.append(draw(st.one_of(st.none(), st.integers(1, 10**6))))
            else:
                values.append(draw(st.integers(1, 99)) / 100)
            if values[-1] is None and p.name != "cutoff":
                values[-1] = p.default
        params = tuple(values)
    return Measure(d.name, params, "", tuple(sorted(options.items())))


@given(measures_with_options())
def test_parse_of_str_roundtrips_with_options(m):
    assert parse_measure(str(m)) == (m,)
