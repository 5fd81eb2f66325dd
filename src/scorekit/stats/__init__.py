"""Statistical comparison: paired tests, multiple-comparison corrections, DeLong, bootstrap.

``paired_test`` compares two vectors of per-item scores (the engine behind
``scorekit.compare``); ``bonferroni`` and ``holm`` adjust families of p-values;
``delong_test`` compares two correlated ROC AUCs in O(n log n); ``bootstrap_ci``
gives a bootstrap confidence interval of any metric (fast for ``roc_auc``);
``bootstrap_metrics`` gives the intervals of many catalog metrics from one set of resamples
(one sort, then a ``bincount`` per block of resamples); ``group_bootstrap_ci`` resamples groups (users, queries) for a mean over groups.
SciPy is imported inside the functions that need it.
"""

from __future__ import annotations

from ._bootstrap import *  # noqa: F403
from ._bootstrap import __all__ as _bootstrap_all
from ._cluster import *  # noqa: F403
from ._cluster import __all__ as _cluster_all
from ._corrections import *  # noqa: F403
from ._corrections import __all__ as _corrections_all
from ._delong import *  # noqa: F403
from ._delong import __all__ as _delong_all
from ._engine import *  # noqa: F403
from ._engine import __all__ as _engine_all
from ._paired import *  # noqa: F403
from ._paired import __all__ as _paired_all

__all__ = [
    *_bootstrap_all,
    *_cluster_all,
    *_corrections_all,
    *_delong_all,
    *_engine_all,
    *_paired_all,
]
