"""Running sums within segments: each segment summed on its own, all segments at once.

Shared by the AUC-family kernels (GAUC's per-group areas) and the ranking
engine (per-query DCG prefixes): a running sum over several segments minus
the earlier segments' total rounds each segment against the others' weight,
so a segment of small values after large ones loses bits (or everything).
"""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray, IntArray

__all__ = ["segment_cumsum"]


def segment_cumsum(a: FloatArray, starts: IntArray, out: FloatArray) -> FloatArray:
    """``out[i]`` = the sum of ``a`` from the start of i's segment to i, each segment on its own.

    Segments start at ``starts`` (increasing, the first 0) and end where the next
    starts. Each segment's sums are the ones ``np.cumsum`` of that segment alone
    gives (left to right), never a difference of running sums over several
    segments: a segment of tiny weights after segments of large ones keeps
    every bit. From :data:`COMPILED_ROWS` entries on, one compiled pass
    (:mod:`scorekit._segkernels`: the same additions in the same order, not
    reordered); below, NumPy, vectorised by length class: the segments whose
    lengths share a bit length are padded to the longest of them (at most
    twice their entries) and summed as the rows of one matrix (one
    ``np.cumsum`` along its rows). Both give the same floats.

    >>> segment_cumsum(np.array([1e20, 1.0, 1e-20, 1e-20]), np.array([0, 2]), np.empty(4)).tolist()
    [1e+20, 1e+20, 1e-20, 2e-20]
    """
    n = a.size
    if n >= COMPILED_ROWS and a.dtype == np.float64 and out.dtype == np.float64:
        try:
            from ._segkernels import restarting_cumsum
        except ImportError:  # pragma: no cover - numba missing: the NumPy path, same floats
            return _padded_cumsum(a, starts, out)
        restarting_cumsum(a, starts, out)
        return out
    return _padded_cumsum(a, starts, out)


#: Entries from which :func:`segment_cumsum` runs compiled (below, importing numba
#: would cost more than the NumPy path).
COMPILED_ROWS = 1 << 16


def _padded_cumsum(a: FloatArray, starts: IntArray, out: FloatArray) -> FloatArray:
    """:func:`segment_cumsum` with NumPy: the segments as padded rows, by length class."""
    n = a.size
    lengths = np.diff(starts, append=n)
    klass = np.frexp(lengths)[1]  # lengths in [2**(k-1), 2**k)
    order = np.argsort(klass, kind="stable")
    bounds = np.flatnonzero(np.diff(klass[order])) + 1
    padded = np.empty(n + 1)  # entry n: the padding cells' 0 (read) and their sink (written)
    padded[:n] = a
    padded[n] = 0.0
    sums = np.empty(n + 1)
    for sel in np.split(order, bounds):
        first, size = starts[sel], lengths[sel]
        width = int(size.max())
        if width == 1:
            sums[first] = a[first]
            continue
        step = np.arange(width)
        idx = np.where(step < size[:, None], first[:, None] + step, n)
        block = padded[idx]
        np.cumsum(block, axis=1, out=block)
        sums[idx] = block
    out[:] = sums[:n]
    return out
