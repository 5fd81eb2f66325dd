"""Checked reading of an accumulator's ``to_dict`` state: a dict from outside is input too.

``from_dict`` reads every field through :class:`Fields`, which checks the
field's type, its shape and dtype, the base64 text and its length against
the declared shape (before anything is allocated), sizes against absurd
values, and the values themselves (finite, not negative, sorted, in range).
Each accumulator states its layout with these calls and then checks what
ties its fields together (lengths, offsets); a failure raises
:class:`~scorekit.StateError` naming the field (``state.curve.scores``).

Unpickling runs arbitrary code and is only for trusted data; ``to_dict`` /
``from_dict`` is the safe exchange format.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._errors import StateError
from .._typing import AnyArray

__all__ = ["MAX_ITEMS", "Fields", "check_decreasing", "check_increasing", "check_lengths"]

#: Largest number of entries a state array may declare (2**40: far beyond any real state).
MAX_ITEMS = 1 << 40
#: Longest decimal text of an exact sum (an integer count of 2**-1074: ~700 digits at most).
_MAX_SUM_DIGITS = 4000
#: Numeric dtypes a state may hold, by kind ("label" also allows strings).
_DTYPES = {
    "f": ("<f8",),
    "i": ("<i8",),
    "label": ("<f8", "<f4", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1", "|b1"),
}
_DTYPES["any"] = (*_DTYPES["label"], "<f2")
_DTYPES["id"] = _DTYPES["label"]  # and byte strings |S<n> (ranking ids)


class Fields:
    """The fields of one dict of a state; every read checks the field and names it on failure.

    >>> f = Fields({"n": 3}, "state", ("n",))
    >>> f.integer("n", 0, 10)
    3
    """

    __slots__ = ("_d", "_path")

    def __init__(self, d: Any, path: str, keys: Iterable[str]) -> None:
        self._path = path
        if not isinstance(d, dict):
            raise StateError(f"{path} must be a dict, got {type(d).__name__}")
        expected = set(keys)
        missing = sorted(expected - set(d))
        extra = sorted(map(str, set(d) - expected))
        if missing or extra:
            what = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra[:5])}" if extra else "",
                )
                if part
            )
            raise StateError(f"{path} has the wrong keys ({what})")
        self._d = d

    def name(self, key: str) -> str:
        """The dotted path of ``key`` (for error messages)."""
        return f"{self._path}.{key}"

    def fail(self, key: str, problem: str) -> StateError:
        """The error for a bad ``key``."""
        return StateError(f"{self.name(key)} {problem}")

    def raw(self, key: str) -> Any:
        """The unchecked value (callers check it)."""
        return self._d[key]

    def sub(self, key: str, keys: Iterable[str], *, optional: bool = False) -> Fields | None:
        """The nested dict ``key`` (``None`` allowed with ``optional``)."""
        value = self._d[key]
        if value is None and optional:
            return None
        return Fields(value, self.name(key), keys)

    def boolean(self, key: str, *, optional: bool = False) -> bool | None:
        """A bool (or ``None`` with ``optional``)."""
        value = self._d[key]
        if value is None and optional:
            return None
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {_show(value)}")
        return value

    def integer(self, key: str, lo: int, hi: int) -> int:
        """An int in [lo, hi] (bools are not ints here)."""
        value = self._d[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(key, f"must be an integer in [{lo}, {hi}], got {_show(value)}")
        return value

    def real(self, key: str, *, nan: bool = True, lo: float = -math.inf) -> float:
        """A float stored as ``float.hex`` text; ``nan`` allowed unless told, not below ``lo``."""
        value = self._d[key]
        if not isinstance(value, str) or len(value) > 40:
            raise self.fail(key, f"must be a float.hex string, got {_show(value)}")
        try:
            x = float.fromhex(value)
        except (ValueError, OverflowError):
            raise self.fail(key, f"is not a float.hex string: {_show(value)}") from None
        if (x != x and not nan) or x < lo:
            raise self.fail(key, f"is out of range: {x!r}")
        return x

    def exact_sum(self, key: str, value: Any = None, *, nonneg: bool = False) -> int | float:
        """An exact sum (decimal integer text, or ``float.hex`` of inf/nan); see ``_exactsum``."""
        text = self._d[key] if value is None else value
        if not isinstance(text, str) or not 0 < len(text) <= _MAX_SUM_DIGITS:
            raise self.fail(key, f"must be an exact-sum string, got {_show(text)}")
        out: int | float
        if text.lstrip("-").isdigit() and text.lstrip("-").isascii():
            out = int(text)
        else:
            try:
                out = float.fromhex(text)
            except (ValueError, OverflowError):
                raise self.fail(key, f"is not an exact-sum string: {_show(text)}") from None
            if math.isfinite(out):
                raise self.fail(key, f"holds a finite float {text!r}; exact sums are integers")
        if nonneg and out < 0:
            raise self.fail(key, f"must not be negative, got {text[:30]}")
        return out

    def maybe_array(self, key: str, kind: str, **checks: Any) -> AnyArray | None:
        """:meth:`array`, or ``None`` when the field is ``None``."""
        return None if self._d[key] is None else self.array(key, kind, **checks)

    def array(
        self, key: str, kind: str, *, ndim: int = 1, finite: bool = False, nonneg: bool = False
    ) -> AnyArray:
        """An array written by ``encode_array``, of ``kind`` "f", "i", "label", "id" or "any".

        "f" is float64, "i" int64, "label" numbers or strings, "id" labels or
        byte strings (ranking ids), "any" whatever ``encode_array`` writes. The declared shape must match the decoded bytes exactly; ``finite`` and
        ``nonneg`` check the values of a numeric array (label floats must be finite).
        """
        value = self._d[key]
        name = self.name(key)
        if isinstance(value, dict) and value.get("dtype") == "str" and kind not in ("f", "i"):
            f = Fields(value, name, ("dtype", "values"))
            values = f.raw("values")
            if not isinstance(values, list) or ndim != 1 or len(values) > MAX_ITEMS:
                raise f.fail("values", "must be a list of strings")
            if not all(isinstance(v, str) for v in values):
                raise f.fail("values", "must hold strings only")
            return np.asarray(values, dtype=str)
        f = Fields(value, name, ("dtype", "shape", "base64"))
        dtype_text = f.raw("dtype")
        is_bytes = (
            kind in ("id", "any")
            and isinstance(dtype_text, str)
            and re.fullmatch(r"\|S[1-9][0-9]{0,5}", dtype_text) is not None
        )
        if not is_bytes and dtype_text not in _DTYPES[kind]:
            allowed = ", ".join(_DTYPES[kind]) + (", str" if kind != "f" and kind != "i" else "")
            raise f.fail("dtype", f"must be one of {allowed}; got {_show(dtype_text)}")
        dtype = np.dtype(dtype_text)
        shape = f.raw("shape")
        if (
            not isinstance(shape, list)
            or len(shape) != ndim
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in shape)
            or math.prod(shape) > MAX_ITEMS
        ):
            raise f.fail("shape", f"must be {ndim} sizes in [0, 2**40]; got {_show(shape)}")
        text = f.raw("base64")
        size = math.prod(shape) * dtype.itemsize
        if not isinstance(text, str) or len(text) != 4 * ((size + 2) // 3):
            raise f.fail("base64", f"must be the base64 text of {size} bytes")
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise f.fail("base64", "is not valid base64") from None
        if len(raw) != size:
            raise f.fail("base64", f"holds {len(raw)} bytes; the shape needs {size}")
        out: AnyArray = (
            np.frombuffer(raw, dtype=dtype).astype(dtype.newbyteorder("=")).reshape(shape)
        )
        if out.dtype.kind == "f" and (finite or kind == "label") and not np.isfinite(out).all():
            raise StateError(f"{name} holds NaN or infinite values")
        if nonneg and out.size and out.min() < 0:
            raise StateError(f"{name} holds negative values")
        return out


def check_decreasing(a: AnyArray, name: str) -> None:
    """Raise unless ``a`` is strictly decreasing."""
    if a.size > 1 and not np.all(a[1:] < a[:-1]):
        raise StateError(f"{name} must be strictly decreasing")


def check_increasing(a: AnyArray, name: str) -> None:
    """Raise unless ``a`` is strictly increasing (sorted distinct labels, offsets, ...)."""
    if a.size > 1 and not np.all(a[1:] > a[:-1]):
        raise StateError(f"{name} must be strictly increasing")


def check_lengths(name: str, **arrays: AnyArray) -> int:
    """Raise unless the named arrays have one length; return it."""
    sizes = {k: int(v.shape[0]) for k, v in arrays.items()}
    if len(set(sizes.values())) > 1:
        raise StateError(f"{name}: fields differ in length ({sizes})")
    return next(iter(sizes.values()))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def exact_part(fields: Fields, key: str, n: int, pos: AnyArray, neg: AnyArray) -> Any:
    """The exact per-entry class weights of a curve state (or ``None``), checked field by field.

    ``index`` must be strictly increasing codes of the ``n`` curve entries; the
    limb sums must be a well-formed table of two segments per entry, and each
    must round to the float weight the state stores (``pos``/``neg``) — a state
    whose exact and rounded parts disagree is corrupt.
    """
    from .._limbs import SegmentSums
    from ..classification._curve_exact import ExactPart

    raw = fields.raw(key)
    if raw is None:
        return None
    part = Fields(raw, fields.name(key), ("index", "sums"))
    index = part.array("index", "i")
    if index.size and (index.min() < 0 or index.max() >= n or (np.diff(index) <= 0).any()):
        raise part.fail("index", f"must be strictly increasing entries in [0, {n})")
    sums = Fields(part.raw("sums"), part.name("sums"), ("low", "limbs", "special"))
    low = sums.integer("low", -(2**20), 2**20)
    special_text = sums.raw("special")
    limbs_raw = sums.raw("limbs")
    if not isinstance(special_text, list) or len(special_text) != 2 * index.size:
        raise sums.fail("special", f"must hold {2 * index.size} float.hex strings")
    if not isinstance(limbs_raw, list) or len(limbs_raw) != 2 * index.size:
        raise sums.fail("limbs", f"must hold {2 * index.size} rows")
    try:
        special = np.array([float.fromhex(v) for v in special_text], dtype=np.float64)
        limbs = np.array(limbs_raw, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise sums.fail(
            "limbs", "must be rows of integers (and special float.hex strings)"
        ) from None
    if limbs.ndim != 2 or limbs.shape[1] > 80:
        raise sums.fail("limbs", f"must be a table of at most 80 limbs per row, got {limbs.shape}")
    exact = ExactPart(index, SegmentSums(low, limbs, special))
    p, q = exact.rounded()
    if not (np.array_equal(p, pos[index]) and np.array_equal(q, neg[index])):
        raise part.fail("sums", "do not round to the state's weights (corrupt state)")
    return exact
