"""fuse and optimize_fusion: a worked example, conventions, errors, and ranx's grid search."""

from __future__ import annotations

import numpy as np
import pytest
from fusion_helpers import to_ranx

import scorekit as sk
from scorekit import EmptyInputError, LengthMismatchError, NonFiniteError, ParameterError


def test_rrf_worked_example_cormack_2009():
    # Cormack, Clarke & Buttcher (SIGIR 2009): RRFscore(d) = sum over rankings of 1 / (k + r(d)),
    # k = 60. Ranking A: d1 d2 d3; ranking B: d3 d1 (d2 not retrieved).
    a = sk.Run.from_dict({"q": {"d1": 0.9, "d2": 0.5, "d3": 0.1}})
    b = sk.Run.from_dict({"q": {"d3": 12.0, "d1": 7.0}})
    fused = sk.fuse([a, b], method="rrf", norm=None, k=60).to_dict()["q"]
    # d1: 1/61 + 1/62 = 123/3782; d3: 1/63 + 1/61 = 124/3843; d2: 1/62
    assert fused == {"d1": 1 / 61 + 1 / 62, "d3": 1 / 63 + 1 / 61, "d2": 1 / 62}
    assert list(fused) == ["d1", "d3", "d2"]  # 0.03252 > 0.03227 > 0.01613
    assert abs(fused["d1"] - 123 / 3782) < 1e-15
    assert abs(fused["d3"] - 124 / 3843) < 1e-15


def test_combmnz_by_hand_and_aliases():
    a = sk.Run.from_dict({"q": {"x": 4.0, "y": 2.0, "z": 0.0}})
    b = sk.Run.from_dict({"q": {"y": 1.0, "w": 0.0}})
    # min-max: a -> x 1, y 0.5, z 0; b -> y 1, w 0. MNZ: y (0.5 + 1) * 2 = 3, x 1, z 0, w 0
    got = sk.fuse([a, b], method="CombMNZ", norm="min-max").to_dict()["q"]
    assert got == {"y": 3.0, "x": 1.0, "z": 0.0, "w": 0.0}
    assert sk.fuse([a, b], method="mnz").to_dict() == sk.fuse([a, b], method="combmnz").to_dict()


def test_missing_query_counts_as_empty_list_and_inputs_untouched():
    a = sk.Run.from_dict({"q1": {"x": 1.0}, "q2": {"y": 2.0}})
    b = sk.Run.from_dict({"q1": {"x": 3.0, "z": 1.0}})
    before = (a.to_dict(), b.to_dict())
    got = sk.fuse([a, b], method="sum", norm=None).to_dict()
    assert got == {"q1": {"x": 4.0, "z": 1.0}, "q2": {"y": 2.0}}
    assert (a.to_dict(), b.to_dict()) == before


def test_fused_ties_by_document_id_descending():
    a = sk.Run.from_dict({"q": {"a": 1.0, "b": 0.0}})
    b = sk.Run.from_dict({"q": {"b": 1.0, "a": 0.0}})
    assert list(sk.fuse([a, b], method="sum").to_dict()["q"]) == ["b", "a"]


def test_input_ties_ranked_by_document_id_descending():
    # equal scores: the run's rank order (id descending) gives the ranks, d2 before d1
    a = sk.Run.from_dict({"q": {"d1": 1.0, "d2": 1.0}})
    b = sk.Run.from_dict({"q": {"d3": 1.0}})
    got = sk.fuse([a, b], method="rrf", norm=None, k=0).to_dict()["q"]
    assert got == {"d2": 1.0, "d3": 1.0, "d1": 0.5}


def test_condorcet_cycle_is_copeland_with_id_ties():
    # a > b > c > a (a Condorcet cycle): every document wins once; ties by id descending
    r1 = sk.Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}})
    r2 = sk.Run.from_dict({"q": {"b": 3.0, "c": 2.0, "a": 1.0}})
    r3 = sk.Run.from_dict({"q": {"c": 3.0, "a": 2.0, "b": 1.0}})
    got = sk.fuse([r1, r2, r3], method="condorcet", norm=None).to_dict()["q"]
    assert got == {"c": 3.0, "b": 2.0, "a": 1.0}


RUNS = [sk.Run.from_dict({"q": {"a": 1.0}}), sk.Run.from_dict({"q": {"b": 1.0}})]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "rff"}, ParameterError, "did you mean 'rrf'"),
        ({"method": "CombSUMM"}, ParameterError, "did you mean 'combsum'"),
        ({"norm": "minmax2"}, ParameterError, "norm='minmax2'"),
        ({"method": "wsum", "weights": [1.0]}, LengthMismatchError, "weights has 1 entries for 2"),
        ({"method": "wsum", "weights": [1.0, np.nan]}, NonFiniteError, "weights"),
        ({"method": "rrf", "weights": [1.0, 1.0]}, ParameterError, "takes no weights"),
        ({"method": "rrf", "k": -1}, ParameterError, "k=-1"),
        ({"method": "rrf", "params": {"kk": 3}}, ParameterError, "no parameter 'kk'"),
        ({"method": "rbc"}, ParameterError, "needs the parameter 'phi'"),
        ({"method": "rbc", "phi": 1.5}, ParameterError, "phi=1.5"),
        ({"method": "logn_isr", "sigma": 2}, ParameterError, "sigma=2"),
        ({"method": "gmnz", "gamma": float("nan")}, ParameterError, "gamma=nan"),
        ({"method": "slidefuse", "params": {"probs": [[1.0], [1.0]]}}, ParameterError, "'w'"),
        (
            {"method": "posfuse", "params": {"probs": [[1.0]]}},
            LengthMismatchError,
            "one entry per run",
        ),
        ({"method": "probfuse"}, ParameterError, "pass qrels="),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        sk.fuse(RUNS, **kwargs)


def test_bad_runs():
    with pytest.raises(EmptyInputError, match="at least 2"):
        sk.fuse([])
    with pytest.raises(EmptyInputError, match="at least 2"):
        sk.fuse(RUNS[:1])
    with pytest.raises(ParameterError, match=r"runs\[1\] is a dict"):
        sk.fuse([RUNS[0], {"q": {"a": 1.0}}])
    with pytest.raises(ParameterError, match="list"):
        sk.fuse(RUNS[0])


def test_dict_of_runs_and_tag():
    fused = sk.fuse({"a": RUNS[0], "b": RUNS[1]}, method="rrf")
    assert fused.tag == "rrf"
    assert sk.fuse(RUNS, method="rrf", tag="hybrid").tag == "hybrid"


def test_weight_grid_is_ranx_grid():
    from ranx.fusion_optimization.optimize_weights import get_possible_weights, get_trial_configs

    from scorekit.fusion._optimize import weight_grid

    for step, n in [(0.1, 2), (0.1, 3), (0.25, 3), (0.05, 2)]:
        assert weight_grid(step, n) == get_trial_configs(get_possible_weights(step), n)


def _data(seed, n_runs=2):
    rng = np.random.default_rng(seed)
    qids = [f"q{i}" for i in range(8)]
    qrels = {q: {f"d{d}": int(rng.integers(0, 3)) for d in range(12)} for q in qids}
    runs = [
        {q: {f"d{d}": float(rng.random()) for d in range(12)} for q in qids} for _ in range(n_runs)
    ]
    return qids, qrels, runs


@pytest.mark.reference
@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    ("method", "grid"),
    [
        ("wsum", {}),
        ("mixed", {"step": 0.25}),
        ("rrf", {}),
        ("rbc", {"min_phi": 0.1, "max_phi": 0.9, "step": 0.1}),
        ("gmnz", {"step": 0.2}),
    ],
)
@pytest.mark.parametrize("metric", ["ndcg@10", "map@100", "mrr"])
def test_optimize_fusion_matches_ranx(method, grid, metric):
    ranx = pytest.importorskip("ranx")
    qids, qrels, runs = _data(1, n_runs=3 if method == "mixed" else 2)
    ours = [sk.Run.from_dict(r) for r in runs]
    theirs = [to_ranx(r, qids) for r in ours]
    best, report = ranx.optimize_fusion(
        ranx.Qrels(qrels),
        theirs,
        norm="min-max",
        method=method,
        metric=metric,
        return_optimization_report=True,
        show_progress=False,
        **grid,
    )
    got = sk.optimize_fusion(sk.Qrels.from_dict(qrels), ours, method=method, metric=metric, **grid)
    # ranx labels a setting with numpy reprs ("(np.float64(0.1), ...)"), we with plain floats
    assert [s.replace("np.float64(", "").replace(")", "") for s in report.configs] == [
        s.replace(")", "") for s in got.tried
    ]
    np.testing.assert_allclose(list(got.tried.values()), report.results, rtol=1e-12, atol=1e-12)
    key = next(iter(best))
    assert list(got.best_params) == [key]
    np.testing.assert_array_equal(got.best_params[key], best[key])


def test_optimize_fusion_trained_and_errors():
    _qids, qrels, runs = _data(2)
    q = sk.Qrels.from_dict(qrels)
    ours = [sk.Run.from_dict(r) for r in runs]
    trained = sk.optimize_fusion(q, ours, method="segfuse")
    fused = sk.fuse(ours, method="segfuse", params=trained.best_params)
    assert fused.to_dict() == sk.fuse(ours, method="segfuse", qrels=q).to_dict()
    with pytest.raises(ParameterError, match="nothing to optimise"):
        sk.optimize_fusion(q, ours, method="sum")
    with pytest.raises(ParameterError, match=r"qrels must be a scorekit\.Qrels"):
        sk.optimize_fusion(qrels, ours, method="rrf")
    with pytest.raises(ParameterError, match="no option 'min_kk'"):
        sk.optimize_fusion(q, ours, method="rrf", min_kk=3)
