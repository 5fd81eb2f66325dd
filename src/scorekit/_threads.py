"""The two worker threads that large array passes share (NumPy releases the GIL in them).

Sorts, gathers and ``np.bincount`` run in C without the GIL, so two halves of
such work on two threads take about half the wall time on a two-core machine.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

__all__ = ["parallel_pool"]

_POOL: ThreadPoolExecutor | None = None


def parallel_pool() -> ThreadPoolExecutor:
    """The shared pool of two worker threads (created on first use)."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(2, thread_name_prefix="scorekit-sort")
    return _POOL
