"""``scorekit demo``: a deterministic example evaluated end to end, with an HTML report.

The data come from ``numpy.random.default_rng(DEMO_SEED)``, so every run
prints the same numbers: a binary classifier whose probabilities are a little
over-confident, a three-class model that confuses two of its classes, a
regression with noise that grows with the target, three Gaussian clusters and
a clustering that mislabels the points between them, and a TREC-style
collection of 30 queries with graded judgments ranked by two systems.

Needs the ``plot`` extra (matplotlib) for the report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._typing import AnyArray, FloatArray, IntArray

__all__ = ["DEMO_SEED", "DemoData", "demo_data", "demo_sections", "run_demo"]

DEMO_SEED = 20240607
_BOOTSTRAP = 400
_MEASURES = ("map", "ndcg_cut_10", "P_10", "recip_rank", "recall_20")


@dataclass(frozen=True)
class DemoData:
    """The demo's arrays (see the module docstring)."""

    binary_true: IntArray
    binary_prob: FloatArray
    multi_true: AnyArray
    multi_pred: AnyArray
    reg_true: FloatArray
    reg_pred: FloatArray
    cluster_points: FloatArray
    cluster_true: IntArray
    cluster_pred: IntArray
    rank_query: AnyArray
    rank_doc: AnyArray
    rank_relevance: IntArray
    rank_scores: dict[str, FloatArray]


def demo_data(seed: int = DEMO_SEED) -> DemoData:
    """Generate the demo's data (same seed, same arrays).

    >>> d = demo_data()
    >>> d.binary_true.shape, sorted(d.rank_scores)
    ((2000,), ['bm25', 'neural'])
    """
    rng = np.random.default_rng(seed)
    # Binary: the true log-odds are 2x - 1; the model sees x with noise and is over-confident.
    x = rng.normal(size=2000)
    binary_true = (rng.random(2000) < 1 / (1 + np.exp(-(2.0 * x - 1.0)))).astype(np.int64)
    seen = x + rng.normal(scale=0.45, size=2000)
    binary_prob = 1 / (1 + np.exp(-(2.6 * seen - 1.3)))
    # Multiclass: 85% right; when wrong, dogs and cats are mistaken for each other.
    classes = np.array(["bird", "cat", "dog"])
    multi_code = rng.choice(3, size=900, p=[0.25, 0.4, 0.35])
    wrong = rng.random(900) < np.array([0.08, 0.18, 0.2])[multi_code]
    swap = np.array([1, 2, 1])[multi_code]
    other = np.where(rng.random(900) < 0.8, swap, (multi_code + rng.integers(1, 3, size=900)) % 3)
    multi_pred = classes[np.where(wrong, other, multi_code)]
    multi_true = classes[multi_code]
    # Regression: noise grows with the target; the model shrinks towards the mean.
    z = rng.uniform(0, 10, size=600)
    reg_true = 3.0 + 2.0 * z + rng.normal(scale=0.3 + 0.15 * z)
    reg_pred = 0.92 * reg_true + 0.08 * reg_true.mean() + rng.normal(scale=1.2, size=600)
    # Clustering: three blobs; the clustering assigns each point to the nearest shifted centre.
    centres = np.array([[0.0, 0.0], [4.0, 1.0], [1.5, 4.0]])
    cluster_true = np.repeat(np.arange(3), 200)
    cluster_points = centres[cluster_true] + rng.normal(scale=1.0, size=(600, 2))
    guessed = centres + np.array([[0.4, 0.3], [-0.5, 0.2], [0.1, -0.6]])
    dist = ((cluster_points[:, None, :] - guessed[None, :, :]) ** 2).sum(axis=2)
    cluster_pred = dist.argmin(axis=1).astype(np.int64)
    # Ranking: 30 queries x 100 documents, grades 0/1/2; "neural" separates grades better.
    n_q, n_d = 30, 100
    rank_query = np.repeat(np.array([f"q{i:02d}" for i in range(1, n_q + 1)]), n_d)
    rank_doc = np.array([f"d{i:03d}" for i in range(n_q * n_d)])
    grade = rng.choice(3, size=n_q * n_d, p=[0.9, 0.07, 0.03])
    grade[::n_d] = np.maximum(grade[::n_d], 1)  # every query has a relevant document
    strength = rng.uniform(0.3, 1.6, size=n_q).repeat(n_d)  # some queries are hard
    rank_scores = {
        "bm25": grade * strength + rng.normal(scale=1.2, size=n_q * n_d),
        "neural": grade * (strength + 0.45) + rng.normal(scale=1.2, size=n_q * n_d),
    }
    return DemoData(
        binary_true,
        binary_prob,
        multi_true,
        multi_pred,
        reg_true,
        reg_pred,
        cluster_points,
        cluster_true,
        cluster_pred,
        rank_query,
        rank_doc,
        grade.astype(np.int64),
        rank_scores,
    )


def demo_sections(
    data: DemoData, *, bootstrap: int = _BOOTSTRAP, progress: Callable[[str], None] | None = None
) -> list[Any]:
    """Evaluate every part of the demo, one section each."""
    from ..report import (
        classification_section,
        clustering_section,
        ranking_section,
        regression_section,
    )
    from ..report._ranking import evaluate_runs

    step = progress or (lambda message: None)
    parts: list[tuple[str, Callable[[], Any]]] = [
        (
            "Binary classifier",
            lambda: classification_section(
                data.binary_true,
                y_score=data.binary_prob,
                bootstrap=bootstrap,
                title="Binary classifier",
            ),
        ),
        (
            "Multiclass model",
            lambda: classification_section(
                data.multi_true,
                y_pred=data.multi_pred,
                bootstrap=bootstrap,
                title="Multiclass model",
            ),
        ),
        (
            "Regression",
            lambda: regression_section(
                data.reg_true, data.reg_pred, bootstrap=bootstrap, title="Regression"
            ),
        ),
        (
            "Clustering",
            lambda: clustering_section(
                data.cluster_true,
                data.cluster_pred,
                features=data.cluster_points,
                title="Clustering",
                feature_names=("x", "y"),
            ),
        ),
        ("Ranking: two systems", lambda: _ranking(data, evaluate_runs, ranking_section)),
    ]
    sections = []
    for title, build in parts:
        step(f"evaluating: {title.lower()}")
        sections.append(build())
    return sections


def _ranking(data: DemoData, evaluate_runs: Any, ranking_section: Any) -> Any:
    from ..ranking import Qrels, Run, compare

    qrels = Qrels.from_arrays(data.rank_query, data.rank_doc, data.rank_relevance)
    runs = {
        name: Run.from_arrays(data.rank_query, data.rank_doc, s)
        for name, s in data.rank_scores.items()
    }
    results = evaluate_runs(qrels, runs, _MEASURES)
    comparison = compare(
        qrels, runs, list(_MEASURES), test="randomization", correction="holm", seed=0
    )
    return ranking_section(
        results,
        comparison=comparison,
        bootstrap=1000,
        title="Ranking: two systems",
        notes=[
            "30 queries, 100 judged documents each (grades 0, 1, 2), all retrieved by both systems. "
            "Paired randomization test (10,000 sign flips), Holm correction."
        ],
    )


_HEADLINES = {
    "Binary classifier": ("roc_auc", "average_precision", "log_loss", "brier_score", "f1"),
    "Multiclass model": ("accuracy", "f1_macro", "cohen_kappa"),
    "Regression": ("mae", "rmse", "r2"),
    "Clustering": ("adjusted_rand_index", "normalized_mutual_info", "silhouette_score"),
}
_SHORT = {
    "Binary classifier": "binary",
    "Multiclass model": "multiclass",
    "Regression": "regression",
    "Clustering": "clustering",
    "Ranking: two systems": "ranking",
}


def summary_rows(sections: list[Any]) -> list[list[Any]]:
    """The summary table: headline metrics of each section, measures of each ranked system."""
    rows: list[list[Any]] = []
    for s in sections:
        label = _SHORT.get(s.title, s.title)
        if s.kind == "ranking":
            measures = s.tables[0]
            systems = [c for c in measures.columns[1:] if not c.endswith(("CI low", "CI high"))]
            for row in measures.rows:
                if row[0] in ("map", "ndcg_cut_10"):
                    for system in systems:
                        k = measures.columns.index(system)
                        low, high = (
                            (row[k + 1], row[k + 2])
                            if f"{system} CI low" in measures.columns
                            else (None, None)
                        )
                        rows.append([label, f"{row[0]} ({system})", row[k], low, high])
            tests = next((t for t in s.tables if t.title == "Significance tests"), None)
            for r in tests.rows if tests is not None else ():
                if r[0] in ("map", "ndcg_cut_10"):
                    name = f"p_adjusted {r[0]} ({r[1]} vs {r[2]})"
                    rows.append([label, name, r[7], None, None])
            continue
        wanted = _HEADLINES.get(s.title)
        rows += [
            [label, m.name, m.value, m.ci_low, m.ci_high]
            for m in s.metrics
            if wanted is None or m.name in wanted
        ]
    return rows


def run_demo(
    out: Path, *, progress: Callable[[str], None] | None = None
) -> tuple[list[list[Any]], Path]:
    """Evaluate the demo, write the report to ``out``; return the summary rows and the path."""
    from ..report import Report

    step = progress or (lambda message: None)
    sections = demo_sections(demo_data(), progress=step)
    step("drawing the report")
    report = Report(
        "scorekit demo report",
        sections,
        subtitle=f"Deterministic example data (numpy default_rng seed {DEMO_SEED}); "
        "95% intervals from the bootstrap.",
    )
    path = report.write(out).resolve()
    return summary_rows(sections), path
