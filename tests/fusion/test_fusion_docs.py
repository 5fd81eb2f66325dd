"""docs/fusion.md: every example on the page runs and prints what it shows."""

from __future__ import annotations

import doctest
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_fusion_page_runs():
    result = doctest.testfile(
        str(DOCS / "fusion.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted >= 5
    assert result.failed == 0
