"""Binary, classification and regression metrics over dask DataFrames."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..stream import BinaryCurve, ConfusionMatrix, RegressionMoments
from ._reduce import check_frame, tree_reduce

__all__ = ["average_precision", "classification_metrics", "regression_metrics", "roc_auc"]


def _curve_of(
    part: Any, label: str, score: str, weight: str | None, pos_label: Any, nan_policy: str
) -> BinaryCurve:
    acc = BinaryCurve(pos_label=pos_label, nan_policy=nan_policy)
    w = None if weight is None else part[weight]
    return acc.update(part[label], part[score], sample_weight=w)


def _curve(
    df: Any,
    label: str,
    score: str,
    sample_weight: str | None,
    pos_label: Any,
    nan_policy: str,
    split_every: int,
) -> BinaryCurve:
    cols = check_frame(df, [label, score, sample_weight])
    BinaryCurve(pos_label=pos_label, nan_policy=nan_policy)  # check the options before computing
    chunk = partial(
        _curve_of,
        label=label,
        score=score,
        weight=sample_weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    return tree_reduce(df, cols, chunk, split_every=split_every)


def roc_auc(
    df: Any,
    *,
    label: str,
    score: str,
    sample_weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
    split_every: int = 8,
) -> float:
    """Exact ROC AUC of a binary scorer over a dask DataFrame (ties one half).

    Each partition becomes a :class:`scorekit.stream.BinaryCurve` (its
    distinct scores with their positive and negative weights), the curves are
    merged in a tree of ``split_every`` per node, and the AUC is computed once:
    the value equals :func:`scorekit.roc_auc` on the whole column, bit for bit
    with unit weights.

    Parameters
    ----------
    df : dask.dataframe.DataFrame
    label, score : str
        Columns of the labels and the scores.
    sample_weight : str, default=None
        Column of row weights.
    pos_label, nan_policy
        As :func:`scorekit.roc_auc`.
    split_every : int, default=8
        Fan-in of the merge tree.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> roc_auc(dd.from_pandas(pdf, npartitions=2), label="y", score="s")
    0.75
    """
    acc = _curve(df, label, score, sample_weight, pos_label, nan_policy, split_every)
    return acc.roc_auc()


def average_precision(
    df: Any,
    *,
    label: str,
    score: str,
    sample_weight: str | None = None,
    pos_label: Any = None,
    nan_policy: str = "raise",
    split_every: int = 8,
) -> float:
    """Average precision over a dask DataFrame: the value of :func:`scorekit.average_precision`.

    The partitions' curves are merged as in :func:`roc_auc`.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> round(average_precision(dd.from_pandas(pdf, npartitions=2), label="y", score="s"), 4)
    0.8333
    """
    acc = _curve(df, label, score, sample_weight, pos_label, nan_policy, split_every)
    return acc.average_precision()


def _confusion_of(part: Any, true: str, pred: str, weight: str | None) -> ConfusionMatrix:
    w = None if weight is None else part[weight]
    return ConfusionMatrix().update(part[true], part[pred], sample_weight=w)


def classification_metrics(
    df: Any,
    *,
    true: str,
    pred: str,
    sample_weight: str | None = None,
    zero_division: Any = "warn",
    split_every: int = 8,
) -> dict[str, float]:
    """Count-based classification metrics of two label columns of a dask DataFrame.

    Partitions become :class:`scorekit.stream.ConfusionMatrix` accumulators,
    merged in a tree; the confusion matrix comes back once and gives
    ``accuracy, precision_macro, recall_macro, f1_macro, f1_micro,
    f1_weighted, cohen_kappa, matthews_corrcoef``, each equal to the one-shot
    function (bit for bit with unit weights). ``zero_division`` as
    :func:`scorekit.precision`.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"t": [0, 1, 2, 2], "p": [0, 1, 2, 1]})
    >>> classification_metrics(dd.from_pandas(pdf, npartitions=2), true="t", pred="p")["accuracy"]
    0.75
    """
    cols = check_frame(df, [true, pred, sample_weight])
    chunk = partial(_confusion_of, true=true, pred=pred, weight=sample_weight)
    acc = tree_reduce(df, cols, chunk, split_every=split_every)
    zd = {"zero_division": zero_division}
    return {
        "accuracy": acc.accuracy(),
        "precision_macro": acc.precision(average="macro", **zd),
        "recall_macro": acc.recall(average="macro", **zd),
        "f1_macro": acc.f1(average="macro", **zd),
        "f1_micro": acc.f1(average="micro", **zd),
        "f1_weighted": acc.f1(average="weighted", **zd),
        "cohen_kappa": acc.cohen_kappa(),
        "matthews_corrcoef": acc.matthews_corrcoef(),
    }


def _moments_of(
    part: Any, true: list[str], pred: list[str], weight: str | None, nan_policy: str
) -> RegressionMoments:
    w = None if weight is None else part[weight]
    y = part[true[0]] if len(true) == 1 else part[true].to_numpy()
    p = part[pred[0]] if len(pred) == 1 else part[pred].to_numpy()
    return RegressionMoments(nan_policy=nan_policy).update(y, p, sample_weight=w)


def regression_metrics(
    df: Any,
    *,
    true: str | list[str],
    pred: str | list[str],
    sample_weight: str | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
    split_every: int = 8,
) -> dict[str, Any]:
    """MAE, MSE, RMSE, R² and explained variance of a dask DataFrame.

    Partitions become :class:`scorekit.stream.RegressionMoments` (exact sums,
    merged by integer addition); the values equal the one-shot functions bit
    for bit, with or without weights.
    ``true`` and ``pred`` are a column each, or lists of columns (one per
    output, combined as ``multioutput`` says).

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"y": [1.0, 2.0, 3.0, 4.0], "p": [1.0, 2.0, 3.0, 5.0]})
    >>> out = regression_metrics(dd.from_pandas(pdf, npartitions=2), true="y", pred="p")
    >>> out["r2"], out["mae"]
    (0.8, 0.25)
    """
    t = [true] if isinstance(true, str) else list(true)
    p = [pred] if isinstance(pred, str) else list(pred)
    cols = check_frame(df, [*t, *p, sample_weight])
    RegressionMoments(nan_policy=nan_policy)  # check the options before computing
    chunk = partial(_moments_of, true=t, pred=p, weight=sample_weight, nan_policy=nan_policy)
    acc = tree_reduce(df, list(dict.fromkeys(cols)), chunk, split_every=split_every)
    mo = {"multioutput": multioutput}
    return {
        "mae": acc.mae(**mo),
        "mse": acc.mse(**mo),
        "rmse": acc.rmse(**mo),
        "r2": acc.r2(**mo),
        "explained_variance": acc.explained_variance(**mo),
    }
