"""Query and document ids as fixed-width byte strings, their integer words and hashes.

Ids are kept as NumPy ``S`` arrays holding the UTF-8 bytes of each id, zero
padded to a multiple of 8 bytes, so each id is a short row of 64-bit words
(one word for ids of up to 8 bytes): :func:`words` views them in native byte
order for hashing and equality; :func:`order_words` reads them big-endian, and
their lexicographic order is then exactly the byte order of the strings, C's
``strcmp`` order that trec_eval uses to break score ties. A 64-bit mix of the
words (:func:`hash_ids`) keys the run-qrels join; every match through a hash is
verified on the words, so a hash collision can never change a result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._errors import LabelError, ShapeError
from .._typing import AnyArray, ArrayLike, IntArray
from .._validation import as_array

__all__: list[str] = []

U64 = npt.NDArray[np.uint64]

_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)
_MIX3 = np.uint64(0x94D049BB133111EB)


def padded(ids: AnyArray) -> AnyArray:
    """Return an ``S`` array whose item size is a multiple of 8 (copies only when needed).

    >>> padded(np.array([b"ab"])).dtype
    dtype('S8')
    """
    size = max(8, -(-ids.dtype.itemsize // 8) * 8)
    if ids.dtype.itemsize == size and ids.flags.c_contiguous:
        return ids
    return np.ascontiguousarray(ids, dtype=f"S{size}")


def id_bytes(values: ArrayLike, name: str) -> AnyArray:
    """Convert ids (strings, bytes or integers) to a padded UTF-8 ``S`` array.

    Integers become their decimal text, as they would read in a TREC file.

    >>> id_bytes(["q1", 7], "query").tolist()
    [b'q1', b'7']
    """
    arr = as_array(values, name)
    if arr.ndim != 1:
        raise ShapeError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size == 0:
        return np.zeros(0, "S8")
    kind = arr.dtype.kind
    if kind == "O":
        arr = _from_objects(arr, name)
        kind = arr.dtype.kind
    if kind in "iub":
        arr = decimal_bytes(arr.astype(np.int64))
    elif kind == "U":
        try:
            arr = arr.astype("S")
        except UnicodeEncodeError:
            arr = np.char.encode(arr, "utf-8")
    elif kind == "f":
        raise LabelError(f"{name} must hold strings or integers, got floating-point ids")
    elif kind != "S":
        raise LabelError(f"{name} must hold strings or integers, got dtype {arr.dtype}")
    return padded(arr)


_POW10 = 10 ** np.arange(19, dtype=np.int64)


def decimal_bytes(values: IntArray) -> AnyArray:
    """The decimal text of 64-bit integers as a padded ``S`` array, as ``astype("S")`` vectorised.

    NumPy formats each integer through a Python object and always makes
    ``S21`` items (three 64-bit words per id once padded); here the digits
    come from integer arithmetic over the whole array, and the items are as
    wide as the longest number, rounded up to 8 bytes (:func:`padded`): ids
    of up to 8 characters (the usual case) are one word, built in a
    ``uint64`` whose big-endian bytes are the text (:func:`_one_word`);
    longer ones are written group by group of equal length and sign.

    >>> decimal_bytes(np.array([0, 7, -12, -(2**63)])).tolist()
    [b'0', b'7', b'-12', b'-9223372036854775808']
    """
    x = np.asarray(values, dtype=np.int64)
    if x.size == 0:
        return np.zeros(0, "S8")
    lo, hi = int(x.min()), int(x.max())
    if lo > -(10**7) and hi < 10**8:  # every id has <= 8 characters
        return _one_word(x, max(-lo, hi))
    lowest = x == np.iinfo(np.int64).min  # |x| does not fit: written as -(2**63 - 1), then fixed
    mag = np.abs(np.where(lowest, x + 1, x))
    digits = np.searchsorted(_POW10, mag, side="right")
    np.maximum(digits, 1, out=digits)  # 0 has one digit
    neg = x < 0
    length = digits + neg
    width = int(length.max())
    out = np.zeros((x.size, -(-width // 8) * 8), np.uint8)
    key = digits * 2 + neg
    for k in np.flatnonzero(np.bincount(key)):
        n_digits, sign = divmod(int(k), 2)
        rows = np.flatnonzero(key == k)
        m = mag[rows].astype(np.uint32 if n_digits < 10 else np.uint64)
        ten = m.dtype.type(10)
        block = np.empty((rows.size, n_digits + sign), np.uint8)
        if sign:
            block[:, 0] = ord("-")
        for j in range(n_digits + sign - 1, sign - 1, -1):
            q = m // ten
            block[:, j] = m - q * ten + ord("0")
            m = q
        out[rows, : n_digits + sign] = block
    if lowest.any():
        out[lowest, 19] = ord("8")
    return out.view(f"S{out.shape[1]}").ravel()


_d = np.arange(10_000, dtype=np.uint64)
#: the text of 0 .. 9999 as four digits (leading zeros), big-endian in the low 32 bits
_QUAD = (
    (_d // 1000 + 48) << np.uint64(24)
    | (_d // 100 % 10 + 48) << np.uint64(16)
    | (_d // 10 % 10 + 48) << np.uint64(8)
    | (_d % 10 + 48)
)
del _d


#: ids converted at a time by :func:`_one_word`: its temporaries stay in cache
_BLOCK = 1 << 15


def _one_word(x: IntArray, top: int) -> AnyArray:
    """Integers in (-10**7, 10**8) as ``S8`` items: one ``uint64`` per id, read big-endian.

    The eight digits (leading zeros) come from two lookups of four-digit
    groups; the word is then shifted left past the leading zeros (and a
    minus sign written in front). ``top``: the largest ``|x|``. Converted a
    block at a time (a dozen passes over a block in cache, not over memory).
    """
    out = np.empty(x.size, ">u8")
    for lo in range(0, x.size, _BLOCK):
        out[lo : lo + _BLOCK] = _word_block(x[lo : lo + _BLOCK], top)
    return out.view("S8")


def _word_block(x: IntArray, top: int) -> U64:
    neg = x < 0
    mag = np.abs(x)
    high = mag // 10_000
    word: U64 = _QUAD[mag - high * 10_000]
    if high.any():
        word |= _QUAD[high] << np.uint64(32)
    length = np.ones(x.size, np.uint64)  # characters: digits, then the sign
    for p in _POW10[1:8]:
        if p > top:  # no id has this many digits
            break
        length += mag >= p
    if neg.any():
        length += neg
        word <<= np.uint64(8) * (np.uint64(8) - length)
        sign = neg.astype(np.uint64) * np.uint64(0xFF << 56)  # a leading '0' there becomes '-'
        word &= ~sign
        word |= sign & np.uint64(ord("-") << 56)
    else:
        word <<= np.uint64(8) * (np.uint64(8) - length)
    return word


def _from_objects(arr: AnyArray, name: str) -> AnyArray:
    items = arr.tolist()
    if all(isinstance(v, bytes) for v in items):
        return np.asarray(items, dtype="S") if items else np.zeros(0, "S8")
    if all(isinstance(v, (str, int, np.integer)) and not isinstance(v, bool) for v in items):
        return np.asarray([str(v) for v in items], dtype="U") if items else np.zeros(0, "U1")
    kinds = sorted({type(v).__name__ for v in items})
    raise LabelError(f"{name} must hold strings or integers, found {', '.join(kinds)}")


def words(ids: AnyArray) -> U64:
    """The ids as rows of native ``uint64`` words (a view, no copy): for hashing and equality.

    >>> words(padded(np.array([b"b", b"a"])))[:, 0] > 0
    array([ True,  True])
    """
    k = ids.dtype.itemsize // 8
    out: U64 = np.asarray(ids.view(np.uint64)).reshape(ids.shape[0], k)
    return out


def order_words(ids: AnyArray) -> U64:
    """The ids as rows of big-endian words, whose lexicographic order is the ids' byte order."""
    k = ids.dtype.itemsize // 8
    out: U64 = ids.view(">u8").reshape(ids.shape[0], k).astype(np.uint64)
    return out


def hash_ids(ids: AnyArray, salt: IntArray | None = None) -> U64:
    """A 64-bit multiplicative mix of each id's words and an optional salt (the query code).

    Its high bits key the run's document index; equal hashes are always
    verified on the words, so the mix only needs to spread values, not resist
    collisions.
    """
    w = words(ids)
    h: U64 = np.multiply(w[:, 0], _MIX1)
    for j in range(1, w.shape[1]):
        np.bitwise_xor(h, w[:, j], out=h)
        np.multiply(h, _MIX3, out=h)
    scratch = np.empty_like(h)
    if salt is not None:
        np.multiply(salt.view(np.uint64), _MIX3, out=scratch)
        np.bitwise_xor(h, scratch, out=h)
    np.multiply(h, _MIX2, out=h)
    np.right_shift(h, np.uint64(32), out=scratch)
    np.bitwise_xor(h, scratch, out=h)
    return h


def lookup(table: U64, keys: U64) -> IntArray:
    """Index in ``table`` (distinct values) of each key, all present: an open-addressing hash.

    A table of at least 4x the values' size, linear probing; every probe round
    is one vectorised gather from a small array, so looking up n keys costs a
    few passes over them instead of a binary search each.

    >>> lookup(np.array([7, 3, 11], np.uint64), np.array([11, 7, 7, 3], np.uint64))
    array([2, 0, 0, 1])
    """
    bits = max(4, int(4 * table.size - 1).bit_length())
    size = 1 << bits
    mask = size - 1
    home = ((table * _MIX1) >> np.uint64(64 - bits)).astype(np.int64)
    slot_value = np.full(size, -1, np.int64)
    pending = np.arange(table.size)
    probe = home.copy()
    while pending.size:  # insert: one value per free slot per round
        s = probe[pending]
        free = slot_value[s] < 0
        first = np.unique(s[free], return_index=True)[1]
        placed = pending[free][first]
        slot_value[probe[placed]] = placed
        pending = np.setdiff1d(pending, placed, assume_unique=True)
        probe[pending] = (probe[pending] + 1) & mask
    out = np.empty(keys.size, np.int64)
    for lo in range(0, keys.size, 1 << 16):  # chunks keep the temporaries in cache
        part = keys[lo : lo + (1 << 16)]
        at = ((part * _MIX1) >> np.uint64(64 - bits)).astype(np.int64)
        found = slot_value[at]
        hit = table[found] == part
        out[lo : lo + part.size] = found
        todo = np.flatnonzero(~hit)
        while todo.size:  # keep probing the keys not found yet
            at[todo] = (at[todo] + 1) & mask
            found = slot_value[at[todo]]
            hit = table[found] == part[todo]
            out[lo + todo[hit]] = found[hit]
            todo = todo[~hit]
    return out


def decode(ids: AnyArray) -> list[str]:
    r"""The ids as Python strings (UTF-8).

    >>> decode(np.array([b"q1", b"caf\xc3\xa9"]))
    ['q1', 'café']
    """
    return [v.decode("utf-8", errors="replace") for v in ids.tolist()]


def desc_order_key(ids: AnyArray) -> list[Any]:
    """Columns for :func:`numpy.lexsort` that order ids by descending byte order.

    Lexsort's last key is primary, so the words come last-to-first.
    """
    w = order_words(ids)
    return [~w[:, j] for j in range(w.shape[1] - 1, -1, -1)]
