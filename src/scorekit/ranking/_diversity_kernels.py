r"""Kernels of the intent-aware diversity measures, exactly as ndeval computes them.

ndeval (TREC Web track, version 4.5) reads each (query, subtopic, document)
judgment as binary (relevant when the grade is ``>= rel_level``). For a
ranking, let ``c(q, s, i)`` be how many documents above rank ``i`` are
relevant to subtopic ``s``; the document at rank ``i`` scores

.. math:: g_i = \sum_{s \ni d_i} (1 - \alpha)^{c(q, s, i)}

(summed in subtopic order from 0.0, as ndeval does). With ``S`` the number of
subtopics with at least one relevant document (queries with none score 0):

- ``alpha_DCG@k`` = :math:`\sum_{i \le k} g_i / \log_2(i + 1)` over the same
  sum for an "ideal ideal" list whose rank ``i`` scores :math:`S (1-\alpha)^{i-1}`;
  ``ERR_IA@k`` the same with discount :math:`1/i`. ndeval leaves ``@1`` of both
  unnormalised (its loop starts at rank 2); so does scorekit.
- ``alpha_nDCG@k`` and ``nERR_IA@k`` divide by the same sums over ndeval's
  greedy ideal ranking of the judged documents (at each rank the document with
  the largest gain given the ranks above; equal gains go to the larger document
  id in byte order); 0 when the run gains nothing.
- ``NRBP`` = :math:`\frac{1 - (1-\alpha)\beta}{S} \sum_i \beta^{i-1} g_i`
  over the whole run; ``nNRBP`` divides it by the ideal ranking's value.
- ``P_IA@k``: relevant (document, subtopic) pairs in the top k over ``k S``;
  ``StRecall@k``: subtopics covered in the top k over ``S``; ``AP_IA``: the
  mean over the ``S`` subtopics of each subtopic's average precision.

Vectorised over queries: the run's relevant (row, subtopic) pairs are sorted
once by a packed (query-subtopic key, row) integer, so ``c`` is the position
within each key's block; per-query sums are ``bincount`` in rank order. The
greedy ideal ranking is sequential in the rank (each pick changes the gains of
the next), so :func:`ideal_gains` loops over rank positions, up to the
deepest cutoff asked for, and at each one picks the best document of every
query at once (``maximum.reduceat`` over the queries' segments of the
documents not yet placed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import FloatArray, IntArray
from ._docindex import over_chunks, sort_pieces
from ._order import segments

__all__: list[str] = []


@dataclass(frozen=True, slots=True)
class Pairs:
    """The relevant (document, subtopic) judgments of the evaluated queries for one ``rel``.

    ``doc`` indexes the subtopic qrels' distinct (query, document) pairs
    (sorted by query, then document id); ``key`` numbers the (query, subtopic)
    pairs with a relevant document, sorted by query then subtopic order.
    """

    doc: IntArray  # per judgment, sorted by (doc, subtopic)
    key: IntArray  # per judgment
    doc_start: IntArray  # (n_docs + 1,) offsets of each document's judgments
    key_query: IntArray  # (n_keys,) evaluated query of each key
    key_rel: IntArray  # (n_keys,) relevant documents of each key (ndeval's nrelSub)
    n_sub: IntArray  # (n_q,) subtopics with a relevant document (ndeval's actualSubtopics)


@dataclass(frozen=True, slots=True)
class RunPairs:
    """The run's relevant (row, subtopic) pairs sorted by (key, rank): ``seen`` counts earlier ones.

    Only the ranked rows relevant to some subtopic ("hit" rows, in rank order)
    are kept: ``row`` indexes them, ``row_query`` and ``rank`` describe them.
    """

    row: IntArray  # hit row of each pair
    key: IntArray
    seen: IntArray  # documents above this row relevant to the same (query, subtopic)
    row_query: IntArray  # (n_hits,) evaluated query of each hit row
    rank: IntArray  # (n_hits,) 1-based rank of each hit row


def run_pairs(p: Pairs, starts: IntArray, judged: IntArray, d: IntArray) -> RunPairs:
    """Expand the judged ranked rows (positions ``judged``, increasing; documents ``d``) to pairs."""
    count = p.doc_start[d + 1] - p.doc_start[d]
    hit = count > 0
    judged, d, count = judged[hit], d[hit], count[hit]
    row_query = np.searchsorted(starts, judged, side="right") - 1
    rank = judged - starts[row_query] + 1
    n = max(int(judged.size), 1)
    at = segments(p.doc_start[d], count)
    packed = p.key[at] * n + np.repeat(np.arange(judged.size), count)
    if row_query.size:  # rows in rank order, and a query's keys are a range of their own:
        # the pairs are sorted piece by piece of whole queries
        offsets = np.concatenate([[0], np.cumsum(count)])
        qstart = offsets[np.searchsorted(row_query, np.arange(int(row_query[-1]) + 2))]
        over_chunks(qstart, lambda cuts: sort_pieces(packed[cuts[0] : cuts[-1]], cuts))
    key, row = np.divmod(packed, n)
    first = np.ones(key.size, bool)
    np.not_equal(key[1:], key[:-1], out=first[1:])
    block = np.flatnonzero(first)
    seen = np.arange(key.size) - np.repeat(block, np.diff(np.append(block, key.size)))
    return RunPairs(row, key, seen, row_query, rank)


def powers(base: float, n: int, first: float = 1.0) -> FloatArray:
    """``first * base**i`` for i < n by repeated multiplication (ndeval's rounding)."""
    out: FloatArray = np.cumprod(np.concatenate([[first], np.full(max(n - 1, 0), base)]))
    return out[:n]


def discount(n: int) -> FloatArray:
    """The DCG discount of ranks 1..n as ndeval computes it: 1, then log(2) / log(rank + 1)."""
    out: FloatArray = np.log(2.0) / np.log(np.arange(n, dtype=np.float64) + 2.0)
    out[:1] = 1.0
    return out


def row_gains(rp: RunPairs, alpha: float) -> FloatArray:
    """Novelty-discounted gain ``g`` of every hit row.

    ``bincount`` adds each row's pairs in subtopic order from 0.0, as ndeval does.
    """
    top = int(rp.seen.max()) + 1 if rp.seen.size else 1
    g = powers(1.0 - alpha, top)
    out = np.asarray(np.bincount(rp.row, weights=g[rp.seen], minlength=rp.rank.size), np.float64)
    return out


def upto(rp: RunPairs, values: FloatArray, k: int | None, n_q: int) -> FloatArray:
    """Per-query sum of ``values`` (one per hit row) over ranks <= k, in rank order."""
    keep = rp.rank <= k if k is not None else np.ones(rp.rank.size, bool)
    out = np.asarray(
        np.bincount(rp.row_query[keep], weights=values[keep], minlength=n_q), np.float64
    )
    return out


def ideal_ideal(n_sub: IntArray, alpha: float, disc: FloatArray) -> FloatArray:
    """(n_q, k) cumulative "ideal ideal" sums: rank i scores S (1 - alpha)^(i-1) * disc[i]."""
    sizes, inverse = np.unique(n_sub, return_inverse=True)
    table = np.empty((sizes.size, disc.size))
    for j, s in enumerate(sizes.tolist()):  # one row per distinct subtopic count
        table[j] = np.cumsum(powers(1.0 - alpha, disc.size, float(s)) * disc)
    out: FloatArray = table[inverse.reshape(-1)]
    return out


def ideal_gains(p: Pairs, n_q: int, alpha: float, depth: int | None) -> list[FloatArray]:
    """Gains of ndeval's greedy ideal ranking: one (n_q,) array per rank, up to ``depth``.

    At each rank every query takes, among its documents not yet placed, the one
    whose gain given the documents above is largest (ties: the larger document
    id, i.e. the larger index); the loop is over ranks, each step vectorised
    over all queries, and stops early once no query gains anything more.
    """
    n_docs = p.doc_start.size - 1
    has = np.flatnonzero(np.diff(p.doc_start) > 0)
    docs = has  # documents relevant to some subtopic, sorted (by query, then id)
    doc_query = p.key_query[p.key[p.doc_start[has]]] if has.size else has
    pos = np.repeat(np.arange(docs.size), np.diff(p.doc_start)[has])
    key = p.key.copy()
    seen = np.zeros(p.key_query.size, np.int64)
    g = powers(1.0 - alpha, (depth if depth is not None else n_docs) + 2)
    out: list[FloatArray] = []
    while docs.size and (depth is None or len(out) < depth):
        score = np.bincount(pos, weights=g[seen[key]], minlength=docs.size)
        start = np.flatnonzero(np.concatenate([[True], doc_query[1:] != doc_query[:-1]]))
        best = np.maximum.reduceat(score, start)
        owner = np.repeat(np.arange(start.size), np.diff(np.append(start, docs.size)))
        tied = np.where(score == best[owner], np.arange(docs.size), -1)
        win = np.maximum.reduceat(tied, start)
        gains = np.zeros(n_q)
        gains[doc_query[start]] = best
        out.append(gains)
        placed = np.zeros(docs.size, bool)
        placed[win] = True
        seen[key[placed[pos]]] += 1
        keep = ~placed & (best > 0)[owner]
        if not keep.any():
            break
        new_index = np.cumsum(keep) - 1
        on = keep[pos]
        docs, doc_query = docs[keep], doc_query[keep]
        pos, key = new_index[pos[on]], key[on]
    return out
