"""The weighted curve's packed-key sort (``_curve_weighted``) against an argsort reference.

Truncated score buckets (forced with ``score_bits``) must be re-sorted by score within
each bucket; ties inside a bucket are one entry whose weights are summed exactly.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from scorekit.classification._curve_weighted import weighted_entries


def _reference(y, s, w):
    """Distinct scores decreasing, each class's weight summed exactly (Fractions), rounded once."""
    scores = np.unique(s + 0.0)[::-1]
    pos = [float(sum((Fraction(x) for x in w[(s == v) & y]), Fraction(0))) for v in scores]
    neg = [float(sum((Fraction(x) for x in w[(s == v) & ~y]), Fraction(0))) for v in scores]
    return scores, np.array(pos), np.array(neg)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("score_bits", [None, 1, 3, 8, 20])
def test_matches_exact_reference(seed, score_bits):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    y = rng.random(n) < 0.4
    kind = seed % 4
    if kind == 0:
        s = rng.random(n)
    elif kind == 1:
        s = np.round(rng.normal(size=n), 1)  # ties, both signs, -0.0
    elif kind == 2:
        s = np.concatenate([rng.random(n - n // 2), -rng.random(n // 2) * 1e300])
    else:
        s = 1.0 + rng.integers(0, 6, n) * 2.0**-52  # neighbours in one bucket
    s[rng.random(n) < 0.1] = -0.0
    w = rng.random(n) * 10.0 ** rng.integers(-5, 5, n) + 1e-3
    pos, neg, part, scores = weighted_entries(y, s, w, score_bits=score_bits)
    want_s, want_p, want_n = _reference(y, s, w)
    np.testing.assert_array_equal(scores, want_s)
    np.testing.assert_array_equal(pos, want_p)
    np.testing.assert_array_equal(neg, want_n)
    if part is not None:  # the exact part covers exactly the tied entries
        p_exact, n_exact = part.rounded()
        np.testing.assert_array_equal(p_exact, want_p[part.index])
        np.testing.assert_array_equal(n_exact, want_n[part.index])
    no_scores = weighted_entries(y, s, w, with_scores=False, score_bits=score_bits)
    assert no_scores[3] is None
    np.testing.assert_array_equal(no_scores[0], pos)
    np.testing.assert_array_equal(no_scores[1], neg)


def _rows(seed, n):
    """Rows of one of the kinds above (chosen by the seed), with the same weights."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    kind = seed % 5
    if kind == 0:
        s = rng.random(n)
    elif kind == 1:
        s = np.round(rng.normal(size=n), 1)
    elif kind == 2:
        s = np.concatenate([rng.random(n - n // 2), -rng.random(n // 2) * 1e300])
    elif kind == 3:
        s = 1.0 + rng.integers(0, 6, n) * 2.0**-52
    else:  # most rows on one score: the pivot's side is lopsided
        s = np.where(rng.random(n) < 0.8, 0.3, rng.random(n))
    s[rng.random(n) < 0.1] = -0.0
    w = rng.random(n) * 10.0 ** rng.integers(-5, 5, n) + 1e-3
    return y, s, w


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("score_bits", [None, 1, 3, 8])
def test_two_groups_match_reference(monkeypatch, seed, score_bits):
    """Rows split at a pivot score and sorted in two groups (threads) give the same entries."""
    from scorekit.classification import _curve_weighted

    y, s, w = _rows(seed, 400)
    monkeypatch.setattr(_curve_weighted, "PARALLEL_ROWS", 2)
    assert len(_curve_weighted._groups(s, _curve_weighted._plan(s, 9, 54))) == 2
    pos, neg, part, scores = weighted_entries(y, s, w, score_bits=score_bits)
    want_s, want_p, want_n = _reference(y, s, w)
    np.testing.assert_array_equal(scores, want_s)
    np.testing.assert_array_equal(pos, want_p)
    np.testing.assert_array_equal(neg, want_n)
    if part is not None:
        p_exact, n_exact = part.rounded()
        np.testing.assert_array_equal(p_exact, want_p[part.index])
        np.testing.assert_array_equal(n_exact, want_n[part.index])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("score_bits", [None, 2, 12])
def test_two_groups_equal_one_group(monkeypatch, seed, score_bits):
    """Several blocks per group: the two-group result is the one-group result, bit for bit."""
    from scorekit.classification import _curve_weighted

    y, s, w = _rows(seed, 150_000)
    one = weighted_entries(y, s, w, score_bits=score_bits)
    monkeypatch.setattr(_curve_weighted, "PARALLEL_ROWS", 2)
    two = weighted_entries(y, s, w, score_bits=score_bits)
    for a, b in zip([one[0], one[1], one[3]], [two[0], two[1], two[3]], strict=True):
        np.testing.assert_array_equal(a.view(np.uint64), b.view(np.uint64))
    assert (one[2] is None) == (two[2] is None)
    if one[2] is not None:
        np.testing.assert_array_equal(one[2].index, two[2].index)
        np.testing.assert_array_equal(one[2].sums.limbs, two[2].sums.limbs)
