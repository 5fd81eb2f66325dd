"""Import of optional dependencies with an error that names the extra to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from ._errors import MissingDependencyError


def require(module: str, extra: str | None = None, *, pip: str | None = None) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` saying what to install.

    ``extra`` names the scorekit extra that installs the module; ``pip`` the
    package to install where no extra does (pandas for ``to_pandas()``).

    >>> require("numpy", "core").__name__
    'numpy'
    >>> require("no_such_module", pip="no-such-package")
    Traceback (most recent call last):
    ...
    scorekit._errors.MissingDependencyError: no_such_module is needed for this; install it with: pip install no-such-package
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        what = f"'scorekit[{extra}]'" if pip is None else pip
        raise MissingDependencyError(
            f"{module} is needed for this; install it with: pip install {what}"
        ) from exc
