"""The conventions of evaluate(): ties=, ap_denominator=, missing_queries=, ndcg_ideal=, gain=, compat=.

Each option is checked against a plain-Python reference on random runs with
heavy ties, graded and unjudged documents, relevant documents never retrieved
and queries missing from the run; every error case has its test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekit import EmptyInputError, ParameterError
from scorekit.ranking import Qrels, Run, evaluate
from scorekit.ranking._conventions import PRESETS, Conventions, resolve_conventions
from scorekit.ranking._measures import MEASURES

SUPPORTED = sorted(
    (d.name for d in MEASURES if d.tied is not None and d.name != "runid"),
    key=str.lower,
)

ALL = ["all_trec", "nDCG@3", "AP@3", "RR@2", "hit_rate@3", "dcg", "micro_set_F"]


def random_case(seed: int, n_q: int = 12) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(n_q):
        pool = [f"d{i}" for i in rng.choice(40, size=15, replace=False)]
        if q % 5 != 3:  # q3, q8: in the run only
            judged = rng.choice(pool, size=int(rng.integers(1, 12)), replace=False)
            qrels[f"q{q}"] = {str(d): int(rng.integers(-1, 4)) for d in judged}
            qrels[f"q{q}"][f"never{q}"] = 1  # relevant, never retrieved
        if q % 7 != 2:  # q2, q9: in the qrels only
            docs = rng.permutation(pool)[: int(rng.integers(1, 15))]
            run[f"q{q}"] = {str(d): float(rng.integers(0, 4)) for d in docs}
    return qrels, run


def code(qrels_q: dict, doc: str) -> int:
    g = qrels_q.get(doc)
    return -1 if g is None else (-2 if g < 0 else g)


def reference_order(qrels_q: dict, run_q: dict, ties: str, rel_level: int, gain) -> list[str]:
    """The ranking a tie policy asks for, by Python's stable sorts (input order = dict order)."""
    docs = list(run_q)
    if ties in ("docid_desc", "optimistic", "pessimistic"):
        docs.sort(key=lambda d: d.encode(), reverse=True)
    elif ties == "docid_asc":
        docs.sort(key=lambda d: d.encode())
    if ties in ("optimistic", "pessimistic"):
        sign = -1 if ties == "optimistic" else 1

        def key(d):
            c = code(qrels_q, d)
            return (sign * (c >= rel_level), sign * gain(c), sign * c)

        docs.sort(key=key)
    docs.sort(key=lambda d: -run_q[d])  # stable: the tie order above is kept
    return docs


def untied(qrels: dict, run: dict, ties: str, rel_level: int = 1, gain=lambda c: max(c, 0)):
    """The same run with strictly decreasing scores in the order ``ties`` asks for."""
    out = {}
    for qid, docs in run.items():
        order = reference_order(qrels.get(qid, {}), docs, ties, rel_level, gain)
        out[qid] = {d: float(len(order) - i) for i, d in enumerate(order)}
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "ties", ["docid_desc", "docid_asc", "input_order", "optimistic", "pessimistic"]
)
@pytest.mark.parametrize(
    "options", [{}, {"rel_level": 2}, {"max_docs": 4, "judged_only": True}], ids=str
)
def test_tie_policies_against_python_sorts(seed, ties, options):
    qrels, run = random_case(seed)
    got = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), ALL, ties=ties, **options)
    level = options.get("rel_level", 1)
    ref = untied(qrels, run, ties, level)
    expected = evaluate(Qrels.from_dict(qrels), Run.from_dict(ref), ALL, **options)
    assert got.per_query == expected.per_query
    assert got.mean() == expected.mean()


def test_optimistic_orders_ties_by_gain_under_a_gain_mapping():
    # grade 1 gains 5 and grade 2 gains 1: both relevant, so optimistic puts grade 1 first
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0}}
    mapping = {0: 0.0, 1: 5.0, 2: 1.0}
    gain = lambda c: mapping.get(c, 0.0)  # noqa: E731
    for ties in ("optimistic", "pessimistic"):
        got = evaluate(
            Qrels.from_dict(qrels), Run.from_dict(run), ["nDCG", "AP"], ties=ties, gain=mapping
        )
        ref = untied(qrels, run, ties, gain=gain)
        assert ref["q"]["b" if ties == "optimistic" else "c"] == 3.0
        expected = evaluate(
            Qrels.from_dict(qrels), Run.from_dict(ref), ["nDCG", "AP"], gain=mapping
        )
        assert got.per_query == expected.per_query


def test_input_order_is_the_line_order_of_a_trec_file(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q Q0 b 1 0.5 t\nq Q0 a 2 0.9 t\nq Q0 c 3 0.5 t\nq Q0 d 4 0.5 t\n")
    qrels = Qrels.from_dict({"q": {"d": 1}})
    run = Run.from_trec(path)
    # ranks: a (0.9), then the tie b, c, d in file order: d at rank 4
    assert evaluate(qrels, run, "RR", ties="input_order").mean()["RR"] == 0.25
    # trec_eval: ties by id descending, d first after a
    assert evaluate(qrels, run, "RR").mean()["RR"] == 0.5


@st.composite
def untied_cases(draw):
    n_q = draw(st.integers(1, 4))
    qrels, run = {}, {}
    for q in range(n_q):
        n = draw(st.integers(1, 7))
        scores = draw(st.lists(st.integers(-40, 40), min_size=n, max_size=n, unique=True))
        docs = draw(st.permutations([f"d{i}" for i in range(n)]))
        run[f"q{q}"] = {d: s / 4 for d, s in zip(docs, scores, strict=True)}
        grades = draw(st.lists(st.integers(-1, 3), min_size=1, max_size=n + 2))
        qrels[f"q{q}"] = {f"d{i}": g for i, g in enumerate(grades)}
    return qrels, run


@given(case=untied_cases(), level=st.integers(1, 2), cut=st.sampled_from([None, 1, 3]))
def test_without_ties_every_policy_gives_the_same_numbers(case, level, cut):
    qrels, run = case
    q, r = Qrels.from_dict(qrels), Run.from_dict(run)
    base = evaluate(q, r, ALL, rel_level=level, max_docs=cut)
    for ties in ("docid_asc", "input_order", "optimistic", "pessimistic"):
        got = evaluate(q, r, ALL, rel_level=level, max_docs=cut, ties=ties)
        assert got.per_query == base.per_query, ties
    names = [m for m in SUPPORTED if not (cut and m in ("set_map", "set_F", "micro_set_F"))]
    by_name = {d.name: d for d in MEASURES}
    names = [
        m if by_name[m].syntax != "cut_int" else f"{m}.3" if by_name[m].trec else f"{m}@3"
        for m in names
    ]
    names = [n.replace("RR_cut@3", "RR@3") for n in names]
    avg = evaluate(q, r, names, rel_level=level, max_docs=cut, ties="average")
    ref = evaluate(q, r, names, rel_level=level, max_docs=cut)
    for m, values in avg.per_query.items():
        for qid, v in values.items():
            assert v == pytest.approx(ref.per_query[m][qid], rel=1e-12, abs=1e-15), m


# ----------------------------------------------------------------- AP
def python_ap(codes: list[int], num_rel: int, k: int | None, how: str) -> float:
    top = codes if k is None else codes[:k]
    hits, total = 0, 0.0
    for i, c in enumerate(top, 1):
        if c >= 1:
            hits += 1
            total += hits / i
    den = {"relevant": num_rel, "min_relevant_k": min(num_rel, k or num_rel), "hits": hits}[how]
    return total / den if den else 0.0


@pytest.mark.parametrize("how", ["relevant", "min_relevant_k", "hits"])
def test_ap_denominators_against_python(how):
    qrels, run = random_case(7, n_q=20)
    res = evaluate(
        Qrels.from_dict(qrels), Run.from_dict(run), ["AP", "AP@3", "AP@10"], ap_denominator=how
    )
    for qid in res.query_ids:
        docs = sorted(run[qid].items(), key=lambda kv: (kv[1], kv[0].encode()), reverse=True)
        codes = [code(qrels[qid], d) for d, _ in docs]
        num_rel = sum(g >= 1 for g in qrels[qid].values())
        for key, k in (("AP", None), ("AP@3", 3), ("AP@10", 10)):
            assert res.per_query[key][qid] == pytest.approx(python_ap(codes, num_rel, k, how))


def test_ap_denominator_worked_example():
    # R = 4 relevant; the run ranks rel, x, rel, y, rel. The top 3 hold 2 relevant documents
    # at ranks 1 and 3: precisions 1/1 and 2/3, sum 5/3.
    # AP@3 = (5/3)/4 = 0.4167 (trec_eval), (5/3)/min(4, 3) = 0.5556 (Spark, RecBole),
    # (5/3)/2 = 0.8333 (torchmetrics).
    qrels = Qrels.from_dict({"q": {"r1": 1, "r2": 1, "r3": 1, "r4": 1}})
    run = Run.from_dict({"q": {"r1": 5.0, "x": 4.0, "r2": 3.0, "y": 2.0, "r3": 1.0}})
    got = [
        evaluate(qrels, run, "AP@3", ap_denominator=how).mean()["AP@3"]
        for how in ("relevant", "min_relevant_k", "hits")
    ]
    assert got == pytest.approx([5 / 12, 5 / 9, 5 / 6], rel=1e-15)
    assert [round(v, 4) for v in got] == [0.4167, 0.5556, 0.8333]


# --------------------------------------------------------- missing queries
def test_missing_queries():
    qrels = Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}})
    run = Run.from_dict({"q1": {"a": 1.0}, "q3": {"x": 1.0, "c": 0.5}, "q9": {"a": 1.0}})
    # q1 RR 1, q3 RR 1/2; q2 missing; q9 has no judgments and is never evaluated
    ignore = evaluate(qrels, run, "RR", missing_queries="ignore")
    assert ignore.query_ids == ("q1", "q3")
    assert ignore.mean()["RR"] == 0.75
    zero = evaluate(qrels, run, "RR", missing_queries="zero")
    assert zero.query_ids == ("q1", "q2", "q3")
    assert zero.mean()["RR"] == 0.5
    assert evaluate(qrels, run, "RR", all_queries=True).per_query == zero.per_query


def test_missing_queries_error_names_them():
    qrels = Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}})
    run = Run.from_dict({"q1": {"a": 1.0}})
    with pytest.raises(EmptyInputError, match=r"2 qrels queries: 'q2', 'q3'"):
        evaluate(qrels, run, "RR", missing_queries="error")
    with pytest.raises(EmptyInputError, match=r"2 qrels queries: 'q2', 'q3'"):
        evaluate(qrels, run, "RR", compat="ranx")  # ranx asserts equal query sets


def test_missing_queries_error_passes_when_none_is_missing():
    qrels = Qrels.from_dict({"q1": {"a": 1}})
    run = Run.from_dict({"q1": {"a": 1.0}, "q2": {"a": 1.0}})
    assert evaluate(qrels, run, "RR", missing_queries="error").mean() == {"RR": 1.0}


def test_all_queries_conflicts_with_another_missing_queries():
    qrels, run = Qrels.from_dict({"q": {"a": 1}}), Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(ParameterError, match="all_queries=True means missing_queries='zero'"):
        evaluate(qrels, run, "map", all_queries=True, missing_queries="ignore")


# -------------------------------------------------------- nDCG ideal, gain
def python_ndcg(qrels_q, ranking, gain, ideal, k=None):
    gains = [gain(code(qrels_q, d)) for d in ranking]
    top = gains if k is None else gains[:k]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(top))
    pool = [gain(g) for d, g in qrels_q.items() if g >= 0 and (ideal == "judged" or d in ranking)]
    best = sorted((g for g in pool if g > 0), reverse=True)
    best = best if k is None else best[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(best))
    return dcg / idcg if idcg > 0 else 0.0


GAINS = {
    "linear": lambda c: float(max(c, 0)),
    "exponential": lambda c: 2.0 ** max(c, 0) - 1,
    "binary": lambda c: float(c >= 1),
}


@pytest.mark.parametrize("ideal", ["judged", "candidates"])
@pytest.mark.parametrize("gain", ["linear", "exponential", "binary", "mapping"])
def test_ndcg_ideal_and_gain_against_python(ideal, gain):
    qrels, run = random_case(11, n_q=20)
    mapping = {0: 0.25, 1: 1.0, 2: 2.5, 3: 10.0}
    option = mapping if gain == "mapping" else gain
    fn = GAINS.get(gain, lambda c: mapping[c] if c >= 0 else 0.0)
    res = evaluate(
        Qrels.from_dict(qrels),
        Run.from_dict(run),
        ["ndcg", "nDCG@3"],
        ndcg_ideal=ideal,
        gain=option,
    )
    for qid in res.query_ids:
        ranking = [d for d, _ in sorted(run[qid].items(), key=lambda kv: (kv[1], kv[0].encode()),
                                        reverse=True)]  # fmt: skip
        assert res.per_query["ndcg"][qid] == pytest.approx(
            python_ndcg(qrels[qid], ranking, fn, ideal), rel=1e-12, abs=1e-15
        )
        assert res.per_query["nDCG@3"][qid] == pytest.approx(
            python_ndcg(qrels[qid], ranking, fn, ideal, 3), rel=1e-12, abs=1e-15
        )


def test_ndcg_ideal_worked_example():
    # q: a (grade 1) retrieved at rank 1, b (grade 2) never retrieved.
    # judged ideal: 2/1 + 1/log2(3) = 2.6309, nDCG = 1/2.6309 = 0.3801;
    # candidates ideal: a alone, 1/1, nDCG = 1.
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 2}})
    run = Run.from_dict({"q": {"a": 1.0, "x": 0.5}})
    judged = evaluate(qrels, run, "ndcg").mean()["ndcg"]
    assert judged == pytest.approx(1 / (2 + 1 / math.log2(3)), rel=1e-15)
    assert evaluate(qrels, run, "ndcg", ndcg_ideal="candidates").mean()["ndcg"] == 1.0


def test_gain_mapping_with_measure_parameters_on_top():
    # the measure's own ndcg.2=9 maps grade 2 after the gain= mapping gives grade 1 gain 3
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 2}})
    run = Run.from_dict({"q": {"a": 2.0, "b": 1.0}})
    res = evaluate(qrels, run, ["ndcg.2=9"], gain={0: 0, 1: 3, 2: 4}).mean()["ndcg_2=9"]
    dcg = 3 + 9 / math.log2(3)
    assert res == pytest.approx(dcg / (9 + 3 / math.log2(3)), rel=1e-15)


def test_gain_mapping_keys_may_be_integer_strings():
    qrels, run = Qrels.from_dict({"q": {"a": 1}}), Run.from_dict({"q": {"a": 1.0}})
    assert evaluate(qrels, run, "ndcg", gain={"0": 0, "1": 2}).mean() == {"ndcg": 1.0}


# ------------------------------------------------------------------ compat
def test_presets_and_overrides():
    assert resolve_conventions() == Conventions()
    assert resolve_conventions(compat="trec_eval") == PRESETS["trec_eval"]
    spark = resolve_conventions(compat="spark", ties="docid_desc")
    assert (spark.ties, spark.ap_denominator, spark.gain) == (
        "docid_desc",
        "min_relevant_k",
        "binary",
    )
    ranx = resolve_conventions(compat="ranx", gain="exponential")
    assert ranx.gain == "exponential"
    assert ranx.gain_from_level


def test_compat_sets_the_options_as_a_whole():
    qrels, run = random_case(3)
    q, r = Qrels.from_dict(qrels), Run.from_dict(run)
    measures = ["nDCG@5", "AP@5", "P@5", "RR"]
    preset = evaluate(q, r, measures, compat="torchmetrics")
    explicit = evaluate(
        q, r, measures, ties="average", ap_denominator="hits", ndcg_ideal="candidates"
    )
    assert preset.per_query == explicit.per_query


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ties": "random"}, "ties='random' is not one of"),
        ({"ap_denominator": "k"}, "ap_denominator='k' is not one of"),
        ({"missing_queries": "skip"}, "missing_queries='skip' is not one of"),
        ({"ndcg_ideal": "run"}, "ndcg_ideal='run' is not one of"),
        ({"compat": "trec"}, "compat='trec' is not one of"),
        ({"gain": "log2"}, "gain='log2' is not one of"),
        ({"gain": {1.5: 2}}, "gain mapping keys must be integer grades, got 1.5"),
        ({"gain": {"one": 2}}, "gain mapping keys must be integer grades, got 'one'"),
        ({"gain": {1: "high"}}, r"gain\[1\] must be a number"),
        ({"gain": {1: float("nan")}}, r"gain\[1\] must be finite"),
        ({"gain": {}}, "gain mapping is empty"),
        ({"gain": {0: 0, 1: 1}}, r"no entry for grade\(s\) 3"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bad_convention_options_raise(options, message):
    qrels = Qrels.from_dict({"q": {"a": 1, "b": 3, "c": -1}})
    run = Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(ParameterError, match=message):
        evaluate(qrels, run, "ndcg", **options)
