"""``MetricSet``: any mergeable catalog metrics at once, one accumulator per family state.

The Dask and Spark layers reduce one ``MetricSet`` per partition; a user can
stream one too. Which accumulator a metric needs and which method computes it
is read from the catalog (:mod:`scorekit._catalog`), so a metric added there
is reachable here with no change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._catalog import MetricInfo, select
from .._errors import ParameterError, ScorekitError, StateError
from .._typing import ArrayLike
from ._base import Accumulator

__all__ = ["MetricSet"]

#: which data arguments feed each accumulator
_ARGS = {
    "BinaryCurve": ("y_true", "y_score"),
    "ConfusionMatrix": ("y_true", "y_pred"),
    "RegressionMoments": ("y_true", "y_pred"),
    "RegressionLosses": ("y_true", "y_pred"),
    "Contingency": ("y_true", "y_pred"),
    "GroupedCurve": ("y_true", "y_score", "groups"),
    "Calibration": ("y_true", "y_score"),
}
_WEIGHTED = frozenset(
    {
        "BinaryCurve",
        "ConfusionMatrix",
        "RegressionMoments",
        "RegressionLosses",
        "GroupedCurve",
        "Calibration",
    }
)
_KIND = "MetricSet"

#: the bundle of the distributed layers' ``regression_metrics`` (catalog names)
REGRESSION_BUNDLE = ("mae", "mse", "rmse", "r2", "explained_variance")
_VERSION = 1


def _inputs(score: bool, pred: bool, groups: bool) -> dict[str, str | None]:
    """The input kinds a set of columns provides (as :func:`scorekit._catalog.select` takes)."""
    need_score, need_pred = "needs a score column", "needs a prediction column"
    s = None if score else need_score
    p = None if pred else need_pred
    g = None if score and groups else "needs a score and a group column"
    return {
        "scores": s,
        "probabilities": s,
        "decision": s,
        "labels": p,
        "regression": p,
        "clustering": p,
        "groups": g,
    }


class MetricSet:
    """Mergeable state of several catalog metrics, fed with one chunk of columns at a time.

    Parameters
    ----------
    metrics : sequence of str
        Catalog names of mergeable metrics (``"f1_macro"``, ``"roc_auc"``,
        ``"mae"``, ``"gauc"`` ...; :func:`scorekit.metrics` lists them with
        their accumulators); ``"all"``: every mergeable metric the columns allow.
    score, pred, groups : bool
        Which columns :meth:`update` will be given besides ``y_true``.
    pos_label : label, default=None
        The positive class of the binary metrics (``None``: labels 0/1).
    gauc_weights : {"impressions", "clicks", None}, default="impressions"
        How GAUC weights its groups.

    Examples
    --------
    >>> ms = MetricSet(["roc_auc", "log_loss"], score=True)
    >>> values = ms.update([0, 1], [0.2, 0.9]).update([1, 0], [0.6, 0.4]).values()
    >>> values["roc_auc"], round(values["log_loss"], 4)  # −(ln .8 + ln .9 + 2 ln .6) / 4
    (1.0, 0.3375)
    """

    def __init__(
        self,
        metrics: Sequence[str],
        *,
        score: bool = False,
        pred: bool = False,
        groups: bool = False,
        pos_label: Any = None,
        gauc_weights: str | None = "impressions",
    ) -> None:
        items = [n.strip() for m in ([metrics] if isinstance(metrics, str) else metrics)
                 for n in str(m).split(",")]  # fmt: skip
        inputs = _inputs(score, pred, groups)
        named = select([n for n in items if n.lower() != "all"], inputs=inputs)
        every = select(["all"], inputs=inputs) if any(n.lower() == "all" for n in items) else ()
        rows = tuple({r.name: r for r in (*named, *(r for r in every if r.mergeable))}.values())
        missing = [r.name for r in rows if not r.mergeable]
        if missing:
            raise ParameterError(
                f"metrics {', '.join(missing)}: not mergeable (no accumulator computes "
                "them from chunks); compute them on the collected columns"
            )
        self.rows: tuple[MetricInfo, ...] = rows
        self.score, self.pred, self.groups = score, pred, groups
        self.pos_label, self.gauc_weights = pos_label, gauc_weights
        self.accumulators: dict[str, Accumulator] = {}
        for r in rows:
            if r.accumulator is not None and r.accumulator not in self.accumulators:
                self.accumulators[r.accumulator] = r.new_accumulator(**self._options(r))

    def _options(self, row: MetricInfo) -> dict[str, Any]:
        if row.accumulator in ("BinaryCurve", "GroupedCurve") and self.pos_label is not None:
            return {"pos_label": self.pos_label} if row.accumulator == "BinaryCurve" else {}
        return {}

    def _params(self) -> dict[str, Any]:
        return {
            "metrics": [r.name for r in self.rows],
            "score": self.score,
            "pred": self.pred,
            "groups": self.groups,
            "pos_label": self.pos_label,
            "gauc_weights": self.gauc_weights,
        }

    def update(
        self,
        y_true: ArrayLike,
        y_score: ArrayLike | None = None,
        y_pred: ArrayLike | None = None,
        groups: ArrayLike | None = None,
        *,
        sample_weight: ArrayLike | None = None,
    ) -> MetricSet:
        """Add a chunk of rows to every accumulator; returns self."""
        given = {"y_true": y_true, "y_score": y_score, "y_pred": y_pred, "groups": groups}
        for name, acc in self.accumulators.items():
            args = [given[a] for a in _ARGS[name]]
            for a, value in zip(_ARGS[name], args, strict=True):
                if value is None:
                    raise ParameterError(f"{a} is needed by {name} (for {self._users(name)})")
            if name in _WEIGHTED and sample_weight is not None:
                acc.update(*args, sample_weight=sample_weight)  # type: ignore[attr-defined]
            else:
                acc.update(*args)  # type: ignore[attr-defined]
        return self

    def _users(self, accumulator: str) -> str:
        return ", ".join(r.name for r in self.rows if r.accumulator == accumulator)

    def merge(self, other: MetricSet) -> MetricSet:
        """Add the data seen by ``other`` (same metrics and options); returns self."""
        if not isinstance(other, MetricSet) or other._params() != self._params():
            raise ParameterError("cannot merge MetricSets of different metrics or options")
        for name, acc in self.accumulators.items():
            acc.merge(other.accumulators[name])
        return self

    def values(self, **options: Any) -> dict[str, Any]:
        """``{name: value}`` of every metric, from the merged states.

        ``options`` (``zero_division=0``, ``multioutput="raw_values"`` ...) go to
        every metric whose function takes them.
        """
        out = {}
        for r in self.rows:
            kwargs = {k: v for k, v in options.items() if r.accepts(k)}
            if r.task == "binary" and r.accepts("pos_label") and r.accumulator != "BinaryCurve":
                kwargs["pos_label"] = 1 if self.pos_label is None else self.pos_label
            if r.accumulator == "GroupedCurve":
                kwargs["weights"] = self.gauc_weights
            out[r.name] = r.from_state(self.accumulators[str(r.accumulator)], **kwargs)
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict; :meth:`from_dict` rebuilds the set."""
        return {
            "type": _KIND,
            "version": _VERSION,
            "params": self._params(),
            "states": {name: acc.to_dict() for name, acc in self.accumulators.items()},
        }

    @classmethod
    def from_dict(cls, d: Any) -> MetricSet:
        """Rebuild a set from :meth:`to_dict` output; every field is checked."""
        if not isinstance(d, dict) or d.get("type") != _KIND or d.get("version") != _VERSION:
            raise ParameterError(f"from_dict expects a dict made by {_KIND}.to_dict")
        params, states = d.get("params"), d.get("states")
        if not isinstance(params, dict) or not isinstance(states, dict):
            raise ParameterError(f"{_KIND} dict: 'params' and 'states' must be dicts")
        known = {"metrics", "score", "pred", "groups", "pos_label", "gauc_weights"}
        if set(params) != known:
            raise ParameterError(f"{_KIND} dict: 'params' must have the keys {sorted(known)}")
        try:
            out = cls(**params)
        except ScorekitError as exc:
            raise StateError(f"{_KIND}.params: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise StateError(f"{_KIND}.params are not valid: {exc}") from None
        if set(states) != set(out.accumulators):
            raise ParameterError(
                f"{_KIND} dict: 'states' must hold {sorted(out.accumulators)}, got {sorted(states)}"
            )
        for name, acc in out.accumulators.items():
            loaded = type(acc).from_dict(states[name])
            if loaded._params() != acc._params():
                raise ParameterError(f"{_KIND} dict: the {name} state has other options")
            out.accumulators[name] = loaded
        return out

    def __repr__(self) -> str:
        return f"MetricSet({[r.name for r in self.rows]})"
