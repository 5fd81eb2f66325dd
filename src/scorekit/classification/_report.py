"""classification_report: per-class precision, recall, F1 and support, with their averages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import ParameterError
from .._optional import require
from .._typing import AnyArray, ArrayLike, FloatArray
from ._counts_input import (
    indicator_columns,
    label_positions,
    one_d_counts,
    targets,
    zero_division_value,
)
from ._counts_state import ClassCounts, _multilabel_counts, _prf_from_counts
from ._labels import given_labels

__all__ = ["classification_report"]

_HEADERS = ("precision", "recall", "f1-score", "support")


@dataclass(frozen=True, eq=False)
class ClassificationReport:
    """Result of :func:`classification_report`.

    ``precision``, ``recall``, ``f1`` and ``support`` hold one entry per class
    (in the order of ``target_names``); ``averages`` one row per average as
    ``(heading, precision, recall, f1, support)``, the heading "accuracy" (all
    three values equal to the accuracy) standing for the micro average of 1-D
    targets when every class is reported. ``str()`` is scikit-learn's text
    table, :meth:`to_dict` its ``output_dict=True`` form.
    """

    target_names: tuple[str, ...]
    precision: FloatArray
    recall: FloatArray
    f1: FloatArray
    support: AnyArray
    averages: tuple[tuple[str, float, float, float, int | float], ...]
    digits: int = 2

    @property
    def accuracy(self) -> float | None:
        """The accuracy row's value, or None when the report has no accuracy row."""
        for heading, p, *_ in self.averages:
            if heading == "accuracy":
                return p
        return None

    def _class_rows(self) -> list[tuple[str, float, float, float, Any]]:
        return [
            (name, float(p), float(r), float(f), s)
            for name, p, r, f, s in zip(
                self.target_names,
                self.precision,
                self.recall,
                self.f1,
                self.support.tolist(),
                strict=True,
            )
        ]

    def to_dict(self) -> dict[str, Any]:
        """Nested dict as scikit-learn's ``classification_report(output_dict=True)``."""
        out: dict[str, Any] = {}
        for name, *values in self._class_rows():
            out[name] = dict(zip(_HEADERS, map(float, values), strict=True))
        for heading, *values in self.averages:
            if heading == "accuracy":
                out[heading] = float(values[0])
            else:
                out[heading] = dict(zip(_HEADERS, map(float, values), strict=True))
        return out

    def to_pandas(self) -> Any:
        """A DataFrame, one row per class and per average (accuracy: f1-score column only)."""
        pd = require("pandas", pip="pandas")
        rows = [tuple(row) for row in self._class_rows()]
        for heading, p, r, f, s in self.averages:
            nan = float("nan")
            rows.append(
                (heading, nan, nan, f, s) if heading == "accuracy" else (heading, p, r, f, s)
            )
        frame = pd.DataFrame([row[1:] for row in rows], columns=list(_HEADERS))
        frame.index = [row[0] for row in rows]
        return frame

    def __str__(self) -> str:
        digits = self.digits
        width = max(
            max((len(n) for n in self.target_names), default=0), len("weighted avg"), digits
        )
        report = ("{:>{width}s} " + " {:>9}" * 4).format("", *_HEADERS, width=width) + "\n\n"
        row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
        for row in self._class_rows():
            report += row_fmt.format(*row, width=width, digits=digits)
        report += "\n"
        for heading, p, r, f, s in self.averages:
            if heading == "accuracy":
                acc_fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f} {:>9}\n"
                report += acc_fmt.format(heading, "", "", f, s, width=width, digits=digits)
            else:
                report += row_fmt.format(heading, p, r, f, s, width=width, digits=digits)
        return report


def classification_report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    target_names: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    digits: int = 2,
    zero_division: Any = "warn",
) -> ClassificationReport:
    """Precision, recall, F1 and support per class, with micro, macro and weighted averages.

    As :func:`sklearn.metrics.classification_report`: the micro average of
    1-D targets is shown as "accuracy" unless ``labels`` leaves out a class
    present in the data; multilabel targets add the "samples avg" row.
    ``target_names`` must have one name per reported class (scikit-learn only
    warns when ``labels`` is given too; here it raises). ``digits`` sets the
    decimals of ``str()``; the values themselves are never rounded.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_pred : array-like of shape (n_samples,)
        Predicted labels (or values).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    target_names : array-like, default=None
        Display names of the classes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    digits : int, default=2
        Digits shown by ``str()``.
    zero_division : "warn", 0.0, 1.0 or nan, default="warn"
        The value where a denominator is 0 ("warn": 0.0 with a warning).

    Examples
    --------
    Class 0: P = 1/2, R = 1; class 1: P = R = 0; class 2: P = 1, R = 2/3:

    >>> rep = classification_report([0, 1, 2, 2, 2], [0, 0, 2, 2, 1])
    >>> rep.to_dict()["2"]["f1-score"], rep.accuracy
    (0.8, 0.6)
    >>> print(str(rep).splitlines()[-1])
    weighted avg       0.70      0.60      0.61         5
    """
    zero_division_value(zero_division)
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 0:
        raise ParameterError(f"digits={digits!r} must be an integer >= 0")
    tg = targets(y_true, y_pred, sample_weight)
    given = given_labels(labels)
    samples: ClassCounts | None = None
    if tg.multilabel:
        t, p = indicator_columns(tg, labels)
        per = _multilabel_counts(t, p, tg.weights)
        samples = _multilabel_counts(t, p, tg.weights, samplewise=True)
        micro_is_accuracy = False
    else:
        per = one_d_counts(tg)
        micro_is_accuracy = True
        if given is not None:
            pos, extra = label_positions(per.classes, given, "labels")
            micro_is_accuracy = int(np.count_nonzero(pos < per.classes.size)) == per.classes.size
            per = per.take(pos, extra)
    names = [str(x) for x in (per.classes if given is None else given).tolist()]
    if target_names is not None:
        names = [str(x) for x in np.asarray(target_names).ravel().tolist()]
        if len(names) != per.classes.size:
            raise ParameterError(
                f"target_names has {len(names)} names but the report has "
                f"{per.classes.size} classes; pass one name per class (or labels=)"
            )
    opts = {"zero_division": zero_division, "sample_weight": tg.weights}
    precision, recall, f1, support = _prf_from_counts(per, average=None, **opts)
    total = support.sum().item()
    rows = []
    for average in ("micro", "macro", "weighted", "samples"):
        if average == "samples" and samples is None:
            continue
        counts = samples if average == "samples" and samples is not None else per
        p, r, f, _ = _prf_from_counts(counts, average=average, **opts)
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        rows.append((heading, p, r, f, total))
    return ClassificationReport(tuple(names), precision, recall, f1, support, tuple(rows), digits)
