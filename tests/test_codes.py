"""scorekit._codes: the fast label coders return exactly what np.unique returns."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekit._codes import compact_span, distinct, encode, offsets

CASES = {
    "bool": np.array([True, False, True]),
    "all-true": np.array([True, True]),  # once coded [False] by the clustering coder
    "all-false": np.array([False, False, False]),
    "uint64-huge": np.array([2**64 - 1, 2**64 - 3, 2**64 - 1], dtype=np.uint64),
    "uint64-two": np.array([2**63 + 1, 2**63], dtype=np.uint64),
    "int8-extremes": np.array([-128, 127, 0, -128], dtype=np.int8),
    "negative": np.array([-5, 3, -5]),
    "wide-range": np.array([0, 10**12, 5]),
    "int64-extremes": np.array([-(2**63), 2**63 - 1]),
    "str": np.array(["b", "a", "b"]),
    "float": np.array([1.5, 0.5, 1.5]),
    "float-two": np.array([1.0, 0.0, 1.0]),
    "float-one": np.array([2.5, 2.5]),
    "one": np.array([3], dtype=np.uint8),
    "empty": np.zeros(0, dtype=np.int64),
}


@pytest.mark.parametrize("y", list(CASES.values()), ids=list(CASES))
def test_encode_and_distinct_match_np_unique(y):
    before = y.copy()
    expected_classes, expected_codes = np.unique(y, return_inverse=True)
    classes, codes = encode(y)
    assert classes.dtype == expected_classes.dtype
    np.testing.assert_array_equal(classes, expected_classes)
    np.testing.assert_array_equal(codes, expected_codes.reshape(-1))
    assert codes.dtype == np.int64
    got = distinct(y)
    assert got.dtype == expected_classes.dtype
    np.testing.assert_array_equal(got, expected_classes)
    np.testing.assert_array_equal(y, before)


def test_all_true_bool_chunk_is_named_true():
    # Regression: the clustering coder named an all-True chunk [False].
    assert encode(np.array([True, True]))[0].tolist() == [True]
    assert encode(np.array([True, True]), gaps=True)[0].tolist() == [True]


@pytest.mark.parametrize("y", [CASES["uint64-huge"], CASES["int8-extremes"], CASES["negative"]])
def test_gaps_codes_are_offsets_into_the_whole_range(y):
    labels, codes = encode(y, gaps=True)
    lo, hi = int(y.min()), int(y.max())
    assert labels.dtype == y.dtype
    assert labels.tolist() == list(range(lo, hi + 1))
    np.testing.assert_array_equal(labels[codes], y)


def test_gaps_fall_back_to_present_labels_when_the_range_is_wide():
    labels, codes = encode(np.array([0, 10**6, 5]), gaps=True)
    assert labels.tolist() == [0, 5, 10**6]
    assert codes.tolist() == [0, 2, 1]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=30), st.integers(0, 2**20))
def test_encode_random_int64(values, lo_shift):
    y = np.array(values, dtype=np.int64)
    for arr in (y, y // (lo_shift + 1)):  # wide and narrow ranges
        classes, codes = encode(arr)
        want_classes, want_codes = np.unique(arr, return_inverse=True)
        np.testing.assert_array_equal(classes, want_classes)
        np.testing.assert_array_equal(codes, want_codes.reshape(-1))
        np.testing.assert_array_equal(distinct(arr), want_classes)


def test_compact_span_and_offsets():
    assert compact_span(np.array([7, 5, 9])) == (5, 9)
    assert compact_span(np.array([0, 10**12])) is None
    assert compact_span(np.array([0.5, 1.0])) is None  # floats are never counted
    assert compact_span(np.array([True, True])) == (1, 1)
    assert offsets(np.array([2**64 - 1], dtype=np.uint64), 2**64 - 3).tolist() == [2]
    assert offsets(np.array([True, False]), 0).tolist() == [1, 0]
    assert offsets(np.array([-3, 4], dtype=np.int8), -3).dtype == np.int64
