"""Per-query kernels of the gain-based measures: nDCG and its variants, G, RBP.

Gains follow trec_eval: a grade's gain is the grade itself unless the
measure's parameters map it (``ndcg.1=3,2=9``); ungraded codes (not in the
qrels, pooled but unjudged) gain 0. ``gain="exponential"`` (an option of
:func:`~scorekit.evaluate`) turns every gain g of the nDCG family into 2^g − 1.
The ideal ranking lists each query's judged documents by decreasing positive
gain (:func:`ideal`); its prefix sums and the ranked gains give every variant
with ``bincount`` and ``searchsorted``, no loop over queries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._segments import segment_cumsum
from .._typing import FloatArray, IntArray
from ._conventions import Conventions
from ._kernels import _div, _per_query
from ._state import Context

__all__: list[str] = []

Pairs = tuple[tuple[str, float], ...]


def _gain_map(params: tuple[Any, ...]) -> dict[int, float]:
    return {int(k): float(v) for k, v in params if k not in ("p",)}


def _persistence(params: tuple[Any, ...]) -> float:
    return float(dict(params).get("p", 0.9))


def _plain(conv: Conventions | None) -> bool:
    """Whether gains are the grade (or 2^grade - 1): trec_eval's own gains."""
    return conv is None or (conv.gain in ("linear", "exponential") and not conv.gain_from_level)


def gain_table(
    params: tuple[Any, ...], conv: Conventions | None = None, rel_level: int = 1
) -> Callable[[IntArray], FloatArray]:
    """A function from relevance codes to gains: the grade, or its mapped gain; 0 when ungraded.

    ``conv`` (the nDCG family only) applies ``gain=`` of :func:`~scorekit.evaluate`;
    the measure's own ``grade=gain`` parameters map on top of it.
    """
    mapped = _gain_map(params)
    exponential = conv is not None and conv.gain == "exponential"
    plain = _plain(conv)

    def lookup(rel: IntArray) -> FloatArray:
        if plain or conv is None:
            gain: FloatArray = np.maximum(rel, 0).astype(np.float64)
            if exponential:
                gain = np.exp2(gain) - 1.0
        else:
            gain = conv.grade_gain(rel, rel_level)
        for level, value in mapped.items():  # a handful of 'grade=gain' parameters
            gain[rel == level] = np.exp2(value) - 1.0 if exponential else value
        return gain

    return lookup


@dataclass(frozen=True, slots=True)
class Ideal:
    """Each query's positive gains in decreasing order, laid end to end."""

    q: IntArray
    gain: FloatArray
    rank: IntArray  # 1-based within the query
    start: IntArray  # (n_q + 1,) offsets per query

    @property
    def size(self) -> IntArray:
        return np.diff(self.start)


def ideal(ctx: Context, lookup: Callable[[IntArray], FloatArray]) -> Ideal:
    """The ideal ranking: judged documents (``ndcg_ideal="judged"``) or retrieved ones."""
    s = ctx.state
    if ctx.conv.ndcg_ideal == "candidates":
        level_q, level, level_count = ctx.candidate_levels
    else:
        level_q, level, level_count = s.level_q, s.level, s.level_count
    g = lookup(level)
    keep = (g > 0) & (level_count > 0)
    q, g, count = level_q[keep], g[keep], level_count[keep]
    order = np.lexsort([-g, q])
    q, g, count = q[order], g[order], count[order]
    start = np.zeros(ctx.n_q + 1, np.int64)
    np.cumsum(np.bincount(q, weights=count, minlength=ctx.n_q).astype(np.int64), out=start[1:])
    iq = np.repeat(q, count)
    return Ideal(iq, np.repeat(g, count), np.arange(iq.size) - start[iq] + 1, start)


@dataclass(frozen=True, slots=True)
class Ranked:
    """The retrieved documents with a non-zero gain, in rank order."""

    pos: IntArray
    q: IntArray
    rank: IntArray
    gain: FloatArray


def ranked(
    ctx: Context,
    params: tuple[Any, ...],
    lookup: Callable[[IntArray], FloatArray],
    plain: bool = True,
) -> Ranked:
    """Retrieved documents with a non-zero gain (``plain``: only grades > 0 can have one)."""
    rel = ctx.state.rel
    mapped = list(_gain_map(params))
    maybe = rel > 0 if plain else rel >= 0
    if mapped:
        maybe |= np.isin(rel, mapped)
    pos, q, rank = ctx.events(maybe)
    gain = lookup(rel[pos])
    keep = gain != 0
    return Ranked(pos[keep], q[keep], rank[keep], gain[keep])


def _discounted(gain: FloatArray, rank: IntArray) -> FloatArray:
    out: FloatArray = gain / np.log2((rank + 1).astype(np.float64))
    return out


def _setup(ctx: Context, params: tuple[Any, ...], family: bool) -> tuple[Ranked, Ideal]:
    key = ("gains", params, family)
    if key not in ctx.cache:
        conv = ctx.conv if family else None
        lookup = gain_table(params, conv, ctx.rel_level)
        ctx.cache[key] = (ranked(ctx, params, lookup, _plain(conv)), ideal(ctx, lookup))
    out: tuple[Ranked, Ideal] = ctx.cache[key]
    return out


def _dcg(ctx: Context, r: Ranked, cutoff: int | None = None) -> FloatArray:
    w = _discounted(r.gain, r.rank)
    if cutoff is not None:
        w = np.where(r.rank <= cutoff, w, 0.0)
    return _per_query(ctx, r.q, w)


def _idcg(ctx: Context, i: Ideal, cutoff: int | None = None) -> FloatArray:
    w = _discounted(i.gain, i.rank)
    if cutoff is not None:
        w = np.where(i.rank <= cutoff, w, 0.0)
    return _per_query(ctx, i.q, w)


def ndcg(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r, i = _setup(ctx, params, True)
    return _div(_dcg(ctx, r), _idcg(ctx, i))


def dcg(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r, _ = _setup(ctx, params, True)
    return _dcg(ctx, r)


def ideal_dcg(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    _, i = _setup(ctx, params, True)
    return _idcg(ctx, i)


def ndcg_cut(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r, i = _setup(ctx, (), True)
    k = int(params[0])
    positive = r.gain > 0
    r = Ranked(r.pos[positive], r.q[positive], r.rank[positive], r.gain[positive])
    return _div(_dcg(ctx, r, k), _idcg(ctx, i, k))


def _prefix(q: IntArray, values: FloatArray, start: IntArray) -> FloatArray:
    """Within-query running sums (inclusive) of values laid out by query (``start``: offsets).

    Each query is summed from 0.0 in rank order, as trec_eval's loops do, so
    every prefix is bit-identical to its own (one global cumsum minus the sum
    before the query would not be): :func:`scorekit._segments.segment_cumsum`.
    """
    out: FloatArray = np.empty(values.size, np.float64)
    busy = start[:-1][np.diff(start) > 0]
    if busy.size == 0:
        return out
    return segment_cumsum(values, busy, out)


def _ideal_prefix(ctx: Context, i: Ideal) -> FloatArray:
    """IDCG@r at every ideal position r."""
    return _prefix(i.q, _discounted(i.gain, i.rank), i.start)


def _ranked_prefix(ctx: Context, r: Ranked) -> FloatArray:
    """DCG at every ranked position with a non-zero gain."""
    rstart = np.searchsorted(r.pos, ctx.starts)
    return _prefix(r.q, _discounted(r.gain, r.rank), rstart)


def _dcg_at(
    ctx: Context, r: Ranked, dcg_prefix: FloatArray, q: IntArray, depth: IntArray
) -> FloatArray:
    """DCG of query q down to rank ``depth`` (vectorised over (q, depth) pairs)."""
    idx = np.searchsorted(r.pos, ctx.first[q] + depth) - 1
    rstart = np.searchsorted(r.pos, ctx.first[q])
    return (
        np.where(idx >= rstart, dcg_prefix[np.maximum(idx, 0)], 0.0)
        if r.pos.size
        else np.zeros(q.size)
    )


def ndcg_rel(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r, i = _setup(ctx, params, True)
    n_ideal = i.size
    iprefix = _ideal_prefix(ctx, i)
    rprefix = _ranked_prefix(ctx, r)
    idcg_total = _idcg(ctx, i)
    dcg_total = _dcg(ctx, r)
    pos_gain = r.gain > 0
    q = r.q[pos_gain]
    depth = np.minimum(r.rank[pos_gain], n_ideal[q])
    ok = depth > 0
    idcg_here = np.where(ok, iprefix[i.start[q] + np.maximum(depth, 1) - 1], 0.0)
    terms = _div(rprefix[pos_gain], idcg_here)
    total = _per_query(ctx, q, terms)
    n_found = np.bincount(q, minlength=ctx.n_q)
    total = total + _div((n_ideal - n_found) * dcg_total, idcg_total)
    return np.where(total > 0, _div(total, n_ideal), 0.0)


def Rndcg(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r, i = _setup(ctx, params, True)
    n_ideal = i.size
    n_ret = ctx.num_ret
    iprefix = _ideal_prefix(ctx, i)
    rprefix = _ranked_prefix(ctx, r)
    # a term at every change of ideal gain (including the drop to 0 after the last one)
    last = i.rank == n_ideal[i.q]
    change = last.copy()
    change[:-1] |= i.gain[1:] != i.gain[:-1]
    tq, trank = i.q[change], i.rank[change]
    terms = _div(_dcg_at(ctx, r, rprefix, tq, np.minimum(trank, n_ret[tq])), iprefix[change])
    total = _per_query(ctx, tq, terms)
    count = np.bincount(tq, minlength=ctx.n_q).astype(np.float64)
    extra = n_ideal + 1 < n_ret
    total = total + np.where(extra, _div(_dcg(ctx, r), _idcg(ctx, i)), 0.0)
    count = count + extra
    return np.where(ctx.num_rel > 0, _div(total, count), 0.0)


def G(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r, i = _setup(ctx, params, False)
    n_ideal = i.size
    cost = _prefix(i.q, np.maximum(i.gain, 1.0), i.start)
    rstart = np.searchsorted(r.pos, ctx.starts)
    sum_results = _prefix(r.q, r.gain, rstart)
    depth = np.minimum(r.rank, n_ideal[r.q])
    sum_cost = np.where(depth > 0, cost[i.start[r.q] + np.maximum(depth, 1) - 1], 0.0)
    sum_cost = sum_cost + (r.rank - depth)
    w = r.gain / np.log2(2.0 + sum_cost - sum_results)
    return _div(_per_query(ctx, r.q, w), _per_query(ctx, i.q, i.gain))


def _powers(p: float, top: int) -> FloatArray:
    """p^0 .. p^top by repeated multiplication, bit for bit trec_eval's ``cur_p = cur_p * p``."""
    steps = np.full(top + 1, p, np.float64)
    steps[0] = 1.0
    out: FloatArray = np.cumprod(steps, dtype=np.float64)
    return out


def _default_range(top: IntArray, mapped: dict[int, float]) -> tuple[FloatArray, FloatArray]:
    """Per query, the lowest and highest grade in 0..top that no parameter maps (inf if none)."""
    taken = set(mapped)
    low = 0
    while low in taken:
        low += 1
    high = top.copy()
    for _ in range(len(taken)):  # step down past mapped grades (a handful)
        hit = np.isin(high, list(taken))
        if not hit.any():
            break
        high = np.where(hit, high - 1, high)
    valid = top >= low
    return np.where(valid, float(low), np.inf), np.where(valid, high.astype(np.float64), -np.inf)


def rbp(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """Rank-biased precision, (1 − p) Σ gain_i p^(i−1).

    Like trec_eval, gains are rescaled per query to [0, 1] when the gains of
    the grades 0 .. highest judged grade (and the mapped ones) leave that range.
    """
    p = _persistence(params)
    mapped = _gain_map(params)
    rel = ctx.state.rel
    lo, hi = _default_range(ctx.num_levels - 1, mapped)
    if mapped:
        lo = np.minimum(lo, min(mapped.values()))
        hi = np.maximum(hi, max(mapped.values()))
    g = gain_table(params)(rel)
    known = (rel >= 0) | np.isin(rel, list(mapped))
    pos, q, rank = ctx.events((g != 0) | (known & (lo[ctx.query_of_position] < 0)))
    gain = g[pos]
    scale = (lo < 0) | (hi > 1)
    norm = scale[q] & known[pos]
    gain = np.where(norm, _div(gain - lo[q], hi[q] - lo[q]), gain)
    w = gain * _powers(p, int(rank.max()) if rank.size else 0)[rank - 1]
    return (1.0 - p) * _per_query(ctx, q, w)


def rbp_resid(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    p = _persistence(params)
    _, q, rank = ctx.events(ctx.state.rel < 0)
    has = np.bincount(q, minlength=ctx.n_q) > 0
    powers = _powers(p, int(ctx.num_ret.max()) if ctx.num_ret.size else 0)
    resid = powers[ctx.num_ret] + (1 - p) * _per_query(ctx, q, powers[rank - 1])
    return np.where(has, resid, 0.0)
