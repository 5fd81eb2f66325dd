"""Clustering metrics: pair counting and information theory on one contingency kernel; internal measures."""

from __future__ import annotations

from ._contingency import *  # noqa: F403
from ._contingency import __all__ as _contingency_all
from ._information import *  # noqa: F403
from ._information import __all__ as _information_all
from ._internal import *  # noqa: F403
from ._internal import __all__ as _internal_all
from ._matching import *  # noqa: F403
from ._matching import __all__ as _matching_all

__all__ = [*_contingency_all, *_information_all, *_internal_all, *_matching_all]
