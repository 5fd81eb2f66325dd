"""fuse under both document-index layouts: query code leading the keys, or mixed into the hash.

Small runs always get the first layout; a large ``_MIN_HASH_BITS`` forces the
second (the one of runs with very many queries and rows), whose alignment
reorders the merged pairs by query. Both must give the same fused run.
"""

from __future__ import annotations

import numpy as np
import pytest
from fusion_helpers import random_runs
from test_fusion_fast import _weak_hash  # 7 hash values: blocks of equal keys mix documents

import scorekit as sk
from scorekit.fusion._align import align, stack
from scorekit.ranking import _docindex

METHODS = [("rrf", None), ("mnz", "min-max"), ("bordafuse", None), ("med", "zmuv")]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("missing_query", [0.0, 0.4])
def test_mixed_layout_fuses_like_the_leading_one(monkeypatch, seed, missing_query):
    dicts = random_runs(seed, n_queries=8, pool=12, missing_query=missing_query)
    runs = [sk.Run.from_dict(r) for r in dicts]
    want = {(m, n): sk.fuse(runs, method=m, norm=n) for m, n in METHODS}
    al = align(runs, stack(runs))
    assert al.by_hash
    assert np.array_equal(al.count, al.present.sum(axis=1))
    monkeypatch.setattr(_docindex, "_MIN_HASH_BITS", 65)
    runs = [sk.Run.from_dict(r) for r in dicts]  # indexes built in the mixed layout
    al = align(runs, stack(runs))
    assert not al.by_hash
    assert np.array_equal(al.count, al.present.sum(axis=1))
    assert (np.diff(al.query) >= 0).all()
    for (m, n), expected in want.items():
        got = sk.fuse(runs, method=m, norm=n)
        assert list(got.to_dict().items()) == list(expected.to_dict().items())
        assert np.array_equal(got.score, expected.score)


@pytest.mark.parametrize("seed", range(3))
def test_two_thread_passes_fuse_like_one(monkeypatch, seed):
    # the merge (split at a query), the id checks and the scatters run in two halves
    # on two threads above a size; forced here on small runs
    from scorekit.fusion import _align, _output

    runs = [sk.Run.from_dict(r) for r in random_runs(seed, n_queries=9, pool=14)]
    want = {(m, n): sk.fuse(runs, method=m, norm=n) for m, n in METHODS}
    monkeypatch.setattr(_align, "_TWO_FROM", 0)
    monkeypatch.setattr(_align.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(_output, "THREADS_FROM", 0)
    for (m, n), expected in want.items():
        got = sk.fuse(runs, method=m, norm=n)
        assert list(got.to_dict().items()) == list(expected.to_dict().items())
        assert np.array_equal(got.score, expected.score)
        assert np.array_equal(got._index, expected._index)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mixed", [False, True])
def test_index_hash_collisions_never_merge_documents(monkeypatch, seed, mixed):
    # the runs' document indexes (which the alignment merges) built with a weak hash:
    # blocks of equal keys hold different documents and are re-sorted exactly
    dicts = random_runs(seed, n_queries=6, pool=11)
    want = {
        (m, n): sk.fuse([sk.Run.from_dict(r) for r in dicts], method=m, norm=n) for m, n in METHODS
    }
    monkeypatch.setattr(_docindex, "hash_ids", _weak_hash)
    if mixed:
        monkeypatch.setattr(_docindex, "_MIN_HASH_BITS", 65)
    runs = [sk.Run.from_dict(r) for r in dicts]
    assert align(runs, stack(runs)).by_hash is not mixed
    for (m, n), expected in want.items():
        got = sk.fuse(runs, method=m, norm=n)
        assert list(got.to_dict().items()) == list(expected.to_dict().items())
        assert np.array_equal(got.score, expected.score)
