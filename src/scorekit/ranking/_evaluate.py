"""``evaluate``: join a run to its qrels, apply trec_eval's options, run the measure kernels.

Steps, each vectorised over all queries at once:

1. choose the queries (in both, or every qrels query with ``all_queries``);
2. join: hash each judged (query, document) of the evaluated queries with the
   run's query code and find it in the run's sorted (hash, row) index (built
   once with the run) through a bucket directory of the index's top bits —
   two lookups per judged pair, none per retrieved row; every hit is
   verified on the document's bytes;
3. cut each query's ranking to ``max_docs`` and, with ``judged_only``, drop the
   unjudged documents (after ranking, so tie order is kept);
4. the :class:`~._state.RankedState` goes to the kernels of each measure.

Ordering is not part of these steps: a :class:`~._data.Run` is stored in
rank order (:mod:`._order`). The conventions (:mod:`._conventions`) slot in
without touching the kernels: ``ties=`` moves the relevance codes within the
run's groups of tied rows between steps 2 and 3 (:mod:`._ties`; the Run keeps
how it reordered its input for ``"input_order"``), or for ``"average"`` marks
the groups in the state, whose expectation kernels are in :mod:`._average`;
``missing_queries=`` acts in step 1; ``ap_denominator=``, ``ndcg_ideal=`` and
``gain=`` are read by the kernels from :class:`~._state.Context`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._typing import AnyArray, IntArray
from ._average import AverageContext, check_supported
from ._average import kernel as average_kernel
from ._contexts import Contexts
from ._conventions import Conventions, check_gain_grades, resolve_conventions
from ._data import Qrels, Run
from ._docindex import layout, pair_keys
from ._ids import U64, decode, padded, words
from ._measures import Measure
from ._options import EvalOptions
from ._order import segments as _segments
from ._parse import parse_requests
from ._ranx_order import ranx_positions
from ._result import PerQuery, RankingResult, summarize
from ._state import NONPOOL, UNJUDGED, Context, RankedState, pair_counts
from ._subtopics import SubtopicQrels
from ._ties import arrange, group_ids

__all__ = ["EvalOptions", "evaluate"]


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
    Only the judgments of the evaluated queries are read (their rows are
    contiguous in the qrels); their keys are searched in the run's index in
    qrels order, query after query, so the searches stay near each other.
    """
    qc, rc = qrels._coded, run._coded
    codes = np.flatnonzero(qmap >= 0)
    length = qc.starts[codes + 1] - qc.starts[codes]
    cand = _segments(qc.starts[codes], length)
    rq = np.repeat(qmap[codes], length)
    width = rc.doc.dtype.itemsize
    docs = qc.doc[cand]
    if docs.dtype.itemsize > width:  # longer ids can match no run document
        fits = np.char.str_len(docs) <= width
        cand, docs, rq = cand[fits], docs[fits], rq[fits]
    docs = padded(docs.astype(f"S{width}"))
    n = rc.query.size
    low = np.uint64((1 << layout(rc.queries.size, n)[1]) - 1)
    index = run._index
    h = pair_keys(docs, rq, rc.queries.size, n)
    lo_i, count = _buckets(index, h)
    which = np.repeat(np.arange(cand.size), count)
    keys = index[_segments(lo_i, count)]
    hit = (keys & ~low) == h[which]  # the same (query, hash) above the row bits
    which = which[hit]
    rows = (keys[hit] & low).astype(np.int64)
    same_doc = (words(rc.doc[rows]) == words(docs[which])).all(axis=1)
    ok = (rc.query[rows] == rq[which]) & same_doc
    return rows[ok], qrels.relevance[cand[which[ok]]]


_BUCKET_BITS = 22  # at most 4M buckets (a 32 MB directory)
_BUCKET_CHUNK = 1 << 20  # index keys counted at a time (small temporaries)


def _buckets(index: U64, h: U64) -> tuple[IntArray, IntArray]:
    """For each key of ``h``, the first position and the count of the index keys sharing its top bits.

    The sorted ``index`` is cut into about as many buckets as keys by its top
    bits (at most ``2**_BUCKET_BITS`` buckets): a key's bucket holds every
    index key equal to it above the row bits and about one other on average
    (more past 4M rows), found with two lookups instead of a binary search.
    The directory (the first position of each bucket) is a running sum of
    the bucket counts; the index is sorted, so a chunk of it counts into a
    range of buckets of its own.
    """
    n = index.size
    bits = min(max(1, n.bit_length()), _BUCKET_BITS)
    shift = np.uint64(64 - bits)
    first = np.zeros((1 << bits) + 1, np.int64)
    for lo in range(0, n, _BUCKET_CHUNK):
        b = (index[lo : lo + _BUCKET_CHUNK] >> shift).view(np.int64)
        base = int(b[0])
        count = np.bincount(b - base)
        first[base + 1 : base + 1 + count.size] += count
    np.cumsum(first, out=first)
    b = (h >> shift).view(np.int64)
    lo_i = first[b]
    return lo_i, first[b + 1] - lo_i


def ranked_state(
    qrels: Qrels,
    run: Run,
    *,
    all_queries: bool = False,
    max_docs: int | None = None,
    judged_only: bool = False,
    conventions: Conventions | None = None,
    rel_level: int = 1,
    level_qrels: Qrels | None = None,
) -> RankedState:
    """The :class:`~._state.RankedState` of a run against qrels under the given options.

    ``conventions`` gives the tie policy and what to do with qrels queries the
    run misses (``all_queries=True`` is ``missing_queries="zero"``);
    ``rel_level`` orders ties for ``"optimistic"``/``"pessimistic"``.
    ``level_qrels`` (same query vocabulary as ``qrels``) gives the judgment
    counts per grade instead of ``qrels`` (the subtopic path joins on document
    indices but counts the documents' grades).
    """
    conv = Conventions() if conventions is None else conventions
    check_gain_grades(conv, qrels.relevance)
    zero = all_queries or conv.missing_queries == "zero"
    if conv.missing_queries == "error":
        check_missing(qrels, run)
    average = conv.ties == "average"
    if average and max_docs is not None and (judged_only or conv.ndcg_ideal == "candidates"):
        other = "judged_only" if judged_only else "ndcg_ideal='candidates'"
        raise ParameterError(
            f"ties='average' with max_docs cannot be combined with {other}: which documents "
            "are kept would depend on the order of the tied ones"
        )
    qids, qrels_code, run_code = _match_queries(qrels, run, zero)
    if qids.size == 0:
        raise EmptyInputError(
            "no query is in both the run and the qrels (pass all_queries=True to score the "
            "qrels queries the run misses as 0)"
        )
    run._check_duplicates(run_code[run_code >= 0], max_docs)
    rc = run._coded
    qmap = np.full(qrels.n_queries, -1, np.int64)
    qmap[qrels_code[run_code >= 0]] = run_code[run_code >= 0]
    rows, grade = _join(qrels, run, qmap)
    top = int(grade.max()) if grade.size else 0
    rel = np.full(rc.query.size, NONPOOL, np.int32 if top < 1 << 31 else np.int64)
    rel[rows] = np.where(grade >= 0, grade, UNJUDGED)
    group = None
    if average:
        group = group_ids(rc.query, run.score)
    elif conv.ties != "docid_desc":
        source = run._input_positions() if conv.ties in ("input_order", "ranx") else None
        if conv.ties == "ranx" and source is not None:
            source = ranx_positions(rc.query, run.score, source)
        rel = arrange(rel, rc.query, run.score, conv, rel_level, source)

    in_run = run_code >= 0
    seg_start = np.where(in_run, rc.starts[:-1][np.maximum(run_code, 0)], 0)
    seg_len = np.where(in_run, np.diff(rc.starts)[np.maximum(run_code, 0)], 0)
    if max_docs is not None:
        if group is not None and max_docs > 0:  # keep the group that max_docs cuts whole
            over = np.flatnonzero(seg_len > max_docs)
            cut_group = group[seg_start[over] + max_docs - 1]
            seg_len[over] = np.searchsorted(group, cut_group, side="right") - seg_start[over]
        else:
            seg_len = np.minimum(seg_len, max_docs)
    whole = seg_len.sum() == rel.size and (run_code == np.arange(run_code.size)).all()
    if not whole:
        at = _segments(seg_start, seg_len)
        rel = rel[at]
        group = None if group is None else group[at]
    if judged_only:
        keep = rel >= 0
        owner = np.repeat(np.arange(qids.size), seg_len)
        seg_len = np.bincount(owner[keep], minlength=qids.size)
        rel = rel[keep]
        group = None if group is None else group[keep]
    starts = np.zeros(qids.size + 1, np.int64)
    np.cumsum(seg_len, out=starts[1:])

    tie_start = depth = None
    if group is not None:
        tie_start = np.ones(group.size, bool)
        np.not_equal(group[1:], group[:-1], out=tie_start[1:])
        if max_docs is not None:
            depth = np.full(qids.size, max_docs, np.int64)
    levels = _levels(qrels if level_qrels is None else level_qrels, qrels_code)
    return RankedState(qids, in_run, starts, rel, *levels, run.tag, tie_start, depth)


def check_missing(qrels: Qrels, run: Run) -> None:
    """``missing_queries="error"``: raise naming the qrels queries the run has no documents for."""
    qids, _, run_code = _match_queries(qrels, run, True)
    missing = qids[run_code < 0]
    if missing.size:
        shown = ", ".join(repr(q) for q in decode(missing[:5]))
        more = f" and {missing.size - 5} more" if missing.size > 5 else ""
        raise EmptyInputError(
            f"the run has no documents for {missing.size} qrels quer"
            f"{'y' if missing.size == 1 else 'ies'}: {shown}{more} (missing_queries='error'; "
            "pass missing_queries='zero' to score them 0 or 'ignore' to leave them out)"
        )


def _levels(qrels: Qrels, qrels_code: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """(evaluated query index, grade, count) of the judged documents, grades >= 0.

    Reads only the judgments of the evaluated queries (``qrels_code``, increasing).
    """
    qc = qrels._coded
    length = qc.starts[qrels_code + 1] - qc.starts[qrels_code]
    grade = qrels.relevance[_segments(qc.starts[qrels_code], length)]
    q = np.repeat(np.arange(qrels_code.size), length)
    keep = grade >= 0
    return pair_counts(q[keep], grade[keep].astype(np.int64))


def evaluate(
    qrels: Qrels | SubtopicQrels,
    run: Run,
    measures: str | Iterable[str],
    *,
    options: EvalOptions | None = None,
    rel_level: int | None = None,
    all_queries: bool | None = None,
    max_docs: int | None = None,
    judged_only: bool | None = None,
    gain: str | Mapping[int, float] | None = None,
    per_query: bool | None = None,
    ties: str | None = None,
    ap_denominator: str | None = None,
    missing_queries: str | None = None,
    ndcg_ideal: str | None = None,
    compat: str | None = None,
    num_docs: int | None = None,
    iprec_rule: str | None = None,
) -> RankingResult:
    """Evaluate a run against relevance judgments; trec_eval's conventions unless told otherwise.

    By default documents are ranked by score descending, ties by document id
    descending (byte order); the run file's rank column is ignored. A document
    judged ``>= rel_level`` is relevant. The queries evaluated are those in both
    run and qrels; ``max_docs`` keeps the first N documents of each query (``-M``);
    ``judged_only`` drops unjudged documents after ranking (``-J``); nDCG's
    discount is 1/log2(rank + 1). Every convention where tools differ is an
    option (``None``: the ``compat`` preset's choice, trec_eval's by default):

    - ``ties``: ``"docid_desc"`` (trec_eval), ``"docid_asc"``, ``"input_order"``
      (rows as given), ``"average"`` (the expectation over every order of tied
      documents, in closed form; measures without one raise), ``"optimistic"``
      or ``"pessimistic"`` (relevant, then higher-gain documents first / last);
    - ``ap_denominator``: ``"relevant"`` (R), ``"min_relevant_k"`` (min(R, k):
      Spark, RecBole) or ``"hits"`` (relevant documents in the top k: torchmetrics);
    - ``missing_queries``: qrels queries without documents in the run are left
      out (``"ignore"``), score 0 (``"zero"``, trec_eval ``-c``, also
      ``all_queries=True``) or raise (``"error"``);
    - ``ndcg_ideal``: the ideal ranking of all judged documents (``"judged"``) or
      of the run's own candidates (``"candidates"``: scikit-learn's dense rows);
    - ``gain``: ``"linear"`` (the grade), ``"exponential"`` (2^grade - 1),
      ``"binary"`` (1 if relevant) or a mapping {grade: gain} covering every grade;
    - ``iprec_rule``: how iprec_at_recall (and 11pt_avg) turns a recall level
      into a rank: ``"trec_eval10"``, ``"trec_eval9"`` (pytrec_eval, ir_measures)
      or ``"textbook"`` (the highest precision at any recall >= r);
    - ``compat``: ``"trec_eval"``, ``"sklearn"``, ``"ranx"``, ``"torchmetrics"``,
      ``"spark"`` or ``"recbole"`` sets them as that tool does (sources in
      ``docs/why-tools-disagree.md``).

    ``measures``: trec_eval names and syntax (``"map"``, ``"P.5,10"``,
    ``"all_trec"``) or aliases (``"nDCG@10"``, ``"AP@10"``, ``"RR"``); see
    :func:`known_measures`. With a :class:`~scorekit.SubtopicQrels` as ``qrels``, the
    diversity measures of ndeval (``"alpha_nDCG@20"``, ``"ERR_IA@20"``,
    ``"NRBP"``, ...; ``docs/diversity.md``) are computed too, and the others
    read the document-level qrels. ``per_query`` makes ``to_trec_eval()`` print each
    query (``-q``); per-query values are always kept. ``num_docs`` is the
    collection size of the utility measure (``-N``).

    Every option can come as one :class:`~scorekit.ranking.EvalOptions`
    (``options=``); keyword arguments given as well override its fields.
    Defaults: ``rel_level=1``, ``max_docs=None`` (all), the flags off.

    Parameters
    ----------
    qrels : Qrels
        The relevance judgments.
    run : Run
        The ranked documents with their scores.
    measures : str or sequence of str
        Measure names (trec_eval, ir_measures or ranx syntax).
    options : EvalOptions, default=None
        All the options at once; keyword arguments given as well override its fields.
    rel_level : int, default=1
        A document judged >= rel_level is relevant (trec_eval ``-l``).
    all_queries : bool, default=False
        Score qrels queries the run misses as 0 (trec_eval ``-c``).
    max_docs : int, default=None
        Keep the first N documents of each query (trec_eval ``-M``).
    judged_only : bool, default=False
        Drop unjudged documents after ranking (trec_eval ``-J``).
    gain : {"linear", "exponential", "binary"} or mapping, default=None
        nDCG's gain.
    per_query : bool, default=False
        ``to_trec_eval()`` prints each query (``-q``).
    ties : str, default=None
        Order of tied documents (see ``docs/why-tools-disagree.md``).
    ap_denominator : str, default=None
        What AP@k divides by.
    missing_queries : str, default=None
        Qrels queries the run misses: ignore, zero or error.
    ndcg_ideal : str, default=None
        nDCG's ideal ranking: judged documents or the run's candidates.
    compat : str, default=None
        A tool's conventions at once (trec_eval, sklearn, ranx, ...).
    num_docs : int, default=None
        Documents in the collection (trec_eval ``-N``).
    iprec_rule : str, default=None
        Interpolated precision's rule (trec_eval10, trec_eval9, textbook).

    Examples
    --------
    >>> def show(qrels, run, m, **kw):
    ...     res = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), m, **kw)
    ...     return {k: round(v, 4) for k, v in res.mean().items()}
    >>> show({"q": {"a": 1, "c": 1, "z": 1}}, {"q": {"a": 0.9, "b": 0.8, "c": 0.7}}, "AP")
    {'AP': 0.5556}

    Ties: d1 is relevant, all three score 0.5 (trec_eval ranks d3, d2, d1):

    >>> q, r = {"q": {"d1": 1, "d2": 0, "d3": 0}}, {"q": {"d1": 0.5, "d2": 0.5, "d3": 0.5}}
    >>> [show(q, r, "nDCG", ties=t)["nDCG"] for t in ("docid_desc", "docid_asc", "average")]
    [0.5, 1.0, 0.7103]

    AP@3 of ``rel, x, rel, y, rel`` with R = 4: (1/1 + 2/3) / 4, / min(4, 3), / 2:

    >>> q = {"q": {"a": 1, "c": 1, "e": 1, "z": 1}}
    >>> r = {"q": {"a": 5.0, "x": 4.0, "c": 3.0, "y": 2.0, "e": 1.0}}
    >>> [show(q, r, "AP@3", ap_denominator=d)["AP@3"] for d in ("relevant", "min_relevant_k", "hits")]
    [0.4167, 0.5556, 0.8333]

    A qrels query the run misses, and a relevant document it never retrieved:

    >>> q, r = {"q1": {"a": 1, "b": 2}, "q2": {"c": 1}}, {"q1": {"a": 1.0}}
    >>> show(q, r, "nDCG"), show(q, r, "nDCG", missing_queries="zero", ndcg_ideal="candidates")
    ({'nDCG': 0.3801}, {'nDCG': 0.5})
    >>> show(q, r, "nDCG", gain={0: 0, 1: 1, 2: 3}), show(q, r, "nDCG", compat="sklearn")
    ({'nDCG': 0.2754}, {'nDCG': 1.0})
    """
    if not isinstance(qrels, (Qrels, SubtopicQrels)):
        raise ParameterError(f"qrels must be a scorekit Qrels, got {type(qrels).__name__}")
    if not isinstance(run, Run):
        raise ParameterError(f"run must be a scorekit Run, got {type(run).__name__}")
    opts = EvalOptions.build(
        options,
        rel_level=rel_level,
        all_queries=all_queries,
        max_docs=max_docs,
        judged_only=judged_only,
        gain=gain,
        per_query=per_query,
        ties=ties,
        ap_denominator=ap_denominator,
        missing_queries=missing_queries,
        ndcg_ideal=ndcg_ideal,
        compat=compat,
        num_docs=num_docs,
        iprec_rule=iprec_rule,
    )
    if isinstance(qrels, SubtopicQrels):  # diversity measures (ndeval): _diversity_eval.py
        from ._diversity_eval import evaluate_subtopics

        given = {f.name: getattr(opts, f.name) for f in dataclasses.fields(opts)}
        return evaluate_subtopics(qrels, run, measures, **given)
    conv = opts.conventions()
    requests = parse_requests(measures, conv.renames)
    state = ranked_state(
        qrels,
        run,
        max_docs=None if opts.max_docs is None else int(opts.max_docs),
        judged_only=bool(opts.judged_only),
        conventions=conv,
        rel_level=int(opts.rel_level),
    )
    return compute(
        state, requests, rel_level=int(opts.rel_level), per_query=opts.per_query, conventions=conv
    )


def _context(state: RankedState, rel_level: int, conv: Conventions) -> Context:
    if state.tie_start is not None:
        return AverageContext(state, rel_level, conv)
    return Context(state, rel_level, conv.gain, conv)


def compute(
    state: RankedState,
    requests: list[tuple[str, Measure]],
    *,
    rel_level: int = 1,
    gain: str = "linear",
    per_query: bool = False,
    conventions: Conventions | None = None,
) -> RankingResult:
    """Run the kernels of the requested measures on a state and summarise them.

    ``conventions`` (default: trec_eval's with ``gain``) must be those the state
    was built with; a state built with ``ties="average"`` runs the expectation
    kernels of :mod:`._average`.
    """
    conv = resolve_conventions(gain=gain) if conventions is None else conventions
    if state.tie_start is not None:
        check_supported(requests, state)
    contexts = Contexts(state, rel_level, conv, _context)
    values: dict[Measure, PerQuery] = {}
    summary: dict[Measure, object] = {}
    for _, m in requests:
        if m in values:
            continue
        ctx = contexts.get(m.options)
        kernel = average_kernel(m) if state.tie_start is not None else m.definition.kernel
        v: PerQuery = np.zeros(ctx.n_q) if kernel is None else kernel(ctx, m.params)
        values[m] = v
        summary[m] = summarize(m, v, ctx.n_q, ctx)
    return RankingResult(
        tuple(decode(state.qids)),
        tuple(k for k, _ in requests),
        tuple(m for _, m in requests),
        values,
        summary,
        state.tag,
        bool(per_query),
    )
