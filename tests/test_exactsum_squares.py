"""ExactSums.add_squares (Ozaki slices, exact dot products) against Fraction and Dekker.

``add_squares`` must give, bit for bit, the sum of :func:`two_product`'s two parts per
row (the definition the regression states had before it), which is the exact sum of
the exact squares whenever no Dekker part underflows; and the regression moments,
one-shot, threaded or chunked, must equal a plain ``Fraction`` reference.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekit._exactsum import ExactSums, as_fraction, split, two_product
from scorekit.regression import _moments as moments_module
from scorekit.regression._moments import FIELDS, _merge_moments, _moments_from_chunk

SEEDS = st.integers(0, 2**32 - 1)


def _dekker(x: np.ndarray) -> tuple[int | float, int | float]:
    """Σx and Σ(p + err) of two_product(x, x), row by row: the former definition."""
    acc = ExactSums(2)
    with np.errstate(all="ignore"):
        acc.add(0, x)
        for part in two_product(x, x, split(x)):
            acc.add(1, part)
        total, square = acc.result()
    return total, square


def _sliced(x: np.ndarray) -> tuple[int | float, int | float]:
    acc = ExactSums(2)
    with np.errstate(all="ignore"):
        acc.add_squares(0, 1, x)
        total, square = acc.result()
    return total, square


def _data(rng: np.random.Generator, n: int, spread: int, scale: int) -> np.ndarray:
    x = np.ldexp(rng.normal(size=n), rng.integers(-spread, spread + 1, n) + scale)
    x[rng.random(n) < 0.05] = 0.0
    return x


@settings(max_examples=60, deadline=None)
@given(
    seed=SEEDS,
    spread=st.integers(0, 150),
    scale=st.sampled_from([0, -300, 300, -420, 470, -520]),
    n=st.integers(1, 40_000),
)
def test_slices_equal_dekker_and_fraction(seed, spread, scale, n):
    # Wide spreads send rows below the fourth slice to the slow path; the scales
    # put whole blocks outside the sliced range (or near its edges).
    rng = np.random.default_rng(seed)
    x = _data(rng, n, spread, scale)
    got = _sliced(x)
    assert str(got) == str(_dekker(x))  # nan == nan as text
    if abs(scale) + spread <= 400:  # no Dekker part underflows: the squares are exact
        xs = list(map(Fraction, x.tolist()))
        assert as_fraction(got[0]) == sum(xs, Fraction(0))
        assert as_fraction(got[1]) == sum((v * v for v in xs), Fraction(0))


def test_slices_corner_cases():
    cases = [
        np.zeros(5),
        np.array([1e10, 1e-20, -1e10, 3e-30]),  # cancellation; tiny rows go the slow way
        np.array([1e160, -1e160, 1.0]),  # squares beyond the sliced range: Dekker
        np.array([1e-170, 3e-200]),  # parts underflow: still equal to the Dekker sum
        np.full(70_000, 0.1),  # several blocks and dot segments
        np.array([2.0**470, -(2.0**469)]),  # at the top edge of the sliced range
        np.array([np.inf, 1.0]),
        np.array([np.nan, 1.0]),
    ]
    for x in cases:
        got, ref = _sliced(x), _dekker(x)
        assert str(got) == str(ref)  # nan == nan as text


def _fraction_moments(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> dict[str, Fraction]:
    yf = list(map(Fraction, y.tolist()))
    ef = list(map(Fraction, (y - p).tolist()))
    wf = [Fraction(1)] * len(yf) if w is None else list(map(Fraction, w.tolist()))
    return {
        "weight": sum(wf, Fraction(0)),
        "sum_true": sum((a * b for a, b in zip(wf, yf, strict=True)), Fraction(0)),
        "sumsq_true": sum((a * b * b for a, b in zip(wf, yf, strict=True)), Fraction(0)),
        "sum_err": sum((a * b for a, b in zip(wf, ef, strict=True)), Fraction(0)),
        "sse": sum((a * b * b for a, b in zip(wf, ef, strict=True)), Fraction(0)),
        "sae": sum((a * abs(b) for a, b in zip(wf, ef, strict=True)), Fraction(0)),
    }


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_moments_fraction_reference_threads_and_chunks(monkeypatch, weighted, seed):
    rng = np.random.default_rng(seed)
    n = 20_000
    y = _data(rng, n, 40, 0) + 1e6 * (seed == 2)  # an offset: cancellation in the moments
    p = y + _data(rng, n, 30, -10)
    same = rng.random(n) < 0.1
    p[same] = y[same]  # zero residuals
    w = np.ldexp(rng.random(n), rng.integers(-30, 30, n)) if weighted else None
    y2, p2 = y[:, None], p[:, None]
    monkeypatch.setattr(moments_module, "_N_THREADS", 1)
    one = _moments_from_chunk(y2, p2, w, FIELDS)
    monkeypatch.setattr(moments_module, "_N_THREADS", 3)
    monkeypatch.setattr(moments_module, "_THREAD_ROWS", 1000)
    threaded = _moments_from_chunk(y2, p2, w, FIELDS)
    cut = 7_777
    chunked = _merge_moments(
        _moments_from_chunk(y2[:cut], p2[:cut], None if w is None else w[:cut], FIELDS),
        _moments_from_chunk(y2[cut:], p2[cut:], None if w is None else w[cut:], FIELDS),
    )
    ref = _fraction_moments(y, p, w)
    for state in (one, threaded, chunked):
        assert as_fraction(state.weight) == ref["weight"]
        for name in ("sum_true", "sumsq_true", "sum_err", "sse", "sae"):
            assert as_fraction(getattr(state, name)[0]) == ref[name], name
        assert state.n == n
        assert state.max_abs_err.tolist() == one.max_abs_err.tolist()


def test_thread_errors_reach_the_caller(monkeypatch):
    monkeypatch.setattr(moments_module, "_N_THREADS", 2)
    monkeypatch.setattr(moments_module, "_THREAD_ROWS", 10)

    def boom(*args, **kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr(moments_module, "_block_sums", boom)
    with pytest.raises(MemoryError, match="no room"):
        _moments_from_chunk(np.ones((40, 1)), np.ones((40, 1)))
