"""Evaluation of the diversity measures: subtopic judgments joined to a ranked run.

:func:`~scorekit.evaluate` routes here when its ``qrels`` is a
:class:`~._subtopics.SubtopicQrels`: the run is joined and cut exactly as
for any other measure (:func:`~._evaluate.ranked_state` over the subtopic
qrels' distinct documents, whose "grade" is the document's index), the
diversity measures are computed by :mod:`._diversity_kernels`, and any other
measure requested with them reads the document-level qrels
(:meth:`~._subtopics.SubtopicQrels.to_qrels`: a document's highest grade).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._typing import AnyArray, FloatArray, IntArray
from . import _diversity_kernels as dk
from ._conventions import Conventions, check_gain_grades, resolve_conventions
from ._data import Qrels, Run
from ._diversity import split_requests
from ._ids import decode
from ._measures import Measure
from ._parse import parse_requests
from ._result import RankingResult, summarize
from ._state import UNJUDGED, RankedState
from ._subtopics import SubtopicQrels

__all__: list[str] = []

_NORMALISED = ("alpha_nDCG", "nERR_IA", "nNRBP")


def compute_values(
    pairs_for: Callable[[int], dk.Pairs],
    starts: IntArray,
    judged: IntArray,
    doc: IntArray,
    n_q: int,
    measures: list[Measure],
    rel_level: int,
) -> dict[Measure, FloatArray]:
    """Per-query values of the diversity measures; ``pairs_for(rel)`` builds the judgments.

    ``judged`` are the positions of the ranked rows in the subtopic qrels and
    ``doc`` their document indices.
    """
    out: dict[Measure, FloatArray] = {}
    for r in sorted({rel_level if m.params[3] is None else m.params[3] for m in measures}):
        group = [m for m in measures if (rel_level if m.params[3] is None else m.params[3]) == r]
        p = pairs_for(r)
        rp = dk.run_pairs(p, starts, judged, doc)
        for alpha in sorted({m.params[1] for m in group}):
            same = [m for m in group if m.params[1] == alpha]
            out.update(_family_values(p, rp, n_q, alpha, same))
    return out


def _safe_div(num: FloatArray, den: FloatArray) -> FloatArray:
    out: FloatArray = np.divide(num, den, out=np.zeros(num.shape), where=den > 0)
    return out


def _family_values(
    p: dk.Pairs, rp: dk.RunPairs, n_q: int, alpha: float, measures: list[Measure]
) -> dict[Measure, FloatArray]:
    """Values of the measures sharing one ``rel`` and ``alpha``."""
    s = p.n_sub.astype(np.float64)
    g = dk.row_gains(rp, alpha)
    cut_max = max([m.params[0] or 1 for m in measures] + [1])
    depth = None if any(m.family == "nNRBP" for m in measures) else cut_max
    ideal: list[FloatArray] = []
    if any(m.family in _NORMALISED for m in measures):
        ideal = dk.ideal_gains(p, n_q, alpha, depth)
    disc = dk.discount(cut_max)
    recip = 1.0 / np.arange(1, cut_max + 1, dtype=np.float64)
    out: dict[Measure, FloatArray] = {}
    for m in measures:
        k, beta = m.params[0], m.params[2]
        f = m.family
        if f in ("alpha_DCG", "alpha_nDCG", "ERR_IA", "nERR_IA"):
            w = disc if "DCG" in f else recip
            at_rank = w[np.minimum(rp.rank, cut_max) - 1]
            run = dk.upto(rp, g * at_rank, k, n_q)
            if k > 1:  # ndeval normalises ranks 2.. by the "ideal ideal" list
                run = _safe_div(run, dk.ideal_ideal(p.n_sub, alpha, w[:k])[:, k - 1])
            if f in ("alpha_DCG", "ERR_IA"):
                out[m] = np.where(p.n_sub > 0, run, 0.0)
                continue
            best = np.zeros(n_q)
            for i, gi in enumerate(ideal[:k]):  # sequential over ranks, as ndeval
                best = best + gi * w[i]
            if k > 1:
                best = _safe_div(best, dk.ideal_ideal(p.n_sub, alpha, w[:k])[:, k - 1])
            out[m] = _safe_div(run, best)
        elif f in ("NRBP", "nNRBP"):
            decay = dk.powers(beta, int(rp.rank.max()) if rp.rank.size else 1)
            factor = _safe_div(np.full(n_q, 1.0 - (1.0 - alpha) * beta), s)
            run = np.asarray(dk.upto(rp, g * decay[rp.rank - 1], None, n_q) * factor, np.float64)
            if f == "NRBP":
                out[m] = run
                continue
            best = np.zeros(n_q)
            d = dk.powers(beta, max(len(ideal), 1))
            for i, gi in enumerate(ideal):
                best = best + gi * d[i]
            out[m] = _safe_div(run, best * factor)
        elif f == "P_IA":
            hits = np.bincount(rp.row_query[rp.row[rp.rank[rp.row] <= k]], minlength=n_q)
            out[m] = _safe_div(hits.astype(np.float64), k * s)
        elif f == "StRecall":
            first = rp.row[(rp.seen == 0) & (rp.rank[rp.row] <= k)]
            covered = np.bincount(rp.row_query[first], minlength=n_q)
            out[m] = _safe_div(covered.astype(np.float64), s)
        else:  # AP_IA
            prec = (rp.seen + 1) / rp.rank[rp.row]
            per_key = np.bincount(rp.key, weights=prec, minlength=p.key_query.size)
            per_q = np.bincount(p.key_query, weights=per_key / p.key_rel, minlength=n_q)
            out[m] = _safe_div(per_q.astype(np.float64), s)
    return out


def subtopic_pairs(sq: SubtopicQrels, qcode: IntArray, rel: int) -> dk.Pairs:
    """The judgments with grade >= ``rel`` of the evaluated queries (sq codes ``qcode``)."""
    n_q, n_docs = int(qcode.size), sq.n_docs
    row_doc = np.repeat(np.arange(n_docs), np.diff(sq.doc_start))
    index = np.full(sq.n_queries, -1, np.int64)
    index[qcode] = np.arange(n_q)
    q = index[sq._coded.query]
    keep = (sq.relevance >= rel) & (q >= 0)
    d, q = row_doc[keep], q[keep]
    width = max(int(sq.subtopics.size), 1)
    packed = q * width + sq.subtopic[keep]
    if n_q * width <= 4 * packed.size + 1024:  # dense (query, subtopic) table: no sort
        count = np.bincount(packed, minlength=n_q * width)
        uniq = np.flatnonzero(count)
        code = np.cumsum(count > 0) - 1
        key, count = code[packed], count[uniq]
    else:
        uniq, key, count = np.unique(packed, return_inverse=True, return_counts=True)
    key_query = uniq // width
    doc_start = np.zeros(n_docs + 1, np.int64)  # d is sorted: offsets from the counts
    np.cumsum(np.bincount(d, minlength=n_docs), out=doc_start[1:])
    n_sub = np.bincount(key_query, minlength=n_q)
    return dk.Pairs(d, key.reshape(-1), doc_start, key_query, count, n_sub)


# tie policies that order documents by their grade (or average over orders): a
# document has one grade per subtopic here; every other policy is a fixed order
_GRADED_TIES = ("average", "optimistic", "pessimistic")


def evaluate_subtopics(
    qrels: SubtopicQrels, run: Run, measures: str | Iterable[str], **options: Any
) -> RankingResult:
    """:func:`~scorekit.evaluate` with subtopic qrels (same options; see the module docstring)."""
    from ._evaluate import evaluate, ranked_state

    div, other = split_requests(measures)
    if not div:
        return evaluate(qrels.to_qrels(), run, other, **options)
    if not isinstance(run, Run):
        raise ParameterError(f"run must be a scorekit Run, got {type(run).__name__}")
    rel_level = options.get("rel_level", 1)
    max_docs = options.get("max_docs")  # checked by EvalOptions in evaluate()
    conv = _conventions(options)
    if conv.ties in _GRADED_TIES:
        raise ParameterError(
            f"ties={conv.ties!r} is not defined for the diversity measures (a document has a "
            "grade per subtopic); use a fixed order: 'docid_desc' (ndeval -traditional), "
            "'docid_asc' (pyndeval) or 'input_order'"
        )
    doc_qrels = qrels.to_qrels()
    state = ranked_state(
        qrels._doc_table(np.arange(qrels.n_docs, dtype=np.int64)),
        run,
        max_docs=None if max_docs is None else int(max_docs),
        judged_only=bool(options.get("judged_only", False)),
        conventions=replace(conv, gain="linear", gain_map=()),  # the "grades" are indices
        rel_level=int(rel_level),
        level_qrels=doc_qrels,  # the judgment counts of the documents' grades
    )
    queries = qrels._coded.queries
    size = max(queries.dtype.itemsize, state.qids.dtype.itemsize)
    qcode = np.searchsorted(queries.astype(f"S{size}"), state.qids.astype(f"S{size}"))
    judged = np.flatnonzero(state.rel >= 0)  # the ranked rows in the qrels: few
    doc = state.rel[judged]
    values = compute_values(
        lambda r: subtopic_pairs(qrels, qcode, r),
        state.starts,
        judged,
        doc,
        state.n_queries,
        [m for _, m in div],
        int(rel_level),
    )
    n_q = state.n_queries
    keys = [k for k, _ in div]
    ms = [m for _, m in div]
    vals: dict[Measure, Any] = dict(values)
    summary: dict[Measure, Any] = {m: summarize(m, values[m], n_q) for m in ms}
    query_ids = None
    if other:
        rest = _others(doc_qrels, run, other, state, judged, doc, options)
        keys, ms = list(rest.keys) + keys, list(rest.measures) + ms
        vals.update(rest.values)
        summary.update(rest.summary)
        query_ids = rest.query_ids  # the same queries, decoded once
    return RankingResult(
        tuple(decode(state.qids)) if query_ids is None else query_ids,
        tuple(keys),
        tuple(ms),
        vals,
        summary,
        state.tag,
        bool(options.get("per_query", False)),
    )


def _conventions(options: dict[str, Any]) -> Conventions:
    names = ("compat", "ties", "ap_denominator", "missing_queries", "ndcg_ideal", "gain")
    return resolve_conventions(
        **{k: options.get(k) for k in names}, all_queries=bool(options.get("all_queries", False))
    )


def _others(
    doc_qrels: Qrels,
    run: Run,
    other: list[str],
    state: RankedState,
    judged: IntArray,
    doc: IntArray,
    options: dict[str, Any],
) -> RankingResult:
    """The non-diversity measures on the document-level qrels, reusing the joined state.

    The state's codes are indices of the subtopic qrels' documents; mapped to
    the documents' highest grades they are the state of ``to_qrels()`` (tie
    moves never read the codes under the policies allowed here). With
    ``judged_only`` a document whose grades are all negative must be dropped
    too, so that case is evaluated from scratch.
    """
    from ._evaluate import compute, evaluate

    if options.get("judged_only"):
        return evaluate(doc_qrels, run, other, **options)
    conv = _conventions(options)
    check_gain_grades(conv, doc_qrels.relevance)
    grade = doc_qrels.relevance
    top = int(grade.max()) if grade.size else 0
    # codes < 0 stay; the state is this call's own and its codes are read no more, so
    # they are overwritten in place when the type allows (no copy of every ranked row)
    rel = state.rel.astype(np.int32 if top < 1 << 31 else np.int64, copy=False)
    g = grade[doc]  # the judged rows' document indices -> their grades (negative: unjudged)
    rel[judged] = np.where(g >= 0, g, UNJUDGED)
    graded = replace(state, rel=rel)  # the state's levels are those of doc_qrels
    rel_level = int(options.get("rel_level", 1))
    return compute(
        graded,
        parse_requests(other),
        rel_level=rel_level,
        per_query=bool(options.get("per_query", False)),
        conventions=conv,
    )


def merge_parts(
    parts: Iterable[tuple[AnyArray, dict[str, FloatArray]] | None],
    div_keys: list[str],
    other: RankingResult | None,
    *,
    tag: str,
    per_query: bool,
) -> RankingResult:
    """One result from the per-query diversity values of disjoint query sets (Dask, Spark).

    Each part is (query ids as bytes, ``{key: per-query values}``) of the
    whole queries of one partition, or ``None``; the queries are put back in
    the order of :func:`evaluate_subtopics` (sorted id bytes) so the summaries
    add up in the same order, and ``other`` (the result of the other
    measures on the document-level qrels, same queries) comes first.
    """
    kept = [p for p in parts if p is not None]
    if not kept:
        raise EmptyInputError(
            "no query is in both the run and the qrels (pass all_queries=True to score the "
            "qrels queries the run misses as 0)"
        )
    size = max(p[0].dtype.itemsize for p in kept)
    qids = np.concatenate([p[0].astype(f"S{size}") for p in kept])
    order = np.argsort(qids, kind="stable")
    qids = qids[order]
    measures = [m for _, m in split_requests(div_keys)[0]]
    n_q = int(qids.size)
    values: dict[Measure, Any] = {}
    summary: dict[Measure, Any] = {}
    for key, m in zip(div_keys, measures, strict=True):
        v = np.concatenate([p[1][key] for p in kept])[order]
        values[m], summary[m] = v, summarize(m, v, n_q)
    keys, ms = list(div_keys), measures
    ids = tuple(decode(qids))
    if other is not None:
        if other.query_ids != ids:
            raise ParameterError(
                "the diversity and the other measures were computed on different queries; "
                "evaluate them in two calls"
            )
        keys, ms = list(other.keys) + keys, list(other.measures) + ms
        values.update(other.values)
        summary.update(other.summary)
    return RankingResult(ids, tuple(keys), tuple(ms), values, summary, tag, per_query)
