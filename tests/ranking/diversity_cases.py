"""Random subtopic qrels and runs shared by the diversity tests (pyndeval, stream, Dask).

Grades -1..3 (and all-zero queries), documents relevant to several
subtopics, queries with one subtopic, queries only in the run (q4, q10) or
only in the qrels (q3, q8), unjudged retrieved documents, heavy score ties.
"""

from __future__ import annotations

import numpy as np


def random_case(seed: int) -> tuple[list[tuple[str, str, str, int]], list[tuple[str, str, float]]]:
    rng = np.random.default_rng(seed)
    qrels: list[tuple[str, str, str, int]] = []
    run: list[tuple[str, str, float]] = []
    for q in range(12):
        qid = f"q{q}"
        pool = [f"d{i}" for i in rng.choice(60, size=25, replace=False)]
        if q % 6 != 4:  # q4, q10 are only in the run
            n_sub = 1 if q % 5 == 1 else int(rng.integers(1, 7))
            for s in range(n_sub):
                docs = rng.choice(pool, size=int(rng.integers(1, 12)), replace=False)
                grades = rng.integers(-1, 4, docs.size) if q % 7 != 2 else np.zeros(docs.size, int)
                qrels += [
                    (qid, str(s + 1), str(d), int(g)) for d, g in zip(docs, grades, strict=True)
                ]
        if q % 5 != 3:  # q3, q8 are only in the qrels
            docs = rng.choice(
                pool + [f"u{i}" for i in range(5)], size=int(rng.integers(1, 30)), replace=False
            )
            run += [(qid, str(d), float(rng.integers(0, 6)) / 2) for d in docs]
    qrels.sort(key=lambda r: int(r[1]))  # pyndeval numbers subtopics in order of appearance
    return qrels, run
