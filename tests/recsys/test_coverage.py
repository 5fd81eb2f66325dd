"""Catalog coverage and Korfhage's coverage and novelty ratios, against set arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorekit
from scorekit import (
    EmptyInputError,
    LabelError,
    NonFiniteError,
    ParameterError,
    ShapeError,
    UndefinedMetricWarning,
)
from scorekit.recsys import catalog_coverage, coverage_ratio, novelty_ratio

# --------------------------------------------------------------------------- catalog coverage


def test_catalog_coverage_forms():
    lists = [[1, 2, 3], [2, 3, 5], []]
    assert catalog_coverage(lists, 10) == 0.4  # {1, 2, 3, 5} of 10 items
    assert catalog_coverage(np.array([[1, 2], [2, 7]]), 4) == 0.75  # {1, 2, 7} of 4
    assert catalog_coverage(np.array([4, 4, 4, 9]), 8) == 0.25  # a flat item column
    assert catalog_coverage([("a", "b"), ["b"]], 4) == 0.5
    assert catalog_coverage([np.array([1, 2]), np.array([3])], 3) == 1.0
    assert catalog_coverage([[], []], 5) == 0.0


def test_catalog_coverage_pandas_series_of_lists():
    pd = pytest.importorskip("pandas")
    series = pd.Series([[1, 2], [3], [1, 9]])
    assert catalog_coverage(series, 8) == 0.5  # {1, 2, 3, 9} of 8


@given(st.lists(st.lists(st.integers(0, 30), max_size=8), min_size=1, max_size=12))
def test_catalog_coverage_vs_python_sets(lists):
    distinct = set().union(*map(set, lists))
    assert catalog_coverage(lists, 31) == len(distinct) / 31


def test_error_catalog_size_zero():
    with pytest.raises(ParameterError, match="catalog_size must be at least 1"):
        catalog_coverage([[1]], 0)


def test_error_catalog_size_not_int():
    with pytest.raises(ParameterError, match="catalog_size must be an integer"):
        catalog_coverage([[1]], 2.5)


def test_error_more_items_than_catalog():
    with pytest.raises(ParameterError, match="3 distinct items, more than catalog_size=2"):
        catalog_coverage([[1, 2], [3]], 2)


def test_error_no_lists():
    with pytest.raises(EmptyInputError, match="recommended_lists is empty"):
        catalog_coverage([], 5)


def test_error_nan_item():
    with pytest.raises(NonFiniteError, match="recommended_lists"):
        catalog_coverage([[1.0, np.nan]], 5)


def test_error_scalar_lists():
    with pytest.raises(ShapeError, match="recommended_lists"):
        catalog_coverage(np.int64(3), 5)


# --------------------------------------------------------------------------- user-oriented ratios


def test_korfhage_worked_example():
    # Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, §3.2.2 (after Korfhage):
    # R (relevant) = {1..7}, K (known to the user) = {1, 2, 3, 4, 8},
    # A (retrieved) = {1, 2, 5, 6, 7, 9}.
    # relevant & known = U = {1, 2, 3, 4}; retrieved of those R_k = {1, 2}:
    #   coverage = |R_k| / |U| = 2 / 4 = 0.5
    # relevant & retrieved = {1, 2, 5, 6, 7}; unknown among them R_u = {5, 6, 7}:
    #   novelty = |R_u| / (|R_u| + |R_k|) = 3 / 5 = 0.6
    retrieved, relevant, known = [1, 2, 5, 6, 7, 9], [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 8]
    assert coverage_ratio(retrieved, relevant, known) == 0.5
    assert novelty_ratio(retrieved, relevant, known) == 0.6


def test_strings_and_duplicates():
    assert coverage_ratio(["a", "a", "b"], ["a", "b", "c"], ["a", "c", "c"]) == 0.5
    assert novelty_ratio(["a", "a", "b"], ["a", "b", "c"], ["a", "c", "c"]) == 0.5


items = st.lists(st.integers(0, 15), max_size=12)


@given(items, items, items)
def test_ratios_vs_python_sets(retrieved, relevant, known):
    a, r, k = set(retrieved), set(relevant), set(known)
    if r & k:
        assert coverage_ratio(retrieved, relevant, known) == len(r & k & a) / len(r & k)
    if r & a:
        assert novelty_ratio(retrieved, relevant, known) == len((r & a) - k) / len(r & a)


def test_coverage_ratio_undefined():
    with pytest.warns(UndefinedMetricWarning, match="no relevant item is known"):
        assert math.isnan(coverage_ratio([1, 2], [3], [1, 2]))


def test_novelty_ratio_undefined():
    with pytest.warns(UndefinedMetricWarning, match="no relevant item was retrieved"):
        assert math.isnan(novelty_ratio([1, 2], [3], []))


def test_error_mixed_id_types():
    with pytest.raises(LabelError, match="mix strings"):
        coverage_ratio(["a"], [1, 2], [1])


def test_error_two_dimensional_set():
    with pytest.raises(ShapeError, match="relevant"):
        novelty_ratio([1], [[1, 2], [3, 4]], [1])


def test_top_level_exports():
    assert scorekit.catalog_coverage is catalog_coverage
    assert scorekit.coverage_ratio is coverage_ratio
    assert scorekit.novelty_ratio is novelty_ratio


def test_relative_recall_and_recall_effort_worked_examples():
    # Korfhage: 3 relevant found, 4 expected; the 2nd relevant item sits at rank 4
    assert scorekit.relative_recall([1, 2, 5, 9], {1, 2, 3, 5}, {1, 2, 3, 4}) == 0.75
    assert (
        scorekit.relative_recall([1, 2, 3, 5], [1, 2, 3, 5], [1]) == 4.0
    )  # more found than expected
    assert scorekit.recall_effort(["a", "x", "b", "c"], ["a", "c", "b"], ["a", "b"]) == 2 / 3
    assert (
        scorekit.recall_effort(["a", "a", "b"], ["a", "b"], ["p", "q"]) == 1.0
    )  # repeats count once
    with pytest.warns(scorekit.UndefinedMetricWarning, match="holds 1 relevant"):
        assert np.isnan(scorekit.recall_effort(["a", "x"], ["a"], ["a", "b"]))
    with pytest.warns(scorekit.UndefinedMetricWarning):
        assert np.isnan(scorekit.relative_recall([1], [1], []))
    with pytest.raises(scorekit.LabelError):
        scorekit.relative_recall([1, 2], ["a"], [1])
