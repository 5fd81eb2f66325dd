"""DeLong's test for two correlated ROC AUCs, in O(n log n) (Sun & Xu 2014).

Kernel: :func:`placements` gives the structural components (placement values)
of one score vector from one sort; :func:`delong_from_placements` turns those
of two score vectors on the same rows into the test. The AUC of one score is
the mean of its positive placements, its DeLong variance
:math:`S_{10}/m + S_{01}/n`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .._typing import ArrayLike, BoolArray, FloatArray
from .._validation import (
    binary_target,
    check_same_length,
    finite_rows,
    labels_1d,
    nonempty,
    scores_1d,
    take,
    undefined,
)
from ..classification._area import half_below
from ._paired import _check_alpha

__all__ = ["DeLongResult", "delong_test"]


@dataclass(frozen=True, slots=True)
class DeLongResult:
    """Result of :func:`delong_test`; ``ci_low``/``ci_high`` bound ``auc_a - auc_b``."""

    auc_a: float
    auc_b: float
    diff: float
    se: float
    z: float
    p_value: float
    ci_low: float
    ci_high: float
    n_pos: int
    n_neg: int
    alpha: float

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain ``dict``."""
        return asdict(self)


def placements(y: BoolArray, s: FloatArray) -> tuple[FloatArray, FloatArray]:
    r"""DeLong's placement values of one score vector, in row order of each class.

    :math:`V_{10}(x_i) = \frac1n \sum_j \psi(x_i, y_j)` for each positive,
    :math:`V_{01}(y_j) = \frac1m \sum_i \psi(x_i, y_j)` for each negative, with
    :math:`\psi(x, y) = [x > y] + \frac12 [x = y]`. One argsort of the scores;
    the counts below each tie group are the shared area kernel's
    :func:`~scorekit.classification._area.half_below` (the midrank identity
    :math:`V_{10}(x_i) = (R_i - R^{+}_i)/n` of Sun & Xu, without forming ranks).
    """
    order = np.argsort(s)
    ss, yy = s[order], y[order]
    starts = np.flatnonzero(np.r_[True, ss[1:] != ss[:-1]])
    lengths = np.diff(np.r_[starts, s.shape[0]])
    pos = np.add.reduceat(yy, starts, dtype=np.float64)  # per distinct score, ascending
    neg = lengths - pos
    m, n = float(pos.sum()), float(neg.sum())
    below_neg = np.repeat(half_below(neg), lengths)  # negatives below + half the tied
    above_pos = m - np.repeat(half_below(pos), lengths)  # positives above + half the tied
    value = np.where(yy, below_neg / max(n, 1.0), above_pos / max(m, 1.0))
    out = np.empty(s.shape[0])
    out[order] = value
    return out[y], out[~y]


def delong_from_placements(
    a: tuple[FloatArray, FloatArray], b: tuple[FloatArray, FloatArray], alpha: float
) -> DeLongResult:
    """DeLong's test from the placement values of two score vectors on the same rows."""
    from scipy.special import ndtr, ndtri

    v10 = np.vstack([a[0], b[0]])
    v01 = np.vstack([a[1], b[1]])
    m, n = v10.shape[1], v01.shape[1]
    auc_a, auc_b = float(np.mean(v10[0])), float(np.mean(v10[1]))
    diff = auc_a - auc_b
    if m < 2 or n < 2:
        nan = undefined(
            "delong_test variance", f"{m} positives and {n} negatives; 2 of each are needed"
        )
        return DeLongResult(auc_a, auc_b, diff, nan, nan, nan, nan, nan, m, n, alpha)
    s = np.cov(v10) / m + np.cov(v01) / n
    var = max(float(s[0, 0] + s[1, 1] - 2 * s[0, 1]), 0.0)
    se = float(np.sqrt(var))
    z = (0.0 if diff == 0.0 else float(np.copysign(np.inf, diff))) if se == 0.0 else diff / se
    half = float(ndtri(1 - alpha / 2)) * se
    p = min(1.0, 2.0 * float(ndtr(-abs(z))))
    return DeLongResult(auc_a, auc_b, diff, se, z, p, diff - half, diff + half, m, n, alpha)


def delong_test(
    y_true: ArrayLike,
    score_a: ArrayLike,
    score_b: ArrayLike,
    *,
    alpha: float = 0.05,
    pos_label: int | str | bool | None = None,
    nan_policy: str = "raise",
) -> DeLongResult:
    r"""DeLong's test that two correlated ROC AUCs (same rows) are equal.

    With :math:`V_{10}, V_{01}` the placement values of each score
    (:func:`placements`), :math:`S_{10}, S_{01}` their 2×2 sample covariances
    (``ddof=1``) over the m positives and n negatives, and
    :math:`S = S_{10}/m + S_{01}/n`:

    .. math:: z = \frac{\mathrm{AUC}_a - \mathrm{AUC}_b}{\sqrt{S_{aa} + S_{bb} - 2 S_{ab}}}

    two-sided p from the normal distribution, and the normal interval
    :math:`\Delta \pm z_{1-\alpha/2}\,\mathrm{se}` of the difference (DeLong,
    DeLong & Clarke-Pearson 1988). Ties count one half. O(n log n): one sort per
    score vector (Sun & Xu 2014), so a million rows take well under a second.
    A zero standard error gives z = 0 (equal AUCs) or ±inf; fewer than two
    positives or negatives warn and give nan statistics.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (or targets).
    score_a : array-like of shape (n_samples,)
        Scores of the first model.
    score_b : array-like of shape (n_samples,)
        Scores of the second model.
    alpha : float
        See the formula above.
    pos_label : label, default=None
        The positive class (needed unless the labels are 0/1, -1/1 or bool).
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Positives score (0.9, 0.6) and (0.8, 0.7); negatives (0.5, 0.8) and (0.1, 0.2).
    AUC a = 4/4; AUC b: 0.6 beats 0.2 only, 0.7 beats 0.2 only = 2/4:

    >>> r = delong_test([1, 1, 0, 0], [0.9, 0.8, 0.5, 0.1], [0.6, 0.7, 0.8, 0.2])
    >>> r.auc_a, r.auc_b
    (1.0, 0.5)
    """
    _check_alpha(alpha)
    y = labels_1d(y_true, "y_true")
    sa, sb = scores_1d(score_a, "score_a"), scores_1d(score_b, "score_b")
    nonempty(check_same_length(y_true=y, score_a=sa, score_b=sb), "y_true")
    y, sa, sb = take(finite_rows(nan_policy, score_a=sa, score_b=sb), y, sa, sb)
    pos = binary_target(y, pos_label)
    m = int(pos.sum())
    if m == 0 or m == pos.shape[0]:
        nan = undefined("delong_test", "only one class present in y_true")
        return DeLongResult(nan, nan, nan, nan, nan, nan, nan, nan, m, pos.shape[0] - m, alpha)
    return delong_from_placements(placements(pos, sa), placements(pos, sb), float(alpha))
