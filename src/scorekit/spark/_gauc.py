"""GAUC over a Spark DataFrame: repartition by group, per-group statistics per partition, one mean."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from ..recsys._gauc import GroupWeights, _check_weights_option
from ..stream import GroupedCurve
from ..stream._base import decode_array, encode_array
from ..stream._grouped import GroupStats, gauc_from_group_stats, group_stats
from ._reduce import check_frame, collect_states, column, gathered, partitions, reduce_frame

__all__ = ["gauc"]


def _stats(
    batches: Iterator[Any],
    *,
    label: str,
    score: str,
    group: str,
    weight: str | None,
    nan_policy: str,
) -> list[dict[str, Any]] | None:
    """The per-group statistics of a partition holding whole groups, JSON-safe."""
    acc = GroupedCurve(nan_policy=nan_policy)
    finite = nan_policy == "raise"
    for b in gathered(batches):
        w = None if weight is None else column(b, weight, finite=finite)
        acc.update(
            column(b, label, finite=finite),
            column(b, score, finite=finite),
            column(b, group, finite=finite),
            sample_weight=w,
        )
    stats = group_stats(acc)
    return None if stats is None else [encode_array(a) for a in stats]


def _decoded(state: list[dict[str, Any]] | None) -> GroupStats | None:
    if state is None:
        return None
    g, n_pos, n_neg, u, classes = (decode_array(d) for d in state)
    return g, n_pos, n_neg, u, classes


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
    npartitions: int | None = None,
) -> float:
    """Group AUC of a Spark DataFrame; the value of :func:`scorekit.gauc` on the whole frame.

    GAUC = sum_g w_g AUC_g / sum_g w_g over the groups with both classes
    (``weights`` as :func:`scorekit.gauc`: impressions, clicks, equal, or
    given per group). With ``shuffle=True`` (default) the rows are
    repartitioned by ``group`` (``npartitions`` partitions, default: as many
    as ``df`` has) so that each partition holds whole groups; each partition
    computes the positive and negative weight and the Mann–Whitney U of its
    groups from its Arrow batches (the :class:`scorekit.stream.GroupedCurve`
    kernels), only those three numbers per group come back, and the weighted
    mean is taken once on the driver, over the groups in sorted order. Driver
    memory grows with the number of groups. With ``shuffle=False`` there is
    no shuffle: each partition sends its ``GroupedCurve`` state (a group may
    span partitions) and the states are merged on the driver, which then
    holds every distinct (group, score) pair. Bit for bit equal to the
    one-shot value with unit weights, either way.

    Examples
    --------
    >>> rows = [(0, 0.2, "a"), (1, 0.6, "a"), (1, 0.2, "b"), (0, 0.3, "b"),
    ...         (0, 0.3, "b"), (1, 0.9, "b"), (1, 0.5, "c"), (1, 0.7, "c")]
    >>> df = spark.createDataFrame(rows, ["y", "s", "g"])
    >>> gauc(df, label="y", score="s", group="g")
    0.6666666666666666
    >>> gauc(df.repartition(3), label="y", score="s", group="g", shuffle=False)
    0.6666666666666666
    """
    _check_weights_option(weights)
    GroupedCurve(nan_policy=nan_policy)  # check the options before any job
    if not shuffle:
        acc = reduce_frame(
            df,
            GroupedCurve,
            {"nan_policy": nan_policy},
            [label, score, group],
            sample_weight,
            finite=nan_policy == "raise",
        )
        return float(acc.gauc(weights=weights))
    cols = check_frame(df, [label, score, group, sample_weight])
    n = partitions(df, npartitions)
    work = partial(
        _stats, label=label, score=score, group=group, weight=sample_weight, nan_policy=nan_policy
    )
    states = collect_states(df.select(*cols).repartition(n, group), work)
    return gauc_from_group_stats([_decoded(s) for s in states], weights)
