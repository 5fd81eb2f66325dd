"""Recommendation and CTR metrics: GAUC, calibration, coverage, novelty, diversity, exposure.

Top-k list metrics (nDCG@k, hit rate, precision, recall of users' recommendation
lists) run through the ranking engine: a user is a query, an item a document
(see ``docs/recsys.md``).
"""

from __future__ import annotations

from ._beyond import *  # noqa: F403
from ._beyond import __all__ as _beyond_all
from ._calibration import *  # noqa: F403
from ._calibration import __all__ as _calibration_all
from ._coverage import *  # noqa: F403
from ._coverage import __all__ as _coverage_all
from ._gauc import *  # noqa: F403
from ._gauc import __all__ as _gauc_all
from ._serendipity import *  # noqa: F403
from ._serendipity import __all__ as _serendipity_all

__all__ = [*_beyond_all, *_calibration_all, *_coverage_all, *_gauc_all, *_serendipity_all]
