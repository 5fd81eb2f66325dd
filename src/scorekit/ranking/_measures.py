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

from . import _gains as g
from . import _kernels as k

__all__ = ["MEASURES", "Measure", "MeasureDef", "known_measures"]

ParamKind = Literal["none", "cut_int", "cut_float", "floats", "pairs"]
Summary = Literal["mean", "sum", "count", "gm", "micro", "none", "tag"]
Kernel = Callable[[Any, tuple[Any, ...]], Any]

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass(frozen=True, slots=True)
class MeasureDef:
    """A measure family: its trec_eval name, parameters, kernel and output conventions."""

    name: str
    kernel: Kernel | None
    doc: str
    params: ParamKind = "none"
    defaults: tuple[Any, ...] = ()
    value: Literal["float", "int", "str"] = "float"
    summary: Summary = "mean"
    per_query: bool = True  # printed for each query by trec_eval -q
    sets: frozenset[str] = frozenset({"all_trec"})
    trec: bool = True  # a trec_eval measure (else scorekit's own)
    alias: str | None = None  # ir_measures-style name
    alias_at: Literal["cutoff", "recall"] | None = None  # what "@x" of the alias sets
    fmt: str = ""  # output name of one instance, for scorekit's own families


@dataclass(frozen=True, slots=True, order=True)
class Measure:
    """One parsed measure: a family and its parameters (``str(m)`` is its output name).

    ``params`` holds one cutoff for the cutoff families, the parameter values
    otherwise; ``text`` is the parameter text as written, which trec_eval
    appends to the name of families printed with their parameters.

    >>> Measure("P", (10,)).name, Measure("iprec_at_recall", (0.5,)).name
    ('P_10', 'iprec_at_recall_0.50')
    >>> Measure("ndcg", (("1", 3.0),), "1=3").name
    'ndcg_1=3'
    """

    family: str
    params: tuple[Any, ...] = ()
    text: str = ""

    @property
    def definition(self) -> MeasureDef:
        """The family's :class:`MeasureDef`."""
        return BY_NAME[self.family]

    @property
    def name(self) -> str:
        """The name trec_eval prints for this measure (scorekit's own spelling otherwise)."""
        d = self.definition
        if d.fmt and self.params:
            return d.fmt.format(_short(self.params[0]))
        if d.params == "cut_int" and self.params:
            return f"{d.name}_{int(self.params[0])}"
        if d.params == "cut_float" and self.params:
            return f"{d.name}_{float(self.params[0]):3.2f}"
        if self.text:
            return f"{d.name}_{self.text}"
        return d.name

    def __str__(self) -> str:
        return self.name


def _short(x: Any) -> str:
    return str(int(x)) if float(x) == int(x) else repr(float(x))


_OFFICIAL = frozenset({"official", "all_trec"})
_SET = frozenset({"set", "all_trec"})
_OFFICIAL_SET = frozenset({"official", "set", "all_trec"})
_NONE: frozenset[str] = frozenset()

MEASURES: tuple[MeasureDef, ...] = (
    MeasureDef(
        "runid",
        None,
        "Run id: the tag of the run.",
        value="str",
        summary="tag",
        per_query=False,
        sets=_OFFICIAL_SET,
    ),
    MeasureDef(
        "num_q",
        k.num_q,
        "Number of queries evaluated.",
        value="int",
        summary="count",
        per_query=False,
        sets=_OFFICIAL_SET,
        alias="NumQ",
    ),
    MeasureDef(
        "num_ret",
        k.num_ret,
        "Documents retrieved (summary: total).",
        value="int",
        summary="sum",
        sets=_OFFICIAL_SET,
        alias="NumRet",
    ),
    MeasureDef(
        "num_rel",
        k.num_rel,
        "Relevant documents (grade >= rel_level) judged (summary: total).",
        value="int",
        summary="sum",
        sets=_OFFICIAL_SET,
        alias="NumRel",
    ),
    MeasureDef(
        "num_rel_ret",
        k.num_rel_ret,
        "Relevant documents retrieved (summary: total).",
        value="int",
        summary="sum",
        sets=_OFFICIAL_SET,
        alias="NumRelRet",
    ),
    MeasureDef(
        "map",
        k.map,
        "Average precision: sum of precision at each relevant retrieved document / num_rel.",
        sets=_OFFICIAL,
        alias="AP",
    ),
    MeasureDef(
        "gm_map",
        k.gm_map,
        "Geometric mean over queries of AP (floor 1e-5); per query: AP.",
        summary="gm",
        per_query=False,
        sets=_OFFICIAL,
    ),
    MeasureDef("Rprec", k.Rprec, "Precision after num_rel documents.", sets=_OFFICIAL),
    MeasureDef(
        "bpref",
        k.bpref,
        "Binary preference: relevant docs ranked above judged non-relevant ones.",
        sets=_OFFICIAL,
        alias="Bpref",
    ),
    MeasureDef(
        "recip_rank",
        k.recip_rank,
        "Reciprocal rank of the first relevant document.",
        sets=_OFFICIAL,
        alias="RR",
    ),
    MeasureDef(
        "iprec_at_recall",
        k.iprec_at_recall,
        "Interpolated precision at recall levels.",
        params="cut_float",
        defaults=k.ELEVEN_POINTS,
        sets=_OFFICIAL,
        alias="IPrec",
        alias_at="recall",
    ),
    MeasureDef(
        "P",
        k.P,
        "Precision at cutoffs.",
        params="cut_int",
        defaults=_CUTS,
        sets=_OFFICIAL,
        alias="P",
        alias_at="cutoff",
    ),
    MeasureDef(
        "relstring",
        k.relstring,
        "Relevance codes of the first N documents as a string.",
        params="floats",
        defaults=(10.0,),
        value="str",
        summary="none",
    ),
    MeasureDef(
        "recall",
        k.recall,
        "Recall at cutoffs.",
        params="cut_int",
        defaults=_CUTS,
        alias="R",
        alias_at="cutoff",
    ),
    MeasureDef("infAP", k.infAP, "Inferred AP (Yilmaz and Aslam) for sampled judgments."),
    MeasureDef(
        "gm_bpref",
        k.gm_bpref,
        "Geometric mean over queries of bpref (floor 1e-5); per query: bpref.",
        summary="gm",
        per_query=False,
    ),
    MeasureDef(
        "Rprec_mult",
        k.Rprec_mult,
        "Precision at multiples of num_rel.",
        params="cut_float",
        defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
    ),
    MeasureDef(
        "utility",
        k.utility,
        "Set utility a·relret + b·nonrelret + c·relnotret + d·nonrelnotret.",
        params="floats",
        defaults=(1.0, -1.0, 0.0, 0.0),
        sets=_SET,
    ),
    MeasureDef(
        "11pt_avg",
        k.pt11_avg,
        "Interpolated precision averaged over recall levels.",
        params="floats",
        defaults=k.ELEVEN_POINTS,
    ),
    MeasureDef(
        "binG", k.binG, "Binary G: relevant docs discounted by log2(2 + non-relevant above)."
    ),
    MeasureDef(
        "G", g.G, "Normalized gain G (gains per grade, 'grade=gain' parameters).", params="pairs"
    ),
    MeasureDef(
        "dcg",
        g.dcg,
        "Discounted cumulative gain (all retrieved documents).",
        params="pairs",
        sets=_NONE,
    ),
    MeasureDef(
        "ideal_dcg",
        g.ideal_dcg,
        "DCG of the ideal ranking of the judged documents.",
        params="pairs",
        sets=_NONE,
    ),
    MeasureDef(
        "ndcg",
        g.ndcg,
        "Normalized DCG over all retrieved documents ('grade=gain' parameters).",
        params="pairs",
        alias="nDCG",
    ),
    MeasureDef(
        "ndcg_rel", g.ndcg_rel, "nDCG averaged over the relevant documents.", params="pairs"
    ),
    MeasureDef("Rndcg", g.Rndcg, "nDCG averaged at the changes of ideal gain.", params="pairs"),
    MeasureDef(
        "ndcg_cut",
        g.ndcg_cut,
        "nDCG at cutoffs (gain = grade).",
        params="cut_int",
        defaults=_CUTS,
        alias="nDCG",
        alias_at="cutoff",
    ),
    MeasureDef(
        "map_cut",
        k.map_cut,
        "Average precision of the top k, divided by num_rel.",
        params="cut_int",
        defaults=_CUTS,
        alias="AP",
        alias_at="cutoff",
    ),
    MeasureDef(
        "relative_P",
        k.relative_P,
        "Precision at cutoffs, relative to min(k, num_rel).",
        params="cut_int",
        defaults=_CUTS,
    ),
    MeasureDef(
        "success",
        k.success,
        "1 if a relevant document is in the top k.",
        params="cut_int",
        defaults=(1, 5, 10),
        alias="Success",
        alias_at="cutoff",
    ),
    MeasureDef("set_P", k.set_P, "Precision of the retrieved set.", sets=_SET, alias="SetP"),
    MeasureDef(
        "set_relative_P",
        k.set_relative_P,
        "Set precision relative to min(num_ret, num_rel).",
        sets=_SET,
    ),
    MeasureDef("set_recall", k.set_recall, "Recall of the retrieved set.", sets=_SET, alias="SetR"),
    MeasureDef("set_map", k.set_map, "Set precision times set recall.", sets=_SET, alias="SetAP"),
    MeasureDef(
        "set_F",
        k.set_F,
        "Set F measure (beta parameter, default 1).",
        params="floats",
        defaults=(1.0,),
        sets=_SET,
        alias="SetF",
    ),
    MeasureDef(
        "num_nonrel_judged_ret",
        k.num_nonrel_judged_ret,
        "Judged non-relevant documents retrieved (summary: total).",
        value="int",
        summary="sum",
    ),
    MeasureDef(
        "rbp",
        g.rbp,
        "Rank-biased precision (persistence 'p=0.9', gains normalised to [0, 1]).",
        params="pairs",
        alias="RBP",
    ),
    MeasureDef("rbp_resid", g.rbp_resid, "RBP residual from unjudged documents.", params="pairs"),
    MeasureDef(
        "unj",
        k.unj,
        "Fraction of unjudged documents in the top k.",
        params="cut_int",
        defaults=(5, 10, 20),
    ),
    # scorekit's own measures
    MeasureDef(
        "RR_cut",
        k.recip_rank,
        "Reciprocal rank, 0 when the first relevant document is below rank k.",
        params="cut_int",
        sets=_NONE,
        trec=False,
        alias="RR",
        alias_at="cutoff",
        fmt="RR@{}",
    ),
    MeasureDef(
        "hit_rate",
        k.hit_rate,
        "Relevant documents in the top k over relevant documents, totals over queries (micro).",
        params="cut_int",
        summary="micro",
        sets=_NONE,
        trec=False,
        alias="hit_rate",
        alias_at="cutoff",
        fmt="hit_rate@{}",
    ),
    MeasureDef(
        "micro_set_P",
        k.set_P,
        "Total relevant retrieved over total retrieved.",
        summary="micro",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "micro_set_recall",
        k.set_recall,
        "Total relevant retrieved over total relevant.",
        summary="micro",
        sets=_NONE,
        trec=False,
    ),
    MeasureDef(
        "micro_set_F",
        k.set_F,
        "Harmonic mean of micro_set_P and micro_set_recall.",
        summary="micro",
        sets=_NONE,
        trec=False,
    ),
)

# the diversity families (subtopic qrels) are declared beside their kernels
from ._diversity import measure_defs  # noqa: E402 - needs MeasureDef above

MEASURES += measure_defs()
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
        if d.alias:
            names.append(
                f"{d.alias}@k"
                if d.alias_at == "cutoff"
                else f"{d.alias}@x"
                if d.alias_at
                else d.alias
            )
        elif not d.trec:
            names.append(d.name)
    return list(dict.fromkeys(names))
