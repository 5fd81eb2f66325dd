"""Small checks shared by the accumulators: empty chunks and the classes seen across chunks."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import LabelError
from .._typing import AnyArray
from .._validation import binary_target

__all__: list[str] = []


def _n_rows(a: Any) -> int:
    shape = getattr(a, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) >= 1 else -1
    try:
        return len(a)
    except TypeError:
        return -1


def empty_chunk(*arrays: Any) -> bool:
    """True when every given array-like (``None`` skipped) has no rows: the chunk is skipped.

    >>> empty_chunk([], np.zeros(0), None), empty_chunk([1], [0.5])
    (True, False)
    """
    return all(_n_rows(a) == 0 for a in arrays if a is not None)


def union_classes(seen: AnyArray | None, new: AnyArray, name: str = "y_true") -> AnyArray:
    """Sorted union of the classes seen so far and a chunk's classes (strings and numbers never mix).

    >>> union_classes(np.array([0, 1]), np.array([1])).tolist()
    [0, 1]
    """
    if seen is None or seen.size == 0:
        return np.unique(new)
    if new.size and (seen.dtype.kind in "USO") != (new.dtype.kind in "USO"):
        raise LabelError(
            f"{name} has string labels in one chunk and numbers in another "
            f"({seen[:3].tolist()} and {new[:3].tolist()})"
        )
    return np.union1d(seen, new)


def check_binary_classes(classes: AnyArray, pos_label: Any, name: str = "y_true") -> None:
    """Apply the binary-target rule of the one-shot functions to every class seen so far."""
    binary_target(classes[:0], pos_label, name, classes=classes)
