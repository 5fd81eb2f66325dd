"""``scorekit recommend``: every list metric of the catalog from files, equal to the library.

The expected values are computed here from the same rows with plain Python
(lists built per user in rank order, popularity as distinct training users per
item, histories, the tail, the features) and the library functions; the CLI
builds them with its own vectorised code.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorekit as sk
from scorekit.cli._commands import run
from scorekit.cli._recommend import KINDS

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    rng = np.random.default_rng(7)
    d = tmp_path_factory.mktemp("recommend")
    train, recs = [], []
    for u in range(30):
        items = [f"i{k}" for k in rng.permutation(40)]
        h = 0 if u % 9 == 4 else int(rng.integers(1, 8))
        train += [(f"u{u}", it) for it in items[:h]]
        if u % 3 == 0 and h:  # a repeated interaction counts once
            train.append((f"u{u}", items[0]))
        if u % 11 != 5:  # some training users get no recommendations
            ranks = rng.permutation(4) + 1
            recs += [
                (f"u{u}", it, int(r), float(rng.choice([1.0, 0.5])))
                for it, r in zip(items[h : h + 4], ranks, strict=True)
            ]
    seen_items = {it for _, it in train}
    recs = [r for r in recs if r[1] in seen_items]  # novelty needs every item trained on
    feats = pd.DataFrame(
        {"item": [f"i{k}" for k in range(40)], **{f"f{j}": rng.random(40) for j in range(3)}}
    )
    tr = pd.DataFrame(train, columns=["user", "item"])
    rc = pd.DataFrame(recs, columns=["user", "item", "pos", "rel"]).sample(frac=1, random_state=1)
    paths = {"train": d / "train.csv", "recs": d / "recs.csv", "feats": d / "feats.parquet"}
    tr.to_csv(paths["train"], index=False)
    rc.to_csv(paths["recs"], index=False)
    feats.to_parquet(paths["feats"])
    return paths, tr, rc, feats


def expected_inputs(tr, rc, feats, tail_max):
    users = sorted(set(tr.user) | set(rc.user))
    by_user = {u: g.sort_values("pos", kind="stable") for u, g in rc.groupby("user")}
    all_lists = [by_user[u].item.tolist() if u in by_user else [] for u in users]
    rel = [by_user[u].rel.tolist() if u in by_user else [] for u in users]
    dedup = tr.drop_duplicates()
    hist = [dedup.item[dedup.user == u].tolist() for u in users]
    pop = dedup.groupby("item").size()
    tail = {i for i, c in pop.items() if c <= tail_max}
    return {
        "lists": [lst for lst in all_lists if lst],
        "all": all_lists,
        "rel": rel,
        "hist": hist,
        "pop": dict(pop),
        "n_users": dedup.user.nunique(),
        "catalog": len(pop),
        "tail": tail,
        "feats": {r.item: [r.f0, r.f1, r.f2] for r in feats.itertuples()},
    }


def library_value(name, x):
    row = sk.metric_info(name)
    kind = row.inputs
    if kind == "lists":
        return row(x["lists"], x["catalog"])
    if kind == "user_lists":
        return row(x["all"])
    if kind == "popularity":
        extra = {"n_users": x["n_users"]} if name == "novelty" else {}
        return row(x["lists"], x["pop"], **extra)
    if kind == "tail":
        return row(x["lists"], x["tail"])
    if kind == "item_features":
        return row(x["lists"], x["feats"])
    return row(x["all"], x["hist"], relevance=x["rel"])


def cli_json(argv, capsys):
    code = run(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_every_list_metric_equals_the_library(files, capsys):
    paths, tr, rc, feats = files
    argv = ["recommend", str(paths["recs"]), "--user", "user", "--item", "item", "--rank", "pos"]
    argv += ["--train", str(paths["train"]), "--features", str(paths["feats"])]
    argv += ["--relevance", "rel", "--tail-max-users", "1", "-m", "all", "--format", "json"]
    got = cli_json(argv, capsys)
    rows = [r.name for r in sk.metrics("recsys") if r.scalar and r.inputs in KINDS]
    assert set(got) == set(rows)
    x = expected_inputs(tr, rc, feats, 1)
    for name in rows:
        assert got[name]["value"] == pytest.approx(library_value(name, x), rel=1e-12), name


def test_default_set_is_what_the_inputs_allow(files, capsys):
    paths, *_ = files
    got = cli_json(
        ["recommend", str(paths["recs"]), "--user", "user", "--item", "item", "--catalog-size",
         "50", "--format", "json"],
        capsys,
    )  # fmt: skip
    assert set(got) == {
        "catalog_coverage",
        "item_coverage",
        "user_coverage",
        "exposure_gini",
        "exposure_entropy",
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["-m", "novelty"],
            "-m novelty needs recommendation lists and item popularity: pass --train",
        ),
        (["-m", "roc_auc"], "use scorekit classify"),
        (["-m", "noveltyy"], "did you mean 'novelty'"),
        (["-m", "catalog_coverage"], "pass --catalog-size N or --train FILE"),
        (["--catalog-size", "0", "-m", "catalog_coverage"], "--catalog-size 0: must be at least 1"),
        (["--rank", "nope"], "no column 'nope' (--rank)"),
    ],
)
def test_bad_flags_exit_2_with_one_line(files, capsys, extra, message):
    paths, *_ = files
    code = run(["recommend", str(paths["recs"]), "--user", "user", "--item", "item", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_report_and_notes(files, capsys, tmp_path):
    paths, *_ = files
    out = tmp_path / "rec.html"
    argv = ["recommend", str(paths["recs"]), "--user", "user", "--item", "item"]
    code = run([*argv, "--train", str(paths["train"]), "--report", str(out)])
    err = capsys.readouterr().err
    assert code == 0
    html = out.read_text()
    assert "serendipity" in html
    assert "novelty" in html
    assert "users with recommendations" in err
