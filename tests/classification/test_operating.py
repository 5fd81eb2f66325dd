"""Operating points against torchmetrics (exact thresholds) and det_curve against scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk

torch = pytest.importorskip("torch")
tmf = pytest.importorskip("torchmetrics.functional.classification")


def _cases():
    for seed in range(12):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(5, 80))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        digits = int(rng.integers(1, 4))  # coarse scores: many ties
        s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), digits)
        yield y, s, float(np.round(rng.random(), 2))


LIMIT = {
    sk.precision_at_recall: "min_recall",
    sk.recall_at_precision: "min_precision",
    sk.sensitivity_at_specificity: "min_specificity",
    sk.specificity_at_sensitivity: "min_sensitivity",
    sk.tpr_at_fpr: "max_fpr",
}


def _tm(fn, y, s, limit):
    value, threshold = fn(torch.tensor(s, dtype=torch.float64), torch.tensor(y), limit)
    return float(value), float(threshold)


@pytest.mark.parametrize(("ours", "theirs"), [
    (sk.precision_at_recall, tmf.binary_precision_at_fixed_recall),
    (sk.recall_at_precision, tmf.binary_recall_at_fixed_precision),
])  # fmt: skip
def test_precision_recall_points_equal_torchmetrics(ours, theirs):
    for y, s, limit in _cases():
        value, threshold = ours(y, s, **{LIMIT[ours]: limit})
        tv, tt = _tm(theirs, y, s, limit)
        assert value == pytest.approx(tv, rel=1e-6)  # torchmetrics counts in float32
        assert threshold == pytest.approx(tt, rel=1e-6, nan_ok=True)


@pytest.mark.parametrize(("ours", "theirs"), [
    (sk.sensitivity_at_specificity, tmf.binary_sensitivity_at_specificity),
    (sk.specificity_at_sensitivity, tmf.binary_specificity_at_sensitivity),
])  # fmt: skip
def test_roc_points_equal_torchmetrics(ours, theirs):
    for y, s, limit in _cases():
        value, threshold = ours(y, s, **{LIMIT[ours]: limit})
        tv, tt = _tm(theirs, y, s, limit)
        assert value == pytest.approx(tv, rel=1e-6)  # torchmetrics counts in float32
        # torchmetrics' all-negative point has threshold 1.0, scorekit's inf
        assert threshold == (pytest.approx(tt, rel=1e-6) if np.isfinite(threshold) else np.inf)
        if not np.isfinite(threshold):
            assert tt == 1.0


def test_tpr_at_fpr_reads_the_roc_curve():
    for y, s, limit in _cases():
        fpr, tpr, _ = sk.roc_curve(y, s)
        ok = fpr <= limit
        assert sk.tpr_at_fpr(y, s, max_fpr=limit).value == tpr[ok].max()


def test_equal_error_rate_equals_torchmetrics():
    for y, s, _ in _cases():
        expected = float(tmf.binary_eer(torch.tensor(s, dtype=torch.float64), torch.tensor(y)))
        assert sk.equal_error_rate(y, s) == pytest.approx(expected, rel=1e-6)


def test_det_curve_equals_sklearn_with_weights():
    from sklearn.metrics import det_curve

    for y, s, _ in _cases():
        w = np.random.default_rng(len(y)).random(len(y)) * 5
        for weights in (None, w):
            ours = sk.det_curve(y, s, sample_weight=weights)
            theirs = det_curve(y, s, sample_weight=weights)
            for a, b in zip(ours, theirs, strict=True):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_streamed_equals_one_shot_and_bad_input():
    y, s, _ = next(_cases())
    acc = (
        sk.stream.BinaryCurve()
        .update(y[:3], s[:3])
        .merge(sk.stream.BinaryCurve().update(y[3:], s[3:]))
    )
    assert acc.precision_at_recall(min_recall=0.5) == sk.precision_at_recall(y, s, min_recall=0.5)
    assert acc.equal_error_rate() == sk.equal_error_rate(y, s)
    for fn in (sk.precision_at_recall, sk.tpr_at_fpr):
        with pytest.raises(sk.ParameterError, match="in \\[0, 1\\]"):
            fn(y, s, **{LIMIT[fn]: 1.5})
    with pytest.raises(sk.ParameterError, match="one class"):
        sk.det_curve([1, 1], [0.2, 0.3])
