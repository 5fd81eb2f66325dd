"""Property/fuzz suite of the TREC readers: any bytes give a Run/Qrels or a ScorekitError.

Clean files re-encoded as people have them (a BOM, CRLF, tabs and runs of
spaces, no final newline, gzip) read equal to the clean file; random bytes,
truncated lines, huge numbers and non-UTF-8 ids either read or raise a
:class:`~scorekit.ScorekitError` — never another exception — and what they
read evaluates.
"""

from __future__ import annotations

import contextlib
import gzip
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekit import ScorekitError
from scorekit.ranking import Qrels, Run, evaluate

ID = st.text(alphabet="abcxyz0189-_.:é", min_size=1, max_size=12)
SCORE = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([0.0, 1.0, -1.0, 1e300, -1e-300, 5e-324]),
)


@st.composite
def run_rows(draw):
    rows = draw(st.lists(st.tuples(ID, ID, SCORE), min_size=1, max_size=30))
    seen, out = set(), []
    for q, d, s in rows:
        if (q, d) not in seen:
            seen.add((q, d))
            out.append((q, d, s))
    return out


@st.composite
def qrels_rows(draw):
    rows = draw(st.lists(st.tuples(ID, ID, st.integers(-3, 2**62)), min_size=1, max_size=30))
    seen, out = set(), []
    for q, d, g in rows:
        if (q, d) not in seen:
            seen.add((q, d))
            out.append((q, d, g))
    return out


def _read(cls, data: bytes):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f"
        path.write_bytes(data)
        return cls.from_trec(path)


def _variants(lines: list[str], draw) -> bytes:
    sep = draw(st.sampled_from([" ", "\t", "  ", " \t "]))
    text = draw(st.sampled_from(["\n", "\r\n"])).join(sep.join(line.split()) for line in lines)
    if draw(st.booleans()):
        text += "\n"
    data = text.encode()
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.booleans()):
        data = gzip.compress(data)
    return data


@settings(max_examples=80)
@given(rows=run_rows(), data=st.data())
def test_run_reencoded_reads_equal_to_clean(rows, data):
    lines = [f"{q} Q0 {d} {i} {s!r} tag" for i, (q, d, s) in enumerate(rows)]
    clean = _read(Run, ("\n".join(lines) + "\n").encode())
    other = _read(Run, _variants(lines, data.draw))
    assert other.to_dict() == clean.to_dict()
    assert other.tag == clean.tag == "tag"


@settings(max_examples=80)
@given(rows=qrels_rows(), data=st.data())
def test_qrels_reencoded_reads_equal_to_clean(rows, data):
    lines = [f"{q} 0 {d} {g}" for q, d, g in rows]
    clean = _read(Qrels, ("\n".join(lines) + "\n").encode())
    assert clean.to_dict() == {q: {d: g for qq, d, g in rows if qq == q} for q, _, _ in rows}
    assert _read(Qrels, _variants(lines, data.draw)).to_dict() == clean.to_dict()


def _mangle(data: bytes, draw) -> bytes:
    """Truncate, flip bytes, splice random bytes (NUL, high bytes, invalid UTF-8)."""
    out = bytearray(data)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["cut", "flip", "insert"]))
        at = draw(st.integers(0, max(0, len(out))))
        if op == "cut":
            del out[at:]
        elif op == "flip" and out:
            out[min(at, len(out) - 1)] = draw(st.integers(0, 255))
        else:
            out[at:at] = draw(st.binary(max_size=6))
    return bytes(out)


@settings(max_examples=150)
@given(run=run_rows(), qrels=qrels_rows(), data=st.data())
def test_mangled_files_read_or_raise_a_scorekit_error(run, qrels, data):
    run_text = "".join(f"{q} Q0 {d} 1 {s!r} t\n" for q, d, s in run).encode()
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels).encode()
    got = []
    for cls, text in ((Run, run_text), (Qrels, qrels_text)):
        try:
            got.append(_read(cls, _mangle(text, data.draw)))
        except ScorekitError:
            return
    with contextlib.suppress(ScorekitError):
        evaluate(got[1], got[0], ["map", "P.5", "ndcg", "relstring"])


@settings(max_examples=100)
@given(data=st.binary(max_size=300))
def test_random_bytes_read_or_raise_a_scorekit_error(data):
    for cls in (Run, Qrels):
        with contextlib.suppress(ScorekitError):
            _read(cls, data)
