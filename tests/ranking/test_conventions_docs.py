"""docs/why-tools-disagree.md: every example on the page runs and prints what it shows."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"

pytest.importorskip("sklearn")
pytest.importorskip("pytrec_eval")
pytest.importorskip("pyndeval")  # section 6


def test_why_tools_disagree_page_runs():
    page = DOCS / "why-tools-disagree.md"
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted > 20
    assert result.failed == 0
