"""The public surface: __all__ is exact, and import scorekit loads numpy and scipy only."""

from __future__ import annotations

import subprocess
import sys

import pytest

import scorekit

FAMILIES = [
    "classification",
    "regression",
    "clustering",
    "fusion",
    "ranking",
    "recsys",
    "stats",
    "stream",
]


@pytest.mark.parametrize("module", ["scorekit", *(f"scorekit.{f}" for f in FAMILIES)])
def test_all_names_exist(module):
    mod = __import__(module, fromlist=["__all__"])
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert missing == []
    assert len(set(mod.__all__)) == len(mod.__all__)


@pytest.mark.parametrize(
    "family", ["classification", "regression", "clustering", "fusion", "ranking", "recsys"]
)
def test_family_functions_are_at_top_level(family):
    mod = getattr(scorekit, family)
    for name in mod.__all__:
        assert getattr(scorekit, name) is getattr(mod, name)
        assert name in scorekit.__all__


def test_import_loads_only_numpy_and_scipy():
    code = (
        "import sys; before = set(sys.modules); import scorekit; "
        "new = {m.partition('.')[0] for m in set(sys.modules) - before}; "
        "print(' '.join(sorted(new)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    third_party = {
        m
        for m in out.stdout.split()
        if m not in sys.stdlib_module_names
        and not m.startswith("_")
        and m not in {"scorekit", "numpy", "scipy"}
    }
    assert third_party == set()


def test_errors_are_value_errors():
    assert issubclass(scorekit.ScorekitError, ValueError)
    for name in scorekit._errors.__all__:
        cls = getattr(scorekit, name)
        if name.endswith("Error"):
            assert issubclass(cls, scorekit.ScorekitError)
