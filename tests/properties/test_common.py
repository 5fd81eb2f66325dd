"""Properties stated once for every metric that qualifies (STYLE.md §5), as sklearn's test_common.

Each test is parametrised over the metric table of ``test_common_table.py`` and runs
a few seeded random cases (40 rows). Covered here: permutation invariance, the
meaning of ``sample_weight`` (integer k = k copies, ones = none, zero = dropped,
scaling, weights are used), symmetry (and asymmetry where it is not claimed),
string and bool labels equal to their integer coding, free renaming of cluster and
group ids, the best value for a perfect prediction, invariance of rank-based
metrics under a strictly increasing map of the scores, and ``nan_policy="omit"``
equal to dropping the rows. Inputs, bad input and the public surface are in
``test_common_inputs.py``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from test_common_table import (
    INT_CODES,
    METRICS,
    SEEDS,
    Metric,
    assert_same,
    differs,
    n_rows,
    numeric,
    over_cases,
    over_metrics,
    replace,
    take_rows,
    to_codes,
    to_words,
    words_kwargs,
)

from scorekit import OmittedRowsWarning, UndefinedMetricWarning

# ---------------------------------------------------------------------- permutation


@over_metrics(lambda m: bool(m.rows) or m.kind == "sets")
def test_permutation_invariance(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        expected = m(*args)
        rng = np.random.default_rng(seed)
        if m.kind == "sets":  # item sets: each argument's order is irrelevant
            shuffled = tuple(rng.permutation(a) for a in args)
        else:
            shuffled = take_rows(m, args, perm := rng.permutation(n_rows(m, args)))
        got = m(*shuffled)
        if m.row_output:
            got = np.asarray(got)[np.argsort(perm)]
        assert_same(got, expected)


# ---------------------------------------------------------------------- sample_weight


@over_metrics(lambda m: m.weight)
def test_integer_weight_equals_repeated_rows(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        rng = np.random.default_rng(seed)
        k = rng.integers(1, 4, n_rows(m, args))
        repeated = take_rows(m, args, np.repeat(np.arange(len(k)), k))
        assert_same(m(*args, sample_weight=k), m(*repeated))
        assert_same(m(*args, sample_weight=k.astype(float)), m(*repeated))


@over_metrics(lambda m: m.weight)
def test_unit_weights_equal_no_weights(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        n = n_rows(m, args)
        expected = m(*args)
        assert_same(m(*args, sample_weight=np.ones(n)), expected)
        assert_same(m(*args, sample_weight=[1] * n), expected)


# Sample-wise averages count a zero-weight row as a sample without labels and warn
# (UndefinedMetricWarning), as scikit-learn does; the value is unaffected.
ZERO_WEIGHT_WARNS = {"f1[samples]", "jaccard[samples]"}


@over_metrics(lambda m: m.weight)
def test_zero_weight_equals_dropped_rows(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        rng = np.random.default_rng(seed)
        n = n_rows(m, args)
        w = rng.uniform(0.5, 2.0, n)
        # rows 0-9 carry every class (and both classes of every group): keep them
        drop = 10 + rng.choice(n - 10, size=8, replace=False)
        w[drop] = 0.0
        keep = np.setdiff1d(np.arange(n), drop)
        with warnings.catch_warnings():
            if m.id in ZERO_WEIGHT_WARNS:
                warnings.simplefilter("ignore", UndefinedMetricWarning)
            got = m(*args, sample_weight=w)
        assert_same(got, m(*take_rows(m, args, keep), sample_weight=w[keep]))


@over_metrics(lambda m: m.weight and m.weight_scale)
def test_scaling_all_weights_changes_nothing(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        w = np.random.default_rng(seed).uniform(0.5, 2.0, n_rows(m, args))
        assert_same(m(*args, sample_weight=3.7 * w), m(*args, sample_weight=w), tol=1e-10)


@over_metrics(lambda m: m.weight)
def test_weights_are_used(m: Metric):
    args = m.make(0)
    w = np.random.default_rng(0).uniform(0.1, 3.0, n_rows(m, args))
    assert differs(m(*args, sample_weight=w), m(*args))


# ---------------------------------------------------------------------- symmetry


@over_metrics(lambda m: m.symmetric is True or m.swapped is not None)
def test_symmetry(m: Metric):
    for seed in SEEDS:
        a, b = m.make(seed)
        expected = m(a, b)
        if m.swapped is not None:
            expected = m.swapped(expected)
        assert_same(m(b, a), expected)


@over_metrics(lambda m: m.symmetric is False)
def test_not_symmetric(m: Metric):
    # guards the table: a metric declared not symmetric must really depend on the order
    # (on one of the seeds: precision and recall coincide when both sides count alike)
    assert any(differs(m(b, a), m(a, b)) for a, b in map(m.make, SEEDS))


def test_homogeneity_and_completeness_swap():
    from scorekit import completeness, homogeneity

    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 4, 50), rng.integers(0, 3, 50)
    assert abs(homogeneity(a, b) - completeness(b, a)) < 1e-12


# ---------------------------------------------------------------------- labels


@over_metrics(lambda m: m.strings)
def test_string_labels_equal_int_labels(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        expected = m.func(*args, **{**m.kwargs, **m.string_kwargs})
        words = tuple(
            to_words(a) if name in m.label_args else a for name, a in zip(m.data, args, strict=True)
        )
        got = m.func(*words, **words_kwargs({**m.kwargs, **m.string_kwargs}))
        assert_same(got, expected, strings=False)
        if m.weight:
            w = np.random.default_rng(seed).uniform(0.5, 2.0, n_rows(m, args))
            got = m.func(*words, **words_kwargs({**m.kwargs, **m.string_kwargs}), sample_weight=w)
            expected = m.func(*args, **{**m.kwargs, **m.string_kwargs}, sample_weight=w)
            assert_same(got, expected, strings=False)


@over_cases(
    "m, style",
    lambda: [(m, style, f"{m.id}-{style}") for m in METRICS if m.strings for style in INT_CODES],
)
def test_extreme_integer_labels_equal_small_labels(m: Metric, style: str):
    relabel = to_codes(style)
    kwargs = {**m.kwargs, **m.string_kwargs}
    for seed in SEEDS:
        args = m.make(seed)
        coded = tuple(
            relabel(a) if name in m.label_args else a for name, a in zip(m.data, args, strict=True)
        )
        got = m.func(*coded, **words_kwargs(kwargs, relabel))
        assert_same(got, m.func(*args, **kwargs), strings=False)


_BOOL_KINDS = {"labels2", "binary_scores", "probabilities", "grouped", "grouped_prob"}


@over_metrics(lambda m: m.kind in _BOOL_KINDS)
def test_bool_labels_equal_int_labels(m: Metric):
    bool_args = {"y_true", "y_pred"}
    for seed in SEEDS:
        args = m.make(seed)
        as_bool = tuple(
            np.asarray(a).astype(bool) if name in bool_args else a
            for name, a in zip(m.data, args, strict=True)
        )
        extra = {"pos_label": True} if "pos_label" in m.string_kwargs else {}
        assert_same(m(*as_bool, **extra), m(*args), strings=False)


@over_metrics(lambda m: bool(m.renaming))
def test_renaming_labels_changes_nothing(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        expected = m(*args)
        scalar = isinstance(expected, float)
        rng = np.random.default_rng(seed)
        for style in ("permuted", "huge", "strings"):
            renamed = args
            for name in m.renaming:
                # a scalar does not depend on the order of the ids; tables list groups
                # in sorted order, so those get an order-preserving renaming
                perm = rng.permutation(10) if scalar else np.arange(10)
                ids = perm[np.asarray(args[m.index(name)])]
                new = {
                    "permuted": ids * 3 + 5,
                    "huge": ids.astype(np.int64) * 10**15 - 7 * 10**17,
                    "strings": np.array([f"id-{v}" for v in ids]),
                }[style]
                renamed = replace(m, renamed, name, new)
            assert_same(m(*renamed), expected, strings=False, skip=("group",))


# ---------------------------------------------------------------------- best value


@over_metrics(lambda m: m.best is not None)
def test_perfect_prediction_scores_best(m: Metric):
    for seed in SEEDS:
        args = m.make(seed, perfect=True)
        best = m.best(args) if callable(m.best) else m.best
        got = np.concatenate([x.ravel() for x in numeric(m(*args))])
        np.testing.assert_allclose(got, np.ravel(np.asarray(best, dtype=float)), rtol=0, atol=1e-12)


# ---------------------------------------------------------------------- scores


def _increasing(s: np.ndarray) -> np.ndarray:
    return np.exp(3.0 * np.asarray(s, dtype=float)) - 2.0


@over_metrics(lambda m: m.rank_based)
def test_rank_metrics_ignore_increasing_maps_of_scores(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        name = m.floats[0]
        mapped = replace(m, args, name, _increasing(args[m.index(name)]))
        assert_same(m(*mapped), m(*args), tol=1e-12)


@over_metrics(lambda m: m.has_nan_policy and bool(m.floats))
def test_nan_policy_omit_equals_dropping_rows(m: Metric):
    for seed in SEEDS:
        args = m.make(seed)
        rng = np.random.default_rng(seed)
        n = n_rows(m, args)
        bad = 10 + rng.choice(n - 10, size=3, replace=False)
        name = m.floats[-1]
        values = np.array(args[m.index(name)], dtype=float)
        values[bad[0]] = np.nan
        values[bad[1]] = np.inf
        values[bad[2]] = np.nan  # (+inf and -inf together: see test_common_inputs)
        with_nan = replace(m, args, name, values)
        keep = np.setdiff1d(np.arange(n), bad)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            expected = m(*take_rows(m, with_nan, keep))
        with pytest.warns(OmittedRowsWarning, match="dropped 3 of"):
            got = m(*with_nan, nan_policy="omit")
        assert_same(got, expected)
