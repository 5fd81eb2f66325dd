"""RegressionLosses: chunked and merged in any order equals the one-shot functions bit for bit."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stream_support import feed, outcome, same

import scorekit as sk
from scorekit import DomainError, ParameterError, StateError
from scorekit.stream import RegressionLosses

SEEDS = st.integers(0, 2**32 - 1)


def _cases(y, p, w, power, alpha):
    kw = {"sample_weight": w}
    out = [
        ("msle", lambda: sk.msle(y, p, **kw), lambda a: a.msle()),
        ("rmsle", lambda: sk.rmsle(y, p, **kw), lambda a: a.rmsle()),
        ("pinball", lambda: sk.mean_pinball_loss(y, p, alpha=alpha, **kw),
         lambda a: a.mean_pinball_loss()),
        ("smape", lambda: sk.smape(y, p, **kw), lambda a: a.smape()),
        ("wmape", lambda: sk.wmape(y, p, **kw), lambda a: a.wmape()),
        ("pearson", lambda: sk.pearson(y, p, **kw), lambda a: a.pearson()),
        ("ccc", lambda: sk.concordance_correlation(y, p, **kw),
         lambda a: a.concordance_correlation()),
        ("ccc_bias", lambda: sk.concordance_correlation(y, p, bias=True, **kw),
         lambda a: a.concordance_correlation(bias=True)),
    ]  # fmt: skip
    if y.ndim == 2:
        out += [
            ("msle_raw", lambda: sk.msle(y, p, multioutput="raw_values", **kw),
             lambda a: a.msle(multioutput="raw_values")),
            ("pearson_raw", lambda: sk.pearson(y, p, multioutput="raw_values", **kw),
             lambda a: a.pearson(multioutput="raw_values")),
        ]  # fmt: skip
    else:
        out += [
            ("poisson", lambda: sk.mean_poisson_deviance(y, p, **kw),
             lambda a: a.mean_poisson_deviance()),
            ("gamma", lambda: sk.mean_gamma_deviance(y, p, **kw), lambda a: a.mean_gamma_deviance()),
            ("tweedie", lambda: sk.mean_tweedie_deviance(y, p, power=power, **kw),
             lambda a: a.mean_tweedie_deviance()),
        ]  # fmt: skip
    return out


def _weights(rng, n, kind):
    if kind == "none":
        return None
    if kind == "int":
        return rng.integers(0, 5, n)
    w = rng.random(n)
    return {"float": w, "tiny": w * 1e-150, "huge": w * 1e150}[kind]


@given(
    seed=SEEDS,
    wkind=st.sampled_from(["none", "float", "int", "tiny", "huge"]),
    two_d=st.booleans(),
    power=st.sampled_from([-1.0, 0.0, 1.5, 3.0]),
    alpha=st.sampled_from([0.1, 0.5, 0.95]),
)
def test_chunked_equals_one_shot_bit_for_bit(seed, wkind, two_d, power, alpha):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 120))
    shape = (n, 2) if two_d else (n,)
    y = rng.gamma(2.0, size=shape) * 10.0 ** rng.integers(-3, 4)
    p = y * rng.uniform(0.5, 1.5, size=shape)
    y.flat[: n // 5] = np.round(y.flat[: n // 5])  # ties and zeros
    w = _weights(rng, n, wkind)
    acc = feed(lambda: RegressionLosses(power=power, alpha=alpha), (y, p), rng, sample_weight=w)
    for name, one_shot, method in _cases(y, p, w, power, alpha):
        expected, warned = outcome(one_shot)
        got, got_warned = outcome(lambda m=method: m(acc))
        assert same(got, expected), name
        assert got_warned == warned, name
    d = json.loads(json.dumps(acc.to_dict(), allow_nan=False))
    back = RegressionLosses.from_dict(d)
    for name, _, method in _cases(y, p, w, power, alpha):
        assert same(outcome(lambda m=method: m(back)), outcome(lambda m=method: m(acc))), name


def test_a_chunk_outside_a_domain_disables_that_metric_only():
    acc = RegressionLosses().update([1.0, 2.0], [1.0, 2.5]).update([-2.0], [1.0])
    with pytest.raises(DomainError, match="y_true"):
        acc.msle()
    with pytest.raises(DomainError, match="y_true"):
        acc.mean_poisson_deviance()
    y, p = [1.0, 2.0, -2.0], [1.0, 2.5, 1.0]
    assert acc.smape() == sk.smape(y, p)
    assert acc.mean_tweedie_deviance() == sk.mean_tweedie_deviance(y, p)  # power 0: any y
    back = RegressionLosses.from_dict(json.loads(json.dumps(acc.to_dict())))
    with pytest.raises(DomainError, match="y_true"):
        back.msle()


def test_worked_example():
    # pinball at 0.9: under-prediction by 2 costs 1.8, over-prediction by 2 costs 0.2
    acc = RegressionLosses(alpha=0.9).update([3.0], [1.0]).update([1.0], [3.0])
    assert acc.mean_pinball_loss() == 1.0
    assert acc.wmape() == 1.0
    assert acc.pearson() == -1.0


@pytest.mark.parametrize(
    "bad",
    [
        {"losses": {"n": 1}},
        {"losses": {"n": 1, "n_outputs": 1, "weight": "1", "sums": {}, "errors": {}}},
        {"losses": "x"},
    ],
)
def test_malformed_state_raises(bad):
    d = RegressionLosses().update([1.0], [1.0]).to_dict()
    d["state"] = bad
    with pytest.raises(StateError):
        RegressionLosses.from_dict(d)


def test_options_are_checked():
    with pytest.raises(ParameterError, match="power"):
        RegressionLosses(power=0.5)
    with pytest.raises(ParameterError, match="alpha"):
        RegressionLosses(alpha=2)
