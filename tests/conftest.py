"""Shared test configuration: Hypothesis profiles and paths."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = Path(__file__).resolve().parents[1]
# ``shared/`` beside the checkout, or beside a parent (a worktree one level deeper)
SHARED = next(
    (p / "shared" for p in ROOT.parents if (p / "shared").is_dir()), ROOT.parent / "shared"
)
CONFORMANCE = SHARED / "conformance" / "trec_eval"


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    if not CONFORMANCE.is_dir():
        pytest.skip(f"trec_eval conformance files not found at {CONFORMANCE}")
    return CONFORMANCE


def poisson_counts(n_resamples: int, seed: int, y: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The bootstrap engine's ``weights="poisson"`` multiplicities, drawn as its seed contract says.

    Written out here from the contract (``scorekit.stats._rowweights``), not
    from the engine's code: Poisson(1) by inverse distribution function on 16
    random bits (the CDF from SciPy, rounded to multiples of 2**-16), blocks of
    resamples, block j drawn by ``SFC64`` on the seed sequence of the j-th
    spawned generator, rows in (score, label) order (ties by index), chunk by chunk.
    Returns the (n_resamples, n) multiplicities of the rows in their own order.
    """
    from scipy.stats import poisson

    from scorekit.stats._rowweights import ROW_BLOCK, ROW_CHUNK

    edges = np.round(poisson.cdf(np.arange(30), 1.0) * 65536)
    n = scores.shape[0]
    order = np.lexsort((y, scores))
    blocks = -(-n_resamples // ROW_BLOCK)
    out = np.zeros((n_resamples, n), dtype=np.int64)
    for j, stream in enumerate(np.random.default_rng(seed).spawn(blocks)):
        bits = np.random.SFC64(stream.bit_generator.seed_seq)
        b = min(ROW_BLOCK, n_resamples - j * ROW_BLOCK)
        for start in range(0, n, ROW_CHUNK):
            r = min(ROW_CHUNK, n - start)
            raw = bits.random_raw((b * r + 3) // 4)
            words = np.frombuffer(raw.astype("<u8").tobytes(), dtype="<u2")[: b * r]
            w = np.searchsorted(edges, words.reshape(b, r), side="right")
            out[j * ROW_BLOCK : j * ROW_BLOCK + b, order[start : start + r]] = w
    return out
