"""Every public function documents its parameters (numpy style), as the project promises."""

from __future__ import annotations

import inspect

import pytest

import scorekit
import scorekit.stats
import scorekit.stream

PUBLIC = [
    (f"{m.__name__}.{name}", getattr(m, name))
    for m in (scorekit, scorekit.stream, scorekit.stats)
    for name in m.__all__
    if callable(getattr(m, name)) and not isinstance(getattr(m, name), type)
]


@pytest.mark.parametrize(("name", "fn"), PUBLIC, ids=[n for n, _ in PUBLIC])
def test_public_function_has_a_parameters_section(name, fn):
    doc = inspect.getdoc(fn) or ""
    params = [p for p in inspect.signature(fn).parameters if p not in ("self", "cls")]
    assert doc.strip(), f"{name} has no docstring"
    if params:
        assert "Parameters\n----------" in doc, f"{name} has no Parameters section"
        section = doc.split("Parameters\n----------", 1)[1]
        for p in params:
            assert p in section, f"{name}: {p} undocumented"
