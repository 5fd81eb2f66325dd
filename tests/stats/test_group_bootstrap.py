"""The group (cluster) bootstrap against a brute-force pandas resampling of whole groups."""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk
from scorekit.stats import group_bootstrap_ci, group_bootstrap_values

pd = pytest.importorskip("pandas")


def _clicks(seed, n_users=40):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, n_users, 600)
    y = (rng.random(600) < 0.3).astype(int)
    s = np.round(rng.random(600) + 0.3 * y, 2)
    return pd.DataFrame({"user": g, "y": y, "s": s})


@pytest.mark.parametrize("weights", ["impressions", "clicks", None])
@pytest.mark.parametrize("seed", range(3))
def test_gauc_resamples_equal_rebuilding_the_frame_from_drawn_users(seed, weights):
    df = _clicks(seed)
    _, table = sk.gauc(df.y, df.s, df.user, weights=weights, return_groups=True)
    fast = group_bootstrap_values(table.auc, table.weight, n_resamples=25, seed=seed)
    # brute force: the same draws of users, the frame rebuilt from them (a user drawn
    # twice is two users), GAUC recomputed from the rows
    rng = np.random.default_rng(seed)
    users = np.asarray(table.group)
    idx = rng.integers(0, users.size, size=(25, users.size))
    for b in range(25):
        parts = [df[df.user == users[i]].assign(user=k) for k, i in enumerate(idx[b])]
        frame = pd.concat(parts)
        expected = sk.gauc(frame.y, frame.s, frame.user, weights=weights)
        assert fast[b] == pytest.approx(expected, rel=1e-12)


def test_interval_methods_and_degenerate_cases():
    values = np.array([0.6, 0.8, np.nan, 0.7, 0.9])
    low, high = group_bootstrap_ci(values, [1, 2, 3, 4, 5], n_resamples=500, seed=1)
    assert 0.6 <= low <= high <= 0.9
    b_low, b_high = group_bootstrap_ci(
        values, [1, 2, 3, 4, 5], n_resamples=500, seed=1, method="basic"
    )
    theta = np.nansum(values * [1, 2, 0, 4, 5]) / 12
    assert b_low == pytest.approx(2 * theta - high)
    assert b_high == pytest.approx(2 * theta - low)
    bca = group_bootstrap_ci(values, None, n_resamples=500, seed=1, method="bca")
    assert bca[0] <= bca[1]
    assert group_bootstrap_ci([0.5, 0.5], seed=0) == (0.5, 0.5)
    with pytest.raises(sk.ParameterError, match="method"):
        group_bootstrap_ci(values, method="normal")
    with pytest.raises(sk.ParameterError, match="weights has"):
        group_bootstrap_ci(values, [1, 2])


def test_gauc_section_resamples_users_by_default():
    from scorekit.report import gauc_section

    df = _clicks(5)
    section = gauc_section(df.y, df.s, df.user, bootstrap=200, seed=3, details=False)
    gauc = next(m for m in section.metrics if m.name == "gauc")
    assert (gauc.unit, gauc.resamples) == ("groups", 200)
    _, table = sk.gauc(df.y, df.s, df.user, return_groups=True)
    assert (gauc.ci_low, gauc.ci_high) == group_bootstrap_ci(
        table.auc, table.weight, n_resamples=200, seed=3
    )
    assert any("skipped" in n for n in section.notes)
    rows = gauc_section(df.y, df.s, df.user, bootstrap=50, seed=3, details=False, resample="rows")
    assert next(m for m in rows.metrics if m.name == "gauc").unit == "rows"
