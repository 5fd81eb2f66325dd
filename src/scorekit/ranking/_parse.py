"""Measure names: trec_eval's syntax, its printed names, and ir_measures-style aliases.

Accepted forms (family names and aliases are case-insensitive):

- a trec_eval family or nickname: ``map``, ``P`` (its default cutoffs),
  ``all_trec``, ``official``, ``set``;
- trec_eval parameters after a dot: ``P.5,7,3``, ``ndcg.1=3,2=9``,
  ``iprec_at_recall..10,.20``, ``Rprec_mult.5.0,0.2``, ``utility.2,-1,0,0``;
- a printed trec_eval name: ``P_10``, ``ndcg_cut_10``, ``iprec_at_recall_0.50``;
- ``NAME["(" key=value, ... ")"]["@" value]``: ``nDCG@10``, ``AP``, ``AP@10``,
  ``P@10``, ``R@100``, ``RR``, ``RR@10``, ``Bpref``, ``iprec@0.5``, ``success@5``,
  ``hit_rate@10``, ``RBP(p=0.8)``, ``nDCG(cutoff=10)``, and ``family@k`` for
  any cutoff family (``map_cut@10``).

The grammar is read by hand (regular expressions for tokens, no ``eval``)
and each string is parsed once (:func:`functools.lru_cache`) into frozen
:class:`~._measures.Measure` objects, with ``parse(str(m)) == (m,)``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import lru_cache

from .._errors import ParameterError, UnknownMeasureError
from ._call import MAX_CUTOFF, claims, number, parse_call
from ._measures import MEASURES, NICKNAMES, Measure, MeasureDef, known_measures

__all__ = ["parse_measure"]

_LOWER: dict[str, MeasureDef] = {}
for _d in MEASURES:  # trec_eval's families first: 'rbp' is trec_eval's, 'RBP' ir_measures'
    _LOWER.setdefault(_d.name.lower(), _d)
_INT_RE = re.compile(r"^\s*[+-]?\d+")
_BY_LENGTH = sorted((d for d in MEASURES if d.syntax != "none"), key=lambda d: -len(d.name))


def _error(text: str, why: str = "") -> UnknownMeasureError:
    known = known_measures()
    close = difflib.get_close_matches(text, known, n=3, cutoff=0.5)
    lowered = {k.lower(): k for k in known}
    close += [
        lowered[n] for n in difflib.get_close_matches(text.lower(), list(lowered), n=3, cutoff=0.5)
    ]
    hint = f"; did you mean {', '.join(dict.fromkeys(close))}?" if close else "."
    why = f" ({why})" if why else ""
    return UnknownMeasureError(
        f"unknown measure {text!r}{why}{hint} Known measures: {', '.join(known)}"
    )


def _tokens(text: str, name: str) -> list[str]:
    tokens = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in tokens):
        raise ParameterError(f"measure {name!r}: empty parameter in {text!r}")
    return tokens


def _number(tok: str, name: str) -> float:
    return number(tok, "parameter", name)


def _cut_ints(text: str, name: str) -> list[int]:
    values = []
    for tok in _tokens(text, name):
        m = _INT_RE.match(tok)
        if m is None or (m.end() < len(tok) and not re.fullmatch(r"\.\d*", tok[m.end() :])):
            raise ParameterError(f"measure {name!r}: cutoff {tok!r} is not an integer")
        values.append(int(m.group()))
    values.sort()
    if values[-1] > MAX_CUTOFF:
        raise ParameterError(f"measure {name!r}: cutoffs must be at most 2**53, got {values[-1]}")
    if values[0] <= 0:
        raise ParameterError(f"measure {name!r}: cutoffs must be positive, got {values[0]}")
    if len(set(values)) != len(values):
        raise ParameterError(f"measure {name!r}: duplicate cutoffs in {text!r}")
    return values


def _cut_floats(text: str, name: str) -> list[float]:
    values = sorted(_number(t, name) for t in _tokens(text, name))
    if len(set(values)) != len(values):
        raise ParameterError(f"measure {name!r}: duplicate cutoffs in {text!r}")
    return values


def _floats(text: str, d: MeasureDef) -> tuple[float, ...]:
    values = tuple(_number(t, d.name) for t in _tokens(text, d.name))
    lo, hi = d.arity
    if not lo <= len(values) <= hi:
        want = str(lo) if lo == hi else f"at least {lo}"
        raise ParameterError(f"measure {d.name!r} takes {want} parameter(s), got {len(values)}")
    return values


def _pairs(text: str, d: MeasureDef) -> tuple[tuple[str, float], ...]:
    out = []
    for tok in _tokens(text, d.name):
        key, eq, value = tok.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ParameterError(
                f"measure {d.name!r}: parameters are 'grade=gain' pairs, got {tok!r}"
            )
        if key not in d.keys and not re.fullmatch(r"[+-]?\d+", key):
            real = " or ".join([*(repr(k) for k in d.keys), "integer grades"])
            raise ParameterError(f"measure {d.name!r}: unknown parameter {key!r} (expected {real})")
        out.append((key, _number(value, d.name)))
    return tuple(out)


def _with_params(d: MeasureDef, text: str) -> tuple[Measure, ...]:
    """Measures of family ``d`` with trec_eval parameter text (after the dot)."""
    text = text.strip()
    if d.syntax == "none":
        raise ParameterError(f"measure {d.name!r} takes no parameters, got {text!r}")
    if d.syntax == "cut_int":
        return tuple(Measure(d.name, (c,)) for c in _cut_ints(text, d.name))
    if d.syntax == "cut_float":
        return tuple(Measure(d.name, (c,)) for c in _cut_floats(text, d.name))
    if d.syntax == "floats":
        return (Measure(d.name, _floats(text, d), text),)
    return (Measure(d.name, _pairs(text, d), text),)


def _defaults(d: MeasureDef) -> tuple[Measure, ...]:
    if d.syntax in ("cut_int", "cut_float"):
        if not d.defaults:
            raise ParameterError(f"measure {d.name!r} needs a cutoff, e.g. {d.fmt.format(10)!r}")
        return tuple(Measure(d.name, (c,)) for c in d.defaults)
    return (Measure(d.name),)


def _check_at(text: str, d: MeasureDef, at: str) -> None:
    """The value after '@' is one cutoff: a whole number, or a recall level in [0, 1].

    (trec_eval's dotted syntax truncates ``P.10.5`` to 10; the '@' aliases do not guess.)
    """
    value = at.strip()
    if d.syntax == "cut_int" and not re.fullmatch(r"\d+", value):
        raise ParameterError(f"measure {text!r}: the cutoff after '@' must be a whole number")
    if d.syntax == "cut_float":
        level = _number(value, d.name)
        if not 0 <= level <= 1:
            raise ParameterError(f"measure {text!r}: the recall level must lie in [0, 1]")


def at_measures(text: str, d: MeasureDef, at: str) -> tuple[Measure, ...]:
    """The measures of a cutoff family with the value written after ``@``."""
    _check_at(text, d, at)
    return _with_params(d, at)


def pairs_measure(d: MeasureDef, text: str) -> Measure:
    """The measure of a ``floats``/``pairs`` family with trec_eval's parameter text."""
    return _with_params(d, text)[0]


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[tuple[Measure, ...], bool]:
    """Measures of one request, and whether it is written in trec_eval's syntax."""
    s = text.strip()
    if not s:
        raise _error(text, "empty name")
    low = s.lower()
    if low in NICKNAMES:
        return tuple(m for d in MEASURES if low in d.sets for m in _defaults(d)), True
    if low in _LOWER and _LOWER[low].trec and not claims(s):
        return _defaults(_LOWER[low]), s == _LOWER[low].name
    head, dot, rest = s.partition(".")
    d = _LOWER.get(head.lower()) if dot and "@" not in s and "(" not in s else None
    if d is not None and d.trec:
        return _with_params(d, rest), True
    for d in _BY_LENGTH:
        if d.trec and low.startswith(d.name.lower() + "_") and "@" not in s:
            try:
                found = _with_params(d, s[len(d.name) + 1 :])
            except ParameterError:
                continue
            if len(found) == 1:
                return found, True
    alias = parse_call(s)
    if alias is None:
        raise _error(s)
    return alias, False


def parse_measure(text: str) -> tuple[Measure, ...]:
    """The measures one name stands for (several for a nickname or a multi-cutoff family).

    >>> [m.name for m in parse_measure("P.5,7,3")]
    ['P_3', 'P_5', 'P_7']
    >>> parse_measure("nDCG@10") == parse_measure("ndcg_cut_10")
    True

    Parameters
    ----------
    text : str
        A measure name (trec_eval, ir_measures or ranx syntax).

    """
    if not isinstance(text, str):
        raise UnknownMeasureError(f"measure names must be strings, got {type(text).__name__}")
    return _parse(text)[0]


def parse_requests(
    requests: str | Iterable[str], renames: tuple[tuple[str, str], ...] = ()
) -> list[tuple[str, Measure]]:
    """(result key, measure) pairs for a list of names, in request order, without repeats.

    Names in trec_eval's syntax, and any name that stands for several measures,
    are keyed by trec_eval's printed names (``P.5,10`` gives ``P_5`` and
    ``P_10``); other names keep the spelling used (``nDCG@10``, ``AP``, ``MAP``). As in
    trec_eval, a family given with parameters replaces its default instances in
    a nickname (``["all_trec", "relstring.20"]`` gives ``relstring_20`` only).
    ``renames`` (a ``compat=`` preset's) gives a family the meaning the tool
    has for its name: ranx's ``hit_rate@10`` is ``success@10``.
    """
    if isinstance(requests, str):
        requests = [requests]
    items = list(requests)
    if not items:
        raise ParameterError("measures is empty; name at least one measure")
    parsed: list[tuple[str, tuple[Measure, ...], bool, bool]] = []
    explicit: set[str] = set()
    for req in items:
        if not isinstance(req, str):
            raise UnknownMeasureError(f"measure names must be strings, got {type(req).__name__}")
        measures, trec = _parse(req)
        if renames:
            swap = dict(renames)
            measures = tuple(
                Measure(swap[m.family], m.params, m.text, m.options) if m.family in swap else m
                for m in measures
            )
        nickname = req.strip().lower() in NICKNAMES
        if trec and not nickname:
            explicit.update(m.family for m in measures)
        parsed.append((req.strip(), measures, trec, nickname))
    out: dict[str, Measure] = {}
    for key, measures, trec, nickname in parsed:
        for m in measures:
            if nickname and m.family in explicit:
                continue
            name = key if not trec and len(measures) == 1 else m.name
            if name in out and out[name] != m and m.params:  # iprec_at_recall.0.333,0.334
                name = f"{m.family}_{m.params[0]!r}"  # trec_eval prints both under one name
            out.setdefault(name, m)
    return list(out.items())
