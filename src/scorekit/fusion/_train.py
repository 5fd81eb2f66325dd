"""Training steps of the probabilistic fusion methods (ranx's ``*_train`` functions).

Each reads hit lists: for every query of the qrels, the run's documents in
rank order marked 1 when judged relevant (grade >= 1). A qrels query the run
does not answer has an empty hit list (ranx pairs the lists by position and
needs both to hold the same queries); run queries without judgments are not
used. Everything is a bincount over the relevant rows' positions.
"""

from __future__ import annotations

import numpy as np

from .._errors import EmptyInputError
from .._typing import FloatArray, IntArray
from ..ranking._data import Qrels, Run
from ..ranking._evaluate import _join, _match_queries, evaluate
from ._methods import SEGFUSE_BOUNDS

__all__: list[str] = []

BAYES_CUTS = np.array([0, 5, 10, 15, 20, 30, 100, 200, 500, 1000])


def _hits(qrels: Qrels, run: Run) -> tuple[IntArray, IntArray, IntArray]:
    _, qcodes, rcodes = _match_queries(qrels, run, True)
    qmap = np.full(qrels.n_queries, -1, np.int64)
    qmap[qcodes] = rcodes
    rows, grades = _join(qrels, run, qmap)
    rows = rows[grades >= 1]
    c = run._coded
    seg_len = np.diff(c.starts)
    lengths = np.where(rcodes >= 0, seg_len[np.maximum(rcodes, 0)], 0)
    return run.rank[rows] - 1, seg_len[c.query[rows]], lengths


def _check(lengths: IntArray, what: str) -> None:
    if lengths.size == 0 or lengths.max() == 0:
        raise EmptyInputError(f"{what}: the training runs retrieve nothing for the qrels' queries")


def position_probs(qrels: Qrels, run: Run) -> FloatArray:
    """P(relevant | rank) over the queries whose list reaches that rank (PosFuse, SlideFuse)."""
    pos, _, lengths = _hits(qrels, run)
    _check(lengths, "posfuse/slidefuse training")
    top = int(lengths.max())
    hits = np.bincount(pos, minlength=top).astype(np.float64)
    reach = np.cumsum(np.bincount(lengths, minlength=top + 1)[::-1])[::-1][1:]
    out: FloatArray = hits / reach
    return out


def probfuse_probs(qrels: Qrels, run: Run, n_segments: int) -> FloatArray:
    """Mean over the qrels' queries of each segment's fraction of relevant documents."""
    pos, plen, lengths = _hits(qrels, run)
    _check(lengths, "probfuse training")
    size = -(-plen // n_segments)
    k = pos // size
    seg_len = np.minimum((k + 1) * size, plen) - k * size
    out: FloatArray = np.bincount(k, 1.0 / seg_len, minlength=n_segments) / lengths.size
    return out


def segfuse_probs(qrels: Qrels, run: Run) -> FloatArray:
    """SegFuse's segments of 5, 10, 20, ... documents: mean fraction relevant in each."""
    pos, _, lengths = _hits(qrels, run)
    _check(lengths, "segfuse training")
    n_seg = SEGFUSE_BOUNDS.size - 1
    keep = pos < SEGFUSE_BOUNDS[-1]
    k = np.searchsorted(SEGFUSE_BOUNDS, pos[keep], side="right") - 1
    size = np.diff(SEGFUSE_BOUNDS).astype(np.float64)
    out: FloatArray = np.bincount(k, 1.0 / size[k], minlength=n_seg) / lengths.size
    return out


def bayes_log_odds(qrels: Qrels, run: Run) -> FloatArray:
    """Log odds of relevance per rank band (0-5, 5-10, ..., 500-1000), floored as ranx does."""
    pos, _, lengths = _hits(qrels, run)
    _check(lengths, "bayesfuse training")
    keep = pos < BAYES_CUTS[-1]
    k = np.searchsorted(BAYES_CUTS, pos[keep], side="right") - 1
    size = np.diff(BAYES_CUTS).astype(np.float64)
    prec = np.bincount(k, minlength=size.size) / size / lengths.size
    prec = np.where(prec == 0, prec + 0.001, prec)
    neg = 1 - prec
    neg = np.where(neg == 0, neg + 0.001, neg)
    out: FloatArray = np.repeat(np.log(prec / neg), np.diff(BAYES_CUTS))
    return out


def map_score(qrels: Qrels, run: Run) -> float:
    """Mean average precision over the qrels' queries (a missing query scores 0), as ranx."""
    return float(evaluate(qrels, run, ["AP"], all_queries=True).mean()["AP"])


def train(method: str, qrels: Qrels, runs: list[Run], n_segments: int = 10) -> list[object]:
    """The trained parameter of ``method`` for every run (probabilities, log odds or MAP)."""
    if method == "probfuse":
        return [probfuse_probs(qrels, r, n_segments) for r in runs]
    if method == "segfuse":
        return [segfuse_probs(qrels, r) for r in runs]
    if method in ("slidefuse", "posfuse"):
        return [position_probs(qrels, r) for r in runs]
    if method == "bayesfuse":
        return [bayes_log_odds(qrels, r) for r in runs]
    return [map_score(qrels, r) for r in runs]  # mapfuse
