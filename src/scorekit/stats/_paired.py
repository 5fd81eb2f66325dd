"""Paired tests on two vectors of per-item scores (the engine behind ``compare``).

Every test works on the differences ``d = a - b`` of paired scores and is two
sided. The kernels (``_t_test``, ``_wilcoxon_test``, ``_sign_test``,
``_randomization_test``, ``_bootstrap_test``) take the float array ``d`` and
never validate; :func:`paired_test` validates once and calls one of them.

A paired test needs the whole vector of differences, so these kernels are not
mergeable states: a streaming layer concatenates the per-item scores first.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .._errors import EmptyInputError, ParameterError
from .._typing import ArrayLike, FloatArray
from .._validation import (
    check_count,
    check_option,
    check_same_length,
    finite_rows,
    random_generator,
    scores_1d,
    take,
)

__all__ = ["PairedTestResult", "paired_test"]

TESTS = ("t", "wilcoxon", "sign", "randomization", "bootstrap")

# Resampling works on (block, n) matrices of about this many entries at a time.
_BLOCK_ELEMENTS = 1 << 20
# Wilcoxon: the exact / enumerated null distribution is used up to these sizes (scipy's "auto").
_WILCOXON_EXACT_MAX = 50
_WILCOXON_PERMUTATION_MAX = 13


@dataclass(frozen=True, slots=True)
class PairedTestResult:
    """Result of :func:`paired_test`; ``diff = mean_a - mean_b``.

    ``ci_low``/``ci_high`` bound the mean difference at confidence ``1 - alpha``
    and ``effect_size`` is the mean difference over the standard deviation of
    the differences (Cohen's :math:`d_z`, ``ddof=1``).
    """

    test: str
    statistic: float
    p_value: float
    mean_a: float
    mean_b: float
    diff: float
    effect_size: float
    ci_low: float
    ci_high: float
    n: int
    alpha: float

    @property
    def significant(self) -> bool:
        """``p_value < alpha``."""
        return self.p_value < self.alpha

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain ``dict`` (plus ``significant``)."""
        return {**asdict(self), "significant": self.significant}


def paired_test(
    a: ArrayLike,
    b: ArrayLike,
    *,
    test: str = "t",
    n_resamples: int = 10_000,
    seed: int | np.random.Generator | None = 0,
    alpha: float = 0.05,
    nan_policy: str = "raise",
) -> PairedTestResult:
    r"""Two-sided paired test of the difference between per-item scores ``a`` and ``b``.

    With :math:`d_i = a_i - b_i`:

    - ``"t"``: :math:`t = \bar d / (s_d/\sqrt n)` on n−1 degrees of freedom
      (= ``scipy.stats.ttest_rel``); interval: the t-interval of :math:`\bar d`.
    - ``"wilcoxon"``: signed-rank test with scipy's defaults (``zero_method="wilcox"``:
      zero differences dropped; ``correction=False``; ``method="auto"``: exact null
      distribution for n ≤ 50 without ties or zeros, every sign flip enumerated for
      n ≤ 13 with ties or zeros, else the normal approximation with tie correction).
      The statistic is min(R+, R−), as scipy's.
    - ``"sign"``: ``binomtest(k, m, 0.5)``, k positive among the m non-zero differences;
      the statistic is k.
    - ``"randomization"``: flips the sign of each difference at random; statistic
      :math:`\bar d`; :math:`p = (\#\{|T^*| \ge |T|\} + 1)/(R + 1)`. When
      :math:`2^n \le` ``n_resamples`` every sign assignment is enumerated and p is
      the exact fraction.
    - ``"bootstrap"``: studentized bootstrap (Efron & Tibshirani 16.4; Sakai 2006):
      resamples of the differences shifted to mean 0; statistic t as above;
      :math:`p = (\#\{|t^*| \ge |t|\} + 1)/(R + 1)`; interval: the percentile
      interval of the resampled :math:`\bar d^*`.

    Intervals are t-intervals except for ``"bootstrap"``. When every difference
    is 0 the result is statistic 0 and p 1 (scipy returns nan for t).

    Parameters
    ----------
    a : array-like of shape (n,)
        The first vector.
    b : array-like of shape (n,)
        The second vector.
    test : {"t", "randomization", "bootstrap", "wilcoxon", "sign"}, default="t"
        The paired test on per-query values.
    n_resamples : int
        Resamples of the randomization or bootstrap test.
    seed : int or numpy Generator, default=0
        Seed of the resampling.
    alpha : float
        See the formula above.
    nan_policy : {"raise", "omit"}, default="raise"
        What NaN or infinite inputs do: raise, or drop those rows (saying how many).

    Examples
    --------
    Differences 1, 2, 3: mean 2, sd 1, t = 2/(1/√3) = 2√3:

    >>> r = paired_test([2, 4, 6], [1, 2, 3])
    >>> round(r.statistic, 6), r.diff, r.effect_size
    (3.464102, 2.0, 2.0)
    """
    check_option(test, "test", TESTS)
    _check_alpha(alpha)
    n_resamples = _check_resamples(n_resamples)
    x, y = scores_1d(a, "a"), scores_1d(b, "b")
    check_same_length(a=x, b=y)
    x, y = take(finite_rows(nan_policy, a=x, b=y), x, y)
    n = x.shape[0]
    if n < 2:
        raise EmptyInputError(f"a paired test needs at least 2 pairs of scores; got {n}")
    d = x - y
    lo, hi = _t_interval(d, alpha)
    if test == "t":
        stat, p = _t_test(d)
    elif test == "wilcoxon":
        stat, p = _wilcoxon_test(d)
    elif test == "sign":
        stat, p = _sign_test(d)
    elif test == "randomization":
        stat, p = _randomization_test(d, n_resamples, random_generator(seed))
    else:
        stat, p, lo, hi = _bootstrap_test(d, n_resamples, random_generator(seed), alpha)
    mean_d = float(np.mean(d))
    return PairedTestResult(
        test=test,
        statistic=float(stat),
        p_value=float(p),
        mean_a=float(np.mean(x)),
        mean_b=float(np.mean(y)),
        diff=mean_d,
        effect_size=_ratio(mean_d, float(np.std(d, ddof=1))),
        ci_low=float(lo),
        ci_high=float(hi),
        n=n,
        alpha=float(alpha),
    )


def _check_alpha(alpha: float) -> None:
    if not 0.0 < float(alpha) < 1.0:
        raise ParameterError(f"alpha={alpha!r} must lie strictly between 0 and 1")


def _check_resamples(n_resamples: int) -> int:
    return check_count(n_resamples, "n_resamples")


def _ratio(num: float, den: float) -> float:
    """``num / den`` with 0/0 = 0 and x/0 = ±inf (the all-equal-differences case)."""
    if den == 0.0:
        return 0.0 if num == 0.0 else float(np.copysign(np.inf, num))
    return num / den


def _ratio_array(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    out[den == 0] = np.copysign(np.inf, num[den == 0])
    out[(den == 0) & (num == 0)] = 0.0
    return out


def _t_interval(d: FloatArray, alpha: float) -> tuple[float, float]:
    """The t-interval of the mean of ``d`` at confidence ``1 - alpha``."""
    from scipy.special import stdtrit

    n = d.shape[0]
    mean = float(np.mean(d))
    half = float(stdtrit(n - 1, 1 - alpha / 2)) * float(np.std(d, ddof=1)) / np.sqrt(n)
    return mean - half, mean + half


def _t_test(d: FloatArray) -> tuple[float, float]:
    """Paired t statistic and two-sided p-value (``scipy.stats.ttest_rel``)."""
    from scipy.special import stdtr

    n = d.shape[0]
    t = _ratio(float(np.mean(d)), float(np.std(d, ddof=1)) / np.sqrt(n))
    return t, min(1.0, 2.0 * float(stdtr(n - 1, -abs(t))))


def _sign_test(d: FloatArray) -> tuple[float, float]:
    """Positive differences k among m non-zero ones; p of ``binomtest(k, m, 0.5)``."""
    from scipy.special import bdtr

    k = int(np.count_nonzero(d > 0))
    m = k + int(np.count_nonzero(d < 0))
    if m == 0:
        return 0.0, 1.0
    # binomtest with p = 1/2 is symmetric: P(X <= min(k, m-k)) + P(X >= max(k, m-k)).
    return float(k), min(1.0, 2.0 * float(bdtr(min(k, m - k), m, 0.5)))


def _midranks(x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Average ranks (1-based) of ``x`` and the sizes of its tie groups (one argsort)."""
    order = np.argsort(x)
    s = x[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    ends = np.r_[starts[1:], s.shape[0]]
    ranks = np.empty(s.shape[0])
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks, (ends - starts).astype(np.float64)


def _wilcoxon_test(d: FloatArray) -> tuple[float, float]:
    """Signed-rank statistic min(R+, R−) and p-value as ``scipy.stats.wilcoxon`` defaults."""
    from scipy.special import ndtr

    nz = d[d != 0]
    n = nz.shape[0]
    if n == 0:
        return 0.0, 1.0
    ranks, ties = _midranks(np.abs(nz))
    r_plus = float(ranks[nz > 0].sum())
    r_minus = float(ranks[nz < 0].sum())
    has_ties = bool((ties > 1).any())
    n_all = d.shape[0]
    if n_all <= _WILCOXON_EXACT_MAX and (
        not (has_ties or n < n_all) or n_all <= _WILCOXON_PERMUTATION_MAX
    ):
        p = _signed_rank_exact_p(ranks, r_plus)
    else:
        se = np.sqrt((n * (n + 1) * (2 * n + 1) - float(np.sum(ties**3 - ties)) / 2) / 24)
        z = (r_plus - n * (n + 1) / 4) / se
        p = min(1.0, 2.0 * float(ndtr(-abs(z))))
    return min(r_plus, r_minus), p


def _signed_rank_exact_p(ranks: FloatArray, r_plus: float) -> float:
    """Two-sided p of R+ under random signs: the distribution of subset sums of the ranks.

    Ranks are midranks (multiples of 1/2), so the sums are counted exactly on doubled ranks.
    """
    doubled = np.rint(2 * ranks).astype(np.int64)
    counts = np.zeros(int(doubled.sum()) + 1)
    counts[0] = 1.0
    for r in doubled:  # n <= 50 items; counts stay below 2**50, exact in float64
        counts[r:] = counts[r:] + counts[: counts.shape[0] - r]
    k = round(2 * r_plus)
    total = counts.sum()
    less, greater = counts[: k + 1].sum() / total, counts[k:].sum() / total
    return min(1.0, 2.0 * float(min(less, greater)))


def _blocks(n_resamples: int, n: int) -> list[int]:
    size = max(1, min(n_resamples, _BLOCK_ELEMENTS // max(n, 1)))
    full, rest = divmod(n_resamples, size)
    return [size] * full + ([rest] if rest else [])


def _randomization_test(
    d: FloatArray, n_resamples: int, rng: np.random.Generator
) -> tuple[float, float]:
    """Sign-flip test of the mean difference; exact enumeration when 2**n <= n_resamples."""
    n = d.shape[0]
    observed = abs(float(d.sum()))
    # |T*| equal to |T| in exact arithmetic may differ in the last bits after a matrix product.
    tol = 16 * n * np.finfo(np.float64).eps * float(np.abs(d).sum())
    if n < 63 and 2**n <= n_resamples:
        flips = 1.0 - 2.0 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)
        hits = int(np.count_nonzero(np.abs(flips @ d) >= observed - tol))
        return float(np.mean(d)), hits / 2**n
    hits = 0
    for size in _blocks(n_resamples, n):
        flips = 1.0 - 2.0 * rng.integers(0, 2, size=(size, n), dtype=np.int8)
        hits += int(np.count_nonzero(np.abs(flips @ d) >= observed - tol))
    return float(np.mean(d)), (hits + 1) / (n_resamples + 1)


def _bootstrap_test(
    d: FloatArray, n_resamples: int, rng: np.random.Generator, alpha: float
) -> tuple[float, float, float, float]:
    """Studentized bootstrap test of mean 0 and the percentile interval of the mean."""
    n = d.shape[0]
    mean = float(np.mean(d))
    t_obs = abs(_ratio(mean, float(np.std(d, ddof=1)) / np.sqrt(n)))
    shifted = d - mean
    means = np.empty(n_resamples)
    hits, done = 0, 0
    for size in _blocks(n_resamples, n):
        x = shifted[rng.integers(0, n, size=(size, n))]
        m = x.mean(axis=1)
        t = _ratio_array(m, x.std(axis=1, ddof=1) / np.sqrt(n))
        hits += int(np.count_nonzero(np.abs(t) >= t_obs))
        means[done : done + size] = m + mean
        done += size
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return (
        _ratio(mean, float(np.std(d, ddof=1)) / np.sqrt(n)),
        (hits + 1) / (n_resamples + 1),
        float(lo),
        float(hi),
    )
