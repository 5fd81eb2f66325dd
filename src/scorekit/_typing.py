"""Type aliases shared by the package."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

ArrayLike = Any  # lists, NumPy, pandas/polars Series, pyarrow arrays, torch tensors
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
AnyArray = npt.NDArray[Any]
NanPolicy = Literal["raise", "omit"]

__all__ = ["AnyArray", "ArrayLike", "BoolArray", "FloatArray", "IntArray", "NanPolicy"]
