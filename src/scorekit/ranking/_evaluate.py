"""``evaluate``: join a run to its qrels, apply trec_eval's options, run the measure kernels.

Steps, each vectorised over all queries at once:

1. choose the queries (in both, or every qrels query with ``all_queries``);
2. join: hash each judged (query, document) with the run's query code and find
   it in the run's sorted (hash, row) index (built once with the run) — a
   binary search of the few judged pairs, never of the many retrieved rows;
   every hit is verified on the document's bytes;
3. cut each query's ranking to ``max_docs`` and, with ``judged_only``, drop the
   unjudged documents (after ranking, so tie order is kept);
4. the :class:`~._state.RankedState` goes to the kernels of each measure.

Ordering is not part of these steps: a :class:`~._data.Run` is stored in
rank order (:mod:`._order`). The conventions of issue 8 slot in between steps
2 and 3 without touching the kernels: ``ties=`` rearranges (or, for
``"average"``, replaces by expectations) the relevance codes within the run's
tie groups (:func:`._order.tie_groups` on its query and score columns;
``"input_order"`` also needs the input position of each row, one more column
for ``Run`` to keep);
``missing_queries=`` is ``all_queries`` or an error in step 1; the
``ap_denominator=`` and ``ndcg_ideal=`` choices are options of the kernels
(:class:`~._state.Context` already carries ``rel_level`` and ``gain``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._typing import AnyArray, IntArray
from .._validation import check_option
from ._data import Qrels, Run
from ._ids import decode, hash_ids, padded, words
from ._measures import Measure
from ._parse import parse_requests
from ._result import PerQuery, RankingResult, summarize
from ._state import NONPOOL, UNJUDGED, Context, RankedState

__all__ = ["evaluate"]


def _segments(starts: IntArray, lengths: IntArray) -> IntArray:
    """Positions ``starts[i] .. starts[i] + lengths[i] - 1`` for every i, laid end to end."""
    total = int(lengths.sum())
    offset = np.cumsum(lengths) - lengths
    return np.repeat(starts - offset, lengths) + np.arange(total, dtype=np.int64)


def _match_queries(
    qrels: Qrels, run: Run, all_queries: bool
) -> tuple[AnyArray, IntArray, IntArray]:
    """Evaluated query ids, their qrels codes and their run codes (-1 when not in the run)."""
    qq, rq = qrels._coded.queries, run._coded.queries
    size = max(qq.dtype.itemsize, rq.dtype.itemsize)
    qq, rq = qq.astype(f"S{size}"), rq.astype(f"S{size}")
    pos = np.searchsorted(rq, qq)
    found = pos < rq.size
    found[found] = rq[pos[found]] == qq[found]
    run_code = np.where(found, pos, -1)
    keep = np.ones(qq.size, bool) if all_queries else found
    return qq[keep], np.flatnonzero(keep), run_code[keep]


def _join(qrels: Qrels, run: Run, qmap: IntArray) -> tuple[IntArray, IntArray]:
    """Run rows of the judged (query, document) pairs, and the grades found there.

    ``qmap`` maps qrels query codes to run query codes (-1: query not evaluated).
    """
    qc, rc = qrels._coded, run._coded
    rq = qmap[qc.query]
    cand = np.flatnonzero(rq >= 0)
    width = rc.doc.dtype.itemsize
    docs = qc.doc[cand]
    if docs.dtype.itemsize > width:  # longer ids can match no run document
        fits = np.char.str_len(docs) <= width
        cand, docs = cand[fits], docs[fits]
    docs = padded(docs.astype(f"S{width}"))
    n = rc.query.size
    bits = np.uint64(max(1, int(n - 1).bit_length()))
    low = np.uint64((1 << int(bits)) - 1)
    index = run._index
    h = hash_ids(docs, rq[cand]) & ~low
    order = np.argsort(h)
    cand, docs, h = cand[order], docs[order], h[order]
    lo_i = np.searchsorted(index, h, side="left")
    hi_i = np.searchsorted(index, h | low, side="right")
    count = hi_i - lo_i
    which = np.repeat(np.arange(cand.size), count)
    rows = (index[_segments(lo_i, count)] & low).astype(np.int64)
    same_doc = (words(rc.doc[rows]) == words(docs[which])).all(axis=1)
    ok = (rc.query[rows] == rq[cand[which]]) & same_doc
    return rows[ok], qrels.relevance[cand[which[ok]]]


def ranked_state(
    qrels: Qrels,
    run: Run,
    *,
    all_queries: bool = False,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> RankedState:
    """The :class:`~._state.RankedState` of a run against qrels under trec_eval's options."""
    qids, qrels_code, run_code = _match_queries(qrels, run, all_queries)
    if qids.size == 0:
        raise EmptyInputError(
            "no query is in both the run and the qrels (pass all_queries=True to score the "
            "qrels queries the run misses as 0)"
        )
    rc = run._coded
    qmap = np.full(qrels.n_queries, -1, np.int64)
    qmap[qrels_code[run_code >= 0]] = run_code[run_code >= 0]
    rows, grade = _join(qrels, run, qmap)
    rel = np.full(rc.query.size, NONPOOL, np.int32)
    rel[rows] = np.where(grade >= 0, grade, UNJUDGED)

    in_run = run_code >= 0
    seg_start = np.where(in_run, rc.starts[:-1][np.maximum(run_code, 0)], 0)
    seg_len = np.where(in_run, np.diff(rc.starts)[np.maximum(run_code, 0)], 0)
    if max_docs is not None:
        seg_len = np.minimum(seg_len, max_docs)
    whole = seg_len.sum() == rel.size and (run_code == np.arange(run_code.size)).all()
    if not whole:
        rel = rel[_segments(seg_start, seg_len)]
    if judged_only:
        keep = rel >= 0
        owner = np.repeat(np.arange(qids.size), seg_len)
        seg_len = np.bincount(owner[keep], minlength=qids.size)
        rel = rel[keep]
    starts = np.zeros(qids.size + 1, np.int64)
    np.cumsum(seg_len, out=starts[1:])

    levels = _levels(qrels, qrels_code)
    return RankedState(qids, in_run, starts, rel, *levels, tag=run.tag)


def _levels(qrels: Qrels, qrels_code: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """(evaluated query index, grade, count) of the judged documents, grades >= 0."""
    qc = qrels._coded
    index = np.full(qrels.n_queries, -1, np.int64)
    index[qrels_code] = np.arange(qrels_code.size)
    q = index[qc.query]
    keep = (q >= 0) & (qrels.relevance >= 0)
    q, r = q[keep], qrels.relevance[keep]
    width = int(r.max()) + 1 if r.size else 1
    key, count = np.unique(q * width + r, return_counts=True)
    return key // width, key % width, count.astype(np.int64)


def _micro(ctx: Context, m: Measure) -> float:
    def ratio(num: IntArray, den: IntArray) -> float:
        d = float(den.sum())
        return float(num.sum()) / d if d > 0 else 0.0

    if m.family == "hit_rate":
        return ratio(ctx.relevant_upto(int(m.params[0])), ctx.num_rel)
    p = ratio(ctx.num_rel_ret, ctx.num_ret)
    r = ratio(ctx.num_rel_ret, ctx.num_rel)
    if m.family == "micro_set_P":
        return p
    if m.family == "micro_set_recall":
        return r
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def evaluate(
    qrels: Qrels,
    run: Run,
    measures: str | Iterable[str],
    *,
    rel_level: int = 1,
    all_queries: bool = False,
    max_docs: int | None = None,
    judged_only: bool = False,
    gain: str = "linear",
    per_query: bool = False,
) -> RankingResult:
    """Evaluate a run against relevance judgments with trec_eval's conventions.

    Documents are ranked by score descending, ties by document id descending
    (byte order); the run file's rank column is ignored. A document judged
    ``>= rel_level`` is relevant. The queries evaluated are those in both the
    run and the qrels, or every qrels query with ``all_queries=True``
    (trec_eval ``-c``: a missing query scores 0, and counts in every mean).
    ``max_docs`` keeps the first N documents of each query (``-M``);
    ``judged_only`` drops unjudged documents after ranking (``-J``). nDCG's gain
    is the grade, or 2^grade − 1 with ``gain="exponential"``; discount
    1/log2(rank + 1).

    Parameters
    ----------
    qrels : Qrels
    run : Run
    measures : str or iterable of str
        trec_eval names and syntax (``"map"``, ``"P.5,10"``, ``"ndcg_cut_10"``,
        ``"all_trec"``) or aliases (``"nDCG@10"``, ``"AP"``, ``"RR@10"``,
        ``"hit_rate@10"``, ``"micro_set_P"``); see :func:`known_measures`.
    rel_level, all_queries, max_docs, judged_only, gain
        As above.
    per_query : bool, default=False
        Whether :meth:`RankingResult.to_trec_eval` prints each query (``-q``) by
        default; per-query values are always available.

    Returns
    -------
    RankingResult

    Examples
    --------
    Relevant documents at ranks 1 and 3 of 3, and one more never retrieved:
    AP = (1/1 + 2/3) / 3 = 0.5556.

    >>> qrels = Qrels.from_dict({"q": {"a": 1, "c": 1, "z": 1}})
    >>> run = Run.from_dict({"q": {"a": 0.9, "b": 0.8, "c": 0.7}})
    >>> res = evaluate(qrels, run, ["AP", "P@2", "RR"])
    >>> {k: round(v, 4) for k, v in res.mean().items()}
    {'AP': 0.5556, 'P@2': 0.5, 'RR': 1.0}
    """
    if not isinstance(qrels, Qrels):
        raise ParameterError(f"qrels must be a scorekit Qrels, got {type(qrels).__name__}")
    if not isinstance(run, Run):
        raise ParameterError(f"run must be a scorekit Run, got {type(run).__name__}")
    if isinstance(rel_level, bool) or not isinstance(rel_level, (int, np.integer)) or rel_level < 0:
        raise ParameterError(f"rel_level must be an integer >= 0, got {rel_level!r}")
    if max_docs is not None and (
        isinstance(max_docs, bool) or not isinstance(max_docs, (int, np.integer)) or max_docs < 0
    ):
        raise ParameterError(f"max_docs must be None or an integer >= 0, got {max_docs!r}")
    check_option(gain, "gain", ("linear", "exponential"))
    requests = parse_requests(measures)
    state = ranked_state(
        qrels,
        run,
        all_queries=bool(all_queries),
        max_docs=None if max_docs is None else int(max_docs),
        judged_only=bool(judged_only),
    )
    return compute(state, requests, rel_level=int(rel_level), gain=gain, per_query=per_query)


def compute(
    state: RankedState,
    requests: list[tuple[str, Measure]],
    *,
    rel_level: int = 1,
    gain: str = "linear",
    per_query: bool = False,
) -> RankingResult:
    """Run the kernels of the requested measures on a state and summarise them."""
    ctx = Context(state, rel_level, gain)
    values: dict[Measure, PerQuery] = {}
    summary: dict[Measure, object] = {}
    for _, m in requests:
        if m in values:
            continue
        kernel = m.definition.kernel
        v: PerQuery = np.zeros(ctx.n_q) if kernel is None else kernel(ctx, m.params)
        values[m] = v
        summary[m] = summarize(m, v, ctx.n_q, lambda mm: _micro(ctx, mm))
    return RankingResult(
        tuple(decode(state.qids)),
        tuple(k for k, _ in requests),
        tuple(m for _, m in requests),
        values,
        summary,
        state.tag,
        bool(per_query),
    )
