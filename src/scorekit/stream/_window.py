r"""Online monitoring: the metric of the last N rows (``Windowed``) or of decayed rows (``Decayed``).

Both wrap an empty accumulator of :mod:`scorekit.stream` (``BinaryCurve()``,
``GroupedCurve()``, ``Calibration()``, ``ConfusionMatrix()``,
``RegressionMoments()``, ``RegressionLosses()``; ``Windowed`` also ``Contingency()``) and use only its
public methods (``update``, ``merge``, ``to_dict``, the metric methods), so
every metric of the wrapped accumulator is available, computed by the same
kernels as the one-shot functions. A wrapper rather than a ``window=`` option
on each accumulator: one implementation serves every family, and the
accumulators keep their plain "all rows seen" meaning (TorchRec's lifetime
metrics; the wrappers are its windowed metrics).

``Windowed(acc, window=N)``: the value is the one-shot metric of exactly the
last ``N`` rows passed to ``update`` (rows dropped by ``nan_policy="omit"``
count as rows), as TorchRec's ``window_size``. It keeps the rows of the
window, at most ``N`` (the oldest chunk is cut to the rows still inside),
never all rows; each chunk is checked by the wrapped accumulator when it
arrives, and a read feeds the window's rows, joined into one block, to a
fresh accumulator (cached until the next ``update``): the cost of the
one-shot function on ``N`` rows. (Keeping one state per chunk and merging
them at each read was measured 3-5 times slower: merging ``N / chunk``
states costs more than sorting ``N`` rows once.)

``Decayed(acc, decay=d)``: every row keeps its weight ``w`` times
``d**age``. With ``per="chunk"`` (default) ``age`` is the number of non-empty
chunks passed to ``update`` after the row's chunk (the newest chunk has
weight ``w``, the one before ``d·w``, ...); with ``per="row"`` it is the
number of rows passed after the row. ``half_life=h`` is ``d = 2**(-1/h)``.
The value equals the one-shot metric with those weights. Implementation: the
metrics are ratios of weighted sums, unchanged when every weight is
multiplied by one constant, so a row of age position ``i`` is fed with weight
``w·d**-(i − i0)`` (growing, never rescaling a state) to an inner
accumulator started at position ``i0``. To keep those factors below 2**128,
a second accumulator starts when the factor reaches 2**64 and replaces the
first when it reaches 2**128: a row is dropped only when its decayed weight
is below 2**-64 of the newest row's (always when below 2**-128). The value
is then the one-shot metric, with the decayed weights, of the rows kept: the
dropped weight is below double rounding for sums, but a metric that is a
ratio within a class or group does not see it vanish — when every negative
of a stream (or of a GAUC group) is that old, the one-shot AUC with the
decayed weights is still defined by them, the decayed one is not (tested). Methods that return
weight sums rather than ratios (``Calibration.counts``, ``threshold_table``
counts, confusion-matrix cells) give them times that unspecified constant:
read ratios from a ``Decayed``.

Neither wrapper merges: the last ``N`` rows, or the age of a row, are
defined by the order of one stream, and two streams have no common order.
Merge the plain accumulators (lifetime values) instead, or window the merged
stream. Both pickle and round-trip through ``to_dict`` / ``from_dict``
(checked: :class:`~scorekit.StateError` naming the field).
"""

from __future__ import annotations

import math
import warnings
from collections import deque
from typing import Any

import numpy as np

from .._errors import (
    LabelError,
    LengthMismatchError,
    OmittedRowsWarning,
    ParameterError,
    ScorekitError,
    StateError,
)
from .._typing import AnyArray, ArrayLike
from ._base import _FORMAT_VERSION, Accumulator, decode_array, encode_array, encode_float
from ._binary import BinaryCurve
from ._calibration import Calibration
from ._clustering import Contingency
from ._confusion import ConfusionMatrix
from ._grouped import GroupedCurve
from ._regression import RegressionMoments
from ._regression_losses import RegressionLosses
from ._statecheck import MAX_ITEMS, Fields

__all__ = ["Decayed", "Windowed"]

_WEIGHTED: dict[str, type[Accumulator]] = {
    c._kind: c
    for c in (
        BinaryCurve,
        Calibration,
        ConfusionMatrix,
        GroupedCurve,
        RegressionLosses,
        RegressionMoments,
    )
}
_ROWWISE: dict[str, type[Accumulator]] = {**_WEIGHTED, "Contingency": Contingency}

#: log2 of the weight factor at which a second inner accumulator starts (Decayed) ...
_START_BITS = 64.0
#: ... and at which it replaces the first.
_SWAP_BITS = 128.0


def _template(acc: Any, allowed: dict[str, type[Accumulator]], who: str) -> Accumulator:
    kind = getattr(type(acc), "_kind", None)
    if not isinstance(acc, Accumulator) or kind not in allowed or type(acc) is not allowed[kind]:
        names = ", ".join(f"{k}()" for k in allowed)
        raise ParameterError(f"{who} wraps an empty accumulator ({names}), got {acc!r}")
    if acc._state() is not None:
        raise ParameterError(f"{who} wraps an empty accumulator; {acc!r} has seen rows")
    return acc


def _twin(acc: Accumulator) -> Accumulator:
    """An empty accumulator with ``acc``'s options."""
    return type(acc)(**acc._params())


def _no_merge(who: str) -> ParameterError:
    return ParameterError(
        f"{who} accumulators do not merge: which rows are the newest is defined by the order "
        "of one stream, and two streams have no common order; merge the plain accumulators "
        "(lifetime values) or feed the merged stream to one wrapper"
    )


def _fill(
    acc: Accumulator, arrays: tuple[AnyArray, ...], w: ArrayLike | None, *, again: bool = False
) -> None:
    """``acc.update(*arrays)``, with ``sample_weight=w`` when given.

    ``again``: these rows were fed before, and their omitted rows already reported
    (``OmittedRowsWarning`` is not repeated).
    """
    with warnings.catch_warnings():
        if again:
            warnings.simplefilter("ignore", OmittedRowsWarning)
        if w is None:
            acc.update(*arrays)  # type: ignore[attr-defined]
        else:
            acc.update(*arrays, sample_weight=w)  # type: ignore[attr-defined]


def _delegate(obj: Any, name: str) -> Any:
    if name.startswith("_") or name in ("update", "merge"):
        raise AttributeError(name)
    return getattr(obj._current(), name)


class Windowed:
    """The metrics of the last ``window`` rows of a stream, exactly (TorchRec's windowed metrics).

    ``update(...)`` takes the arguments of the wrapped accumulator's
    ``update``; every metric method of the wrapped accumulator
    (``roc_auc()``, ``gauc()``, ``pcoc()``, ...) returns the one-shot value
    of exactly the last ``window`` rows passed. Holds at most ``window``
    rows (see :mod:`scorekit.stream._window`).

    Parameters
    ----------
    accumulator : Accumulator
        An empty ``BinaryCurve``, ``GroupedCurve``, ``Calibration``,
        ``ConfusionMatrix``, ``RegressionMoments``, ``RegressionLosses`` or ``Contingency`` (its
        options apply to the window).
    window : int
        Rows in the window (>= 1).

    Examples
    --------
    The last 4 rows: positives scored 0.2 and 0.35, negatives 0.8 and 0.1:

    >>> from scorekit.stream import BinaryCurve
    >>> win = Windowed(BinaryCurve(), window=4)
    >>> win.update([0, 1], [0.9, 0.2]).update([1, 0, 0], [0.35, 0.8, 0.1]).roc_auc()
    0.5
    """

    _kind = "Windowed"

    def __init__(self, accumulator: Accumulator, *, window: int) -> None:
        self._template = _template(accumulator, _ROWWISE, "Windowed")
        if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1:
            raise ParameterError(f"window must be an integer >= 1 (rows), got {window!r}")
        self.window = int(window)
        self._weighted = type(accumulator)._kind in _WEIGHTED
        # blocks of rows, oldest first: (arrays of the update arguments, sample_weight or None)
        self._blocks: deque[tuple[tuple[AnyArray, ...], AnyArray | None]] = deque()
        self._rows = 0
        self._cache: Accumulator | None = None

    @property
    def accumulator(self) -> Accumulator:
        """An empty twin of the wrapped accumulator (its kind and options)."""
        return _twin(self._template)

    @property
    def n_rows(self) -> int:
        """Rows in the window now (``window`` once that many were seen)."""
        return self._rows

    def update(self, *rows: ArrayLike, sample_weight: ArrayLike | None = None) -> Windowed:
        """Add a chunk (the wrapped accumulator's ``update`` arguments); returns self.

        The chunk is checked by the wrapped accumulator before anything is kept.
        """
        arrays = tuple(np.asarray(r) for r in rows)
        w = None if sample_weight is None else np.asarray(sample_weight)
        if w is not None and not self._weighted:
            raise ParameterError(f"{self._template._kind} takes no sample_weight")
        _fill(_twin(self._template), arrays, w)  # the accumulator's own checks
        n = int(arrays[0].shape[0]) if arrays and arrays[0].ndim else 0
        if n == 0:
            return self
        self._check_kinds(arrays)
        keep = min(n, self.window)  # copies: the caller may reuse its arrays
        arrays = tuple(a[n - keep :].copy() for a in arrays)
        w = None if w is None else w[n - keep :].copy()
        self._blocks.append((arrays, w))
        self._rows += keep
        while self._rows - self._blocks[0][0][0].shape[0] >= self.window:
            self._rows -= self._blocks.popleft()[0][0].shape[0]
        extra = self._rows - self.window
        if extra > 0:  # the oldest block is cut to the rows still in the window
            old, old_w = self._blocks[0]
            self._blocks[0] = (
                tuple(a[extra:] for a in old),
                None if old_w is None else old_w[extra:],
            )
            self._rows -= extra
        self._cache = None
        return self

    def _check_kinds(self, arrays: tuple[AnyArray, ...]) -> None:
        """Strings in one chunk and numbers in another would be cast when rows are joined."""
        if not self._blocks:
            return
        for i, (a, b) in enumerate(zip(arrays, self._blocks[-1][0], strict=False)):
            if (a.dtype.kind in "USO") != (b.dtype.kind in "USO"):
                raise LabelError(
                    f"argument {i + 1} of update has strings in one chunk and numbers in another"
                )

    def _joined(self) -> tuple[tuple[AnyArray, ...], AnyArray | None]:
        """The rows of the window as one block (kept so: the next read joins less)."""
        blocks = self._blocks
        if len(blocks) > 1:
            arrays = tuple(map(np.concatenate, zip(*(b[0] for b in blocks), strict=True)))
            weights = None
            if any(b[1] is not None for b in blocks):
                weights = np.concatenate(
                    [np.ones(b[0][0].shape[0]) if b[1] is None else b[1] for b in blocks]
                )
            blocks.clear()
            blocks.append((arrays, weights))
        return blocks[0] if blocks else ((), None)

    def _current(self) -> Accumulator:
        if self._cache is None:
            acc = _twin(self._template)
            arrays, w = self._joined()
            if arrays:
                _fill(acc, arrays, w, again=True)
            self._cache = acc
        return self._cache

    def __getattr__(self, name: str) -> Any:
        return _delegate(self, name)

    def merge(self, other: Any) -> Windowed:
        """Refused: raises :class:`~scorekit.ParameterError` (see the module docstring)."""
        raise _no_merge("Windowed")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: the wrapped accumulator's kind and options, the rows of the window."""
        arrays, w = self._joined()
        return {
            "type": self._kind,
            "version": _FORMAT_VERSION,
            "params": {"window": self.window, "accumulator": _inner_params(self._template)},
            "state": {
                "rows": [encode_array(a) for a in arrays],
                "sample_weight": None if w is None else encode_array(w),
            },
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Windowed:
        """Rebuild from :meth:`to_dict` output; every field is checked (:class:`~scorekit.StateError`)."""
        params, state = _open(d, cls._kind)
        p = Fields(params, f"{cls._kind}.params", ("window", "accumulator"))
        window = p.integer("window", 1, MAX_ITEMS)
        obj = cls(_inner_template(p, _ROWWISE), window=window)
        s = Fields(state, f"{cls._kind}.state", ("rows", "sample_weight"))
        rows = s.raw("rows")
        if not isinstance(rows, list):
            raise s.fail("rows", "must be a list of arrays")
        if not rows:
            return obj
        arrays = [decode_array(r, s.name(f"rows[{j}]")) for j, r in enumerate(rows)]
        w = s.maybe_array("sample_weight", "any")
        n = arrays[0].shape[0] if arrays[0].ndim else 0
        if n > window:
            raise s.fail("rows", f"hold {n} rows, more than window={window}")
        try:
            obj.update(*arrays, sample_weight=w)
        except (ScorekitError, TypeError) as exc:
            raise StateError(f"{s.name('rows')}: {exc}") from None
        return obj

    def __getstate__(self) -> dict[str, Any]:
        self._joined()
        state = self.__dict__.copy()
        state["_cache"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return f"Windowed({self._template!r}, window={self.window})"


class Decayed:
    """The metrics of a stream whose row weights decay geometrically with age.

    A row of weight ``w`` counts ``w·decay**age``: ``age`` is the number of
    later non-empty chunks (``per="chunk"``) or later rows (``per="row"``).
    Every metric method of the wrapped accumulator returns the one-shot value
    with those weights (see :mod:`scorekit.stream._window` for how, and for
    the 2**-64 cut-off of very old rows). Memory is that of the wrapped
    accumulator (at most two of them).

    Parameters
    ----------
    accumulator : Accumulator
        An empty ``BinaryCurve``, ``GroupedCurve``, ``Calibration``,
        ``ConfusionMatrix``, ``RegressionMoments`` or ``RegressionLosses``.
    decay : float, default=None
        The factor ``d`` in (0, 1] (1: no decay). Give ``decay`` or ``half_life``.
    half_life : float, default=None
        Age (in chunks or rows) at which a weight halves: ``d = 2**(-1/half_life)``.
    per : {"chunk", "row"}, default="chunk"
        What ``age`` counts.

    Examples
    --------
    The older chunk counts one half: AUC of the weights 0.5, 0.5, 1, 1.

    >>> from scorekit.stream import BinaryCurve
    >>> acc = Decayed(BinaryCurve(), decay=0.5)
    >>> acc.update([0, 1], [0.9, 0.2]).update([1, 0], [0.8, 0.1]).roc_auc()
    0.6666666666666666
    """

    _kind = "Decayed"

    def __init__(
        self,
        accumulator: Accumulator,
        *,
        decay: float | None = None,
        half_life: float | None = None,
        per: str = "chunk",
    ) -> None:
        self._template = _template(accumulator, _WEIGHTED, "Decayed")
        if (decay is None) == (half_life is None):
            raise ParameterError("Decayed needs exactly one of decay= and half_life=")
        if half_life is not None:
            h = _real(half_life, "half_life")
            if not h > 0:
                raise ParameterError(f"half_life must be > 0, got {half_life!r}")
            decay = 2.0 ** (-1.0 / h)
        d = _real(decay, "decay")
        if not 0 < d <= 1:
            raise ParameterError(f"decay must be in (0, 1], got {decay!r}")
        if per not in ("chunk", "row"):
            raise ParameterError(f"per must be 'chunk' or 'row', got {per!r}")
        self.decay = d
        self.per = per
        self._bits = -math.log2(d)  # log2 of the growth of the weight factor per step
        self._count = 0  # chunks or rows seen (the position of the next one)
        # inner accumulators and their start positions, oldest first (one or two)
        self._epochs: list[tuple[int, Accumulator]] = [(0, _twin(self._template))]

    @property
    def accumulator(self) -> Accumulator:
        """An empty twin of the wrapped accumulator (its kind and options)."""
        return _twin(self._template)

    def update(self, *rows: ArrayLike, sample_weight: ArrayLike | None = None) -> Decayed:
        """Add a chunk (the wrapped accumulator's ``update`` arguments); returns self.

        The chunk is checked by the wrapped accumulator (all epochs, or none, take it).
        """
        arrays = tuple(np.asarray(r) for r in rows)
        n = int(arrays[0].shape[0]) if arrays and arrays[0].ndim else 0
        if n == 0:  # let the accumulator check it (empty chunks are no-ops there)
            self._feed(self._epochs, arrays, sample_weight, 0, 0)
            return self
        w = None if sample_weight is None else _weights(sample_weight, n)
        if self.per == "chunk":
            self._step(arrays, w, 0, n, self._count)
            self._count += 1
            return self
        # per row: rows older than _SWAP_BITS are dropped at once (weight < 2**-128 of the
        # newest), and the rest go in pieces whose factors span at most _START_BITS / 2
        first, step = 0, n
        if self._bits > 0:
            first = max(0, n - math.ceil(_SWAP_BITS / self._bits) - 1)
            step = max(1, int(_START_BITS / 2 / self._bits))
        if first or step < n:  # several pieces: the whole chunk is checked before any is kept
            _fill(_twin(self._template), arrays, w)
        for start in range(first, n, step):
            stop = min(n, start + step)
            self._step(arrays, w, start, stop, self._count + start)
        self._count += n
        return self

    def _step(
        self, arrays: tuple[AnyArray, ...], w: AnyArray | None, start: int, stop: int, pos: int
    ) -> None:
        """Feed rows ``start:stop`` (positions ``pos, pos + 1, ...``) to the epochs."""
        last = pos + (stop - start - 1 if self.per == "row" else 0)
        epochs = self._epochs

        def older_than(epoch: tuple[int, Accumulator], bits: float) -> bool:
            return (last - epoch[0]) * self._bits >= bits

        while len(epochs) > 1 and older_than(epochs[0], _SWAP_BITS):
            del epochs[0]
        if older_than(epochs[-1], _START_BITS):
            epochs.append((pos, _twin(self._template)))
        while len(epochs) > 1 and older_than(epochs[0], _SWAP_BITS):
            del epochs[0]
        piece = (
            arrays
            if (start, stop) == (0, arrays[0].shape[0])
            else tuple(a[start:stop] for a in arrays)
        )
        piece_w = None if w is None else w[start:stop]
        self._feed(epochs, piece, piece_w, pos, stop - start)

    def _feed(
        self,
        epochs: list[tuple[int, Accumulator]],
        rows: tuple[AnyArray, ...],
        w: ArrayLike | None,
        pos: int,
        n: int,
    ) -> None:
        twins = []
        for i, (begin, acc) in enumerate(epochs):
            if n == 0:
                weights = w
            else:
                ages = (
                    np.full(n, pos - begin) if self.per == "chunk" else pos - begin + np.arange(n)
                )
                factor = np.exp2(ages * self._bits)
                weights = factor if w is None else np.asarray(w) * factor
            twin = _twin(acc)
            _fill(twin, rows, weights, again=i > 0)
            twins.append(twin)
        for (_, acc), twin in zip(epochs, twins, strict=True):  # every epoch took the rows
            acc.merge(twin)

    def _current(self) -> Accumulator:
        return self._epochs[0][1]

    def __getattr__(self, name: str) -> Any:
        return _delegate(self, name)

    def merge(self, other: Any) -> Decayed:
        """Refused: raises :class:`~scorekit.ParameterError` (see the module docstring)."""
        raise _no_merge("Decayed")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: options, the position count and the inner accumulators' dicts."""
        return {
            "type": self._kind,
            "version": _FORMAT_VERSION,
            "params": {
                "decay": encode_float(self.decay),
                "per": self.per,
                "accumulator": _inner_params(self._template),
            },
            "state": {
                "count": self._count,
                "epochs": [{"start": s, "state": acc.to_dict()} for s, acc in self._epochs],
            },
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decayed:
        """Rebuild from :meth:`to_dict` output; every field is checked (:class:`~scorekit.StateError`)."""
        params, state = _open(d, cls._kind)
        p = Fields(params, f"{cls._kind}.params", ("decay", "per", "accumulator"))
        decay = p.real("decay", nan=False)
        per = p.raw("per")
        try:
            obj = cls(_inner_template(p, _WEIGHTED), decay=decay, per=per)
        except ScorekitError as exc:
            raise StateError(f"{cls._kind}.params: {exc}") from None
        s = Fields(state, f"{cls._kind}.state", ("count", "epochs"))
        count = s.integer("count", 0, 1 << 62)
        epochs = s.raw("epochs")
        if not isinstance(epochs, list) or len(epochs) not in (1, 2):
            raise s.fail("epochs", "must be a list of one or two epochs")
        kind = type(obj._template)
        out: list[tuple[int, Accumulator]] = []
        for i, e in enumerate(epochs):
            f = Fields(e, s.name(f"epochs[{i}]"), ("start", "state"))
            start = f.integer("start", out[-1][0] + 1 if out else 0, count)
            acc = kind.from_dict(f.raw("state"))
            if acc._params() != obj._template._params():
                raise f.fail("state", "has options different from params.accumulator")
            out.append((start, acc))
        obj._count, obj._epochs = count, out
        return obj

    def __repr__(self) -> str:
        return f"Decayed({self._template!r}, decay={self.decay!r}, per={self.per!r})"


# ---------------------------------------------------------------- helpers


def _weights(sample_weight: ArrayLike, n: int) -> AnyArray:
    """``sample_weight`` as a float array of ``n`` rows (values are checked by the accumulator)."""
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError("sample_weight must hold numbers") from None
    if w.shape != (n,):
        raise LengthMismatchError(
            f"sample_weight has shape {w.shape}; the chunk has {n} rows (shape ({n},) expected)"
        )
    return w


def _real(x: Any, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise ParameterError(f"{name} must be a number, got {x!r}")
    value = float(x)
    if not math.isfinite(value):
        raise ParameterError(f"{name} must be finite, got {x!r}")
    return value


def _inner_params(acc: Accumulator) -> dict[str, Any]:
    return {"type": acc._kind, "params": acc._params()}


def _inner_template(p: Fields, allowed: dict[str, type[Accumulator]]) -> Accumulator:
    inner = p.sub("accumulator", ("type", "params"))
    if inner is None:  # not optional: never None
        raise p.fail("accumulator", "is missing")
    kind = inner.raw("type")
    if kind not in allowed:
        raise inner.fail("type", f"must be one of {sorted(allowed)}, got {kind!r}")
    params = inner.raw("params")
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise inner.fail("params", "must be a dict of keyword arguments")
    try:
        return allowed[kind](**params)
    except ScorekitError as exc:
        raise StateError(f"{inner.name('params')}: {exc}") from None
    except (TypeError, ValueError, OverflowError) as exc:
        raise StateError(f"{inner.name('params')} are not valid: {exc}") from None


def _open(d: Any, kind: str) -> tuple[Any, Any]:
    if not isinstance(d, dict) or d.get("type") != kind:
        found = d.get("type") if isinstance(d, dict) else type(d).__name__
        raise StateError(f"from_dict expects a dict made by {kind}.to_dict, got {found!r}")
    top = Fields(d, kind, ("type", "version", "params", "state"))
    if d["version"] != _FORMAT_VERSION or isinstance(d["version"], bool):
        raise StateError(f"{kind} dict has version {d['version']!r}; this reads {_FORMAT_VERSION}")
    return top.raw("params"), top.raw("state")
