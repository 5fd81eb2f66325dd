"""``read_chunks``: a table file as a stream of column chunks, for :func:`consume`.

Parquet is read by row batches (``pyarrow.parquet.ParquetFile.iter_batches``)
and CSV/TSV by blocks (``pyarrow.csv.open_csv``), so memory holds one chunk
at a time; JSON lines are read whole, then sliced. Needs the ``io`` extra.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .._errors import ParameterError
from .._formats import detect_format, file_errors
from .._optional import require
from .._typing import AnyArray

__all__ = ["read_chunks"]

_STRADDLE = "a row is longer than a read block; pass a larger chunk_rows"


class read_chunks:
    r"""Iterate over a CSV, TSV, Parquet or JSON-lines file as tuples of column arrays.

    Each chunk is a tuple of NumPy arrays, one per name in ``columns`` and in
    that order, so it feeds an accumulator's ``update`` positionally;
    ``operator.length_hint()`` is the number of chunks when the file says it up
    front (Parquet), which gives :func:`consume`'s progress bar its total.

    Parameters
    ----------
    path : str
        The file; its format comes from the extension unless ``input_format`` is given.
    columns : sequence of str
        The columns to read, in the order ``update`` takes them.
    chunk_rows : int, default=1_000_000
        Rows a chunk (Parquet and JSON lines exactly; CSV by blocks of about that many rows).
    input_format : {"csv", "tsv", "parquet", "jsonl"}, optional

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from scorekit.stream import BinaryCurve, consume
    >>> path = pathlib.Path(tempfile.mkdtemp(), "scores.csv")
    >>> _ = path.write_text("y,p\n0,0.1\n1,0.8\n1,0.3\n0,0.4\n")
    >>> consume(BinaryCurve(), read_chunks(path, ["y", "p"], chunk_rows=2)).roc_auc()
    0.75
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        columns: Sequence[str],
        *,
        chunk_rows: int = 1_000_000,
        input_format: str | None = None,
    ) -> None:
        if isinstance(columns, str) or not columns:
            raise ParameterError(f"columns={columns!r} must be a non-empty list of column names")
        if not isinstance(chunk_rows, int) or chunk_rows < 1:
            raise ParameterError(f"chunk_rows={chunk_rows!r} must be a positive integer")
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{path}: no such file")
        self.path, self.columns, self.chunk_rows = path, list(columns), chunk_rows
        self.format = detect_format(path, input_format)
        if self.format not in ("csv", "tsv", "parquet", "jsonl"):
            raise ParameterError(f"read_chunks reads csv, tsv, parquet or jsonl, not {self.format}")
        self._length: int | None = None
        if self.format == "parquet":
            with file_errors(path, _STRADDLE):
                meta = require("pyarrow.parquet", "io").ParquetFile(path).metadata
            self._check(meta.schema.to_arrow_schema().names)
            self._length = math.ceil(meta.num_rows / chunk_rows)

    def _check(self, names: Sequence[str]) -> None:
        missing = [c for c in self.columns if c not in names]
        if missing:
            raise ParameterError(
                f"columns {missing} are not in {self.path}; it has {', '.join(map(str, names))}"
            )

    def __length_hint__(self) -> int:
        """Chunks to come when the file says it up front, else ``NotImplemented`` (CSV)."""
        return NotImplemented if self._length is None else self._length

    def _arrays(self, batch: Any) -> tuple[AnyArray, ...]:
        return tuple(
            np.asarray(batch.column(c).to_numpy(zero_copy_only=False)) for c in self.columns
        )

    def __iter__(self) -> Iterator[tuple[AnyArray, ...]]:
        with file_errors(self.path, _STRADDLE):
            yield from self._chunks()

    def _chunks(self) -> Iterator[tuple[AnyArray, ...]]:
        wanted = list(dict.fromkeys(self.columns))  # a column named twice is read once
        if self.format == "parquet":
            pq = require("pyarrow.parquet", "io")
            with pq.ParquetFile(self.path) as f:
                for batch in f.iter_batches(batch_size=self.chunk_rows, columns=wanted):
                    yield self._arrays(batch)
        elif self.format == "jsonl":
            table = require("pyarrow.json", "io").read_json(self.path)
            self._check(table.column_names)
            for start in range(0, table.num_rows, self.chunk_rows):
                yield self._arrays(table.slice(start, self.chunk_rows))
        else:
            pv = require("pyarrow.csv", "io")
            parse = pv.ParseOptions(delimiter="\t" if self.format == "tsv" else ",")
            blocks = pv.ReadOptions(block_size=max(1 << 16, 32 * self.chunk_rows))
            with pv.open_csv(self.path, read_options=blocks, parse_options=parse) as head:
                self._check(head.schema.names)  # before include_columns would raise on its own
            keep = pv.ConvertOptions(include_columns=wanted)
            reader = pv.open_csv(
                self.path, read_options=blocks, parse_options=parse, convert_options=keep
            )
            for batch in reader:
                yield self._arrays(batch)
