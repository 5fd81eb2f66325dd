"""rbp, rbp_resid, ndcg_rel and Rndcg bit for bit as trec_eval 10.0 computes them, per query.

trec_eval prints 4 decimals, so a last-bit difference shows only when it flips
a rounding tie; here the C loops of m_rbp.c, m_rbp_resid.c, m_ndcg_rel.c and
m_Rndcg.c (with gain_init.c's default gains: gain = grade) are transliterated
line for line (Python floats are C doubles, ``math.log2`` is the C library's)
and every per-query value must be *equal* to scorekit's. rbp's gain bounds
start from the gains themselves (trec_eval leaves ``min``/``max``
uninitialised: docs/why-tools-disagree.md).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scorekit.ranking import Qrels, Run, evaluate

NONPOOL, UNJUDGED = -1, -2


def _gains(counts: dict[int, int]) -> list[tuple[int, float, int]]:
    """gain_init.c's setup_gains without parameters: (level, gain = level, judged count)."""
    top = max(counts) if counts else -1
    return [(i, float(i), counts.get(i, 0)) for i in range(top + 1)]


def _get_gain(rel: int, gains: list[tuple[int, float, int]]) -> float:
    for level, gain, _ in gains:
        if rel == level:
            return gain
    return 0.0


def rbp_c(rels: list[int], gains: list[tuple[int, float, int]], p: float) -> float:
    lo = min(g for _, g, _ in gains)
    hi = max(g for _, g, _ in gains)
    if lo < 0 or hi > 1:
        gains = [(lv, (g - lo) / (hi - lo), n) for lv, g, n in gains]
    total, cur_p = 0.0, 1.0
    for rel in rels:
        gain = _get_gain(rel, gains)
        if gain != 0:
            total += gain * cur_p
        cur_p = cur_p * p
    return (1.0 - p) * total


def rbp_resid_c(rels: list[int], p: float) -> float:
    unj, total, cur_p = 0, 0.0, 1.0
    for rel in rels:
        if rel < 0:
            unj += 1
            total += cur_p
        cur_p = cur_p * p
    return cur_p + (1 - p) * total if unj else 0.0


def ndcg_rel_c(rels: list[int], gains: list[tuple[int, float, int]]) -> float:
    results_dcg = ideal_dcg = total = 0.0
    num_rel_ret = num_rel = 0
    cur_level = len(gains) - 1
    ideal_gain = gains[cur_level][1] if cur_level >= 0 else 0.0
    num_at_level = 0
    i = 0
    n = len(rels)

    def step_ideal() -> None:
        nonlocal num_at_level, cur_level, ideal_gain
        num_at_level += 1
        while cur_level >= 0 and num_at_level > gains[cur_level][2]:
            num_at_level = 1
            cur_level -= 1
            ideal_gain = gains[cur_level][1] if cur_level >= 0 else 0.0

    while i < n and ideal_gain > 0.0:
        results_gain = _get_gain(rels[i], gains)
        if results_gain != 0:
            results_dcg += results_gain / math.log2(float(i + 2))
        step_ideal()
        if ideal_gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal_gain / math.log2(float(i + 2))
        if results_gain > 0:
            total += results_dcg / ideal_dcg
            num_rel_ret += 1
        i += 1
    while i < n:
        results_gain = _get_gain(rels[i], gains)
        if results_gain != 0:
            results_dcg += results_gain / math.log2(float(i + 2))
        if results_gain > 0:
            total += results_dcg / ideal_dcg
            num_rel_ret += 1
        i += 1
    while ideal_gain > 0.0:
        step_ideal()
        if ideal_gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal_gain / math.log2(float(i + 2))
        i += 1
    rest = float(num_rel - num_rel_ret) * results_dcg
    total += rest / ideal_dcg if ideal_dcg else math.nan  # C: 0/0 is NaN, then not > 0
    return total / num_rel if total > 0.0 else 0.0


def rndcg_c(rels: list[int], gains: list[tuple[int, float, int]], num_rel: int) -> float:
    if num_rel == 0:
        return 0.0
    results_dcg = ideal_dcg = total = 0.0
    cur_level = len(gains) - 1
    ideal_gain = gains[cur_level][1] if cur_level >= 0 else 0.0
    old_ideal_gain = ideal_gain
    changes = num_at_level = 0
    i, n = 0, len(rels)

    def step_ideal() -> None:
        nonlocal num_at_level, cur_level, ideal_gain, old_ideal_gain, total, changes
        num_at_level += 1
        while cur_level >= 0 and num_at_level > gains[cur_level][2]:
            num_at_level = 1
            cur_level -= 1
            ideal_gain = gains[cur_level][1] if cur_level >= 0 else 0.0
        if old_ideal_gain != ideal_gain:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old_ideal_gain = ideal_gain

    while i < n and ideal_gain > 0.0:
        results_gain = _get_gain(rels[i], gains)
        step_ideal()
        if results_gain != 0:
            results_dcg += results_gain / math.log2(float(i + 2))
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(float(i + 2))
        i += 1
    if i < n:
        while i < n:
            results_gain = _get_gain(rels[i], gains)
            if results_gain != 0:
                results_dcg += results_gain / math.log2(float(i + 2))
            i += 1
        if ideal_dcg > 0.0:
            total += results_dcg / ideal_dcg
            changes += 1
    while ideal_gain > 0.0:
        step_ideal()
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(float(i + 2))
        i += 1
    return total / changes if changes else 0.0  # trec_eval: 0/0 prints -nan (documented)


def _random_case(seed: int):
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(int(rng.integers(1, 6))):
        docs = [f"d{i}" for i in range(int(rng.integers(5, 400)))]
        judged = rng.choice(docs, size=int(rng.integers(1, len(docs))), replace=False)
        grades = rng.choice(
            [-1, 0, 1, 2, 3, 7], size=judged.size, p=[0.1, 0.4, 0.2, 0.15, 0.1, 0.05]
        )
        grades[0] = max(int(grades[0]), 0)
        qrels[f"q{q}"] = {str(d): int(g) for d, g in zip(judged, grades, strict=True)}
        got = rng.choice(docs, size=int(rng.integers(1, len(docs))), replace=False)
        run[f"q{q}"] = {
            str(d): float(s) for d, s in zip(got, rng.permutation(got.size), strict=True)
        }
    return qrels, run


@pytest.mark.parametrize("seed", range(25))
def test_per_query_values_are_trec_eval_bit_for_bit(seed):
    qrels, run = _random_case(seed)
    measures = ["rbp", "rbp.p=0.95", "rbp_resid", "rbp_resid.p=0.7", "ndcg_rel", "Rndcg"]
    res = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), measures)
    pq = res.per_query
    for q, docs in run.items():
        ranked = sorted(docs, key=lambda d: (docs[d], d), reverse=True)  # trec_eval's order
        rels = [qrels[q].get(d, NONPOOL) for d in ranked]
        rels = [
            UNJUDGED if r < 0 and d in qrels[q] else r for r, d in zip(rels, ranked, strict=False)
        ]
        counts: dict[int, int] = {}
        for g in qrels[q].values():
            if g >= 0:
                counts[g] = counts.get(g, 0) + 1
        gains = _gains(counts)
        num_rel = sum(n for g, n in counts.items() if g >= 1)
        assert pq["rbp"][q] == rbp_c(rels, gains, 0.9)
        assert pq["rbp_p=0.95"][q] == rbp_c(rels, gains, 0.95)
        assert pq["rbp_resid"][q] == rbp_resid_c(rels, 0.9)
        assert pq["rbp_resid_p=0.7"][q] == rbp_resid_c(rels, 0.7)
        assert pq["ndcg_rel"][q] == ndcg_rel_c(rels, gains)
        assert pq["Rndcg"][q] == rndcg_c(rels, gains, num_rel)
