"""File formats scorekit reads, told from the file name (shared by the CLI and ``scorekit.stream``)."""

from __future__ import annotations

from pathlib import Path

from ._errors import ParameterError

__all__ = ["FORMATS", "detect_format"]

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
