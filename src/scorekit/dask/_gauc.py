"""GAUC over a dask DataFrame: a shuffle by group, per-group statistics per partition, one mean."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import numpy as np

from .._errors import LabelError
from .._optional import require
from .._typing import AnyArray
from ..recsys._gauc import GroupWeights, _check_weights_option, gauc_from_stats
from ..recsys._gauc_kernel import group_aucs_from_state
from ..stream import GroupedCurve
from ..stream._labels import check_binary_classes, union_classes
from ._reduce import check_frame, check_split_every, tree_reduce

__all__ = ["gauc"]


def _grouped_of(
    part: Any, label: str, score: str, group: str, weight: str | None, nan_policy: str
) -> GroupedCurve:
    w = None if weight is None else part[weight]
    acc = GroupedCurve(nan_policy=nan_policy)
    return acc.update(part[label], part[score], part[group], sample_weight=w)


def _stats_of(part: Any, **columns: Any) -> tuple[Any, ...]:
    """Per-group positives, negatives and AUC of a partition holding whole groups."""
    acc = _grouped_of(part, **columns)
    state = acc._state()
    if state is None:
        return None, None, None, None, None
    n_pos, n_neg, auc = group_aucs_from_state(state)
    return state.groups, n_pos, n_neg, auc, acc._classes


def gauc(
    df: Any,
    *,
    label: str,
    score: str,
    group: str,
    weights: GroupWeights = "impressions",
    sample_weight: str | None = None,
    nan_policy: str = "raise",
    shuffle: bool = True,
    split_every: int = 8,
) -> float:
    """Group AUC of a dask DataFrame; the value of :func:`scorekit.gauc` on the whole frame.

    With ``shuffle=True`` (default) the rows are shuffled by ``group`` so that
    each partition holds whole groups; each partition gives the positive and
    negative weight and the Mann–Whitney U of its groups (from the
    :class:`scorekit.stream.GroupedCurve` kernels), only those per-group
    numbers come back, and the weighted mean is taken once, over the groups
    in sorted order. Memory on the client grows with the number of groups.
    With ``shuffle=False`` the partitions' ``GroupedCurve`` states are merged
    in a tree instead (no shuffle, but the root holds every distinct
    (group, score) pair). Bit for bit equal to the one-shot value with unit
    weights, either way.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"y": [0, 1, 1, 0, 0, 1, 1, 1],
    ...                     "s": [0.2, 0.6, 0.2, 0.3, 0.3, 0.9, 0.5, 0.7],
    ...                     "g": ["a", "a", "b", "b", "b", "b", "c", "c"]})
    >>> gauc(dd.from_pandas(pdf, npartitions=3), label="y", score="s", group="g")
    0.6666666666666666
    """
    _check_weights_option(weights)
    check_split_every(split_every)
    cols = check_frame(df, [label, score, group, sample_weight])
    GroupedCurve(nan_policy=nan_policy)  # check the options before computing
    columns: dict[str, Any] = {
        "label": label,
        "score": score,
        "group": group,
        "weight": sample_weight,
        "nan_policy": nan_policy,
    }
    if not shuffle:
        acc = tree_reduce(df, cols, partial(_grouped_of, **columns), split_every=split_every)
        return acc.gauc(weights=weights)
    dask = require("dask", "dask")
    parts = df[cols].shuffle(on=group).to_delayed()
    pieces = dask.compute(*(dask.delayed(partial(_stats_of, **columns))(p) for p in parts))
    return _combine(pieces, weights)


def _combine(pieces: tuple[tuple[Any, ...], ...], weights: Any) -> float:
    """Concatenate the per-group statistics of the partitions, sort by group, take the mean."""
    pieces = tuple(p for p in pieces if p[0] is not None)
    if not pieces:
        GroupedCurve().gauc()  # raises: no rows were seen
    classes: AnyArray | None = None
    for piece in pieces:
        classes = union_classes(classes, piece[4])
    check_binary_classes(cast(AnyArray, classes), None)
    kinds = {p[0].dtype.kind in "USO" for p in pieces}
    if len(kinds) > 1:
        raise LabelError("groups has string ids in some partitions and numbers in others")
    groups = np.concatenate([p[0] for p in pieces])
    order = np.argsort(groups, kind="stable")
    n_pos, n_neg, auc = (np.concatenate([p[i] for p in pieces])[order] for i in (1, 2, 3))
    return cast(float, gauc_from_stats(groups[order], n_pos, n_neg, auc, weights, False))
