"""Qrels and Run: constructors, TREC reading and writing, ordering, every error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekit import (
    DuplicateDocumentError,
    EmptyInputError,
    LabelError,
    LengthMismatchError,
    NonFiniteError,
    ParseError,
)
from scorekit.ranking import Qrels, Run, _trec, evaluate

CLEAN_RUN = "q1 Q0 a 1 3.5 tagA\nq1 Q0 b 2 2 tagA\nq2 Q0 a 1 -1e-3 tagB\n"
EXPECTED_RUN = {"q1": {"a": 3.5, "b": 2.0}, "q2": {"a": -0.001}}


def write(tmp_path, text, name="f.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


# ----------------------------------------------------------------- reading
def test_read_clean_run(tmp_path):
    run = Run.from_trec(write(tmp_path, CLEAN_RUN))
    assert run.to_dict() == EXPECTED_RUN
    assert run.tag == "tagB"  # trec_eval keeps the tag of the last line


@pytest.mark.parametrize(
    "text",
    [
        CLEAN_RUN.replace(" ", "\t"),
        CLEAN_RUN.replace(" ", "   "),
        "  " + CLEAN_RUN.replace("\n", "  \n"),
        CLEAN_RUN.replace("\n", "\r\n"),
        "\n# a comment line\n" + CLEAN_RUN.replace("\n", "\n\n", 1),
        CLEAN_RUN.replace("tagA", "tagA extra junk fields").replace("tagB", "tagB junk"),
        CLEAN_RUN.rstrip("\n"),  # no final newline
    ],
    ids=["tabs", "spaces", "indented", "crlf", "comments-blank", "extra-fields", "no-final-nl"],
)
def test_read_run_any_whitespace(tmp_path, text):
    run = Run.from_trec(write(tmp_path, text))
    assert run.to_dict() == EXPECTED_RUN
    assert run.tag == "tagB"


def test_read_qrels(tmp_path):
    text = "q1 0 a 1\nq1 0 b 0\n\nq2\t0\tc\t-1\n"
    assert Qrels.from_trec(write(tmp_path, text)).to_dict() == {
        "q1": {"a": 1, "b": 0},
        "q2": {"c": -1},
    }


def test_blocks_and_line_numbers_across_blocks(tmp_path, monkeypatch):
    lines = [f"q{i % 7} Q0 doc{i} {i} {i % 13 / 4} run" for i in range(400)]
    path = write(tmp_path, "\n".join(lines) + "\n")
    whole = Run.from_trec(path).to_dict()
    monkeypatch.setattr(_trec, "_BLOCK", 97)  # a few lines per block
    assert Run.from_trec(path).to_dict() == whole
    monkeypatch.setattr(_trec, "_MAP_ABOVE", 0)  # memory-mapped, last blocks copied with padding
    assert Run.from_trec(path).to_dict() == whole
    no_newline = write(tmp_path, "\n".join(lines), "no_newline.txt")
    assert Run.from_trec(no_newline).to_dict() == whole
    lines[300] = "q1 Q0 broken"
    bad = write(tmp_path, "\t".join(["x"]) + "\n" + "\n".join(lines) + "\n", "bad.txt")
    with pytest.raises(ParseError, match="line 1: expected at least 6"):
        Run.from_trec(bad)
    bad = write(tmp_path, "\n".join(lines) + "\n", "bad2.txt")
    with pytest.raises(ParseError, match=r"bad2\.txt: line 301: expected at least 6 .* found 3"):
        Run.from_trec(bad)


def test_rank_column_is_ignored_and_ties_go_by_docid_descending(tmp_path):
    text = "q Q0 d10 1 1.0 r\nq Q0 d2 2 1.0 r\nq Q0 d9 3 1.0 r\nq Q0 top 4 2.0 r\n"
    run = Run.from_trec(write(tmp_path, text))
    # equal scores: larger id in byte order first ("d9" > "d2" > "d10")
    assert list(run.to_dict()["q"]) == ["top", "d9", "d2", "d10"]
    assert run.rank.tolist() == [1, 2, 3, 4]


def test_utf8_ids_order_by_bytes():
    run = Run.from_arrays(["q", "q", "q"], ["é", "z", "a"], [1.0, 1.0, 1.0])
    # UTF-8 bytes: "é" = c3 a9 > "z" = 7a > "a" = 61
    assert list(run.to_dict()["q"]) == ["é", "z", "a"]


@pytest.mark.parametrize("block", [1 << 20, 16])
def test_long_ids(tmp_path, monkeypatch, block):
    monkeypatch.setattr(_trec, "_BLOCK", block)  # 16: every line is longer than a block
    long_id = "x" * 100
    text = f"q Q0 {long_id} 1 2.0 r\nq Q0 {long_id}y 2 1.0 r\n" * 1 + "p Q0 a 1 1 r\n"
    run = Run.from_trec(write(tmp_path, text))
    assert list(run.to_dict()["q"]) == [long_id, long_id + "y"]
    assert run.query_ids == ["p", "q"]


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q Q0 a 1 2.0 r\nq Q0 b 1 r\n", r"line 2: expected at least 6 .* found 5"),
        ("q Q0 a 1 high r\n", r"line 1: expected the score to be a number, found 'high'"),
        ("q Q0 a 1 nan r\n", r"line 1: the score 'nan' is not a number \(NaN\)"),
        ("q Q0 a 1 1_0 r\n", r"line 1: expected the score to be a number, found '1_0'"),
        ("q Q0 a 1 0x10 r\n", r"line 1: expected the score to be a number, found '0x10'"),
        ("q Q0 a 1 1.0\x00 r\n", r"line 1: a NUL byte"),
        ("q Q0 a 1 1.0 r\nq Q0 b 1 1.0 r\x00x\n", r"line 2: a NUL byte"),
        ("\n\n# only comments\n", "no run lines"),
    ],
)
def test_run_parse_errors(tmp_path, text, message):
    path = write(tmp_path, text, "bad.run")
    with pytest.raises(ParseError, match=message) as info:
        Run.from_trec(path)
    assert "bad.run" in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q 0 a 1\nq 0 b 1 extra\n", r"line 2: expected exactly 4 .* found 5"),
        ("q 0 a\n", r"line 1: expected exactly 4 .* found 3"),
        ("q 0 a 1.5\n", r"line 1: expected the relevance to be an integer, found '1.5'"),
        ("q 0 a yes\n", r"line 1: expected the relevance to be an integer"),
        ("", "no qrels lines"),
    ],
)
def test_qrels_parse_errors(tmp_path, text, message):
    with pytest.raises(ParseError, match=message):
        Qrels.from_trec(write(tmp_path, text, "bad.qrels"))


def test_duplicate_document_in_run_file(tmp_path):
    text = "q1 Q0 a 1 3 r\nq2 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 a 3 1 r\n"
    run = Run.from_trec(write(tmp_path, text))  # raised when q1 is evaluated (trec_eval's rule)
    with pytest.raises(DuplicateDocumentError, match="document 'a' more than once for query 'q1'"):
        evaluate(Qrels.from_dict({"q1": {"a": 1}}), run, "P.5")


def test_duplicate_in_a_query_not_evaluated_is_accepted_as_trec_eval_does(tmp_path):
    # q2 is run-only; q1's duplicate 'a' (score 1) ranks third, below -M 2
    text = "q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 a 3 1 r\nq2 Q0 x 1 1 r\nq2 Q0 x 2 1 r\n"
    run = Run.from_trec(write(tmp_path, text))
    qrels = Qrels.from_dict({"q1": {"a": 1, "b": 1}})
    assert evaluate(qrels, run, "P.2", max_docs=2).mean() == {"P_2": 1.0}
    with pytest.raises(DuplicateDocumentError, match=r"f\.txt:3: "):
        evaluate(qrels, run, "P.2")
    with pytest.raises(DuplicateDocumentError, match="query 'q2'"):
        evaluate(Qrels.from_dict({"q2": {"x": 1}}), run, "P.2")
    with pytest.raises(DuplicateDocumentError):  # a run built from arrays checks at once
        Run.from_arrays(["q", "q"], ["a", "a"], [1.0, 2.0])


def test_duplicate_document_in_qrels():
    with pytest.raises(DuplicateDocumentError, match="'d' more than once for query 'q'"):
        Qrels.from_arrays(["q", "p", "q"], ["d", "d", "d"], [1, 0, 0])


def test_duplicate_document_from_arrays():
    with pytest.raises(DuplicateDocumentError):
        Run.from_arrays([1, 1], [7, 7], [0.5, 0.2])


def test_lengths_differ():
    with pytest.raises(LengthMismatchError, match="query has 2 entries but score has 1"):
        Run.from_arrays(["q", "q"], ["a", "b"], [1.0])


def test_empty_run():
    with pytest.raises(EmptyInputError, match="empty"):
        Run.from_arrays([], [], [])


def test_empty_qrels():
    with pytest.raises(EmptyInputError, match="empty"):
        Qrels.from_dict({})


def test_non_finite_scores():
    with pytest.raises(NonFiniteError, match="score contains 1 NaN"):
        Run.from_arrays(["q", "q"], ["a", "b"], [1.0, np.nan])


def test_float_ids_rejected():
    with pytest.raises(LabelError, match="doc must hold strings or integers"):
        Run.from_arrays(["q"], [1.5], [1.0])


def test_mixed_id_types_rejected():
    with pytest.raises(LabelError, match="mixes strings and other types"):
        Qrels.from_arrays(["q", "q"], np.array(["a", 2.5], dtype=object), [1, 1])


def test_fractional_relevance_rejected():
    with pytest.raises(LabelError, match="integer grades"):
        Qrels.from_arrays(["q"], ["a"], [0.5])


def test_nan_relevance_rejected():
    with pytest.raises(NonFiniteError, match="relevance"):
        Qrels.from_arrays(["q"], ["a"], [np.nan])


def test_nested_mapping_required():
    with pytest.raises(LabelError, match="mapping"):
        Run.from_dict({"q": [("a", 1.0)]})  # type: ignore[dict-item]
    with pytest.raises(LabelError, match="mapping"):
        Qrels.from_dict([("q", "a", 1)])  # type: ignore[arg-type]


# ------------------------------------------------------------ constructors
def test_integer_ids_become_text():
    run = Run.from_arrays([3, 3], [10, 9], [1.0, 1.0])
    assert run.to_dict() == {"3": {"9": 1.0, "10": 1.0}}  # "9" > "10" as text


@pytest.mark.parametrize("block", [None, 7])
def test_integer_ids_text_equals_numpy_formatting(block, monkeypatch):
    """The vectorised decimal text of integer ids is NumPy's ``astype("S")``, extremes included.

    ``block=7``: the one-word ids are converted in many blocks (one ends mid-array).
    """
    from scorekit.ranking import _ids
    from scorekit.ranking._ids import decimal_bytes, id_bytes

    if block is not None:
        monkeypatch.setattr(_ids, "_BLOCK", block)

    rng = np.random.default_rng(11)
    edges = [0, 1, -1, 9, 10, -10, 99, 100, 2**31, 2**32 - 1, 2**32, 10**9 - 1, 10**9]
    edges += [10**18, 10**18 - 1, -(10**18), 2**63 - 1, -(2**63), -(2**63) + 1]
    edges += [9999, 10**4, -9999, -(10**4), 10**7, -(10**7) + 1, 10**8 - 1, 12345678, -1234567]
    values = np.concatenate(
        [
            np.array(edges, np.int64),
            rng.integers(-(2**63), 2**63 - 1, 3000, dtype=np.int64),
            10 ** rng.integers(0, 19, 3000) - rng.integers(0, 2, 3000),
            -rng.integers(0, 1000, 3000),
        ]
    )
    one_word = (values > -(10**7)) & (values < 10**8)  # every id fits in one 8-byte word
    parts = [values, values[one_word], values[one_word & (values >= 0)], values[values >= 0]]
    for part in [*parts, values[np.abs(values) < 10**4]]:
        got = decimal_bytes(part)
        assert got.tolist() == part.astype("S").tolist()
        width = max(len(str(v)) for v in part.tolist())
        assert got.dtype.itemsize == -(-width // 8) * 8  # padded, no wider
    assert decimal_bytes(np.array([3, 12])).dtype == np.dtype("S8")  # one word, not S21
    assert id_bytes(np.array([3, 12], np.uint8), "doc").tolist() == [b"3", b"12"]
    assert id_bytes(np.array([True]), "doc").tolist() == [b"1"]
    assert decimal_bytes(np.zeros(0, np.int64)).size == 0


def test_relevance_none_means_all_relevant():
    assert Qrels.from_arrays(["u", "u"], ["i1", "i2"], None).to_dict() == {"u": {"i1": 1, "i2": 1}}


def test_inputs_not_modified():
    q, d, s = np.array(["b", "a", "b"]), np.array(["x", "y", "z"]), np.array([0.1, 0.2, 0.3])
    copies = (q.copy(), d.copy(), s.copy())
    Run.from_arrays(q, d, s)
    for a, b in zip((q, d, s), copies, strict=True):
        assert (a == b).all()


def test_from_frame_pandas_recommendations():
    pd = pytest.importorskip("pandas")
    purchases = pd.DataFrame({"user_id": [1, 1, 2], "item_id": ["i1", "i2", "i1"]})
    recs = pd.DataFrame(
        {
            "user_id": [1, 1, 2, 2],
            "item_id": ["i2", "i3", "i1", "i4"],
            "score": [0.9, 0.8, 0.3, 0.7],
        }
    )
    qrels = Qrels.from_frame(purchases, query="user_id", doc="item_id", relevance=None)
    run = Run.from_frame(recs, query="user_id", doc="item_id", score="score")
    assert qrels.to_dict() == {"1": {"i1": 1, "i2": 1}, "2": {"i1": 1}}
    assert run.to_dict() == {"1": {"i2": 0.9, "i3": 0.8}, "2": {"i4": 0.7, "i1": 0.3}}
    frame = run.to_pandas()
    assert list(frame.columns) == ["query", "doc", "rank", "score"]
    assert frame["rank"].tolist() == [1, 2, 1, 2]
    assert list(qrels.to_pandas().columns) == ["query", "doc", "relevance"]


def test_from_frame_polars():
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [2, 0]})
    assert Qrels.from_frame(frame).to_dict() == {"q": {"a": 2, "b": 0}}
    frame = pl.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [0.5, 1.5]})
    assert Run.from_frame(frame, tag="pl").to_dict() == {"q": {"b": 1.5, "a": 0.5}}


def test_to_trec_roundtrip(tmp_path):
    run = Run.from_dict(
        {"q2": {"a": 0.1, "b": 0.30000000000000004}, "q1": {"é": 1e-300}}, tag="sys"
    )
    run.to_trec(tmp_path / "r.txt")
    back = Run.from_trec(tmp_path / "r.txt")
    assert back.to_dict() == run.to_dict()
    assert back.tag == "sys"
    assert (tmp_path / "r.txt").read_text().splitlines()[1] == "q2 Q0 b 1 0.30000000000000004 sys"
    qrels = Qrels.from_dict({"q": {"a": 2, "b": -1}})
    qrels.to_trec(tmp_path / "q.txt")
    assert Qrels.from_trec(tmp_path / "q.txt").to_dict() == qrels.to_dict()


def test_repr_and_sizes():
    run = Run.from_dict({"q": {"a": 1.0, "b": 0.0}}, tag="t")
    assert repr(run) == "Run(tag='t', queries=1, rows=2)"
    assert repr(Qrels.from_dict({"q": {"a": 1}})) == "Qrels(queries=1, rows=1)"


@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 30), st.integers(0, 4)),
        min_size=1,
        max_size=60,
        unique_by=lambda t: (t[0], t[1]),
    ),
    st.randoms(use_true_random=False),
)
def test_rank_order_matches_a_plain_sort(rows, random):
    random.shuffle(rows)
    q = [f"q{a}" for a, _, _ in rows]
    d = [f"d{b}" for _, b, _ in rows]
    s = [c / 2 for _, _, c in rows]
    run = Run.from_arrays(q, d, s)
    expected = sorted(
        zip(q, d, s, strict=True), key=lambda r: (r[0], -r[2], [-c for c in r[1].encode()] + [1])
    )
    got = [(qid, doc, sc) for qid, docs in run.to_dict().items() for doc, sc in docs.items()]
    assert got == expected


@pytest.mark.parametrize(("n", "n_queries"), [(5000, 60), (9000, 1500)])
def test_large_interleaved_input_equals_grouped_input(n, n_queries):
    rng = np.random.default_rng(3)
    q = rng.integers(0, n_queries, n)
    d = rng.permutation(n)  # distinct documents
    s = rng.integers(0, 20, n) / 4  # many ties
    grouped = np.lexsort((-s, q))
    shuffled = rng.permutation(n)
    a = Run.from_arrays([f"q{v}" for v in q[grouped]], d[grouped], s[grouped])
    b = Run.from_arrays([f"q{v}" for v in q[shuffled]], d[shuffled], s[shuffled])
    assert list(a.to_dict().items()) == list(b.to_dict().items())
    assert [list(v) for v in a.to_dict().values()] == [list(v) for v in b.to_dict().values()]


def test_stable_grouping_of_many_query_codes():
    from scorekit.ranking._order import _stable_by_query

    codes = np.random.default_rng(4).integers(0, 1 << 20, 3000)
    assert (_stable_by_query(codes) == np.argsort(codes, kind="stable")).all()


def test_run_does_not_alias_the_callers_arrays():
    score = np.array([0.1, 0.2, 0.2])
    doc = np.array([b"a", b"b", b"c"], dtype="S8")
    run = Run.from_arrays(["q", "q", "q"], doc, score)
    score[:] = 9.0
    doc[:] = b"z"
    assert run.to_dict() == {"q": {"c": 0.2, "b": 0.2, "a": 0.1}}


def test_duplicate_in_a_trec_file_names_file_and_lines(tmp_path):
    run = tmp_path / "dup.run"
    run.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n\n1 Q0 a 3 0.3 t\n")
    with pytest.raises(
        DuplicateDocumentError, match=r"dup\.run:4: .*'a'.*query '1' \(first at line 1\)"
    ):
        evaluate(Qrels.from_dict({"1": {"a": 1}}), Run.from_trec(run), "P.5")
    qrels = tmp_path / "dup.qrels"
    qrels.write_text("1 0 a 1\n1 0 a 0\n")
    with pytest.raises(DuplicateDocumentError, match=r"dup\.qrels:2: "):
        Qrels.from_trec(qrels)
