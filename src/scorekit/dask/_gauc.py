"""GAUC over a dask DataFrame: a shuffle by group, per-group statistics per partition, one mean."""

from __future__ import annotations

from functools import partial
from typing import Any

from .._optional import require
from ..recsys._gauc import GroupWeights, _check_weights_option
from ..stream import GroupedCurve
from ..stream._grouped import GroupStats, gauc_from_group_stats, group_stats
from ._reduce import check_frame, check_split_every, tree_reduce

__all__ = ["gauc"]


def _grouped_of(
    part: Any, label: str, score: str, group: str, weight: str | None, nan_policy: str
) -> GroupedCurve:
    w = None if weight is None else part[weight]
    acc = GroupedCurve(nan_policy=nan_policy)
    return acc.update(part[label], part[score], part[group], sample_weight=w)


def _stats_of(part: Any, **columns: Any) -> GroupStats | None:
    """Per-group positives, negatives and AUC of a partition holding whole groups."""
    return group_stats(_grouped_of(part, **columns))


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
    return gauc_from_group_stats(pieces, weights)
