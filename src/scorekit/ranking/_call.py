"""ir_measures' and ranx's measure syntax: ``Name(key=value, ...)@at``, read by hand.

``Name`` is a family name or one of its aliases (case-insensitive, ``-`` allowed:
``r-precision``); some aliases also fix options (``ndcg_burges`` is nDCG with
``dcg=exp-log2``, :attr:`~._measures.MeasureDef.variants`). The argument
list is split at the commas outside braces (``gains={0:0,1:1,2:3}``), each
``key=value`` is checked against the family's declared parameters
(:class:`~._measures.Param`): the ``@`` parameter, the context options
(``rel``, ``judged_only``, ``dcg``, ``gains``) and the kernel's own. No
``eval``, no ``ast``, no substring search.
"""

from __future__ import annotations

import re
from typing import Any

from .._errors import ParameterError
from ._measures import MEASURES, Measure, MeasureDef, Param

__all__ = ["MAX_CUTOFF", "claims", "number", "parse_call"]

MAX_CUTOFF = 2**53  # larger cutoffs are refused (they cannot be told apart in float64)
_NAME_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*")
_INT_RE = re.compile(r"[+-]?\d+")
_AT_KEYS = ("cutoff", "k", "recall")
_TRUE = ("true", "1", "yes")
_FALSE = ("false", "0", "no")

# names as written first (ir_measures' RBP is not trec_eval's rbp), then case-insensitive
_AT: dict[str, MeasureDef] = {}
_BARE: dict[str, MeasureDef] = {}
_VARIANT: dict[str, tuple[MeasureDef, tuple[tuple[str, Any], ...]]] = {}
for _d in MEASURES:
    for _name in (_d.name, *_d.aliases):
        (_AT if _d.at else _BARE).setdefault(_name, _d)
for _d in MEASURES:
    for _name in (_d.name, *_d.aliases):
        (_AT if _d.at else _BARE).setdefault(_name.lower(), _d)
    for _name, _opts in _d.variants:
        _VARIANT[_name.lower()] = (_d, _opts)
_TREC = {d.name.lower(): d for d in MEASURES if d.trec}


def claims(name: str) -> bool:
    """Whether ``name`` as written is another family than the trec_eval one of its lowercase.

    ``RBP`` is ir_measures' RBP while ``rbp`` is trec_eval's; ``DCG`` (which
    needs a cutoff) stays trec_eval's ``dcg``.
    """
    d = _BARE.get(name) or _AT.get(name)
    if d is None or d is _TREC.get(name.lower()):
        return False
    return d.syntax == "named" and not any(p.required for p in d.kernel_params)


def _split(text: str, where: str) -> list[tuple[str, str]]:
    """``key=value`` pairs of an argument list; commas inside ``{...}`` do not split."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise ParameterError(f"measure {where!r}: unbalanced '}}'")
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth:
        raise ParameterError(f"measure {where!r}: unbalanced '{{'")
    parts.append(text[start:])
    out = []
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ParameterError(f"measure {where!r}: expected key=value, got {part.strip()!r}")
        out.append((key.strip(), value.strip()))
    return out


def _int(text: str, name: str, where: str) -> int:
    if not _INT_RE.fullmatch(text):
        raise ParameterError(f"measure {where!r}: {name} must be a whole number, got {text!r}")
    return int(text)


def number(text: str, what: str, where: str) -> float:
    """``text`` as a finite float; raise naming the measure ``where`` and the parameter ``what``."""
    try:
        value = float(text)
    except ValueError:
        raise ParameterError(f"measure {where!r}: {what} {text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ParameterError(f"measure {where!r}: {what} {text!r} is not a finite number")
    return value


def _gains(text: str, where: str) -> tuple[tuple[int, float], ...]:
    if not (text.startswith("{") and text.endswith("}")):
        raise ParameterError(f"measure {where!r}: gains must be {{grade:gain,...}}, got {text!r}")
    pairs: dict[int, float] = {}
    for tok in text[1:-1].split(","):
        grade, colon, gain = tok.partition(":")
        if not colon:
            raise ParameterError(
                f"measure {where!r}: gains entry {tok.strip()!r} is not grade:gain"
            )
        pairs[_int(grade.strip(), "a grade", where)] = number(gain.strip(), "gain", where)
    return tuple(sorted(pairs.items()))


def convert(p: Param, text: str, where: str) -> Any:
    """The value of parameter ``p`` written as ``text`` (checked against its type and choices)."""
    if p.type is bool:
        low = text.lower()
        if low not in _TRUE + _FALSE:
            raise ParameterError(f"measure {where!r}: {p.name} must be True or False, got {text!r}")
        return low in _TRUE
    if p.type is int:
        value: Any = _int(text, p.name, where)
        if p.name == "cutoff" and not 1 <= value <= MAX_CUTOFF:
            raise ParameterError(
                f"measure {where!r}: the cutoff must lie in [1, 2**53], got {text}"
            )
        return value
    if p.type is float:
        return number(text, p.name, where)
    if p.type is dict:
        return _gains(text, where)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":  # ir_measures quotes strings
        text = text[1:-1]
    if p.choices and text not in p.choices:
        raise ParameterError(
            f"measure {where!r}: {p.name} must be one of {', '.join(p.choices)}, got {text!r}"
        )
    return text


def _lookup(name: str, at_given: bool) -> tuple[MeasureDef, tuple[tuple[str, Any], ...]] | None:
    low = name.lower()
    if low in _VARIANT:
        return _VARIANT[low]
    at, bare = _AT.get(name), _BARE.get(name)
    if at is None and bare is None:
        at, bare = _AT.get(low), _BARE.get(low)
    if at is not None and (at_given or bare is None):
        return at, ()
    return (bare, ()) if bare is not None else None


def parse_call(text: str) -> tuple[Measure, ...] | None:
    """Measures of ``Name(key=value, ...)@at``; None when ``Name`` is no known name.

    The cutoff families' measures are built by :mod:`._parse` from the ``@``
    value, so trec_eval's parameter rules apply to both syntaxes.
    """
    from ._parse import at_measures, pairs_measure

    m = _NAME_RE.match(text)
    if m is None:
        return None
    rest = text[m.end() :]
    args = ""
    if rest.startswith("("):
        close = rest.rfind(")")
        if close < 0:
            raise ParameterError(f"measure {text!r}: missing ')'")
        args, rest = rest[1:close], rest[close + 1 :].strip()
    at: str | None = None
    if rest.startswith("@"):
        at = rest[1:].strip()
    elif rest:
        return None
    pairs = _split(args, text) if args.strip() else []
    at_given = at is not None or any(k.lower() in _AT_KEYS for k, _ in pairs)
    found = _lookup(m.group(1), at_given)
    if found is None:
        return None
    d, fixed = found
    options: dict[str, Any] = dict(fixed)
    kernel: dict[str, Any] = {}
    grades: list[str] = []
    for key, value in pairs:
        p = d.param(key) or d.param(key.lower())
        if p is None and key.lower() in _AT_KEYS and d.at is not None:
            p = d.param(d.at)
        if p is not None and p.name == d.at:
            if at is not None:
                raise ParameterError(f"measure {text!r} gives the cutoff twice")
            at = value
        elif p is not None and p.context:
            options[p.name] = convert(p, value, text)
        elif d.syntax == "pairs" and (key in d.keys or _INT_RE.fullmatch(key)):
            grades.append(f"{key}={value}")
        elif p is not None and d.syntax in ("named", "floats"):
            kernel[p.name] = convert(p, value, text) if d.syntax == "named" else value
        else:
            known = ", ".join(q.name for q in d.params) or "none"
            raise ParameterError(f"measure {text!r}: unknown parameter {key!r}; known: {known}")
    if at is not None and d.at is None:
        raise ParameterError(f"measure {text!r} takes no '@' cutoff")
    opts = _options(d, options)
    if d.syntax in ("cut_int", "cut_float"):
        if at is None:
            hint = d.fmt.format(10) if d.fmt else f"{d.alias or d.name}@10"
            raise ParameterError(f"measure {text!r} needs a cutoff, e.g. {hint!r}")
        return tuple(Measure(x.family, x.params, x.text, opts) for x in at_measures(text, d, at))
    if d.syntax == "named":
        values = []
        for p in d.kernel_params:
            if p.name == d.at and at is not None:
                kernel[p.name] = convert(p, at, text)
            if p.required and p.name not in kernel:
                raise ParameterError(f"measure {text!r} needs {p.name}= ({p.desc})")
            values.append(kernel.get(p.name, p.default))
        return (Measure(d.name, tuple(values), "", opts),)
    if d.syntax == "floats" and kernel:
        found_m = pairs_measure(d, ",".join(kernel.values()))
        return (Measure(d.name, found_m.params, found_m.text, opts),)
    if d.syntax == "pairs" and grades:
        found_m = pairs_measure(d, ",".join(grades))
        return (Measure(d.name, found_m.params, found_m.text, opts),)
    return (Measure(d.name, (), "", opts),)


def _options(d: MeasureDef, options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Options that differ from their declared default, sorted by name."""
    out = []
    for name, value in sorted(options.items()):
        p = d.param(name)
        if p is None:  # a variant's fixed option the family does not declare
            raise ParameterError(f"measure {d.name!r} has no option {name!r}")
        if value != p.default:
            out.append((name, value))
    return tuple(out)
