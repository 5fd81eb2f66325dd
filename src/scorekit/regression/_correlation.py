r"""Pearson's correlation and Lin's concordance correlation, from exact moment sums.

The sums ``Σw, Σw·x, Σw·y, Σw·x², Σw·y², Σw·x·y`` are exact (error-free
products, :class:`scorekit._exactsum.ExactSums`), so the centred moments

.. math:: S_{xy} = \sum w x y - \frac{\sum w x \sum w y}{\sum w}

are exact rationals; Pearson's ``r = S_xy / sqrt(S_xx S_yy)`` is rounded once
(an integer square root decides the last bit) and Lin's coefficient is a
rational rounded once. :func:`correlation_sums` is the mergeable state of
:class:`scorekit.stream.RegressionLosses`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._exactsum import UNIT_EXP, ExactSum, ExactSums, as_fraction, two_product
from .._typing import ArrayLike, FloatArray
from .._validation import undefined, zero_weight_error
from ._inputs import average_outputs, output_weights, regression_inputs

__all__ = ["concordance_correlation", "pearson"]

#: Σw, Σw·x, Σw·y, Σw·x², Σw·y², Σw·x·y per output (x = y_pred, y = y_true).
Moments = tuple[
    ExactSum, list[ExactSum], list[ExactSum], list[ExactSum], list[ExactSum], list[ExactSum]
]


def correlation_sums(y: FloatArray, p: FloatArray, w: FloatArray | None) -> Moments:
    """The exact sums of :data:`Moments` for 2-D ``y`` (truth) and ``p`` (predictions)."""
    n, k = y.shape
    acc = ExactSums(5 * k + 1)
    with np.errstate(all="ignore"):
        if w is not None:
            acc.add(5 * k, np.ascontiguousarray(w))
        for j in range(k):
            a, b = np.ascontiguousarray(p[:, j]), np.ascontiguousarray(y[:, j])
            for slot, (u, v) in enumerate(((a, None), (b, None), (a, a), (b, b), (a, b))):
                for part in _weighted_terms(u, v, w):
                    acc.add(slot * k + j, part)
    t = acc.result()
    weight: ExactSum = (n << UNIT_EXP) if w is None else t[5 * k]
    parts = [t[i * k : (i + 1) * k] for i in range(5)]
    return weight, parts[0], parts[1], parts[2], parts[3], parts[4]


def _weighted_terms(u: FloatArray, v: FloatArray | None, w: FloatArray | None) -> list[FloatArray]:
    """Arrays whose exact sum is Σ w·u·v (``v`` absent: Σ w·u; ``w`` absent: weight 1)."""
    terms = [u] if w is None else list(two_product(w, u))
    if v is None:
        return terms
    return [part for t in terms for part in two_product(t, v)]


def _overflowed(s: Moments) -> bool:
    """Whether a per-output sum overflowed to inf/nan (then the value is nan)."""
    return any(isinstance(v, float) for part in s[1:6] for v in part)


def _centred(s: Moments, j: int) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction]:
    """Exact ``W, S_xx, S_yy, S_xy`` and ``Σx − Σy`` of output ``j`` (in units of the sums)."""
    weight, sx, sy, sxx, syy, sxy = s
    w = as_fraction(weight)
    x, y = as_fraction(sx[j]), as_fraction(sy[j])
    cxx = as_fraction(sxx[j]) - x * x / w
    cyy = as_fraction(syy[j]) - y * y / w
    cxy = as_fraction(sxy[j]) - x * y / w
    return w, cxx, cyy, cxy, x - y


def _sqrt_ratio(num: Fraction, den: Fraction) -> float:
    """``sqrt(num / den)`` for non-negative rationals, correctly rounded."""
    if num == 0:
        return 0.0
    shift = 0
    r = num / den
    while r < 2**110:  # at least 55 bits in the integer root
        r *= 4
        shift += 1
    while r >= 2**112:
        r /= 4
        shift -= 1
    root = math.isqrt(r.numerator // r.denominator)
    exact = root * root * r.denominator == r.numerator
    return float(Fraction(2 * root + (0 if exact else 1), 2 ** (shift + 1)))


def pearson_from_sums(s: Moments) -> FloatArray:
    """Pearson's r per output; ``nan`` (with a warning) where a column is constant."""
    out = []
    if isinstance(s[0], float) or _overflowed(s):
        return np.full(len(s[1]), np.nan)
    for j in range(len(s[1])):
        _, cxx, cyy, cxy, _ = _centred(s, j)
        if cxx <= 0 or cyy <= 0:
            out.append(undefined("pearson", "y_true or y_pred is constant"))
            continue
        value = _sqrt_ratio(cxy * cxy, cxx * cyy)
        out.append(math.copysign(value, cxy) if cxy else 0.0)
    return np.array(out)


def concordance_from_sums(s: Moments, bias: bool = False) -> FloatArray:
    """Lin's concordance per output (``bias``: population moments, else n − 1)."""
    if isinstance(s[0], float) or _overflowed(s):
        return np.full(len(s[1]), np.nan)
    out = []
    for j in range(len(s[1])):
        w, cxx, cyy, cxy, diff = _centred(s, j)
        shift = diff * diff / w  # (Σx − Σy)²/W = W·(x̄ − ȳ)²
        den = cxx + cyy + (shift if bias else shift * (w - 1) / w)
        if den == 0:
            out.append(undefined("concordance_correlation", "both columns are the same constant"))
            continue
        out.append(float(2 * cxy / den))
    return np.array(out)


def pearson(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Pearson's correlation coefficient of ``y_true`` and ``y_pred`` (per output).

    .. math:: r = \frac{\sum_i w_i (x_i - \bar x)(y_i - \bar y)}
              {\sqrt{\sum_i w_i (x_i - \bar x)^2 \sum_i w_i (y_i - \bar y)^2}}

    As ``scipy.stats.pearsonr`` and torchmetrics' ``pearson_corrcoef``, with
    weighted means and moments when ``sample_weight`` is given. Exact moment sums,
    rounded once. A constant column warns and gives ``nan``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    y = 1, 2, 3 against 1, 3, 2: S_xy = 0.5, S_xx = S_yy = 2, so r = 0.25·2 = 0.5:

    >>> pearson([1.0, 2.0, 3.0], [1.0, 3.0, 2.0])
    0.5
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    s = correlation_sums(y, p, w)
    if not (isinstance(s[0], float) or s[0] > 0):
        raise zero_weight_error()
    return average_outputs(pearson_from_sums(s), weights)


def concordance_correlation(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    bias: bool = False,
    multioutput: Any = "uniform_average",
    nan_policy: str = "raise",
) -> float | FloatArray:
    r"""Lin's concordance correlation coefficient (torchmetrics' ``concordance_corrcoef``).

    .. math:: \rho_c = \frac{2 s_{xy}}{s_x^2 + s_y^2 + (\bar x - \bar y)^2}

    torchmetrics divides the (co)variances by ``n − 1`` (the default here);
    ``bias=True`` divides by ``n`` as Lin (1989) does. ``sample_weight`` are
    frequency weights (``n = Σw``: an integer weight k equals k copies of the row;
    so with ``bias=False``, scaling every weight changes the value, as ``Σw − 1``
    does). Exact moments, rounded once; two equal constant columns warn and give
    ``nan``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default=None
    bias : bool, default=False
    multioutput : {"raw_values", "uniform_average"} or array of shape (n_outputs,)
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    y = 1, 2, 3 and ŷ = 2, 3, 4 (shifted by one): s_xy = s_x² = s_y² = 1, so
    2 / (1 + 1 + 1); with Lin's 1/n moments 2·(2/3) / (2/3 + 2/3 + 1) = 4/7:

    >>> concordance_correlation([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]) == 2 / 3
    True
    >>> concordance_correlation([1.0, 2.0, 3.0], [2.0, 3.0, 4.0], bias=True) == 4 / 7
    True
    """
    y, p, w = regression_inputs(y_true, y_pred, sample_weight, nan_policy)
    weights = output_weights(multioutput, y.shape[1])
    s = correlation_sums(y, p, w)
    if not (isinstance(s[0], float) or s[0] > 0):
        raise zero_weight_error()
    return average_outputs(concordance_from_sums(s, bias=bool(bias)), weights)
