"""The compiled loop of :func:`scorekit._segments.segment_cumsum` (imported on first use: numba).

A plain left-to-right running sum that restarts at each segment: the same
additions in the same order as ``np.cumsum`` of each segment alone (no
fastmath, so the compiler may not reorder them), in one pass instead of the
padded matrices' gather, sum and scatter. Cached on disk (``cache=True``).
"""

# mypy: disable-error-code="misc"
from __future__ import annotations

from typing import Any

from numba import njit

__all__ = ["restarting_cumsum"]


@njit(nogil=True, cache=True)
def restarting_cumsum(a: Any, starts: Any, out: Any) -> None:
    """``out[i]`` = a[start] + ... + a[i], summed left to right from i's segment start."""
    n = a.shape[0]
    m = starts.shape[0]
    for k in range(m):
        lo = starts[k]
        hi = starts[k + 1] if k + 1 < m else n
        if lo < hi:
            total = a[lo]
            out[lo] = total
            for i in range(lo + 1, hi):
                total = total + a[i]
                out[i] = total
