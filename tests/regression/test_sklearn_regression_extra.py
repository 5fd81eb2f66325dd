"""Issue 18 regression metrics against scikit-learn, scipy and torchmetrics' formulas.

torchmetrics is not installed: its functional definitions are re-derived in NumPy
below (``symmetric_mean_absolute_percentage_error``,
``weighted_mean_absolute_percentage_error``, ``concordance_corrcoef``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scorekit as sk

metrics = pytest.importorskip("sklearn.metrics")
stats = pytest.importorskip("scipy.stats")

pytestmark = pytest.mark.reference

ERRORS = ("raw_values", "uniform_average")
RTOL = 1e-9


def _close(got, want, rtol=RTOL, atol=1e-12):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol)


def _positive(rng, shape, scale=1.0):
    y = scale * rng.gamma(2.0, size=shape)
    return y, y * rng.uniform(0.5, 1.5, size=shape)


def _weights(rng, n, kind):
    if kind == "none":
        return None
    if kind == "int":
        return rng.integers(0, 4, n).astype(float) + (np.arange(n) == 0)
    w = rng.random(n)
    if kind == "tiny":
        w *= 1e-200
    elif kind == "huge":
        w *= 1e200
    return w


WEIGHTS = ["none", "float", "int", "tiny", "huge"]
SCALES = [1e-100, 1.0, 1e100]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("wkind", WEIGHTS)
@pytest.mark.parametrize("k", [None, 3])
def test_msle_rmsle_pinball_against_sklearn(seed, wkind, k):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    shape = (n,) if k is None else (n, k)
    y, p = _positive(rng, shape)
    y.flat[:3] = np.round(y.flat[:3])  # ties
    w = _weights(rng, n, wkind)
    for option in ERRORS:
        kw = {"sample_weight": w, "multioutput": option}
        _close(sk.msle(y, p, **kw), metrics.mean_squared_log_error(y, p, **kw))
        _close(sk.rmsle(y, p, **kw), metrics.root_mean_squared_log_error(y, p, **kw))
        for alpha in (0.0, 0.1, 0.5, 0.9, 1.0):
            _close(
                sk.mean_pinball_loss(y, p, alpha=alpha, **kw),
                metrics.mean_pinball_loss(y, p, alpha=alpha, **kw),
            )
            _close(
                sk.d2_pinball(y, p, alpha=alpha, **kw),
                metrics.d2_pinball_score(y, p, alpha=alpha, **kw),
            )
        _close(sk.d2_absolute_error(y, p, **kw), metrics.d2_absolute_error_score(y, p, **kw))
    if k is not None:
        mw = rng.random(k)
        _close(
            sk.mean_pinball_loss(y, p, alpha=0.3, sample_weight=w, multioutput=mw),
            metrics.mean_pinball_loss(y, p, alpha=0.3, sample_weight=w, multioutput=mw),
        )


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("wkind", WEIGHTS)
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("power", [-1.0, 0.0, 1.0, 1.5, 2.0, 3.0])
def test_tweedie_family_against_sklearn(seed, wkind, scale, power):
    if (scale, wkind) in {(1e-100, "tiny"), (1e100, "huge")} and power == 0:
        pytest.skip("w·(y − ŷ)² leaves float64 (scikit-learn divides 0 by 0 or inf by inf)")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 200))
    y, p = _positive(rng, n, scale if power == 0 else 1.0)
    if 1 <= power < 2:
        y[: n // 4] = 0.0  # zeros are allowed for Poisson-like powers
    w = _weights(rng, n, wkind)
    kw = {"sample_weight": w, "power": power}
    _close(sk.mean_tweedie_deviance(y, p, **kw), metrics.mean_tweedie_deviance(y, p, **kw))
    _close(sk.d2_tweedie(y, p, **kw), metrics.d2_tweedie_score(y, p, **kw), rtol=1e-8)
    if power == 1:
        _close(sk.mean_poisson_deviance(y, p, sample_weight=w),
               metrics.mean_poisson_deviance(y, p, sample_weight=w))  # fmt: skip
    if power == 2:
        _close(sk.mean_gamma_deviance(y, p, sample_weight=w),
               metrics.mean_gamma_deviance(y, p, sample_weight=w))  # fmt: skip


def _tm_smape(y, p):
    # torchmetrics: 2 * sum(|p - y| / clamp(|y| + |p|, min=1.17e-6)) / n
    return 2 * np.sum(np.abs(p - y) / np.maximum(np.abs(y) + np.abs(p), 1.17e-06)) / y.size


def _tm_wmape(y, p):
    # torchmetrics: sum|p - y| / clamp(sum|y|, min=1.17e-6)
    return np.sum(np.abs(p - y)) / max(np.sum(np.abs(y)), 1.17e-06)


def _tm_ccc(y, p):
    # torchmetrics concordance_corrcoef (preds=p, target=y): (n - 1) moments
    n = y.size
    mx, my = p.mean(), y.mean()
    vx, vy = ((p - mx) ** 2).sum() / (n - 1), ((y - my) ** 2).sum() / (n - 1)
    cxy = ((p - mx) * (y - my)).sum() / (n - 1)
    pearson = cxy / np.sqrt(vx * vy)
    return 2.0 * pearson * np.sqrt(vx) * np.sqrt(vy) / (vx + vy + (mx - my) ** 2)


def _lin_ccc(y, p, w):
    mx, my = np.average(p, weights=w), np.average(y, weights=w)
    vx, vy = np.average((p - mx) ** 2, weights=w), np.average((y - my) ** 2, weights=w)
    cxy = np.average((p - mx) * (y - my), weights=w)
    return 2 * cxy / (vx + vy + (mx - my) ** 2)


def _weighted_pearson(y, p, w):
    mx, my = np.average(p, weights=w), np.average(y, weights=w)
    cxy = np.average((p - mx) * (y - my), weights=w)
    return cxy / np.sqrt(
        np.average((p - mx) ** 2, weights=w) * np.average((y - my) ** 2, weights=w)
    )


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("scale", SCALES)
def test_torchmetrics_and_scipy_definitions(seed, scale):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 300))
    y = scale * rng.normal(size=n)
    p = y + scale * rng.normal(scale=0.7, size=n)
    y[:2] = p[:2] = 0.0  # 0/0 rows: the epsilon clamp
    _close(sk.smape(y, p), _tm_smape(y, p))
    _close(sk.wmape(y, p), _tm_wmape(y, p))
    # the float references square the values: at 1e±100 they run on y/scale (the
    # correlations are scale-free; scorekit's exact moments need no rescaling)
    ys, ps = y / scale, p / scale
    _close(sk.concordance_correlation(y, p), _tm_ccc(ys, ps))
    _close(sk.concordance_correlation(y, p, bias=True), _lin_ccc(ys, ps, None))
    _close(sk.pearson(y, p), stats.pearsonr(ps, ys).statistic, rtol=1e-12)
    w = rng.random(n)
    _close(sk.pearson(y, p, sample_weight=w), _weighted_pearson(ys, ps, w))
    _close(sk.concordance_correlation(y, p, sample_weight=w, bias=True), _lin_ccc(ys, ps, w))
    y2, p2 = np.c_[y, -y], np.c_[p, p]
    raw = sk.pearson(y2, p2, multioutput="raw_values")
    want = [stats.pearsonr(ps, ys).statistic, stats.pearsonr(ps, -ys).statistic]
    _close(raw, want, rtol=1e-12)


def test_pearson_is_correctly_rounded():
    # r = S_xy / sqrt(S_xx S_yy) from exact rationals: compare with a 200-digit root
    from decimal import Decimal, getcontext
    from fractions import Fraction

    getcontext().prec = 200
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = 50
        y, p = rng.normal(size=n), rng.normal(size=n)
        fy, fp = [Fraction(v) for v in y.tolist()], [Fraction(v) for v in p.tolist()]
        my, mp = sum(fy) / n, sum(fp) / n
        sxy = sum((a - mp) * (b - my) for a, b in zip(fp, fy, strict=True))
        sxx = sum((a - mp) ** 2 for a in fp)
        syy = sum((b - my) ** 2 for b in fy)
        ratio = sxy * sxy / (sxx * syy)
        root = (Decimal(ratio.numerator) / Decimal(ratio.denominator)).sqrt()
        want = float(Fraction(root)) * (1 if sxy > 0 else -1)
        assert sk.pearson(y, p) == want


def test_constant_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(sk.pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))
        assert np.isnan(sk.concordance_correlation([2.0, 2.0], [2.0, 2.0]))
        assert np.isnan(sk.d2_tweedie([1.0], [1.0]))
    assert sk.concordance_correlation([1.0, 1.0], [2.0, 2.0]) == 0.0
    assert sk.d2_pinball([1.0, 1.0], [1.0, 1.0]) == metrics.d2_pinball_score([1.0, 1.0], [1.0, 1.0])
