"""The measure registry: one :class:`MeasureDef` per measure family, in trec_eval's order.

Every other part reads this table: the parser (names, parameter syntax,
aliases), the evaluator (kernels, how to summarise over queries), the text
output (order of lines, integer or float printing), the docs and the
known-names list of :class:`~scorekit.UnknownMeasureError`. The order is
trec_eval 10's measure table, which is also the order of its output lines;
scorekit's own measures come last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from . import _average as a
from . import _cascade as c
from . import _gains as g
from . import _kernels as k

__all__ = ["MEASURES", "Measure", "MeasureDef", "Param", "known_measures", "measures"]

ParamKind = Literal["none", "cut_int", "cut_float", "floats", "pairs", "named"]
Summary = Literal["mean", "sum", "count", "gm", "micro", "none", "tag"]
Kernel = Callable[[Any, tuple[Any, ...]], Any]
Micro = Callable[[Any, tuple[Any, ...]], float]
# under ties="average": an expectation kernel, "counts" (the plain kernel reads only
# expected counts), "whole_list" (exact while max_docs cuts no group), None: no closed form
Tied = Kernel | Literal["counts", "whole_list"] | None

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


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
_RJ = (REL, JUDGED_ONLY)


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
        return BY_NAME[self.family]

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


_OFFICIAL = frozenset({"official", "all_trec"})
_SET = frozenset({"set", "all_trec"})
_OFFICIAL_SET = frozenset({"official", "set", "all_trec"})
_NONE: frozenset[str] = frozenset()
_GRADE = Param(
    "<grade>", float, desc="'grade=gain' pairs: the gain of a grade (default: the grade)"
)
_P = Param("p", float, 0.9, "persistence: the chance of looking at the next document")

MEASURES: tuple[MeasureDef, ...] = (
    MeasureDef(
        "runid",
        None,
        "Run id: the tag of the run.",
        value="str",
        summary="tag",
        tied="counts",
        per_query=False,
        sets=_OFFICIAL_SET,
    ),
    MeasureDef(
        "num_q",
        k.num_q,
        "Number of queries evaluated.",
        value="int",
        summary="count",
        tied="counts",
        per_query=False,
        sets=_OFFICIAL_SET,
        aliases=("NumQ",),
    ),
    MeasureDef(
        "num_ret",
        k.num_ret,
        "Documents retrieved (summary: total).",
        params=(JUDGED_ONLY,),
        value="int",
        summary="sum",
        tied="counts",
        sets=_OFFICIAL_SET,
        aliases=("NumRet",),
    ),
    MeasureDef(
        "num_rel",
        k.num_rel,
        "Relevant documents (grade >= rel_level) judged (summary: total).",
        params=(REL,),
        value="int",
        summary="sum",
        tied="counts",
        sets=_OFFICIAL_SET,
        aliases=("NumRel",),
    ),
    MeasureDef(
        "num_rel_ret",
        k.num_rel_ret,
        "Relevant documents retrieved (summary: total).",
        params=_RJ,
        value="int",
        summary="sum",
        tied="counts",
        sets=_OFFICIAL_SET,
        aliases=("NumRelRet",),
    ),
    MeasureDef(
        "map",
        k.map,
        "Average precision: sum of precision at each relevant retrieved document / num_rel.",
        params=_RJ,
        tied=a.ap,
        sets=_OFFICIAL,
        aliases=("AP", "MAP"),
    ),
    MeasureDef(
        "gm_map",
        k.gm_map,
        "Geometric mean over queries of AP (floor 1e-5); per query: AP.",
        params=_RJ,
        summary="gm",
        tied=a.ap,
        per_query=False,
        sets=_OFFICIAL,
    ),
    MeasureDef(
        "Rprec",
        k.Rprec,
        "Precision after num_rel documents.",
        params=_RJ,
        tied="counts",
        sets=_OFFICIAL,
        aliases=("Rprec", "r-precision", "r_precision"),
    ),
    MeasureDef(
        "bpref",
        k.bpref,
        "Binary preference: relevant docs ranked above judged non-relevant ones.",
        params=(REL,),
        sets=_OFFICIAL,
        aliases=("Bpref",),
    ),
    MeasureDef(
        "recip_rank",
        k.recip_rank,
        "Reciprocal rank of the first relevant document.",
        params=_RJ,
        tied=a.rr,
        sets=_OFFICIAL,
        aliases=("RR", "MRR"),
    ),
    MeasureDef(
        "iprec_at_recall",
        k.iprec_at_recall,
        "Interpolated precision at recall levels.",
        syntax="cut_float",
        defaults=k.ELEVEN_POINTS,
        params=(Param("recall", float, desc="recall level in [0, 1]", required=True), *_RJ),
        at="recall",
        sets=_OFFICIAL,
        aliases=("IPrec", "iprec"),
    ),
    MeasureDef(
        "P",
        k.P,
        "Precision at cutoffs.",
        syntax="cut_int",
        defaults=_CUTS,
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied="counts",
        sets=_OFFICIAL,
        aliases=("P", "precision"),
    ),
    MeasureDef(
        "relstring",
        k.relstring,
        "Relevance codes of the first N documents as a string.",
        syntax="floats",
        defaults=(10.0,),
        arity=(1, 1),
        params=(Param("depth", int, 10, "documents shown"),),
        value="str",
        summary="none",
    ),
    MeasureDef(
        "recall",
        k.recall,
        "Recall at cutoffs.",
        syntax="cut_int",
        defaults=_CUTS,
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied="counts",
        aliases=("R", "recall"),
    ),
    MeasureDef(
        "infAP",
        k.infAP,
        "Inferred AP (Yilmaz and Aslam) for sampled judgments.",
        params=(REL,),
        aliases=("infAP",),
    ),
    MeasureDef(
        "gm_bpref",
        k.gm_bpref,
        "Geometric mean over queries of bpref (floor 1e-5); per query: bpref.",
        params=(REL,),
        summary="gm",
        per_query=False,
    ),
    MeasureDef(
        "Rprec_mult",
        k.Rprec_mult,
        "Precision at multiples of num_rel.",
        syntax="cut_float",
        defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        params=(Param("multiple", float, desc="multiple of num_rel", required=True), *_RJ),
        tied="counts",
    ),
    MeasureDef(
        "utility",
        k.utility,
        "Set utility a·relret + b·nonrelret + c·relnotret + d·nonrelnotret.",
        syntax="floats",
        defaults=(1.0, -1.0, 0.0, 0.0),
        arity=(4, 4),
        params=(Param("a,b,c,d", float, "1,-1,0,0", "the four coefficients"),),
        tied="counts",
        sets=_SET,
    ),
    MeasureDef(
        "11pt_avg",
        k.pt11_avg,
        "Interpolated precision averaged over recall levels.",
        syntax="floats",
        defaults=k.ELEVEN_POINTS,
        arity=(1, 10**6),
        params=(Param("levels", float, "0,.1,...,1", "recall levels averaged"),),
    ),
    MeasureDef(
        "binG",
        k.binG,
        "Binary G: relevant docs discounted by log2(2 + non-relevant above).",
        params=_RJ,
    ),
    MeasureDef(
        "G",
        g.G,
        "Normalized gain G (gains per grade, 'grade=gain' parameters).",
        syntax="pairs",
        params=(_GRADE,),
    ),
    MeasureDef(
        "dcg",
        g.dcg,
        "Discounted cumulative gain (all retrieved documents).",
        syntax="pairs",
        params=(_GRADE, JUDGED_ONLY, DCG),
        tied=a.dcg,
        sets=_NONE,
    ),
    MeasureDef(
        "ideal_dcg",
        g.ideal_dcg,
        "DCG of the ideal ranking of the judged documents.",
        syntax="pairs",
        params=(_GRADE, DCG),
        tied="counts",
        sets=_NONE,
    ),
    MeasureDef(
        "ndcg",
        g.ndcg,
        "Normalized DCG over all retrieved documents ('grade=gain' parameters).",
        syntax="pairs",
        params=(_GRADE, JUDGED_ONLY, DCG, GAINS),
        tied=a.ndcg,
        aliases=("nDCG", "NDCG"),
    ),
    MeasureDef(
        "ndcg_rel",
        g.ndcg_rel,
        "nDCG averaged over the relevant documents.",
        syntax="pairs",
        params=(_GRADE,),
    ),
    MeasureDef(
        "Rndcg",
        g.Rndcg,
        "nDCG averaged at the changes of ideal gain.",
        syntax="pairs",
        params=(_GRADE,),
    ),
    MeasureDef(
        "ndcg_cut",
        g.ndcg_cut,
        "nDCG at cutoffs (gain = grade).",
        syntax="cut_int",
        defaults=_CUTS,
        params=(CUTOFF_REQUIRED, JUDGED_ONLY, DCG, GAINS),
        at="cutoff",
        tied=a.ndcg_cut,
        aliases=("nDCG", "NDCG"),
        variants=(("ndcg_burges", (("dcg", "exp-log2"),)),),
    ),
    MeasureDef(
        "map_cut",
        k.map_cut,
        "Average precision of the top k, divided by num_rel.",
        syntax="cut_int",
        defaults=_CUTS,
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied=a.ap_cut,
        aliases=("AP", "MAP"),
    ),
    MeasureDef(
        "relative_P",
        k.relative_P,
        "Precision at cutoffs, relative to min(k, num_rel).",
        syntax="cut_int",
        defaults=_CUTS,
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied="counts",
    ),
    MeasureDef(
        "success",
        k.success,
        "1 if a relevant document is in the top k.",
        syntax="cut_int",
        defaults=(1, 5, 10),
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied=a.success,
        aliases=("Success",),
    ),
    MeasureDef(
        "set_P",
        k.set_P,
        "Precision of the retrieved set.",
        params=_RJ,
        tied="counts",
        sets=_SET,
        aliases=("SetP",),
    ),
    MeasureDef(
        "set_relative_P",
        k.set_relative_P,
        "Set precision relative to min(num_ret, num_rel).",
        params=_RJ,
        tied="counts",
        sets=_SET,
        aliases=("SetRelP",),
    ),
    MeasureDef(
        "set_recall",
        k.set_recall,
        "Recall of the retrieved set.",
        params=_RJ,
        tied="counts",
        sets=_SET,
        aliases=("SetR",),
    ),
    MeasureDef(
        "set_map",
        k.set_map,
        "Set precision times set recall.",
        params=_RJ,
        tied="whole_list",
        sets=_SET,
        aliases=("SetAP",),
    ),
    MeasureDef(
        "set_F",
        k.set_F,
        "Set F measure (beta parameter, default 1).",
        syntax="floats",
        defaults=(1.0,),
        arity=(1, 10**6),  # trec_eval reads the first value (set_F.1,2 is set_F.1)
        params=(Param("beta", float, 1.0, "weight of recall against precision"), *_RJ),
        tied="whole_list",
        sets=_SET,
        aliases=("SetF",),
    ),
    MeasureDef(
        "num_nonrel_judged_ret",
        k.num_nonrel_judged_ret,
        "Judged non-relevant documents retrieved (summary: total).",
        params=(REL,),
        value="int",
        summary="sum",
        tied="counts",
    ),
    MeasureDef(
        "yaap",
        k.yaap,
        "Yet another AP (Robertson 2012): log((1 + S) / (1 + num_rel - S)), S = AP's sum.",
        params=_RJ,
        sets=_NONE,
    ),
    MeasureDef(
        "rbp",
        g.rbp,
        "Rank-biased precision (persistence 'p=0.9', gains normalised to [0, 1]).",
        syntax="pairs",
        keys=("p",),
        params=(_P, _GRADE),
    ),
    MeasureDef(
        "rbp_resid",
        g.rbp_resid,
        "RBP residual from unjudged documents.",
        syntax="pairs",
        keys=("p",),
        params=(_P, _GRADE),
    ),
    MeasureDef(
        "unj",
        k.unj,
        "Fraction of unjudged documents in the top k.",
        syntax="cut_int",
        defaults=(5, 10, 20),
        params=(CUTOFF_REQUIRED,),
        at="cutoff",
        tied="counts",
    ),
    # scorekit's own measures
    MeasureDef(
        "RR_cut",
        k.recip_rank,
        "Reciprocal rank, 0 when the first relevant document is below rank k.",
        syntax="cut_int",
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied=a.rr,
        sets=_NONE,
        trec=False,
        aliases=("RR", "MRR"),
        fmt="RR@{}",
    ),
    MeasureDef(
        "hit_rate",
        k.hit_rate,
        "Relevant documents in the top k over relevant documents, totals over queries (micro).",
        syntax="cut_int",
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        summary="micro",
        micro=k.micro_hit_rate,
        tied="counts",
        sets=_NONE,
        trec=False,
        aliases=("hit_rate",),
        fmt="hit_rate@{}",
    ),
    MeasureDef(
        "micro_set_P",
        k.set_P,
        "Total relevant retrieved over total retrieved.",
        params=_RJ,
        summary="micro",
        micro=k.micro_set_P,
        tied="counts",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "micro_set_recall",
        k.set_recall,
        "Total relevant retrieved over total relevant.",
        params=_RJ,
        summary="micro",
        micro=k.micro_set_recall,
        tied="counts",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "micro_set_F",
        k.set_F,
        "Harmonic mean of micro_set_P and micro_set_recall.",
        params=_RJ,
        summary="micro",
        micro=k.micro_set_F,
        tied="whole_list",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "hits",
        k.hits,
        "ranx's hits@k: relevant documents in the top k (mean over queries).",
        syntax="cut_int",
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        tied="counts",
        sets=_NONE,
        trec=False,
        aliases=("hits",),
        fmt="hits@{}",
    ),
    MeasureDef(
        "f1",
        k.f1,
        "ranx's f1@k: harmonic mean of P@k and recall@k per query.",
        syntax="cut_int",
        params=(CUTOFF_REQUIRED, *_RJ),
        at="cutoff",
        sets=_NONE,
        trec=False,
        aliases=("f1",),
        fmt="f1@{}",
    ),
    MeasureDef(
        "Judged",
        k.judged,
        "Share of the top k that is in the qrels, k capped at the documents retrieved.",
        syntax="named",
        params=(CUTOFF,),
        at="cutoff",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "ERR",
        c.err,
        "Expected reciprocal rank (Chapelle et al. 2009) as gdeval.pl: R = (2^g - 1) / 2^max_grade.",
        syntax="named",
        params=(CUTOFF, Param("max_grade", int, 4, "highest grade (gdeval's MAX_JUDGMENT)")),
        at="cutoff",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "RBP",
        c.rbp,
        "Rank-biased precision (Moffat and Zobel 2008) with binary gains, as ir_measures.",
        syntax="named",
        params=(CUTOFF, Param("p", float, 0.8, "persistence"), REL),
        at="cutoff",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "RBP_resid",
        c.rbp_residual,
        "RBP's residual: the weight of the unjudged documents and of those below the depth.",
        syntax="named",
        params=(CUTOFF, Param("p", float, 0.8, "persistence")),
        at="cutoff",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "SDCG",
        c.sdcg,
        "Scaled DCG@k (cwl_eval): DCG@k of gains scaled to [0, 1] over the DCG of k ones.",
        syntax="named",
        params=(
            CUTOFF_REQUIRED,
            Param("min_rel", int, 0, "lowest grade (gain 0)"),
            Param("max_rel", int, desc="highest grade (gain 1)", required=True),
        ),
        at="cutoff",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "DCG",
        c.dcg_cut,
        "DCG@k: gain / log2(rank + 1) over the top k (ranx's dcg; dcg_burges: 2^g - 1 gains).",
        syntax="cut_int",
        params=(CUTOFF_REQUIRED, JUDGED_ONLY, DCG, GAINS),
        at="cutoff",
        sets=_NONE,
        trec=False,
        aliases=("DCG",),
        variants=(("dcg_burges", (("dcg", "exp-log2"),)),),
        fmt="DCG@{}",
    ),
    MeasureDef(
        "CG",
        c.cg_cut,
        "CG@k: the undiscounted sum of the gains of the top k.",
        syntax="cut_int",
        params=(CUTOFF_REQUIRED, JUDGED_ONLY, DCG, GAINS),
        at="cutoff",
        sets=_NONE,
        trec=False,
        aliases=("CG",),
        fmt="CG@{}",
    ),
)

BY_NAME: dict[str, MeasureDef] = {d.name: d for d in MEASURES}
ORDER: dict[str, int] = {d.name: i for i, d in enumerate(MEASURES)}
NICKNAMES = ("all_trec", "official", "set")


def known_measures() -> list[str]:
    """Every measure family, nickname and alias that :func:`~scorekit.evaluate` accepts.

    >>> "ndcg_cut" in known_measures() and "nDCG@k" in known_measures()
    True
    """
    names = [d.name for d in MEASURES if d.trec] + list(NICKNAMES)
    for d in MEASURES:
        for alias in d.aliases:
            names.append(f"{alias}@k" if d.at == "cutoff" else f"{alias}@x" if d.at else alias)
        if not d.aliases and not d.trec:
            names.append(d.name)
    return list(dict.fromkeys(names))


def measures() -> tuple[MeasureDef, ...]:
    """The measure table: one :class:`MeasureDef` row per family, with its declared parameters.

    Each row gives the family's trec_eval name, its other names (``aliases``,
    from ir_measures and ranx), a one-line ``doc`` and its parameters
    (:class:`Param`: name, type, default, description), as ``scorekit measures``
    prints them.

    >>> ndcg = next(d for d in measures() if d.name == "ndcg_cut")
    >>> [p.name for p in ndcg.params], ndcg.aliases[0]
    (['cutoff', 'judged_only', 'dcg', 'gains'], 'nDCG')
    """
    return MEASURES
