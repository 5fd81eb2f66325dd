"""The scorekit metrics over dask DataFrames: partitions -> accumulator states -> tree merge.

Each function maps the partitions to the state of a ``scorekit.stream``
accumulator (the family's chunk kernel), merges the states in a tree inside
the Dask graph (the family's merge kernel) and computes the value once on the
client, so the results equal the one-shot functions on the whole frame (bit
for bit where the state is made of integers: unit weights). Where a kernel
needs whole groups, the rows are shuffled by group (``gauc``) or query
(``evaluate``) first. Runs on whatever scheduler is active (a
``distributed.Client`` when one is connected). Needs the ``dask`` extra:
``pip install 'scorekit[dask]'``; ``import scorekit`` never imports this
module.
"""

from __future__ import annotations

from .._optional import require

require("dask.dataframe", "dask")

from ._gauc import gauc  # noqa: E402
from ._metrics import (  # noqa: E402
    average_precision,
    classification_metrics,
    metrics,
    regression_metrics,
    roc_auc,
)
from ._ranking import evaluate  # noqa: E402

__all__ = [
    "average_precision",
    "classification_metrics",
    "evaluate",
    "gauc",
    "metrics",
    "regression_metrics",
    "roc_auc",
]
