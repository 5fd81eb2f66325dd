"""``fuse``: combine several runs into one, with ranx's methods, normalisations and names."""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np

from .._errors import EmptyInputError, LengthMismatchError, NonFiniteError, ParameterError
from .._typing import BoolArray, FloatArray, IntArray
from ..ranking._data import Qrels, Run
from ..ranking._ids import desc_order_key
from ._align import Aligned, Stacked, align, stack
from ._methods import BY_NAME, METHODS, REQUIRED, Inputs, MethodDef, _sum_scores
from ._norm import ALIASES, NORMS, borda, normalize_rows
from ._output import fused_run
from ._train import train

__all__ = ["fuse", "fusion_methods"]


def fusion_methods() -> dict[str, str]:
    """The fusion methods by their ranx name, with a one-line summary.

    >>> fusion_methods()["rrf"]
    'reciprocal rank fusion, sum 1/(k + rank)'
    """
    return {m.name: m.summary for m in METHODS}


def resolve_method(method: str) -> MethodDef:
    """The method named ``method`` (ranx's spelling, a Comb* alias; case does not matter)."""
    if not isinstance(method, str):
        raise ParameterError(f"method must be a string, got {type(method).__name__}")
    key = method.strip().lower().replace("-", "_")
    if key in BY_NAME:
        return BY_NAME[key]
    close = difflib.get_close_matches(key, list(BY_NAME), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    names = ", ".join(m.name for m in METHODS)
    raise ParameterError(f"method={method!r} is not a fusion method{hint} (known: {names})")


def resolve_norm(norm: str | None) -> str:
    """The normalisation named ``norm`` (None means ``"none"``)."""
    if norm is None:
        return "none"
    key = str(norm).strip().lower()
    key = ALIASES.get(key, key)
    if key not in NORMS:
        close = difflib.get_close_matches(key, list(NORMS), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ParameterError(
            f"norm={norm!r} is not a normalisation{hint} (known: {', '.join(NORMS)})"
        )
    return key


def _check_runs(runs: Any) -> list[Run]:
    if isinstance(runs, Mapping):
        runs = list(runs.values())
    if isinstance(runs, Run) or not isinstance(runs, Sequence):
        raise ParameterError("runs must be a list (or dict) of scorekit.Run, one per system")
    runs = list(runs)
    bad = [i for i, r in enumerate(runs) if not isinstance(r, Run)]
    out: list[Run] = runs
    if bad:
        raise ParameterError(
            f"runs[{bad[0]}] is a {type(runs[bad[0]]).__name__}, not a scorekit.Run"
        )
    if len(runs) < 2:
        raise EmptyInputError(f"runs holds {len(runs)} run(s); fusion needs at least 2")
    for r in out:  # a run read from a file may list a document twice: fusion refuses it
        if r._dup_rows is not None:
            r._check_duplicates(np.arange(r.n_queries), None)
    return out


def _check_weights(weights: Any, m: MethodDef, n_runs: int) -> FloatArray:
    if weights is None:
        return np.ones(n_runs)
    if not m.weighted:
        raise ParameterError(
            f"method={m.name!r} takes no weights (weighted: wsum, wmnz, mixed, w_bordafuse, w_condorcet)"
        )
    w = np.asarray(weights, dtype=np.float64).ravel()
    if w.size != n_runs:
        raise LengthMismatchError(f"weights has {w.size} entries for {n_runs} runs")
    if not np.isfinite(w).all():
        raise NonFiniteError("weights contains NaN or infinite values")
    return w


def _number(
    params: Mapping[str, Any],
    name: str,
    low: float,
    high: float = math.inf,
    *,
    integer: bool = False,
) -> None:
    v = params[name]
    ok = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
    if ok and integer:
        ok = float(v) == int(v)
    if not ok or not (low <= float(v) <= high) or math.isnan(float(v)):
        what = "an integer" if integer else "a number"
        rng = f">= {low}" if high == math.inf else f"in [{low}, {high}]"
        raise ParameterError(f"{name}={v!r}: must be {what} {rng}")


def _check_params(m: MethodDef, given: Mapping[str, Any], n_runs: int) -> dict[str, Any]:
    unknown = [k for k in given if k not in m.params]
    if unknown:
        known = ", ".join(m.params) or "none"
        raise ParameterError(
            f"method={m.name!r} has no parameter {unknown[0]!r} (its parameters: {known})"
        )
    p = {k: v for k, v in m.params.items() if v is not REQUIRED}
    p.update(given)
    for name in ("k", "gamma"):
        if name in p:
            _number(p, name, 0.0)
    if "sigma" in p:
        _number(p, "sigma", 0.0, 1.0)
    if "phi" in p:
        _number(p, "phi", 0.0, 1.0)
    if "w" in p:
        _number(p, "w", 0, integer=True)
    if "n_segments" in p:
        _number(p, "n_segments", 1, integer=True)
    if m.trained and m.trained in p:
        table = p[m.trained]
        if not isinstance(table, Sequence) or len(table) != n_runs:
            raise LengthMismatchError(
                f"params[{m.trained!r}] must hold one entry per run ({n_runs})"
            )
    missing = [k for k, v in m.params.items() if v is REQUIRED and k not in p and k != m.trained]
    if missing:
        raise ParameterError(
            f"method={m.name!r} needs the parameter {missing[0]!r} (params={{{missing[0]!r}: ...}})"
        )
    return p


def _borda_ranks(al: Aligned, present: BoolArray, pos: IntArray) -> IntArray:
    """Ranks in the Borda-normalised runs: the unretrieved documents follow, by id descending."""
    order = np.lexsort([*desc_order_key(al.doc), al.query])
    q = al.query[order]
    qstart = np.searchsorted(q, np.arange(al.queries.size + 1))
    missing = (~present[order]).astype(np.int64)
    before = np.cumsum(missing, axis=0) - missing  # unretrieved rows before, all queries
    before -= before[qstart[q]]  # ... within the query
    n = al.run_lengths[:, q].T
    out = np.empty_like(pos)
    out[order] = np.where(present[order], pos[order], n + before)
    return out


def fuse(
    runs: Sequence[Run] | Mapping[str, Run],
    *,
    method: str = "wsum",
    norm: str | None = "min-max",
    weights: Sequence[float] | None = None,
    params: Mapping[str, Any] | None = None,
    qrels: Qrels | None = None,
    train_runs: Sequence[Run] | None = None,
    tag: str | None = None,
    **method_params: Any,
) -> Run:
    r"""Fuse several runs into one (ranx's ``fuse``: same methods, names, parameters, numbers).

    Each run is normalised per query (``norm``), its documents aligned by
    (query, document) across runs, and the method combines the per-run values,
    e.g. reciprocal rank fusion :math:`s(d) = \sum_r 1 / (k + \mathrm{rank}_r(d))`
    over the runs retrieving d, or CombMNZ :math:`s(d) = |R_d| \sum_{r \in R_d} s_r(d)`.
    Ranks are positions in each run's rank order (score descending, ties by
    document id descending, as everywhere in scorekit). A query missing from
    a run counts as an empty result list there. Methods, normalisations and
    conventions: ``docs/fusion.md``; :func:`fusion_methods` lists the methods.

    Parameters
    ----------
    runs : list or dict of Run
        At least two runs (a dict's values are used).
    method : str, default="wsum"
        A ranx method name (``"rrf"``, ``"mnz"``, ``"bordafuse"``, ...) or a
        Comb* alias (``"CombMNZ"``); case does not matter.
    norm : str or None, default="min-max"
        ``"none"`` (or None), ``"min-max"``, ``"max"``, ``"sum"``, ``"zmuv"``,
        ``"rank"`` or ``"borda"``.
    weights : sequence of float, default=None
        One per run, for the weighted methods (None: all 1).
    params : mapping, default=None
        ranx's ``params=`` (``{"k": 60}``, ``{"phi": 0.8}``, ``{"probs": ...}``).
    **method_params
        The same parameters as keyword arguments (``k=60``), merged into ``params``.
    qrels, train_runs : Qrels and list of Run, default=None
        Training data of the probabilistic methods (``train_runs`` defaults to
        ``runs``), used when ``params`` does not already hold the trained values.
    tag : str, default=None
        The fused run's tag (default: the method's name).

    Returns
    -------
    Run

    Examples
    --------
    >>> a = Run.from_dict({"q": {"d1": 3.0, "d2": 2.0, "d3": 1.0}})
    >>> b = Run.from_dict({"q": {"d3": 9.0, "d1": 8.0}})
    >>> fuse([a, b], method="rrf", k=60).to_dict()["q"]["d1"] == 1 / 61 + 1 / 62
    True
    """
    run_list = _check_runs(runs)
    m = resolve_method(method)
    nm = resolve_norm(norm)
    given = dict(params or {})
    given.update(method_params)
    if "weights" in given and m.weighted:
        if weights is not None:
            raise ParameterError("weights given twice (weights= and params['weights'])")
        weights = given.pop("weights")
    w = _check_weights(weights, m, len(run_list))
    p = _check_params(m, given, len(run_list))
    if m.trained and m.trained not in p:
        if qrels is None:
            raise ParameterError(
                f"method={m.name!r} is trained: pass qrels= (and train_runs=) or params[{m.trained!r}]"
            )
        if not isinstance(qrels, Qrels):
            raise ParameterError(f"qrels must be a scorekit.Qrels, got {type(qrels).__name__}")
        training = _check_runs(train_runs) if train_runs is not None else run_list
        if len(training) != len(run_list):
            raise LengthMismatchError(
                f"train_runs has {len(training)} runs for {len(run_list)} runs"
            )
        p[m.trained] = train(m.name, qrels, training, int(p.get("n_segments", 10)))
    return finish(prepare(run_list, nm), m, w, p, tag or m.name)


class _Matrices:
    """The kernels' (G, m) matrices of aligned runs, each built on first use and then kept.

    RRF reads ranks only, CombMNZ scores only; ``optimize_fusion`` reuses one
    instance for every setting it tries.
    """

    def __init__(self, st: Stacked, al: Aligned, norm: str) -> None:
        self._st, self._al, self._norm = st, al, norm

    @cached_property
    def present(self) -> BoolArray:
        if self._norm == "borda":
            return np.ones_like(self._al.present)
        return self._al.present

    @cached_property
    def pos(self) -> IntArray:
        al = self._al
        pos = al.ranks(0)  # absent: any valid rank (kernels mask them out)
        if self._norm == "borda":
            return _borda_ranks(al, al.present, pos)
        return pos

    @cached_property
    def length(self) -> IntArray:
        al = self._al
        if self._norm == "borda":
            out: IntArray = np.broadcast_to(al.candidates[:, None], al.present.shape)
            return out
        lengths: IntArray = al.run_lengths[:, al.query].T
        return lengths

    @cached_property
    def count(self) -> FloatArray:
        """Per document: the runs retrieving it (every run under ``borda``)."""
        if self._norm == "borda":
            return np.full(self._al.query.size, float(self._al.run_lengths.shape[0]))
        return self._al.count.astype(np.float64)

    def sum_by_rank(self, f: Callable[[FloatArray], FloatArray]) -> FloatArray | None:
        """(G,) per document: the sum over the runs retrieving it of ``f(0-based rank)``.

        None under ``borda``. ``f`` is evaluated once per rank, gathered per
        stacked row in the runs' own order, and the rows summed along the
        merge (:meth:`~._align.Aligned.group_sum`): no (G, m) matrix is built.
        The runs are added left to right, as the column sums add them.
        """
        if self._norm == "borda":
            return None
        longest = int(self._st.seg_len.max()) if self._st.seg_len.size else 0
        table = f(np.arange(longest, dtype=np.float64))  # f of every rank, once
        out = self._al.rank_sum(table)
        if out is not None:
            return out
        pos = self._st.positions()
        values = pos.view(np.float64)  # f(rank) written over the ranks, chunk by chunk
        for a in range(0, pos.size, 1 << 20):
            b = min(a + (1 << 20), pos.size)
            values[a:b] = np.take(table, pos[a:b])
        return _sum_scores(self._al.dense(values))

    @cached_property
    def score(self) -> FloatArray:
        if self._norm == "borda":
            return borda(self._al)
        return self._al.dense(normalize_rows(self._norm, self._st))


def prepare(runs: list[Run], norm: str) -> Inputs:
    """Stack, normalise and align the runs: everything a kernel reads but the parameters."""
    st = stack(runs)
    al = align(runs, st)
    return Inputs(_Matrices(st, al, norm), al.candidates, np.ones(len(runs)), {}, al)


def finish(base: Inputs, m: MethodDef, w: FloatArray, p: dict[str, Any], tag: str) -> Run:
    """Run the method's kernel on prepared inputs and build the fused run."""
    inputs = replace(base, weights=w, params=p)
    fused = m.kernel(inputs)
    return fused_run(base.aligned, fused, tag)
