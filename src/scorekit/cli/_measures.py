"""``scorekit measures``: the ranking measure table, with each family's parameters."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..ranking._measures import MeasureDef, Param, measures

__all__ = ["list_measures"]


def _param(p: Param) -> dict[str, Any]:
    default = (
        p.default
        if p.default is None or isinstance(p.default, (int, float, str))
        else str(p.default)
    )
    out: dict[str, Any] = {"name": p.name, "type": p.type.__name__, "default": default}
    out.update(required=p.required, description=p.desc)
    if p.choices:
        out["choices"] = list(p.choices)
    return out


def _row(d: MeasureDef) -> dict[str, Any]:
    return {
        "name": d.name,
        "aliases": list(d.aliases),
        "at": d.at,
        "trec_eval": d.trec,
        "summary": d.summary,
        "description": d.doc,
        "params": [_param(p) for p in d.params],
    }


def _text(d: MeasureDef) -> list[str]:
    names = ", ".join([d.name, *(a for a in d.aliases if a != d.name)])
    lines = [f"{names}", f"    {d.doc}"]
    for p in d.params:
        default = "required" if p.required else f"default {p.default!r}"
        choices = f" (one of {', '.join(p.choices)})" if p.choices else ""
        at = " [@]" if p.name == d.at else ""
        lines.append(f"    {p.name}{at}: {p.type.__name__}, {default}{choices}; {p.desc}")
    return lines


def list_measures(args: argparse.Namespace) -> int:
    """Print the measure table (``--format json``: one object per family)."""
    rows = measures()
    if args.format == "json":
        print(json.dumps([_row(d) for d in rows], indent=2))
        return 0
    for d in rows:
        print("\n".join(_text(d)))
    return 0
