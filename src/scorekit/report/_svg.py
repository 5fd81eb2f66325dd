"""Figures of the report, returned as inline SVG strings.

The classification figures (curves, bands, lines, class histograms,
calibration, heat maps) are written directly as SVG text (:mod:`._figures`,
no matplotlib: milliseconds per figure). The others (scatter, histogram,
bars, per-query box plots) are drawn with matplotlib here.

Computing stays in :mod:`scorekit.report._data`; this module only draws. It
uses matplotlib's object API (``Figure``, never ``pyplot``), so no GUI
backend is touched and no global figure state is kept. matplotlib is imported
on first use; without it :class:`~scorekit.MissingDependencyError` names the
``plot`` extra.

Every SVG is made safe to paste into an HTML page: text is drawn as paths
(``svg.fonttype="path"``, so the picture needs no font and carries no markup
from the data), comments and metadata are removed, and element ids get a
per-figure prefix so that several figures can live in one document.
Strings from the user's data pass through :func:`plain` first, so a ``$``
never switches matplotlib into math mode.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from .._optional import require
from .._typing import AnyArray, FloatArray
from ._figures import (
    OKABE_ITO,
    PALETTE,
    calibration_svg,
    class_histogram_svg,
    curve_svg,
    heatmap_svg,
    lines_svg,
)

__all__ = [
    "OKABE_ITO",
    "PALETTE",
    "bar_svg",
    "box_strip_svg",
    "calibration_svg",
    "class_histogram_svg",
    "curve_svg",
    "heatmap_svg",
    "histogram_svg",
    "lines_svg",
    "plain",
    "scatter_svg",
]

_INK = "#222222"
_GRID = "#e3e3e3"
_MAX_POINTS = 4000


def plain(text: object) -> str:
    r"""Text for matplotlib that is shown literally (``$`` does not start math mode).

    >>> plain("cost in $ and $$")
    'cost in \\$ and \\$\\$'
    """
    return str(text).replace("$", r"\$")


@contextmanager
def _style() -> Iterator[Any]:
    mpl = require("matplotlib", "plot")
    rc = {
        "svg.fonttype": "path",
        "svg.hashsalt": "scorekit",
        "font.size": 9.0,
        "axes.titlesize": 10.0,
        "axes.titleweight": "bold",
        "axes.edgecolor": "#999999",
        "axes.labelcolor": _INK,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "axes.axisbelow": True,
        "grid.color": _GRID,
        "grid.linewidth": 0.8,
        "xtick.color": "#555555",
        "ytick.color": "#555555",
        "legend.frameon": False,
        "legend.fontsize": 8.0,
        "axes.prop_cycle": mpl.cycler(color=list(PALETTE)),
    }
    with mpl.rc_context(rc):
        yield mpl


def _figure(width: float = 4.6, height: float = 3.5) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _to_svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    # ids are prefixed by a hash of the figure: unique per figure, and the same on every run
    svg = _inline(text, f"f{hashlib.sha1(text.encode()).hexdigest()[:10]}-")
    return svg.replace('role="img" ', f'role="img" aria-label="{_label(fig)}" ', 1)


def _label(fig: Any) -> str:
    """What the figure shows, for screen readers (text is drawn as paths): titles and axes."""
    parts = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        bits = [ax.get_title(loc="left"), ax.get_xlabel() and f"x: {ax.get_xlabel()}"]
        bits.append(ax.get_ylabel() and f"y: {ax.get_ylabel()}")
        parts.append(", ".join(b for b in bits if b))
    return html.escape("; ".join(p for p in parts if p), quote=True)


_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->\s*", re.DOTALL)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_ID_REF = re.compile(r'(\bid="|href="#|url\(#)([^")]+)')


def _inline(svg: str, prefix: str) -> str:
    """SVG text ready to embed in HTML: no prolog, comments or metadata; ids prefixed."""
    svg = _PROLOG.sub("", svg, count=1)
    svg = _COMMENT.sub("", svg)
    svg = _METADATA.sub("", svg)
    svg = _ID_REF.sub(lambda m: m.group(1) + prefix + m.group(2), svg)
    return svg.replace("<svg ", '<svg class="plot" role="img" ', 1).strip()


def _thin(*arrays: AnyArray, most: int = _MAX_POINTS) -> tuple[AnyArray, ...]:
    """Every k-th point so that at most ``most`` are drawn (deterministic)."""
    n = len(arrays[0])
    if n <= most:
        return arrays
    step = int(np.ceil(n / most))
    return tuple(a[::step] for a in arrays)


def scatter_svg(
    x: FloatArray,
    y: FloatArray,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    diagonal: bool = False,
    groups: AnyArray | None = None,
) -> str:
    """Scatter plot (predicted against true, or two features coloured by cluster)."""
    with _style():
        fig = _figure()
        ax = fig.add_subplot()
        if groups is None:
            xs, ys = _thin(np.asarray(x), np.asarray(y))
            ax.scatter(xs, ys, s=12, alpha=0.55, color=PALETTE[0], linewidths=0)
        else:
            xs, ys, gs = _thin(np.asarray(x), np.asarray(y), np.asarray(groups))
            kinds = np.unique(gs)
            for kind in kinds[: len(PALETTE)]:
                sel = gs == kind
                ax.scatter(xs[sel], ys[sel], s=12, alpha=0.6, linewidths=0, label=plain(kind))
            if kinds.size > len(PALETTE):
                rest = ~np.isin(gs, kinds[: len(PALETTE)])
                ax.scatter(xs[rest], ys[rest], s=8, alpha=0.4, color="#bbbbbb", label="other")
            ax.legend(loc="best", markerscale=2)
        if diagonal and len(x):
            lo = float(min(np.min(x), np.min(y)))
            hi = float(max(np.max(x), np.max(y)))
            ax.plot([lo, hi], [lo, hi], ls="--", lw=1, color="#888888", label="y = x")
        ax.set(xlabel=plain(xlabel), ylabel=plain(ylabel))
        ax.set_title(plain(title), loc="left")
        return _to_svg(fig)


def histogram_svg(values: FloatArray, *, title: str, xlabel: str, bins: int = 30) -> str:
    """Histogram of values (residuals, per-group AUC)."""
    with _style():
        fig = _figure(4.6, 3.2)
        ax = fig.add_subplot()
        v = np.asarray(values, dtype=np.float64)
        ax.hist(v[np.isfinite(v)], bins=bins, color=PALETTE[0], edgecolor="white", linewidth=0.5)
        ax.set(xlabel=plain(xlabel), ylabel="count")
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.set_title(plain(title), loc="left")
        return _to_svg(fig)


def bar_svg(labels: Sequence[object], values: Sequence[float], *, title: str, ylabel: str) -> str:
    """Bar chart of one value per label (per-class F1)."""
    with _style():
        fig = _figure(4.6, 3.2)
        ax = fig.add_subplot()
        ax.bar(range(len(values)), values, color=PALETTE[0])
        ax.set_xticks(range(len(labels)), [plain(s) for s in labels])
        ax.set(ylabel=ylabel, ylim=(0, 1.02))
        ax.set_title(plain(title), loc="left")
        return _to_svg(fig)


def box_strip_svg(
    data: Sequence[tuple[str, Sequence[tuple[str, FloatArray]]]],
    *,
    title: str,
) -> str:
    """Per-query distributions: one panel per measure, a box plot and jittered points per system.

    ``data`` is ``[(measure, [(system, per-query values), ...]), ...]``.
    """
    n = len(data)
    cols = min(n, 3)
    rows = int(np.ceil(n / cols)) if n else 1
    n_systems = max((len(systems) for _, systems in data), default=1)
    width = max(4.6, cols * (1.4 + 0.7 * n_systems))
    with _style():
        fig = _figure(width, 2.9 * rows + 0.3)
        axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
        jitter = np.random.default_rng(0)
        for ax, (measure, systems) in zip(axes, data, strict=False):
            values = [np.asarray(v, dtype=np.float64) for _, v in systems]
            ax.boxplot(
                values,
                widths=0.5,
                showfliers=False,
                medianprops={"color": _INK},
                boxprops={"color": "#777777"},
                whiskerprops={"color": "#777777"},
                capprops={"color": "#777777"},
            )
            for k, v in enumerate(values):
                xs = k + 1 + jitter.uniform(-0.18, 0.18, size=v.size)
                ax.scatter(xs, v, s=10, alpha=0.6, linewidths=0, color=PALETTE[k % len(PALETTE)])
            ax.set_xticks(range(1, len(systems) + 1), [plain(s) for s, _ in systems])
            finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.array([])
            if finite.size and finite.min() >= 0 and finite.max() <= 1:
                ax.set_ylim(-0.03, 1.03)  # a measure in [0, 1] is drawn on its whole range
            ax.set_title(plain(measure), loc="left")
            ax.grid(axis="x", visible=False)
        for ax in axes[n:]:
            ax.set_visible(False)
        fig.suptitle(plain(title), x=0.01, ha="left", fontweight="bold", fontsize=10)
        return _to_svg(fig)
