"""Inputs and the public surface, stated once for every metric of the table (see test_common.py).

Every array type of SPEC §2 gives the NumPy result exactly; the caller's arrays are
never modified (values and ``flags.writeable``), read-only arrays work; bad input
(lengths differ, empty input, NaN / infinite values, negative weights, 2-D labels
where 1-D labels are expected, 3-D arrays) raises a ``ScorekitError`` subclass whose
message names the argument; every public function has a runnable "Examples"
section and keyword-only options after its data arguments.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_common_table import (
    METRICS,
    RESULT_CLASSES,
    Metric,
    assert_same,
    n_rows,
    over_cases,
    over_metrics,
    public_functions,
    replace,
    take_rows,
    to_words,
    words_kwargs,
)

import scorekit as sk

# ---------------------------------------------------------------------- array types


def _to_list(a: np.ndarray) -> Any:
    return a.tolist()


def _to_pandas(a: np.ndarray) -> Any:
    pd = pytest.importorskip("pandas")
    return pd.Series(a) if a.ndim == 1 else pd.DataFrame(a)


def _to_polars(a: np.ndarray) -> Any:
    pl = pytest.importorskip("polars")
    return pl.Series(a) if a.ndim == 1 else pl.DataFrame(a, orient="row")


def _to_pyarrow(a: np.ndarray) -> Any:
    pa = pytest.importorskip("pyarrow")
    return pa.array(a) if a.ndim == 1 else a  # pyarrow arrays are 1-D


def _to_torch(a: np.ndarray) -> Any:
    torch = pytest.importorskip("torch")
    return torch.from_numpy(a.copy())


CONVERTERS: dict[str, Callable[[np.ndarray], Any]] = {
    "list": _to_list,
    "pandas": _to_pandas,
    "polars": _to_polars,
    "pyarrow": _to_pyarrow,
    "torch": _to_torch,
}


def _convert(m: Metric, args: tuple[Any, ...], conv: Callable[[np.ndarray], Any]) -> tuple:
    out = []
    for a in args:
        if not isinstance(a, np.ndarray) or (m.kind == "catalog" and conv is not _to_list):
            out.append(a)  # catalog_coverage takes lists of lists or a 2-D array only
        else:
            out.append(conv(a))
    return tuple(out)


@pytest.mark.parametrize("conv", list(CONVERTERS))
@over_metrics()
def test_array_types_give_the_numpy_result(m: Metric, conv: str):
    args = m.make(0)
    expected = m(*args)
    converter = CONVERTERS[conv]
    assert_same(m(*_convert(m, args, converter)), expected, tol=0.0)
    if m.weight:
        w = np.random.default_rng(0).integers(1, 4, n_rows(m, args)).astype(float)
        got = m(*_convert(m, args, converter), sample_weight=converter(w))
        assert_same(got, m(*args, sample_weight=w), tol=0.0)


@pytest.mark.parametrize("conv", ["list", "pandas", "polars", "pyarrow"])
@over_metrics(lambda m: m.strings)
def test_string_label_array_types(m: Metric, conv: str):
    args = m.make(1)
    words = tuple(
        to_words(a) if name in m.label_args else a for name, a in zip(m.data, args, strict=True)
    )
    kwargs = words_kwargs({**m.kwargs, **m.string_kwargs})
    expected = m.func(*words, **kwargs)
    assert_same(m.func(*_convert(m, words, CONVERTERS[conv]), **kwargs), expected, tol=0.0)


@over_cases(
    "m, conv",
    lambda: [
        (m, conv, f"{m.id}-{conv}") for m in METRICS if m.floats for conv in ("numpy", "torch")
    ],
)
def test_float32_values(m: Metric, conv: str):
    # values on a 1/64 grid are exact in float32 (ties and bin edges kept); rows of a
    # probability matrix are left as they are, so float32 rounds their sums
    args = m.make(0)
    if m.kind not in ("multiclass_scores",):
        args = tuple(
            np.round(np.asarray(a) * 64) / 64 if name in m.floats else a
            for name, a in zip(m.data, args, strict=True)
        )
    expected = m(*args)
    to32 = _to_torch if conv == "torch" else (lambda a: a)
    single = tuple(
        to32(np.asarray(a, dtype=np.float32)) if name in m.floats else a
        for name, a in zip(m.data, args, strict=True)
    )
    assert_same(m(*single), expected, tol=1e-6)


# ---------------------------------------------------------------------- no modification


def _arrays(m: Metric, args: tuple[Any, ...]) -> list[np.ndarray]:
    return [a for a in args if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("writeable", [True, False], ids=["writeable", "read_only"])
@over_metrics()
def test_inputs_are_not_modified(m: Metric, writeable: bool):
    args = m.make(0)
    extra = {}
    if m.weight:
        extra["sample_weight"] = np.random.default_rng(0).uniform(0.5, 2.0, n_rows(m, args))
    arrays = [*_arrays(m, args), *extra.values()]
    for a in arrays:
        a.flags.writeable = writeable
    before = [a.copy() for a in arrays]
    m(*args, **extra)
    for a, b in zip(arrays, before, strict=True):
        assert a.flags.writeable is writeable
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------- bad input


def _raises(m: Metric, args: tuple[Any, ...], names: tuple[str, ...], **extra: Any) -> None:
    with pytest.raises(sk.ScorekitError) as info:
        m(*args, **extra)
    message = str(info.value)
    assert any(name in message for name in names), f"{message!r} names none of {names}"


def _pairs(pred: Callable[[Metric], tuple[str, ...]]) -> Callable[[], list[tuple]]:
    """Rows (metric, argument name, id) for :func:`over_cases`."""
    return lambda: [(m, name, f"{m.id}-{name}") for m in METRICS for name in pred(m)]


@over_cases("m, name", _pairs(lambda m: m.rows[1:]))
def test_lengths_differ(m: Metric, name: str):
    args = m.make(0)
    short = replace(m, args, name, np.asarray(args[m.index(name)])[:-1])
    _raises(m, short, (name,))


@over_metrics(lambda m: m.weight)
def test_sample_weight_length_differs(m: Metric):
    args = m.make(0)
    _raises(m, args, ("sample_weight",), sample_weight=np.ones(n_rows(m, args) + 1))


@over_metrics(lambda m: bool(m.rows))
def test_empty_input(m: Metric):
    args = take_rows(m, m.make(0), np.arange(0))
    _raises(m, args, m.rows)


@over_metrics(lambda m: m.weight)
def test_empty_input_with_weights(m: Metric):
    args = take_rows(m, m.make(0), np.arange(0))
    _raises(m, args, (*m.rows, "sample_weight"), sample_weight=np.ones(0))


_BAD_VALUES = {"nan": [np.nan], "inf": [np.inf], "-inf": [-np.inf]}


def _with_bad_values(m: Metric, args: tuple[Any, ...], name: str, bad: list[float]) -> tuple:
    values = np.array(args[m.index(name)], dtype=float)
    flat = values.reshape(len(values), -1)
    for i, v in enumerate(bad):
        flat[12 + i, 0] = v
    return replace(m, args, name, values)


@over_cases(
    "m, name, bad",
    lambda: [
        (m, name, bad, f"{m.id}-{name}-{bad}")
        for m in METRICS
        if m.rows
        for name in (*m.floats, *m.label_args)
        for bad in (_BAD_VALUES if name in m.floats else ["nan"])
    ],
)
def test_non_finite_values_raise(m: Metric, name: str, bad: str):
    _raises(m, _with_bad_values(m, m.make(0), name, _BAD_VALUES[bad]), (name,))


# +inf and -inf in one array (see KNOWN_BUGS)
@over_cases("m, name", _pairs(lambda m: m.floats if m.rows else ()))
def test_both_infinities_raise_without_numpy_warning(m: Metric, name: str):
    args = _with_bad_values(m, m.make(0), name, [np.inf, -np.inf])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _raises(m, args, (name,))


@over_metrics(lambda m: m.weight)
def test_negative_weight_raises(m: Metric):
    args = m.make(0)
    w = np.ones(n_rows(m, args))
    w[12] = -0.5
    _raises(m, args, ("sample_weight",), sample_weight=w)


@over_metrics(lambda m: m.weight)
def test_nan_weight_raises(m: Metric):
    args = m.make(0)
    w = np.ones(n_rows(m, args))
    w[12] = np.nan
    _raises(m, args, ("sample_weight",), sample_weight=w)


@over_metrics(lambda m: m.weight)
def test_all_zero_weights_raise_or_are_undefined(m: Metric):
    # No weight at all: either a ScorekitError naming sample_weight, or a result
    # (nan / zero_division / zero counts) with at most an UndefinedMetricWarning.
    args = m.make(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", sk.UndefinedMetricWarning)
        try:
            m(*args, sample_weight=np.zeros(n_rows(m, args)))
        except sk.ScorekitError as exc:
            message = str(exc)
        else:
            return
    assert "sample_weight" in message


@over_cases("m, name", _pairs(lambda m: m.one_d))
def test_2d_labels_raise(m: Metric, name: str):
    # shape (n, 2) with a value 2: neither 1-D labels nor a 0/1 indicator matrix
    args = m.make(0)
    n = n_rows(m, args)
    bad = np.tile([0, 2], (n, 1))
    _raises(m, replace(m, args, name, bad), (name,))


# catalog_coverage flattens whatever it is given ("every entry counts as an item")
@over_cases("m, name", _pairs(lambda m: m.rows if m.kind != "catalog" else ()))
def test_3d_arrays_raise(m: Metric, name: str):
    args = m.make(0)
    a = np.asarray(args[m.index(name)])
    bad = np.stack([a, a], axis=-1)
    if bad.ndim < 3:
        bad = np.stack([bad, bad], axis=-1)
    _raises(m, replace(m, args, name, bad), (name,))


# ---------------------------------------------------------------------- public surface


def _data_args() -> dict[str, tuple[str, ...]]:
    """Per function, the longest data-argument list the table declares for it."""
    out: dict[str, tuple[str, ...]] = {}
    for m in METRICS:
        name = m.func.__name__
        if len(m.data) > len(out.get(name, ())):
            out[name] = m.data
    return out


FUNCTIONS = [
    pytest.param(f, id=name) for name, f in public_functions() if name not in RESULT_CLASSES
]


@pytest.mark.parametrize("func", FUNCTIONS)
def test_docstring_has_examples(func):
    doc = inspect.getdoc(func) or ""
    assert doc.split("\n", 1)[0].strip(), "no summary line"
    assert "Examples\n--------" in doc
    examples = doc.split("Examples\n--------", 1)[1]
    assert ">>> " in examples


@pytest.mark.parametrize("func", FUNCTIONS)
def test_options_are_keyword_only(func):
    data = _data_args()[func.__name__]
    params = list(inspect.signature(func).parameters.values())
    assert [p.name for p in params[: len(data)]] == list(data)
    for p in params[: len(data)]:
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD, p.name
    for p in params[len(data) :]:
        assert p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD), p.name


@pytest.mark.parametrize("name", sorted(RESULT_CLASSES))
def test_result_classes_are_documented(name):
    assert (inspect.getdoc(getattr(sk, name)) or "").strip()
