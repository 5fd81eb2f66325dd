"""``EvalOptions``: every option of :func:`~scorekit.evaluate` in one frozen, checked value.

The same value goes through :func:`~scorekit.evaluate`, the streaming
:class:`~scorekit.stream.RankingAccumulator`, :func:`scorekit.dask.evaluate`
and the command line (whose ``--ties``/``--compat``/... choices are read from
the ``Literal`` types here), so the options are spelled out once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, get_args

import numpy as np

from .._errors import ParameterError
from ._conventions import Conventions, resolve_conventions

__all__ = ["EvalOptions"]

Ties = Literal[
    "docid_desc", "docid_asc", "input_order", "average", "optimistic", "pessimistic", "ranx"
]
ApDenominator = Literal["relevant", "min_relevant_k", "hits"]
MissingQueries = Literal["ignore", "zero", "error"]
NdcgIdeal = Literal["judged", "candidates"]
GainName = Literal["linear", "exponential", "binary"]
Compat = Literal["trec_eval", "sklearn", "ranx", "torchmetrics", "spark", "recbole"]
IprecRule = Literal["trec_eval10", "trec_eval9", "textbook"]

_CHOICES: dict[str, Any] = {
    "ties": Ties,
    "ap_denominator": ApDenominator,
    "missing_queries": MissingQueries,
    "ndcg_ideal": NdcgIdeal,
    "gain": GainName,
    "compat": Compat,
    "iprec_rule": IprecRule,
}


def _integer(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


@dataclass(frozen=True, slots=True)
class EvalOptions:
    """The options of :func:`~scorekit.evaluate` (trec_eval's flags and the conventions).

    Checked when built: a bad value raises :class:`~scorekit.ParameterError`
    naming the option. ``None`` for a convention means the ``compat`` preset's
    choice (trec_eval's by default). A gain mapping is copied.

    Parameters
    ----------
    rel_level : int, default=1
        A document judged ``>= rel_level`` is relevant (trec_eval ``-l``).
    all_queries : bool, default=False
        Score the qrels queries the run misses as 0 (``-c``).
    max_docs : int or None
        Keep the first N documents of each query (``-M``).
    judged_only : bool, default=False
        Drop unjudged documents after ranking (``-J``).
    gain : {"linear", "exponential", "binary"}, mapping {grade: gain} or None
        nDCG's gain.
    per_query : bool, default=False
        ``to_trec_eval()`` prints each query (``-q``).
    ties, ap_denominator, missing_queries, ndcg_ideal, compat : str or None
        The conventions; see :func:`~scorekit.evaluate`.
    num_docs : int or None
        Number of documents in the collection (``-N``): the utility measure's
        non-relevant, non-retrieved term. ``None`` is trec_eval's 0.
    iprec_rule : {"trec_eval10", "trec_eval9", "textbook"} or None
        How interpolated precision finds its recall level (``docs/why-tools-disagree.md``).

    Examples
    --------
    >>> from scorekit.ranking import EvalOptions, Qrels, Run, evaluate
    >>> opts = EvalOptions(max_docs=1, ties="docid_asc")
    >>> q, r = Qrels.from_dict({"q": {"a": 1}}), Run.from_dict({"q": {"a": 1.0, "b": 1.0}})
    >>> evaluate(q, r, "P.1", options=opts).mean(), evaluate(q, r, "P.1").mean()
    ({'P_1': 1.0}, {'P_1': 0.0})
    >>> EvalOptions.choices("missing_queries")
    ('ignore', 'zero', 'error')
    """

    rel_level: int = 1
    all_queries: bool = False
    max_docs: int | None = None
    judged_only: bool = False
    gain: GainName | Mapping[int, float] | None = None
    per_query: bool = False
    ties: Ties | None = None
    ap_denominator: ApDenominator | None = None
    missing_queries: MissingQueries | None = None
    ndcg_ideal: NdcgIdeal | None = None
    compat: Compat | None = None
    num_docs: int | None = None
    iprec_rule: IprecRule | None = None

    def __post_init__(self) -> None:
        if not _integer(self.rel_level):
            raise ParameterError(f"rel_level must be an integer, got {self.rel_level!r}")
        for name in ("max_docs", "num_docs"):
            value = getattr(self, name)
            if value is not None and (not _integer(value) or value < 0):
                raise ParameterError(f"{name} must be None or an integer >= 0, got {value!r}")
        if isinstance(self.gain, Mapping):
            object.__setattr__(self, "gain", dict(self.gain))
        self.conventions()  # a bad convention raises now

    @staticmethod
    def choices(name: str) -> tuple[str, ...]:
        """The allowed values of a convention option (for a command line's choices)."""
        return tuple(get_args(_CHOICES[name]))

    @classmethod
    def build(cls, options: EvalOptions | None = None, /, **given: Any) -> EvalOptions:
        """``options`` (default: all defaults) with the keyword arguments that are not None.

        The keyword arguments of :func:`~scorekit.evaluate` and friends go
        through here; an unknown name raises.
        """
        if options is not None and not isinstance(options, EvalOptions):
            raise ParameterError(f"options must be an EvalOptions, got {type(options).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - names)
        if unknown:
            raise ParameterError(
                f"unknown option(s) {', '.join(map(repr, unknown))}; the options of "
                f"scorekit.evaluate are {', '.join(sorted(names))}"
            )
        changes = {k: v for k, v in given.items() if v is not None}
        base = cls() if options is None else options
        return replace(base, **changes) if changes else base

    def conventions(self) -> Conventions:
        """The resolved conventions (preset, explicit choices, ``num_docs``)."""
        conv = resolve_conventions(
            compat=self.compat,
            ties=self.ties,
            ap_denominator=self.ap_denominator,
            missing_queries=self.missing_queries,
            ndcg_ideal=self.ndcg_ideal,
            gain=self.gain,
            all_queries=bool(self.all_queries),
            iprec_rule=self.iprec_rule,
        )
        return replace(conv, num_docs=int(self.num_docs or 0))

    def to_dict(self) -> dict[str, Any]:
        """The options that differ from the defaults, JSON-safe (mapping keys as strings)."""
        out = {k: v for k, v in asdict(self).items() if v != getattr(_DEFAULT, k)}
        if isinstance(out.get("gain"), Mapping):
            out["gain"] = {str(int(k)): float(v) for k, v in out["gain"].items()}
        return out


_DEFAULT = EvalOptions()
