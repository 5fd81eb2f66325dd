"""Fast readers and writers of TREC run and qrels files.

Formats (whitespace-separated fields, one judgment or retrieved document a line):

- run:   ``qid Q0 docno rank score tag`` — fields after the sixth are ignored, the
  rank column is ignored, the tag of the last line is the run's tag (trec_eval).
- qrels: ``qid iter docno relevance`` — exactly four fields, relevance an integer.

Blank lines and lines whose first field starts with ``#`` are skipped; a UTF-8
byte order mark at the start of the file is ignored; a NUL byte inside a line is
an error. ``-`` reads standard input, and a gzip-compressed file (``run.txt.gz``,
found by its magic bytes) is decompressed, both into one buffer. Numbers are
read as trec_eval reads them where that is unambiguous (scores: C's ``strtod``
syntax, so ``inf`` and ``1e400`` are infinite; grades: decimal integers) and a
token it would read differently (``1_0``, ``2e1`` as a grade, ``0x10``) is an
error, never reinterpreted. A regular file is memory-mapped (or read, if small) and parsed with NumPy in blocks of about
1 MiB of whole lines, two blocks at a time on threads (NumPy releases the GIL
in its loops): a block whose lines are all separated by single spaces (the
common case) is split by finding the bytes <= 0x20; any other block goes
through a general tokenizer that accepts any run of whitespace. Ids are cut
out of the buffer eight bytes at a time (:mod:`._ids`). Scores are parsed by
pyarrow's cast when pyarrow is installed (correctly rounded, like C's
``strtod``; about 3x faster), else by NumPy's string to float conversion. A
malformed line raises :class:`~scorekit.ParseError` naming the file, the line
number and what was expected.

A 10-million-line run (330 MB) reads in about a second on one core.
"""

from __future__ import annotations

import gzip
import mmap
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar, cast

import numpy as np

from .._errors import ParseError
from .._typing import AnyArray, FloatArray, IntArray
from ._ids import padded

__all__: list[str] = []

PathLike = str | os.PathLike[str]
T = TypeVar("T")

_BLOCK = 1 << 20  # bytes parsed at a time (whole lines)
_MAP_ABOVE = 1 << 24  # files larger than this are memory-mapped
_WORKERS = 2  # threads parsing blocks (NumPy releases the GIL in its loops)
_PAD = 64  # zero bytes after the data, so 8-byte reads past an id stay in bounds
_RUN_FORMAT = "'qid Q0 docno rank score tag'"
_QRELS_FORMAT = "'qid iter docno relevance'"


@dataclass(frozen=True, slots=True)
class _Fields:
    """Byte offsets of the fields of each content line of a block.

    Either ``sep`` (simple blocks: the offset in the buffer of the byte after
    each field, one row per line) or ``starts``/``ends`` (general blocks,
    relative to ``base``) is set; ``line`` holds the 1-based line numbers.
    """

    base: int
    line: IntArray
    sep: IntArray | None = None
    starts: IntArray | None = None
    ends: IntArray | None = None

    @property
    def n(self) -> int:
        return int(self.line.size)

    def start(self, col: int) -> IntArray:
        if self.sep is None:
            return cast(IntArray, self.starts)[:, col] + self.base
        if col:
            return self.sep[:, col - 1] + 1
        out = np.empty(self.sep.shape[0], np.int64)
        out[0] = self.base
        out[1:] = self.sep[:-1, -1] + 1
        return out

    def end(self, col: int) -> IntArray:
        if self.sep is None:
            return cast(IntArray, self.ends)[:, col] + self.base
        return self.sep[:, col]


def _read_stream(f: IO[bytes]) -> bytearray:
    """Everything ``f`` holds, read in chunks into one growing buffer."""
    data = bytearray()
    while chunk := f.read(1 << 24):
        data += chunk
    return data


def _load(path: PathLike) -> tuple[AnyArray, int, int]:
    """The file's bytes as a uint8 array, their number, and where the content starts.

    A large regular file is memory-mapped (no copy); a small one, standard input
    (``-``), a pipe and a gzip file are read once into one zero-padded buffer.
    Blocks near the end are copied with padding before parsing
    (:func:`_padded_block`), so 8-byte reads past an id stay in bounds. The
    content starts after a UTF-8 byte order mark, if there is one.
    """
    name = os.fspath(path)
    if name == "-":
        return _read_unsized(sys.stdin.buffer, "standard input")
    with open(path, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode) or f.peek(2)[:2] == _GZIP:
            return _read_unsized(f, name)  # a pipe, a device or gzip: the size is unknown
        size = os.fstat(f.fileno()).st_size
        if size > _MAP_ABOVE:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            buf = np.frombuffer(mapped, np.uint8)
            return buf, size, _bom(buf)
        data = np.zeros(size + _PAD, np.uint8)
        got = f.readinto(memoryview(data.data)[:size])
    if got != size:  # pragma: no cover - the file changed while being read
        raise ParseError(f"{name}: could not read the whole file")
    return _terminated(data, size)


_GZIP = b"\x1f\x8b"


def _read_unsized(f: Any, name: str) -> tuple[AnyArray, int, int]:
    """Read a stream (decompressing gzip, known by its magic bytes) into one buffer."""
    if f.peek(2)[:2] != _GZIP:
        return _stream_buffer(_read_stream(f))
    try:
        with gzip.GzipFile(fileobj=f, mode="rb") as z:
            return _stream_buffer(_read_stream(cast(IO[bytes], z)))
    except (OSError, EOFError, zlib.error) as err:
        raise ParseError(f"{name}: not a valid gzip file ({err})") from None


def _stream_buffer(data: bytearray) -> tuple[AnyArray, int, int]:
    """A zero-padded array over ``data`` itself (no copy)."""
    size = len(data)
    data += bytes(_PAD)
    return _terminated(np.frombuffer(data, np.uint8), size)


def _terminated(buf: AnyArray, size: int) -> tuple[AnyArray, int, int]:
    if size and buf[size - 1] != 0x0A:
        buf[size] = 0x0A
        size += 1
    return buf, size, _bom(buf)


def _bom(buf: AnyArray) -> int:
    """3 if the bytes start with a UTF-8 byte order mark, else 0."""
    return 3 if buf.size >= 3 and bytes(buf[:3]) == b"\xef\xbb\xbf" else 0


def _padded_block(buf: AnyArray, start: int, stop: int) -> AnyArray:
    """A copy of ``buf[start:stop]`` ending in a newline, then zero padding."""
    out = np.zeros(stop - start + 1 + _PAD, np.uint8)
    out[: stop - start] = buf[start:stop]
    if stop > start and out[stop - start - 1] != 0x0A:
        out[stop - start] = 0x0A
    return out


def _blocks(buf: AnyArray, size: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """Consecutive ranges of whole lines of about ``_BLOCK`` bytes from ``start``."""
    while start < size:
        stop = min(start + _BLOCK, size)
        look = 1 << 12
        while stop < size:  # back to the last line end; forward if one line is longer
            lo = max(start, stop - look)
            hits = np.flatnonzero(buf[lo:stop] == 0x0A)
            if hits.size:
                stop = lo + int(hits[-1]) + 1
                break
            if lo == start:
                stop, look = min(stop + _BLOCK, size), stop + _BLOCK - start
            else:
                look *= 8
        yield start, stop
        start = stop


def _simple_block(b: AnyArray, base: int, n_fields: int) -> _Fields | None:
    """Fields of a block whose lines are all ``n_fields`` tokens separated by single spaces.

    The bytes <= 0x20 must be, line by line, ``n_fields - 1`` spaces then a
    newline, never two in a row (no empty field, blank line or indent).
    """
    low = b <= 0x20
    if low[0] or (low[1:] & low[:-1]).any():
        return None
    flat = np.flatnonzero(low)
    if flat.size == 0 or flat.size % n_fields:
        return None
    sep = flat.reshape(-1, n_fields)
    kind = b[sep]
    if not ((kind[:, -1] == 0x0A).all() and (kind[:, :-1] == 0x20).all()):
        return None
    if b[0] == 0x23 or (b[sep[:-1, -1] + 1] == 0x23).any():  # comments: the general path
        return None
    sep += base
    return _Fields(base, np.zeros(0, np.int64), sep=sep)


class _LineError(Exception):
    """A malformed line, numbered within its block; the reader adds the block's offset."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _general_block(b: AnyArray, base: int, n_fields: int, exact: bool, fmt: str) -> _Fields:
    """Fields of a block with any whitespace; skips blank and ``#`` lines; checks field counts."""
    ws = (b == 0x20) | ((b >= 0x09) & (b <= 0x0D))
    nl = np.flatnonzero(b == 0x0A)
    nul = np.flatnonzero(b == 0)
    if nul.size:
        raise _LineError(
            int(np.searchsorted(nl, nul[0])) + 1, "a NUL byte inside the line (binary data?)"
        )
    body = ~ws
    starts = np.flatnonzero(body[1:] & ws[:-1]) + 1
    if b.size and body[0]:
        starts = np.concatenate([[0], starts])
    ends = np.flatnonzero(body[:-1] & ws[1:]) + 1
    line = np.searchsorted(nl, starts)
    count = np.bincount(line, minlength=nl.size)
    first = np.cumsum(count) - count
    has = count > 0
    comment = np.zeros(nl.size, bool)
    comment[has] = b[starts[first[has]]] == 0x23
    keep = has & ~comment
    bad = keep & ((count != n_fields) if exact else (count < n_fields))
    if bad.any():
        i = int(np.argmax(bad))
        expect = f"exactly {n_fields}" if exact else f"at least {n_fields}"
        raise _LineError(
            i + 1, f"expected {expect} whitespace-separated fields {fmt}, found {int(count[i])}"
        )
    rows = np.flatnonzero(keep)
    idx = first[rows][:, None] + np.arange(n_fields)
    return _Fields(base, rows + 1, starts=starts[idx], ends=ends[idx])


def _block_fields(
    buf: AnyArray, start: int, stop: int, n_fields: int, exact: bool, fmt: str
) -> tuple[_Fields, int]:
    """The fields of one block (line numbers within the block) and its number of lines."""
    b = buf[start:stop]
    fields = _simple_block(b, start, n_fields)
    if fields is None:
        return _general_block(b, start, n_fields, exact, fmt), int(np.count_nonzero(b == 0x0A))
    sep = cast(IntArray, fields.sep)  # a simple block always has separators
    n_lines = sep.shape[0]
    return _Fields(start, np.arange(1, n_lines + 1), sep=sep), n_lines


def _parse_blocks(
    path: PathLike, n_fields: int, exact: bool, fmt: str, extract: Callable[[AnyArray, _Fields], T]
) -> list[T]:
    """``extract(buf, fields)`` of every non-empty block, in file order, on a few threads.

    NumPy and pyarrow release the GIL in their loops, so blocks parse in
    parallel; a malformed line is reported with its line number in the file.
    """
    buf, size, begin = _load(path)
    spans = list(_blocks(buf, size, begin))
    _arrow_modules()  # import once, before the threads

    def work(span: tuple[int, int]) -> tuple[int, T | None, _LineError | None]:
        start, stop = span
        local = buf
        if stop + _PAD > buf.size:  # near the end: parse a padded copy
            local = _padded_block(buf, start, stop)
            start, stop = 0, int(np.flatnonzero(local == 0x0A)[-1]) + 1
        try:
            fields, n_lines = _block_fields(local, start, stop, n_fields, exact, fmt)
            return n_lines, (extract(local, fields) if fields.n else None), None
        except _LineError as err:
            return 0, None, err

    workers = min(_WORKERS, os.cpu_count() or 1)
    if workers > 1 and len(spans) > 8:
        with ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(work, spans))
    else:
        results = [work(span) for span in spans]
    out: list[T] = []
    offset = 0
    for n_lines, value, err in results:
        if err is not None:
            raise ParseError(f"{path}: line {offset + err.line}: {err.message}")
        if value is not None:
            out.append(value)
        offset += n_lines
    return out


_MASKS = np.array([(1 << (8 * r)) - 1 for r in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def take_ids(buf: AnyArray, start: IntArray, end: IntArray) -> AnyArray:
    """The byte strings ``buf[start:end]`` as a padded ``S`` array, 8 bytes at a time.

    Each 8-byte word is one unaligned little-endian load masked to the id's
    remaining length, so the words land in memory in the bytes' own order.
    """
    n = start.size
    length = end - start
    k = max(1, -(-int(length.max()) // 8)) if n else 1
    if k * 8 > _PAD:
        return padded(
            np.array([bytes(buf[s:e]) for s, e in zip(start.tolist(), end.tolist(), strict=True)])
        )
    wide = np.ndarray(shape=(len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
    out = np.empty((n, k), "<u8")
    for j in range(k):
        rem = np.clip(length - 8 * j, 0, 8) if j else np.minimum(length, 8)
        np.bitwise_and(wide[start + 8 * j], _MASKS[rem], out=out[:, j])
    return out.view(f"S{8 * k}").reshape(n)


def _byte_table(chars: bytes) -> AnyArray:
    table = np.zeros(256, bool)
    table[list(chars)] = True
    table[0] = True  # the padding of short tokens
    return table


# Bytes a number token may hold for NumPy's parser to read it as C does; any other
# token (``1_0``, which NumPy reads as 10; ``0x10``; non-ASCII digits) goes to the
# strict grammar of :func:`_slow_numbers`.
_FLOAT_BYTES = _byte_table(b"0123456789+-.eEinftyINFTYaA")
_INT_BYTES = _byte_table(b"0123456789+-")
_FLOAT_RE = re.compile(rb"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)", re.I)
_INT_RE = re.compile(rb"[+-]?\d+")
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _take_numbers(buf: AnyArray, fields: _Fields, col: int, what: str, integer: bool) -> AnyArray:
    """The numbers of one column: scores as C's ``strtod`` reads them, grades as decimal integers.

    A score may be infinite (``inf``, ``1e400``: trec_eval's ``atof`` accepts
    them) but not NaN; a grade must fit in 64 bits.
    """
    start, end = fields.start(col), fields.end(col)
    values: AnyArray | None = None if integer else _arrow_floats(buf, start, end - start)
    if values is None:
        tokens = take_ids(buf, start, end)
        table = _INT_BYTES if integer else _FLOAT_BYTES
        if table[tokens.view(np.uint8)].all():
            try:
                values = tokens.astype(np.int64 if integer else np.float64)
            except (ValueError, OverflowError):
                values = None
        if values is None:
            values = _slow_numbers(tokens, fields.line, what, integer)
    if not integer:
        bad = np.isnan(values)
        if bad.any():
            i = int(np.argmax(bad))
            token = buf[int(start[i]) : int(end[i])].tobytes().decode(errors="replace")
            raise _LineError(int(fields.line[i]), f"{what} {token!r} is not a number (NaN)")
    return values


_ARROW: Any = False  # (pyarrow, pyarrow.compute) once imported, None if absent


def _arrow_modules() -> Any:
    global _ARROW
    if _ARROW is False:
        try:
            import pyarrow as pa
            import pyarrow.compute as pc

            _ARROW = (pa, pc)
        except ImportError:  # pragma: no cover - pyarrow is the io extra
            _ARROW = None
    return _ARROW


def _arrow_floats(buf: AnyArray, start: IntArray, length: IntArray) -> FloatArray | None:
    """Parse short decimal strings with pyarrow's cast (fast_float, correctly rounded), if present.

    The strings become an Arrow ``string_view`` array whose 16-byte views hold
    them inline (length, then up to 12 bytes), cut straight from the file's
    buffer. Returns None when pyarrow is missing, a string is longer or a value
    does not parse (the NumPy path then handles and reports it).
    """
    modules = _arrow_modules()
    if modules is None or length.size == 0 or int(length.max()) > 12:
        return None
    pa, pc = modules
    n = start.size
    wide = np.ndarray(shape=(len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
    views = np.empty((n, 2), np.uint64)  # [length | bytes 0-3], [bytes 4-11]
    if int(length.max()) <= 8:  # one load holds the whole string
        word = wide[start] & _MASKS[length]
        views[:, 0] = length.astype(np.uint64) | (word << np.uint64(32))
        views[:, 1] = word >> np.uint64(32)
    else:
        first = wide[start] & _MASKS[np.minimum(length, 4)]
        views[:, 0] = length.astype(np.uint64) | (first << np.uint64(32))
        views[:, 1] = wide[start + 4] & _MASKS[np.clip(length - 4, 0, 8)]
    try:
        array = pa.Array.from_buffers(pa.string_view(), n, [None, pa.py_buffer(views)])
        out: FloatArray = np.asarray(pc.cast(array, pa.float64()).to_numpy(), np.float64)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, TypeError, ValueError):
        return None
    return out


def _slow_numbers(tokens: AnyArray, line: IntArray, what: str, integer: bool) -> AnyArray:
    """Numbers one by one in a strict grammar (the path of a malformed or unusual token)."""
    out = np.empty(tokens.size, np.int64 if integer else np.float64)
    grammar = _INT_RE if integer else _FLOAT_RE
    for i, tok in enumerate(tokens.tolist()):
        found = tok.decode(errors="replace")
        if grammar.fullmatch(tok) is None:
            kind = "an integer" if integer else "a number"
            why = " (decimal digits only; trec_eval would read a prefix)" if integer else ""
            raise _LineError(int(line[i]), f"expected {what} to be {kind}, found {found!r}{why}")
        if integer:
            value = int(tok)
            if not _INT64[0] <= value <= _INT64[1]:
                raise _LineError(int(line[i]), f"{what} {found} is out of range (a 64-bit integer)")
            out[i] = value
        else:
            out[i] = float(tok)
    return out


def _runs_of(ids: AnyArray) -> tuple[AnyArray, IntArray]:
    """Runs of equal consecutive ids: the id of each run and its length."""
    w = ids.view(np.uint64).reshape(ids.size, -1)
    start = np.flatnonzero(np.concatenate([[True], (w[1:] != w[:-1]).any(axis=1)]))
    return ids[start], np.diff(np.concatenate([start, [ids.size]]))


def _run_columns(buf: AnyArray, f: _Fields) -> tuple[AnyArray, IntArray, AnyArray, FloatArray, str]:
    tag = buf[int(f.start(5)[-1]) : int(f.end(5)[-1])].tobytes().decode("utf-8", "replace")
    queries, lengths = _runs_of(take_ids(buf, f.start(0), f.end(0)))
    return (
        queries,
        lengths,
        take_ids(buf, f.start(2), f.end(2)),
        _take_numbers(buf, f, 4, "the score", integer=False),
        tag,
    )


def _qrels_columns(buf: AnyArray, f: _Fields) -> tuple[AnyArray, AnyArray, IntArray]:
    return (
        take_ids(buf, f.start(0), f.end(0)),
        take_ids(buf, f.start(2), f.end(2)),
        _take_numbers(buf, f, 3, "the relevance", integer=True),
    )


def read_run(path: PathLike) -> tuple[AnyArray, IntArray, AnyArray, FloatArray, str]:
    """Columns of a TREC run file.

    Query ids come once per run of equal lines, with the run lengths; then
    document ids, scores and the tag (of the last line).
    """
    parts = _parse_blocks(path, 6, False, _RUN_FORMAT, _run_columns)
    if not parts:
        raise ParseError(f"{path}: no run lines {_RUN_FORMAT} found")
    q, q_len, d, s, tags = zip(*parts, strict=True)
    return _concat(list(q)), np.concatenate(q_len), _concat(list(d)), np.concatenate(s), tags[-1]


def read_qrels(path: PathLike) -> tuple[AnyArray, AnyArray, IntArray]:
    """Query ids, document ids and integer relevance of a TREC qrels file."""
    parts = _parse_blocks(path, 4, True, _QRELS_FORMAT, _qrels_columns)
    if not parts:
        raise ParseError(f"{path}: no qrels lines {_QRELS_FORMAT} found")
    q, d, r = zip(*parts, strict=True)
    return _concat(list(q)), _concat(list(d)), np.concatenate(r)


def _concat(parts: list[AnyArray]) -> AnyArray:
    size = max(p.dtype.itemsize for p in parts)
    return np.concatenate([p.astype(f"S{size}", copy=False) for p in parts])


def _lines(columns: list[list[str]]) -> Iterator[str]:
    for row in zip(*columns, strict=True):
        yield " ".join(row) + "\n"


def write_lines(path: PathLike, columns: list[list[str]]) -> None:
    """Write space-separated columns, one line per row, in chunks."""
    with Path(path).open("w", encoding="utf-8", newline="\n") as f:
        f.writelines(_lines(columns))
