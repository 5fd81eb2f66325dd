"""The fusion methods: one table, one kernel each, on the aligned (documents x runs) matrix.

Every kernel sees ``Inputs``: the normalised scores, which run retrieved which
document, its 0-based rank there and the list lengths, as (G, m) matrices
(G = distinct (query, document) pairs, m = runs). A kernel is a handful of
column operations; none loops over queries or documents. The per-run sums
add the runs left to right, in the order ranx adds them, so equal fused
scores stay equal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray
from ._condorcet import copeland_scores

__all__: list[str] = []

REQUIRED = object()


class Matrices(Protocol):
    """The (G, m) matrices a kernel reads (built on first use by :func:`._fuse.prepare`)."""

    @property
    def score(self) -> FloatArray: ...  # normalised scores (0 where absent)
    @property
    def present(self) -> BoolArray: ...
    @property
    def pos(self) -> IntArray: ...  # 0-based rank (meaningless where absent)
    @property
    def length(self) -> IntArray: ...  # the run's number of documents for the document's query
    @property
    def count(self) -> FloatArray: ...  # (G,) runs counted as retrieving the document
    def sum_by_rank(self, f: Callable[[FloatArray], FloatArray]) -> FloatArray | None: ...


@dataclass(frozen=True, slots=True)
class Inputs:
    """What every kernel reads: the matrices (each built when a kernel first asks), weights, params."""

    data: Matrices
    candidates: IntArray  # (G,) documents of the query over all runs
    weights: FloatArray  # (m,)
    params: Mapping[str, Any]
    aligned: Any  # the Aligned table (query and document of each row)

    @property
    def score(self) -> FloatArray:
        """(G, m) normalised scores (0 where absent)."""
        return self.data.score

    @property
    def present(self) -> BoolArray:
        """(G, m) the run retrieved the document."""
        return self.data.present

    @property
    def pos(self) -> IntArray:
        """(G, m) 0-based rank (meaningless where absent)."""
        return self.data.pos

    @property
    def length(self) -> IntArray:
        """(G, m) the run's number of documents for the document's query."""
        return self.data.length


@dataclass(frozen=True, slots=True)
class MethodDef:
    """One fusion method: its ranx name, aliases, parameters and kernel."""

    name: str
    kernel: Callable[[Inputs], FloatArray]
    summary: str
    aliases: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)  # name -> default or REQUIRED
    weighted: bool = False
    trained: str | None = None  # the params key the training step produces


def _sum(x: Any, present: BoolArray) -> FloatArray:
    acc = np.zeros(x.shape[0])
    for r in range(x.shape[1]):  # the runs, left to right (as ranx adds them)
        acc = acc + np.where(present[:, r], x[:, r], 0.0)
    return acc


def _sum_scores(x: FloatArray) -> FloatArray:
    """:func:`_sum` of a matrix that is 0 where the run lacks the document (scores, RRF terms).

    (Adding 0.0 changes nothing: the same sums without the mask.)
    """
    acc = np.zeros(x.shape[0])
    for r in range(x.shape[1]):  # the runs, left to right (as ranx adds them)
        acc += x[:, r]
    return acc


def _count(inp: Inputs) -> FloatArray:
    return inp.data.count


def comb_sum(inp: Inputs) -> FloatArray:
    return _sum_scores(inp.score)


def comb_mnz(inp: Inputs) -> FloatArray:
    return _sum_scores(inp.score) * _count(inp)


def comb_anz(inp: Inputs) -> FloatArray:
    return _sum_scores(inp.score) / _count(inp)


def comb_gmnz(inp: Inputs) -> FloatArray:
    out: FloatArray = _sum_scores(inp.score) * _count(inp) ** float(inp.params["gamma"])
    return out


def comb_max(inp: Inputs) -> FloatArray:
    out: FloatArray = np.where(inp.present, inp.score, -1e9).max(axis=1)
    return out


def comb_min(inp: Inputs) -> FloatArray:
    out: FloatArray = np.where(inp.present, inp.score, 1e9).min(axis=1)
    return out


def comb_med(inp: Inputs) -> FloatArray:
    s = np.sort(np.where(inp.present, inp.score, np.inf), axis=1)
    c = inp.present.sum(axis=1)
    rows = np.arange(s.shape[0])
    out: FloatArray = (s[rows, (c - 1) // 2] + s[rows, c // 2]) / 2
    return out


def wsum(inp: Inputs) -> FloatArray:
    return _sum_scores(inp.score * inp.weights)


def wmnz(inp: Inputs) -> FloatArray:
    w = np.broadcast_to(inp.weights, inp.present.shape)
    return _sum(inp.score, inp.present) * _sum(w, inp.present)


def mixed(inp: Inputs) -> FloatArray:
    out: FloatArray = _sum_scores(inp.score * inp.weights) * np.sqrt(_count(inp))
    return out


def rrf(inp: Inputs) -> FloatArray:
    k = float(inp.params["k"])
    summed = inp.data.sum_by_rank(lambda pos: 1.0 / (k + pos + 1.0))
    if summed is not None:
        return summed
    return _sum(1.0 / (k + inp.pos + 1.0), inp.present)


def _isr(inp: Inputs) -> FloatArray:
    return _sum(1.0 / (inp.pos + 1.0) ** 2, inp.present)


def isr(inp: Inputs) -> FloatArray:
    return _isr(inp) * _count(inp)


def log_isr(inp: Inputs) -> FloatArray:
    return _isr(inp) * np.log(_count(inp))


def logn_isr(inp: Inputs) -> FloatArray:
    return _isr(inp) * np.log(_count(inp) + float(inp.params["sigma"]))


def rbc(inp: Inputs) -> FloatArray:
    phi = float(inp.params["phi"])
    return _sum((1.0 - phi) * phi ** inp.pos.astype(np.float64), inp.present)


def _borda_points(inp: Inputs) -> FloatArray:
    c = inp.candidates[:, None].astype(np.float64)
    out: FloatArray = np.where(inp.present, c - inp.pos, (c - inp.length + 1.0) / 2.0)
    return out


def bordafuse(inp: Inputs) -> FloatArray:
    return _sum(_borda_points(inp), np.ones_like(inp.present))


def w_bordafuse(inp: Inputs) -> FloatArray:
    return _sum(_borda_points(inp) * inp.weights, np.ones_like(inp.present))


def condorcet(inp: Inputs) -> FloatArray:
    return copeland_scores(inp.aligned, inp.present, inp.pos, np.ones(inp.present.shape[1]))


def w_condorcet(inp: Inputs) -> FloatArray:
    return copeland_scores(inp.aligned, inp.present, inp.pos, inp.weights)


def _by_position(table: Any, inp: Inputs, fill: float = 0.0) -> FloatArray:
    """``table[r][pos]`` for each run r (``fill`` past the table's end)."""
    out = np.full(inp.pos.shape, fill)
    for r, t in enumerate(table):  # the runs
        t = np.asarray(t, np.float64)
        p = inp.pos[:, r]
        ok = inp.present[:, r] & (p < t.size)
        out[ok, r] = t[p[ok]]
    return out


def probfuse(inp: Inputs) -> FloatArray:
    probs = inp.params["probs"]
    out = np.zeros(inp.pos.shape)
    for r, t in enumerate(probs):  # the runs
        t = np.asarray(t, np.float64)
        seg_size = -(-inp.length[:, r] // t.size)  # ceil(n / n_segments)
        k = inp.pos[:, r] // np.maximum(seg_size, 1)
        ok = inp.present[:, r] & (k < t.size)
        out[ok, r] = t[k[ok]] / (k[ok] + 1.0)
    return _sum(out, inp.present)


SEGFUSE_BOUNDS = np.array([0] + [10 * 2 ** (k - 1) - 5 for k in range(1, 11)])


def segfuse(inp: Inputs) -> FloatArray:
    k = np.searchsorted(SEGFUSE_BOUNDS, inp.pos, side="right") - 1
    table = [np.asarray(t, np.float64) for t in inp.params["probs"]]
    prob = np.zeros(inp.pos.shape)
    for r, t in enumerate(table):  # the runs
        ok = inp.present[:, r] & (k[:, r] < t.size)
        prob[ok, r] = t[k[ok, r]]
    return _sum(prob * (inp.score + 1.0), inp.present)


def slidefuse(inp: Inputs) -> FloatArray:
    w = int(inp.params["w"])
    out = np.zeros(inp.pos.shape)
    for r, t in enumerate(inp.params["probs"]):  # the runs
        t = np.asarray(t, np.float64)
        cum = np.r_[0.0, np.cumsum(t)]
        p = inp.pos[:, r]
        a = np.maximum(p - w, 0)
        b = np.minimum(p + w, inp.length[:, r] - 1)
        total = cum[np.minimum(b + 1, t.size)] - cum[np.minimum(a, t.size)]
        out[:, r] = total / np.maximum(b - a + 1, 1)  # absent documents: length 0, masked
    return _sum(out, inp.present)


def posfuse(inp: Inputs) -> FloatArray:
    return _sum(_by_position(inp.params["probs"], inp), inp.present)


def mapfuse(inp: Inputs) -> FloatArray:
    maps = np.asarray(inp.params["map_scores"], np.float64)
    return _sum(maps / (inp.pos + 1.0), inp.present)


MIN_ODD = float(np.log(0.001 / 0.999))


def bayesfuse(inp: Inputs) -> FloatArray:
    odds = _by_position(inp.params["log_odds"], inp, MIN_ODD)
    return _sum(np.where(inp.present, odds, MIN_ODD), np.ones_like(inp.present))


_TRAINED_WEIGHTS = {"weights": REQUIRED}

METHODS: tuple[MethodDef, ...] = (
    MethodDef("sum", comb_sum, "sum of the scores (CombSUM)", ("combsum",)),
    MethodDef("mnz", comb_mnz, "sum times the number of runs retrieving it", ("combmnz",)),
    MethodDef("max", comb_max, "largest score (CombMAX)", ("combmax",)),
    MethodDef("min", comb_min, "smallest score (CombMIN)", ("combmin",)),
    MethodDef("med", comb_med, "median score (CombMED)", ("combmed",)),
    MethodDef("anz", comb_anz, "mean score over the runs retrieving it", ("combanz",)),
    MethodDef("gmnz", comb_gmnz, "sum times count**gamma", ("combgmnz",), {"gamma": REQUIRED}),
    MethodDef("wsum", wsum, "weighted sum", ("combwsum", "weighted_sum"), weighted=True),
    MethodDef("wmnz", wmnz, "sum times the weights of the runs retrieving it", weighted=True),
    MethodDef("mixed", mixed, "weighted sum times sqrt(count)", weighted=True),
    MethodDef("rrf", rrf, "reciprocal rank fusion, sum 1/(k + rank)", (), {"k": 60}),
    MethodDef("isr", isr, "inverse square rank, sum 1/rank**2 times count"),
    MethodDef("log_isr", log_isr, "sum 1/rank**2 times log(count)"),
    MethodDef("logn_isr", logn_isr, "sum 1/rank**2 times log(count + sigma)", (), {"sigma": 0.01}),
    MethodDef("bordafuse", bordafuse, "Borda count", ("borda_fuse",)),
    MethodDef(
        "w_bordafuse", w_bordafuse, "weighted Borda count", ("weighted_bordafuse",), weighted=True
    ),
    MethodDef("condorcet", condorcet, "Condorcet fusion (pairwise majority)", ("condorcet_fuse",)),
    MethodDef(
        "w_condorcet", w_condorcet, "weighted Condorcet", ("weighted_condorcet",), weighted=True
    ),
    MethodDef(
        "rbc", rbc, "rank-biased centroids, sum (1-phi) phi**(rank-1)", (), {"phi": REQUIRED}
    ),
    MethodDef(
        "probfuse",
        probfuse,
        "ProbFuse (trained)",
        (),
        {"probs": REQUIRED, "n_segments": 10},
        trained="probs",
    ),
    MethodDef("segfuse", segfuse, "SegFuse (trained)", (), {"probs": REQUIRED}, trained="probs"),
    MethodDef(
        "slidefuse",
        slidefuse,
        "SlideFuse (trained)",
        (),
        {"probs": REQUIRED, "w": REQUIRED},
        trained="probs",
    ),
    MethodDef("posfuse", posfuse, "PosFuse (trained)", (), {"probs": REQUIRED}, trained="probs"),
    MethodDef(
        "mapfuse", mapfuse, "MAPFuse (trained)", (), {"map_scores": REQUIRED}, trained="map_scores"
    ),
    MethodDef(
        "bayesfuse",
        bayesfuse,
        "BayesFuse (trained)",
        (),
        {"log_odds": REQUIRED},
        trained="log_odds",
    ),
)

BY_NAME: dict[str, MethodDef] = {}
for _m in METHODS:
    for _n in (_m.name, *_m.aliases):
        BY_NAME[_n] = _m
