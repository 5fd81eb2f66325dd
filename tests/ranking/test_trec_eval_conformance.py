"""trec_eval 10's own test outputs, reproduced line for line.

The conformance folder (see its README.md) holds trec_eval's test inputs and
the text trec_eval 10.0 printed for them. scorekit implements every measure
these files contain (no judgment-group, preference or z-score lines occur), so
whole files are compared: same lines, same order, same digits.
"""

from __future__ import annotations

import pytest

from scorekit.ranking import Qrels, Run, evaluate
from scorekit.ranking._parse import parse_requests

MEAS_PARAMS = [
    "iprec_at_recall..10,.20,.25,.75,.50",
    "P.5,7,3",
    "recall.20,2000",
    "Rprec_mult.5.0,0.2,0.35",
    "utility.2,-1,0,0",
    "11pt_avg..25,.5,.75",
    "ndcg.1=3,2=9,4=4.5",
    "ndcg_cut.10,20,23.4",
    "success.2,5,20",
]

# expected file: (qrels, run, measures, evaluate options); every case prints per query (-q)
# except out.test and out.test.a
CASES = {
    "out.test": ("qrels.test", "results.test", ["official"], {}),
    "out.test.a": ("qrels.test", "results.test", ["all_trec"], {}),
    "out.test.aq": ("qrels.test", "results.test", ["all_trec"], {"per_query": True}),
    "out.test.aqc": (
        "qrels.test",
        "results.trunc",
        ["all_trec"],
        {"per_query": True, "all_queries": True},
    ),
    "out.test.aqcM": (
        "qrels.test",
        "results.trunc",
        ["all_trec"],
        {"per_query": True, "all_queries": True, "max_docs": 100},
    ),
    "out.test.aql": (
        "qrels.rel_level",
        "results.test",
        ["all_trec", "relstring.20"],
        {"per_query": True, "rel_level": 2},
    ),
    "out.test.meas_params": ("qrels.test", "results.test", MEAS_PARAMS, {"per_query": True}),
}


@pytest.fixture(scope="module")
def files(conformance_dir):
    names = {"qrels.test", "qrels.rel_level", "results.test", "results.trunc"}
    loaded = {
        n: (Qrels if n.startswith("qrels") else Run).from_trec(conformance_dir / n) for n in names
    }
    return loaded


@pytest.mark.reference
@pytest.mark.parametrize("expected_file", sorted(CASES))
def test_output_matches_trec_eval_line_for_line(expected_file, files, conformance_dir):
    qrels, run, measures, options = CASES[expected_file]
    result = evaluate(files[qrels], files[run], measures, **options)
    expected = (conformance_dir / expected_file).read_text().splitlines()
    got = result.to_trec_eval().splitlines()
    assert got == expected


def test_all_trec_expands_to_what_trec_eval_prints(conformance_dir):
    expected = [
        line.split("\t")[0].strip()
        for line in (conformance_dir / "out.test.a").read_text().splitlines()
    ]
    expanded = parse_requests("all_trec")
    # relstring has no summary line: trec_eval prints it per query only (out.test.aq)
    assert [k for k, m in expanded if m.definition.summary != "none"] == expected
    assert [k for k, m in expanded if m.definition.summary == "none"] == ["relstring"]


def test_default_set_is_trec_eval_default(conformance_dir):
    expected = [
        line.split("\t")[0].strip()
        for line in (conformance_dir / "out.test").read_text().splitlines()
    ]
    assert [key for key, _ in parse_requests("official")] == expected


def test_per_query_lines_follow_the_query_order_of_the_qrels(files):
    text = evaluate(
        files["qrels.test"], files["results.test"], "map", per_query=True
    ).to_trec_eval()
    assert [line.split("\t")[1] for line in text.splitlines()] == ["301", "302", "303", "all"]


def test_mean_matches_the_all_lines(files, conformance_dir):
    result = evaluate(files["qrels.test"], files["results.test"], ["all_trec"])
    means = result.mean()
    for line in (conformance_dir / "out.test.a").read_text().splitlines():
        name, _, value = (part.strip() for part in line.split("\t"))
        if name == "runid":
            assert result.tag == value
        elif "." in value:
            assert f"{means[name]:.4f}" == value
        else:
            assert means[name] == int(value)
