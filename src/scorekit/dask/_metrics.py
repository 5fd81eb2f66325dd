"""Binary, classification and regression metrics over dask DataFrames."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from .._catalog import get as metric_info
from ..stream import BinaryCurve, MetricSet, RegressionMoments
from ..stream._set import REGRESSION_BUNDLE
from ._reduce import check_frame, tree_reduce

__all__ = [
    "CLASSIFICATION_BUNDLE",
    "REGRESSION_BUNDLE",
    "average_precision",
    "classification_metrics",
    "metrics",
    "regression_metrics",
    "roc_auc",
]


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


#: the bundles of :func:`classification_metrics` and :func:`regression_metrics` (catalog names)
CLASSIFICATION_BUNDLE = (
    "accuracy",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "f1_micro",
    "f1_weighted",
    "cohen_kappa",
    "matthews_corrcoef",
)


def _set_of(
    part: Any, names: list[str], columns: dict[str, str | None], params: dict[str, Any]
) -> MetricSet:
    col = {k: None if v is None else part[v] for k, v in columns.items()}
    return MetricSet(names, **params).update(
        col["true"], col["score"], col["pred"], col["group"], sample_weight=col["weight"]
    )


def metrics(
    df: Any,
    names: Sequence[str],
    *,
    true: str,
    score: str | None = None,
    pred: str | None = None,
    group: str | None = None,
    sample_weight: str | None = None,
    pos_label: Any = None,
    gauc_weights: str | None = "impressions",
    split_every: int = 8,
    **options: Any,
) -> dict[str, Any]:
    """Any mergeable catalog metrics of a dask DataFrame, in one pass over the partitions.

    Each partition becomes a :class:`scorekit.stream.MetricSet` (one
    accumulator per state the metrics need: a curve for ``roc_auc`` and
    ``log_loss``, a confusion matrix for ``f1_macro`` ...), the sets are merged
    in a tree of ``split_every`` per node, and every value is computed once,
    equal to the one-shot function on the whole columns (bit for bit where the
    state is exact). Groups may span partitions (GAUC merges per group).

    Parameters
    ----------
    df : dask.dataframe.DataFrame
    names : sequence of str
        Catalog names (``scorekit metrics`` lists them; the mergeable ones
        name an accumulator). ``"all"`` is every mergeable metric the columns allow.
    true : str
        Column of true labels or values.
    score, pred, group : str, default=None
        Columns of scores, predictions and group ids, as the metrics need.
    sample_weight : str, default=None
        Column of row weights.
    pos_label : label, default=None
        Positive class of the binary metrics.
    gauc_weights : {"impressions", "clicks", None}, default="impressions"
    split_every : int, default=8
        Fan-in of the merge tree.
    **options
        Passed to every metric that takes them (``zero_division=0``,
        ``multioutput="raw_values"``).

    Returns
    -------
    dict
        ``{name: value}`` in the order asked.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8], "p": [0, 1, 1, 1]})
    >>> ddf = dd.from_pandas(pdf, npartitions=2)
    >>> metrics(ddf, ["roc_auc", "f1", "accuracy"], true="y", score="s", pred="p")
    {'roc_auc': 0.75, 'f1': 0.8, 'accuracy': 0.75}
    """
    columns = {"true": true, "score": score, "pred": pred, "group": group, "weight": sample_weight}
    cols = check_frame(df, list(columns.values()))
    params = {
        "score": score is not None,
        "pred": pred is not None,
        "groups": group is not None,
        "pos_label": pos_label,
        "gauc_weights": gauc_weights,
    }
    first = MetricSet(names, **params)  # checks the names before computing
    chunk = partial(_set_of, names=[r.name for r in first.rows], columns=columns, params=params)
    return tree_reduce(df, cols, chunk, split_every=split_every).values(**options)


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

    :func:`metrics` with the bundle ``accuracy, precision_macro, recall_macro,
    f1_macro, f1_micro, f1_weighted, cohen_kappa, matthews_corrcoef``: one
    merged confusion matrix gives them all, each equal to the one-shot function
    (bit for bit with unit weights). ``zero_division`` as :func:`scorekit.precision`.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> pdf = pd.DataFrame({"t": [0, 1, 2, 2], "p": [0, 1, 2, 1]})
    >>> classification_metrics(dd.from_pandas(pdf, npartitions=2), true="t", pred="p")["accuracy"]
    0.75
    """
    out: dict[str, float] = metrics(
        df,
        CLASSIFICATION_BUNDLE,
        true=true,
        pred=pred,
        sample_weight=sample_weight,
        zero_division=zero_division,
        split_every=split_every,
    )
    return out


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
    merged by integer addition); the values (the catalog rows of
    ``REGRESSION_BUNDLE``) equal the one-shot functions bit for bit, with or
    without weights.
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
    return {
        name: metric_info(name).from_state(acc, multioutput=multioutput)
        for name in REGRESSION_BUNDLE
    }
