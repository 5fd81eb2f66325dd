"""The classification figures, written as SVG text with :mod:`._canvas` (no matplotlib).

ROC and precision–recall curves (with bootstrap bands), metrics against the
threshold, gains and lift (:func:`lines_svg`), score distributions by class,
the reliability diagram (with per-bin intervals) and the heat map of a
confusion or contingency table. Each takes plain arrays computed elsewhere
(:mod:`._sections`) and only draws.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._typing import AnyArray, FloatArray
from ._canvas import Canvas

__all__ = [
    "OKABE_ITO",
    "PALETTE",
    "calibration_svg",
    "class_histogram_svg",
    "curve_svg",
    "heatmap_svg",
    "lines_svg",
]

PALETTE = ("#3366cc", "#dc7633", "#2e9e6b", "#8e44ad", "#c0392b", "#7f8c8d", "#d4ac0d", "#16a085")
#: Okabe & Ito's colour-blind-safe palette (yellow last: it is faint on white).
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442")
_REF = "#aaaaaa"
_W, _H = 400.0, 310.0
_BOX = (54.0, 28.0, _W - 54.0 - 12.0, _H - 28.0 - 46.0)

Band = tuple[FloatArray, FloatArray, FloatArray]


def _span(*arrays: AnyArray) -> tuple[float, float]:
    finite = [a[np.isfinite(a)] for a in (np.asarray(x, dtype=np.float64) for x in arrays)]
    finite = [a for a in finite if a.size]
    if not finite:
        return 0.0, 1.0
    lo = min(float(a.min()) for a in finite)
    hi = max(float(a.max()) for a in finite)
    pad = (hi - lo) * 0.03 or 0.5
    return lo - pad, hi + pad


def curve_svg(
    curves: Sequence[tuple[str, FloatArray, FloatArray]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    diagonal: bool = False,
    baseline: float | None = None,
    step: bool = False,
    bands: Sequence[Band | None] = (),
    band_label: str = "",
    palette: Sequence[str] = PALETTE,
) -> str:
    """Curves on the unit square (ROC, precision–recall), each with an optional shaded band.

    ``bands[k]`` is ``(x, low, high)`` for curve k (a pointwise interval over a grid of x).
    """
    c = Canvas(_W, _H)
    p = c.panel(_BOX, (-0.01, 1.01), (-0.01, 1.02), title=title, xlabel=xlabel, ylabel=ylabel)
    if diagonal:
        p.line([0, 1], [0, 1], color=_REF, width=1, dash="4 3", label="chance")
    if baseline is not None:
        p.line([0, 1], [baseline, baseline], color=_REF, width=1, dash="4 3",
               label=f"base rate {baseline:.3f}")  # fmt: skip
    for k, band in enumerate(bands):
        if band is not None:
            colour = palette[k % len(palette)]
            p.band(*band, color=colour, label=band_label if k == 0 and band_label else None)
    for k, (label, x, y) in enumerate(curves):
        dash = "6 2" if k >= len(palette) else None  # more curves than colours: dashed
        p.line(x, y, color=palette[k % len(palette)], step=step, label=label, dash=dash)
    p.legend("lower right" if diagonal else "lower left")
    return c.svg()


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
    xs = [x for _, x, _ in lines] + ([reference[1]] if reference else [])
    ys = [y for _, _, y in lines] + ([reference[2]] if reference else [])
    c = Canvas(_W, _H)
    p = c.panel(_BOX, _span(*xs), _span(*ys), title=title, xlabel=xlabel, ylabel=ylabel)
    if reference is not None:
        label, x, y = reference
        p.line(x, y, color=_REF, width=1, dash="4 3", label=label)
    for k, (label, x, y) in enumerate(lines):
        p.line(x, y, color=PALETTE[k % len(PALETTE)], label=label)
    for label, at in marks:
        p.vline(at, color="#222222", dash="1 2", label=label)
    p.legend("upper right")
    return c.svg()


def class_histogram_svg(
    edges: FloatArray,
    groups: Sequence[tuple[str, AnyArray]],
    *,
    title: str,
    xlabel: str,
) -> str:
    """Overlaid histograms (as densities) of one value per class, from counts over ``edges``."""
    edges = np.asarray(edges, dtype=np.float64)
    widths = np.diff(edges)
    dens = []
    for _, counts in groups:
        counts = np.asarray(counts, dtype=np.float64)
        total = counts.sum()
        dens.append(counts / (total * widths) if total > 0 else np.zeros_like(counts))
    top = max((float(d.max()) for d in dens if d.size), default=1.0)
    c = Canvas(_W, 280.0)
    box = (_BOX[0], _BOX[1], _BOX[2], 280.0 - 28.0 - 46.0)
    p = c.panel(box, (float(edges[0]), float(edges[-1])), (0.0, top * 1.05 or 1.0),
                title=title, xlabel=xlabel, ylabel="density")  # fmt: skip
    for k, ((label, counts), d) in enumerate(zip(groups, dens, strict=True)):
        n = int(np.asarray(counts).sum())
        p.bars(edges[:-1], widths, d, color=PALETTE[k % len(PALETTE)], opacity=0.55,
               label=f"{label} (n = {n:,})")  # fmt: skip
    p.legend("upper right")
    return c.svg()


def calibration_svg(
    prob_pred: FloatArray,
    prob_true: FloatArray,
    hist_edges: FloatArray,
    hist_counts: AnyArray,
    *,
    title: str = "Calibration (reliability)",
    low: FloatArray | None = None,
    high: FloatArray | None = None,
    interval_label: str = "",
) -> str:
    """Reliability diagram: observed frequency against mean predicted probability, counts below.

    ``low`` and ``high`` (one per point) draw an error bar on each point.
    """
    prob_pred, prob_true = np.asarray(prob_pred), np.asarray(prob_true)
    hist_edges = np.asarray(hist_edges, dtype=np.float64)
    parts = [prob_pred, prob_true, hist_edges[-1:]]
    parts += [np.asarray(high)] if high is not None else []
    every = np.concatenate(parts)
    reach = float(np.nanmax(every[np.isfinite(every)], initial=0.0))
    top_end = 1.0 if reach > 0.5 else max(reach * 1.15, 1e-3)
    pad = top_end * 0.01
    c = Canvas(_W, 360.0)
    upper = c.panel((54.0, 28.0, _W - 66.0, 200.0), (-pad, top_end + pad), (-pad, top_end + 2 * pad),
                    title=title, xlabel="", ylabel="observed frequency")  # fmt: skip
    upper.line([0, top_end], [0, top_end], color=_REF, width=1, dash="4 3",
               label="perfectly calibrated")  # fmt: skip
    if low is not None and high is not None:
        upper.error_bars(prob_pred, low, high, color=PALETTE[0])
        if interval_label:
            upper.legend_items.append((interval_label, PALETTE[0], ""))
    upper.line(prob_pred, prob_true, color=PALETTE[0], marker=True, label="model")
    upper.legend("upper left")
    counts = np.asarray(hist_counts, dtype=np.float64)
    lower = c.panel((54.0, 256.0, _W - 66.0, 58.0), (-pad, top_end + pad),
                    (0.0, float(counts.max(initial=0.0)) * 1.05 or 1.0),
                    xlabel="mean predicted probability", ylabel="count", xgrid=False)  # fmt: skip
    lower.bars(hist_edges[:-1], np.diff(hist_edges), counts, color=PALETTE[0])
    return c.svg()


_BLUES = np.array(
    [
        [0xF7, 0xFB, 0xFF],
        [0xC6, 0xDB, 0xEF],
        [0x6B, 0xAE, 0xD6],
        [0x21, 0x71, 0xB5],
        [0x08, 0x30, 0x6B],
    ],
    dtype=np.float64,
)


def _blue(share: float) -> str:
    """A colour of a white-to-dark-blue ramp for ``share`` in [0, 1]."""
    t = min(max(share, 0.0), 1.0) * (len(_BLUES) - 1)
    k = min(int(t), len(_BLUES) - 2)
    rgb = _BLUES[k] + (_BLUES[k + 1] - _BLUES[k]) * (t - k)
    return "#" + "".join(f"{round(float(v)):02x}" for v in rgb)


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
    longest = max((len(str(v)) for v in [*row_labels, *col_labels]), default=1)
    margin = 40.0 + 6.0 * min(longest, 24)
    cell = max(18.0, min(110.0, 260.0 / max(n_rows, n_cols, 1)))
    width = margin + cell * n_cols + 90.0
    height = 40.0 + cell * n_rows + margin
    c = Canvas(width, height)
    limit = float(shade.max()) if shade.size else 0.0
    scale = limit if limit > 0 else 1.0
    rects = []
    for i in range(n_rows):
        for j in range(n_cols):
            x, y = margin + j * cell, 30.0 + i * cell
            rects.append(
                f'<path d="M{x:.1f} {y:.1f}h{cell:.1f}v{cell:.1f}h{-cell:.1f}Z" '
                f'fill="{_blue(shade[i, j] / scale)}"/>'
            )
    c.add("".join(rects))
    if n_rows * n_cols <= 400:
        for i in range(n_rows):
            for j in range(n_cols):
                v = m[i, j]
                text = f"{v:.0f}" if float(v).is_integer() else f"{v:.3g}"
                dark = limit > 0 and shade[i, j] > 0.55 * limit
                c.text(margin + (j + 0.5) * cell, 30.0 + (i + 0.5) * cell + 3.5, text,
                       anchor="middle", size=9, fill="white" if dark else "#222222")  # fmt: skip
    ticks = "".join(
        f"M{margin + (j + 0.5) * cell:.1f} {30.0 + cell * n_rows:.1f}v4" for j in range(n_cols)
    )
    ticks += "".join(f"M{margin:.1f} {30.0 + (i + 0.5) * cell:.1f}h-4" for i in range(n_rows))
    c.add(f'<path d="{ticks}" stroke="#999999" stroke-width="1"/>')
    base = 30.0 + cell * n_rows
    for j, label in enumerate(col_labels):
        x = margin + (j + 0.5) * cell
        c.text(x, base + 14, str(label)[:24], anchor="end" if n_cols > 4 else "middle", size=9,
               rotate=n_cols > 4)  # fmt: skip
    for i, label in enumerate(row_labels):
        c.text(margin - 7, 30.0 + (i + 0.5) * cell + 3.5, str(label)[:24], anchor="end", size=9)
    c.text(margin + cell * n_cols / 2, height - 8, xlabel, anchor="middle")
    c.text(14, 30.0 + cell * n_rows / 2, ylabel, anchor="middle", rotate=True)
    c.text(margin, 18, title, size=12, weight="bold")
    c.labels.append(", ".join(b for b in (title, f"x: {xlabel}", f"y: {ylabel}") if b))
    # the colour scale: 20 steps from 0 to the largest share
    bx, top, tall = margin + cell * n_cols + 16.0, 30.0, cell * n_rows
    steps = "".join(
        f'<path d="M{bx:.1f} {top + tall * (1 - (k + 1) / 20):.1f}h12v{tall / 20 + 0.3:.1f}h-12Z" '
        f'fill="{_blue((k + 0.5) / 20)}"/>'
        for k in range(20)
    )
    c.add(steps)
    c.text(bx + 16, top + 8, f"{scale:.2g}", size=8)
    c.text(bx + 16, top + tall, "0", size=8)
    c.text(bx + 44, top + tall / 2, "share of row" if normalize_rows else "count", anchor="middle",
           size=9, rotate=True)  # fmt: skip
    return c.svg()
