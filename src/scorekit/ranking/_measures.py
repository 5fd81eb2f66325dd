"""The measure registry: one :class:`MeasureDef` per measure family, in trec_eval's order.

Every other part reads this table: the parser (names, parameter syntax,
aliases), the evaluator (kernels, how to summarise over queries), the text
output (order of lines, integer or float printing), the docs and the
known-names list of :class:`~scorekit.UnknownMeasureError`. The order is
trec_eval 10's measure table, which is also the order of its output lines;
scorekit's own measures come last.
"""

from __future__ import annotations

from . import _average as a
from . import _gains as g
from . import _kernels as k
from ._measure_def import (
    CUTOFF_REQUIRED,
    DCG,
    GAINS,
    JUDGED_ONLY,
    REGISTRY,
    REL,
    Kernel,
    Measure,
    MeasureDef,
    Param,
)
from ._measures_extra import EXTRA, NO_SET, RJ

__all__ = ["MEASURES", "Kernel", "Measure", "MeasureDef", "Param", "known_measures", "measures"]

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RJ = RJ

_OFFICIAL = frozenset({"official", "all_trec"})
_SET = frozenset({"set", "all_trec"})
_OFFICIAL_SET = frozenset({"official", "set", "all_trec"})
_NONE = NO_SET
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
    *EXTRA,
)

# the diversity families (subtopic qrels) are declared beside their kernels
from ._diversity import measure_defs  # noqa: E402 - needs MeasureDef above

MEASURES += measure_defs()
BY_NAME: dict[str, MeasureDef] = {d.name: d for d in MEASURES}
REGISTRY.update(BY_NAME)
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
