"""Reading the command's input files: CSV, TSV, Parquet, JSON lines (pyarrow) and TREC.

The format comes from the file name (``.csv``, ``.tsv``/``.tab``, ``.parquet``/``.pq``,
``.jsonl``/``.ndjson``/``.json``, optionally followed by ``.gz`` or ``.bz2``;
``--input-format`` overrides it). Rankings read anything else as TREC
(``qid Q0 doc rank score tag`` runs and ``qid iter doc rel`` qrels), through
``scorekit.Qrels.from_trec`` and ``scorekit.Run.from_trec``.

Problems are reported as one :class:`~scorekit.ScorekitError` each: an
unknown column lists the columns the file has; a malformed line or a value
that is not a number gives ``file:line``. Locating the line re-reads the file
with the standard library, so it costs nothing unless the fast reader failed.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import ParameterError, ParseError
from .._formats import FORMATS, detect_format, file_errors
from .._optional import require
from .._typing import AnyArray, FloatArray

__all__ = [
    "FORMATS",
    "Frame",
    "detect_format",
    "read_frame",
    "read_ranking",
]


def _fixed_width(col: Any) -> AnyArray | None:
    """A null-free integer or float column as NumPy, read from its buffers; ``None`` otherwise.

    pyarrow's own ``to_numpy`` imports pandas on first use (about a second);
    the values buffer of a fixed-width column is the NumPy array already.
    """
    pa = require("pyarrow", "io")
    kind = col.type
    if col.null_count or not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        return None
    letter = "f" if pa.types.is_floating(kind) else "i" if pa.types.is_signed_integer(kind) else "u"
    dtype = np.dtype(f"{letter}{kind.bit_width // 8}")
    parts = [
        np.frombuffer(chunk.buffers()[1], dtype=dtype, count=chunk.offset + len(chunk))[
            chunk.offset :
        ]
        for chunk in col.chunks
        if len(chunk)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _check_exists(path: str) -> None:
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file")
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path}: is a directory, not a file")


@contextmanager
def _open_text(path: str) -> Iterator[io.TextIOBase]:
    lower = path.lower()
    if lower.endswith(".gz"):
        raw: Any = gzip.open(path, "rb")  # noqa: SIM115 - closed by the wrapper below
    elif lower.endswith(".bz2"):
        raw = bz2.open(path, "rb")  # noqa: SIM115 - closed by the wrapper below
    else:
        raw = open(path, "rb")  # noqa: SIM115 - closed by the wrapper below
    with io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline="") as text:
        yield text


@dataclass
class Frame:
    """Columns read from one file; :meth:`column` converts one to NumPy with clear errors."""

    path: str
    fmt: str
    table: Any  # pyarrow.Table, holding the columns that were asked for
    names: list[str]  # every column of the file

    def _chunked(self, name: str, option: str) -> Any:
        if name not in self.table.column_names:
            raise ParameterError(
                f"{self.path} has no column {name!r} ({option}); its columns are: "
                + ", ".join(self.names)
            )
        pa = require("pyarrow", "io")
        col = self.table.column(name)
        if pa.types.is_dictionary(col.type):
            col = col.cast(col.type.value_type)
        if col.null_count:
            first = int(np.flatnonzero(col.is_null().to_numpy(zero_copy_only=False))[0])
            raise ParseError(f"{self._where(first)}: column {name!r} has no value")
        return col

    def labels(self, name: str, option: str) -> AnyArray:
        """A column of labels (ints, bools or strings) as a NumPy array."""
        pa = require("pyarrow", "io")
        col = self._chunked(name, option)
        if pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type):
            self._not_utf8(col, name)  # pyarrow reads text that is not UTF-8 as bytes
        arr = np.asarray(self._to_numpy(col, name))
        return arr.astype(str) if arr.dtype.kind == "O" else arr

    def _to_numpy(self, col: Any, name: str) -> Any:
        """``col.to_numpy``; a string column holding bytes that are not UTF-8 names its line."""
        pa = require("pyarrow", "io")
        fixed = _fixed_width(col)
        if fixed is not None:
            return fixed
        try:
            return col.to_numpy(zero_copy_only=False)
        except pa.ArrowException:
            self._not_utf8(col.cast(pa.binary()), name)
            raise

    def numbers(self, name: str, option: str) -> FloatArray:
        """A numeric column as float64; a value that is not a number names its line."""
        pa = require("pyarrow", "io")
        col = self._chunked(name, option)
        if pa.types.is_integer(col.type) or pa.types.is_floating(col.type):
            fixed = _fixed_width(col)
            return np.asarray(col.to_numpy() if fixed is None else fixed, dtype=np.float64)
        if pa.types.is_boolean(col.type):
            return np.asarray(col.to_numpy(), dtype=np.float64)
        values = self._to_numpy(col, name)
        for i, v in enumerate(values.tolist()):
            try:
                float(v)
            except (TypeError, ValueError):
                raise ParseError(
                    f"{self._where(i)}: column {name!r} has {str(v)[:40]!r}, not a number"
                ) from None
        return np.asarray(values, dtype=np.float64)

    def _not_utf8(self, col: Any, name: str) -> None:
        """Raise naming the first line whose value in ``col`` is not UTF-8."""
        for i, v in enumerate(col.to_pylist()):
            try:
                v.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ParseError(
                    f"{self._where(i)}: column {name!r} is not UTF-8 text "
                    f"(byte {v[exc.start : exc.start + 1]!r}); re-encode the file as UTF-8"
                ) from None
        raise ParseError(f"{self.path}: column {name!r} holds binary values, not text")

    def _where(self, row: int) -> str:
        """``file:line`` of data row ``row`` (0-based), or ``file: row N`` for Parquet."""
        if self.fmt in ("csv", "tsv"):
            line = _csv_line_of_row(self.path, "\t" if self.fmt == "tsv" else ",", row)
            return f"{self.path}:{line}"
        if self.fmt == "jsonl":
            return f"{self.path}:{_jsonl_line_of_row(self.path, row)}"
        return f"{self.path}: row {row + 1}"


def _csv_line_of_row(path: str, delimiter: str, row: int) -> int:
    csv.field_size_limit(_MAX_BLOCK_SIZE)
    with _open_text(path) as f:
        reader = csv.reader(f, delimiter=delimiter)
        seen = -1  # the header is row -1
        for fields in reader:
            if not fields:
                continue
            if seen == row:
                return reader.line_num
            seen += 1
    return row + 2


def _jsonl_line_of_row(path: str, row: int) -> int:
    with _open_text(path) as f:
        seen = 0
        for number, line in enumerate(f, 1):
            if line.strip():
                if seen == row:
                    return number
                seen += 1
    return row + 1


def _locate_csv_problem(path: str, delimiter: str) -> str | None:
    csv.field_size_limit(_MAX_BLOCK_SIZE)  # long fields are valid; pyarrow reads them too
    with _open_text(path) as f:
        reader = csv.reader(f, delimiter=delimiter)
        header: list[str] | None = None
        try:
            for fields in reader:
                if not fields:
                    continue
                if header is None:
                    header = fields
                elif len(fields) != len(header):
                    return (
                        f"{path}:{reader.line_num}: expected {len(header)} fields "
                        f"({', '.join(header)[:80]}), found {len(fields)}"
                    )
        except csv.Error as exc:
            return f"{path}:{reader.line_num}: {exc}"
    return None


def _locate_jsonl_problem(path: str) -> str | None:
    with _open_text(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                return f"{path}:{number}: not valid JSON ({exc.msg}, column {exc.colno})"
            if not isinstance(obj, dict):
                return f"{path}:{number}: expected a JSON object, found {type(obj).__name__}"
    return None


#: pyarrow's CSV block: its default (1 MiB) first, larger when a field does not fit.
_BLOCK_SIZE = 1 << 20
_MAX_BLOCK_SIZE = (1 << 31) - 1


def _arrow_message(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _read_csv(path: str, fmt: str, columns: Sequence[str] | None) -> tuple[Any, list[str]]:
    pv = require("pyarrow.csv", "io")
    pa = require("pyarrow", "io")
    delimiter = "\t" if fmt == "tsv" else ","
    parse = pv.ParseOptions(delimiter=delimiter)
    block = _BLOCK_SIZE
    while True:
        read = pv.ReadOptions(block_size=block)
        try:
            names = pv.open_csv(path, read_options=read, parse_options=parse).schema.names
            keep = [c for c in columns if c in names] if columns is not None else None
            convert = pv.ConvertOptions(include_columns=keep) if keep else None
            table = pv.read_csv(
                path, read_options=read, parse_options=parse, convert_options=convert
            )
            return table, list(names)
        except pa.ArrowInvalid as exc:
            # a field (or row) longer than a block: read again with blocks as large as the file
            if "straddl" in str(exc) and block < _MAX_BLOCK_SIZE:
                block = min(_MAX_BLOCK_SIZE, max(4 * block, os.path.getsize(path) + 1))
                continue
            located = _locate_csv_problem(path, delimiter)
            raise ParseError(located or f"{path}: {_arrow_message(exc)}") from None


def _read_jsonl(path: str) -> Any:
    pj = require("pyarrow.json", "io")
    pa = require("pyarrow", "io")
    try:
        return pj.read_json(path)
    except pa.ArrowInvalid as exc:
        located = _locate_jsonl_problem(path)
        raise ParseError(located or f"{path}: {_arrow_message(exc)}") from None


def _read_parquet(path: str, columns: Sequence[str] | None) -> tuple[Any, list[str]]:
    pq = require("pyarrow.parquet", "io")
    pa = require("pyarrow", "io")
    try:
        names = pq.read_schema(path).names
        keep = [c for c in columns if c in names] if columns is not None else None
        return pq.read_table(path, columns=keep or None), list(names)
    except pa.ArrowInvalid as exc:
        raise ParseError(f"{path}: not a readable Parquet file ({_arrow_message(exc)})") from None


def read_frame(path: str, fmt: str, columns: Sequence[str] | None = None) -> Frame:
    """Read a table file; ``columns`` limits what is loaded (unknown names are reported later).

    A column asked for twice is read once; a file without data rows raises.
    """
    _check_exists(path)
    if columns is not None:
        columns = list(dict.fromkeys(columns))
    if fmt in ("csv", "tsv"):
        with file_errors(path):
            table, names = _read_csv(path, fmt, columns)
    elif fmt == "jsonl":
        with file_errors(path):
            table = _read_jsonl(path)
            names = list(table.column_names)
    elif fmt == "parquet":
        with file_errors(path):
            table, names = _read_parquet(path, columns)
    else:
        raise ParameterError(
            f"{path}: the {fmt} format holds rankings; this command reads csv, tsv, parquet or jsonl"
        )
    if table.num_rows == 0:
        raise ParseError(f"{path} has no data rows (only {'a header' if names else 'nothing'})")
    return Frame(path, fmt, table, names)


_QUERY = ("query", "qid", "query_id", "topic")
_DOC = ("doc", "docid", "docno", "doc_id", "document", "item")
_RELEVANCE = ("relevance", "rel", "label", "judgment", "grade")
_SUBTOPIC = ("subtopic", "subtopic_id", "intent", "aspect", "iteration", "iter")
_SCORE = ("score", "sim", "similarity")


def _pick(frame: Frame, choices: Sequence[str], what: str) -> str:
    for name in choices:
        if name in frame.names:
            return name
    raise ParameterError(
        f"{frame.path} has no {what} column (one of: {', '.join(choices)}); "
        f"its columns are: {', '.join(frame.names)}"
    )


def read_ranking(path: str, kind: str, fmt: str) -> Any:
    """A ``scorekit.Qrels`` (``kind="qrels"``), ``SubtopicQrels`` (``"subtopics"``) or ``Run``.

    TREC files go through ``from_trec``; tables need a query, a document and a
    relevance (qrels) or score (run) column (``query, doc, relevance`` or the
    usual aliases: ``qid``, ``docid``/``docno``, ``rel``, ...), and subtopic
    qrels a subtopic column (``subtopic``, ``intent``, ``aspect``, ``iteration``).
    """
    from ..ranking import Qrels, Run, SubtopicQrels

    cls: Any = {"qrels": Qrels, "subtopics": SubtopicQrels}.get(kind, Run)
    if path == "-" and fmt != "trec":
        raise ParameterError(f"standard input ('-') is read as a TREC {kind} file only")
    if path != "-":
        _check_exists(path)
    if fmt == "trec":
        return cls.from_trec(path)
    frame = read_frame(path, fmt)
    q = _pick(frame, _QUERY, "query")
    d = _pick(frame, _DOC, "document")
    if kind == "subtopics":  # diversity qrels: one more column
        s = frame.labels(_pick(frame, _SUBTOPIC, "subtopic"), "subtopic").astype(str)
        value = frame.numbers(_pick(frame, _RELEVANCE, "relevance"), "relevance")
        query, doc = frame.labels(q, "query").astype(str), frame.labels(d, "document").astype(str)
        return cls.from_arrays(query, s, doc, value)
    if kind == "qrels":
        value = frame.numbers(_pick(frame, _RELEVANCE, "relevance"), "relevance")
    else:
        value = frame.numbers(_pick(frame, _SCORE, "score"), "score")
    query = frame.labels(q, "query").astype(str)
    doc = frame.labels(d, "document").astype(str)
    return cls.from_arrays(query, doc, value)  # type: ignore[attr-defined]
