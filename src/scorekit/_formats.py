"""File formats scorekit reads, told from the file name (shared by the CLI and ``scorekit.stream``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ._errors import ParameterError, ParseError
from ._optional import require

__all__ = ["FORMATS", "detect_format", "file_errors"]

FORMATS = ("csv", "tsv", "parquet", "jsonl", "trec")
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".trec": "trec",
    ".run": "trec",
    ".qrels": "trec",
}
_COMPRESSED = (".gz", ".bz2")


def detect_format(path: str, override: str | None = None, *, default: str | None = None) -> str:
    """The input format of ``path``: ``override``, else its extension, else ``default``.

    >>> detect_format("scores.csv.gz"), detect_format("run.txt", default="trec")
    ('csv', 'trec')
    """
    if override:
        return override
    name = Path(path).name.lower()
    for ext in _COMPRESSED:
        name = name.removesuffix(ext)
    fmt = _EXTENSIONS.get(Path(name).suffix)
    if fmt is not None:
        return fmt
    if default is not None:
        return default
    raise ParameterError(
        f"cannot tell the format of {path} from its name; pass --input-format ({'|'.join(FORMATS)})"
    )


@contextmanager
def file_errors(path: str, hint: str = "") -> Iterator[None]:
    """Turn a reader's failure on a malformed file into a ParseError naming the file.

    pyarrow's errors and bytes that are not UTF-8 become one
    :class:`~scorekit.ParseError`; call it once the file is known to exist.
    """
    pa = require("pyarrow", "io")
    try:
        yield
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, UnicodeDecodeError):
            text = f"not UTF-8 text (byte {exc.object[exc.start : exc.start + 1]!r})"
        else:
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "straddl" in text and hint:
            text = hint
        raise ParseError(f"{path}: {text}") from None
