"""Binary, classification and regression metrics, and any accumulator, over Spark DataFrames."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from .._errors import ParameterError
from ..stream import BinaryCurve, RegressionMoments
from ..stream._base import Accumulator
from ..stream._plan import Part, plan, regression_bundle, requested_names, values
from ._reduce import Column, check_frame, collect_states, column, columns, reduce_frame

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
        values go to the accumulator (pass ``nan_policy="omit"`` to it too, in
        ``params``, where it takes one).
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
    return reduce_frame(
        df, accumulator, dict(params), list(columns), sample_weight, finite=nan_policy == "raise"
    )


def _curve(
    df: Any, label: str, score: str, sample_weight: str | None, pos_label: Any, nan_policy: str
) -> BinaryCurve:
    params = {"pos_label": pos_label, "nan_policy": nan_policy}
    curve: BinaryCurve = reduce_frame(
        df, BinaryCurve, params, [label, score], sample_weight, finite=nan_policy == "raise"
    )
    return curve


def roc_auc(
    df: Any,
    *,
    label: str,
    score: str,
    sample_weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> float:
    """Exact ROC AUC of a binary scorer over a Spark DataFrame (ties one half).

    Each partition becomes a :class:`scorekit.stream.BinaryCurve` (its
    distinct scores with their positive and negative weights) built from its
    Arrow batches; the curves are merged on the driver and the AUC is computed
    once: the value of :func:`scorekit.roc_auc` on the whole column, bit for
    bit with unit weights. No binning (MLlib's ``BinaryClassificationEvaluator``
    bins the scores): memory is the distinct scores.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label, score : str
        Columns of the labels and the scores.
    sample_weight : str, default=None
        Column of row weights.
    pos_label, nan_policy
        As :func:`scorekit.roc_auc`. A null always raises, naming its column.

    Examples
    --------
    >>> df = spark.createDataFrame([(0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8)], ["y", "s"])
    >>> roc_auc(df.repartition(2), label="y", score="s")
    0.75
    """
    return _curve(df, label, score, sample_weight, pos_label, nan_policy).roc_auc()


def average_precision(
    df: Any,
    *,
    label: str,
    score: str,
    sample_weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
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
    return _curve(df, label, score, sample_weight, pos_label, nan_policy).average_precision()


def _feed_parts(
    batches: Iterator[Any], *, parts: tuple[Part, ...], finite: bool
) -> list[dict[str, Any]]:
    accs = [p.accumulator(**p.params) for p in parts]
    for batch in batches:
        for part, acc in zip(parts, accs, strict=True):
            args = [columns(batch, c, finite=finite) for c in part.columns]
            if part.weight is None:
                acc.update(*args)  # type: ignore[attr-defined]
            else:
                w = column(batch, part.weight, finite=finite)
                acc.update(*args, sample_weight=w)  # type: ignore[attr-defined]
    return [acc.to_dict() for acc in accs]


def metrics(
    df: Any,
    names: str | Iterable[str] | Mapping[str, Mapping[str, Any]],
    *,
    true: str,
    score: str | None = None,
    pred: str | None = None,
    weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
) -> dict[str, Any]:
    """Any set of mergeable metrics of a Spark DataFrame, in one pass over the partitions.

    Each metric is computed by an accumulator of :mod:`scorekit.stream`:
    score metrics (``roc_auc``, ``average_precision``, ``log_loss``, ``gini``,
    ``ks_statistic`` ...) read ``true`` and ``score`` through a
    ``BinaryCurve``; count metrics (``accuracy``, ``f1``, ``cohen_kappa`` ...)
    ``true`` and ``pred`` through a ``ConfusionMatrix``; regression metrics
    (``mae``, ``r2`` ...) through ``RegressionMoments``; clustering metrics
    (``adjusted_rand_index`` ...) through ``Contingency``. Every accumulator
    needed is fed in the same ``mapInArrow`` pass, merged on the driver, and
    each value is the one-shot function's on the whole frame.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    names : str, list of str, or dict
        Metric names; a dict ``{name: {option: value}}`` passes options to a
        metric (``{"f1": {"average": "macro"}}``).
    true, score, pred, weight : str
        Columns: the labels (or targets), the scores, the predicted labels
        (or values), the row weights.
    pos_label, nan_policy
        As the one-shot functions (``pos_label`` for the score metrics).

    Examples
    --------
    >>> df = spark.createDataFrame([(0, 0.1, 0), (0, 0.4, 1), (1, 0.35, 0), (1, 0.8, 1)],
    ...                            ["y", "s", "p"])
    >>> metrics(df, ["roc_auc", "accuracy"], true="y", score="s", pred="p")
    {'roc_auc': 0.75, 'accuracy': 0.5}
    """
    order = requested_names(names)
    parts = plan(
        names,
        true=true,
        score=score,
        pred=pred,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    for part in parts:
        part.accumulator(**part.params)  # check the options on the driver
    cols = check_frame(df, [true, score, pred, weight])
    work = partial(_feed_parts, parts=tuple(parts), finite=nan_policy == "raise")
    states = collect_states(df.select(*cols), work)
    accs = []
    for i, part in enumerate(parts):
        acc = part.accumulator(**part.params)
        for s in states:
            acc.merge(part.accumulator.from_dict(s[i]))
        accs.append(acc)
    got = values(parts, accs)
    return {n: got[n] for n in order}


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
    return regression_bundle(acc, multioutput)
