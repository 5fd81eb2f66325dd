"""``consume``: feed an iterable of chunks to an accumulator, with an optional progress bar."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from .._errors import ParameterError

__all__ = ["consume"]

A = TypeVar("A")


def _feed(acc: Any, chunk: Any) -> None:
    if isinstance(chunk, Mapping):
        acc.update(**chunk)
    elif isinstance(chunk, tuple):
        acc.update(*chunk)
    else:
        acc.update(chunk)


#: the progress hook: called as ``progress(done, total)`` after each chunk
ProgressHook = Callable[[int, "int | None"], None]


def consume(
    acc: A, chunks: Iterable[Any], *, progress: ProgressHook | None = None, total: int | None = None
) -> A:
    """Update ``acc`` with every chunk of ``chunks`` and return it.

    A chunk is a tuple of ``update``'s positional arguments
    (``(y_true, y_score)``), a mapping of its keyword arguments
    (``{"y_true": ..., "y_score": ..., "sample_weight": ...}``) or a single
    argument.

    Parameters
    ----------
    acc : accumulator
        Any accumulator of :mod:`scorekit.stream` (or an object with ``update``).
    chunks : iterable
        The chunks, e.g. :func:`read_chunks` of a file.
    progress : callable, default=None
        Called as ``progress(done, total)`` after each chunk: a hook for any
        display (the command line draws a rich bar with it; a notebook can
        update a widget). ``total`` is the number of chunks when known.
    total : int, default=None
        The number of chunks; taken from ``operator.length_hint(chunks)`` when
        it has one.

    Examples
    --------
    >>> from scorekit.stream import BinaryCurve
    >>> chunks = [([0, 1], [0.2, 0.7]), {"y_true": [1, 0], "y_score": [0.6, 0.3]}]
    >>> consume(BinaryCurve(), chunks, progress=lambda done, total: print(done, total)).roc_auc()
    1 2
    2 2
    1.0
    """
    if progress is not None and not callable(progress):
        raise ParameterError(
            f"progress must be a callable progress(done, total) or None; got {progress!r}"
        )
    if total is None:
        hint = operator.length_hint(chunks, -1)
        total = hint if hint >= 0 else None
    for done, chunk in enumerate(chunks, start=1):
        _feed(acc, chunk)
        if progress is not None:
            progress(done, total)
    return acc
