"""The confusion-matrix error ratios by name (FPR, FNR, FDR, FOR) and the likelihood ratios.

Each ratio is one count over another of the one-vs-rest counts
(:class:`ClassCounts`), so it shares the precision family's machinery: the
same ``labels``, ``pos_label``, ``average`` and ``zero_division`` semantics, and
:class:`scorekit.stream.ConfusionMatrix` computes it from a stream. A ratio is
computed directly (``fp / (fp + tn)``), never as one minus its complement, so
it is correctly rounded.

============================  =================  ======================  ================
function                      formula            complement              averaged as
============================  =================  ======================  ================
false_positive_rate           fp / (fp + tn)     specificity             specificity
false_negative_rate           fn / (fn + tp)     recall                  recall
false_discovery_rate          fp / (fp + tp)     precision               precision
false_omission_rate           fn / (fn + tn)     negative pred. value    recall
============================  =================  ======================  ================
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._errors import LabelError, ParameterError, UndefinedMetricWarning
from .._typing import ArrayLike
from ._counts import Label, _counts
from ._counts_matrix import confusion_matrix
from ._counts_state import ratio_from_counts, returns_score

__all__ = [
    "class_likelihood_ratios",
    "false_discovery_rate",
    "false_negative_rate",
    "false_omission_rate",
    "false_positive_rate",
    "negative_predictive_value",
]


def _ratio(
    name: str,
    y_true: ArrayLike,
    y_pred: ArrayLike,
    labels: ArrayLike | None,
    pos_label: Label,
    average: str | None,
    sample_weight: ArrayLike | None,
    zero_division: Any,
) -> Any:
    c, w = _counts(y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)
    return ratio_from_counts(name, c, average=average, zero_division=zero_division, sample_weight=w)


_PARAMETERS = """
    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,), or indicator matrices
        True and predicted labels.
    labels : array-like, default=None
        The classes to report, in this order (default: every class seen).
    pos_label : label, default=1
        The positive class with ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        As :func:`scorekit.recall` ("weighted": by each class's support).
    sample_weight : array-like of shape (n_samples,), default=None
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where the denominator is 0 ("warn": 0.0 with a warning).
"""


@returns_score
def false_positive_rate(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""False positive rate (fall-out) fp / (fp + tn): the negatives called positive.

    .. math:: \mathrm{FPR} = \frac{FP}{FP + TN}
    {parameters}

    Examples
    --------
    Negatives are rows 6 and 7; row 6 is called positive:

    >>> false_positive_rate([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.5
    """
    return _ratio(
        "false_positive_rate", y_true, y_pred, labels, pos_label, average, sample_weight,
        zero_division,
    )  # fmt: skip


@returns_score
def false_negative_rate(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""False negative rate (miss rate) fn / (fn + tp): the positives called negative.

    .. math:: \mathrm{FNR} = \frac{FN}{FN + TP}
    {parameters}

    Examples
    --------
    Two of the five positives are missed:

    >>> false_negative_rate([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.4
    """
    return _ratio(
        "false_negative_rate", y_true, y_pred, labels, pos_label, average, sample_weight,
        zero_division,
    )  # fmt: skip


@returns_score
def false_discovery_rate(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""False discovery rate fp / (fp + tp): the predicted positives that are negative.

    .. math:: \mathrm{FDR} = \frac{FP}{FP + TP}
    {parameters}

    Examples
    --------
    One of the four predicted positives is a negative:

    >>> false_discovery_rate([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0])
    0.25
    """
    return _ratio(
        "false_discovery_rate", y_true, y_pred, labels, pos_label, average, sample_weight,
        zero_division,
    )  # fmt: skip


@returns_score
def false_omission_rate(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""False omission rate fn / (fn + tn): the predicted negatives that are positive.

    .. math:: \mathrm{FOR} = \frac{FN}{FN + TN}
    {parameters}

    Examples
    --------
    Two of the three predicted negatives are positives:

    >>> round(false_omission_rate([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0]), 4)
    0.6667
    """
    return _ratio(
        "false_omission_rate", y_true, y_pred, labels, pos_label, average, sample_weight,
        zero_division,
    )  # fmt: skip


@returns_score
def negative_predictive_value(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:  # typed by returns_score
    r"""Negative predictive value tn / (tn + fn): the precision of "not this class".

    .. math:: \mathrm{NPV} = \frac{TN}{TN + FN}

    Per class, the binary NPV equals scikit-learn's precision of the negative
    class (``precision_score(y_true, y_pred, pos_label=<the other class>)``).
    Averaged as recall is: "micro" pools tn and fn, "macro" is the plain mean,
    "weighted" weights by each class's support. Undefined (``zero_division``)
    for a class that every sample is predicted to be.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        The classes to report, in this order (default: every class seen).
    pos_label : label, default=1
        The positive class with ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default="binary"
    sample_weight : array-like of shape (n_samples,), default=None
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"

    Examples
    --------
    Predicted negative: rows 4, 5 and 7; true negatives among them: row 7 (tn = 1, fn = 2):

    >>> round(negative_predictive_value([1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 1, 0]), 4)
    0.3333
    """
    return _ratio(
        "negative_predictive_value", y_true, y_pred, labels, pos_label, average, sample_weight,
        zero_division,
    )  # fmt: skip


for _fn in (false_positive_rate, false_negative_rate, false_discovery_rate, false_omission_rate):
    _fn.__doc__ = (_fn.__doc__ or "").replace("    {parameters}\n", _PARAMETERS)


def class_likelihood_ratios(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    replace_undefined_by: Any = np.nan,
) -> tuple[float, float]:
    r"""Positive and negative likelihood ratios of a binary classifier, as scikit-learn.

    .. math:: LR_+ = \frac{TPR}{FPR} = \frac{tp\,(tn + fp)}{fp\,(tp + fn)}, \qquad
              LR_- = \frac{FNR}{TNR} = \frac{fn\,(tn + fp)}{tn\,(tp + fn)}

    The positive class is the second of ``labels`` (default: the larger of the
    two sorted labels), as :func:`sklearn.metrics.class_likelihood_ratios`.
    Undefined ratios (no positive rows; ``fp = 0`` for LR+; ``tn = 0`` for
    LR−) warn and take ``replace_undefined_by``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Binary labels.
    labels : array-like of two labels, default=None
        ``[negative, positive]``.
    sample_weight : array-like of shape (n_samples,), default=None
    replace_undefined_by : nan, 1.0 or {"LR+": float, "LR-": float}, default=nan
        What an undefined ratio becomes (1.0: both worst values, 1.0).

    Returns
    -------
    (float, float)
        LR+ and LR−.

    Examples
    --------
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    undefined = _undefined_values(replace_undefined_by)
    cm = np.asarray(confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight))
    if cm.shape != (2, 2):
        raise LabelError(
            f"class_likelihood_ratios needs two classes; y_true and y_pred have {cm.shape[0]}"
        )
    tn, fp, fn, tp = (float(v) for v in cm.ravel())
    support_pos, support_neg = tp + fn, tn + fp
    if support_pos == 0:
        _warn("No samples of the positive class are present in y_true")
        return float("nan"), float("nan")
    if fp == 0:
        _warn("LR+ is undefined (no false positives)")
        lr_pos = undefined[0]
    else:
        lr_pos = (tp * support_neg) / (fp * support_pos)
    if tn == 0:
        _warn("LR- is undefined (no true negatives)")
        lr_neg = undefined[1]
    else:
        lr_neg = (fn * support_neg) / (tn * support_pos)
    return float(lr_pos), float(lr_neg)


def _warn(text: str) -> None:
    warnings.warn(f"{text}; set to replace_undefined_by", UndefinedMetricWarning, stacklevel=3)


def _undefined_values(value: Any) -> tuple[float, float]:
    if isinstance(value, dict):
        try:
            pos, neg = float(value["LR+"]), float(value["LR-"])
        except (KeyError, TypeError, ValueError):
            pos = neg = -1.0
        ok_pos = np.isnan(pos) or pos >= 1.0
        ok_neg = np.isnan(neg) or 0.0 <= neg <= 1.0
        if set(value) == {"LR+", "LR-"} and ok_pos and ok_neg:
            return pos, neg
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if np.isnan(value):
            return float("nan"), float("nan")
        if value == 1.0:
            return 1.0, 1.0
    raise ParameterError(
        "replace_undefined_by must be nan, 1.0 or {'LR+': value >= 1 or nan, "
        f"'LR-': value in [0, 1] or nan}}; got {value!r}"
    )
