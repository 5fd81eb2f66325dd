"""The measure-name grammar: trec_eval syntax, printed names, aliases, errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekit import ParameterError, UnknownMeasureError
from scorekit.ranking import known_measures, parse_measure
from scorekit.ranking._measures import MEASURES, Measure
from scorekit.ranking._parse import _parse, parse_requests


def names(text):
    return [m.name for m in parse_measure(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("P.5,7,3", ["P_3", "P_5", "P_7"]),
        ("ndcg_cut.10,20,23.4", ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]),
        ("iprec_at_recall..10,.20", ["iprec_at_recall_0.10", "iprec_at_recall_0.20"]),
        ("Rprec_mult.5.0,0.2", ["Rprec_mult_0.20", "Rprec_mult_5.00"]),
        ("utility.2,-1,0,0", ["utility_2,-1,0,0"]),
        ("11pt_avg..25,.5,.75", ["11pt_avg_.25,.5,.75"]),
        ("ndcg.1=3,2=9", ["ndcg_1=3,2=9"]),
        ("success.2,5,20", ["success_2", "success_5", "success_20"]),
        ("relstring.20", ["relstring_20"]),
        ("rbp.p=0.8", ["rbp_p=0.8"]),
        ("set_F.0.5", ["set_F_0.5"]),
        ("map", ["map"]),
        ("success", ["success_1", "success_5", "success_10"]),
        ("unj", ["unj_5", "unj_10", "unj_20"]),
    ],
)
def test_trec_eval_parameter_syntax(text, expected):
    assert names(text) == expected


@pytest.mark.parametrize(
    "printed",
    [
        "P_10",
        "ndcg_cut_10",
        "map_cut_100",
        "recall_1000",
        "relative_P_5",
        "iprec_at_recall_0.50",
        "Rprec_mult_0.20",
        "utility_2,-1,0,0",
        "ndcg_1=3,2=9,4=4.5",
        "rbp_p=0.8",
        "rbp_resid_p=0.5",
        "success_5",
        "num_rel_ret",
        "set_relative_P",
    ],
)
def test_printed_names_parse_back(printed):
    assert names(printed) == [printed]


@pytest.mark.parametrize(
    ("alias", "trec"),
    [
        ("nDCG@10", "ndcg_cut_10"),
        ("ndcg@10", "ndcg_cut_10"),
        ("nDCG(cutoff=10)", "ndcg_cut_10"),
        ("nDCG", "ndcg"),
        ("AP", "map"),
        ("ap@10", "map_cut_10"),
        ("P@10", "P_10"),
        ("R@100", "recall_100"),
        ("RR", "recip_rank"),
        ("Bpref", "bpref"),
        ("BPREF", "bpref"),
        ("iprec@0.5", "iprec_at_recall_0.50"),
        ("IPrec(recall=0.5)", "iprec_at_recall_0.50"),
        ("success@5", "success_5"),
        ("map_cut@10", "map_cut_10"),
        ("SetP", "set_P"),
        ("NumRelRet", "num_rel_ret"),
        ("rbp(p=0.8)", "rbp_p=0.8"),
    ],
)
def test_aliases(alias, trec):
    assert parse_measure(alias) == parse_measure(trec)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("RR@10", "RR@10"),
        ("hit_rate@10", "hit_rate@10"),
        ("HIT_RATE@5", "hit_rate@5"),
        ("micro_set_P", "micro_set_P"),
        ("micro_set_recall", "micro_set_recall"),
        ("micro_set_f", "micro_set_F"),
    ],
)
def test_scorekit_measures(alias, name):
    assert names(alias) == [name]
    assert names(name) == [name]


def test_nicknames():
    official = [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank",
    ]  # fmt: skip
    got = names("official")
    assert got[:10] == official
    assert got[10:21] == names("iprec_at_recall")
    assert got[21:] == names("P")
    assert names("set") == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_relative_P", "set_recall", "set_map", "set_F",
    ]  # fmt: skip


def test_family_with_parameters_replaces_its_nickname_default():
    keys = [k for k, _ in parse_requests(["all_trec", "relstring.20", "P.7"])]
    assert "relstring_20" in keys
    assert "relstring" not in keys
    assert [k for k in keys if k.startswith("P_")] == ["P_7"]


def test_result_keys():
    keys = [k for k, _ in parse_requests(["nDCG@10", "P.5,10", "map", "MAP", "ndcg_cut_10"])]
    assert keys == ["nDCG@10", "P_5", "P_10", "map", "MAP", "ndcg_cut_10"]


def test_parsed_once():
    assert _parse("nDCG@10") is _parse("nDCG@10")
    assert parse_measure("P.5") is parse_measure("P.5")


def test_measures_are_frozen():
    m = parse_measure("P_10")[0]
    with pytest.raises(AttributeError):
        m.family = "map"  # type: ignore[misc]


_CUT_INT = [d.name for d in MEASURES if d.syntax == "cut_int"]
_CUT_FLOAT = [d.name for d in MEASURES if d.syntax == "cut_float"]
_PLAIN = [d.name for d in MEASURES if d.syntax == "none"]


@st.composite
def measures(draw):
    kind = draw(st.sampled_from(["int", "float", "plain", "pairs"]))
    if kind == "int":
        return Measure(draw(st.sampled_from(_CUT_INT)), (draw(st.integers(1, 10**6)),))
    if kind == "float":
        x = draw(st.integers(0, 1000)) / 100
        return Measure(draw(st.sampled_from(_CUT_FLOAT)), (x,))
    if kind == "plain":
        return Measure(draw(st.sampled_from(_PLAIN)))
    grades = draw(st.lists(st.integers(0, 9), min_size=1, max_size=3, unique=True))
    gains = draw(st.lists(st.integers(-5, 20), min_size=len(grades), max_size=len(grades)))
    text = ",".join(f"{g}={v}" for g, v in zip(grades, gains, strict=True))
    return parse_measure(f"ndcg.{text}")[0]


@given(measures())
def test_parse_of_str_roundtrips(m):
    assert parse_measure(str(m)) == (m,)


def test_known_measures_cover_all_trec():
    known = known_measures()
    for m in parse_measure("all_trec"):
        assert m.family in known
    assert {"nDCG@k", "AP", "RR", "hit_rate@k", "micro_set_P", "all_trec"} <= set(known)


# ------------------------------------------------------------------- errors
def test_unknown_measure_suggests_and_lists():
    with pytest.raises(UnknownMeasureError, match=r"did you mean.*nDCG@k") as info:
        parse_measure("nDGC@k")
    assert "Known measures:" in str(info.value)
    assert "recip_rank" in str(info.value)


def test_unknown_plain_name():
    with pytest.raises(UnknownMeasureError, match=r"'mapp'.*did you mean.*map"):
        parse_measure("mapp")


def test_empty_name():
    with pytest.raises(UnknownMeasureError, match="empty"):
        parse_measure("  ")


def test_not_a_string():
    with pytest.raises(UnknownMeasureError, match="strings"):
        parse_requests([10])  # type: ignore[list-item]


def test_no_measures():
    with pytest.raises(ParameterError, match="at least one"):
        parse_requests([])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("P.0,5", "positive"),
        ("P.5,5", "duplicate"),
        ("P.x", "not an integer"),
        ("P.", "empty parameter"),
        ("iprec_at_recall.0.1,0.1", "duplicate"),
        ("iprec_at_recall.abc", "not a number"),
        ("ndcg.1", "'grade=gain' pairs"),
        ("ndcg.a=1", "unknown parameter 'a'"),
        ("rbp.q=0.5", "unknown parameter 'q'"),
        ("utility.1,2", "takes 4 parameter"),
        ("map.5", "takes no parameters"),
        ("nDCG(cutoff=20)@10", "cutoff twice"),
        ("nDCG(foo=1)", "unknown parameter 'foo'"),
        ("hit_rate", "needs a cutoff"),
        ("R", "needs a cutoff"),
        ("AP(p=0.5)", "unknown parameter 'p'"),
        ("num_q@10", "takes no '@' cutoff"),
    ],
)
def test_bad_parameters(text, message):
    with pytest.raises(ParameterError, match=message):
        parse_measure(text)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("P@10.5", "whole number"),
        ("nDCG@1e1", "whole number"),
        ("iprec@1.5", r"\[0, 1\]"),
        ("iprec@-0.1", r"\[0, 1\]"),
    ],
)
def test_at_cutoff_is_not_truncated(name, message):
    # trec_eval's dotted syntax truncates P.10.5 to P_10; the '@' aliases refuse to guess.
    with pytest.raises(ParameterError, match=message):
        parse_measure(name)
