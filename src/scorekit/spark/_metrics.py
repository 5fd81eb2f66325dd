"""Binary, classification and regression metrics, and any accumulator, over Spark DataFrames."""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

import numpy as np

from .._catalog import get as metric_info
from .._errors import NonFiniteError, ParameterError
from .._optional import require
from .._validation import omitted
from ..stream import BinaryCurve, MetricSet, RegressionMoments
from ..stream._base import Accumulator
from ..stream._set import REGRESSION_BUNDLE
from ._reduce import (
    Column,
    check_frame,
    collect_arrow,
    collect_states,
    column,
    gathered,
    one_wave,
    reduce_frame,
    values,
)

__all__ = ["accumulate", "average_precision", "metrics", "regression_metrics", "roc_auc"]


def accumulate(
    df: Any,
    accumulator: type[Accumulator],
    columns: Sequence[Column],
    *,
    sample_weight: str | None = None,
    nan_policy: str = "raise",
    **params: Any,
) -> Any:
    """Any ``scorekit.stream`` accumulator fed with every row of a Spark DataFrame, merged.

    In each partition ``accumulator(**params)`` is updated with the Arrow
    batches' ``columns`` (the positional arguments of its ``update``; a list
    of names stacks columns into a 2-D array) and ``sample_weight``; the
    partitions' states travel as ``to_dict()`` JSON and are merged on the
    driver. The merged accumulator is returned: keep it, merge it with
    another, ``to_dict()`` it, read any of its metrics.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    accumulator : type
        A class of :mod:`scorekit.stream` (``BinaryCurve``, ``ConfusionMatrix``,
        ``RegressionMoments``, ``Contingency``, ``GroupedCurve``,
        ``RankingAccumulator``).
    columns : list of str (or of lists of str)
        The columns passed to ``update``, in order.
    sample_weight : str, default=None
        Column of row weights (accumulators whose ``update`` takes them).
    nan_policy : {"raise", "omit"}, default="raise"
        A null always raises, naming its column. With "raise" a NaN or
        infinity in a float column raises too, naming it; with "omit" the
        values go to the accumulator, built with ``nan_policy="omit"`` when it
        takes that option (its rows with NaN are then left out, with a warning).
    **params
        The accumulator's constructor options.

    Examples
    --------
    >>> from scorekit.stream import BinaryCurve
    >>> df = spark.createDataFrame([(0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8)], ["y", "s"])
    >>> acc = accumulate(df.repartition(2), BinaryCurve, ["y", "s"])
    >>> acc.roc_auc(), acc.n_distinct
    (0.75, 4)
    """
    if not (isinstance(accumulator, type) and issubclass(accumulator, Accumulator)):
        raise ParameterError(
            f"accumulator must be a scorekit.stream accumulator class, got {accumulator!r}"
        )
    if nan_policy not in ("raise", "omit"):
        raise ParameterError(f"nan_policy={nan_policy!r} must be 'raise' or 'omit'")
    if isinstance(columns, str):
        columns = [columns]
    options = dict(params)
    if "nan_policy" in inspect.signature(accumulator).parameters:
        options["nan_policy"] = nan_policy
    return reduce_frame(
        df, accumulator, options, list(columns), sample_weight, finite=nan_policy == "raise"
    )


_COUNT = "__scorekit_weight"


def _curve(
    df: Any,
    label: str,
    score: str,
    sample_weight: str | None,
    pos_label: Any,
    nan_policy: str,
    aggregate: bool | None,
) -> BinaryCurve:
    params = {"pos_label": pos_label, "nan_policy": nan_policy}
    if aggregate is None:  # the default: count pairs in the JVM unless there are weights
        aggregate = sample_weight is None
    if not isinstance(aggregate, bool):
        raise ParameterError(f"aggregate={aggregate!r} must be True, False or None")
    if not aggregate:
        curve: BinaryCurve = reduce_frame(
            df, BinaryCurve, params, [label, score], sample_weight, finite=nan_policy == "raise"
        )
        return curve
    # equal (label, score) pairs counted in the JVM (a partial aggregation per
    # partition, then a shuffle of the distinct pairs) and sent to the driver as
    # Arrow, no Python worker: the curve is a function of the weight at each
    # pair, so the value is the same
    if sample_weight is not None:  # a sum would hide a null or negative weight
        raise ParameterError("aggregate=True counts rows: it takes no sample_weight")
    F = require("pyspark.sql.functions", "spark")
    check_frame(df, [label, score])
    acc = BinaryCurve(**params)
    pairs = collect_arrow(df.groupBy(label, score).agg(F.count(F.lit(1)).alias(_COUNT)))
    if pairs is None:
        return acc
    counts = column(pairs, _COUNT, finite=True)
    y, s = _counted(pairs, label, counts), _counted(pairs, score, counts)
    if s.dtype.kind == "f":  # rows, not pairs, in the error or the warning
        bad = ~np.isfinite(s)
        if bad.any():
            rows = int(counts[bad].sum())
            if nan_policy == "raise":
                raise NonFiniteError(f"column {score!r} has {rows} NaN or infinite values")
            omitted(rows, int(counts.sum()))
            y, s, counts = y[~bad], s[~bad], counts[~bad]
    acc.update(y, s, sample_weight=counts)
    return acc


def _counted(pairs: Any, name: str, counts: Any) -> Any:
    """A column of the counted pairs; a null raises with the number of rows it stands for."""
    col = pairs.column(name)
    if col.null_count:
        rows = int(counts[col.is_null().to_numpy(zero_copy_only=False)].sum())
        raise NonFiniteError(f"column {name!r} has {rows} null values")
    return values(col, f"column {name!r}", finite=False)


def roc_auc(
    df: Any,
    *,
    label: str,
    score: str,
    sample_weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
    aggregate: bool | None = None,
) -> float:
    """Exact ROC AUC of a binary scorer over a Spark DataFrame (ties one half).

    The rows become one :class:`scorekit.stream.BinaryCurve` on the driver
    (the distinct scores with their positive and negative weights): without
    weights, from the (label, score) pairs counted in the JVM; with weights,
    from every partition's curve, built from its Arrow batches in a Python
    worker and merged (see ``aggregate``). The AUC is computed once: the value
    of :func:`scorekit.roc_auc` on the whole column, bit for bit with unit
    weights. No binning (MLlib's ``BinaryClassificationEvaluator`` bins the
    scores): memory is the distinct scores.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label, score : str
        Columns of the labels and the scores.
    sample_weight : str, default=None
        Column of row weights.
    pos_label, nan_policy
        As :func:`scorekit.roc_auc`. A null always raises, naming its column.
    aggregate : bool or None, default=None
        True: count equal (label, score) pairs in Spark first (``groupBy``: a
        partial aggregation in the JVM, then a shuffle of the distinct pairs
        only); the pairs and their counts come to the driver as Arrow (no
        Python worker runs) and feed one curve there. The same value, bit for
        bit (the counts are integer weights, so it takes no
        ``sample_weight``). False: every partition's Arrow batches feed a
        curve in a Python worker and the curves are merged. None (the
        default): True without ``sample_weight``, False with it. Counting in
        the JVM was the faster of the two on 10M rows both with 1,001
        distinct 3-decimal scores and with every score distinct
        (``benchmarks/bench_spark.py``); either way the driver ends with one
        entry per distinct score.

    Examples
    --------
    >>> df = spark.createDataFrame([(0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8)], ["y", "s"])
    >>> roc_auc(df.repartition(2), label="y", score="s")
    0.75
    """
    return _curve(df, label, score, sample_weight, pos_label, nan_policy, aggregate).roc_auc()


def average_precision(
    df: Any,
    *,
    label: str,
    score: str,
    sample_weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
    aggregate: bool | None = None,
) -> float:
    """Average precision over a Spark DataFrame: the value of :func:`scorekit.average_precision`.

    AP = sum over thresholds of (R_n - R_{n-1}) P_n (no interpolation); the
    partitions' curves are merged as in :func:`roc_auc`.

    Examples
    --------
    >>> df = spark.createDataFrame([(0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8)], ["y", "s"])
    >>> round(average_precision(df, label="y", score="s"), 4)
    0.8333
    """
    curve = _curve(df, label, score, sample_weight, pos_label, nan_policy, aggregate)
    return curve.average_precision()


def _feed_set(
    batches: Iterator[Any],
    *,
    names: list[str],
    params: dict[str, Any],
    columns: dict[str, str | None],
) -> dict[str, Any]:
    ms = MetricSet(names, **params)
    for batch in gathered(batches):
        col = {k: None if v is None else column(batch, v, finite=True) for k, v in columns.items()}
        ms.update(col["true"], col["score"], col["pred"], col["group"], sample_weight=col["weight"])
    return ms.to_dict()


def metrics(
    df: Any,
    names: Sequence[str],
    *,
    true: str,
    score: str | None = None,
    pred: str | None = None,
    group: str | None = None,
    weight: str | None = None,
    sample_weight: str | None = None,
    pos_label: Any = None,
    gauc_weights: str | None = "impressions",
    **options: Any,
) -> dict[str, Any]:
    """Any mergeable catalog metrics of a Spark DataFrame, in one pass over the partitions.

    Each partition's Arrow batches feed a :class:`scorekit.stream.MetricSet`
    (one accumulator per state the metrics need, read from the catalog: a
    curve for ``roc_auc`` and ``log_loss``, a confusion matrix for
    ``f1_macro``, exact moments for ``r2``, a contingency table for
    ``adjusted_rand_index``, grouped curves for ``gauc`` ...); the sets travel
    as ``to_dict()`` JSON, are merged on the driver, and every value is
    computed once, equal to the one-shot function on the whole columns (bit
    for bit where the state is exact). Groups may span partitions.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    names : sequence of str
        Catalog names (:func:`scorekit.metrics` lists them; the mergeable ones
        name an accumulator). ``"all"`` is every mergeable metric the columns allow.
    true : str
        Column of true labels or values.
    score, pred, group : str, default=None
        Columns of scores, predictions and group ids, as the metrics need.
    weight : str, default=None
        Column of row weights (``sample_weight=`` is the same, as in the
        other functions; give one of them).
    pos_label : label, default=None
        Positive class of the binary metrics.
    gauc_weights : {"impressions", "clicks", None}, default="impressions"
    **options
        Passed to every metric that takes them (``zero_division=0``,
        ``multioutput="raw_values"``).

    Returns
    -------
    dict
        ``{name: value}`` in the order asked. A null, NaN or infinity in a
        column raises, naming it.

    Examples
    --------
    >>> df = spark.createDataFrame([(0, 0.1, 0), (0, 0.4, 1), (1, 0.35, 1), (1, 0.8, 1)],
    ...                            ["y", "s", "p"])
    >>> metrics(df, ["roc_auc", "f1", "accuracy"], true="y", score="s", pred="p")
    {'roc_auc': 0.75, 'f1': 0.8, 'accuracy': 0.75}
    """
    if weight is not None and sample_weight is not None:
        raise ParameterError("give weight= or sample_weight=, not both")
    w = weight if weight is not None else sample_weight
    columns = {"true": true, "score": score, "pred": pred, "group": group, "weight": w}
    cols = check_frame(df, list(columns.values()))
    params = {
        "score": score is not None,
        "pred": pred is not None,
        "groups": group is not None,
        "pos_label": pos_label,
        "gauc_weights": gauc_weights,
    }
    first = MetricSet(names, **params)  # checks the names before any job
    work = partial(_feed_set, names=[r.name for r in first.rows], params=params, columns=columns)
    for state in collect_states(one_wave(df.select(*cols)), work):
        first.merge(MetricSet.from_dict(state))
    return first.values(**options)


def regression_metrics(
    df: Any,
    *,
    true: str | list[str],
    pred: str | list[str],
    sample_weight: str | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> dict[str, Any]:
    """MAE, MSE, RMSE, R² and explained variance of a Spark DataFrame.

    Partitions become :class:`scorekit.stream.RegressionMoments` (exact sums,
    merged exactly); the values equal the one-shot functions bit for bit, with
    or without weights. ``true`` and ``pred`` are a column each, or lists of
    columns (one per output, combined as ``multioutput`` says).

    Examples
    --------
    >>> df = spark.createDataFrame([(1.0, 1.0), (2.0, 2.0), (3.0, 3.0), (4.0, 5.0)], ["y", "p"])
    >>> out = regression_metrics(df.repartition(3), true="y", pred="p")
    >>> out["r2"], out["mae"]
    (0.8, 0.25)
    """
    t: Column = true if isinstance(true, str) else list(true)
    p: Column = pred if isinstance(pred, str) else list(pred)
    params = {"nan_policy": nan_policy}
    acc = reduce_frame(
        df, RegressionMoments, params, [t, p], sample_weight, finite=nan_policy == "raise"
    )
    return {
        name: metric_info(name).from_state(acc, multioutput=multioutput)
        for name in REGRESSION_BUNDLE
    }
