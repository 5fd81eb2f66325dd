"""Regression metrics: MAE, MSE, RMSE, R², explained variance, MAPE, median and max error.

Every moment-based metric is computed from one mergeable state
(``_moments.MomentsState``: exact sums, so merged states give bit-identical
values), which ``scorekit.stream.RegressionMoments`` and
``scorekit.dask`` reuse; the median absolute error is one-shot only.
"""

from __future__ import annotations

from ._metrics import *  # noqa: F403
from ._metrics import __all__ as _metrics_all
from ._robust import *  # noqa: F403
from ._robust import __all__ as _robust_all

__all__ = [*_metrics_all, *_robust_all]
