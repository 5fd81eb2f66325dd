"""Classification metrics: scikit-learn's semantics, sort- and bincount-based kernels."""

from __future__ import annotations

from ._calibration import *  # noqa: F403
from ._calibration import __all__ as _calibration_all
from ._counts import *  # noqa: F403
from ._counts import __all__ as _counts_all
from ._curves import *  # noqa: F403
from ._curves import __all__ as _curves_all
from ._multilabel_ranking import *  # noqa: F403
from ._multilabel_ranking import __all__ as _multilabel_ranking_all
from ._operating import *  # noqa: F403
from ._operating import __all__ as _operating_all
from ._proba import *  # noqa: F403
from ._proba import __all__ as _proba_all
from ._ratios import *  # noqa: F403
from ._ratios import __all__ as _ratios_all
from ._report import *  # noqa: F403
from ._report import __all__ as _report_all
from ._thresholds import *  # noqa: F403
from ._thresholds import __all__ as _thresholds_all

__all__ = [
    *_calibration_all,
    *_counts_all,
    *_curves_all,
    *_multilabel_ranking_all,
    *_operating_all,
    *_proba_all,
    *_ratios_all,
    *_report_all,
    *_thresholds_all,
]
