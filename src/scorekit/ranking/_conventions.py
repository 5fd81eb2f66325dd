"""Conventions of :func:`~scorekit.evaluate`: tie policy, AP denominator, missing queries, nDCG.

Tools disagree on the same run because each one fixes these choices its own
way; scorekit makes each an option, with trec_eval's choice as the default,
and ``compat=`` presets set them together as another tool does. Explicit
options win over the preset. The sources of each preset:

``trec_eval``
    trec_eval 10: ties by document id descending (``form_res_rels.c`` sorts by
    score, then ``strcmp`` of the docnos, both descending); AP divided by the
    relevant count; ``-c`` for missing queries; nDCG gain = the grade at every
    level (``-l`` is ignored by ``ndcg``), ideal ranking from all judgments.
``sklearn``
    ``sklearn.metrics.ndcg_score`` on dense rows: ties averaged
    (``_tie_averaged_dcg``, McSherry & Najork 2008), gain = ``y_true``, ideal
    from the row itself (the candidates); only the candidates' labels exist, so
    AP divides by the relevant candidates found (``"hits"``). With
    ``ignore_ties=True`` the order is ``np.argsort(y_score)[::-1]``: give the
    rows in that order with ``ties="input_order"``.
``ranx``
    ``ranx.evaluate``: a ``ranx.Run`` sorts each query with numba's argsort
    of the negated scores, which keeps insertion order among equal scores for up to
    15 documents (input order; plain dicts reverse it); ``ndcg`` drops the
    judgments below ``rel_lvl`` from DCG and ideal alike (``clean_qrels``);
    ``map`` divides by the relevant count; ``evaluate`` asserts that qrels and
    run have the same queries (``"error"``; ``make_comparable=True`` is ``"zero"``).
``torchmetrics``
    ``retrieval_average_precision(top_k=k)``: mean precision over the relevant
    documents in the top k (``"hits"``); ``retrieval_normalized_dcg``: sklearn's
    tie-averaged DCG, ideal from the given candidates' targets.
``spark``
    ``pyspark.mllib.evaluation.RankingMetrics``: predictions are ordered arrays
    (input order); ``meanAveragePrecisionAt(k)`` divides by ``min(|labels|, k)``;
    ``ndcgAt(k)`` uses binary gains and an ideal of ``min(|labels|, k)`` ones; a
    query with an empty prediction array counts 0 (``"zero"``).
``recbole``
    ``recbole.evaluator.metrics``: ``MAP@K`` divides by ``min(|R(u)|, K)``;
    ``NDCG@K`` has binary gains and an ideal of ``min(|R(u)|, K)`` ones; every
    test user is scored (``"zero"``); the ranked list is used as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._errors import ParameterError
from .._typing import FloatArray, IntArray
from .._validation import check_option

__all__ = ["PRESETS", "Conventions", "resolve_conventions"]

TIES = (
    "docid_desc",
    "docid_asc",
    "input_order",
    "average",
    "optimistic",
    "pessimistic",
    "ranx",
)
AP_DENOMINATORS = ("relevant", "min_relevant_k", "hits")
MISSING_QUERIES = ("ignore", "zero", "error")
NDCG_IDEALS = ("judged", "candidates")
GAINS = ("linear", "exponential", "binary")
IPREC_RULES = ("trec_eval10", "trec_eval9", "textbook")


@dataclass(frozen=True, slots=True)
class Conventions:
    """The resolved conventions of one evaluation (trec_eval's by default).

    ``gain`` is ``"linear"``, ``"exponential"``, ``"binary"`` (1 for a relevant
    grade) or ``"mapping"`` with ``gain_map`` holding sorted ``(grade, gain)``
    pairs; ``gain_from_level`` gives grades below ``rel_level`` gain 0 (ranx).
    ``iprec_rule`` turns a recall level x into the number of relevant documents
    k whose interpolated precision iprec_at_recall reports: ``"trec_eval10"``
    lround(x R), ``"trec_eval9"`` (pytrec_eval, ir_measures) trunc(x R + 0.9),
    ``"textbook"`` ceil(x R), the highest precision at any recall >= x.
    ``renames`` maps a family to the one the tool means by its name
    (``hit_rate@k`` is ``success@k`` in ranx, torchmetrics and RecBole).
    """

    ties: str = "docid_desc"
    ap_denominator: str = "relevant"
    missing_queries: str = "ignore"
    ndcg_ideal: str = "judged"
    gain: str = "linear"
    gain_map: tuple[tuple[int, float], ...] = ()
    gain_from_level: bool = False
    num_docs: int = 0  # documents in the collection (trec_eval -N; utility only)
    iprec_rule: str = "trec_eval10"
    renames: tuple[tuple[str, str], ...] = ()  # a family the tool's name means instead

    def grade_gain(self, grade: IntArray, rel_level: int) -> FloatArray:
        """NDCG gain of each relevance code (codes < 0, i.e. unjudged, gain 0).

        >>> Conventions(gain="binary").grade_gain(np.array([-1, 0, 1, 3]), 1)
        array([0., 0., 1., 1.])
        """
        g: FloatArray = np.maximum(grade, 0).astype(np.float64)
        if self.gain == "binary":
            g = (grade >= rel_level).astype(np.float64)
        elif self.gain == "mapping":
            keys = np.array([k for k, _ in self.gain_map], np.int64)
            values = np.array([v for _, v in self.gain_map], np.float64)
            at = np.clip(np.searchsorted(keys, grade), 0, keys.size - 1)
            g = np.where((grade >= 0) & (keys[at] == grade), values[at], 0.0)
        if self.gain_from_level:
            g = np.where(grade >= rel_level, g, 0.0)
        if self.gain == "exponential":
            g = np.exp2(g) - 1.0
        return g


# ranx, torchmetrics (RetrievalHitRate) and RecBole (Hit@K): share of queries with a hit
_HIT_RATE = (("hit_rate", "success"),)

PRESETS: dict[str, Conventions] = {
    "trec_eval": Conventions(),
    "sklearn": Conventions(ties="average", ap_denominator="hits", ndcg_ideal="candidates"),
    "ranx": Conventions(
        ties="ranx", missing_queries="error", gain_from_level=True, renames=_HIT_RATE
    ),
    "torchmetrics": Conventions(
        ties="average", ap_denominator="hits", ndcg_ideal="candidates", renames=_HIT_RATE
    ),
    "spark": Conventions(
        ties="input_order", ap_denominator="min_relevant_k", missing_queries="zero", gain="binary"
    ),
    "recbole": Conventions(
        ties="input_order",
        ap_denominator="min_relevant_k",
        missing_queries="zero",
        gain="binary",
        renames=_HIT_RATE,
    ),
}


def _gain_pairs(gain: Mapping[Any, Any]) -> tuple[tuple[int, float], ...]:
    pairs: dict[int, float] = {}
    for key, value in gain.items():
        try:
            grade = int(key)
            if isinstance(key, (bool, float)) or str(grade) != str(key).strip():
                raise ValueError
            if not -(1 << 63) <= grade < 1 << 63:
                raise ParameterError(f"gain mapping key {key!r} is out of range (64-bit grades)")
        except (TypeError, ValueError):
            raise ParameterError(f"gain mapping keys must be integer grades, got {key!r}") from None
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise ParameterError(f"gain[{grade}] must be a number, got {value!r}") from None
        if not np.isfinite(v):
            raise ParameterError(f"gain[{grade}] must be finite, got {value!r}")
        pairs[grade] = v
    if not pairs:
        raise ParameterError("gain mapping is empty; give a gain for every judged grade")
    return tuple(sorted(pairs.items()))


def resolve_conventions(
    *,
    compat: str | None = None,
    ties: str | None = None,
    ap_denominator: str | None = None,
    missing_queries: str | None = None,
    ndcg_ideal: str | None = None,
    gain: str | Mapping[Any, Any] | None = None,
    all_queries: bool = False,
    iprec_rule: str | None = None,
) -> Conventions:
    """The conventions of a preset (default trec_eval's) with the explicit options applied.

    ``all_queries=True`` is ``missing_queries="zero"`` (and conflicts with another value).

    >>> resolve_conventions(compat="spark", ties="average").ap_denominator
    'min_relevant_k'
    >>> resolve_conventions(gain={0: 0, 1: 1, 2: 3}).gain_map
    ((0, 0.0), (1, 1.0), (2, 3.0))
    """
    if compat is not None:
        check_option(compat, "compat", tuple(PRESETS))
    conv = PRESETS[compat or "trec_eval"]
    changes: dict[str, Any] = {}
    for name, value, allowed in (
        ("ties", ties, TIES),
        ("ap_denominator", ap_denominator, AP_DENOMINATORS),
        ("missing_queries", missing_queries, MISSING_QUERIES),
        ("ndcg_ideal", ndcg_ideal, NDCG_IDEALS),
        ("iprec_rule", iprec_rule, IPREC_RULES),
    ):
        if value is not None:
            check_option(value, name, allowed)
            changes[name] = value
    if all_queries:
        if missing_queries not in (None, "zero"):
            raise ParameterError(
                f"all_queries=True means missing_queries='zero', but missing_queries="
                f"{missing_queries!r} was given; pass one of them"
            )
        changes["missing_queries"] = "zero"
    if gain is not None:
        if isinstance(gain, Mapping):
            changes["gain"], changes["gain_map"] = "mapping", _gain_pairs(gain)
        elif isinstance(gain, str) and gain in GAINS:
            changes["gain"], changes["gain_map"] = gain, ()
        else:
            raise ParameterError(
                f"gain={gain!r} is not one of 'linear', 'exponential', 'binary' or a mapping "
                "{grade: gain}"
            )
    return replace(conv, **changes) if changes else conv


def check_gain_grades(conv: Conventions, grades: IntArray) -> None:
    """Raise if a judged grade (>= 0) has no entry in a gain mapping."""
    if conv.gain != "mapping":
        return
    known = np.array([k for k, _ in conv.gain_map], np.int64)
    present = np.unique(grades[grades >= 0])
    missing = np.setdiff1d(present, known)
    if missing.size:
        shown = ", ".join(str(int(v)) for v in missing[:8])
        raise ParameterError(
            f"gain mapping has no entry for grade(s) {shown} found in the qrels; "
            "give a gain for every judged grade"
        )
