"""Multiple-comparison corrections of p-values (family-wise error rate)."""

from __future__ import annotations

import numpy as np

from .._errors import NonFiniteError, ParameterError, ShapeError
from .._typing import ArrayLike, FloatArray
from .._validation import as_array, check_option

__all__ = ["bonferroni", "holm"]

CORRECTIONS = (None, "bonferroni", "holm")


def _pvalues(pvalues: ArrayLike) -> FloatArray:
    p = np.asarray(as_array(pvalues, "pvalues"), dtype=np.float64)
    if p.ndim != 1:
        raise ShapeError(f"pvalues must be 1-D, got shape {p.shape}")
    if not np.isfinite(p).all():
        raise NonFiniteError(
            f"pvalues contains {int((~np.isfinite(p)).sum())} NaN or infinite values"
        )
    if p.size and (p.min() < 0 or p.max() > 1):
        raise ParameterError(f"pvalues must lie in [0, 1]; found values in [{p.min()}, {p.max()}]")
    return p


def bonferroni(pvalues: ArrayLike) -> FloatArray:
    r"""Bonferroni-adjusted p-values: :math:`\min(1, m\,p_i)` for m tests.

    Reject hypothesis i at level α when the adjusted value is below α.

    Parameters
    ----------
    pvalues : array-like of float
        The p-values of the tests of one family.

    Examples
    --------
    >>> bonferroni([0.01, 0.04, 0.25]).tolist()
    [0.03, 0.12, 0.75]
    """
    p = _pvalues(pvalues)
    return np.minimum(p * p.size, 1.0)


def holm(pvalues: ArrayLike) -> FloatArray:
    r"""Holm's step-down adjusted p-values (Holm 1979).

    With the p-values sorted ascending, :math:`p_{(1)} \le \dots \le p_{(m)}`,

    .. math:: \tilde p_{(i)} = \min\Big(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Big)

    so the adjusted values are monotone in the raw ones and capped at 1; they
    are returned in the input order (ties keep their order). Uniformly more
    powerful than :func:`bonferroni` at the same family-wise error rate.

    Parameters
    ----------
    pvalues : array-like of float
        The p-values of the tests of one family.

    Examples
    --------
    Sorted 0.01, 0.03, 0.04 times 3, 2, 1 give 0.03, 0.06, 0.04 → running max 0.06:

    >>> holm([0.04, 0.01, 0.03]).tolist()
    [0.06, 0.03, 0.06]
    """
    p = _pvalues(pvalues)
    m = p.size
    order = np.argsort(p, kind="stable")  # m is the number of tests: small
    adjusted = np.minimum(np.maximum.accumulate(p[order] * (m - np.arange(m))), 1.0)
    out = np.empty(m)
    out[order] = adjusted
    return out


def adjust(pvalues: FloatArray, correction: str | None) -> FloatArray:
    """Apply ``correction`` (``None``, ``"bonferroni"`` or ``"holm"``) to a family of p-values."""
    check_option(correction, "correction", CORRECTIONS)
    if correction == "bonferroni":
        return bonferroni(pvalues)
    if correction == "holm":
        return holm(pvalues)
    return np.array(pvalues, dtype=np.float64)
