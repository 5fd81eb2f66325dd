"""PCOC and normalized entropy: formulas, He et al.'s definition, scikit-learn's log loss."""

from __future__ import annotations

import math

import numpy as np
import pytest

import scorekit
from scorekit import (
    LengthMismatchError,
    NonFiniteError,
    OmittedRowsWarning,
    ProbabilityRangeError,
    UndefinedMetricWarning,
)
from scorekit.recsys import GroupCalibrationTable, normalized_entropy, pcoc, pcoc_by_group
from scorekit.recsys._calibration import (
    _calibration_from_chunk,
    _merge_calibration,
    _ne_from_state,
    _pcoc_from_state,
)

sk_metrics = pytest.importorskip("sklearn.metrics")
pd = pytest.importorskip("pandas")


def entropy(rate):
    return -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate))


def make(seed, n=5000):
    rng = np.random.default_rng(seed)
    p = rng.beta(1, 8, n)
    y = rng.random(n) < p * 1.2
    w = rng.uniform(0.2, 4.0, n)
    g = rng.choice(np.array(["de", "fr", "us", "jp", "br"]), n)
    return y, p, w, g


# --------------------------------------------------------------------------- pcoc


def test_pcoc_hand_example():
    # 1 click observed; predicted 0.5 + 0.5 + 0.25 + 0.25 = 1.5 -> PCOC 1.5
    assert pcoc([1, 0, 0, 0], [0.5, 0.5, 0.25, 0.25]) == 1.5
    # weights 2, 1, 1, 4: observed 2*1 = 2, predicted 2*0.5 + 0.5 + 0.25 + 4*0.25 = 2.75
    assert pcoc([1, 0, 0, 0], [0.5, 0.5, 0.25, 0.25], sample_weight=[2, 1, 1, 4]) == 1.375


def test_pcoc_formula_random():
    y, p, w, _ = make(1)
    assert pcoc(y, p) == pytest.approx(p.sum() / y.sum(), rel=1e-12)
    assert pcoc(y, p, sample_weight=w) == pytest.approx((w * p).sum() / (w * y).sum(), rel=1e-12)
    # labels in {-1, 1} and bools mean the same
    assert pcoc(np.where(y, 1, -1), p) == pcoc(y, p)


def test_pcoc_no_clicks_warns_nan():
    with pytest.warns(UndefinedMetricWarning, match="no positive"):
        assert math.isnan(pcoc([0, 0], [0.1, 0.2]))


# --------------------------------------------------------------------------- NE


def test_normalized_entropy_he_et_al_example():
    # He et al. 2014, "Practical lessons from predicting clicks on ads at Facebook", §2:
    # NE = log loss / entropy of the background CTR p.
    # y = [1, 0, 0, 0], p_i = [0.4, 0.2, 0.2, 0.2]; background CTR = 1/4.
    # log loss = -(ln 0.4 + 3 ln 0.8) / 4 = (0.916291 + 3 * 0.223144) / 4 = 0.396430
    # entropy  = -(0.25 ln 0.25 + 0.75 ln 0.75) = 0.346574 + 0.215762 = 0.562335
    # NE = 0.396430 / 0.562335 = 0.704972
    log_loss = -(math.log(0.4) + 3 * math.log(0.8)) / 4
    expected = log_loss / entropy(0.25)
    assert expected == pytest.approx(0.704972, abs=1e-6)
    assert normalized_entropy([1, 0, 0, 0], [0.4, 0.2, 0.2, 0.2]) == pytest.approx(
        expected, abs=1e-15
    )
    # predicting the background rate everywhere gives exactly NE = 1
    assert normalized_entropy([1, 0, 0, 0], [0.25] * 4) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("weighted", [False, True])
def test_normalized_entropy_vs_sklearn_log_loss(weighted):
    y, p, w, _ = make(2)
    p = p.copy()
    p[:5] = [0.0, 1.0, 0.0, 1.0, 1e-20]  # clipped as scikit-learn clips
    y[:5] = [True, False, False, True, True]
    sw = w if weighted else None
    rate = np.average(y, weights=sw)
    expected = sk_metrics.log_loss(y, p, sample_weight=sw) / entropy(rate)
    assert normalized_entropy(y, p, sample_weight=sw) == pytest.approx(expected, rel=1e-12)


def test_normalized_entropy_one_class_warns_nan():
    with pytest.warns(UndefinedMetricWarning, match="one class"):
        assert math.isnan(normalized_entropy([1, 1, 1], [0.2, 0.5, 0.9]))


def test_nan_policy_omit():
    y, p, _, _ = make(3, n=200)
    p = p.copy()
    p[[4, 9]] = np.nan
    keep = ~np.isnan(p)
    with pytest.warns(OmittedRowsWarning):
        got = normalized_entropy(y, p, nan_policy="omit")
    assert got == normalized_entropy(y[keep], p[keep])


# --------------------------------------------------------------------------- by group


@pytest.mark.parametrize("weighted", [False, True])
def test_pcoc_by_group_vs_pandas(weighted):
    y, p, w, g = make(4)
    sw = w if weighted else np.ones_like(p)
    table = pcoc_by_group(y, p, g, sample_weight=w if weighted else None)
    assert isinstance(table, GroupCalibrationTable)
    df = pd.DataFrame({"y": y, "p": p, "g": g, "w": sw})
    df["wy"], df["wp"] = df.w * df.y, df.w * df.p
    ref = df.groupby("g").agg(n=("w", "sum"), observed=("wy", "sum"), predicted=("wp", "sum"))
    assert table.group.tolist() == ref.index.tolist()
    np.testing.assert_allclose(table.n, ref.n, rtol=1e-12)
    np.testing.assert_allclose(table.observed, ref.observed, rtol=1e-12)
    np.testing.assert_allclose(table.pcoc, ref.predicted / ref.observed, rtol=1e-12)
    for key, ne in zip(table.group, table.normalized_entropy, strict=True):
        m = g == key
        sub_w = w[m] if weighted else None
        assert ne == pytest.approx(normalized_entropy(y[m], p[m], sample_weight=sub_w), rel=1e-12)
    assert list(table.to_pandas().columns) == [
        "group",
        "n",
        "observed",
        "predicted",
        "pcoc",
        "normalized_entropy",
    ]
    assert table.to_dict()["group"] == ref.index.tolist()
    assert len(table) == 5


def test_pcoc_by_group_undefined_groups_are_nan_without_warning():
    table = pcoc_by_group([0, 0, 1, 0], [0.1, 0.2, 0.6, 0.4], [7, 7, 8, 8])
    assert table.group.tolist() == [7, 8]
    assert math.isnan(table.pcoc[0])
    assert math.isnan(table.normalized_entropy[0])
    assert table.pcoc[1] == 1.0


# --------------------------------------------------------------------------- kernels


def test_chunks_merge_to_one_shot():
    y, p, w, g = make(5, n=3000)
    labels, codes = np.unique(g, return_inverse=True)
    parts = np.array_split(np.arange(y.size), 4)
    whole = _calibration_from_chunk(y, p, None, codes, labels)
    merged = None
    for i in parts:
        lab_i, code_i = np.unique(g[i], return_inverse=True)
        st = _calibration_from_chunk(y[i], p[i], None, code_i, lab_i)
        merged = st if merged is None else _merge_calibration(st, merged)
    assert merged is not None
    assert merged.groups.tolist() == whole.groups.tolist()
    np.testing.assert_array_equal(merged.observed, whole.observed)  # integers: exact
    np.testing.assert_array_equal(merged.weight, whole.weight)
    np.testing.assert_allclose(merged.predicted, whole.predicted, rtol=1e-13)
    np.testing.assert_allclose(_ne_from_state(merged), _ne_from_state(whole), rtol=1e-12)
    ungrouped = [_calibration_from_chunk(y[i], p[i], w[i]) for i in parts]
    total = ungrouped[0]
    for st in ungrouped[1:]:
        total = _merge_calibration(total, st)
    assert _pcoc_from_state(total)[0] == pytest.approx(pcoc(y, p, sample_weight=w), rel=1e-13)


def test_top_level_exports():
    assert scorekit.pcoc is pcoc
    assert scorekit.normalized_entropy is normalized_entropy


# --------------------------------------------------------------------------- errors


def test_error_probability_above_one_normalized_entropy():
    with pytest.raises(ProbabilityRangeError, match=r"y_prob must hold probabilities"):
        normalized_entropy([1, 0], [1.5, 0.2])


def test_error_probability_below_zero_pcoc():
    with pytest.raises(ProbabilityRangeError, match="y_prob"):
        pcoc([1, 0], [0.5, -0.1])


def test_error_lengths_differ():
    with pytest.raises(LengthMismatchError, match="y_true has 3 entries but y_prob has 2"):
        pcoc([1, 0, 1], [0.5, 0.1])


def test_error_nan_probabilities():
    with pytest.raises(NonFiniteError, match="y_prob contains 1 NaN"):
        normalized_entropy([1, 0], [np.nan, 0.1])


def test_error_groups_wrong_length():
    with pytest.raises(LengthMismatchError, match="groups has 1"):
        pcoc_by_group([1, 0], [0.5, 0.1], ["a"])


@pytest.mark.parametrize("c", [0.1, 1.0, 3.0, 25.0])
def test_recalibrated_ne_is_ne_of_recalibrated_probabilities(c):
    # TorchRec's recalibration: p / (p + (1 - p) / c), then the plain normalized entropy
    rng = np.random.default_rng(int(c * 10))
    y = rng.integers(0, 2, 500)
    p = np.clip(rng.beta(2, 5, 500), 1e-6, 1 - 1e-6)
    w = rng.random(500)
    recalibrated = p / (p + (1 - p) / c)
    assert normalized_entropy(y, p, sample_weight=w, recalibration=c) == normalized_entropy(
        y, recalibrated, sample_weight=w
    )
    if c == 1.0:
        assert normalized_entropy(y, p, recalibration=c) == pytest.approx(
            normalized_entropy(y, p), rel=1e-15
        )
    with pytest.raises(scorekit.ParameterError, match="recalibration"):
        normalized_entropy(y, p, recalibration=0.0)
