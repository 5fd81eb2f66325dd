"""What every accumulator shares: pending merges, merge checks, pickling and the JSON-safe dict.

An accumulator holds the state of one metric family (a frozen dataclass of
arrays from the family's kernel module). ``update`` turns a chunk into a state
with the family's chunk kernel and pushes it on a small stack of pending
states; states of similar size are merged at once with the family's merge
kernel (a binary counter, so a state that grows with the data is not
re-merged in full at every chunk), and everything is folded into one state
before a metric is read, the accumulator is merged, pickled or turned into a
dict. With unit weights every sum in a state is an integer, so the order of
merges does not change the result.

``to_dict`` gives ``{"type", "version", "params", "state"}`` made of dicts,
lists, strings, ints, bools and ``None`` only (``json.dumps`` works).
Numeric arrays are stored as base64 of their little-endian bytes and floats
as ``float.hex`` strings, so values (``nan`` and ``inf`` too) round-trip bit
for bit; string labels are stored as lists.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from .._errors import ParameterError, ScorekitError, StateError
from .._typing import AnyArray
from ._statecheck import Fields

__all__: list[str] = []

S = TypeVar("S")
A = TypeVar("A", bound="Accumulator")

_FORMAT_VERSION = 1


class _MergeStack(Generic[S]):
    """Pending states, merged like a binary counter; :meth:`fold` gives the one merged state."""

    __slots__ = ("_merge", "_size", "_stack")

    def __init__(self, merge: Callable[[S, S], S], size: Callable[[S], int]) -> None:
        self._merge = merge
        self._size = size
        self._stack: list[S] = []

    def push(self, state: S) -> None:
        stack = self._stack
        stack.append(state)
        while len(stack) >= 2 and self._size(stack[-2]) <= 2 * self._size(stack[-1]):
            top = stack.pop()
            stack[-1] = self._merge(stack[-1], top)

    def fold(self) -> S | None:
        stack = self._stack
        if not stack:
            return None
        state = stack[-1]
        for below in reversed(stack[:-1]):
            state = self._merge(below, state)
        stack[:] = [state]
        return state

    def replace(self, state: S | None) -> None:
        self._stack[:] = [] if state is None else [state]


class Accumulator:
    """Base of the ``scorekit.stream`` accumulators (not used directly).

    Subclasses define ``_merge_state`` (the family's merge kernel),
    ``_state_size``, ``_params`` (the constructor's keyword arguments as a
    JSON-safe dict: ``cls(**acc._params())`` is an empty twin, and merging
    needs equal params), ``_state_to_dict`` / ``_state_from_dict``, and may
    extend ``_absorb`` (merge another accumulator) and ``_flush`` (rows
    buffered by ``update``).
    """

    _kind: ClassVar[str] = "Accumulator"

    def __init__(self) -> None:
        self._pending: _MergeStack[Any] = _MergeStack(self._merge_state, self._state_size)

    # -- to be defined by subclasses ------------------------------------------------

    def _merge_state(self, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def _state_size(self, state: Any) -> int:
        raise NotImplementedError

    def _params(self) -> dict[str, Any]:
        raise NotImplementedError

    def _absorb(self, other: Any) -> None:
        """Merge ``other`` (same class and options) into ``self``."""
        state = other._state()
        if state is not None:
            self._pending.push(state)

    def _flush(self) -> None:
        """Turn rows buffered by ``update`` (if any) into a pending state."""

    def _state_to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------------

    def _state(self) -> Any:
        """The merged state (``None`` before the first non-empty update)."""
        self._flush()
        return self._pending.fold()

    def merge(self: A, other: A) -> A:
        """Add the data seen by ``other`` (an accumulator of the same kind and options); returns self.

        ``other`` is not modified.
        """
        if type(other) is not type(self):
            raise ParameterError(
                f"cannot merge a {type(other).__name__} into a {type(self).__name__}"
            )
        if other._params() != self._params():
            raise ParameterError(
                f"cannot merge {type(self).__name__} accumulators built with different "
                f"options: {self._params()} and {other._params()}"
            )
        self._absorb(other)
        return self

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of the options and the state; :meth:`from_dict` rebuilds the accumulator."""
        return {
            "type": self._kind,
            "version": _FORMAT_VERSION,
            "params": self._params(),
            "state": self._state_to_dict(),
        }

    @classmethod
    def from_dict(cls: type[A], d: dict[str, Any]) -> A:
        """Rebuild an accumulator from :meth:`to_dict` output (after ``json.loads`` too).

        Every field is checked (type, shape, dtype, sortedness, signs, sizes,
        consistency); a malformed dict raises :class:`~scorekit.StateError`
        naming the field. This, not unpickling, is the way to accept a state
        from an untrusted source.
        """
        if not isinstance(d, dict) or d.get("type") != cls._kind:
            found = d.get("type") if isinstance(d, dict) else type(d).__name__
            raise StateError(f"from_dict expects a dict made by {cls._kind}.to_dict, got {found!r}")
        top = Fields(d, cls._kind, ("type", "version", "params", "state"))
        if d["version"] != _FORMAT_VERSION or isinstance(d["version"], bool):
            raise StateError(
                f"{cls._kind} dict has version {d['version']!r}; this scorekit reads "
                f"version {_FORMAT_VERSION}"
            )
        params = top.raw("params")
        if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
            raise top.fail("params", "must be a dict of keyword arguments")
        try:
            obj = cls(**params)
        except ScorekitError as exc:
            raise StateError(f"{cls._kind}.params: {exc}") from None
        except (TypeError, ValueError, OverflowError) as exc:
            raise StateError(f"{cls._kind}.params are not valid: {exc}") from None
        obj._state_from_dict(top.raw("state"))
        return obj

    def __getstate__(self) -> dict[str, Any]:
        merged = self._state()
        state = self.__dict__.copy()
        state["_pending"] = merged
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        merged = state.pop("_pending")
        self.__dict__.update(state)
        self._pending = _MergeStack(self._merge_state, self._state_size)
        self._pending.replace(merged)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self._params().items())
        return f"{type(self).__name__}({params})"


# ---------------------------------------------------------------- JSON-safe encoding


def encode_array(a: AnyArray) -> dict[str, Any]:
    """A JSON-safe dict holding ``a`` exactly (numbers and bytes as base64, strings as a list).

    >>> encode_array(np.array(["a", "b"]))
    {'dtype': 'str', 'values': ['a', 'b']}
    >>> encode_array(np.array([1.5]))["base64"]
    'AAAAAAAA+D8='
    """
    a = np.asarray(a)
    if a.dtype.kind in "biufS":
        little = a.dtype.newbyteorder("<")
        raw = np.ascontiguousarray(a, dtype=little).tobytes()
        return {
            "dtype": little.str,
            "shape": list(a.shape),
            "base64": base64.b64encode(raw).decode("ascii"),
        }
    if a.dtype.kind == "U":
        return {"dtype": "str", "values": a.tolist()}
    if a.dtype.kind == "O" and all(isinstance(v, str) for v in a.ravel().tolist()):
        return {"dtype": "str", "values": a.astype(str).tolist()}
    raise ParameterError(f"arrays of dtype {a.dtype} cannot be written to a JSON-safe dict")


def decode_array(d: Any, name: str = "array") -> AnyArray:
    """The array stored by :func:`encode_array`, checked (:class:`~scorekit.StateError` if not).

    >>> decode_array(encode_array(np.array([0.1, np.nan]))).tolist()
    [0.1, nan]
    """
    return Fields({"value": d}, name, ("value",)).array("value", "any")


def encode_float(x: float) -> str:
    """``float.hex`` of ``x`` (exact, ``nan`` and ``inf`` included).

    >>> encode_float(0.1)
    '0x1.999999999999ap-4'
    """
    return float(x).hex()


def plain(x: Any) -> Any:
    """``x`` with NumPy scalars and arrays turned into Python values (for ``_params``).

    >>> plain(np.int64(3)), plain(np.array([1, 2]))
    (3, [1, 2])
    """
    if isinstance(x, (np.generic, np.ndarray)):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x
