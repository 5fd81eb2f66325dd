"""``SubtopicQrels``: relevance judgments per (query, subtopic, document), for diversity measures.

ndeval's qrels format (TREC Web track diversity task): one judgment a line,
``query subtopic docno relevance``. Rows are kept columnar and integer-coded
like :class:`~._data.Qrels`: the query as a code into the sorted query ids, the
document id as padded bytes, the subtopic as a code into the sorted subtopic
ids (numeric order when every subtopic id is a whole number, as ndeval reads
them; byte order otherwise), sorted by (query, document, subtopic).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import DuplicateDocumentError, LabelError, ParseError
from .._optional import require
from .._typing import AnyArray, ArrayLike, IntArray
from . import _trec
from ._data import Qrels, _check_lengths, _Coded, _grades, _query_codes, _QueryTable, _starts
from ._ids import decode, id_bytes, order_words, words

__all__ = ["SubtopicQrels"]

_FORMAT = "'qid subtopic docno relevance'"


@dataclass(frozen=True, slots=True, eq=False)
class SubtopicQrels(_QueryTable):
    """Judgments of documents against the subtopics (intents) of each query.

    Build one with :meth:`from_trec` (ndeval's ``query subtopic docno
    relevance`` lines), :meth:`from_dict` (``{query: {subtopic: {doc:
    grade}}}``), :meth:`from_frame` or :meth:`from_arrays`. A document is
    relevant to a subtopic when its grade is ``>= rel_level`` (ndeval: any
    positive grade; judgments are binary per subtopic). The same (query,
    subtopic, document) twice raises :class:`~scorekit.DuplicateDocumentError`
    (ndeval would count it twice). Pass it to :func:`~scorekit.evaluate` as
    the qrels to compute the diversity measures (``alpha_nDCG@20``, ...); other
    measures then read :meth:`to_qrels`.

    Examples
    --------
    >>> sq = SubtopicQrels.from_dict({"q1": {"1": {"d1": 1, "d2": 0}, "2": {"d2": 1}}})
    >>> len(sq), sq.n_queries, sq.to_dict()
    (3, 1, {'q1': {'1': {'d1': 1, 'd2': 0}, '2': {'d2': 1}}})
    >>> sq.to_qrels().to_dict()
    {'q1': {'d1': 1, 'd2': 1}}
    """

    _coded: _Coded  # rows by (query, doc, subtopic)
    subtopics: AnyArray  # sorted subtopic vocabulary (padded S)
    subtopic: IntArray  # per row, code into ``subtopics``
    relevance: IntArray  # per row, the grade
    doc_start: IntArray  # first row of each distinct (query, doc), plus the row count

    @classmethod
    def from_arrays(
        cls, query: ArrayLike, subtopic: ArrayLike, doc: ArrayLike, relevance: ArrayLike | None
    ) -> SubtopicQrels:
        """One row per judged (query, subtopic, document, grade); ``relevance=None``: all 1.

        >>> SubtopicQrels.from_arrays(["q", "q"], [1, 2], ["a", "a"], [1, 0]).to_dict()
        {'q': {'1': {'a': 1}, '2': {'a': 0}}}
        """
        q = id_bytes(query, "query")
        s = id_bytes(subtopic, "subtopic")
        d = id_bytes(doc, "doc")
        r = np.ones(q.size, np.int64) if relevance is None else _grades(relevance)
        _check_lengths(q, d, r, "relevance")
        _check_lengths(q, s, r, "relevance")
        return cls._build(q, s, d, r)

    @classmethod
    def from_trec(cls, path: _trec.PathLike) -> SubtopicQrels:
        """Read ndeval's qrels file: ``query subtopic docno relevance`` lines (integer grades)."""
        parts = _trec._parse_blocks(path, 4, True, _FORMAT, _columns)
        if not parts:
            raise ParseError(f"{path}: no subtopic qrels lines {_FORMAT} found")
        q, s, d, r = (list(c) for c in zip(*parts, strict=True))
        try:
            return cls._build(
                _trec._concat(q), _trec._concat(s), _trec._concat(d), np.concatenate(r)
            )
        except DuplicateDocumentError as err:
            raise DuplicateDocumentError(f"{os.fspath(path)}: {err}") from None

    @classmethod
    def from_dict(cls, qrels: Mapping[Any, Mapping[Any, Mapping[Any, int]]]) -> SubtopicQrels:
        """``{query_id: {subtopic_id: {doc_id: grade}}}``."""
        if not isinstance(qrels, Mapping):
            raise LabelError("qrels must be a mapping {query_id: {subtopic_id: {doc_id: grade}}}")
        cols: tuple[list[Any], list[Any], list[Any], list[Any]] = ([], [], [], [])
        for qid, subs in qrels.items():
            if not isinstance(subs, Mapping):
                raise LabelError(
                    f"qrels[{qid!r}] must be a mapping {{subtopic_id: {{doc_id: grade}}}}"
                )
            for sid, docs in subs.items():
                if not isinstance(docs, Mapping):
                    raise LabelError(f"qrels[{qid!r}][{sid!r}] must be a mapping {{doc_id: grade}}")
                n = len(docs)
                cols[0].extend([qid] * n)
                cols[1].extend([sid] * n)
                cols[2].extend(docs.keys())
                cols[3].extend(docs.values())
        return cls.from_arrays(*cols)

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        query: str = "query",
        subtopic: str = "subtopic",
        doc: str = "doc",
        relevance: str | None = "relevance",
    ) -> SubtopicQrels:
        """A pandas or polars frame, one row per judged (query, subtopic, document)."""
        rel = None if relevance is None else frame[relevance]
        return cls.from_arrays(frame[query], frame[subtopic], frame[doc], rel)

    @classmethod
    def _build(cls, q: AnyArray, s: AnyArray, d: AnyArray, r: IntArray) -> SubtopicQrels:
        queries, qcode = _query_codes(q)
        subtopics, scode = _subtopic_codes(s)
        w = order_words(d)
        keys = [scode, *(w[:, j] for j in range(w.shape[1] - 1, -1, -1)), qcode]
        order = np.lexsort(keys)
        qcode, scode, d, r = qcode[order], scode[order], d[order], r[order]
        w = words(d)
        same_doc = (qcode[1:] == qcode[:-1]) & (w[1:] == w[:-1]).all(axis=1)
        dup = np.flatnonzero(same_doc & (scode[1:] == scode[:-1]))
        if dup.size:
            i = int(dup[0])
            raise DuplicateDocumentError(
                f"subtopic qrels list document {decode(d[i : i + 1])[0]!r} more than once for "
                f"query {decode(queries[qcode[i : i + 1]])[0]!r}, subtopic "
                f"{decode(subtopics[scode[i : i + 1]])[0]!r}"
            )
        doc_start = np.flatnonzero(np.concatenate([[True], ~same_doc, [True]]))
        coded = _Coded(queries, qcode, d, _starts(qcode, queries.size))
        return cls(coded, subtopics, scode.astype(np.int64), r, doc_start.astype(np.int64))

    # ---------------------------------------------------------------- accessors
    def __len__(self) -> int:
        return int(self.relevance.size)

    def __repr__(self) -> str:
        n_sub = int(
            np.unique(self._coded.query.astype(np.int64) * self.subtopics.size + self.subtopic).size
        )
        return f"SubtopicQrels(queries={self.n_queries}, subtopics={n_sub}, rows={len(self)})"

    @property
    def n_docs(self) -> int:
        """Number of distinct judged (query, document) pairs."""
        return int(self.doc_start.size - 1)

    def _doc_table(self, relevance: IntArray) -> Qrels:
        """A :class:`Qrels` of the distinct (query, document) pairs with the given value each."""
        c, first = self._coded, self.doc_start[:-1]
        query = c.query[first]
        return Qrels(
            _Coded(c.queries, query, c.doc[first], _starts(query, c.queries.size)), relevance
        )

    def to_qrels(self) -> Qrels:
        """Document-level qrels: each judged document with its highest grade over the subtopics.

        A document relevant to any subtopic is relevant to the query (ndeval's
        convention for its non-intent-aware MAP); the other measures of
        :func:`~scorekit.evaluate` read these.
        """
        grade = np.maximum.reduceat(self.relevance, self.doc_start[:-1])
        return self._doc_table(grade.astype(np.int64))

    def to_dict(self) -> dict[str, dict[str, dict[str, int]]]:
        """``{query_id: {subtopic_id: {doc_id: grade}}}`` (subtopics in code order)."""
        c = self._coded
        qids, subs, docs = decode(c.queries), decode(self.subtopics), decode(c.doc)
        order = np.lexsort([self.subtopic, c.query])
        out: dict[str, dict[str, dict[str, int]]] = {}
        for i in order.tolist():
            by_sub = out.setdefault(qids[c.query[i]], {})
            by_sub.setdefault(subs[self.subtopic[i]], {})[docs[i]] = int(self.relevance[i])
        return out

    def to_trec(self, path: _trec.PathLike) -> None:
        """Write ndeval's format: ``query subtopic docno relevance`` lines."""
        _trec.write_lines(
            path,
            [
                self._row_queries().tolist(),
                [decode(self.subtopics)[i] for i in self.subtopic.tolist()],
                decode(self._coded.doc),
                [str(v) for v in self.relevance.tolist()],
            ],
        )

    def to_pandas(self) -> Any:
        """A pandas DataFrame with columns query, subtopic, doc, relevance."""
        pd = require("pandas", "io")
        return pd.DataFrame(
            {
                "query": self._row_queries(),
                "subtopic": np.asarray(decode(self.subtopics), dtype=object)[self.subtopic],
                "doc": decode(self._coded.doc),
                "relevance": self.relevance,
            }
        )


def _subtopic_codes(s: AnyArray) -> tuple[AnyArray, IntArray]:
    """Sorted subtopic vocabulary and codes: numeric order if every id is a whole number."""
    vocab, inverse = np.unique(s, return_inverse=True)
    text = decode(vocab)
    if all(t.isascii() and t.isdigit() for t in text):
        order = np.argsort([int(t) for t in text], kind="stable")
        rank = np.empty(order.size, np.int64)
        rank[order] = np.arange(order.size)
        return vocab[order], rank[inverse]
    return vocab, inverse.astype(np.int64)


def _columns(buf: AnyArray, f: Any) -> tuple[AnyArray, AnyArray, AnyArray, IntArray]:
    return (
        _trec.take_ids(buf, f.start(0), f.end(0)),
        _trec.take_ids(buf, f.start(1), f.end(1)),
        _trec.take_ids(buf, f.start(2), f.end(2)),
        _trec._take_numbers(buf, f, 3, "the relevance", integer=True),
    )
