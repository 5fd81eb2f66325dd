"""The self-contained HTML page of a report.

One file, no network: the CSS is inline, the plots are inline SVG, and there
is no JavaScript at all (a Content-Security-Policy forbids scripts and
remote loads, as a second line of defence). Every string that can come from
the user's data — titles, class labels, query ids, system names, column
names — goes through :func:`html.escape` here; the SVG figures are escaped
by :mod:`scorekit.report._svg`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _svg
from ._data import Metric, Plot, Section, Table, brief

__all__ = ["format_value", "render_html", "section_html"]

_CSS = """
:root { --ink: #1f2328; --muted: #59636e; --line: #d8dee4; --band: #f6f8fa;
        --accent: #3366cc; --good: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #ffffff;
       font: 15px/1.5 -apple-system, "Segoe UI", "Helvetica Neue", Arial, sans-serif; }
header { background: #f0f4fb; border-bottom: 1px solid var(--line); padding: 22px 32px 14px; }
header h1 { margin: 0; font-size: 26px; }
header p { margin: 4px 0 0; color: var(--muted); }
nav { padding: 8px 32px; border-bottom: 1px solid var(--line); font-size: 14px; }
nav a { color: var(--accent); text-decoration: none; margin-right: 18px; }
main { max-width: 1280px; padding: 8px 32px 32px; }
section { border-bottom: 1px solid var(--line); padding: 10px 0 24px; }
h2 { font-size: 21px; margin: 18px 0 8px; }
h3 { font-size: 16px; margin: 18px 0 6px; }
p.note { color: var(--muted); margin: 4px 0; font-size: 14px; }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.figures { display: grid; gap: 18px; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr));
           margin-top: 12px; }
.figures figure.wide { grid-column: 1 / -1; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: #fff; }
figcaption { color: var(--muted); font-size: 13px; padding: 4px 4px 0; }
svg.plot { display: block; width: 100%; height: auto; }
.figures figure.wide svg.plot { width: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 14px; margin: 6px 0 4px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.key { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
td.yes { color: var(--good); font-weight: 600; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
details summary { cursor: pointer; color: var(--accent); margin: 12px 0 4px; }
.tablewrap { max-width: 100%; overflow-x: auto; }
footer { color: var(--muted); font-size: 13px; padding: 16px 32px 28px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0 0;
          font-size: 13px; color: var(--muted); }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; font-family: ui-monospace, monospace;
          overflow-wrap: anywhere; }
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def format_value(value: Any) -> str:
    """A table cell: 4 decimals for floats (4 significant digits when very large or small).

    >>> format_value(0.123456), format_value(3), format_value(1.5e-7), format_value(None)
    ('0.1235', '3', '1.5e-07', '—')
    """
    if value is None:
        return "—"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if not math.isfinite(v):
            return str(v)
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return f"{v:.4g}"
        return f"{v:.4f}"
    return str(value)


def _cell(value: Any, first: bool = False) -> str:
    text = _e(format_value(value))
    if isinstance(value, (bool, np.bool_)):
        return f'<td class="{"yes" if value else ""}">{text}</td>'
    if isinstance(value, (int, float, np.integer, np.floating)):
        return f'<td class="num">{text}</td>'
    return f'<td class="key">{text}</td>' if first else f"<td>{text}</td>"


def _table_html(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = "\n".join(
        "<tr>" + "".join(_cell(v, first=(k == 0)) for k, v in enumerate(r)) + "</tr>" for r in rows
    )
    return f'<div class="tablewrap"><table><thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table></div>'


def _metrics_html(metrics: Sequence[Metric], confidence: float) -> str:
    with_ci = any(m.ci_low is not None for m in metrics)
    columns = ["metric", "value"]
    if with_ci:
        columns += [f"{confidence:.0%} CI low", f"{confidence:.0%} CI high"]
    rows = [
        [
            m.name,
            m.value if m.detail is None else brief(m.detail),
            *((m.ci_low, m.ci_high) if with_ci else ()),
        ]
        for m in metrics
    ]
    return _table_html(columns, rows)


def _plain_table_html(table: Table) -> str:
    inner = _table_html(table.columns, table.rows)
    note = f'<p class="note">{_e(table.note)}</p>' if table.note else ""
    if table.collapsed:
        return (
            f"<details><summary>{_e(table.title)} ({len(table.rows)} rows)</summary>"
            f"{note}{inner}</details>"
        )
    return f"<h3>{_e(table.title)}</h3>{note}{inner}"


def _figure_html(plot: Plot) -> str:
    if plot.draw not in _svg.__all__ or not plot.draw.endswith("_svg"):
        raise ValueError(f"unknown drawing function {plot.draw!r}")
    svg = getattr(_svg, plot.draw)(**plot.args)
    wide = ' class="wide"' if plot.draw == "box_strip_svg" else ""
    return f"<figure{wide}>{svg}<figcaption>{_e(plot.caption)}</figcaption></figure>"


def _section_html(section: Section, anchor: str) -> str:
    parts = [f'<section id="{anchor}"><h2>{_e(section.title)}</h2>']
    parts += [f'<p class="note">{_e(n)}</p>' for n in section.notes]
    tables = list(section.tables)
    if tables and tables[0].title == "Data":  # the dataset summary heads the section
        parts.append('<div class="row">' + _plain_table_html(tables.pop(0)))
        if section.metrics:
            parts.append(_metrics_html(section.metrics, section.confidence))
        parts.append("</div>")
    elif section.metrics:
        parts.append(_metrics_html(section.metrics, section.confidence))
    if section.kind == "ranking" and tables and not tables[0].collapsed:
        parts.append(_plain_table_html(tables.pop(0)))  # the measures table comes first
    if section.plots:
        parts.append('<div class="figures">')
        parts += [_figure_html(p) for p in section.plots]
        parts.append("</div>")
    parts += [_plain_table_html(t) for t in tables]
    parts.append("</section>")
    return "\n".join(parts)


def section_html(section: Section) -> str:
    """One section as an HTML fragment (escaped as the page is): what notebooks display."""
    return f"<style>{_CSS}</style>" + _section_html(section, "s1")


def render_html(
    sections: Sequence[Section],
    *,
    title: str,
    subtitle: str = "",
    meta: Sequence[tuple[str, str]] = (),
) -> str:
    """The whole page as a string; ``meta`` pairs (command line, time ...) go in the header."""
    from .. import __version__

    nav = "".join(f'<a href="#s{k}">{_e(s.title)}</a>' for k, s in enumerate(sections, 1))
    body = "\n".join(_section_html(s, f"s{k}") for k, s in enumerate(sections, 1))
    sub = f"<p>{_e(subtitle)}</p>" if subtitle else ""
    if meta:
        items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in meta)
        sub += '<dl class="meta">' + items + "</dl>"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="generator" content="scorekit {_e(__version__)}">
<title>{_e(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<header><h1>{_e(title)}</h1>{sub}</header>
<nav>{nav}</nav>
<main>
{body}
</main>
<footer>Made with scorekit {_e(__version__)}. This page is self-contained: it needs no network and runs no scripts.</footer>
</body>
</html>
"""
