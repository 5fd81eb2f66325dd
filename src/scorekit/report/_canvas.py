"""A small SVG plotting surface for the report's line, band, bar and cell figures.

The classification figures (ROC and PR curves with their bands, metrics
against the threshold, gains, lift, score distributions, calibration, the
confusion matrix) are written here as SVG text directly: a figure costs
milliseconds, against a few hundred for a matplotlib figure, and nothing is
imported. Curves are reduced to the pixel resolution before they are written
(:func:`pixel_points`: per pixel column the first, lowest, highest and last
point), so a curve of a million thresholds is a path of a few thousand
points; the numbers of the report are computed from the exact points.

Every string (titles, labels, legend entries: class names and column names
come from the user's data) is escaped with :func:`html.escape`; the SVG holds
no script, no link and no id.
"""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np

from .._typing import AnyArray, FloatArray

__all__ = ["Canvas", "Panel", "nice_ticks", "pixel_points"]

_INK = "#222222"
_MUTED = "#555555"
_GRID = "#e3e3e3"
_FONT = "-apple-system, 'Segoe UI', 'Helvetica Neue', Arial, sans-serif"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if math.isfinite(v) else "0"


def nice_ticks(lo: float, hi: float, most: int = 6) -> FloatArray:
    """Round tick values covering [lo, hi] with steps of 1, 2 or 5 times a power of ten.

    >>> nice_ticks(0.0, 1.0).tolist()
    [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return np.array([lo]) if math.isfinite(lo) else np.zeros(1)
    raw = (hi - lo) / max(most - 1, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    out: FloatArray = np.arange(first, last + 1, dtype=np.float64) * step
    return out


def _tick_text(v: float, step: float) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        return f"{v:.1e}"
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 2
    return f"{v:.{decimals}f}"


def pixel_points(px: FloatArray, py: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A polyline reduced to what a pixel grid shows: per run of one pixel column, 4 points.

    ``px`` must be monotone (the x of a curve); each run of points in the same
    column keeps its first, lowest, highest and last point, in that order.

    >>> x, y = pixel_points(np.linspace(0, 2, 1001), np.linspace(0, 1, 1001))
    >>> len(x) <= 12
    True
    """
    n = px.size
    if n <= 8:
        return px, py
    col = np.floor(px)
    starts = np.r_[0, np.flatnonzero(col[1:] != col[:-1]) + 1]
    if starts.size * 4 >= n:
        return px, py
    ends = np.r_[starts[1:], n] - 1
    low = np.minimum.reduceat(py, starts)
    high = np.maximum.reduceat(py, starts)
    mid = col[starts] + 0.5
    xs = np.stack([px[starts], mid, mid, px[ends]], axis=1).ravel()
    ys = np.stack([py[starts], low, high, py[ends]], axis=1).ravel()
    return xs, ys


class Panel:
    """A plotting area: data limits mapped onto a pixel box of the canvas."""

    def __init__(
        self,
        canvas: Canvas,
        box: tuple[float, float, float, float],
        xlim: tuple[float, float],
        ylim: tuple[float, float],
    ) -> None:
        self.canvas = canvas
        self.left, self.top, self.width, self.height = box
        lo, hi = xlim
        self.xlim = (lo, hi if hi > lo else lo + 1.0)
        lo, hi = ylim
        self.ylim = (lo, hi if hi > lo else lo + 1.0)
        self.legend_items: list[tuple[str, str, str]] = []

    def sx(self, x: Any) -> Any:
        lo, hi = self.xlim
        return self.left + (np.asarray(x, dtype=np.float64) - lo) / (hi - lo) * self.width

    def sy(self, y: Any) -> Any:
        lo, hi = self.ylim
        return (
            self.top
            + self.height
            - (np.asarray(y, dtype=np.float64) - lo) / (hi - lo) * self.height
        )

    def _clip(self, v: FloatArray, lo: float, hi: float) -> FloatArray:
        return np.clip(np.nan_to_num(v, nan=hi, posinf=hi, neginf=lo), lo - 2, hi + 2)

    def _xy(self, x: AnyArray, y: AnyArray) -> tuple[FloatArray, FloatArray]:
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        ok = np.isfinite(x) & np.isfinite(y)
        if not ok.all():
            x, y = x[ok], y[ok]
        px = self._clip(self.sx(x), self.left, self.left + self.width)
        py = self._clip(self.sy(y), self.top, self.top + self.height)
        return px, py

    def axes(self, *, title: str, xlabel: str, ylabel: str, xgrid: bool = True) -> None:
        """Grid, ticks, tick labels, axis labels and the title."""
        c, right, bottom = self.canvas, self.left + self.width, self.top + self.height
        xt = nice_ticks(*self.xlim)
        yt = nice_ticks(*self.ylim)
        grid = []
        if xgrid:
            grid += [f"M{_num(x)} {_num(self.top)}V{_num(bottom)}" for x in self.sx(xt)]
        grid += [f"M{_num(self.left)} {_num(y)}H{_num(right)}" for y in self.sy(yt)]
        c.add(f'<path d="{"".join(grid)}" stroke="{_GRID}" stroke-width="0.8" fill="none"/>')
        c.add(
            f'<path d="M{_num(self.left)} {_num(self.top)}V{_num(bottom)}H{_num(right)}" '
            'stroke="#999999" stroke-width="1" fill="none"/>'
        )
        ticks = [f"M{_num(x)} {_num(bottom)}v4" for x in self.sx(xt)]
        ticks += [f"M{_num(self.left)} {_num(y)}h-4" for y in self.sy(yt)]
        c.add(f'<path d="{"".join(ticks)}" stroke="#999999" stroke-width="1"/>')
        xstep = float(xt[1] - xt[0]) if xt.size > 1 else 1.0
        ystep = float(yt[1] - yt[0]) if yt.size > 1 else 1.0
        for v, x in zip(xt, self.sx(xt), strict=True):
            c.text(float(x), bottom + 15, _tick_text(float(v), xstep), anchor="middle", fill=_MUTED)
        for v, y in zip(yt, self.sy(yt), strict=True):
            c.text(
                self.left - 6,
                float(y) + 3.5,
                _tick_text(float(v), ystep),
                anchor="end",
                fill=_MUTED,
            )
        if xlabel:
            c.text(self.left + self.width / 2, bottom + 31, xlabel, anchor="middle")
        if ylabel:
            c.text(self.left - 40, self.top + self.height / 2, ylabel, anchor="middle", rotate=True)
        if title:
            c.text(self.left, self.top - 10, title, size=12, weight="bold")

    def line(
        self,
        x: Any,
        y: Any,
        *,
        color: str,
        width: float = 1.8,
        dash: str | None = None,
        step: bool = False,
        label: str | None = None,
        marker: bool = False,
    ) -> None:
        """A polyline (``step``: horizontal then vertical, as ``where="post"``), reduced to pixels."""
        px, py = self._xy(x, y)
        if px.size == 0:
            return
        if step and px.size > 1:
            px = np.repeat(px, 2)[1:]
            py = np.repeat(py, 2)[:-1]
        if not marker:
            px, py = pixel_points(px, py)
        d = "M" + "L".join(
            f"{a:.1f} {b:.1f}" for a, b in zip(px.tolist(), py.tolist(), strict=True)
        )
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.canvas.add(
            f'<path d="{d}" stroke="{color}" stroke-width="{width}" fill="none" '
            f'stroke-linejoin="round"{extra}/>'
        )
        if marker:
            dots = "".join(
                f"M{a:.1f} {b:.1f}m-3 0a3 3 0 1 0 6 0a3 3 0 1 0 -6 0"
                for a, b in zip(px.tolist(), py.tolist(), strict=True)
            )
            self.canvas.add(f'<path d="{dots}" fill="{color}"/>')
        if label is not None:
            self.legend_items.append((label, color, dash or ""))

    def band(
        self, x: AnyArray, low: AnyArray, high: AnyArray, *, color: str, label: str | None = None
    ) -> None:
        """A shaded area between ``low`` and ``high`` over ``x``."""
        x = np.asarray(x, dtype=np.float64)
        ok = np.isfinite(low) & np.isfinite(high) & np.isfinite(x)
        if not ok.any():
            return
        ux, uy = self._xy(x[ok], np.asarray(high)[ok])
        lx, ly = self._xy(x[ok], np.asarray(low)[ok])
        xs = np.r_[ux, lx[::-1]]
        ys = np.r_[uy, ly[::-1]]
        d = "M" + "L".join(
            f"{a:.1f} {b:.1f}" for a, b in zip(xs.tolist(), ys.tolist(), strict=True)
        )
        self.canvas.add(f'<path d="{d}Z" fill="{color}" fill-opacity="0.22" stroke="none"/>')
        if label is not None:
            self.legend_items.append((label, color, "band"))

    def error_bars(self, x: AnyArray, low: AnyArray, high: AnyArray, *, color: str) -> None:
        """Vertical bars from ``low`` to ``high`` at each ``x``, with caps."""
        xs, lo = self._xy(x, low)
        _, hi = self._xy(x, high)
        d = "".join(
            f"M{a:.1f} {b:.1f}V{c:.1f}M{a - 3:.1f} {b:.1f}h6M{a - 3:.1f} {c:.1f}h6"
            for a, b, c in zip(xs.tolist(), lo.tolist(), hi.tolist(), strict=True)
        )
        if d:
            self.canvas.add(f'<path d="{d}" stroke="{color}" stroke-width="1.2" fill="none"/>')

    def bars(
        self,
        left: AnyArray,
        width: AnyArray,
        height: AnyArray,
        *,
        color: str,
        opacity: float = 1.0,
        label: str | None = None,
    ) -> None:
        """Bars from 0 up to ``height``; each spans [left, left + width)."""
        left = np.asarray(left, dtype=np.float64)
        x0 = self.sx(left)
        x1 = self.sx(left + np.asarray(width, dtype=np.float64))
        y0 = float(self.sy(0.0))
        y1 = self.sy(height)
        d = "".join(
            f"M{a:.1f} {y0:.1f}V{c:.1f}H{b:.1f}V{y0:.1f}Z"
            for a, b, c in zip(x0.tolist(), x1.tolist(), y1.tolist(), strict=True)
            if math.isfinite(c)
        )
        if d:
            self.canvas.add(
                f'<path d="{d}" fill="{color}" fill-opacity="{opacity}" stroke="white" stroke-width="0.4"/>'
            )
        if label is not None:
            self.legend_items.append((label, color, "band"))

    def vline(self, x: float, *, color: str, dash: str, label: str | None = None) -> None:
        px = float(self.sx(x))
        if self.left - 1 <= px <= self.left + self.width + 1:
            self.canvas.add(
                f'<path d="M{px:.1f} {self.top:.1f}V{self.top + self.height:.1f}" stroke="{color}" '
                f'stroke-width="1" stroke-dasharray="{dash}"/>'
            )
        if label is not None:
            self.legend_items.append((label, color, dash))

    def legend(self, where: str = "lower right") -> None:
        """The legend entries in a box at a corner of the panel."""
        items = self.legend_items
        if not items:
            return
        c = self.canvas
        widest = max(len(label) for label, _, _ in items)
        w = 30 + 5.6 * min(widest, 44)
        h = 15 * len(items) + 6
        x = self.left + 8 if "left" in where else self.left + self.width - w - 4
        y = self.top + 6 if "upper" in where else self.top + self.height - h - 4
        c.add(
            f'<path d="M{x:.1f} {y:.1f}h{w:.1f}v{h:.1f}h{-w:.1f}Z" fill="white" '
            'fill-opacity="0.85" stroke="none"/>'
        )
        for k, (label, color, style) in enumerate(items):
            ly = y + 11 + 15 * k
            if style == "band":
                c.add(
                    f'<path d="M{x + 4:.1f} {ly - 5:.1f}h18v8h-18Z" fill="{color}" fill-opacity="0.35"/>'
                )
            else:
                dash = f' stroke-dasharray="{style}"' if style else ""
                c.add(
                    f'<path d="M{x + 4:.1f} {ly - 1:.1f}h18" stroke="{color}" stroke-width="2"{dash}/>'
                )
            c.text(x + 27, ly + 2.5, label[:60], size=9)


class Canvas:
    """An SVG document built from text pieces; :meth:`panel` adds a plotting area."""

    def __init__(self, width: float = 460, height: float = 350) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.labels: list[str] = []  # what each panel shows, for screen readers

    def add(self, piece: str) -> None:
        self.parts.append(piece)

    def text(
        self,
        x: float,
        y: float,
        text: object,
        *,
        anchor: str = "start",
        size: float = 10,
        weight: str = "normal",
        fill: str = _INK,
        rotate: bool = False,
    ) -> None:
        turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if rotate else ""
        bold = ' font-weight="bold"' if weight == "bold" else ""
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}"{bold}{turn}>{_e(text)}</text>'
        )

    def panel(
        self,
        box: tuple[float, float, float, float],
        xlim: tuple[float, float],
        ylim: tuple[float, float],
        *,
        title: str = "",
        xlabel: str = "",
        ylabel: str = "",
        xgrid: bool = True,
    ) -> Panel:
        p = Panel(self, box, xlim, ylim)
        p.axes(title=title, xlabel=xlabel, ylabel=ylabel, xgrid=xgrid)
        bits = [title, xlabel and f"x: {xlabel}", ylabel and f"y: {ylabel}"]
        self.labels.append(", ".join(b for b in bits if b))
        return p

    def svg(self) -> str:
        label = _e("; ".join(lb for lb in self.labels if lb))
        head = (
            f'<svg class="plot" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg" '
            f'width="{self.width:.0f}pt" height="{self.height:.0f}pt" '
            f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" font-family="{_FONT}">'
        )
        return head + "".join(self.parts) + "</svg>"
