"""scikit-learn scorers for every catalog metric: ``cross_val_score``, ``GridSearchCV`` and friends.

:func:`scorer` turns a catalog row (:func:`scorekit.metrics`) into a
scikit-learn scorer: the direction comes from the row's ``greater_is_better``,
the estimator method from the inputs it takes (``predict`` for labels and
regression targets, ``predict_proba`` for probabilities, ``decision_function``
or ``predict_proba`` for scores). Needs scikit-learn (not a dependency of
scorekit: ``pip install scikit-learn``); ``import scorekit`` does not import
this module.
"""

from __future__ import annotations

from typing import Any

from ._catalog import get
from ._errors import ParameterError
from ._optional import require

__all__ = ["scorer"]

#: the estimator method that gives each kind of input
RESPONSE_METHOD: dict[str, str | tuple[str, ...]] = {
    "labels": "predict",
    "multilabel": "predict",
    "regression": "predict",
    "clustering": "predict",
    "probabilities": "predict_proba",
    "multiclass_scores": "predict_proba",
    "multilabel_scores": "predict_proba",
    "decision": "decision_function",
    "scores": ("decision_function", "predict_proba"),
    "groups": ("decision_function", "predict_proba"),
}


def scorer(name: str, **options: Any) -> Any:
    """A scikit-learn scorer of the catalog metric ``name``.

    Parameters
    ----------
    name : str
        A scalar catalog metric whose inputs are labels, scores, probabilities,
        decision values, regression targets or groups (``"roc_auc"``,
        ``"f1_macro"``, ``"mae"``, ``"gauc"`` ...).
    **options
        Keyword arguments of the metric (``pos_label=``, ``weights=`` for GAUC ...).

    Returns
    -------
    scorer
        As :func:`sklearn.metrics.make_scorer` builds it: lower-is-better metrics
        are negated, as scikit-learn's ``neg_*`` scorers are. GAUC needs the
        group of each row: enable scikit-learn's metadata routing and request it
        with ``scorer("gauc").set_score_request(groups=True)``, then pass
        ``params={"groups": g}`` (``cross_validate``) or ``groups=g`` (``fit``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> s = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=scorer("roc_auc"))
    >>> bool((s > 0.5).all())
    True
    """
    metrics = require("sklearn.metrics", pip="scikit-learn")
    row = get(name)
    if not row.scalar or row.greater_is_better is None:
        raise ParameterError(f"{name} is not a score: a scorer needs one number, higher or lower")
    method = RESPONSE_METHOD.get(row.inputs)
    if method is None:
        raise ParameterError(f"{name} takes {row.inputs}, which no estimator method gives")
    return metrics.make_scorer(
        row.function,
        response_method=method,
        greater_is_better=bool(row.greater_is_better),
        **{**row.options, **options},
    )
