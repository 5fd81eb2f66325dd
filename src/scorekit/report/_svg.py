"""Figures of the report, drawn with matplotlib and returned as inline SVG strings.

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
import itertools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from .._optional import require
from .._typing import AnyArray, FloatArray

__all__ = [
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

PALETTE = ("#3366cc", "#dc7633", "#2e9e6b", "#8e44ad", "#c0392b", "#7f8c8d", "#d4ac0d", "#16a085")
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


def curve_svg(
    curves: Sequence[tuple[str, FloatArray, FloatArray]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    diagonal: bool = False,
    baseline: float | None = None,
    step: bool = False,
) -> str:
    """Line plot of one or more curves (ROC, precision–recall) on the unit square."""
    with _style():
        fig = _figure()
        ax = fig.add_subplot()
        if diagonal:
            ax.plot([0, 1], [0, 1], ls="--", lw=1, color="#aaaaaa", label="chance")
        if baseline is not None:
            ax.axhline(baseline, ls="--", lw=1, color="#aaaaaa", label=f"base rate {baseline:.3f}")
        for label, x, y in curves:
            x, y = _thin(np.asarray(x), np.asarray(y))
            if step:
                ax.step(x, y, where="post", lw=1.8, label=plain(label))
            else:
                ax.plot(x, y, lw=1.8, label=plain(label))
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.02), xlabel=xlabel, ylabel=ylabel)
        ax.set_title(plain(title), loc="left")
        ax.legend(loc="lower right" if diagonal else "lower left")
        return _to_svg(fig)


def calibration_svg(
    prob_pred: FloatArray,
    prob_true: FloatArray,
    hist_edges: FloatArray,
    hist_counts: AnyArray,
    *,
    title: str = "Calibration (reliability)",
) -> str:
    """Reliability diagram: observed frequency against mean predicted probability, histogram below."""
    with _style():
        fig = _figure(4.6, 4.0)
        top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(3, 1))
        # skewed data (CTR) lives near 0: zoom to the data, the diagonal stays the reference
        reach = float(np.nanmax(np.concatenate([prob_pred, prob_true, hist_edges[-1:]]), initial=0))
        top_end = 1.0 if reach > 0.5 else max(reach * 1.15, 1e-3)
        top.plot(
            [0, top_end], [0, top_end], ls="--", lw=1, color="#aaaaaa", label="perfectly calibrated"
        )
        top.plot(prob_pred, prob_true, marker="o", ms=4, lw=1.8, label="model")
        pad = top_end * 0.01
        top.set(
            xlim=(-pad, top_end + pad), ylim=(-pad, top_end + 2 * pad), ylabel="observed frequency"
        )
        top.set_title(plain(title), loc="left")
        top.legend(loc="upper left")
        widths = np.diff(hist_edges)
        bottom.bar(hist_edges[:-1], hist_counts, width=widths, align="edge", color=PALETTE[0])
        bottom.set(xlabel="mean predicted probability", ylabel="count")
        bottom.grid(axis="x", visible=False)
        return _to_svg(fig)


def heatmap_svg(
    matrix: AnyArray,
    row_labels: Sequence[object],
    col_labels: Sequence[object],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    normalize_rows: bool = True,
) -> str:
    """Heat map of a count matrix (confusion or contingency); colours by row share, cells show counts."""
    m = np.asarray(matrix, dtype=np.float64)
    totals = m.sum(axis=1, keepdims=True)
    shade = np.divide(m, totals, out=np.zeros_like(m), where=totals > 0) if normalize_rows else m
    n_rows, n_cols = m.shape
    size = max(3.2, min(8.0, 1.6 + 0.45 * max(n_rows, n_cols)))
    with _style():
        fig = _figure(size + 0.8, size)
        ax = fig.add_subplot()
        ax.grid(False)
        image = ax.imshow(shade, cmap="Blues", vmin=0, aspect="auto")
        ax.set_xticks(
            range(n_cols), [plain(c) for c in col_labels], rotation=45 if n_cols > 4 else 0
        )
        ax.set_yticks(range(n_rows), [plain(r) for r in row_labels])
        ax.set(xlabel=xlabel, ylabel=ylabel)
        ax.set_title(plain(title), loc="left")
        if n_rows * n_cols <= 400:
            limit = float(shade.max()) if shade.size else 0.0
            for i, j in itertools.product(range(n_rows), range(n_cols)):
                dark = limit > 0 and shade[i, j] > 0.55 * limit
                ax.text(
                    j,
                    i,
                    f"{m[i, j]:.0f}" if float(m[i, j]).is_integer() else f"{m[i, j]:.3g}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if dark else _INK,
                )
        bar = fig.colorbar(image, ax=ax, shrink=0.8)
        bar.set_label("share of row" if normalize_rows else "count")
        return _to_svg(fig)


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


def class_histogram_svg(
    groups: Sequence[tuple[str, FloatArray]], *, title: str, xlabel: str, bins: int = 40
) -> str:
    """Overlaid histograms of one value per class (score distributions by class), as densities."""
    with _style():
        fig = _figure(4.6, 3.2)
        ax = fig.add_subplot()
        finite = [np.asarray(v, dtype=np.float64) for _, v in groups]
        finite = [v[np.isfinite(v)] for v in finite]
        both = np.concatenate(finite) if finite else np.array([0.0])
        edges = np.histogram_bin_edges(both, bins=bins)
        for k, ((label, _), v) in enumerate(zip(groups, finite, strict=True)):
            ax.hist(
                v, bins=edges, density=True, alpha=0.55, color=PALETTE[k % len(PALETTE)],
                label=f"{plain(label)} (n = {v.size:,})",
            )  # fmt: skip
        ax.set(xlabel=plain(xlabel), ylabel="density")
        ax.set_title(plain(title), loc="left")
        ax.legend(loc="upper right")
        return _to_svg(fig)


def lines_svg(
    lines: Sequence[tuple[str, FloatArray, FloatArray]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    reference: tuple[str, FloatArray, FloatArray] | None = None,
    marks: Sequence[tuple[str, float]] = (),
) -> str:
    """Lines on free axes (metrics against the threshold, gains, lift); dashed reference line.

    ``marks`` are vertical lines at chosen x values (the F1-optimal threshold ...).
    """
    with _style():
        fig = _figure()
        ax = fig.add_subplot()
        if reference is not None:
            label, x, y = reference
            ax.plot(x, y, ls="--", lw=1, color="#aaaaaa", label=plain(label))
        for k, (label, x, y) in enumerate(lines):
            x, y = _thin(np.asarray(x), np.asarray(y))
            ax.plot(x, y, lw=1.8, color=PALETTE[k % len(PALETTE)], label=plain(label))
        for label, at in marks:
            ax.axvline(at, ls=":", lw=1, color=_INK, label=plain(label))
        ax.set(xlabel=plain(xlabel), ylabel=plain(ylabel))
        ax.set_title(plain(title), loc="left")
        ax.legend(loc="best")
        return _to_svg(fig)
