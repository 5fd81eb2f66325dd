"""The run's (query, document) index (``_docindex``): every layout and sort path gives the same join.

The default path builds the keys block by block of whole queries and sorts
them piece by piece; small ``_SORT_CHUNK``/``_SORT_PIECE``/``_PARALLEL`` force
many blocks and pieces, sorted on two threads, on small runs, a large
``_MIN_HASH_BITS`` forces the global layout (query mixed into the hash, one
sort in halves), a weak hash makes most keys collide, one or two bucket
bits put most of the index in each bucket the join looks in, and a tiny
chunk counts the bucket directory a few keys at a time. Each must give
the join a dictionary gives, and find exactly the duplicated documents.
"""

from __future__ import annotations

import numpy as np
import pytest

import scorekit
from scorekit.ranking import Qrels, Run, _docindex, _evaluate, evaluate
from scorekit.ranking._evaluate import _join, _match_queries
from scorekit.ranking._ids import words

MEASURES = ["nDCG@10", "AP", "RR", "P@5", "R@20", "num_rel_ret"]


def _weak_hash(ids: np.ndarray, salt: np.ndarray | None = None) -> np.ndarray:
    h = (words(ids)[:, 0] & np.uint64(3)) << np.uint64(62)  # four values: collisions everywhere
    return h if salt is None else h ^ (salt.astype(np.uint64) << np.uint64(62))


PATHS = {
    "default": {},
    "chunked, two threads": {"_SORT_CHUNK": 3, "_SORT_PIECE": 2, "_PARALLEL": 1},
    "global layout": {"_MIN_HASH_BITS": 65, "_PARALLEL": 1},
    "global layout, one thread": {"_MIN_HASH_BITS": 65},
}


@pytest.fixture(params=[*PATHS, "weak hash", "one bucket bit", "two bucket bits", "bucket chunks"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    for name, value in PATHS.get(request.param, {"_SORT_CHUNK": 5, "_PARALLEL": 1}).items():
        monkeypatch.setattr(_docindex, name, value)
    if request.param == "weak hash":
        monkeypatch.setattr(_docindex, "hash_ids", _weak_hash)
    if request.param.endswith("bucket bit") or request.param.endswith("bucket bits"):
        monkeypatch.setattr(_evaluate, "_BUCKET_BITS", 1 if request.param.startswith("one") else 2)
    if request.param == "bucket chunks":  # the directory counted 7 index keys at a time
        monkeypatch.setattr(_evaluate, "_BUCKET_CHUNK", 7)
    return str(request.param)


def _data(seed: int) -> tuple[list[str], list[str], list[float], dict[str, dict[str, int]]]:
    rng = np.random.default_rng(seed)
    n_q = int(rng.integers(1, 40))
    q, d, s = [], [], []
    qrels: dict[str, dict[str, int]] = {}
    for i in range(n_q):
        qid = f"q{i}" if rng.random() < 0.8 else "é" * int(rng.integers(1, 12)) + str(i)
        docs = rng.choice(200, int(rng.integers(1, 60)), replace=False)
        for doc in docs.tolist():
            name = f"d{doc}" if doc % 7 else f"long-document-id-{doc:020d}"  # two widths
            q.append(qid)
            d.append(name)
            s.append(float(rng.integers(0, 6)))  # many ties
        judged = rng.choice(200, int(rng.integers(0, 30)), replace=False).tolist()
        if judged:
            qrels[qid] = {
                (f"d{j}" if j % 7 else f"long-document-id-{j:020d}"): int(rng.integers(-1, 3))
                for j in judged
            }
    return q, d, s, qrels


@pytest.mark.parametrize("seed", range(12))
def test_join_equals_a_dictionary(path: str, seed: int) -> None:
    q, d, s, judged = _data(seed)
    run = Run.from_arrays(q, d, s)
    qrels = Qrels.from_dict(judged or {"none": {"x": 1}})
    _, qcodes, rcodes = _match_queries(qrels, run, True)
    qmap = np.full(qrels.n_queries, -1, np.int64)
    qmap[qcodes] = rcodes
    rows, grades = _join(qrels, run, qmap)
    got = {
        (run.query_ids[run._coded.query[r]], run._coded.doc[r].decode()): int(g)
        for r, g in zip(rows.tolist(), grades.tolist(), strict=True)
    }
    want = {
        (qid, doc): g
        for qid, docs in run.to_dict().items()
        for doc in docs
        if (g := judged.get(qid, {}).get(doc)) is not None
    }
    assert rows.size == len(got) == len(want)
    assert got == want


@pytest.mark.parametrize("seed", range(6))
def test_evaluate_is_the_same_on_every_path(
    path: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    q, d, s, judged = _data(seed)
    if not judged:
        return
    got = evaluate(Qrels.from_dict(judged), Run.from_arrays(q, d, s), MEASURES)
    monkeypatch.undo()  # the default path
    want = evaluate(Qrels.from_dict(judged), Run.from_arrays(q, d, s), MEASURES)
    assert got.per_query == want.per_query


@pytest.mark.parametrize("seed", range(6))
def test_duplicates_are_found_exactly(path: str, seed: int) -> None:
    q, d, s, _ = _data(seed)
    rng = np.random.default_rng(seed)
    twice = int(rng.integers(0, len(q)))
    q2, d2, s2 = [*q, q[twice]], [*d, d[twice]], [*s, 0.5]
    with pytest.raises(scorekit.DuplicateDocumentError, match=repr(d[twice])):
        Run.from_arrays(q2, d2, s2)
    Run.from_arrays(q, d, s)  # no duplicate: no error, whatever the collisions


@pytest.mark.parametrize("seed", range(12))
def test_judgment_counts_equal_a_counter(seed: int) -> None:
    """``pair_counts`` (counted densely, sorted, or lexsorted for huge grades) is a Counter."""
    from collections import Counter

    from scorekit.ranking._state import pair_counts

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    top = [2, 50, 10**6, 2**40][seed % 4]  # dense keys, then ever sparser ones
    q = np.sort(rng.integers(0, int(rng.integers(1, 2_000)), n))
    grade = rng.integers(0, top, n)
    got = pair_counts(q, grade)
    expected = sorted(Counter(zip(q.tolist(), grade.tolist(), strict=True)).items())
    assert [(a, b) for a, b in zip(got[0].tolist(), got[1].tolist(), strict=True)] == [
        k for k, _ in expected
    ]
    assert got[2].tolist() == [v for _, v in expected]
    assert all(a.dtype == np.int64 for a in got)
