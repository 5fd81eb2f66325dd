"""Mergeable accumulators: the metrics of a stream of chunks, equal to the one-shot functions.

Each accumulator holds the sufficient statistics of one metric family (the
state of the family's kernel), never the rows: ``update(...)`` takes a chunk
with the positional arguments of the one-shot function (and
``sample_weight=``), ``merge(other)`` adds another accumulator's data and
returns self, the metric methods are named like the one-shot functions
(``acc.roc_auc()``, ``acc.f1(average="macro")``, ``acc.r2()``), and
accumulators pickle and round-trip through ``to_dict()`` /
``Cls.from_dict(d)`` (a JSON-safe dict). ``from_dict`` checks every field
(types, shapes, dtypes, order, signs, sizes, consistency) and raises
:class:`~scorekit.StateError` naming the field: it is the exchange format for
states from elsewhere. Unpickling runs arbitrary code: never unpickle an
accumulator from an untrusted source. :func:`consume` feeds an iterable
of chunks, calling a progress hook after each if given, and :func:`read_chunks`
reads a CSV, TSV, Parquet or JSON-lines file chunk by chunk for it::

    consume(BinaryCurve(), read_chunks("clicks.parquet", ["click", "p"]))

- :class:`BinaryCurve`: roc_auc, average_precision, curves, KS, log loss,
  threshold table; ``bins=N`` bounded-memory approximate mode.
- :class:`ConfusionMatrix`: every count-based classification metric.
- :class:`RegressionMoments`: MAE, MSE, RMSE, R², explained variance, MAPE, max error.
- :class:`Contingency`: pair-counting and information-theoretic clustering metrics.
- :class:`GroupedCurve`: GAUC over groups that span chunks.
- :class:`Calibration`: PCOC, normalized entropy and the calibration counts (exact sums).
- :class:`Windowed`, :class:`Decayed`: online monitoring, the metrics of the last N rows
  (exactly) or of rows whose weights decay with age, around any accumulator above.
- :class:`MetricSet`: any mergeable metrics of the catalog at once (one
  accumulator per state they need); what ``scorekit.dask.metrics`` reduces.
- :class:`RankingAccumulator`: ranking measures (``scorekit.evaluate``) of a run
  that arrives in chunks; it keeps the run's rows (a query may span chunks).
"""

from __future__ import annotations

from ._binary import BinaryCurve
from ._calibration import Calibration
from ._clustering import Contingency
from ._confusion import ConfusionMatrix
from ._consume import consume
from ._files import read_chunks
from ._grouped import GroupedCurve
from ._ranking import RankingAccumulator
from ._regression import RegressionMoments
from ._regression_losses import RegressionLosses
from ._set import MetricSet
from ._window import Decayed, Windowed

__all__ = [
    "BinaryCurve",
    "Calibration",
    "ConfusionMatrix",
    "Contingency",
    "Decayed",
    "GroupedCurve",
    "MetricSet",
    "RankingAccumulator",
    "RegressionLosses",
    "RegressionMoments",
    "Windowed",
    "consume",
    "read_chunks",
]
