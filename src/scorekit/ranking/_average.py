r"""``ties="average"``: each measure's expectation over every order of the tied documents.

Closed forms per group of tied documents (McSherry & Najork, "Computing
information retrieval performance measures efficiently in the presence of
tied scores", ECIR 2008), computed with segment operations over all groups of
all queries at once, never by enumerating orders. A group holds ``n``
documents at ranks ``a+1 .. a+n``, ``r`` of them relevant, with ``R_b``
relevant documents ranked above it. Every order of a group is equally likely,
so each document is at each of the group's ranks with probability 1/n:

- counts (P@k, recall@k, R-prec, num_rel_ret, ...): relevant documents in
  the top d = the exact count above the group holding rank d, plus
  ``r (d - a) / n``;
- DCG: every rank of a group gets the group's mean gain;
- AP: the group's j-th rank is relevant with probability r/n, and then holds
  ``(j-1)(r-1)/(n-1)`` more relevant documents above it within the group on
  average, so it adds ``(r/n) (R_b + 1 + (j-1)(r-1)/(n-1)) / (a+j)``;
- RR and success@k: the first relevant document is in the first group with
  r > 0, at its j-th rank with probability ``C(n-j, r-1) / C(n, r)``;
- AP divided by the hits in the top k, when k cuts a group: condition on the
  number h of relevant documents among the group's first ``m = k - a``
  ranks (hypergeometric); given h they fill those ranks uniformly, which gives
  the group's AP terms in closed form with ``D = sum_j 1/(a+j)``.

Per-query values are these expectations; summaries are taken over them as
usual (a mean of expectations is the expectation of the mean).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import ParameterError
from .._typing import BoolArray, FloatArray, IntArray
from . import _kernels as k
from ._conventions import Conventions
from ._gains import _idcg, gain_table, ideal
from ._order import segments
from ._state import Context, RankedState

if TYPE_CHECKING:
    from ._measures import Measure

Kernel = Callable[[Any, tuple[Any, ...]], Any]

__all__: list[str] = []


class AverageContext(Context):
    """A context whose counts are expectations over the orders of tied documents."""

    def __init__(self, state: RankedState, rel_level: int, conv: Conventions) -> None:
        super().__init__(state, rel_level, conv.gain, conv)
        if state.tie_start is None:  # pragma: no cover - compute checks it
            raise ValueError("an average context needs a state built with ties='average'")
        ts = state.tie_start
        self.group_start: IntArray = np.flatnonzero(ts)
        self.group_size: IntArray = np.diff(self.group_start, append=ts.size)
        self.length: IntArray = np.diff(state.starts)
        depth = state.depth
        self.limit: IntArray = self.length if depth is None else np.minimum(self.length, depth)
        self.group_query: IntArray = self.query_of_position[self.group_start]
        self.group_rank0: IntArray = self.group_start - state.starts[self.group_query]

    def group_of(self, pos: IntArray) -> IntArray:
        """The group holding each of the given positions."""
        out: IntArray = np.searchsorted(self.group_start, pos, side="right") - 1
        return out

    @cached_property
    def num_ret(self) -> IntArray:
        return self.limit

    @cached_property
    def query_of_position(self) -> IntArray:
        return np.repeat(np.arange(self.n_q, dtype=np.int64), self.length)

    @cached_property
    def relevant_mask(self) -> BoolArray:
        out: BoolArray = self.state.rel >= self.rel_level
        return out

    def prefix(self, mask: BoolArray) -> tuple[IntArray, IntArray]:
        """Running count of ``mask`` over positions (0 first), and its count in each group."""
        c = np.zeros(mask.size + 1, np.int64)
        np.cumsum(mask, out=c[1:])
        return c, c[self.group_start + self.group_size] - c[self.group_start]

    @cached_property
    def relevant_prefix(self) -> tuple[IntArray, IntArray]:
        return self.prefix(self.relevant_mask)

    def expected_upto(self, mask: BoolArray, depth: IntArray | int) -> FloatArray:
        """Per query, the expected number of positions where ``mask`` holds in the top ``depth``."""
        c, per_group = self.relevant_prefix if mask is self.relevant_mask else self.prefix(mask)
        d = np.clip(np.minimum(depth, self.limit), 0, None)
        out = np.zeros(self.n_q)
        has = np.flatnonzero(d > 0)
        first = self.first[has]
        last = first + d[has] - 1
        g = self.group_of(last)
        gs = self.group_start[g]
        part = per_group[g] * (last - gs + 1) / self.group_size[g]
        out[has] = (c[gs] - c[first]) + part
        return out

    def relevant_upto(self, k: IntArray | int) -> Any:
        return self.expected_upto(self.relevant_mask, k)

    def count_upto(self, events: IntArray, k: IntArray | int) -> Any:
        mask = np.zeros(self.state.rel.size, bool)
        mask[events] = True
        return self.expected_upto(mask, k)

    @cached_property
    def num_rel_ret(self) -> Any:
        return self.relevant_upto(self.limit)

    def positions(self, groups: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """Positions of the given groups, the group and the 1-based rank within it of each."""
        size = self.group_size[groups]
        pos = segments(self.group_start[groups], size)
        g = np.repeat(groups, size)
        return pos, g, pos - self.group_start[g] + 1

    def cut(self, cutoff: int | None) -> IntArray:
        """Per query, the last rank that counts: max_docs, the cutoff and the list's end."""
        return self.limit if cutoff is None else np.minimum(self.limit, cutoff)


def _log_comb(n: Any, r: Any) -> FloatArray:
    from scipy.special import gammaln

    out: FloatArray = gammaln(n + 1.0) - gammaln(r + 1.0) - gammaln(n - r + 1.0)
    return out


# ----------------------------------------------------------------------- DCG
def _dcg(ctx: AverageContext, gain: FloatArray, cutoff: int | None) -> FloatArray:
    if gain.size == 0:
        return np.zeros(ctx.n_q)
    total = np.add.reduceat(gain, ctx.group_start)
    _pos, g, j = ctx.positions(np.flatnonzero(total != 0))
    q = ctx.group_query[g]
    rank = ctx.group_rank0[g] + j
    w = (total[g] / ctx.group_size[g]) / np.log2((rank + 1).astype(np.float64))
    w = np.where(rank <= ctx.cut(cutoff)[q], w, 0.0)
    return k._per_query(ctx, q, w)


def _gains(ctx: AverageContext, params: tuple[Any, ...]) -> tuple[FloatArray, Any]:
    lookup = gain_table(params, ctx.conv, ctx.rel_level)
    return lookup(ctx.state.rel.astype(np.int64)), ideal(ctx, lookup)


def dcg(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    gain, _ = _gains(ctx, params)
    return _dcg(ctx, gain, None)


def ndcg(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    gain, best = _gains(ctx, params)
    return k._div(_dcg(ctx, gain, None), _idcg(ctx, best))


def ndcg_cut(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    gain, best = _gains(ctx, ())
    cutoff = int(params[0])
    return k._div(_dcg(ctx, np.maximum(gain, 0.0), cutoff), _idcg(ctx, best, cutoff))


# ------------------------------------------------------------------------ AP
def _ap(ctx: AverageContext, cutoff: int | None) -> FloatArray:
    c, per_group = ctx.relevant_prefix
    _pos, g, j = ctx.positions(np.flatnonzero(per_group > 0))
    q = ctx.group_query[g]
    n, r, a = ctx.group_size[g], per_group[g], ctx.group_rank0[g]
    above = c[ctx.group_start[g]] - c[ctx.first[q]]
    within = (j - 1) * ((r - 1) / np.maximum(n - 1, 1))
    term = (r / n) * (above + 1 + within) / (a + j)
    last = ctx.cut(cutoff)
    term = np.where(a + j <= last[q], term, 0.0)
    if ctx.conv.ap_denominator != "hits":
        return k._div(k._per_query(ctx, q, term), k.ap_denominator(ctx, cutoff))
    return _ap_hits(ctx, last, q, g, term)


def _ap_hits(
    ctx: AverageContext, last: IntArray, q: IntArray, g: IntArray, term: FloatArray
) -> FloatArray:
    """E[sum of precisions / hits]: exact where the hits are fixed, conditioned where k cuts a group."""
    c, per_group = ctx.relevant_prefix
    out = k._div(k._per_query(ctx, q, term), ctx.relevant_upto(last))
    has = np.flatnonzero(last > 0)
    at = ctx.first[has] + last[has] - 1
    gb = ctx.group_of(at)
    m = at - ctx.group_start[gb] + 1
    n, r = ctx.group_size[gb], per_group[gb]
    cut = (m < n) & (r > 0)
    if not cut.any():
        return out
    cq, gb, m, n, r = has[cut], gb[cut], m[cut], n[cut], r[cut]
    a = ctx.group_rank0[gb]
    above = c[ctx.group_start[gb]] - c[ctx.first[cq]]
    boundary = np.full(ctx.n_q, -1, np.int64)
    boundary[cq] = gb
    before = g != boundary[q]
    s_before = k._per_query(ctx, q[before], term[before])[cq]
    slot = np.repeat(np.arange(cq.size), m)
    rank = segments(a + 1, m)
    d = np.bincount(slot, weights=1.0 / rank, minlength=cq.size)
    h_lo = np.maximum(0, m - (n - r))
    count = np.minimum(r, m) - h_lo + 1
    i = np.repeat(np.arange(cq.size), count)
    h = segments(h_lo, count).astype(np.float64)
    ni, ri, mi, ai, bi, di = n[i], r[i], m[i], a[i], above[i], d[i]
    p = np.exp(_log_comb(ri, h) + _log_comb(ni - ri, mi - h) - _log_comb(ni, mi))
    within = (h - 1) / np.maximum(mi - 1, 1)
    group_terms = (h / mi) * ((bi + 1) * di + within * (mi - (ai + 1) * di))
    hits = bi + h
    value = p * k._div(s_before[i] + group_terms, hits)
    out[cq] = np.bincount(i, weights=value, minlength=cq.size)
    return out


def ap(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    return _ap(ctx, None)


def ap_cut(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    return _ap(ctx, int(params[0]))


# ------------------------------------------------------------- RR, success
def _first_relevant(ctx: AverageContext, cutoff: int | None) -> tuple[FloatArray, FloatArray]:
    """Per query: E[1/rank of the first relevant document] and P(it is within the cut)."""
    _, per_group = ctx.relevant_prefix
    hq = np.flatnonzero(np.diff(ctx.rel_start) > 0)
    gb = ctx.group_of(ctx.relevant[0][ctx.rel_start[hq]])
    n, r, a = ctx.group_size[gb], per_group[gb], ctx.group_rank0[gb]
    count = n - r + 1
    i = np.repeat(np.arange(hq.size), count)
    j = segments(np.ones(hq.size, np.int64), count)
    p = np.exp(_log_comb(n[i] - j, r[i] - 1.0) - _log_comb(n[i], r[i]))
    rank = a[i] + j
    last = ctx.cut(cutoff)[hq]
    p = np.where(rank <= last[i], p, 0.0)
    rr, hit = np.zeros(ctx.n_q), np.zeros(ctx.n_q)
    rr[hq] = np.bincount(i, weights=p / rank, minlength=hq.size)
    sure = a + count <= last
    hit[hq] = np.where(sure, 1.0, np.bincount(i, weights=p, minlength=hq.size))
    return rr, hit


def rr(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    return _first_relevant(ctx, int(params[0]) if params else None)[0]


def success(ctx: AverageContext, params: tuple[Any, ...]) -> FloatArray:
    return _first_relevant(ctx, int(params[0]))[1]


# ----------------------------------------------------------------- registry
def check_supported(requests: list[tuple[str, Measure]], state: RankedState) -> None:
    """Raise :class:`ParameterError` naming each measure ``ties="average"`` cannot compute.

    Each family's ``tied`` field (:class:`~._measures.MeasureDef`) says how it is computed.
    """
    from ._measures import MEASURES

    allowed = ("counts", "whole_list") if state.depth is None else ("counts",)
    bad = [
        key
        for key, m in requests
        if m.definition.tied is None
        or (isinstance(m.definition.tied, str) and m.definition.tied not in allowed)
    ]
    if bad:
        names = sorted(
            (d.name for d in MEASURES if d.tied is not None and d.name != "runid"), key=str.lower
        )
        cut = [d.name for d in MEASURES if d.tied == "whole_list"]
        extra = "" if state.depth is None else f" ({', '.join(cut)}: not with max_docs)"
        raise ParameterError(
            f"ties='average' has no closed form for {', '.join(dict.fromkeys(bad))}; "
            f"it supports {', '.join(names)}{extra}. Pick another ties= policy for them"
        )


def kernel(m: Measure) -> Kernel | None:
    """The kernel of a measure under ``ties="average"`` (an expectation kernel or a count one)."""
    tied = m.definition.tied
    return m.definition.kernel if tied is None or isinstance(tied, str) else tied
