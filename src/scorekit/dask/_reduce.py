"""Partitions -> accumulators -> tree merge: the one reduction every ``scorekit.dask`` metric uses.

Each partition (a pandas DataFrame) becomes a ``scorekit.stream`` accumulator
through its ``update`` (the family's chunk kernel); the accumulators are merged
in a tree of ``split_every`` children per node (the family's merge kernel),
inside the Dask graph, so only the final state comes back to the client, where
the metric is computed once. Nothing in a task's inputs is modified: each node
merges its children into a fresh accumulator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from .._errors import ParameterError, ShapeError
from .._optional import require

__all__: list[str] = []


class Mergeable(Protocol):
    """What the tree merge needs: an accumulator of :mod:`scorekit.stream`, or a ``MetricSet``."""

    def merge(self, other: Any) -> Any: ...

    def _params(self) -> dict[str, Any]: ...


A = TypeVar("A", bound=Mergeable)


def check_frame(df: Any, columns: Sequence[str | None], name: str = "df") -> list[str]:
    """The columns that are not ``None``; raise naming a missing one or a non-Dask frame."""
    if not hasattr(df, "to_delayed") or not hasattr(df, "columns"):
        raise ShapeError(f"{name} must be a dask DataFrame, got {type(df).__name__}")
    wanted = [c for c in columns if c is not None]
    missing = [c for c in wanted if c not in df.columns]
    if missing:
        raise ParameterError(
            f"{name} has no column {missing[0]!r}; its columns are {list(df.columns)[:20]}"
        )
    return wanted


def _merge_all(*accs: A) -> A:
    out = type(accs[0])(**accs[0]._params())
    for acc in accs:
        out.merge(acc)
    return out


def check_split_every(split_every: int) -> None:
    """``split_every`` is the fan-in of the merge tree: an integer >= 2."""
    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        raise ParameterError(f"split_every={split_every!r} must be an integer >= 2")


def tree_reduce(
    df: Any, columns: list[str], chunk: Callable[[Any], A], *, split_every: int = 8
) -> A:
    """Map the partitions of ``df[columns]`` to accumulators, tree-merge them, compute the root.

    ``chunk`` turns a pandas partition into an accumulator; the accumulators
    are merged ``split_every`` at a time inside the graph.
    """
    check_split_every(split_every)
    dask = require("dask", "dask")
    delayed = dask.delayed
    states = [delayed(chunk)(part) for part in df[columns].to_delayed()]
    while len(states) > 1:
        states = [
            delayed(_merge_all)(*states[i : i + split_every])
            for i in range(0, len(states), split_every)
        ]
    (root,) = dask.compute(states[0])
    result: A = root
    return result
