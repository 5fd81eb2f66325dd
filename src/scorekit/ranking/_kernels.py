"""Per-query kernels of the set, precision, recall and average-precision families.

Each kernel is ``f(ctx, params) -> array of one value per query`` on a
:class:`~._state.Context`. The arithmetic follows trec_eval 10 expression by
expression (same operands, same order of summation: ``np.bincount`` adds the
weights of a query in rank order, as trec_eval's loops do), so values agree to
the last bit in all but the rarest cases. Gain-based measures (nDCG, G, RBP)
are in :mod:`._gains`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._typing import FloatArray, IntArray
from ._state import NONPOOL, UNJUDGED, Context, positions_before

__all__: list[str] = []

MIN_GEO_MEAN = 0.00001  # trec_eval's floor for geometric means
INFAP_EPSILON = 0.00001


def _div(num: Any, den: Any) -> FloatArray:
    """``num / den`` where ``den > 0``, else 0 (trec_eval leaves such values at 0)."""
    num_f = np.asarray(num, dtype=np.float64)
    den_f = np.asarray(den, dtype=np.float64)
    out: FloatArray = np.zeros(np.broadcast(num_f, den_f).shape, np.float64)
    np.divide(num_f, den_f, out=out, where=den_f > 0)
    return out


def _per_query(ctx: Context, q: IntArray, weights: FloatArray) -> FloatArray:
    out: FloatArray = np.asarray(
        np.bincount(q, weights=weights, minlength=ctx.n_q), dtype=np.float64
    )
    return out


def lround(x: FloatArray) -> IntArray:
    """C's ``lround``: round half away from zero."""
    return (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int64)


# ------------------------------------------------------------------- counts
def num_q(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return np.ones(ctx.n_q)


def num_ret(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return ctx.num_ret.astype(np.float64)


def num_rel(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return ctx.num_rel.astype(np.float64)


def num_rel_ret(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return ctx.num_rel_ret.astype(np.float64)


def num_nonrel_judged_ret(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return ctx.count_upto(ctx.nonrel_pos, ctx.num_ret).astype(np.float64)


# ------------------------------------------------------------ set measures
def set_P(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return _div(ctx.num_rel_ret, ctx.num_ret)


def set_recall(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return _div(ctx.num_rel_ret, ctx.num_rel)


def set_relative_P(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    den = np.where(ctx.num_rel > 0, np.minimum(ctx.num_ret, ctx.num_rel), 0)
    return _div(ctx.num_rel_ret, den)


def set_map(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    rr = ctx.num_rel_ret.astype(np.float64)
    return _div(rr * rr, ctx.num_ret.astype(np.float64) * ctx.num_rel.astype(np.float64))


def set_F(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    x = float(params[0]) if params else 1.0
    p = _div(ctx.num_rel_ret, ctx.num_ret)
    r = _div(ctx.num_rel_ret, ctx.num_rel)
    return np.where(ctx.num_rel_ret > 0, _div((x + 1.0) * p * r, x * p + r), 0.0)


def utility(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    a, b, c, d = (float(v) for v in params) if params else (1.0, -1.0, 0.0, 0.0)
    rr = ctx.num_rel_ret.astype(np.float64)
    ret = ctx.num_ret.astype(np.float64)
    rel = ctx.num_rel.astype(np.float64)
    n = float(ctx.conv.num_docs)  # trec_eval's -N (0 unless given)
    value = a * rr + b * (ret - rr) + c * (rel - rr) + d * (n + rr - ret - rel)
    return np.where(ctx.state.in_run, value, 0.0)


# ------------------------------------------------------------ cutoff measures
def P(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    k = int(params[0])
    return ctx.relevant_upto(k) / float(k)


def recall(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return _div(ctx.relevant_upto(int(params[0])), ctx.num_rel)


def relative_P(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    k = int(params[0])
    den = np.where(ctx.num_rel > 0, np.minimum(k, ctx.num_rel), 0)
    return _div(ctx.relevant_upto(k), den)


def success(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return (ctx.relevant_upto(int(params[0])) > 0).astype(np.float64)


def unj(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    k = int(params[0])
    return ctx.count_upto(ctx.unretrieved_pos, k) / float(k)


def hit_rate(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """Per query the share of relevant documents in the top k (the mean is micro)."""
    return recall(ctx, params)


def hits(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """Ranx's hits@k: the number of relevant documents in the top k."""
    return ctx.relevant_upto(int(params[0])).astype(np.float64)


def f1(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """Ranx's f1@k: the harmonic mean of P@k and recall@k of each query (0 when both are 0)."""
    p, r = P(ctx, params), recall(ctx, params)
    return _div(2.0 * p * r, p + r)


def judged(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """ir_measures' Judged@k: judged documents in the top k over min(k, retrieved)."""
    k = ctx.num_ret if params[0] is None else np.minimum(int(params[0]), ctx.num_ret)
    in_qrels = ctx.count_upto(np.flatnonzero(ctx.state.rel != NONPOOL), k)
    return _div(in_qrels, k)


def Rprec(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return _div(ctx.relevant_upto(ctx.num_rel), ctx.num_rel)


def Rprec_mult(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    # trec_eval 10 still truncates x·R + 0.9 here (it rounds for iprec_at_recall)
    cut = np.trunc(float(params[0]) * ctx.num_rel.astype(np.float64) + 0.9).astype(np.int64)
    return _div(ctx.relevant_upto(cut), cut)


# ------------------------------------------------------- average precision
def _precision_at_relevant(ctx: Context) -> FloatArray:
    _, _, rank = ctx.relevant
    out: FloatArray = ctx.rel_k / rank.astype(np.float64)
    return out


def ap_denominator(ctx: Context, cutoff: int | None) -> Any:
    """What AP divides by (``ap_denominator=``): R, min(R, k), or the relevant found in the top k.

    Without a cutoff, ``"min_relevant_k"`` is R and ``"hits"`` the relevant retrieved.
    """
    how = ctx.conv.ap_denominator
    if how == "hits":
        return ctx.num_rel_ret if cutoff is None else ctx.relevant_upto(cutoff)
    if how == "min_relevant_k" and cutoff is not None:
        return np.minimum(ctx.num_rel, cutoff)
    return ctx.num_rel


def map(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    _, q, _ = ctx.relevant
    return _div(_per_query(ctx, q, _precision_at_relevant(ctx)), ap_denominator(ctx, None))


def map_cut(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    _, q, rank = ctx.relevant
    k = int(params[0])
    w = np.where(rank <= k, _precision_at_relevant(ctx), 0.0)
    return _div(_per_query(ctx, q, w), ap_denominator(ctx, k))


def gm_map(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """Per query AP; the summary is the geometric mean with floor 1e-5."""
    return map(ctx, params)


def recip_rank(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    _, _, rank = ctx.relevant
    has = ctx.num_rel_ret > 0
    first = np.zeros(ctx.n_q, np.int64)
    first[has] = rank[ctx.rel_start[:-1][has]]
    if params:
        has &= first <= int(params[0])
    return _div(has, np.where(has, first, 0))


def _nonrel_before(ctx: Context) -> IntArray:
    pos, q, _ = ctx.relevant
    return positions_before(ctx.nonrel_pos, pos, ctx.first[q])


def bpref(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    _, q, _ = ctx.relevant
    nonrel = _nonrel_before(ctx)
    big_r = ctx.num_rel[q]
    den = np.minimum(ctx.num_nonrel[q], big_r).astype(np.float64)
    frac = np.minimum(nonrel, big_r).astype(np.float64) / np.where(nonrel > 0, den, 1.0)
    w = np.where(nonrel > 0, 1.0 - frac, 1.0)
    return _div(_per_query(ctx, q, w), ctx.num_rel)


def yaap(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """trec_eval's yaap (Robertson 2012): log((1 + S) / (1 + R - S)), S the sum of precisions."""
    _, q, _ = ctx.relevant
    total = _per_query(ctx, q, _precision_at_relevant(ctx))
    out: FloatArray = np.log((1.0 + total) / (1.0 + ctx.num_rel.astype(np.float64) - total))
    return out


def gm_bpref(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """Per query bpref; the summary is the geometric mean with floor 1e-5."""
    return bpref(ctx, params)


def infAP(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    pos, q, rank = ctx.relevant
    k = ctx.rel_k
    nonrel = _nonrel_before(ctx)
    unjudged = positions_before(ctx.unjudged_pos, pos, ctx.first[q])
    j = (rank - 1).astype(np.float64)
    safe_j = np.where(j > 0, j, 1.0)
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((k - 1 + nonrel + unjudged) / safe_j) * (
        (k - 1 + INFAP_EPSILON) / (k - 1 + nonrel + 2 * INFAP_EPSILON)
    )
    w = np.where(j == 0, 1.0, term)
    return _div(_per_query(ctx, q, w), ctx.num_rel)


def binG(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    _, q, rank = ctx.relevant
    w = 1.0 / np.log2((2 + rank - ctx.rel_k).astype(np.float64))
    return _div(_per_query(ctx, q, w), ctx.num_rel)


# ------------------------------------------------- interpolated precision
def _suffix_max(values: FloatArray, starts: IntArray) -> FloatArray:
    """Within each segment ``[starts[i], starts[i+1])``: the max of values from here to the end.

    Doubling steps (exact; log2 of the longest segment passes), no loop over segments.
    """
    out: FloatArray = values.copy()
    n = out.size
    end = np.repeat(starts[1:], np.diff(starts))
    step = 1
    longest = int(np.diff(starts).max()) if starts.size > 1 else 0
    while step < longest:
        idx = np.arange(n - step)
        ok = idx + step < end[: n - step]
        np.maximum(out[: n - step], np.where(ok, out[step:], out[: n - step]), out=out[: n - step])
        step *= 2
    return out


def _interpolated(ctx: Context) -> FloatArray:
    if "iprec" not in ctx.cache:
        ctx.cache["iprec"] = _suffix_max(_precision_at_relevant(ctx), ctx.rel_start)
    out: FloatArray = ctx.cache["iprec"]
    return out


def _iprec_cut(ctx: Context, fraction: float) -> IntArray:
    """How many relevant documents recall level ``fraction`` stands for (``iprec_rule=``)."""
    x = fraction * ctx.num_rel.astype(np.float64)
    rule = ctx.conv.iprec_rule
    if rule == "trec_eval9":  # trec_eval 9.0's m_iprec_at_recall.c: (long) (x * R + 0.9)
        return np.trunc(x + 0.9).astype(np.int64)
    if rule == "textbook":  # the fewest relevant documents with recall >= x (0.3 * 10 is 3)
        return np.ceil(np.round(x, 9)).astype(np.int64)
    return lround(x)


def _iprec_at(ctx: Context, fraction: float) -> FloatArray:
    cut = _iprec_cut(ctx, fraction)
    nrr = ctx.num_rel_ret
    ok = (cut <= nrr) & (nrr > 0)
    idx = ctx.rel_start[:-1] + np.maximum(cut, 1) - 1
    ip = _interpolated(ctx)
    out = np.zeros(ctx.n_q)
    out[ok] = ip[idx[ok]]
    return out


def iprec_at_recall(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    return _iprec_at(ctx, float(params[0]))


ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def pt11_avg(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    points = sorted(float(p) for p in params) if params else list(ELEVEN_POINTS)
    total = np.zeros(ctx.n_q)
    for p in reversed(points):  # trec_eval adds from the highest recall level down
        total = total + _iprec_at(ctx, p)
    return total / float(len(points))


# ------------------------------------------------------------------ strings
_REL_CHARS = np.frombuffer(b"<.-0123456789>", np.uint8)


def relstring(ctx: Context, params: tuple[Any, ...]) -> list[str]:
    """The first N relevance codes of each query as characters (trec_eval's relstring)."""
    n = int(float(params[0])) if params else 10
    rel = ctx.state.rel
    depth = np.clip(np.minimum(n, ctx.num_ret), 0, None)
    pos = np.repeat(ctx.first - np.cumsum(depth) + depth, depth) + np.arange(int(depth.sum()))
    code = rel[pos].astype(np.int64)
    idx = np.where(
        code > 9,
        13,
        np.where(
            code >= 0, code + 3, np.where(code == NONPOOL, 2, np.where(code == UNJUDGED, 1, 0))
        ),
    )
    text = _REL_CHARS[idx].tobytes().decode("ascii")
    bounds = np.concatenate([[0], np.cumsum(depth)]).tolist()
    return [text[bounds[i] : bounds[i + 1]] for i in range(ctx.n_q)]


# ------------------------------------------------- micro summaries (totals)
def _ratio(num: Any, den: Any) -> float:
    d = float(np.sum(den))
    return float(np.sum(num)) / d if d > 0 else 0.0


def micro_hit_rate(ctx: Context, params: tuple[Any, ...]) -> float:
    """Relevant documents in the top k over relevant documents, both summed over queries."""
    return _ratio(ctx.relevant_upto(int(params[0])), ctx.num_rel)


def micro_set_P(ctx: Context, params: tuple[Any, ...]) -> float:
    """Relevant retrieved over retrieved, both summed over queries."""
    return _ratio(ctx.num_rel_ret, ctx.num_ret)


def micro_set_recall(ctx: Context, params: tuple[Any, ...]) -> float:
    """Relevant retrieved over relevant, both summed over queries."""
    return _ratio(ctx.num_rel_ret, ctx.num_rel)


def micro_set_F(ctx: Context, params: tuple[Any, ...]) -> float:
    """Harmonic mean of :func:`micro_set_P` and :func:`micro_set_recall`."""
    p, r = micro_set_P(ctx, params), micro_set_recall(ctx, params)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0
