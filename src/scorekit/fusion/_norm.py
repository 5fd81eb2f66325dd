"""Score normalisations, per run and per query, as ranx defines them.

Each is one segment reduction over the stacked rows (a segment is one run's
list for one query); ``borda`` needs every run's candidates and acts on the
aligned matrix instead. The denominators are floored at 1e-9 as in ranx, so a
query whose scores are all equal normalises to 0 instead of dividing by zero.

========  ==========================================================
none      the scores as given
min-max   (s - min) / max(max - min, 1e-9)
max       s / max(max, 1e-9)
sum       (s - min) / max(sum - n * min, 1e-9)
zmuv      (s - mean) / max(std, 1e-9)   (population std, ddof=0)
rank      1 - r / n   (r = 0-based rank, n = documents in the list)
borda     1 - r / c for a retrieved document, c = documents of the query over
          all runs; 0.5 - (n - 1) / (2c) for one the run did not retrieve
========  ==========================================================
"""

from __future__ import annotations

import numpy as np

from .._typing import FloatArray
from ._align import Aligned, Stacked

__all__: list[str] = []

NORMS = ("none", "min-max", "max", "sum", "zmuv", "rank", "borda")
ALIASES = {"min_max": "min-max", "minmax": "min-max", "z-score": "zmuv", "zscore": "zmuv"}
_FLOOR = 1e-9


def normalize_rows(norm: str, st: Stacked) -> FloatArray:
    """Normalised score of every stacked row (``borda`` is done by :func:`borda`)."""
    s, starts, n = st.score, st.seg_starts, st.seg_len
    if norm in ("none", "borda"):
        return s
    if norm == "rank":
        out: FloatArray = 1.0 - st.positions() / np.repeat(n, n)
        return out
    hi = np.maximum.reduceat(s, starts)
    if norm == "max":
        out = s / np.repeat(np.maximum(hi, _FLOOR), n)
        return out
    lo = np.minimum.reduceat(s, starts)
    if norm == "min-max":
        out = (s - np.repeat(lo, n)) / np.repeat(np.maximum(hi - lo, _FLOOR), n)
        return out
    total = np.add.reduceat(s, starts)
    if norm == "sum":
        out = (s - np.repeat(lo, n)) / np.repeat(np.maximum(total - lo * n, _FLOOR), n)
        return out
    mean = total / n
    dev = s - np.repeat(mean, n)
    std = np.sqrt(np.add.reduceat(dev * dev, starts) / n)
    out = dev / np.repeat(np.maximum(std, _FLOOR), n)  # zmuv
    return out


def borda(al: Aligned) -> FloatArray:
    """The (G, m) Borda-normalised matrix: every candidate gets a value in every run."""
    c = al.candidates[:, None].astype(np.float64)
    n = al.run_lengths[:, al.query].T.astype(np.float64)
    out: FloatArray = np.where(al.present, 1.0 - al.pos / c, 0.5 - (n - 1.0) / (2.0 * c))
    return out
