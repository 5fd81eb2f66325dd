"""Ranking and retrieval: Qrels, Run, evaluate (trec_eval conventions), compare, rank correlation."""

from __future__ import annotations

from ._compare import *  # noqa: F403
from ._compare import __all__ as _compare_all
from ._correlation import *  # noqa: F403
from ._correlation import __all__ as _correlation_all
from ._data import Qrels, Run
from ._evaluate import evaluate
from ._measures import known_measures, measures
from ._options import EvalOptions
from ._parse import parse_measure
from ._result import RankingResult
from ._subtopics import SubtopicQrels

__all__ = [
    *_compare_all,
    *_correlation_all,
    "EvalOptions",
    "Qrels",
    "RankingResult",
    "Run",
    "SubtopicQrels",
    "evaluate",
    "known_measures",
    "measures",
    "parse_measure",
]
