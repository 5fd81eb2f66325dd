"""``consume``: feed an iterable of chunks to an accumulator, with an optional progress bar."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from .._errors import ParameterError
from .._optional import require

__all__ = ["consume"]

A = TypeVar("A")


def _feed(acc: Any, chunk: Any) -> None:
    if isinstance(chunk, Mapping):
        acc.update(**chunk)
    elif isinstance(chunk, tuple):
        acc.update(*chunk)
    else:
        acc.update(chunk)


def consume(
    acc: A, chunks: Iterable[Any], *, progress: bool | None = None, total: int | None = None
) -> A:
    """Update ``acc`` with every chunk of ``chunks`` and return it.

    A chunk is a tuple of ``update``'s positional arguments
    (``(y_true, y_score)``), a mapping of its keyword arguments
    (``{"y_true": ..., "y_score": ..., "sample_weight": ...}``) or a single
    argument. ``progress=True`` draws a rich progress bar on stderr (needs
    the ``cli`` extra: ``pip install 'scorekit[cli]'``); ``total`` is the
    number of chunks, taken from ``operator.length_hint(chunks)`` when it has one.

    Examples
    --------
    >>> from scorekit.stream import BinaryCurve
    >>> chunks = [([0, 1], [0.2, 0.7]), {"y_true": [1, 0], "y_score": [0.6, 0.3]}]
    >>> consume(BinaryCurve(), chunks).roc_auc()
    1.0
    """
    if progress not in (None, True, False):
        raise ParameterError(f"progress={progress!r} is not one of None, True, False")
    if total is None:
        hint = operator.length_hint(chunks, -1)
        total = hint if hint >= 0 else None
    if not progress:
        for chunk in chunks:
            _feed(acc, chunk)
        return acc
    bar = require("rich.progress", "cli")
    console = require("rich.console", "cli").Console(stderr=True)
    columns = (
        bar.TextColumn("{task.description}"),
        bar.BarColumn(),
        bar.MofNCompleteColumn(),
        bar.TimeElapsedColumn(),
        bar.TimeRemainingColumn(),
    )
    with bar.Progress(*columns, console=console) as display:
        task = display.add_task(f"{type(acc).__name__}: chunks", total=total)
        for chunk in chunks:
            _feed(acc, chunk)
            display.advance(task)
    return acc
