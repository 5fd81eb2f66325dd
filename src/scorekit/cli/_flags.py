"""Error messages in the command's words: library argument names become the flags that set them.

The library names its arguments (``pos_label=2 is not one of the labels``);
on the command line the user typed ``--pos-label 2``. :func:`in_flags`
rewrites a message once, in the error path, for every command: each library
argument maps to the parser destination that feeds it, and the destination
to the flag as the command spells it (``max_docs`` → ``-M``, ``n_resamples``
→ ``--bootstrap`` or ``--resamples``). Names the command has no flag for are
left as they are.
"""

from __future__ import annotations

import argparse
import re

__all__ = ["in_flags"]

#: Library argument → the parser destinations that may feed it (first found wins).
LIBRARY_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "pos_label": ("pos_label",),
    "threshold": ("threshold",),
    "seed": ("seed",),
    "n_resamples": ("bootstrap", "resamples"),
    "max_docs": ("max_docs",),
    "rel_level": ("rel_level",),
    "all_queries": ("all_queries",),
    "judged_only": ("judged_only",),
    "ap_denominator": ("ap_denominator",),
    "missing_queries": ("missing_queries",),
    "ndcg_ideal": ("ndcg_ideal",),
}

#: Arguments named like ordinary words ("ties count one half"): rewritten only as ``name=value``.
ASSIGNED_ONLY: dict[str, tuple[str, ...]] = {
    "ties": ("ties",),
    "gain": ("gain",),
    "compat": ("compat",),
    "test": ("test",),
    "correction": ("correction",),
    "alpha": ("alpha",),
}

_NAME = re.compile(
    r"(?<![\w-])(?:("
    + "|".join(LIBRARY_ARGUMENTS)
    + r")\b|("
    + "|".join(ASSIGNED_ONLY)
    + r")(?==))(=(\S*[^\s,;:)])?)?"
)


def _flags(parser: argparse.ArgumentParser, command: str | None) -> dict[str, str]:
    """Destination → flag (its first spelling; a trailing space when it takes a value)."""
    parsers = [parser]
    parsers += [
        action.choices[command]
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction) and command in action.choices
    ]
    return {
        a.dest: a.option_strings[0] + ("" if a.nargs == 0 else " ")
        for p in parsers
        for a in p._actions
        if a.option_strings
    }


def in_flags(message: str, parser: argparse.ArgumentParser, command: str | None) -> str:
    """``message`` with each library argument the command has a flag for written as that flag.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("-M", dest="max_docs", type=int)
    >>> _ = p.add_argument("-c", dest="all_queries", action="store_true")
    >>> in_flags("max_docs=-1 must be >= 0; all_queries=True; pass pos_label= too", p, None)
    '-M -1 must be >= 0; -c; pass pos_label= too'
    """
    flags = _flags(parser, command)

    def spell(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        dests = LIBRARY_ARGUMENTS.get(name) or ASSIGNED_ONLY[name]
        dest = next((d for d in dests if d in flags), None)
        if dest is None:
            return m.group(0)
        flag, value = flags[dest], m.group(4)
        if not flag.endswith(" "):  # a switch (-c): True is the flag, False its absence
            return f"no {flag}" if value == "False" else flag
        return f"{flag}{value}" if value else flag.rstrip()

    return _NAME.sub(spell, message)
