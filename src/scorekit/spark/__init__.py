"""The scorekit metrics over Spark DataFrames: Arrow batches -> accumulator states -> one merge.

Each function runs one ``mapInArrow`` pass: every partition's Arrow batches
feed the state of a ``scorekit.stream`` accumulator (the family's chunk
kernel, vectorised, no per-row Python), each partition sends back one row, its
state as ``to_dict()`` JSON, and the states are merged on the driver (the
family's merge kernel) where the value is computed once. The results equal the
one-shot functions on the whole frame (bit for bit where the one-shot value
is exact: unit weights, regression sums). GAUC and ranking repartition the
rows by group / query first, so each partition holds whole groups / queries.
A null, or a NaN with ``nan_policy="raise"``, raises a
:class:`scorekit.ScorekitError` naming the column, on the driver. Needs the
``spark`` extra (``pip install 'scorekit[spark]'``) and a Java runtime;
``import scorekit`` never imports this module. The Python workers must be able
to import scorekit (same environment as the driver: set ``PYSPARK_PYTHON``).
"""

from __future__ import annotations

from .._optional import require

require("pyspark", "spark")
require("pyarrow", "spark")

from ._gauc import gauc  # noqa: E402
from ._metrics import (  # noqa: E402
    accumulate,
    average_precision,
    metrics,
    regression_metrics,
    roc_auc,
)
from ._ranking import evaluate  # noqa: E402

__all__ = [
    "accumulate",
    "average_precision",
    "evaluate",
    "gauc",
    "metrics",
    "regression_metrics",
    "roc_auc",
]
