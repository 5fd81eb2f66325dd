"""``optimize_fusion``: ranx's grid searches of fusion weights and parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np

from .._errors import ParameterError
from ..ranking._data import Qrels, Run
from ..ranking._evaluate import evaluate
from ._fuse import _check_params, _check_runs, finish, prepare, resolve_method, resolve_norm
from ._methods import MethodDef
from ._train import train

__all__ = ["FusionOptimization", "optimize_fusion"]

# method -> (parameter, (min, max, step) defaults with ranx's keyword names)
_GRIDS: dict[str, tuple[str, dict[str, float]]] = {
    "gmnz": ("gamma", {"min_gamma": 0.01, "max_gamma": 1.0, "step": 0.01}),
    "logn_isr": ("sigma", {"min_sigma": 0.01, "max_sigma": 1.0, "step": 0.01}),
    "rbc": ("phi", {"min_phi": 0.01, "max_phi": 1.0, "step": 0.01}),
    "rrf": ("k", {"min_k": 10, "max_k": 100, "step": 10}),
    "probfuse": ("n_segments", {"min_n_segments": 1, "max_n_segments": 100}),
    "slidefuse": ("w", {"min_w": 1, "max_w": 100}),
}
_TRAIN_ONLY = ("bayesfuse", "mapfuse", "posfuse", "segfuse")


@dataclass(frozen=True, slots=True)
class FusionOptimization:
    """The best setting found and every setting tried, in the order tried."""

    method: str
    metric: str
    best_params: dict[str, Any]
    best_score: float
    tried: dict[str, float]  # ranx's report: str(setting) -> metric

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the fields."""
        return {
            "method": self.method,
            "metric": self.metric,
            "best_params": self.best_params,
            "best_score": self.best_score,
            "tried": dict(self.tried),
        }

    def to_pandas(self) -> Any:
        """The tried settings as a DataFrame (columns setting, metric value)."""
        from .._optional import require

        pd = require("pandas", "io")
        return pd.DataFrame({"setting": list(self.tried), self.metric: list(self.tried.values())})


def _decimals(step: float) -> int:
    return str(step)[::-1].find(".")


def weight_grid(step: float, n_runs: int) -> list[tuple[float, ...]]:
    """Ranx's grid: weights 0, step, ..., 1 (rounded) whose float sum is exactly 1.0."""
    d = _decimals(step)
    values = [float(round(x, d)) for x in np.arange(0, 1 + step, step)]
    return [seq for seq in product(*[values] * n_runs) if sum(seq) == 1.0]


def _value_grid(spec: dict[str, float], kw: dict[str, Any], name: str) -> list[Any]:
    lo = kw.pop(f"min_{name}", spec[f"min_{name}"])
    hi = kw.pop(f"max_{name}", spec[f"max_{name}"])
    if name in ("n_segments", "w"):
        return list(range(int(lo), int(hi) + 1))
    step = kw.pop("step", spec["step"])
    if name == "k":
        return list(range(int(lo), int(hi) + 1, int(step)))
    d = _decimals(step)
    return [float(round(x, d)) for x in np.arange(lo, hi + step, step)]


def optimize_fusion(
    qrels: Qrels,
    runs: Sequence[Run] | Mapping[str, Run],
    *,
    method: str = "wsum",
    norm: str | None = "min-max",
    metric: str = "ndcg@10",
    **grid: Any,
) -> FusionOptimization:
    """Grid-search a fusion method's weights or parameter on training judgments, as ranx does.

    The grids are ranx's: weights on ``0, step, ..., 1`` (``step=0.1``) whose
    sum is exactly 1.0 for wsum, wmnz, mixed, w_bordafuse and w_condorcet;
    ``k`` in 10, 20, ..., 100 for rrf; ``gamma``, ``sigma``, ``phi`` in
    0.01, 0.02, ..., 1.0 for gmnz, logn_isr, rbc; ``n_segments`` 1..100 for
    probfuse; ``w`` 1..100 for slidefuse (keywords ``min_k``, ``max_k``,
    ``step``, ... change them). Every setting is fused and scored with
    :func:`~scorekit.evaluate` (``metric`` averaged over the qrels' queries,
    a missing query scoring 0); the best is the **last** setting whose score
    is ``>=`` every earlier one (ranx's rule), so the search is deterministic.
    bayesfuse, mapfuse, posfuse and segfuse only train.

    Parameters
    ----------
    qrels : Qrels
    runs : list or dict of Run
    method, norm : str
        As in :func:`fuse`.
    metric : str, default="ndcg@10"
        Any measure :func:`~scorekit.evaluate` knows.
    **grid
        ranx's grid keywords (``step``, ``min_k``, ``max_k``, ...).

    Returns
    -------
    FusionOptimization
        ``best_params`` (pass as ``fuse(..., params=best_params)``), ``best_score``
        and ``tried``, the score of every setting.

    Examples
    --------
    >>> qrels = Qrels.from_dict({"q": {"d1": 1}})
    >>> a = Run.from_dict({"q": {"d1": 2.0, "d2": 1.0}})
    >>> b = Run.from_dict({"q": {"d2": 2.0, "d1": 1.0}})
    >>> optimize_fusion(qrels, [a, b], method="wsum", metric="RR", step=0.5).best_params
    {'weights': (1.0, 0.0)}
    """
    run_list = _check_runs(runs)
    if not isinstance(qrels, Qrels):
        raise ParameterError(f"qrels must be a scorekit.Qrels, got {type(qrels).__name__}")
    m = resolve_method(method)
    measure = ranx_metric(metric)
    base = prepare(run_list, resolve_norm(norm))
    kw = dict(grid)
    if m.name in _TRAIN_ONLY:
        _no_grid(kw, m)
        trained = {m.trained or "": train(m.name, qrels, run_list)}
        return FusionOptimization(m.name, metric, trained, float("nan"), {})
    if m.weighted:
        step = kw.pop("step", 0.1)
        _no_grid(kw, m)
        if not (isinstance(step, (int, float)) and 0 < step <= 1):
            raise ParameterError(f"step={step!r}: must be a number in (0, 1]")
        settings: list[dict[str, Any]] = [{"weights": w} for w in weight_grid(step, len(run_list))]
        labels = [str(s["weights"]) for s in settings]
    elif m.name in _GRIDS:
        name, spec = _GRIDS[m.name]
        values = _value_grid(spec, kw, name)
        _no_grid(kw, m)
        settings = [{name: v} for v in values]
        labels = [str(v) for v in values]
    else:
        raise ParameterError(f"method={m.name!r} has nothing to optimise")
    probs = None
    if m.name == "slidefuse":
        probs = train("slidefuse", qrels, run_list)
    best: dict[str, Any] = {}
    best_score = 0.0
    tried: dict[str, float] = {}
    for setting, label in zip(settings, labels, strict=True):  # the grid, as ranx walks it
        p = dict(setting)
        w = np.asarray(p.pop("weights"), np.float64) if "weights" in p else np.ones(len(run_list))
        if m.name == "probfuse":
            p = {"probs": train("probfuse", qrels, run_list, int(setting["n_segments"]))}
        elif probs is not None:
            p["probs"] = probs
        p = _check_params(m, p, len(run_list))
        fused = finish(base, m, w, p, m.name)
        score = next(iter(evaluate(qrels, fused, [measure], **_RANX_EVAL).mean().values()))
        tried[label] = score
        if score >= best_score:
            best_score = score
            best = _best(m, setting, p)
    return FusionOptimization(m.name, metric, best, best_score, tried)


_RANX_EVAL: dict[str, Any] = {"all_queries": True}
_RANX_NAMES = {"map": "AP", "mrr": "RR", "precision": "P", "recall": "R", "r-precision": "Rprec"}


def ranx_metric(metric: str) -> str:
    """Scorekit's name of a ranx metric (``map@100`` -> ``AP@100``, ``mrr`` -> ``RR``).

    >>> ranx_metric("map@100"), ranx_metric("ndcg@10"), ranx_metric("nDCG@10")
    ('AP@100', 'ndcg@10', 'nDCG@10')
    """
    if not isinstance(metric, str):
        raise ParameterError(f"metric must be a measure name, got {type(metric).__name__}")
    name, at, cut = metric.partition("@")
    return _RANX_NAMES.get(name.lower(), name) + at + cut


def _best(m: MethodDef, setting: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    if m.name == "probfuse":
        return {"probs": p["probs"]}
    if m.name == "slidefuse":
        return {"probs": p["probs"], "w": setting["w"]}
    return dict(setting)


def _no_grid(kw: dict[str, Any], m: MethodDef) -> None:
    if kw:
        raise ParameterError(f"optimize_fusion(method={m.name!r}) has no option {next(iter(kw))!r}")
