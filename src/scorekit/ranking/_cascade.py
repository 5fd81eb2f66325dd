r"""Cascade and user-model measures: ERR (gdeval), ir_measures' RBP, SDCG, DCG@k and CG@k.

ERR (Chapelle, Metzler, Zhang and Grinspan, "Expected reciprocal rank for
graded relevance", CIKM 2009), as ``gdeval.pl`` computes it (the TREC Web
track's script, ir_measures' ``gdeval`` provider):

.. math:: \mathrm{ERR@k} = \sum_{i \le k} \frac{R_i}{i} \prod_{j < i} (1 - R_j),
          \qquad R_i = \frac{2^{g_i} - 1}{2^{g_{max}}}

with ``g_max`` the maximum grade (gdeval's ``$MAX_JUDGMENT = 4``; the
denominator is ``2^g_max``, not ``2^g_max - 1``); grades below 1 and unjudged
documents have ``R = 0``. The products come from a running sum of
``log1p(-R)`` within each query (no loop over queries).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import ParameterError
from .._segments import segment_cumsum
from .._typing import FloatArray, IntArray
from ._gains import gain_table
from ._kernels import _per_query
from ._state import NONPOOL, Context

__all__: list[str] = []


def _within(q: IntArray, values: FloatArray) -> FloatArray:
    """Exclusive running sums of ``values`` within each query (values laid out by query).

    Each query is summed on its own (:func:`scorekit._segments.segment_cumsum`),
    so a query's value does not depend on the queries before it.
    """
    if values.size == 0:
        return np.zeros(0)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    out = segment_cumsum(values, starts, np.empty(values.size))
    out -= values
    return out


def err(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """ERR@k with gdeval's stopping probabilities (``params``: cutoff or None, max grade)."""
    cutoff, top = params
    rel = ctx.state.rel
    pos, q, rank = ctx.events(rel > 0)
    grade = rel[pos].astype(np.int64)
    if grade.size and int(grade.max()) > int(top):
        raise ParameterError(
            f"ERR: grade {int(grade.max())} exceeds max_grade={top}; pass ERR(max_grade=...) "
            "with the highest grade of the qrels"
        )
    if cutoff is not None:
        keep = rank <= int(cutoff)
        pos, q, rank, grade = pos[keep], q[keep], rank[keep], grade[keep]
    r = (np.exp2(grade.astype(np.float64)) - 1.0) / np.exp2(float(top))
    decay = np.exp(_within(q, np.log1p(-r)))
    return _per_query(ctx, q, r * decay / rank)


def rbp(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """ir_measures' RBP (cwl_eval): (1 - p) sum of gain_i p^(i-1) over the top k (or all).

    Binary gains, as ir_measures requires ``rel``: 1 for a grade >= ``rel`` (default ``rel_level``).
    """
    cutoff, p = params
    rel = ctx.state.rel
    _, q, rank = ctx.events(rel >= ctx.rel_level)
    if cutoff is not None:
        keep = rank <= int(cutoff)
        q, rank = q[keep], rank[keep]
    w = np.power(float(p), (rank - 1).astype(np.float64))
    return (1.0 - float(p)) * _per_query(ctx, q, w)


def rbp_residual(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """RBP's residual (Moffat and Zobel 2008): the weight of unjudged and unseen documents.

    ``(1 - p) * sum over unjudged i <= k of p^(i-1)`` plus ``p^d``, ``d`` the
    depth examined (min(k, retrieved)): what RBP could still gain.
    """
    cutoff, p = params
    depth = ctx.num_ret if cutoff is None else np.minimum(int(cutoff), ctx.num_ret)
    _, q, rank = ctx.events(ctx.state.rel < 0)
    keep = rank <= depth[q]
    w = np.power(float(p), (rank[keep] - 1).astype(np.float64))
    unjudged = (1.0 - float(p)) * _per_query(ctx, q[keep], w)
    out: FloatArray = unjudged + np.power(float(p), depth.astype(np.float64))
    return out


def _gains_at(ctx: Context, cutoff: int) -> tuple[IntArray, IntArray, FloatArray]:
    """Query, rank and gain (``gain=``/``dcg=``/``gains=``) of the top-k documents with a gain."""
    lookup = gain_table((), ctx.conv, ctx.rel_level)
    rel = ctx.state.rel
    pos, q, rank = ctx.events(rel >= 0)
    keep = rank <= cutoff
    pos, q, rank = pos[keep], q[keep], rank[keep]
    return q, rank, lookup(rel[pos].astype(np.int64))


def dcg_cut(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """DCG@k: sum over the top k of gain / log2(rank + 1) (ranx's dcg; dcg_burges: 2^g - 1)."""
    q, rank, gain = _gains_at(ctx, int(params[0]))
    return _per_query(ctx, q, gain / np.log2((rank + 1).astype(np.float64)))


def cg_cut(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """CG@k: the undiscounted sum of the gains of the top k."""
    q, _, gain = _gains_at(ctx, int(params[0]))
    return _per_query(ctx, q, gain)


def sdcg(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r"""Scaled DCG@k (cwl_eval, ir_measures' SDCG): DCG@k over the DCG of k fully relevant documents.

    Gains: the grade clipped to [min_rel, max_rel] (negative grades count 0
    first, as ir_measures does) and scaled to [0, 1]; documents without a
    judgment gain 0. The normaliser :math:`\sum_{i \le k} 1/\log_2(i + 1)`
    does not depend on the qrels.
    """
    cutoff, low, high = int(params[0]), int(params[1]), int(params[2])
    if high <= low:
        raise ParameterError(f"SDCG: max_rel={high} must exceed min_rel={low}")
    rel = ctx.state.rel
    pos, q, rank = ctx.events(rel != NONPOOL)
    keep = rank <= cutoff
    pos, q, rank = pos[keep], q[keep], rank[keep]
    grade = np.clip(np.maximum(rel[pos].astype(np.float64), 0.0), low, high)
    gain = (grade - low) / (high - low)
    discount = 1.0 / np.log2((rank + 1).astype(np.float64))
    norm = float(np.sum(1.0 / np.log2(np.arange(2, cutoff + 2, dtype=np.float64))))
    out: FloatArray = _per_query(ctx, q, gain * discount) / norm
    return out


def compat(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    r"""Compatibility (Clarke, Vtyurina and Smucker, TOIS 2021), as ir_measures computes it.

    Rank-biased overlap of the run with an ideal ranking (every judged
    document of grade > 0, by grade descending; among equal grades the
    retrieved ones in run order, then the others), to depth D = max(retrieved,
    ideal):

    .. math:: \mathrm{RBO} = \frac{\sum_{i \le D} p^{i-1} |A_i \cap B_i| / i}{\sum_{i \le D} p^{i-1}}

    divided by the ideal's RBO with itself when ``normalize``. A document in
    both lists counts in every prefix from ``max(run rank, ideal rank)`` on, so
    the sum is one lookup in a table of :math:`T(n) = \sum_{i \le n} p^{i-1}/i`
    per document.
    """
    p, normalize = float(params[0]), bool(params[1])
    s = ctx.state
    positive = s.level > 0
    n_ideal = np.bincount(s.level_q[positive], s.level_count[positive], ctx.n_q).astype(np.int64)
    depth = np.maximum(ctx.num_ret, n_ideal)
    top = int(depth.max()) if depth.size else 0
    i = np.arange(1, top + 1, dtype=np.float64)
    weight = np.power(p, i - 1.0)
    table = np.concatenate([[0.0], np.cumsum(weight / i)])  # T(0..top)
    # ideal rank of each retrieved document of grade > 0
    pos, q, rank = ctx.events(s.rel > 0)
    grade = s.rel[pos].astype(np.int64)
    order = np.lexsort([rank, -grade, q])
    q_o, g_o = q[order], grade[order]
    new = np.ones(order.size, bool)
    new[1:] = (q_o[1:] != q_o[:-1]) | (g_o[1:] != g_o[:-1])
    starts = np.flatnonzero(new)
    within = np.arange(order.size) - np.repeat(starts, np.diff(np.append(starts, order.size)))
    # judged documents of a higher grade: the query's positive total minus those up to grade g
    width = int(s.level.max()) + 2 if s.level.size else 1
    key = s.level_q * width + s.level  # (query, grade) counts, sorted as the state keeps them
    cum = np.concatenate([[0], np.cumsum(np.where(positive, s.level_count, 0))])
    base = cum[np.searchsorted(s.level_q, q_o)]
    upto = cum[np.searchsorted(key, q_o * width + g_o, side="right")]
    higher = n_ideal[q_o] - (upto - base)
    ideal_rank = np.empty(order.size, np.int64)
    ideal_rank[order] = higher + within + 1
    meet = np.maximum(rank, ideal_rank)
    score = _per_query(ctx, q, table[depth[q]] - table[meet - 1])
    if not normalize:
        norm = depth.astype(np.float64) if p == 1.0 else (1.0 - np.power(p, depth)) / (1.0 - p)
        return _div_safe(score, norm)
    best = _best(table, n_ideal, depth, p)
    return _div_safe(score, best)


def _best(table: FloatArray, n: IntArray, depth: IntArray, p: float) -> FloatArray:
    """The ideal's RBO numerator with itself: min(i, n)/i at every depth i."""
    head = n.astype(np.float64) if p == 1.0 else (1.0 - np.power(p, n)) / (1.0 - p)
    out: FloatArray = head + n * (table[depth] - table[n])
    return out


def _div_safe(num: FloatArray, den: Any) -> FloatArray:
    den_f = np.asarray(den, np.float64)
    out: FloatArray = np.zeros(num.shape, np.float64)
    np.divide(num, den_f, out=out, where=den_f > 0)
    return out
