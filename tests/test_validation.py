"""The shared validation module: conversions and one test per kind of bad input."""

from __future__ import annotations

import numpy as np
import pytest

from scorekit import _validation as v
from scorekit._errors import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NegativeWeightError,
    NonFiniteError,
    OmittedRowsWarning,
    ParameterError,
    ProbabilityRangeError,
    ShapeError,
)


def test_lists_strings_bools():
    assert v.labels_1d([True, False], "y").dtype == bool
    assert v.labels_1d(["a", "b"], "y").tolist() == ["a", "b"]
    assert v.scores_1d([1, 2], "s").dtype == np.float64


def test_pandas_polars_pyarrow():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    for x in (
        pd.Series([0, 1, 1]),
        pd.Series([0, 1, 1], dtype="Int64"),
        pl.Series([0, 1, 1]),
        pa.array([0, 1, 1]),
    ):
        assert v.labels_1d(x, "y").tolist() == [0, 1, 1]
    for x in (
        pd.Series(["a", "b"]),
        pd.Series(["a", "b"], dtype="string"),
        pl.Series(["a", "b"]),
        pa.array(["a", "b"]),
    ):
        assert v.labels_1d(x, "y").tolist() == ["a", "b"]
    assert v.labels_1d(pa.chunked_array([[1, 2], [3]]), "y").tolist() == [1, 2, 3]


def test_torch_tensor():
    torch = pytest.importorskip("torch")
    t = torch.tensor([0.5, 0.25], requires_grad=True)
    assert v.scores_1d(t, "y_score").tolist() == [0.5, 0.25]


def test_input_is_not_modified():
    s = np.array([0.3, np.nan, 0.1])
    with pytest.warns(OmittedRowsWarning, match="dropped 1 of 3"):
        keep = v.finite_rows("omit", y_score=s)
    (kept,) = v.take(keep, s)
    assert kept.tolist() == [0.3, 0.1]
    assert np.isnan(s[1])


def test_length_mismatch_names_arguments():
    with pytest.raises(LengthMismatchError, match="y_true has 3 entries but y_score has 2"):
        v.check_same_length(y_true=np.zeros(3), y_score=np.zeros(2))


def test_empty():
    with pytest.raises(EmptyInputError, match="y_true is empty"):
        v.nonempty(0, "y_true")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nonfinite_scores_raise(bad):
    with pytest.raises(NonFiniteError, match="y_score contains 1 NaN or infinite"):
        v.finite_rows("raise", y_score=np.array([0.1, bad]))


def test_all_rows_omitted_is_empty():
    with pytest.warns(OmittedRowsWarning), pytest.raises(EmptyInputError):
        v.finite_rows("omit", y_score=np.array([np.nan]))


def test_bad_nan_policy():
    with pytest.raises(ParameterError, match="nan_policy='drop'"):
        v.finite_rows("drop", y_score=np.zeros(1))


def test_missing_labels():
    with pytest.raises(NonFiniteError, match="y_true contains 1 missing"):
        v.labels_1d(np.array(["a", None], dtype=object), "y_true")
    with pytest.raises(NonFiniteError, match="y_true contains 1 NaN"):
        v.labels_1d([0.0, np.nan], "y_true")


def test_mixed_label_types():
    with pytest.raises(LabelError, match="mixes strings"):
        v.labels_1d(np.array(["a", 1], dtype=object), "y_true")


def test_binary_labels_without_pos_label():
    assert v.binary_target(np.array([-1, 1, 1])).tolist() == [False, True, True]
    assert v.binary_target(np.array([False, True])).tolist() == [False, True]
    with pytest.raises(LabelError, match="pass pos_label"):
        v.binary_target(np.array([1, 2]))
    with pytest.raises(LabelError, match="pass pos_label"):
        v.binary_target(np.array(["a", "b"]))
    with pytest.raises(LabelError, match="3 classes"):
        v.binary_target(np.array([0, 1, 2]))
    with pytest.raises(LabelError, match="pos_label='x' is not one of"):
        v.binary_target(np.array([0, 1]), pos_label="x")


def test_probability_range():
    with pytest.raises(ProbabilityRangeError, match="y_prob must hold probabilities"):
        v.check_probabilities(np.array([0.2, 1.5]), "y_prob")


def test_negative_and_bad_weights():
    with pytest.raises(NegativeWeightError, match="sample_weight contains 1 negative"):
        v.weights_1d([1.0, -1.0], 2)
    with pytest.raises(LengthMismatchError, match="sample_weight has 1 entries but the data has 2"):
        v.weights_1d([1.0], 2)
    with pytest.raises(NonFiniteError, match="sample_weight"):
        v.weights_1d([1.0, np.nan], 2)


def test_2d_scores_where_labels_expected():
    with pytest.raises(ShapeError, match=r"y_true must be 1-D labels, got shape \(3, 2\)"):
        v.labels_1d(np.zeros((3, 2)), "y_true")
    assert v.labels_1d(np.zeros((3, 1)), "y_true").shape == (3,)


def test_non_numeric_scores():
    with pytest.raises(ShapeError, match="y_score must be numeric"):
        v.scores_1d(["a", "b"], "y_score")


def test_type_of_target():
    assert v.type_of_target(np.array([0.5, 1.0])) == "continuous"
    assert v.type_of_target(np.array(["a", "b"])) == "binary"
    assert v.type_of_target(np.array([[1, 2], [3, 4]])) == "multiclass-multioutput"
