"""Windowed and Decayed (online monitoring) and the Calibration accumulator against the one-shot functions."""

from __future__ import annotations

import itertools
import json
import pickle
import warnings

import numpy as np
import pytest

import scorekit as sk
from scorekit import ParameterError, ScorekitError, StateError
from scorekit.stream import (
    BinaryCurve,
    Calibration,
    ConfusionMatrix,
    Contingency,
    Decayed,
    GroupedCurve,
    RegressionLosses,
    RegressionMoments,
    Windowed,
)

# (metric, accumulator factory, one-shot function, uses groups)
METRICS = [
    ("roc_auc", BinaryCurve, sk.roc_auc, False),
    ("average_precision", BinaryCurve, sk.average_precision, False),
    ("log_loss", BinaryCurve, sk.log_loss, False),
    ("gauc", GroupedCurve, sk.gauc, True),
    ("pcoc", Calibration, sk.pcoc, False),
    ("normalized_entropy", Calibration, sk.normalized_entropy, False),
]


def _data(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    score = np.round(rng.random(n), int(rng.integers(1, 4)))  # ties on purpose
    groups = rng.integers(0, 5, n)
    return y, score, groups


def _chunks(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    cuts = np.sort(rng.integers(0, n + 1, size=int(rng.integers(0, 12))))
    edges = [0, *cuts.tolist(), n]
    return list(itertools.pairwise(edges))


def _quiet(f, *args, **kwargs):  # nan with a warning is a legitimate result on tiny windows
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def _same(a: float, b: float, exact: bool) -> None:
    if exact:
        assert a == b or (np.isnan(a) and np.isnan(b)), (a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("metric", "factory", "oneshot", "grouped"), METRICS)
@pytest.mark.parametrize("seed", range(8))
def test_windowed_equals_one_shot_on_last_rows(metric, factory, oneshot, grouped, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300))
    y, score, groups = _data(rng, n)
    weighted = seed % 2 == 1
    w = rng.random(n) * 10.0 ** rng.integers(-3, 4) if weighted else None
    window = int(rng.integers(1, n + 20))
    win = Windowed(factory(), window=window)
    seen = 0
    for a, b in _chunks(rng, n):
        args = (y[a:b], score[a:b], groups[a:b]) if grouped else (y[a:b], score[a:b])
        win.update(*args, sample_weight=None if w is None else w[a:b])
        seen = b
        lo = max(0, seen - window)
        assert win.n_rows == seen - lo
        if seen == lo or np.unique(y[lo:seen]).size < 2:
            continue
        full = (
            (y[lo:seen], score[lo:seen], groups[lo:seen])
            if grouped
            else (y[lo:seen], score[lo:seen])
        )
        kw = {} if w is None else {"sample_weight": w[lo:seen]}
        expected = _quiet(oneshot, *full, **kw)
        got = _quiet(getattr(win, metric))
        # unit weights: every sum is an integer, the values agree bit for bit; Calibration's
        # sums are exact with any weights
        _same(got, expected, exact=w is None or factory is Calibration)


def test_windowed_keeps_at_most_window_rows():
    rng = np.random.default_rng(1)
    win = Windowed(BinaryCurve(), window=1000)
    for _ in range(50):
        y, s, _ = _data(rng, 300)
        win.update(y, s)
        held = sum(block[0][0].shape[0] for block in win._blocks)
        assert held == win.n_rows <= 1000
        if rng.random() < 0.3:
            win.roc_auc()  # a read joins the blocks


def test_windowed_long_chunk_and_other_families():
    rng = np.random.default_rng(2)
    y, s, _ = _data(rng, 500)
    pred = (s > 0.5).astype(int)
    win = Windowed(ConfusionMatrix(), window=77).update(y, pred)
    assert win.accuracy() == sk.accuracy(y[-77:], pred[-77:])
    reg = Windowed(RegressionMoments(), window=10).update(s, s * 2).update(s[:3], s[:3] + 1)
    assert reg.mae() == sk.mae(np.r_[s[-7:], s[:3]], np.r_[s[-7:] * 2, s[:3] + 1])
    losses = Windowed(RegressionLosses(), window=9).update(s, s * 2).update(s[:3], s[:3] + 1)
    y9, p9 = np.r_[s[-6:], s[:3]], np.r_[s[-6:] * 2, s[:3] + 1]
    assert losses.msle() == sk.msle(y9, p9)
    decayed = Decayed(RegressionLosses(), decay=0.25).update(s[:5], s[:5] * 2).update(s[:3], s[:3])
    w = np.r_[np.full(5, 0.25), np.ones(3)]
    expected = sk.msle(np.r_[s[:5], s[:3]], np.r_[s[:5] * 2, s[:3]], sample_weight=w)
    np.testing.assert_allclose(decayed.msle(), expected, rtol=1e-14)
    con = Windowed(Contingency(), window=50).update(y, pred)
    assert con.rand_index() == sk.rand_index(y[-50:], pred[-50:])
    with pytest.raises(ParameterError, match="sample_weight"):
        con.update(y, pred, sample_weight=np.ones(500))


def test_windowed_mixed_chunks():
    win = Windowed(GroupedCurve(), window=6)
    win.update([0, 1], [0.2, 0.3], [1, 1])
    with pytest.raises(sk.LabelError, match="strings in one chunk"):
        win.update([0, 1], [0.2, 0.3], ["a", "a"])
    # a weighted chunk after an unweighted one: the unweighted rows weigh 1
    win.update([1, 0], [0.1, 0.9], [2, 2], sample_weight=[2.0, 0.5])
    expected = sk.gauc(
        [0, 1, 1, 0], [0.2, 0.3, 0.1, 0.9], [1, 1, 2, 2], sample_weight=[1, 1, 2, 0.5]
    )
    assert win.gauc() == expected
    assert win.group_table().group.tolist() == [1, 2]


def test_windowed_does_not_keep_a_bad_chunk_or_the_callers_arrays():
    win = Windowed(BinaryCurve(), window=5)
    y, s = np.array([0, 1, 1]), np.array([0.2, 0.3, 0.9])
    win.update(y, s)
    with pytest.raises(ScorekitError):
        win.update([0, 1], [0.5, np.nan])
    s[:] = 0.0  # the caller reuses its arrays
    assert win.roc_auc() == sk.roc_auc([0, 1, 1], [0.2, 0.3, 0.9]) == 1.0
    assert win.n_rows == 3


@pytest.mark.parametrize(("metric", "factory", "oneshot", "grouped"), METRICS)
@pytest.mark.parametrize("per", ["chunk", "row"])
@pytest.mark.parametrize("seed", range(4))
def test_decayed_equals_one_shot_with_decayed_weights(metric, factory, oneshot, grouped, per, seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(20, 400))
    y, score, groups = _data(rng, n)
    w = rng.random(n) * 10.0 ** rng.integers(-3, 4) if seed % 2 else np.ones(n)
    decay = float(rng.choice([1.0, 0.97, 0.5, 0.01]))
    acc = Decayed(factory(), decay=decay, per=per)
    chunk_of = np.zeros(n, dtype=int)
    chunks = [(a, b) for a, b in _chunks(rng, n) if b > a]
    for i, (a, b) in enumerate(chunks):
        args = (y[a:b], score[a:b], groups[a:b]) if grouped else (y[a:b], score[a:b])
        acc.update(*args, sample_weight=w[a:b] if seed % 2 else None)
        chunk_of[a:b] = i
    position = chunk_of if per == "chunk" else np.arange(n)
    age = position.max() - position
    weights = w * decay ** age.astype(float)
    # rows before the oldest inner accumulator's start (weight < 2**-64 of the newest) are dropped
    keep = position >= acc._epochs[0][0]
    if age.max() * -np.log2(decay) < 64:  # the factor never reached 2**64: every row is kept
        assert keep.all()
    full = (y, score, groups) if grouped else (y, score)
    expected = _quiet(oneshot, *(x[keep] for x in full), sample_weight=weights[keep])
    _same(_quiet(getattr(acc, metric)), expected, exact=False)


def test_decayed_long_stream_stays_finite_and_drops_only_negligible_rows():
    # 2000 chunks at decay 0.9: the weight factor would reach 0.9**-2000 ≈ 2**304 unscaled
    rng = np.random.default_rng(5)
    acc = Decayed(Calibration(), decay=0.9)
    ys, ps = [], []
    for _ in range(2000):
        y = rng.integers(0, 2, 5)
        p = rng.random(5)
        acc.update(y, p)
        ys.append(y)
        ps.append(p)
    age = np.repeat(np.arange(1999, -1, -1), 5).astype(float)
    weights = 0.9**age
    y, p = np.concatenate(ys), np.concatenate(ps)
    np.testing.assert_allclose(acc.pcoc(), sk.pcoc(y, p, sample_weight=weights), rtol=1e-13)
    assert len(acc._epochs) <= 2
    assert all(np.isfinite(v) for v in acc.counts().values())
    # per row with a strong decay: only the last 64-128 rows are kept, no loop over rows;
    # the factors are powers of two (integral weights above 2**63 in the AUC kernel)
    rows = Decayed(BinaryCurve(), half_life=1.0, per="row").update(y, p)
    r_age = np.arange(y.size - 1, -1, -1).astype(float)
    kept = np.arange(y.size) >= rows._epochs[0][0]  # from the oldest inner accumulator's start
    assert kept[-64:].all()  # factor above 2**-64: kept
    assert not kept[:-129].any()  # below 2**-128: dropped
    expected = sk.roc_auc(y[kept], p[kept], sample_weight=0.5 ** r_age[kept])
    np.testing.assert_allclose(rows.roc_auc(), expected, rtol=1e-13)


def test_half_life_is_the_decay():
    a = Decayed(BinaryCurve(), half_life=2.0)
    assert a.decay == 2.0**-0.5


@pytest.mark.parametrize("window", [0, -3, 2.5, True, "10", None])
def test_bad_window(window):
    with pytest.raises(ParameterError, match="window"):
        Windowed(BinaryCurve(), window=window)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"decay": 0.0},
        {"decay": -0.5},
        {"decay": 1.5},
        {"decay": float("nan")},
        {"decay": True},
        {"half_life": 0.0},
        {"half_life": -1.0},
        {},
        {"decay": 0.5, "half_life": 2.0},
        {"decay": 0.5, "per": "day"},
    ],
)
def test_bad_decay(kwargs):
    with pytest.raises(ScorekitError):
        Decayed(BinaryCurve(), **kwargs)


def test_bad_wrapped_accumulator():
    with pytest.raises(ParameterError, match="empty accumulator"):
        Windowed(BinaryCurve().update([0, 1], [0.1, 0.2]), window=3)
    with pytest.raises(ParameterError, match="empty accumulator"):
        Windowed(BinaryCurve, window=3)  # the class, not an instance
    with pytest.raises(ParameterError, match="empty accumulator"):
        Decayed(Contingency(), decay=0.5)  # no sample weights


def test_bad_decayed_weights():
    acc = Decayed(BinaryCurve(), decay=0.5)
    with pytest.raises(ScorekitError, match="sample_weight"):
        acc.update([0, 1], [0.1, 0.2], sample_weight=[1.0, 2.0, 3.0])
    with pytest.raises(ScorekitError):
        acc.update([0, 1], [0.1, 0.2], sample_weight=[1.0, -2.0])
    with pytest.raises(ScorekitError):
        acc.update([0, 1], [0.1, 0.2], sample_weight=["a", "b"])
    with pytest.raises(ScorekitError):  # per-row rows before the cut are still checked
        Decayed(BinaryCurve(), decay=1e-10, per="row").update([0, 1] * 200, [np.nan] + [0.5] * 399)


def test_wrappers_do_not_merge():
    for acc in (Windowed(BinaryCurve(), window=3), Decayed(BinaryCurve(), decay=0.5)):
        with pytest.raises(ParameterError, match="do not merge"):
            acc.merge(acc)


def _fed(cls, rng):
    y, s, g = _data(rng, 200)
    inner = GroupedCurve()
    acc = cls(inner, window=150) if cls is Windowed else cls(inner, decay=0.6)
    for a in range(0, 200, 37):
        acc.update(y[a : a + 37], s[a : a + 37], g[a : a + 37])
    return acc


@pytest.mark.parametrize("cls", [Windowed, Decayed])
@pytest.mark.parametrize("how", ["dict", "pickle"])
def test_to_dict_and_pickle_round_trip(cls, how):
    rng = np.random.default_rng(7)
    acc = _fed(cls, rng)
    if how == "dict":
        back = cls.from_dict(json.loads(json.dumps(acc.to_dict())))
    else:
        back = pickle.loads(pickle.dumps(acc))
    for _ in range(2):
        assert back.gauc() == acc.gauc()
        assert back.to_dict() == acc.to_dict()
        y, s, g = _data(rng, 40)  # the rebuilt one goes on like the original
        assert back.update(y, s, g).gauc() == acc.update(y, s, g).gauc()


def test_windowed_from_dict_checks_fields():
    d = _fed(Windowed, np.random.default_rng(8)).to_dict()
    bad = json.loads(json.dumps(d))
    bad["params"]["window"] = 10  # fewer than the rows held
    with pytest.raises(StateError, match="window"):
        Windowed.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["params"]["accumulator"]["type"] = "Nope"
    with pytest.raises(StateError, match=r"accumulator\.type"):
        Windowed.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["rows"] = bad["state"]["rows"][:2]  # groups missing
    with pytest.raises(StateError, match=r"state\.rows"):
        Windowed.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["rows"][1] = {"dtype": "<f8", "shape": [3], "base64": "AAAA"}  # bad base64
    with pytest.raises(StateError, match=r"rows\[1\]"):
        Windowed.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["sample_weight"] = bad["state"]["rows"][1]  # GroupedCurve: scores as weights
    back = Windowed.from_dict(bad)  # valid (weights in [0, 1]): equals the weighted one-shot
    assert back.n_rows == 150
    bad = json.loads(json.dumps(d))
    bad["state"]["extra"] = 1
    with pytest.raises(StateError, match="unknown extra"):
        Windowed.from_dict(bad)
    with pytest.raises(StateError):
        Windowed.from_dict({"type": "Decayed"})


def test_decayed_from_dict_checks_fields():
    d = _fed(Decayed, np.random.default_rng(9)).to_dict()
    for path, value, match in [
        (("params", "decay"), (2.0).hex(), "decay"),
        (("params", "per"), "day", "per"),
        (("state", "count"), -1, "count"),
        (("state", "epochs"), [], "epochs"),
    ]:
        bad = json.loads(json.dumps(d))
        bad[path[0]][path[1]] = value
        with pytest.raises(StateError, match=match):
            Decayed.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["epochs"][0]["state"]["params"]["nan_policy"] = "omit"
    with pytest.raises(StateError, match="options"):
        Decayed.from_dict(bad)


# ------------------------------------------------------------------ Calibration accumulator


@pytest.mark.parametrize("seed", range(6))
def test_calibration_streamed_equals_one_shot_bit_for_bit(seed):
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(2, 500))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    p = rng.random(n)
    p[rng.random(n) < 0.05] = rng.choice([0.0, 1.0])  # clipped log loss
    w = None
    if seed % 2:
        w = rng.random(n) * 10.0 ** rng.integers(-200, 200, n).astype(float)  # huge and tiny
    parts = [Calibration(recalibration=2.0 if seed == 4 else None) for _ in range(3)]
    for a, b in _chunks(rng, n):
        parts[int(rng.integers(3))].update(
            y[a:b], p[a:b], sample_weight=None if w is None else w[a:b]
        )
    acc = parts[0].merge(parts[1]).merge(parts[2])
    q = p / (p + (1 - p) / 2.0) if seed == 4 else p  # recalibrated probabilities
    assert _quiet(acc.pcoc) == _quiet(sk.pcoc, y, q, sample_weight=w)
    ne = _quiet(
        sk.normalized_entropy, y, p, sample_weight=w, recalibration=2.0 if seed == 4 else None
    )
    assert acc.normalized_entropy() == ne
    back = Calibration.from_dict(json.loads(json.dumps(acc.to_dict())))
    assert back.counts() == acc.counts()


def test_calibration_worked_example_and_errors():
    # 2 clicks in 4 impressions, predicted 0.9 + 0.6 + 0.3 + 0.2 = 2.0
    acc = Calibration().update([1, 1], [0.9, 0.6]).update([0, 0], [0.3, 0.2])
    assert acc.pcoc() == 1.0
    assert acc.counts() == {
        "n": 4.0,
        "observed": 2.0,
        "predicted": 2.0,
        "loss": acc.counts()["loss"],
    }
    # NE of constant 1/2 on a base rate of 1/2 is 1
    assert Calibration().update([1, 0, 1, 0], [0.5] * 4).normalized_entropy() == 1.0
    with pytest.raises(ScorekitError):
        Calibration().pcoc()
    with pytest.raises(ScorekitError):
        Calibration().update([0, 1], [0.5, 1.5])
    with pytest.raises(ScorekitError):
        Calibration(recalibration=0.0)
    d = Calibration().update([1, 0], [0.5, 0.5]).to_dict()
    d["state"]["sums"]["observed"] = str(10**400)
    with pytest.raises(StateError, match="observed"):
        Calibration.from_dict(d)


def test_decayed_dropped_rows_matter_when_a_class_is_made_only_of_them():
    # decay 2**-100 per chunk: after two more chunks the negatives weigh 2**-200 (dropped)
    acc = Decayed(BinaryCurve(), decay=2.0**-100)
    acc.update([0, 0], [0.1, 0.6]).update([1], [0.5]).update([1], [0.7])
    expected = sk.roc_auc(
        [0, 0, 1, 1], [0.1, 0.6, 0.5, 0.7], sample_weight=[2.0**-200] * 2 + [2.0**-100, 1]
    )
    assert expected == pytest.approx(
        1.0
    )  # the one-shot value with the decayed weights is defined ...
    with pytest.warns(sk.UndefinedMetricWarning):
        assert np.isnan(acc.roc_auc())  # ... the negatives were dropped from the decayed state


def test_omitted_rows_are_reported_once_per_chunk():
    win = Windowed(BinaryCurve(nan_policy="omit"), window=10)
    dec = Decayed(BinaryCurve(nan_policy="omit"), decay=2.0**-40)  # two inner accumulators soon
    for acc in (win, dec):
        for _ in range(3):
            with pytest.warns(sk.OmittedRowsWarning) as caught:
                acc.update([0, 1, 1], [0.2, np.nan, 0.9])
            assert len([w for w in caught if w.category is sk.OmittedRowsWarning]) == 1
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert acc.roc_auc() == 1.0  # read: no warning repeated
    assert len(dec._epochs) == 2


def test_calibration_pickles_and_merges_with_equal_options_only():
    acc = Calibration().update([1, 0, 1], [0.7, 0.2, 0.4], sample_weight=[0.1, 3.0, 1e-300])
    back = pickle.loads(pickle.dumps(acc))
    assert back.counts() == acc.counts()
    assert back.pcoc() == acc.pcoc()
    with pytest.raises(ParameterError, match="different options"):
        Calibration(recalibration=2.0).merge(acc)


def test_decayed_per_row_takes_a_chunk_whole_or_not_at_all():
    acc = Decayed(Calibration(), decay=0.5, per="row")  # pieces of 32 rows
    acc.update([1, 0] * 50, [0.5] * 100)
    before = acc.to_dict()
    with pytest.raises(ScorekitError):
        acc.update([1, 0] * 50, [0.5] * 99 + [1.5])  # the bad row is in the last piece
    assert acc.to_dict() == before
