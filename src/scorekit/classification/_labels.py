"""Label sets and integer coding shared by the classification metrics."""

from __future__ import annotations

import numpy as np

from .._errors import LabelError
from .._typing import AnyArray, ArrayLike, IntArray
from .._validation import as_array, labels_1d

__all__: list[str] = []


def unique_labels(*ys: AnyArray) -> AnyArray:
    """Sorted union of the labels of every array (strings and numbers may not mix).

    >>> unique_labels(np.array([2, 0]), np.array([1, 2])).tolist()
    [0, 1, 2]
    """
    arrays = [y.ravel() for y in ys if y.size]
    if not arrays:
        return np.asarray(ys[0]).ravel()[:0]
    is_str = {a.dtype.kind in "USO" for a in arrays}
    if len(is_str) > 1:
        raise LabelError("labels mix strings and numbers across y_true and y_pred")
    return np.unique(np.concatenate(arrays))


def given_labels(labels: ArrayLike | None, name: str = "labels") -> AnyArray | None:
    """Convert a user's ``labels=`` argument (order kept); duplicates raise.

    >>> given_labels(["b", "a"]).tolist()
    ['b', 'a']
    """
    if labels is None:
        return None
    arr = labels_1d(as_array(labels, name).ravel(), name)
    if arr.size == 0:
        raise LabelError(f"{name} is empty; pass at least one label or None")
    if np.unique(arr).size != arr.size:
        raise LabelError(f"{name} contains duplicates")
    return arr


def encode(
    y: AnyArray, classes: AnyArray, name: str = "y_true", *, strict: bool = True
) -> IntArray:
    """Integer codes of ``y`` in ``classes`` (any order); unknown labels raise or code as -1.

    >>> encode(np.array(["b", "a", "b"]), np.array(["a", "b"])).tolist()
    [1, 0, 1]
    """
    if (y.dtype.kind in "USO") != (classes.dtype.kind in "USO") and y.size and classes.size:
        if strict:
            raise LabelError(
                f"{name} has labels of another type than labels= ({classes[:5].tolist()})"
            )
        return np.full(y.shape, -1, dtype=np.int64)
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    pos = np.searchsorted(sorted_classes, y)
    pos_clipped = np.minimum(pos, max(sorted_classes.size - 1, 0))
    found = (
        (pos < sorted_classes.size) & (sorted_classes[pos_clipped] == y)
        if classes.size
        else np.zeros(y.shape, bool)
    )
    if strict and not found.all():
        unknown = np.unique(y[~found])
        raise LabelError(
            f"{name} has {unknown.size} labels not in labels= ({unknown[:5].tolist()}); "
            f"known labels: {classes[:10].tolist()}"
        )
    codes = np.where(found, order[pos_clipped] if classes.size else -1, -1)
    return codes.astype(np.int64)
