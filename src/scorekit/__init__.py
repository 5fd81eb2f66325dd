"""scorekit: exact, fast, scalable metrics for ML models.

Classification, regression, clustering, information-retrieval rankings and
recommendation / CTR models, with the conventions of scikit-learn and trec_eval
written down. ``import scorekit`` loads NumPy and SciPy only; ``scorekit.stream``
and ``scorekit.stats`` load with it, ``scorekit.dask`` on demand.
"""

from __future__ import annotations

from . import classification, clustering, fusion, ranking, recsys, regression, stats, stream
from ._catalog import MetricInfo, metrics
from ._catalog import get as metric_info
from ._errors import *  # noqa: F403
from ._errors import __all__ as _errors_all
from .classification import *  # noqa: F403
from .clustering import *  # noqa: F403
from .fusion import *  # noqa: F403
from .ranking import *  # noqa: F403
from .recsys import *  # noqa: F403
from .regression import *  # noqa: F403

__version__ = "0.1.0"

__all__ = [
    "MetricInfo",
    "__version__",
    "classification",
    "clustering",
    "fusion",
    "ranking",
    "recsys",
    "regression",
    "stats",
    "metric_info",
    "metrics",
    "stream",
    *_errors_all,
    *classification.__all__,
    *clustering.__all__,
    *fusion.__all__,
    *ranking.__all__,
    *recsys.__all__,
    *regression.__all__,
]
