r"""Exact sums of float64 values per segment (or bin), on a grid of 32-bit integer limbs.

A finite double is ``m · 2**s`` units of ``2**-1074`` (``m < 2**53`` its integer
significand, ``s = max(E, 1) − 1`` from its exponent field ``E``). With
``s = 32·k + r``, ``m · 2**r`` has at most 84 bits and lands on global limbs ``k``,
``k+1`` and ``k+2`` as three chunks below ``2**32``. Chunks are added per segment and
per limb in int64 (exact while fewer than ``2**29`` rows are added at once), then
carries are propagated: every limb but the top one ends in ``[0, 2**32)`` and the top
one carries the sign (two's complement over the limbs). Only the limb columns the
data use are stored.

:func:`segment_sums` (sorted rows cut at offsets) and :func:`bin_sums` (rows labelled
with a bin) give a :class:`SegmentSums`; states add with :func:`add_segment_sums` or,
keyed, with :func:`merge_keyed`; :func:`round_sums` rounds every segment once,
vectorised; :func:`encode_segment_sums` is the JSON-safe form. Rows are processed in
blocks of ``2**16`` (cache-sized buffers). Many rows in few bins take a faster exact
path first: float sums per (bin, exponent) of the values' high and low 26-bit halves
(:func:`_exponent_bin_sums`), then the limbs over those few bucket totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._errors import StateError
from ._threads import run_two
from ._typing import AnyArray, FloatArray, IntArray

__all__: list[str] = []

#: Exact sums count units of 2**-UNIT_EXP (the smallest subnormal).
UNIT_EXP = 1074

_LIMB = 32
_LIMB_MASK = np.uint64((1 << _LIMB) - 1)
_MAX_ROWS = 1 << 29  # rows added in one int64 pass: 3 chunks < 2**32 per row and limb


@dataclass(frozen=True, slots=True)
class SegmentSums:
    """Exact sums of float64 values per segment, mergeable by integer addition.

    ``limbs[i, j]`` counts units of ``2**(32·(low + j) − 1074)`` for segment ``i``;
    after :func:`normalize_limbs` every column but the last is in ``[0, 2**32)`` and
    the last is signed. ``special[i]`` is the float sum of the segment's inf/nan
    values (``0.0`` when there are none); it overrides the finite sum.
    """

    low: int
    limbs: IntArray
    special: FloatArray

    def __len__(self) -> int:
        """The number of segments."""
        return int(self.limbs.shape[0])


class _Chunks:
    """Chunk buffers for one block of rows (reused: cache-sized, no page faults).

    After :meth:`load`, ``k`` holds each value's global limb index and ``c[0..2]``
    its three signed chunks (zero for inf/nan); ``limbs`` lists the distinct ``k``.
    """

    def __init__(self, size: int) -> None:
        self.buf = np.empty((5, size), np.uint64)
        self.neg = np.empty(size, np.bool_)
        self.size = size

    def load(self, x: FloatArray) -> tuple[IntArray, list[IntArray], list[int], bool]:
        n = x.shape[0]
        bits = x.view(np.uint64)
        e, m, k, c1, c2 = (self.buf[i, :n] for i in range(5))
        np.right_shift(bits, np.uint64(52), out=e)
        np.bitwise_and(e, np.uint64(0x7FF), out=e)  # exponent field E
        np.bitwise_and(bits, np.uint64((1 << 52) - 1), out=m)
        np.minimum(e, np.uint64(1), out=k)
        np.left_shift(k, np.uint64(52), out=k)
        np.bitwise_or(m, k, out=m)  # integer significand (implicit bit when E > 0)
        np.maximum(e, np.uint64(1), out=e)
        np.subtract(e, np.uint64(1), out=e)  # s: the value is m · 2**s units
        np.right_shift(e, np.uint64(5), out=k)
        counts = np.bincount(k.view(np.int64), minlength=64)
        special = bool(counts[63]) and not np.isfinite(x).all()
        if special:
            m[~np.isfinite(x)] = 0
        np.bitwise_and(e, np.uint64(31), out=e)  # r
        np.subtract(np.uint64(32), e, out=c2)  # 32 − r
        np.right_shift(m, c2, out=c1)
        np.bitwise_and(c1, _LIMB_MASK, out=c1)
        np.left_shift(m, e, out=e)
        np.bitwise_and(e, _LIMB_MASK, out=e)
        np.right_shift(m, np.uint64(32), out=m)
        np.right_shift(m, c2, out=c2)
        np.less(bits.view(np.int64), 0, out=self.neg[:n])
        chunks = [c.view(np.int64) for c in (e, c1, c2)]
        for c in chunks:
            np.negative(c, out=c, where=self.neg[:n])
        return k.view(np.int64), chunks, np.flatnonzero(counts).tolist(), special


_BLOCK = 1 << 16


class _Columns:
    """Limb columns summed so far (global limb index → int64 per segment)."""

    def __init__(self, n_seg: int) -> None:
        self.n_seg = n_seg
        self.cols: dict[int, IntArray] = {}
        self.special = np.zeros(n_seg)

    def add(self, col: int, rows: slice, values: IntArray) -> None:
        if col not in self.cols:
            self.cols[col] = np.zeros(self.n_seg, np.int64)
        self.cols[col][rows] += values

    def finish(self) -> SegmentSums:
        if not self.cols:
            return SegmentSums(0, np.zeros((self.n_seg, 0), np.int64), self.special)
        low, high = min(self.cols), max(self.cols)
        limbs = np.zeros((self.n_seg, high - low + 1), np.int64)
        for col, values in self.cols.items():
            limbs[:, col - low] = values
        return _finish(low, limbs, self.special)


def segment_sums(x: FloatArray, starts: IntArray) -> SegmentSums:
    """Exact sums of ``x[starts[i]:starts[i + 1]]`` (the last segment runs to the end).

    ``starts`` are non-decreasing offsets, as for ``np.add.reduceat`` — but an empty
    segment sums to 0 here. Blocks of 2**16 rows; one int64 ``reduceat`` per chunk
    and distinct limb of the block.

    >>> s = segment_sums(np.array([1e100, 1.0, -1e100, 0.1, 0.2]), np.array([0, 3]))
    >>> round_sums(s).tolist()
    [1.0, 0.30000000000000004]
    """
    starts = np.asarray(starts, dtype=np.int64)
    x = np.ascontiguousarray(x, dtype=np.float64)
    n, n_seg = x.shape[0], starts.shape[0]
    if n > _MAX_ROWS:  # split the rows; segments cut in two are merged back exactly
        cut = n // 2
        left = np.minimum(starts, cut)
        right = np.maximum(starts - cut, 0)
        return add_segment_sums(segment_sums(x[:cut], left), segment_sums(x[cut:], right))
    out = _Columns(n_seg)
    if n_seg == 0:
        return out.finish()
    first = int(starts[0])
    chunker = _Chunks(min(_BLOCK, max(n - first, 1)))
    for a in range(first, n, _BLOCK):
        b = min(a + _BLOCK, n)
        i0 = int(np.searchsorted(starts, a, side="right")) - 1
        i1 = int(np.searchsorted(starts, b, side="left"))
        local = np.maximum(starts[i0:i1] - a, 0)
        k, chunks, present, special = chunker.load(x[a:b])
        rows = slice(i0, i1)
        for kv in present:
            mask = None if len(present) == 1 else k != kv
            for d, c in enumerate(chunks):
                part = c if mask is None else np.where(mask, 0, c)
                out.add(kv + d, rows, np.add.reduceat(part, local))
        if special:
            out.special[rows] += np.add.reduceat(np.where(np.isfinite(x[a:b]), 0.0, x[a:b]), local)
    empty = np.append(starts[1:], n) <= starts
    for values in out.cols.values():
        values[empty] = 0
    out.special[empty] = 0.0
    return out.finish()


def bin_sums(x: FloatArray, bins: IntArray, n_bins: int) -> SegmentSums:
    """Exact sums of ``x`` per bin: segment ``b`` adds every ``x[i]`` with ``bins[i] == b``.

    Many rows in few bins of one sign go by :func:`_exponent_bin_sums` (two float
    ``np.bincount`` per block over (bin, exponent) buckets, exact); otherwise blocks
    of 2**16 rows, per block a float64 ``np.bincount`` of the chunks (below 2**32,
    so exact) added into int64 limbs.

    >>> s = bin_sums(np.array([0.1, 1e100, 0.2, -1e100]), np.array([0, 1, 0, 1]), 3)
    >>> round_sums(s).tolist()
    [0.30000000000000004, 0.0, 0.0]
    """
    bins = np.asarray(bins, dtype=np.int64)
    x = np.ascontiguousarray(x, dtype=np.float64)
    fast = _exponent_bin_sums(x, bins, n_bins)
    return fast if fast is not None else _limb_bin_sums(x, bins, n_bins)


def _limb_bin_sums(x: FloatArray, bins: IntArray, n_bins: int) -> SegmentSums:
    """:func:`bin_sums` on the limbs, every row (``x`` float64, ``bins`` int64)."""
    n = x.shape[0]
    if n > _MAX_ROWS:
        cut = n // 2
        return add_segment_sums(
            _limb_bin_sums(x[:cut], bins[:cut], n_bins),
            _limb_bin_sums(x[cut:], bins[cut:], n_bins),
        )
    out = _Columns(n_bins)
    chunker = _Chunks(min(_BLOCK, max(n, 1)))
    for a in range(0, n, _BLOCK):
        b = bins[a : a + _BLOCK]
        k, chunks, present, special = chunker.load(x[a : a + _BLOCK])
        lo_bin, hi_bin = int(b.min()), int(b.max()) + 1
        low, width = present[0], present[-1] + 3 - present[0]
        flat = (b - lo_bin) * width + (k - low)
        size = (hi_bin - lo_bin) * width
        block = np.zeros(size + 2, np.int64)
        for d, c in enumerate(chunks):
            block[d : d + size] += np.bincount(flat, c.astype(np.float64), size).astype(np.int64)
        table = block[:size].reshape(hi_bin - lo_bin, width)
        rows = slice(lo_bin, hi_bin)
        for j in range(width):
            out.add(low + j, rows, table[:, j])
        if special:
            xb = x[a : a + _BLOCK]
            out.special += np.bincount(b, np.where(np.isfinite(xb), 0.0, xb), n_bins)
    return out.finish()


_SPLIT = np.uint64(((1 << 64) - 1) ^ ((1 << 26) - 1))  # all bits but the low 26 of the significand
_GRID_BLOCK = 1 << 18
_GRID_MIN_ROWS = 1 << 16  # fewer rows: the limbs directly
_GRID_FLUSH = 1 << 25  # rows per float accumulator: sums of 27-bit integers stay below 2**53
_GRID_PARALLEL_ROWS = 1 << 19  # more rows: two halves on two threads


def _exponent_field(v: float) -> int:
    return int(np.array(v, dtype=np.float64).view(np.uint64)) >> 52 & 0x7FF


def _exponent_bin_sums(x: FloatArray, bins: IntArray, n_bins: int) -> SegmentSums | None:
    """:func:`bin_sums` for many rows in few bins of one sign: float sums per (bin, exponent).

    Clearing the low 26 significand bits splits ``x = hi + lo`` exactly; in the unit
    of a value's exponent field ``E``, ``hi`` is an integer below ``2**27`` and ``lo``
    one below ``2**26``. ``np.bincount`` adds them per (bin, ``E``) bucket in
    float64: exact while fewer than ``2**26`` rows are added (accumulators are
    flushed every ``2**25`` rows; many rows: two halves on two threads, flushed every
    ``2**24`` rows, whose accumulators are then added pairwise, still exact). The few
    bucket totals are then summed per bin
    on the limbs. ``None`` (use the limbs for every row) when the rows are few, not
    all of one sign (zero included), not finite, or the buckets would be many.
    """
    n = x.shape[0]
    if n < _GRID_MIN_ROWS or n_bins == 0:
        return None
    low, high = float(x.min()), float(x.max())
    if not (np.isfinite(low) and np.isfinite(high)) or low <= 0.0 <= high:
        return None
    small, big = (low, high) if low > 0 else (-high, -low)
    e_min, e_max = _exponent_field(small), _exponent_field(big)
    n_e = e_max - e_min + 1
    size = n_bins * n_e
    if size > max(1 << 12, n >> 4):
        return None
    end = size + e_min  # bucket bin · n_e + E: the first e_min entries stay empty
    if n < _GRID_PARALLEL_ROWS:
        accs = _grid_sums(x, bins, n_e, end, low < 0, _GRID_FLUSH)
    else:  # two halves on two threads; their accumulators (2**24 rows each at most) add exactly
        half = n // 2
        mine, theirs = run_two(
            lambda: _grid_sums(x[:half], bins[:half], n_e, end, low < 0, _GRID_FLUSH // 2),
            lambda: _grid_sums(x[half:], bins[half:], n_e, end, low < 0, _GRID_FLUSH // 2),
        )
        k = min(len(mine), len(theirs))
        accs = [a + b for a, b in zip(mine[:k], theirs[:k], strict=True)] + mine[k:] + theirs[k:]
    parts = [acc[:, e_min:].reshape(-1) for acc in accs]
    values = np.concatenate(parts)
    owner = np.tile(np.repeat(np.arange(n_bins, dtype=np.int64), n_e), 2 * len(parts))
    keep = values != 0.0
    return _limb_bin_sums(values[keep], owner[keep], n_bins)


def _grid_sums(
    x: FloatArray, bins: IntArray, n_e: int, end: int, signed: bool, flush: int
) -> list[FloatArray]:
    """The (2, ``end``) accumulators of :func:`_exponent_bin_sums`, one per ``flush`` rows or so.

    An accumulator adds whole blocks until ``flush`` rows or more are in it, so it
    holds fewer than ``flush + 2**18`` rows.
    """
    n = x.shape[0]
    bits = x.view(np.uint64)
    accs: list[FloatArray] = []
    acc = np.zeros((2, end))
    added = 0
    block = min(_GRID_BLOCK, n)
    e_buf, flat_buf = (
        np.empty(block, np.uint64),
        np.empty(block, np.int64),
    )  # reused: no page faults
    for a in range(0, n, block):
        b = min(a + block, n)
        e, flat = e_buf[: b - a], flat_buf[: b - a]
        np.right_shift(bits[a:b], np.uint64(52), out=e)
        if signed:
            e &= np.uint64(0x7FF)
        np.multiply(bins[a:b], n_e, out=flat)
        flat += e.view(np.int64)
        hi = np.bitwise_and(bits[a:b], _SPLIT, out=e).view(np.float64)
        acc[0] += np.bincount(flat, hi, end)
        np.subtract(x[a:b], hi, out=hi)  # lo
        acc[1] += np.bincount(flat, hi, end)
        added += b - a
        if added >= flush:
            accs.append(acc)
            acc, added = np.zeros((2, end)), 0
    if added or not accs:
        accs.append(acc)
    return accs


def normalize_limbs(limbs: IntArray) -> IntArray:
    """Propagate carries in place: columns in ``[0, 2**32)`` but the signed top one."""
    for j in range(limbs.shape[1] - 1):
        carry = limbs[:, j] >> _LIMB
        limbs[:, j] -= carry << _LIMB
        limbs[:, j + 1] += carry
    return limbs


def _finish(low: int, limbs: IntArray, special: FloatArray) -> SegmentSums:
    """The canonical form: normalised, the top limb folded down while it is only a sign.

    Every column but the top one ends in ``[0, 2**32)``, the top one in
    ``[-2**32, 2**32)``; all-zero columns at the bottom are dropped.
    """
    limbs = normalize_limbs(np.concatenate([limbs, np.zeros((limbs.shape[0], 1), np.int64)], 1))
    width = limbs.shape[1]
    while width >= 2 and np.all((limbs[:, width - 1] == 0) | (limbs[:, width - 1] == -1)):
        limbs[:, width - 2] += limbs[:, width - 1] << _LIMB
        width -= 1
    used = np.flatnonzero(limbs[:, :width].any(axis=0))
    if used.size == 0:
        return SegmentSums(0, np.zeros((limbs.shape[0], 0), np.int64), special)
    first = int(used[0])
    return SegmentSums(low + first, np.ascontiguousarray(limbs[:, first:width]), special)


def _aligned(a: SegmentSums, b: SegmentSums) -> tuple[int, IntArray, IntArray]:
    """Both limb tables on one column range (zero columns added where needed)."""
    if a.limbs.shape[1] == 0:
        a = SegmentSums(b.low, np.zeros((len(a), 0), np.int64), a.special)
    if b.limbs.shape[1] == 0:
        b = SegmentSums(a.low, np.zeros((len(b), 0), np.int64), b.special)
    low = min(a.low, b.low)
    high = max(a.low + a.limbs.shape[1], b.low + b.limbs.shape[1])

    def widen(s: SegmentSums) -> IntArray:
        out = np.zeros((len(s), high - low), np.int64)
        out[:, s.low - low : s.low - low + s.limbs.shape[1]] = s.limbs
        return out

    return low, widen(a), widen(b)


def add_segment_sums(a: SegmentSums, b: SegmentSums) -> SegmentSums:
    """Segment-wise exact ``a + b`` (both with the same segments)."""
    low, la, lb = _aligned(a, b)
    return _finish(low, la + lb, a.special + b.special)


def merge_keyed(
    keys_a: AnyArray, a: SegmentSums, keys_b: AnyArray, b: SegmentSums
) -> tuple[AnyArray, SegmentSums]:
    """Merge two keyed states: the sorted union of the (unique) keys and their sums.

    A key present in both adds its two sums; a key in one only keeps its sum.

    >>> ka, a = np.array([1, 5]), bin_sums(np.array([0.1, 2.0]), np.array([0, 1]), 2)
    >>> kb, b = np.array([5, 7]), bin_sums(np.array([3.0, 0.2]), np.array([0, 1]), 2)
    >>> keys, s = merge_keyed(ka, a, kb, b)
    >>> keys.tolist(), round_sums(s).tolist()
    ([1, 5, 7], [0.1, 5.0, 0.2])
    """
    keys, inverse = np.unique(np.concatenate([keys_a, keys_b]), return_inverse=True)
    low, la, lb = _aligned(a, b)
    limbs = np.zeros((keys.shape[0], la.shape[1]), np.int64)
    ia, ib = inverse[: len(a)], inverse[len(a) :]
    limbs[ia] += la
    limbs[ib] += lb
    special = np.zeros(keys.shape[0])
    special[ia] += a.special
    special[ib] += b.special
    return keys, _finish(low, limbs, special)


def cumulative_sums(s: SegmentSums) -> SegmentSums:
    """Exact running totals: segment ``i`` holds the sum of segments ``0..i``."""
    return _finish(s.low, np.cumsum(s.limbs, axis=0), np.cumsum(s.special))


def total_sum(s: SegmentSums) -> SegmentSums:
    """The exact sum of all segments, as a one-segment state."""
    return _finish(s.low, s.limbs.sum(axis=0, keepdims=True), s.special.sum(keepdims=True))


def round_sums(s: SegmentSums) -> FloatArray:
    """Every segment's sum rounded once to the nearest float64 (ties to even).

    The top three non-zero limbs and a sticky bit for the rest give the 53-bit
    significand; sums below 2**-1021 are whole multiples of 2**-1074, so exact.
    """
    n, width = s.limbs.shape
    z = np.zeros((n, width + 4), np.int64)  # two zero limbs below, two of headroom above
    z[:, 2 : width + 2] = s.limbs
    normalize_limbs(z)
    negative = z[:, -1] < 0
    np.negative(z, out=z, where=negative[:, None])
    normalize_limbs(z)
    nonzero = z != 0
    top = np.where(
        nonzero.any(axis=1), z.shape[1] - 1 - np.argmax(nonzero[:, ::-1], axis=1), 2
    ).astype(np.int64)
    rows = np.arange(n)
    t = z[rows, top].astype(np.uint64)
    a = z[rows, top - 1].astype(np.uint64)
    b = z[rows, top - 2].astype(np.uint64)
    seen = np.cumsum(nonzero, axis=1)
    sticky = (top >= 3) & (seen[rows, np.maximum(top - 3, 0)] > 0)
    bits = np.frexp(t.astype(np.float64))[1].astype(np.int64)  # bit length of t
    sh = (bits + 10).astype(np.uint64)  # keep the top 54 bits of t·2**64 + a·2**32 + b
    hi = (t << np.uint64(32)) | a
    small = sh <= np.uint64(32)
    left = np.where(small, np.uint64(32) - sh, np.uint64(0))
    right = np.where(small, np.uint64(0), sh - np.uint64(32))
    b_shift = np.minimum(sh, np.uint64(63))
    top54 = np.where(small, (hi << left) | (b >> b_shift), hi >> right)
    rest = np.where(
        small,
        b & ((np.uint64(1) << b_shift) - np.uint64(1)),
        (hi & ((np.uint64(1) << right) - np.uint64(1))) | b,
    )
    m = top54 >> np.uint64(1)
    half = (top54 & np.uint64(1)).astype(bool)
    m += (half & ((rest != 0) | sticky | (m & np.uint64(1)).astype(bool))).astype(np.uint64)
    exponent = _LIMB * (s.low + top - 4) + sh.astype(np.int64) + 1 - UNIT_EXP
    with np.errstate(over="ignore"):
        value = np.ldexp(m.astype(np.float64), exponent)
    value[negative] *= -1.0
    return np.where(s.special == 0.0, value, s.special)


def segment_ints(s: SegmentSums) -> list[int | float]:
    """The segments as exact sums (a Python int per segment, in units of 2**-1074)."""
    out: list[int | float] = []
    for row, spec in zip(s.limbs.tolist(), s.special.tolist(), strict=True):
        if spec != 0.0:
            out.append(float(spec))
            continue
        value = 0
        for j, limb in enumerate(row):
            value += limb << (_LIMB * (s.low + j))
        out.append(value)
    return out


def encode_segment_sums(s: SegmentSums) -> dict[str, Any]:
    """JSON-safe form of a state (plain ints; inf/nan as ``float.hex`` text)."""
    return {
        "low": s.low,
        "limbs": s.limbs.tolist(),
        "special": [float(v).hex() for v in s.special.tolist()],
    }


def decode_segment_sums(
    data: Any, name: str = "state", n_segments: int | None = None
) -> SegmentSums:
    """The state stored by :func:`encode_segment_sums`, checked field by field.

    Anything malformed raises :class:`~scorekit.StateError` naming ``name`` and
    the field; ``n_segments`` is the number of segments the state must have.
    """
    if not isinstance(data, dict) or set(data) != {"low", "limbs", "special"}:
        raise StateError(f"{name} must be a dict with keys 'low', 'limbs' and 'special'")
    low, rows, special_text = data["low"], data["limbs"], data["special"]
    if isinstance(low, bool) or not isinstance(low, int) or not 0 <= low <= 70:
        raise StateError(f"{name}['low'] must be an int in [0, 70], got {low!r}")
    if not isinstance(special_text, list) or not all(isinstance(v, str) for v in special_text):
        raise StateError(f"{name}['special'] must be a list of float.hex strings")
    n = len(special_text)
    if n_segments is not None and n != n_segments:
        raise StateError(f"{name} holds {n} segments, expected {n_segments}")
    try:
        special = np.array([float.fromhex(v) for v in special_text], dtype=np.float64)
    except (ValueError, OverflowError) as exc:
        raise StateError(f"{name}['special'] holds a bad float.hex string") from exc
    if not np.all((special == 0.0) | ~np.isfinite(special)):
        raise StateError(f"{name}['special'] must hold 0.0, inf, -inf or nan only")
    ok = isinstance(rows, list) and len(rows) == n and all(isinstance(r, list) for r in rows)
    width = len(rows[0]) if ok and n else 0
    ok = ok and low + width <= 72 and all(len(r) == width for r in rows)
    ok = ok and all(type(v) is int and -(1 << 62) <= v < (1 << 62) for r in rows for v in r)
    if not ok:
        raise StateError(
            f"{name}['limbs'] must be {n} lists of equally many ints below 2**62 in magnitude"
        )
    limbs = np.array(rows, dtype=np.int64).reshape(n, width)
    return _finish(low, limbs, special)


def take_segments(s: SegmentSums, index: IntArray) -> SegmentSums:
    """The segments at ``index`` (a gather)."""
    return SegmentSums(s.low, s.limbs[index], s.special[index])


def place_segments(s: SegmentSums, index: IntArray, size: int) -> SegmentSums:
    """``size`` segments: ``s``'s at ``index`` (distinct), zero elsewhere (a scatter)."""
    limbs = np.zeros((size, s.limbs.shape[1]), np.int64)
    limbs[index] = s.limbs
    special = np.zeros(size)
    special[index] = s.special
    return SegmentSums(s.low, limbs, special)


def int_bin_sums(values: AnyArray, bins: IntArray, n_bins: int) -> SegmentSums:
    """Exact sums per bin of integers (int64, uint64 or bool), beyond 2**53 too.

    Each value is cut into 32-bit halves, both exact in float64; the high half's
    sums sit one limb up (times 2**32).

    >>> s = int_bin_sums(np.array([2**62, 1, 2**62]), np.array([0, 0, 0]), 1)
    >>> to_int64(s) is None, segment_ints(s)[0] == (2**63 + 1) << UNIT_EXP
    (True, True)
    """
    v = np.asarray(values)
    if v.dtype.kind == "b":
        v = v.astype(np.int64)
    low_half = (v & 0xFFFFFFFF).astype(np.float64)
    high_half = (v >> 32).astype(np.float64)  # arithmetic shift: signed for int64
    lo, hi = bin_sums(low_half, bins, n_bins), bin_sums(high_half, bins, n_bins)
    return add_segment_sums(lo, SegmentSums(hi.low + 1, hi.limbs, hi.special))


def to_int64(s: SegmentSums) -> IntArray | None:
    """Every segment as an int64 when all are whole, non-negative and below 2**63, else None.

    >>> to_int64(bin_sums(np.array([3.0, 2.0**60, 2.0**60]), np.array([0, 1, 1]), 2)).tolist()
    [3, 2305843009213693952]
    """
    if not np.all(s.special == 0.0):
        return None
    width = s.limbs.shape[1]
    if width == 0:
        return np.zeros(len(s), np.int64)
    # whole units sit at bit 1074 = 32·33 + 18: limbs 33 (from bit 18), 34 and 35 (17 bits)
    grid = np.zeros((len(s), 40), np.int64)
    top = s.low + width
    if top > 36 and s.limbs[:, max(36 - s.low, 0) :].any():
        return None
    grid[:, s.low : min(top, 36)] = s.limbs[:, : max(min(top, 36) - s.low, 0)]
    fraction = grid[:, :33].any(axis=1) | (grid[:, 33] & ((1 << 18) - 1) != 0)
    if fraction.any() or (grid[:, 35] < 0).any() or (grid[:, 35] >= 1 << 17).any():
        return None
    out: IntArray = (grid[:, 33] >> 18) + (grid[:, 34] << 14) + (grid[:, 35] << 46)
    return None if (out < 0).any() else out


def reduce_segments(s: SegmentSums, shape: tuple[int, ...], axis: int) -> SegmentSums:
    """Segments seen as an array of ``shape`` (row-major), summed exactly along ``axis``.

    >>> s = bin_sums(np.array([0.1, 0.2, 0.3, 0.4]), np.arange(4), 4)
    >>> round_sums(reduce_segments(s, (2, 2), 0)).tolist()
    [0.4, 0.6000000000000001]
    """
    limbs = s.limbs.reshape(*shape, s.limbs.shape[1]).sum(axis=axis)
    special = s.special.reshape(shape).sum(axis=axis)
    return _finish(s.low, limbs.reshape(special.size, s.limbs.shape[1]), special.reshape(-1))
