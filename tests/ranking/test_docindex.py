"""The run's (query, document) index (``_docindex``): every layout and sort path gives the same join.

The default path sorts the keys chunk by chunk of whole queries; small
``_SORT_CHUNK``/``_PARALLEL`` force the chunked, threaded sort on small runs,
a large ``_MIN_HASH_BITS`` forces the global layout (query mixed into the
hash, one sort in halves), and a weak hash makes most keys collide. Each must
give the join a dictionary gives, and find exactly the duplicated documents.
"""

from __future__ import annotations

import numpy as np
import pytest

import scorekit
from scorekit.ranking import Qrels, Run, _docindex, evaluate
from scorekit.ranking._evaluate import _join, _match_queries
from scorekit.ranking._ids import words

MEASURES = ["nDCG@10", "AP", "RR", "P@5", "R@20", "num_rel_ret"]


def _weak_hash(ids: np.ndarray, salt: np.ndarray | None = None) -> np.ndarray:
    h = (words(ids)[:, 0] & np.uint64(3)) << np.uint64(62)  # four values: collisions everywhere
    return h if salt is None else h ^ (salt.astype(np.uint64) << np.uint64(62))


PATHS = {
    "default": {},
    "chunked, two threads": {"_SORT_CHUNK": 3, "_PARALLEL": 1},
    "global layout": {"_MIN_HASH_BITS": 65, "_PARALLEL": 1},
    "global layout, one thread": {"_MIN_HASH_BITS": 65},
}


@pytest.fixture(params=[*PATHS, "weak hash"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    for name, value in PATHS.get(request.param, {"_SORT_CHUNK": 5, "_PARALLEL": 1}).items():
        monkeypatch.setattr(_docindex, name, value)
    if request.param == "weak hash":
        monkeypatch.setattr(_docindex, "hash_ids", _weak_hash)
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
