"""scorekit.sklearn.scorer: catalog metrics inside scikit-learn's model selection."""

from __future__ import annotations

import numpy as np
import pytest

import scorekit as sk

sklearn = pytest.importorskip("sklearn")
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge  # noqa: E402
from sklearn.metrics import get_scorer  # noqa: E402
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score  # noqa: E402

from scorekit.sklearn import scorer  # noqa: E402


def test_scores_equal_sklearn_builtin_scorers():
    X, y = make_classification(n_samples=300, random_state=0)
    cv = KFold(3, shuffle=True, random_state=0)
    model = LogisticRegression()
    for ours, theirs in [
        ("roc_auc", "roc_auc"),
        ("f1_macro", "f1_macro"),
        ("log_loss", "neg_log_loss"),
    ]:
        a = cross_val_score(model, X, y, cv=cv, scoring=scorer(ours))
        b = cross_val_score(model, X, y, cv=cv, scoring=get_scorer(theirs))
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_lower_is_better_is_negated_in_grid_search():
    X, y = make_regression(n_samples=200, n_features=5, noise=10.0, random_state=0)
    search = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0, 1e4]}, cv=3, scoring=scorer("mae"))
    search.fit(X, y)
    reference = GridSearchCV(
        Ridge(), {"alpha": [0.1, 10.0, 1e4]}, cv=3, scoring="neg_mean_absolute_error"
    ).fit(X, y)
    assert search.best_params_ == reference.best_params_
    np.testing.assert_allclose(
        search.cv_results_["mean_test_score"], reference.cv_results_["mean_test_score"], rtol=1e-12
    )
    assert (search.cv_results_["mean_test_score"] < 0).all()
    assert cross_val_score(LinearRegression(), X, y, cv=3, scoring=scorer("r2")).mean() > 0.5


def test_gauc_gets_the_groups_through_metadata_routing():
    X, y = make_classification(n_samples=400, random_state=1)
    groups = np.random.default_rng(0).integers(0, 20, 400)
    with sklearn.config_context(enable_metadata_routing=True):
        gauc = scorer("gauc").set_score_request(groups=True)
        search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=2, scoring=gauc)
        search.fit(X, y, groups=groups)
    folds = list(KFold(2).split(X))  # GridSearchCV's default for a classifier is stratified
    assert search.best_score_ == pytest.approx(max(search.cv_results_["mean_test_score"]))
    # the value of one fold by hand: the fitted model's scores, gauc on the held-out rows
    train, test = folds[0]
    model = LogisticRegression(C=1.0).fit(X[train], y[train])
    direct = sk.gauc(y[test], model.decision_function(X[test]), groups[test])
    with sklearn.config_context(enable_metadata_routing=True):
        gauc = scorer("gauc").set_score_request(groups=True)
        routed = gauc(model, X[test], y[test], groups=groups[test])
    assert routed == direct


def test_non_scores_are_refused():
    with pytest.raises(sk.ParameterError, match="not a score"):
        scorer("confusion_matrix")
    with pytest.raises(sk.UnknownMetricError, match="did you mean"):
        scorer("roc_aucc")
