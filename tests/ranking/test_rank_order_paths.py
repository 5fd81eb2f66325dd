"""Rank order of unsorted runs: the packed-key sort equals the argsort path on hostile scores.

``_order._packed_order`` sorts (query, score descending, row) packed in one
64-bit key; when the score must be truncated to fit, rows that then collide are
put in exact order afterwards. ``_MAX_SCORE_BITS`` forces heavy truncation on
small runs, ``_MIN_SCORE_BITS`` above 64 forces the old argsort path; both must
rank exactly as trec_eval does (query, score descending, document id
descending), checked here against a plain Python sort.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorekit.ranking import Run, _order

HOSTILE = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    np.inf,
    -np.inf,
    5e-324,
    -5e-324,
    1e308,
    -1e308,
    2.2250738585072014e-308,
    0.1,
    0.30000000000000004,
    0.3,
]


def _scores(rng: np.random.Generator, n: int) -> np.ndarray:
    kind = int(rng.integers(0, 4))
    if kind == 0:
        return rng.choice(HOSTILE, n)
    if kind == 1:
        return 0.5 + rng.integers(-3, 4, n) * np.finfo(float).eps  # a tiny span, many ties
    if kind == 2:
        return rng.standard_normal(n) * 10.0 ** rng.integers(-300, 300, n)
    return np.round(rng.random(n) * 20, 2)


def _expected(q: list[str], d: list[str], s: np.ndarray) -> list[tuple[str, str]]:
    # Python's sort is stable: order by doc desc, then score desc, then query asc
    rows = sorted(range(len(q)), key=lambda i: d[i].encode(), reverse=True)
    rows = sorted(rows, key=lambda i: -(s[i] + 0.0))
    rows = sorted(rows, key=lambda i: q[i].encode())
    return [(q[i], d[i]) for i in rows]


@pytest.mark.parametrize("forced", ["default", "truncated to 3 bits", "argsort path"])
@pytest.mark.parametrize("seed", range(25))
def test_unsorted_run_is_ranked_like_trec_eval(
    forced: str, seed: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if forced == "truncated to 3 bits":
        monkeypatch.setattr(_order, "_MAX_SCORE_BITS", 3)
        monkeypatch.setattr(_order, "_MIN_SCORE_BITS", 1)
    elif forced == "argsort path":
        monkeypatch.setattr(_order, "_MIN_SCORE_BITS", 65)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    q = [f"q{v}" for v in rng.integers(0, int(rng.integers(1, 30)), n).tolist()]
    d = [f"d{i}" for i in rng.permutation(n).tolist()]
    s = _scores(rng, n)
    path = tmp_path / "run.txt"  # a file may hold inf, which from_arrays refuses
    path.write_text(
        "".join(f"{a} Q0 {b} 1 {c!r} t\n" for a, b, c in zip(q, d, s.tolist(), strict=True))
    )
    finite = np.where(np.isfinite(s), s, np.sign(s) * 1e300)
    for run, values in ((Run.from_trec(path), s), (Run.from_arrays(q, d, finite), finite)):
        ranked = [(qid, doc) for qid, docs in run.to_dict().items() for doc in docs]
        assert ranked == _expected(q, d, values)
        inputs = run._input_positions()
        assert [d[i] for i in inputs.tolist()] == [doc for _, doc in ranked]


@pytest.mark.parametrize("truncated", [False, True])
@pytest.mark.parametrize("seed", range(25))
def test_rows_grouped_by_query_are_sorted_query_chunk_by_chunk(
    seed: int, truncated: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows grouped by query in id order (as a groupBy gives them) sort in pieces of queries.

    Blocks of 16 rows and pieces of 4 cut even these small runs into many
    blocks of several pieces, shared by two threads from 32 rows; the ranking
    is still trec_eval's, and the run equals the one built from the same rows
    shuffled (one sort of every key).
    """
    from scorekit.ranking import _docindex

    monkeypatch.setattr(_docindex, "_SORT_CHUNK", 16)
    monkeypatch.setattr(_docindex, "_SORT_PIECE", 4)
    monkeypatch.setattr(_docindex, "_PARALLEL", 32)
    if truncated:  # scores cut to 3 bits: the tied keys are put in exact order piece by piece
        monkeypatch.setattr(_order, "_MAX_SCORE_BITS", 3)
        monkeypatch.setattr(_order, "_MIN_SCORE_BITS", 1)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    q = sorted(f"q{v:02d}" for v in rng.integers(0, int(rng.integers(1, 30)), n).tolist())
    d = [f"d{i}" for i in rng.permutation(n).tolist()]
    s = np.where(np.isfinite(s := _scores(rng, n)), s, 1e300)
    calls = []
    monkeypatch.setattr(
        _order, "over_chunks", lambda *a: calls.append(a[0].size) or _docindex.over_chunks(*a)
    )
    grouped = Run.from_arrays(q, d, s)
    ranked = [(qid, doc) for qid, docs in grouped.to_dict().items() for doc in docs]
    assert ranked == _expected(q, d, s)
    in_order = all(q[i] != q[i + 1] or s[i] >= s[i + 1] for i in range(n - 1))
    assert calls or in_order  # the chunked sort ran (unless no sort was needed)
    shuffle = rng.permutation(n)
    mixed = Run.from_arrays(np.array(q)[shuffle], np.array(d)[shuffle], s[shuffle])
    assert mixed.to_dict() == grouped.to_dict()
    assert list(mixed.to_dict()) == list(grouped.to_dict())
