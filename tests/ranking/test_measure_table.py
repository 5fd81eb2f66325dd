"""The measure table: every side fact of a family lives in its row; the CLI lists the rows."""

from __future__ import annotations

import json

import pytest

import scorekit
from scorekit.cli._commands import run
from scorekit.ranking import measures, parse_measure
from scorekit.ranking._measures import MEASURES, Param


def test_public_measures_is_the_table():
    assert scorekit.measures() is MEASURES
    assert all(isinstance(p, Param) for d in MEASURES for p in d.params)


@pytest.mark.parametrize("d", MEASURES, ids=lambda d: d.name)
def test_row_is_consistent(d):
    names = [p.name for p in d.params]
    assert len(set(names)) == len(names)
    if d.at is not None:
        assert d.at in names
    if d.summary == "micro":
        assert d.micro is not None
    if d.syntax == "floats":
        assert 1 <= d.arity[0] <= d.arity[1]
    for p in d.params:
        assert p.desc
        if p.choices:
            assert p.default in p.choices


@pytest.mark.parametrize("d", [d for d in MEASURES if d.aliases], ids=lambda d: d.name)
def test_every_alias_parses_to_its_family(d):
    for alias in d.aliases:
        text = f"{alias}@10" if d.at == "cutoff" else f"{alias}@0.5" if d.at else alias
        got = parse_measure(text)
        assert got[0].family in {x.name for x in MEASURES if alias in x.aliases}


def test_cli_lists_measures(capsys):
    assert run(["measures", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == [d.name for d in measures()]
    ndcg = next(r for r in rows if r["name"] == "ndcg_cut")
    assert [p["name"] for p in ndcg["params"]] == ["cutoff", "judged_only", "dcg", "gains"]
    assert run(["measures"]) == 0
    assert "persistence" in capsys.readouterr().out
