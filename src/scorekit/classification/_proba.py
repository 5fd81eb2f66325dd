"""Losses on predicted probabilities and decision values: log loss, hinge, Brier, top-k accuracy.

Each is a weighted mean of per-row losses, so its streaming state is the pair
(Σ w·loss, Σ w), merged by adding. Binary log loss is also a function of the
sorted curve of :mod:`._curve_kernel`: :func:`_log_loss_from_curve` gives it
from a ``CurveState`` whose scores are probabilities (``stream.BinaryCurve``).

With integer weights (unit weights included) binary log loss is summed in
fixed point: each row's −log q is truncated to a multiple of 2⁻⁵⁷ (an int64;
|error| < 7e-18 per row, below float64 rounding of any total) and the integers
are added exactly. An exact sum does not depend on how rows are grouped, so
the per-row sum of :func:`log_loss` and the per-distinct-score sum of
:func:`_log_loss_from_curve` (count × units) are the same integer and the two
values are bit-identical, however the rows were chunked and merged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codes import distinct
from .._errors import LabelError, ParameterError, ProbabilityRangeError, ShapeError
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray, IntArray
from .._validation import (
    as_array,
    check_probabilities,
    check_weight_total,
    checked_rows,
    labels_1d,
    scores_2d,
    undefined,
    zero_weight_error,
)
from ._counts_input import _indicators, _integral
from ._curve_kernel import CurveState
from ._curves import _positives
from ._labels import encode, given_labels

__all__ = ["brier_score", "hinge_loss", "log_loss", "top_k_accuracy"]

_EPS = float(np.finfo(np.float64).eps)
#: Fraction bits of a row's fixed-point log loss: −log q <= −log eps < 36.05 < 2**5.2, so the
#: units fit an int64. Sums of three 21-bit limbs stay exact in int64 below 2**42 rows.
_LOSS_BITS = 57
_LIMB_BITS = 21
_MAX_COUNT = float(2**42)
#: Rows per block of the fixed-point log loss: its temporaries stay in the cache (~3x faster).
_BLOCK_ROWS = 1 << 14


def _log_clipped(q: FloatArray) -> FloatArray:
    """log(clip(q, eps, 1 − eps)) in place on ``q`` (a copy the caller owns), as scikit-learn clips."""
    np.clip(q, _EPS, 1 - _EPS, out=q)
    return np.log(q, out=q)


def _neg_log_clipped(q: FloatArray) -> FloatArray:
    """−log(clip(q, eps, 1 − eps)) in place on ``q`` (used by ``stream.BinaryCurve``'s binned mode)."""
    return np.negative(_log_clipped(q), out=q)


def _mean_loss(loss: FloatArray, w: FloatArray | None, normalize: bool = True) -> float:
    """Σ w·loss / Σ w (or the weighted sum when ``normalize`` is False)."""
    total = float(loss.sum()) if w is None else float(np.dot(loss, w))
    if not normalize:
        return total
    return total / (loss.size if w is None else float(w.sum()))


def _true_class_probability(positive: BoolArray, p: FloatArray) -> FloatArray:
    """Q = |p + (y − 1)|: p for a positive, 1 − p for a negative, bit for bit (fl(p − 1) = −fl(1 − p))."""
    q = np.subtract(positive, 1.0)
    q += p
    return np.abs(q, out=q)


def _row_log_loss(positive: BoolArray, p: FloatArray) -> FloatArray:
    """Per row −log q, q the probability of the true class clipped to [eps, 1 − eps] (a new array)."""
    return _neg_log_clipped(_true_class_probability(positive, p))


def _binary_log_loss_sums(
    positive: BoolArray, p: FloatArray, w: FloatArray | None
) -> tuple[float, float]:
    """Streaming state of binary log loss in floats: (Σ w·(−log q), Σ w)."""
    loss = _row_log_loss(positive, p)
    total = float(loss.sum()) if w is None else float(np.dot(loss, w))
    return total, float(loss.size if w is None else w.sum())


def _integer_counts(w: FloatArray) -> IntArray | None:
    """``w`` as int64 when every entry is an integer and the total fits the exact sums, else None."""
    if not (w.size == 0 or (float(w.sum()) < _MAX_COUNT and np.array_equal(w, np.floor(w)))):
        return None
    return w.astype(np.int64)


def _loss_units(q: FloatArray) -> IntArray:
    """−log(clip(q, eps, 1 − eps)) in units of 2**−57, truncated (int64; ``q`` is overwritten)."""
    units = _log_clipped(q)
    units *= -float(2**_LOSS_BITS)
    return units.astype(np.int64)


def _units_total(units: IntArray, counts: IntArray | None = None) -> int:
    """Σ counts · units exactly, as a Python int (Σ counts below 2**42).

    Below 2**32 rows: the int64 sum wraps modulo 2**64 and the sum of the high
    halves (``units >> 32``, each below 2**31) is exact; the low halves add up to
    less than 2**64, so the two determine the total. Beyond: three 21-bit limbs.
    """

    def dot(values: IntArray) -> int:
        return int(values.sum() if counts is None else np.dot(counts, values))

    rows = units.size if counts is None else int(counts.sum())
    if rows < 2**32:
        high = dot(np.right_shift(units, 32)) << 32
        return high + (dot(units) - high) % 2**64
    mask = np.int64((1 << _LIMB_BITS) - 1)
    total = 0
    for shift in (0, _LIMB_BITS, 2 * _LIMB_BITS):
        limb = np.right_shift(units, shift)
        if shift < 2 * _LIMB_BITS:
            limb &= mask
        total += dot(limb) << shift
    return total


def _fixed_loss(units_total: int, count: int, normalize: bool = True) -> float:
    """The mean (or the sum) of losses summed in units of 2**−57, rounded once."""
    return units_total / ((count if normalize else 1) << _LOSS_BITS)


def _log_loss_from_curve(c: CurveState) -> float:
    """Binary log loss from a :class:`CurveState` whose scores are probabilities of the positive class.

    Σ_g pos_g·(−log p_g) + neg_g·(−log(1 − p_g)) over Σ_g (pos_g + neg_g), with the clipping of
    :func:`log_loss`; in fixed point (bit-identical to :func:`log_loss`) when the weights are integers.
    """
    if not float(c.pos.sum() + c.neg.sum()) > 0:
        raise zero_weight_error()
    pos = _integer_counts(c.pos)
    neg = _integer_counts(c.neg)
    if pos is not None and neg is not None and float(c.pos.sum() + c.neg.sum()) < _MAX_COUNT:
        total = _units_total(_loss_units(c.scores.copy()), pos)
        total += _units_total(_loss_units(1 - c.scores), neg)
        return _fixed_loss(total, int(pos.sum() + neg.sum()))
    loss = c.pos @ _log_clipped(c.scores.copy()) + c.neg @ _log_clipped(1 - c.scores)
    return float(-loss / (c.pos.sum() + c.neg.sum()))


def _binary_log_loss(
    positive: BoolArray, p: FloatArray, w: FloatArray | None, normalize: bool
) -> float:
    """Binary log loss of rows: in fixed point for integer weights (see the module), else in floats."""
    counts = None if w is None else _integer_counts(w)
    if w is None or counts is not None:
        total = 0
        for start in range(0, p.size, _BLOCK_ROWS):  # blocks that stay in cache
            rows = slice(start, start + _BLOCK_ROWS)
            units = _loss_units(_true_class_probability(positive[rows], p[rows]))
            total += _units_total(units, None if counts is None else counts[rows])
        return _fixed_loss(total, p.size if counts is None else int(counts.sum()), normalize)
    loss, weight = _binary_log_loss_sums(positive, p, w)
    return loss / weight if normalize else loss


def _prob_inputs(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    sample_weight: ArrayLike | None,
    nan_policy: str,
    name: str = "y_prob",
    *,
    probabilities: bool = False,
) -> tuple[AnyArray, FloatArray, FloatArray | None]:
    """Labels, 2-D scores (one column for 1-D input) and weights; NaN rows per ``nan_policy``.

    With ``probabilities``, values outside [0, 1] raise.
    """
    y = _integral(labels_1d(y_true, "y_true"), "y_true")  # continuous: swapped arguments?
    p = scores_2d(y_prob, name)
    y, p, w = checked_rows(nan_policy, sample_weight, (name,), y_true=y, **{name: p})
    check_weight_total(w)
    if probabilities:
        check_probabilities(p, name)
    return y, p, w


def _indicator_target(y_true: ArrayLike) -> AnyArray | None:
    """``y_true`` as an array when it is 2-D with several columns (one-hot or multilabel), else None."""
    y = as_array(y_true, "y_true")
    return y if y.ndim == 2 and y.shape[1] > 1 else None


def _indicator_inputs(
    y: AnyArray,
    y_prob: ArrayLike,
    sample_weight: ArrayLike | None,
    nan_policy: str,
    labels: ArrayLike | None,
) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    """A 0/1 indicator ``y_true`` (scikit-learn's binarised target) and probabilities of its shape.

    One column of ``y_prob`` against two indicator columns is the second
    column's probability, as in scikit-learn.
    """
    p = scores_2d(y_prob, "y_prob")
    if p.shape[1] == 1 and y.shape[1] == 2:
        p = np.concatenate([1 - p, p], axis=1)
    t, _ = _indicators(y, np.zeros((y.shape[0], y.shape[1]), dtype=bool), ("y_true", "y_true"))
    if p.shape[1] != t.shape[1]:
        raise ShapeError(f"y_true has {t.shape[1]} indicator columns but y_prob has {p.shape[1]}")
    if labels is not None and np.asarray(labels).size != t.shape[1]:
        raise LabelError(
            f"labels has {np.asarray(labels).size} entries but y_true has {t.shape[1]} columns"
        )
    t, p, w = checked_rows(nan_policy, sample_weight, ("y_prob",), y_true=t, y_prob=p)
    check_weight_total(w)
    check_probabilities(p, "y_prob")
    _check_rows_sum_to_one(p, "y_prob")
    return t.astype(np.float64), p, w


def _sorted_labels(labels: ArrayLike | None, y: AnyArray, name: str = "labels") -> AnyArray:
    """The classes naming the columns: sorted ``labels=`` (unsorted raises) or the classes of ``y``."""
    classes = given_labels(labels, name)
    if classes is None:
        return distinct(y)
    if not np.array_equal(np.sort(classes), classes):
        raise LabelError(
            f"{name} must be sorted ({np.sort(classes).tolist()[:10]}): the columns of the "
            "scores follow the sorted labels"
        )
    return classes


def _is_second(y: AnyArray, classes: AnyArray, *, check: bool = True) -> BoolArray:
    """``y == classes[1]`` for at most two classes; with ``check``, every label must be one of them."""
    second = y if y.dtype == bool and classes.tolist() == [False, True] else y == classes[-1]
    if check and (classes.size < 2 or not (second | (y == classes[0])).all()):
        encode(y, classes, "y_true")  # raises, naming the unknown labels
    return np.asarray(second)


def _check_rows_sum_to_one(p: FloatArray, name: str) -> None:
    """Rows must sum to 1 within scikit-learn's tolerance (rtol = √eps, atol = 1e-8).

    eps is float32's when every value is a float32 (``torch.softmax`` output, say),
    as scikit-learn takes it from the input's dtype; else float64's.
    """
    sums = p.sum(axis=1)
    eps = _EPS if not np.array_equal(p.astype(np.float32), p) else float(np.finfo(np.float32).eps)
    tolerance = 1e-8 + np.sqrt(eps)
    if not np.all(np.abs(sums - 1) <= tolerance):
        bad = int((np.abs(sums - 1) > tolerance).sum())
        raise ProbabilityRangeError(f"{name} has {bad} rows that do not sum to 1")


def _class_probabilities(
    y: AnyArray, p: FloatArray, labels: ArrayLike | None, name: str
) -> tuple[AnyArray, BoolArray | None]:
    """Classes and, for one column, the positives (the larger class); ``None`` for a matrix."""
    classes = _sorted_labels(labels, y)
    if classes.size < 2:
        raise LabelError(
            f"y_true has only one class ({classes.tolist()}); pass labels= with every class"
        )
    if p.shape[1] == 1:
        if classes.size != 2:
            raise ShapeError(
                f"{name} has one column but there are {classes.size} classes; "
                f"pass {name} of shape (n_samples, {classes.size})"
            )
        return classes, _is_second(y, classes, check=labels is not None)
    if p.shape[1] != classes.size:
        raise ShapeError(
            f"{name} has {p.shape[1]} columns but there are {classes.size} classes "
            f"({classes.tolist()[:10]}); pass labels= naming every column"
        )
    _check_rows_sum_to_one(p, name)
    return classes, None


def log_loss(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Log loss (cross-entropy) of predicted probabilities, as scikit-learn's ``log_loss``.

    .. math:: L = -\frac{1}{\sum_i w_i} \sum_i w_i \log p_{i, y_i}

    Probabilities are clipped to [eps, 1 − eps] (eps = 2.2e-16, float64) and
    not renormalised, as scikit-learn 1.9 does. A 1-D ``y_prob`` is the
    probability of the larger of two classes; a matrix has one column per
    sorted class (``labels=`` names them, sorted); a 2-D 0/1 ``y_true``
    (one-hot or multilabel indicator) gives −Σ_k y_ik log p_ik per row, as
    scikit-learn. A continuous ``y_true`` raises. Differs from scikit-learn:
    values outside [0, 1] and rows not summing to 1 (tolerance √eps) raise
    ``ProbabilityRangeError`` (scikit-learn warns on the latter). Binary,
    with unit or integer weights: each row's loss is truncated to a multiple
    of 2⁻⁵⁷ and the integers are summed exactly (error < 7e-18), so
    ``stream.BinaryCurve.log_loss`` gives the same bits for any chunking.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities.
    normalize : bool or str
        See above.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    −(log .9 + log .8) / 2 = 0.1643:

    >>> round(log_loss([1, 0], [0.9, 0.2]), 4)
    0.1643
    """
    indicator = _indicator_target(y_true)
    if indicator is not None:  # one-hot or multilabel: -Σ_k y_ik log p_ik, as scikit-learn
        t, p, w = _indicator_inputs(indicator, y_prob, sample_weight, nan_policy, labels)
        return _mean_loss(-(t * _log_clipped(p.copy())).sum(axis=1), w, normalize)
    y, p, w = _prob_inputs(y_true, y_prob, sample_weight, nan_policy, probabilities=True)
    classes, target = _class_probabilities(y, p, labels, "y_prob")
    if target is not None:
        return _binary_log_loss(target, p[:, 0], w, normalize)
    logs = _log_clipped(p[np.arange(p.shape[0]), encode(y, classes, "y_true")])
    loss = -float(logs.sum() if w is None else np.dot(logs, w))
    weight = float(logs.size if w is None else w.sum())
    return loss / weight if normalize else loss


def brier_score(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    labels: ArrayLike | None = None,
    scale_by_half: bool | str = "auto",
    nan_policy: str = "raise",
) -> float:
    r"""Brier score: mean squared difference between one-hot outcomes and probabilities.

    .. math:: \mathrm{BS} = \frac{c}{\sum_i w_i} \sum_i w_i \sum_k (o_{ik} - p_{ik})^2

    As scikit-learn's ``brier_score_loss``: a 1-D ``y_prob`` is the probability
    of the positive class (``pos_label``; labels {0, 1}, {-1, 1} or bool
    without it) and the sum runs over both classes; a matrix has one column
    per sorted class (``labels=``) and its rows must sum to 1; ``y_true`` may
    be a 2-D 0/1 indicator (one-hot or multilabel). ``c`` is ½ when
    ``scale_by_half`` is True (``"auto"``: fewer than 3 columns), so the binary
    score is the classic mean of (y − p)².

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    scale_by_half : bool or "auto", default="auto"
        Halve the multiclass score so it lies in [0, 1], as scikit-learn.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    ((1 − .9)² + (0 − .2)²) / 2 = 0.025:

    >>> round(brier_score([1, 0], [0.9, 0.2]), 12)
    0.025
    """
    if scale_by_half not in (True, False, "auto"):
        raise ParameterError(f"scale_by_half={scale_by_half!r} is not one of True, False, 'auto'")
    indicator = _indicator_target(y_true)
    if indicator is not None:  # one-hot or multilabel indicator, as scikit-learn
        t, p, w = _indicator_inputs(indicator, y_prob, sample_weight, nan_policy, labels)
        half = p.shape[1] < 3 if scale_by_half == "auto" else bool(scale_by_half)
        return _mean_loss(((t - p) ** 2).sum(axis=1), w) * (0.5 if half else 1.0)
    y, p, w = _prob_inputs(y_true, y_prob, sample_weight, nan_policy, probabilities=True)
    half = p.shape[1] < 3 if scale_by_half == "auto" else bool(scale_by_half)
    if p.shape[1] == 1:
        diff = p[:, 0] - _positives(y, pos_label)
        return _mean_loss(diff * diff, w) * (1.0 if half else 2.0)
    classes, _ = _class_probabilities(y, p, labels, "y_prob")
    diff = p.copy()
    diff[np.arange(p.shape[0]), encode(y, classes, "y_true")] -= 1
    return _mean_loss((diff * diff).sum(axis=1), w) * (0.5 if half else 1.0)


def hinge_loss(
    y_true: ArrayLike,
    pred_decision: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    r"""Average hinge loss, binary or multiclass (Crammer–Singer), as scikit-learn's ``hinge_loss``.

    .. math:: L = \frac{1}{\sum_i w_i} \sum_i w_i \max(0, 1 - m_i)

    Binary (1-D ``pred_decision``): m = y·d with the larger class +1, the other
    −1 (a single class in ``y_true`` counts as −1 without ``labels=``, as in
    scikit-learn). Multiclass (one column per sorted class): m = d_{y} − max_{k≠y} d_k.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    pred_decision : array-like of shape (n_samples,) or (n_samples, n_classes)
        Decision values (margins).
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Margins 1·2 = 2, −1·(−.5) = .5, 1·(−1) = −1: losses 0, .5, 2, mean 0.8333:

    >>> round(hinge_loss([1, -1, 1], [2.0, -0.5, -1.0]), 4)
    0.8333
    """
    y, d, w = _prob_inputs(y_true, pred_decision, sample_weight, nan_policy, "pred_decision")
    classes = _sorted_labels(labels, y)
    if classes.size > 2:
        if d.shape[1] != classes.size:
            raise ShapeError(
                f"pred_decision must have shape (n_samples, {classes.size}) for "
                f"{classes.size} classes, got {d.shape}"
            )
        codes = encode(y, classes, "y_true")
        rows = np.arange(d.shape[0])
        own = d[rows, codes]
        others = d.copy()
        others[rows, codes] = -np.inf
        margin = own - others.max(axis=1)
    else:
        if d.shape[1] != 1:
            raise ShapeError(f"pred_decision must be 1-D for a binary y_true, got {d.shape}")
        _is_second(y, classes)
        # the larger class is +1; a lone class is -1, as scikit-learn's LabelBinarizer does
        sign = np.where(y == classes[1], 1.0, -1.0) if classes.size == 2 else -np.ones(y.size)
        margin = sign * d[:, 0]
    return _mean_loss(np.maximum(1 - margin, 0.0), w)


def top_k_accuracy(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    nan_policy: str = "raise",
) -> float:
    """Share of samples whose true class is among the ``k`` highest scores (``top_k_accuracy_score``).

    Ties between class scores are broken as scikit-learn does: of two classes
    with equal scores, the one with the larger column index ranks higher.
    Binary 1-D scores with k = 1 predict the positive class when the score
    exceeds 0.5 (probabilities) or 0 (decision values). ``k`` >= the number of
    classes scores 1 and warns (``UndefinedMetricWarning``), as scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores: higher means more likely positive.
    k : int, default=2
        How many of the best-scored classes count.
    normalize : bool or str
        See above.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights.
    labels : array-like, default=None
        The classes to use, in this order (default: every class seen).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    True classes 0, 1, 2; their scores rank 1st, 2nd and 3rd in their rows:

    >>> top_k_accuracy([0, 1, 2], [[.5, .3, .2], [.4, .35, .25], [.5, .3, .2]], k=2)
    0.6666666666666666
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ParameterError(f"k must be an integer >= 1, got {k!r}")
    y, s, w = _prob_inputs(y_true, y_score, sample_weight, nan_policy, "y_score")
    classes = _sorted_labels(labels, y)
    n_classes = classes.size if classes.size > 2 else 2
    if classes.size > 2 and s.shape[1] != classes.size:
        raise ShapeError(
            f"y_score must have shape (n_samples, {classes.size}) for {classes.size} classes, "
            f"got {s.shape}; pass labels= if y_true lacks some classes"
        )
    if classes.size <= 2 and s.shape[1] != 1:
        raise ShapeError(
            f"y_true is binary but y_score has {s.shape[1]} columns; pass labels= with every class"
        )
    if classes.size < 2:
        raise LabelError(f"y_true has one class ({classes.tolist()}); pass labels= with both")
    codes = encode(y, classes, "y_true")
    if k >= n_classes:
        undefined("top_k_accuracy", f"k={k} >= the number of classes ({n_classes}): always 1", 1.0)
    if s.shape[1] == 1:
        if k == 1:
            col = s[:, 0]
            threshold = 0.5 if col.min() >= 0 and col.max() <= 1 else 0.0
            hits = (col > threshold) == (codes == 1)
        else:
            hits = np.ones(codes.size, dtype=bool)
    else:
        rows = np.arange(codes.size)
        own = s[rows, codes][:, None]
        later = np.arange(classes.size)[None, :] > codes[:, None]
        above = (s > own).sum(axis=1) + ((s == own) & later).sum(axis=1)
        hits = above < k
    return _mean_loss(hits.astype(np.float64), w, normalize)
