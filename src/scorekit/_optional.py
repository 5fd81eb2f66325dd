"""Import of optional dependencies with an error that names the extra to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from ._errors import MissingDependencyError


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming ``extra``.

    >>> require("numpy", "core").__name__
    'numpy'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{module} is needed for this; install it with: pip install 'scorekit[{extra}]'"
        ) from exc
