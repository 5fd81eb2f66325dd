"""Validation and conversion shared by every metric.

Public functions convert and check their arguments here, once; kernels take
plain NumPy arrays and never validate. Nothing the user passed in is modified:
conversions copy when they must change anything.

Inputs are converted without importing the library they come from: torch
tensors through ``.detach().cpu().numpy()``, pandas / polars Series and
pyarrow arrays through ``to_numpy``, everything else through ``numpy.asarray``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ._errors import (
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NegativeWeightError,
    NonFiniteError,
    OmittedRowsWarning,
    ParameterError,
    ProbabilityRangeError,
    ScorekitError,
    ShapeError,
    UndefinedMetricWarning,
)
from ._typing import AnyArray, ArrayLike, BoolArray, FloatArray

__all__ = [
    "as_array",
    "as_numeric",
    "binary_target",
    "check_count",
    "check_option",
    "check_probabilities",
    "check_same_length",
    "check_weight_total",
    "check_weights",
    "checked_rows",
    "finite_rows",
    "labels_1d",
    "nonempty",
    "random_generator",
    "reject_non_numbers",
    "scores_1d",
    "scores_2d",
    "take",
    "type_of_target",
    "undefined",
    "weights_1d",
    "zero_weight_error",
]

_NA_TYPES = frozenset({"NoneType", "NAType", "NaTType"})


def _is_missing(value: Any) -> bool:
    if type(value).__name__ in _NA_TYPES:
        return True
    return isinstance(value, float) and value != value


def as_array(x: ArrayLike, name: str) -> AnyArray:
    """Convert any array-like to a NumPy array, without importing its library.

    Object arrays whose entries are all numbers become numeric arrays, so a
    pandas nullable ``Int64`` column without missing values is an integer array.

    >>> as_array([1, 2, 3], "y_true").dtype.kind
    'i'
    """
    if x is None:
        raise ShapeError(f"{name} is None; an array-like is required")
    root = type(x).__module__.partition(".")[0]
    if isinstance(x, np.ndarray):
        arr = x
    elif root == "torch":
        arr = np.asarray(x.detach().cpu().numpy())
    elif root == "pyarrow":
        arr = np.asarray(x.to_numpy(zero_copy_only=False))
    elif root in ("pandas", "polars") and hasattr(x, "to_numpy"):
        arr = np.asarray(x.to_numpy())
    elif isinstance(x, (str, bytes)):
        raise ShapeError(f"{name} is a single string; an array-like is required")
    else:
        try:
            arr = np.asarray(x)
        except ValueError as exc:  # ragged nested lists
            raise ShapeError(f"{name} could not be read as an array: {exc}") from None
    if arr.dtype.kind == "O":
        arr = _tidy_object(arr, name)
    return arr


_NUMBER_TYPES = (bool, int, float, np.number, np.bool_)
_SEQUENCE_TYPES = (list, tuple, set, frozenset, dict, np.ndarray)


def _tidy_object(arr: AnyArray, name: str) -> AnyArray:
    """Numbers → a numeric array, strings → a str array; the whole column is checked.

    One pass collects the set of entry types (``map(type, ...)`` runs at C
    speed), so a column whose first thousand values are strings and a later
    one is not is caught as cheaply as a clean one.
    """
    values = arr.ravel().tolist()
    types = set(map(type, values))
    if any(t.__name__ in _NA_TYPES for t in types) or (
        float in types and any(v != v for v in values if type(v) is float)
    ):
        n_missing = sum(_is_missing(v) for v in values)
        raise NonFiniteError(f"{name} contains {n_missing} missing values (None/NA)")
    if values and all(issubclass(t, _NUMBER_TYPES) for t in types):
        return np.asarray(values).reshape(arr.shape)
    if values and all(issubclass(t, str) for t in types):
        return arr.astype(str)
    if any(issubclass(t, str) for t in types):
        kinds = ", ".join(sorted(t.__name__ for t in types))
        raise LabelError(f"{name} mixes strings and other types ({kinds})")
    return arr


def _one_d(arr: AnyArray, name: str, what: str) -> AnyArray:
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr[:, 0]
    if arr.ndim != 1:
        hint = ""
        if arr.ndim == 2 and what == "labels":
            hint = " (2-D scores passed where labels are expected?)"
        raise ShapeError(f"{name} must be 1-D {what}, got shape {arr.shape}{hint}")
    return arr


def labels_1d(x: ArrayLike, name: str) -> AnyArray:
    """A 1-D array of labels (ints, bools or strings); NaN labels raise.

    >>> labels_1d(["a", "b"], "y_true").tolist()
    ['a', 'b']
    """
    arr = _one_d(as_array(x, name), name, "labels")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        n_bad = int((~np.isfinite(arr)).sum())
        raise NonFiniteError(f"{name} contains {n_bad} NaN or infinite labels")
    if arr.dtype.kind == "O":
        sequences = sorted({type(v).__name__ for v in arr if isinstance(v, _SEQUENCE_TYPES)})
        if sequences:
            raise ShapeError(
                f"{name} holds {', '.join(sequences)} entries; pass 1-D labels or a 2-D "
                "indicator matrix, not an array of sequences"
            )
    if arr.dtype.kind not in "biufUSO":
        what = _NOT_NUMBERS.get(arr.dtype.kind, "not labels")
        raise LabelError(f"{name} has unsupported dtype {arr.dtype} ({what}) for labels")
    return arr


_NOT_NUMBERS = {"M": "dates", "m": "durations", "c": "complex numbers"}


def reject_non_numbers(arr: AnyArray, name: str) -> None:
    """Raise :class:`ShapeError` for dates, durations (NaT too) and complex numbers.

    NumPy would cast them to float silently (nanoseconds since 1970, the real
    part); they are never scores, targets or weights.

    >>> reject_non_numbers(np.array([1.0]), "y_score")
    """
    what = _NOT_NUMBERS.get(arr.dtype.kind)
    if what is not None:
        raise ShapeError(
            f"{name} has dtype {arr.dtype} ({what}); numbers (int, float or bool) are required"
        )


def _numeric(arr: AnyArray, name: str) -> FloatArray:
    reject_non_numbers(arr, name)
    if arr.dtype.kind in "biuf":
        return np.asarray(arr, dtype=np.float64)
    try:
        return np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise ShapeError(f"{name} must be numeric, got dtype {arr.dtype}") from None


def as_numeric(x: ArrayLike, name: str) -> FloatArray:
    """A float64 array of any shape; strings, dates, durations and complex numbers raise.

    >>> as_numeric([[1, 2]], "weights").tolist()
    [[1.0, 2.0]]
    """
    return _numeric(as_array(x, name), name)


def scores_1d(x: ArrayLike, name: str) -> FloatArray:
    """A 1-D float64 array of scores or values (NaN is checked by :func:`finite_rows`).

    >>> scores_1d([1, 2], "y_score")
    array([1., 2.])
    """
    return _numeric(_one_d(as_array(x, name), name, "scores"), name)


def scores_2d(x: ArrayLike, name: str) -> FloatArray:
    """A 2-D float64 array (one row per sample); a 1-D input becomes one column.

    >>> scores_2d([1, 2], "y_pred").shape
    (2, 1)
    """
    arr = as_array(x, name)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ShapeError(f"{name} must be 1-D or 2-D, got shape {arr.shape}")
    return _numeric(arr, name)


def weights_1d(
    sample_weight: ArrayLike | None, n: int, name: str = "sample_weight", *, values: bool = True
) -> FloatArray | None:
    """Check and convert weights: length ``n``, finite, not negative; ``None`` passes through.

    ``values=False`` leaves the finite / not negative check (:func:`check_weights`)
    to the caller, which must make it before any result is returned.

    >>> weights_1d([1, 2], 2)
    array([1., 2.])
    """
    if sample_weight is None:
        return None
    w = _numeric(_one_d(as_array(sample_weight, name), name, "weights"), name)
    if w.shape[0] != n:
        raise LengthMismatchError(f"{name} has {w.shape[0]} entries but the data has {n}")
    return check_weights(w, name) if values else w


def check_weights(
    w: FloatArray, name: str, negative: type[ScorekitError] = NegativeWeightError
) -> FloatArray:
    """Raise unless every weight is finite and not negative (``negative``: the error then).

    >>> check_weights(np.array([0.0, 2.0]), "weights")
    array([0., 2.])
    """
    if w.size and w.dtype.kind == "f" and float(w.min()) >= 0 and float(w.max()) < np.inf:
        return w  # two fast reductions (NaN fails both tests): nothing to report
    if not np.isfinite(w).all():
        raise NonFiniteError(
            f"{name} contains {int((~np.isfinite(w)).sum())} NaN or infinite values"
        )
    if (w < 0).any():
        raise negative(f"{name} contains {int((w < 0).sum())} negative values")
    return w


def check_same_length(**named: AnyArray | None) -> int:
    """Return the common first dimension of the named arrays, or raise naming the two that differ.

    >>> check_same_length(y_true=np.zeros(3), y_score=np.zeros(3))
    3
    """
    items = [(k, v) for k, v in named.items() if v is not None]
    first_name, first = items[0]
    n = int(first.shape[0])
    for other_name, other in items[1:]:
        if other.shape[0] != n:
            raise LengthMismatchError(
                f"{first_name} has {n} entries but {other_name} has {other.shape[0]}"
            )
    return n


def nonempty(n: int, name: str) -> None:
    """Raise :class:`EmptyInputError` when ``n == 0``."""
    if n == 0:
        raise EmptyInputError(f"{name} is empty; at least one sample is needed")


#: Largest count option (bins, resamples) accepted: 10**7 keeps any call to minutes, not years.
MAX_COUNT = 10**7


def check_count(value: Any, name: str, *, lo: int = 1, hi: int = MAX_COUNT) -> int:
    """An integer option in [lo, hi] (``n_bins``, ``n_resamples``, ``bins``), else ParameterError.

    >>> check_count(10, "n_bins")
    10
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ParameterError(f"{name} must be an integer in [{lo}, {hi:_}], got {value!r}")
    if not lo <= value <= hi:
        raise ParameterError(f"{name}={value!r} is outside [{lo}, {hi:_}]")
    return int(value)


def random_generator(seed: Any, name: str = "seed") -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` for None, an integer >= 0 or a Generator; else ParameterError.

    >>> int(random_generator(0).integers(10)) == int(random_generator(0).integers(10))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (
        isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0
    ):
        raise ParameterError(f"{name}={seed!r} must be None, an integer >= 0 or a numpy Generator")
    return np.random.default_rng(seed)


def check_option(value: Any, name: str, allowed: Iterable[Any]) -> None:
    """Raise :class:`ParameterError` unless ``value`` is one of ``allowed``.

    >>> check_option("macro", "average", ("micro", "macro"))
    """
    allowed = tuple(allowed)
    if value not in allowed:
        raise ParameterError(f"{name}={value!r} is not one of {', '.join(map(repr, allowed))}")


def finite_rows(nan_policy: str, **named: AnyArray | None) -> BoolArray | None:
    """Check the named float arrays for NaN/inf.

    Returns ``None`` when every row is finite. Otherwise, with
    ``nan_policy="raise"`` raises :class:`NonFiniteError` naming the argument;
    with ``"omit"`` warns (:class:`OmittedRowsWarning`, saying how many rows)
    and returns the mask of rows to keep (apply it with :func:`take`).

    >>> finite_rows("raise", y_score=np.array([0.5, 1.0])) is None
    True
    """
    check_option(nan_policy, "nan_policy", ("raise", "omit"))
    keep: BoolArray | None = None
    for name, arr in named.items():
        if arr is None or arr.dtype.kind != "f":
            continue
        # One summation answers the common case without a boolean temporary:
        # a finite sum means every value is finite (NaN and inf propagate).
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is the case we look for
            total = np.sum(arr)
        if np.isfinite(total):
            continue
        ok: BoolArray = np.isfinite(arr)
        if ok.ndim > 1:
            ok = np.asarray(ok.all(axis=tuple(range(1, ok.ndim))))
        if ok.all():
            continue
        if nan_policy == "raise":
            raise NonFiniteError(
                f"{name} contains {int((~ok).sum())} NaN or infinite values; "
                'pass nan_policy="omit" to drop those rows'
            )
        keep = ok if keep is None else keep & ok
    if keep is not None:
        omitted(int((~keep).sum()), keep.size, stacklevel=4)
    return keep


def omitted(dropped: int, total: int, *, stacklevel: int = 3) -> None:
    """Warn that ``nan_policy='omit'`` dropped ``dropped`` of ``total`` rows; raise if all."""
    warnings.warn(
        f"nan_policy='omit' dropped {dropped} of {total} rows with NaN or infinite values",
        OmittedRowsWarning,
        stacklevel=stacklevel,
    )
    if dropped == total:
        raise EmptyInputError("every row has a NaN or infinite value; nothing is left to score")


def take(keep: BoolArray | None, *arrays: AnyArray | None) -> tuple[Any, ...]:
    """Apply a row mask from :func:`finite_rows` to each array (``None`` stays ``None``)."""
    if keep is None:
        return arrays
    return tuple(None if a is None else a[keep] for a in arrays)


def checked_rows(
    nan_policy: str,
    sample_weight: ArrayLike | None,
    finite: tuple[str, ...],
    **named: AnyArray | None,
) -> tuple[Any, ...]:
    """The row checks every metric shares: lengths, emptiness, weights, NaN rows.

    The named row-aligned arrays (``None`` skipped) must have the same length,
    not zero (the first name is reported); ``sample_weight`` is checked
    against it (:func:`weights_1d`); the arrays named in ``finite`` go through
    :func:`finite_rows`. Returns the named arrays in order, then the weights,
    without the rows that ``nan_policy="omit"`` drops.

    >>> y, s, w = checked_rows("raise", None, ("y_score",), y_true=np.array([0, 1]),
    ...                        y_score=np.array([0.2, 0.7]))
    >>> s.tolist(), w
    ([0.2, 0.7], None)
    """
    n = check_same_length(**named)
    nonempty(n, next(iter(named)))
    w = weights_1d(sample_weight, n)
    keep = finite_rows(nan_policy, **{name: named[name] for name in finite})
    return take(keep, *named.values(), w)


def zero_weight_error() -> EmptyInputError:
    """The error of a weighted mean whose ``sample_weight`` sums to zero (nothing to average over)."""
    return EmptyInputError("sample_weight sums to zero; there is no weight to average over")


def check_weight_total(w: FloatArray | None) -> None:
    """Raise :func:`zero_weight_error` when weights are given and all of them are zero.

    >>> check_weight_total(np.array([0.0, 2.0]))
    """
    if w is not None and w.size and not w.any():
        raise zero_weight_error()


def check_probabilities(p: FloatArray, name: str) -> None:
    """Raise :class:`ProbabilityRangeError` if any value lies outside [0, 1].

    >>> check_probabilities(np.array([0.0, 1.0]), "y_prob")
    """
    if p.size and (p.min() < 0 or p.max() > 1):
        lo, hi = float(p.min()), float(p.max())
        raise ProbabilityRangeError(
            f"{name} must hold probabilities in [0, 1]; found values in [{lo}, {hi}]"
        )


def binary_target(
    y: AnyArray, pos_label: Any = None, name: str = "y_true", *, classes: AnyArray | None = None
) -> BoolArray:
    """Boolean positives of a binary target, with scikit-learn's ``pos_label`` rule.

    Without ``pos_label`` the labels must be a subset of {0, 1} or {-1, 1}
    (bools count as {0, 1}) and 1 is positive. With ``pos_label`` there may be
    at most two classes.

    >>> binary_target(np.array(["n", "p", "p"]), "p").tolist()
    [False, True, True]
    """
    if classes is None:
        classes = np.unique(y)
    if classes.size > 2:
        raise LabelError(
            f"{name} has {classes.size} classes ({_show(classes)}); a binary metric needs at most two"
        )
    if pos_label is None:
        numeric = classes.dtype.kind in "biuf"
        if not numeric or not (set(classes.tolist()) <= {0, 1} or set(classes.tolist()) <= {-1, 1}):
            raise LabelError(
                f"{name} has labels {_show(classes)}; without pos_label they must be "
                "{0, 1}, {-1, 1} or bool (pass pos_label= to name the positive class)"
            )
        pos_label = 1
    elif (classes.dtype.kind in "USO") != isinstance(pos_label, str) and classes.size:
        raise LabelError(
            f"pos_label={pos_label!r} is not one of the labels of {name} ({_show(classes)})"
        )
    elif classes.size == 2 and pos_label not in classes.tolist():
        # two classes and neither is positive: scikit-learn raises too
        raise LabelError(
            f"pos_label={pos_label!r} is not one of the labels of {name} ({_show(classes)})"
        )
    return np.asarray(y == pos_label, dtype=bool)


def _show(classes: AnyArray, most: int = 6) -> str:
    items = [repr(c) for c in classes[:most].tolist()]
    more = f", ... ({classes.size} in all)" if classes.size > most else ""
    return "[" + ", ".join(items) + more + "]"


def type_of_target(y: AnyArray) -> str:
    """scikit-learn's target type: binary, multiclass, multilabel-indicator, continuous, ...

    >>> type_of_target(np.array([0, 1, 2]))
    'multiclass'
    >>> type_of_target(np.array([[0, 1], [1, 1]]))
    'multilabel-indicator'
    """
    if y.ndim > 2 or (y.dtype.kind == "O" and y.ndim == 2):
        return "unknown"
    if y.ndim == 2 and y.shape[1] == 0:
        return "unknown"
    multi = y.ndim == 2 and y.shape[1] > 1
    if y.dtype.kind == "f" and y.size and np.any(y != np.round(y)):
        return "continuous-multioutput" if multi else "continuous"
    if multi:
        values = np.unique(y)
        if y.dtype.kind in "biuf" and set(values.tolist()) <= {0, 1}:
            return "multilabel-indicator"
        return "multiclass-multioutput"
    n_classes = np.unique(y).size if y.size else 0
    return "multiclass" if n_classes > 2 else "binary"


def undefined(metric: str, reason: str, value: float = float("nan")) -> float:
    """Warn with :class:`UndefinedMetricWarning` and return ``value`` (``nan`` by default)."""
    warnings.warn(
        f"{metric} is undefined: {reason}; returning {value}", UndefinedMetricWarning, stacklevel=3
    )
    return value


def mapping_get(mapping: Mapping[str, Any], key: str, name: str) -> Any:
    """Look up ``key`` or raise :class:`ParameterError` listing the known keys."""
    try:
        return mapping[key]
    except KeyError:
        raise ParameterError(
            f"{name}={key!r} is not one of {', '.join(map(repr, mapping))}"
        ) from None
