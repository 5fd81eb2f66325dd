"""Intent-aware diversity measures over subtopic qrels: names, parameters and evaluation.

The measures and their values are ndeval's (TREC Web track; the formulas are
in :mod:`._diversity_kernels`). Names: ir_measures' (``alpha_nDCG@20``,
``ERR_IA@20``, ``nERR_IA@20``, ``alpha_DCG@20``, ``P_IA@20``, ``StRecall@20``,
``NRBP``, ``nNRBP``, ``AP_IA``/``MAP_IA``) and ndeval's column names
(``alpha-nDCG@20``, ``ERR-IA@20``, ``strec@20``, ``MAP-IA``, ...), case-insensitive,
with ir_measures' parameters ``Name(alpha=0.5, beta=0.5, rel=1)@k``.

Evaluation is in :mod:`._diversity_eval`, the kernels in :mod:`._diversity_kernels`;
:func:`measure_defs` gives the families' rows of the measure table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from .._errors import ParameterError
from ._measures import Measure, MeasureDef

__all__: list[str] = []


@dataclass(frozen=True, slots=True)
class Family:
    """One diversity measure family: names, whether it takes ``@k``, its parameters."""

    name: str  # ir_measures' name, printed
    ndeval: str  # ndeval's column name
    doc: str
    cutoff: bool = True
    params: tuple[str, ...] = ("alpha",)
    aliases: tuple[str, ...] = ()


FAMILIES: tuple[Family, ...] = (
    Family("alpha_DCG", "alpha-DCG", "alpha-DCG@k over the 'ideal ideal' list (ndeval)."),
    Family("alpha_nDCG", "alpha-nDCG", "alpha-DCG@k over ndeval's greedy ideal ranking."),
    Family("ERR_IA", "ERR-IA", "Intent-aware ERR@k over the 'ideal ideal' list (ndeval)."),
    Family("nERR_IA", "nERR-IA", "Intent-aware ERR@k over ndeval's greedy ideal ranking."),
    Family(
        "NRBP",
        "NRBP",
        "Novelty- and rank-biased precision (whole run).",
        cutoff=False,
        params=("alpha", "beta"),
    ),
    Family(
        "nNRBP",
        "nNRBP",
        "NRBP over the greedy ideal ranking's NRBP.",
        cutoff=False,
        params=("alpha", "beta"),
    ),
    Family(
        "AP_IA",
        "MAP-IA",
        "Intent-aware average precision: mean over subtopics.",
        cutoff=False,
        params=(),
        aliases=("MAP_IA",),
    ),
    Family("P_IA", "P-IA", "Intent-aware precision@k.", params=()),
    Family(
        "StRecall", "strec", "Subtopic recall: share of subtopics covered in the top k.", params=()
    ),
)
_BY_KEY: dict[str, Family] = {}
for _f in FAMILIES:
    for _n in (_f.name, _f.ndeval, *_f.aliases):
        _BY_KEY[_n.lower().replace("-", "_")] = _f
_NAME_RE = re.compile(r"^\s*([^\s(@]+)\s*(?:\((.*)\))?\s*(?:@\s*(\S+))?\s*$", re.DOTALL)
DEFAULTS = {"alpha": 0.5, "beta": 0.5}


def _needs_subtopics(ctx: Any, params: tuple[Any, ...]) -> Any:
    raise ParameterError(
        "the diversity measures (alpha_nDCG, ERR_IA, NRBP, P_IA, ...) need subtopic qrels: "
        "pass a scorekit.SubtopicQrels as qrels (ndeval's 'query subtopic docno rel' lines)"
    )


def measure_defs() -> tuple[MeasureDef, ...]:
    """The families' rows of the measure table (their kernel raises for ordinary qrels).

    Written for both layouts of :class:`MeasureDef`: ``alias``/``alias_at``, and
    ``syntax``/``aliases``/``at`` with declared parameters (the table of issue 16).
    """
    from . import _measures

    table = vars(_measures)
    declared = "aliases" in {f.name for f in fields(MeasureDef)}
    rows = []
    for f in FAMILIES:
        kind = "cut_int" if f.cutoff else "none"
        extra: dict[str, Any]
        if declared:
            params = (table["CUTOFF_REQUIRED"],) if f.cutoff else ()
            extra = {
                "syntax": kind,
                "params": (*params, table["REL"]),
                "at": "cutoff" if f.cutoff else None,
                "aliases": (f.name, *f.aliases),
            }
        else:
            extra = {"params": kind, "alias": f.name, "alias_at": "cutoff" if f.cutoff else None}
        rows.append(
            MeasureDef(
                f.name,
                _needs_subtopics,
                f.doc,
                sets=frozenset(),
                trec=False,
                fmt=f"{f.name}@{{}}" if f.cutoff else "",
                **extra,
            )
        )
    return tuple(rows)


def _number(text: str, key: str, kind: type) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise ParameterError(f"measure parameter {key}={text!r} must be a number") from None
    return value


def parse_diversity(text: str) -> Measure | None:
    """The diversity measure a name stands for; None when it names no diversity family.

    ``Measure.params`` is ``(cutoff, alpha, beta, rel)`` (``rel`` None: the
    ``rel_level`` of :func:`~scorekit.evaluate`).

    >>> parse_diversity("alpha-nDCG@20") == parse_diversity("alpha_nDCG(alpha=0.5)@20")
    True
    >>> parse_diversity("NRBP(beta=0.8)").params, parse_diversity("map")
    ((None, 0.5, 0.8, None), None)
    """
    m = _NAME_RE.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    name, args, at = m.group(1), m.group(2), m.group(3)
    fam = _BY_KEY.get(name.replace("α", "alpha").lower().replace("-", "_"))
    if fam is None:
        return None
    values: dict[str, Any] = {"alpha": DEFAULTS["alpha"], "beta": DEFAULTS["beta"], "rel": None}
    known = (*(("cutoff",) if fam.cutoff else ()), *fam.params, "rel")
    for tok in (args or "").split(","):
        if not tok.strip():
            continue
        key, eq, value = (t.strip() for t in tok.partition("="))
        if not eq or key not in known:
            raise ParameterError(
                f"measure {text!r}: unknown parameter {key!r}; {fam.name} takes {', '.join(known)}"
            )
        if key == "cutoff":
            if at is not None:
                raise ParameterError(f"measure {text!r} gives the cutoff twice")
            at = value
        elif key == "rel":
            values["rel"] = _number(value, key, int)
            if values["rel"] < 0:
                raise ParameterError(f"measure {text!r}: rel must be an integer >= 0")
        else:
            values[key] = _number(value, key, float)
            if not 0.0 <= values[key] <= 1.0:
                raise ParameterError(f"measure {text!r}: {key} must lie in [0, 1], got {value}")
    cutoff = None
    if at is not None:
        if not fam.cutoff:
            raise ParameterError(f"measure {text!r}: {fam.name} takes no '@' cutoff")
        if not re.fullmatch(r"\d+", at) or int(at) < 1:
            raise ParameterError(f"measure {text!r}: the cutoff must be a whole number >= 1")
        cutoff = int(at)
    elif fam.cutoff:
        raise ParameterError(f"measure {text!r} needs a cutoff, e.g. '{fam.name}@20'")
    return Measure(fam.name, (cutoff, values["alpha"], values["beta"], values["rel"]))


def split_requests(measures: str | Iterable[str]) -> tuple[list[tuple[str, Measure]], list[str]]:
    """(key, diversity measure) pairs and the other names, in request order."""
    items = [measures] if isinstance(measures, str) else list(measures)
    div: dict[str, Measure] = {}
    other: list[str] = []
    for req in items:
        found = parse_diversity(req) if isinstance(req, str) else None
        if found is None:
            other.append(req)
        else:
            div.setdefault(req.strip(), found)
    return list(div.items()), other


def is_diversity(name: str) -> bool:
    """Whether a measure name is one of the diversity families (any spelling, valid or not)."""
    m = _NAME_RE.match(name) if isinstance(name, str) else None
    return m is not None and m.group(1).replace("α", "alpha").lower().replace("-", "_") in _BY_KEY
