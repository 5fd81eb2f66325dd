"""Values of command-line arguments: the positive label, the report's path.

Kept apart from the parser (``_commands``) and the commands (``_run``) so that
neither imports the other at module level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._errors import ParameterError

__all__ = ["parse_label", "report_path"]


def parse_label(text: str | None, column: Any) -> Any:
    """``--pos-label`` as a value of the column's type (``"1"`` -> 1 for an int column)."""
    if text is None:
        return None
    kind = getattr(getattr(column, "dtype", None), "kind", "U")
    try:
        if kind in "iu":
            return int(text)
        if kind == "f":
            return float(text)
    except ValueError:
        raise ParameterError(
            f"--pos-label {text!r} is not a number, but the label column holds numbers"
        ) from None
    if kind == "b":
        low = text.lower()
        if low not in ("true", "false", "1", "0"):
            raise ParameterError(f"--pos-label {text!r}: the label column holds true/false")
        return low in ("true", "1")
    return text


def report_path(path: str) -> Path:
    """Check that the report's folder exists before any work is done."""
    out = Path(path)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(f"{path}: the folder {folder} does not exist")
    return out
