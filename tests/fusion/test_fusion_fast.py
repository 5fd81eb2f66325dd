"""The fast paths of fuse: alignment by merging the runs' indexes, per-query sorts, the output run.

Each is checked against a slow reference on small random runs with tied
scores, missing documents and missing queries, with the size thresholds
forced so the fast branch (and its fallback) runs on them.
"""

from __future__ import annotations

import numpy as np
import pytest
from fusion_helpers import random_runs

import scorekit as sk
from scorekit.fusion import _fuse, _output
from scorekit.fusion._align import align, stack
from scorekit.ranking import _data, _docindex
from scorekit.ranking._ids import words


def _runs(seed, **kw):
    return [sk.Run.from_dict(r) for r in random_runs(seed, **kw)]


def _expected_alignment(runs):
    """{(query, doc): [0-based rank in each run or -1]} from the runs' own rank order."""
    out = {}
    for i, r in enumerate(runs):
        for q, docs in r.to_dict().items():
            for pos, d in enumerate(docs):
                out.setdefault((q, d), [-1] * len(runs))[i] = pos
    return out


def _alignment(al):
    qids = [q.decode() for q in al.queries.tolist()]
    docs = [d.decode() for d in al.doc.tolist()]
    return {
        (qids[q], d): p for q, d, p in zip(al.query.tolist(), docs, al.pos.tolist(), strict=True)
    }


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("missing_query", [0.0, 0.4])
def test_merge_alignment_equals_brute_force(seed, missing_query):
    # missing_query=0: every run has every query, so their own indexes are merged as they
    # are; 0.4: vocabularies differ and some runs' keys are rebuilt under the union codes
    runs = _runs(seed, n_queries=7, pool=12, missing_query=missing_query)
    al = align(runs, stack(runs))
    assert _alignment(al) == _expected_alignment(runs)
    assert (np.diff(al.query) >= 0).all()
    assert (al.present == (al.pos >= 0)).all()
    assert sorted(al.hash_order.tolist()) == list(range(al.query.size))


def test_merge_alignment_with_different_id_widths():
    a = sk.Run.from_dict({"q": {"a": 1.0, "b": 2.0}, "r": {"c": 1.0}})
    b = sk.Run.from_dict({"q": {"a-very-long-document-id": 1.0, "a": 0.5}})
    al = align([a, b], stack([a, b]))
    assert _alignment(al) == _expected_alignment([a, b])


def _weak_hash(ids, salt=None):
    """14 hash values: most blocks of equal hashes mix documents or queries, a few do not."""
    w = words(ids)
    h = (w[:, 0] % np.uint64(7)) << np.uint64(61)
    if salt is not None:
        h |= (salt.view(np.uint64) % np.uint64(2)) << np.uint64(60)
    return h


@pytest.mark.parametrize("seed", range(4))
def test_hash_collisions_never_merge_documents(monkeypatch, seed):
    dicts = random_runs(seed, n_queries=5, pool=9)
    want = {m: sk.fuse([sk.Run.from_dict(r) for r in dicts], method=m) for m in ("rrf", "mnz")}
    monkeypatch.setattr(_data, "hash_ids", _weak_hash)  # query ids
    monkeypatch.setattr(_docindex, "hash_ids", _weak_hash)  # the runs' document indexes
    runs = [sk.Run.from_dict(r) for r in dicts]  # indexes built with the weak hash
    al = align(runs, stack(runs))
    assert _alignment(al) == _expected_alignment(runs)
    for m, expected in want.items():
        got = sk.fuse(runs, method=m)
        assert got.to_dict() == expected.to_dict()
        assert list(got.to_dict()["q0"]) == list(expected.to_dict()["q0"])


def _reference_run(al, fused, tag):
    """The fused run built the slow way: Run._from_codes sorts, indexes and checks it."""
    return sk.Run._from_codes(al.queries, al.query, al.doc.copy(), fused, tag)


def _same_run(got, ref):
    assert got.to_dict() == ref.to_dict()
    for name in ("queries", "query", "doc", "starts"):
        assert np.array_equal(getattr(got._coded, name), getattr(ref._coded, name)), name
    assert np.array_equal(got.score, ref.score)
    assert np.array_equal(got._index, ref._index)
    assert np.array_equal(got._input_positions(), ref._input_positions())
    assert got._dup_rows is None


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("pad_limit", "threads_from"), [(1e9, 0), (1e9, 1 << 40), (0.0, 0)])
def test_output_run_equals_the_validated_constructor(monkeypatch, seed, pad_limit, threads_from):
    # pad_limit 1e9: the per-query matrix sort always (threads forced on by threads_from=0);
    # pad_limit 0: never (the global rank_order path)
    monkeypatch.setattr(_output, "PAD_LIMIT", pad_limit)
    monkeypatch.setattr(_output, "THREADS_FROM", threads_from)
    runs = _runs(seed, n_queries=9, pool=15, levels=2)  # few score levels: many fused ties
    base = _fuse.prepare(runs, "min-max")
    al = base.aligned
    rng = np.random.default_rng(seed)
    for fused in (
        rng.integers(0, 3, al.query.size).astype(float),  # ties everywhere
        rng.random(al.query.size),
        np.zeros(al.query.size),
    ):
        _same_run(_output.fused_run(al, fused, "t"), _reference_run(al, fused, "t"))
    for method in ("rrf", "mnz", "bordafuse"):
        got = sk.fuse(runs, method=method)
        p = _fuse._check_params(_fuse.resolve_method(method), {}, len(runs))
        fused = _fuse.resolve_method(method).kernel(
            _fuse.replace(base, weights=np.ones(len(runs)), params=p)
        )
        if method != "bordafuse":
            _same_run(got, _reference_run(al, fused, method))


def test_per_query_sort_padding_rule():
    q = np.array([0, 0, 0, 1])
    s = np.array([1.0, 3.0, 2.0, 5.0])
    assert _output.by_query_order(q, s, 2).tolist() == [1, 2, 0, 3]
    # one long list and many short ones: padding would cost more than it saves
    q = np.r_[np.zeros(100, int), np.arange(1, 101)]
    assert _output.by_query_order(q, np.arange(200.0), 101) is None


def test_fused_run_evaluates_like_a_rebuilt_run():
    runs = _runs(3, n_queries=8, pool=20)
    fused = sk.fuse(runs, method="rrf", norm=None)
    rebuilt = sk.Run.from_dict(fused.to_dict())
    qrels = sk.Qrels.from_dict(
        {f"q{q}": {f"d{d}": int(d % 3) for d in range(0, 20, 2)} for q in range(8)}
    )
    measures = ["nDCG@10", "AP", "RR", "P@5"]
    got = sk.evaluate(qrels, fused, measures).mean()
    want = sk.evaluate(qrels, rebuilt, measures).mean()
    assert got == want


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("missing_query", [0.0, 0.4])
def test_sums_along_the_merge_equal_the_column_sums(monkeypatch, seed, missing_query):
    # RRF adds each document's terms along the merge (np.bincount); the (G, m) matrix's
    # column sums, run by run from 0.0, are the reference: the same bits. Chunks of 4
    # pairs and two threads forced, so chunk and half boundaries fall inside queries.
    from scorekit.fusion import _align
    from scorekit.fusion._methods import _sum_scores

    monkeypatch.setattr(_align, "_CHUNK", 4)
    monkeypatch.setattr(_align, "_TWO_FROM", 0)
    monkeypatch.setattr(_align.os, "cpu_count", lambda: 2)
    runs = _runs(seed, n_queries=9, pool=15, missing_query=missing_query)
    st = stack(runs)
    al = align(runs, st)
    assert al.starts is not None
    rng = np.random.default_rng(seed)
    values = rng.random(int(st.offsets[-1])) * 10.0 ** rng.integers(-8, 8, int(st.offsets[-1]))
    assert np.array_equal(al.group_sum(values), _sum_scores(al.dense(values)))
    table = 1.0 / (60.0 + np.arange(1.0, 20.0))
    by_rank = np.where(al.pos >= 0, table[np.maximum(al.pos, 0)], 0.0)
    assert np.array_equal(al.rank_sum(table), _sum_scores(by_rank))
    # the merge's documents and their cells, against the brute-force alignment
    assert _alignment(al) == _expected_alignment(runs)
    assert np.array_equal(al.count, al.present.sum(axis=1))


@pytest.mark.parametrize("seed", range(3))
def test_small_chunks_and_blocks_fuse_like_large_ones(monkeypatch, seed):
    # the merge's keys written, the documents found and the per-query sorts run in
    # chunks / blocks; tiny ones (many per query) give the same fused runs
    from scorekit.fusion import _align

    dicts = random_runs(seed, n_queries=9, pool=14, levels=2)
    methods = [("rrf", None), ("mnz", "min-max"), ("bordafuse", None)]
    want = {
        mn: sk.fuse([sk.Run.from_dict(r) for r in dicts], method=mn[0], norm=mn[1])
        for mn in methods
    }
    monkeypatch.setattr(_align, "_CHUNK", 3)
    monkeypatch.setattr(_output, "_CHUNK", 5)
    monkeypatch.setattr(_output, "_BLOCK_CELLS", 1)
    monkeypatch.setattr(_output, "THREADS_FROM", 0)
    for (m, n), expected in want.items():
        got = sk.fuse([sk.Run.from_dict(r) for r in dicts], method=m, norm=n)
        _same_run(got, expected)
