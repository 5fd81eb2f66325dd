r"""Output formats of the command: table (rich), json, csv, markdown, latex.

Every command hands over a header, rows and a JSON-ready object; this module
only lays them out. ``table`` is drawn by rich (imported here, never by
``import scorekit``); the other formats are plain text for files and pipes.
JSON has no NaN: undefined values are ``null``.

Strings that come from data (labels, query ids, column names) are made safe
for where they go: control characters (ANSI/OSC escape sequences included)
never reach a terminal — they are shown escaped (``\x1b``) — and a CSV or
Markdown cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return gets a leading ``'`` so a spreadsheet does not run it as a formula
(OWASP's advice for CSV injection; numbers such as -0.5 are left alone).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._optional import require
from ..report._data import Metric, brief, finite_or_none, structured
from ..report._html import format_value

__all__ = [
    "OUTPUT_FORMATS",
    "metrics_json",
    "metrics_json_flat",
    "metrics_rows",
    "render",
    "safe_text",
    "spreadsheet_safe",
    "to_csv",
    "to_json",
    "to_latex",
    "to_markdown",
]

_JSON_HINT = " (--format json for all)"

OUTPUT_FORMATS = ("table", "json", "json-flat", "csv", "markdown", "latex")


def metrics_rows(metrics: Sequence[Metric]) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of a metric list; the CI columns appear when an interval was computed."""
    with_ci = any(m.ci_low is not None for m in metrics)
    header = ["metric", "value", *(("ci_low", "ci_high") if with_ci else ())]
    rows = [
        [
            m.name,
            m.value if m.detail is None else brief(m.detail, _JSON_HINT),
            *((m.ci_low, m.ci_high) if with_ci else ()),
        ]
        for m in metrics
    ]
    return header, rows


def metrics_json(metrics: Sequence[Metric]) -> dict[str, Any]:
    """``{name: {"value": v, ...}}``: the stable JSON shape of a metric table (docs/cli.md).

    Each metric is an object with ``value`` and, when an interval was computed,
    ``ci_low``, ``ci_high``, ``ci_level``, ``resamples`` and ``unit`` (what was
    resampled); ``note`` says why a metric has no interval. NaN is ``null``.

    >>> metrics_json([Metric("r2", 0.5), Metric("mae", float("nan"))])
    {'r2': {'value': 0.5}, 'mae': {'value': None}}
    """
    out: dict[str, Any] = {}
    for m in metrics:
        entry: dict[str, Any] = {"value": finite_or_none(m.value) if m.detail is None else m.detail}
        if m.ci_low is not None or m.ci_high is not None:
            entry.update(
                ci_low=finite_or_none(m.ci_low),
                ci_high=finite_or_none(m.ci_high),
                ci_level=m.ci_level,
                resamples=m.resamples,
                unit=m.unit,
            )
        if m.note:
            entry["note"] = m.note
        out[m.name] = entry
    return out


def metrics_json_flat(metrics: Sequence[Metric]) -> dict[str, Any]:
    """``{name: value}``: the flat shape of ``--format json-flat`` (values only).

    >>> metrics_json_flat([Metric("r2", 0.5), Metric("mae", float("nan"))])
    {'r2': 0.5, 'mae': None}
    """
    return {m.name: finite_or_none(m.value) if m.detail is None else m.detail for m in metrics}


def to_json(obj: Any) -> str:
    r"""Indented JSON; NaN and infinities become ``null``.

    >>> to_json({"auc": np.float64(0.75), "n": np.int64(3)})
    '{\n  "auc": 0.75,\n  "n": 3\n}'
    """
    return json.dumps(structured(obj), indent=2, allow_nan=False)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    r"""``text`` with every control character shown escaped (no escape sequence reaches a terminal).

    >>> safe_text("a\x1b[31mb")
    'a\\x1b[31mb'
    """
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def spreadsheet_safe(text: str) -> str:
    """A data string for a CSV or Markdown cell: a leading ``'`` when it could start a formula.

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe("-x"), spreadsheet_safe("ok")
    ("'=1+1", "'-x", 'ok')
    """
    return "'" + text if text.startswith(_FORMULA_START) else text


def _csv_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, np.integer):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    text = _CONTROL_BUT_LINES.sub(lambda m: repr(m.group())[1:-1], str(value))
    return spreadsheet_safe(text)


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """CSV with full-precision numbers and a header line.

    >>> print(to_csv(["metric", "value"], [["mae", 0.1]]), end="")
    metric,value
    mae,0.1
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([_csv_value(h) for h in header])
    writer.writerows([[_csv_value(v) for v in row] for row in rows])
    return buf.getvalue()


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _md_escape(text: str) -> str:
    text = safe_text(text.replace("\n", " "))
    return text.replace("\\", "\\\\").replace("|", "\\|")


def _md_cell(value: Any) -> str:
    text = _md_escape(format_value(value))
    return text if _is_number(value) else spreadsheet_safe(text)


def to_markdown(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table (numbers right-aligned, 4 decimals).

    >>> print(to_markdown(["metric", "value"], [["mae", 0.1]]), end="")
    | metric | value |
    |:--|--:|
    | mae | 0.1000 |
    """
    numeric = [
        bool(rows) and all(_is_number(r[k]) or r[k] is None for r in rows)
        for k in range(len(header))
    ]
    lines = [
        "| " + " | ".join(_md_escape(str(h)) for h in header) + " |",
        "|" + "|".join("--:" if n else ":--" for n in numeric) + "|",
    ]
    lines += ["| " + " | ".join(_md_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters.

    >>> latex_escape("roc_auc & 50%")
    'roc\\_auc \\& 50\\%'
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in safe_text(text))


def to_latex(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    r"""A booktabs ``tabular`` (needs ``\usepackage{booktabs}``).

    >>> print(to_latex(["metric", "value"], [["mae", 0.1]]), end="")
    \begin{tabular}{lr}
    \toprule
    metric & value \\
    \midrule
    mae & 0.1000 \\
    \bottomrule
    \end{tabular}
    """
    numeric = [
        bool(rows) and all(_is_number(r[k]) or r[k] is None for r in rows)
        for k in range(len(header))
    ]
    lines = [
        r"\begin{tabular}{" + "".join("r" if n else "l" for n in numeric) + "}",
        r"\toprule",
        " & ".join(latex_escape(str(h)) for h in header) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(latex_escape(format_value(v)) for v in row) + r" \\" for row in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def rich_table(
    header: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None
) -> Any:
    """A rich ``Table`` (numbers right-aligned)."""
    rt = require("rich.table", "cli")
    # titles and headers hold column names from the data: Text, never markup
    table = rt.Table(
        title=None if title is None else _rich_text(title),
        title_justify="left",
        title_style="bold",
        header_style="bold",
    )
    for k, name in enumerate(header):
        numeric = bool(rows) and all(_is_number(r[k]) or r[k] is None for r in rows)
        table.add_column(
            _rich_text(str(name)), justify="right" if numeric else "left", overflow="fold"
        )
    for row in rows:
        table.add_row(*(_rich_text(v) for v in row))
    return table


def _rich_text(value: Any) -> Any:
    text = require("rich.text", "cli")
    # Text: no markup is interpreted in user strings; control characters shown escaped
    return text.Text(safe_text(format_value(value)))


def print_table(
    header: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None
) -> None:
    """Print a rich table on stdout."""
    import sys

    # piped output is not wrapped at 80 columns (rich's default width off a terminal)
    width = None if sys.stdout.isatty() else 160
    console = require("rich.console", "cli").Console(highlight=False, width=width)
    console.print(rich_table(header, rows, title))


def render(
    fmt: str,
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    json_obj: Any,
    *,
    title: str | None = None,
    flat: Any = None,
) -> None:
    """Print the result on stdout in ``fmt`` (``json-flat`` prints ``flat`` when given)."""
    if fmt == "table":
        print_table(header, rows, title)
        return
    if fmt == "json-flat":
        text = to_json(json_obj if flat is None else flat) + "\n"
    elif fmt == "json":
        text = to_json(json_obj) + "\n"
    elif fmt == "csv":
        text = to_csv(header, rows)
    elif fmt == "markdown":
        text = to_markdown(header, rows)
    elif fmt == "latex":
        text = to_latex(header, rows)
    else:  # pragma: no cover - argparse restricts the choices
        raise ValueError(fmt)
    import sys

    sys.stdout.write(text)
