"""Regression metrics: moments, losses, D² scores, order statistics and correlations.

Moments: MAE, MSE, RMSE, R², explained variance, MAPE, max error. Losses: MSLE,
RMSLE, Tweedie deviances, pinball, SMAPE, WMAPE. D² of the pinball loss and the
Tweedie deviance; the median absolute error; Pearson and Lin correlations.

Every moment-based metric is computed from one mergeable state
(``_moments.MomentsState``: exact sums, so merged states give bit-identical
values), which ``scorekit.stream.RegressionMoments`` and
``scorekit.dask`` reuse; the median absolute error is one-shot only.
"""

from __future__ import annotations

from ._correlation import *  # noqa: F403
from ._correlation import __all__ as _correlation_all
from ._d2 import *  # noqa: F403
from ._d2 import __all__ as _d2_all
from ._losses import *  # noqa: F403
from ._losses import __all__ as _losses_all
from ._metrics import *  # noqa: F403
from ._metrics import __all__ as _metrics_all
from ._robust import *  # noqa: F403
from ._robust import __all__ as _robust_all

__all__ = [*_metrics_all, *_robust_all, *_losses_all, *_d2_all, *_correlation_all]
