"""The shapes of the measure table: :class:`Param`, :class:`MeasureDef` and a parsed :class:`Measure`.

The table itself (one row per family) is :data:`~._measures.MEASURES`; it
fills :data:`REGISTRY`, through which a :class:`Measure` finds its row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["REGISTRY", "Measure", "MeasureDef", "Param"]

ParamKind = Literal["none", "cut_int", "cut_float", "floats", "pairs", "named"]
Summary = Literal["mean", "sum", "count", "gm", "micro", "none", "tag"]
Kernel = Callable[[Any, tuple[Any, ...]], Any]
Micro = Callable[[Any, tuple[Any, ...]], float]
# under ties="average": an expectation kernel, "counts" (the plain kernel reads only
# expected counts), "whole_list" (exact while max_docs cuts no group), None: no closed form
Tied = Kernel | Literal["counts", "whole_list"] | None


@dataclass(frozen=True, slots=True)
class Param:
    """One declared parameter of a measure family (as ir_measures' ``SUPPORTED_PARAMS``).

    ``context`` parameters (``rel``, ``judged_only``, ``dcg``, ``gains``) change
    how the run is read for this measure only and never reach the kernel; the
    others are the kernel's parameters, in declaration order. ``default=None``
    with ``required=False`` means "not given" (e.g. no cutoff).
    """

    name: str
    type: type
    default: Any = None
    desc: str = ""
    required: bool = False
    choices: tuple[str, ...] = ()
    context: bool = False


CUTOFF = Param("cutoff", int, desc="ranking cutoff: only the top k documents count")
CUTOFF_REQUIRED = Param("cutoff", int, desc="ranking cutoff (required)", required=True)
REL = Param("rel", int, desc="minimum grade counted as relevant (default: rel_level)", context=True)
JUDGED_ONLY = Param(
    "judged_only",
    bool,
    False,
    "drop the retrieved documents that have no judgment (after ranking)",
    context=True,
)
DCG = Param(
    "dcg",
    str,
    "log2",
    "gains: 'log2' the grade, 'exp-log2' 2^grade - 1 (discount 1/log2(rank + 1) in both)",
    choices=("log2", "exp-log2"),
    context=True,
)
GAINS = Param("gains", dict, desc="gain of each grade, {grade: gain}", context=True)


@dataclass(frozen=True, slots=True)
class MeasureDef:
    """A measure family: names, declared parameters, kernel and output conventions.

    ``syntax`` is how trec_eval writes the parameters after the dot (``arity``:
    how many numbers the ``floats`` syntax takes; ``keys``: the named keys the
    ``pairs`` syntax accepts besides integer grades); ``params`` declares every
    parameter for ``Name(key=value)@at`` and ``scorekit measures``; ``at`` names
    the parameter set by ``@``. ``summary`` says how queries are combined
    (``micro``: by ``micro(ctx, params)``, a ratio of totals) and ``tied`` how
    the family is computed under ``ties="average"``.
    """

    name: str
    kernel: Kernel | None
    doc: str
    syntax: ParamKind = "none"
    defaults: tuple[Any, ...] = ()
    arity: tuple[int, int] = (0, 0)
    keys: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()
    at: str | None = None
    value: Literal["float", "int", "str"] = "float"
    summary: Summary = "mean"
    micro: Micro | None = None
    tied: Tied = None
    per_query: bool = True  # printed for each query by trec_eval -q
    sets: frozenset[str] = frozenset({"all_trec"})
    trec: bool = True  # a trec_eval measure (else scorekit's own)
    aliases: tuple[str, ...] = ()  # ir_measures / ranx names; the first one is printed
    variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()  # names fixing options
    fmt: str = ""  # output name of one instance, for scorekit's own families

    @property
    def alias(self) -> str | None:
        """The ir_measures-style name printed for instances with per-measure options."""
        return self.aliases[0] if self.aliases else None

    @property
    def kernel_params(self) -> tuple[Param, ...]:
        """The declared parameters the kernel receives (``named`` syntax), in order."""
        return tuple(p for p in self.params if not p.context)

    def param(self, name: str) -> Param | None:
        """The declared parameter called ``name`` (case-sensitive), if any."""
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True, slots=True, order=True)
class Measure:
    """One parsed measure: a family, its parameters, its per-measure options.

    ``params`` holds one cutoff for the cutoff families, the parameter values
    otherwise; ``text`` is the parameter text as written, which trec_eval
    appends to the name of families printed with their parameters;
    ``options`` are sorted ``(name, value)`` pairs of the context parameters
    (``rel``, ``judged_only``, ``dcg``, ``gains``) that differ from the default.

    >>> Measure("P", (10,)).name, Measure("iprec_at_recall", (0.5,)).name
    ('P_10', 'iprec_at_recall_0.50')
    >>> Measure("ndcg", (("1", 3.0),), "1=3").name
    'ndcg_1=3'
    >>> Measure("P", (10,), options=(("rel", 2),)).name
    'P(rel=2)@10'
    """

    family: str
    params: tuple[Any, ...] = ()
    text: str = ""
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def definition(self) -> MeasureDef:
        """The family's :class:`MeasureDef`."""
        return REGISTRY[self.family]

    @property
    def name(self) -> str:
        """The name trec_eval prints for this measure (scorekit's own spelling otherwise)."""
        d = self.definition
        if self.options or d.syntax == "named":
            return _call_name(self)
        if d.fmt and self.params:
            return d.fmt.format(_short(self.params[0]))
        if d.syntax == "cut_int" and self.params:
            return f"{d.name}_{int(self.params[0])}"
        if d.syntax == "cut_float" and self.params:
            return f"{d.name}_{float(self.params[0]):3.2f}"
        if self.text:
            return f"{d.name}_{self.text}"
        return d.name

    def __str__(self) -> str:
        return self.name


def _short(x: Any) -> str:
    return str(int(x)) if float(x) == int(x) else repr(float(x))


def show_value(x: Any) -> str:
    """A parameter value as the parser reads it back."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, tuple):  # gains
        return "{" + ",".join(f"{g}:{_short(v)}" for g, v in x) + "}"
    if isinstance(x, float):
        return _short(x)
    return str(x)


def _call_name(m: Measure) -> str:
    """``Name(key=value,...)@at``: the ir_measures-style name of a measure."""
    d = m.definition
    name = d.alias or d.name
    pairs: list[tuple[str, Any]] = []
    at: Any = None
    if d.syntax == "named":
        for p, v in zip(d.kernel_params, m.params, strict=True):
            if p.name == d.at and v is not None:
                at = v
            elif v is not None and v != p.default:
                pairs.append((p.name, v))
    elif d.syntax in ("cut_int", "cut_float") and m.params:
        at = m.params[0]
    elif m.text:
        name = f"{d.name}.{m.text}"
    pairs += list(m.options)
    inner = ",".join(f"{k}={show_value(v)}" for k, v in pairs)
    text = f"{name}({inner})" if inner else name
    return text if at is None else f"{text}@{show_value(at)}"


REGISTRY: dict[str, MeasureDef] = {}  # filled by ._measures
