"""``Qrels`` and ``Run``: columnar, integer-coded relevance judgments and retrieval runs.

Both hold one row per (query, document): the query as an integer code into a
sorted vocabulary of query ids, the document id as a padded byte string whose
8-byte words are its integer code (:mod:`._ids`), and a value (integer
relevance, float score). A ``Run`` keeps its rows in rank order (query, then
score descending, then document id descending: trec_eval's order), so
evaluating it needs no sort; a ``Qrels`` keeps them by (query, document).
Building either checks that no document appears twice for one query.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import (
    DuplicateDocumentError,
    EmptyInputError,
    LabelError,
    NonFiniteError,
    ParameterError,
)
from .._optional import require
from .._typing import AnyArray, ArrayLike, FloatArray, IntArray
from .._validation import as_array, check_same_length, scores_1d
from . import _trec
from ._docindex import doc_index
from ._ids import U64, decode, hash_ids, id_bytes, lookup, order_words, words
from ._order import apply_order, rank_order

__all__ = ["Qrels", "Run"]


@dataclass(frozen=True, slots=True)
class _Coded:
    """Rows grouped by query: ``queries[query[i]]`` is row i's query id."""

    queries: AnyArray  # sorted unique query ids (padded S)
    query: IntArray  # per row, non-decreasing
    doc: AnyArray  # per row (padded S)
    starts: IntArray  # (n_queries + 1,) row offsets of each query


def _query_codes(qids: AnyArray, seg_len: IntArray | None = None) -> tuple[AnyArray, IntArray]:
    """Sorted vocabulary and per-row codes of query ids (given per row, or per run of rows).

    Runs of equal ids (the usual file layout) are coded once; many distinct
    runs are hashed instead of sorted as strings: the distinct hashes are
    sorted and looked up, and every id is verified against its hash's first id.
    """
    w = words(qids)
    if seg_len is None:
        change = np.flatnonzero((w[1:] != w[:-1]).any(axis=1)) + 1
        if change.size < max(64, qids.size // 2):
            seg_start = np.concatenate([[0], change]).astype(np.int64)
            seg_len = np.diff(np.concatenate([seg_start, [qids.size]]))
            qids, w = qids[seg_start], w[seg_start]
    if qids.size < 4096:
        vocab, inverse = np.unique(qids, return_inverse=True)
        code = inverse.astype(np.int64)
    else:
        vocab, code = _hashed_codes(qids, w)
    if vocab.size < 1 << 31:
        code = code.astype(np.int32)
    return vocab, code if seg_len is None else np.repeat(code, seg_len)


def _hashed_codes(qids: AnyArray, w: U64) -> tuple[AnyArray, IntArray]:
    h = hash_ids(qids)
    distinct = np.unique(h)
    code = lookup(distinct, h) if distinct.size > 256 else np.searchsorted(distinct, h)
    rep = np.empty(distinct.size, np.int64)
    rep[code] = np.arange(qids.size)
    if not (w == w[rep][code]).all():  # a hash collision: sort the ids themselves
        vocab, inverse = np.unique(qids, return_inverse=True)
        return vocab, inverse.astype(np.int64)
    ids = qids[rep]
    order = np.argsort(ids, kind="stable")
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    return ids[order], rank[code]


def _starts(query: IntArray, n_queries: int) -> IntArray:
    """Row offsets of each query in rows sorted by query code."""
    codes = np.arange(n_queries + 1, dtype=query.dtype)  # query's own type: it is not cast
    out: IntArray = np.searchsorted(query, codes).astype(np.int64)
    return out


def _duplicate_rows(query: IntArray, doc: AnyArray, rows: IntArray) -> IntArray:
    """Those of the candidate rows whose (query, document) another candidate row repeats."""
    if rows.size < 2:
        return np.zeros(0, np.int64)
    w = order_words(doc[rows])
    q = query[rows]
    order = np.lexsort([w[:, j] for j in range(w.shape[1] - 1, -1, -1)] + [q])
    w, q = w[order], q[order]
    same = np.flatnonzero((q[1:] == q[:-1]) & (w[1:] == w[:-1]).all(axis=1))
    return np.sort(rows[order[np.unique(np.r_[same, same + 1])]])


def _duplicates(
    kind: str, queries: AnyArray, query: IntArray, doc: AnyArray, rows: IntArray
) -> None:
    """Raise if two of the candidate rows hold the same (query, document); exact comparison."""
    dup = _duplicate_rows(query, doc, rows)
    if dup.size:
        r = dup[:1]
        qid, did = decode(queries[query[r]])[0], decode(doc[r])[0]
        err = DuplicateDocumentError(
            f"{kind} lists document {did!r} more than once for query {qid!r}"
        )
        err.query, err.doc = qid, did  # type: ignore[attr-defined]
        raise err


def _with_lines(
    path: _trec.PathLike, err: DuplicateDocumentError, query_col: int, doc_col: int
) -> DuplicateDocumentError:
    """``err`` with the file and the line numbers of the duplicate (re-reads the file; error path only)."""
    qid, did = getattr(err, "query", None), getattr(err, "doc", None)
    lines: list[int] = []
    if os.fspath(path) == "-" or not os.path.isfile(path):  # read once: no line numbers
        return DuplicateDocumentError(f"{os.fspath(path)}: {err}")
    opener: Any = open
    with open(path, "rb") as raw:
        if raw.read(2) == b"\x1f\x8b":
            opener = gzip.open
    with opener(path, "rt", encoding="utf-8-sig", errors="replace") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if (
                len(fields) > max(query_col, doc_col)
                and fields[query_col] == qid
                and fields[doc_col] == did
            ):
                lines.append(number)
    where = f"{os.fspath(path)}:{lines[1]}" if len(lines) > 1 else os.fspath(path)
    first = f" (first at line {lines[0]})" if len(lines) > 1 else ""
    return DuplicateDocumentError(f"{where}: {err}{first}")


def _check_lengths(query: AnyArray, doc: AnyArray, value: AnyArray, what: str) -> int:
    n = check_same_length(query=query, doc=doc, **{what: value})
    if n == 0:
        raise EmptyInputError(f"the {what} table is empty; at least one row is needed")
    return n


def run_columns(query: AnyArray, doc: ArrayLike, score: ArrayLike) -> tuple[AnyArray, FloatArray]:
    """A run's document ids (padded bytes) and scores, checked; copies the run may own."""
    d = _own(id_bytes(doc, "doc"), doc)
    s = _own(scores_1d(score, "score"), score)
    _check_lengths(query, d, s, "score")
    if not np.isfinite(s).all():
        bad = int((~np.isfinite(s)).sum())
        raise NonFiniteError(f"score contains {bad} NaN or infinite values")
    return d, s


class _QueryTable:
    """What Run and Qrels share: integer-coded queries and documents (``_coded``)."""

    __slots__ = ()
    _coded: _Coded

    @property
    def n_queries(self) -> int:
        """Number of queries with at least one row (document or judgment)."""
        return int(self._coded.queries.size)

    @property
    def query_ids(self) -> list[str]:
        """Query ids in sorted (byte) order."""
        return decode(self._coded.queries)

    def _row_queries(self) -> AnyArray:
        """The query id of every row (an object array)."""
        return np.asarray(self.query_ids, dtype=object)[self._coded.query]


@dataclass(frozen=True, slots=True, eq=False)
class Run(_QueryTable):
    """A retrieval run: for each query, documents with scores, kept in rank order.

    Build one with :meth:`from_trec`, :meth:`from_dict`, :meth:`from_frame` or
    :meth:`from_arrays`. Rows are ordered as trec_eval ranks them: by query id,
    then score descending, then document id descending (byte order), so the
    file's rank column is never used. A document twice for one query raises
    :class:`~scorekit.DuplicateDocumentError` (for a run read with
    :meth:`from_trec`, only when that query is evaluated and both copies are
    above the ``max_docs`` cut, as trec_eval does); NaN or infinite scores
    raise :class:`~scorekit.NonFiniteError` (a TREC file may hold ``inf``,
    which trec_eval's ``atof`` reads).

    Top-k recommendations are runs too: a user is a query, an item a document,
    e.g. ``Run.from_frame(recs, query="user_id", doc="item_id", score="score")``
    with a pandas or polars frame of one row per recommended (user, item).

    Examples
    --------
    >>> run = Run.from_dict({"q1": {"d1": 0.2, "d2": 0.9}}, tag="bm25")
    >>> run.to_dict()
    {'q1': {'d2': 0.9, 'd1': 0.2}}
    >>> len(run), run.tag, run.query_ids
    (2, 'bm25', ['q1'])
    """

    _coded: _Coded
    score: FloatArray
    tag: str = "scorekit"
    _index: U64 = field(default_factory=lambda: np.zeros(0, np.uint64), repr=False)
    # how rows were ordered (input row of each ranked row; ``ties="input_order"``)
    _perm: IntArray | None = field(default=None, repr=False)
    _tie_moves: tuple[IntArray, IntArray] | None = field(default=None, repr=False)
    # from_trec: rows of documents listed twice for a query, checked only when
    # that query is evaluated (trec_eval's rule), and the file they came from
    _dup_rows: IntArray | None = field(default=None, repr=False)
    _source: str | None = field(default=None, repr=False)

    # ----------------------------------------------------------------- building
    @classmethod
    def from_arrays(
        cls, query: ArrayLike, doc: ArrayLike, score: ArrayLike, *, tag: str = "scorekit"
    ) -> Run:
        """One row per retrieved (query, document, score); ids are strings or integers.

        >>> Run.from_arrays(["q1", "q1"], ["a", "b"], [1.0, 2.0]).to_dict()
        {'q1': {'b': 2.0, 'a': 1.0}}
        """
        q = id_bytes(query, "query")
        d, s = run_columns(q, doc, score)
        return cls._build(q, d, s, tag)

    @classmethod
    def from_trec(cls, path: _trec.PathLike) -> Run:
        """Read a TREC run file (``qid Q0 docno rank score tag``; the tag of the last line is kept).

        ``path`` may be ``"-"`` (standard input), a pipe or a gzip file; see :mod:`._trec`.
        """
        q, q_len, d, s, tag = _trec.read_run(path)
        return cls._build(q, d, s, tag, q_len, source=os.fspath(path))

    @classmethod
    def from_dict(cls, run: Mapping[Any, Mapping[Any, float]], *, tag: str = "scorekit") -> Run:
        """``{query_id: {doc_id: score}}`` (the layout of pytrec_eval and ranx)."""
        q, d, s = _flatten(run, "run")
        return cls.from_arrays(q, d, s, tag=tag)

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        tag: str = "scorekit",
    ) -> Run:
        """A pandas or polars frame with one row per (query, document) and a score column.

        A missing column raises :class:`~scorekit.ParameterError` naming it.
        """
        q, d, s = (
            _column(frame, c, a) for c, a in ((query, "query"), (doc, "doc"), (score, "score"))
        )
        return cls.from_arrays(q, d, s, tag=tag)

    @classmethod
    def _build(
        cls,
        q: AnyArray,
        d: AnyArray,
        s: FloatArray,
        tag: str,
        q_len: IntArray | None = None,
        source: str | None = None,
    ) -> Run:
        """``source`` (a file read by from_trec): duplicates raise only when evaluated."""
        queries, code = _query_codes(q, q_len)
        return cls._from_codes(queries, code, d, s, tag, source)

    @classmethod
    def _from_codes(
        cls,
        queries: AnyArray,
        code: IntArray,
        d: AnyArray,
        s: FloatArray,
        tag: str,
        source: str | None = None,
    ) -> Run:
        """A run from rows already coded: ``queries`` sorted unique ids, ``code`` per row.

        ``d`` must be a padded ``S`` array the run may own (it is reordered in place).
        """
        order = rank_order(code, s, d)
        code, s, d = apply_order(order, code, s, d, owned=True)
        coded = _Coded(queries, code, d, _starts(code, queries.size))
        index, candidates = doc_index(coded.query, coded.doc, coded.starts)
        dup = None
        if candidates.size:
            if source is None:
                _duplicates("the run", coded.queries, coded.query, coded.doc, candidates)
            dup = _duplicate_rows(coded.query, coded.doc, candidates)
            dup = dup if dup.size else None
        moves = (order.pos, order.src) if order.pos.size else None
        return cls(coded, s, str(tag), index, order.perm, moves, dup, source)

    def _check_duplicates(self, queries: IntArray, depth: int | None) -> None:
        """Raise if a document is listed twice for one of these query codes within ``depth`` ranks.

        trec_eval accepts a duplicate in a query it does not evaluate (run only)
        or below its ``-M`` cut; so does a run read from a file.
        """
        rows = self._dup_rows
        if rows is None:
            return
        c = self._coded
        used = np.zeros(self.n_queries, bool)
        used[queries] = True
        keep = used[c.query[rows]]
        if depth is not None:
            keep &= rows - c.starts[c.query[rows]] < depth
        try:
            _duplicates("the run", c.queries, c.query, c.doc, rows[keep])
        except DuplicateDocumentError as err:
            if self._source is None:
                raise
            raise _with_lines(self._source, err, 0, 2) from None

    # ---------------------------------------------------------------- accessors
    def __len__(self) -> int:
        return int(self.score.size)

    def __repr__(self) -> str:
        return f"Run(tag={self.tag!r}, queries={self.n_queries}, rows={len(self)})"

    def _input_positions(self) -> IntArray:
        """The input row (0-based, as given to the constructor or read) of each ranked row.

        >>> Run.from_arrays(["q"] * 3, ["a", "b", "c"], [1.0, 3.0, 1.0])._input_positions()
        array([1, 2, 0])
        """
        n = len(self)
        base: IntArray = np.arange(n, dtype=np.int64) if self._perm is None else self._perm
        if self._tie_moves is not None:
            pos, src = self._tie_moves
            base = base.copy()
            base[pos] = base[src]
        return base

    @property
    def rank(self) -> IntArray:
        """1-based rank of each row within its query (rows are in rank order)."""
        c = self._coded
        return np.arange(len(self), dtype=np.int64) - c.starts[c.query] + 1

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{query_id: {doc_id: score}}`` with documents in rank order."""
        return _nest(self._coded, self.score.tolist())

    def to_trec(self, path: _trec.PathLike) -> None:
        """Write the run as a TREC file, in rank order, with ranks 1, 2, ... per query."""
        _trec.write_lines(
            path,
            [
                self._row_queries().tolist(),
                ["Q0"] * len(self),
                decode(self._coded.doc),
                [str(r) for r in self.rank.tolist()],
                [repr(v) for v in self.score.tolist()],
                [self.tag] * len(self),
            ],
        )

    def to_pandas(self) -> Any:
        """A pandas DataFrame with columns query, doc, rank, score."""
        pd = require("pandas", pip="pandas")
        return pd.DataFrame(
            {
                "query": self._row_queries(),
                "doc": decode(self._coded.doc),
                "rank": self.rank,
                "score": self.score,
            }
        )


@dataclass(frozen=True, slots=True, eq=False)
class Qrels(_QueryTable):
    """Relevance judgments: for each query, documents with an integer relevance grade.

    Build one with :meth:`from_trec`, :meth:`from_dict`, :meth:`from_frame` or
    :meth:`from_arrays`. A document judged ``>= rel_level`` (see
    :func:`~scorekit.evaluate`) is relevant; negative grades mark documents
    that were pooled but not judged (trec_eval's convention). A document
    judged twice for one query raises :class:`~scorekit.DuplicateDocumentError`.

    For recommendations, the interactions are the judgments: a user is a
    query and an item a document, e.g. ``Qrels.from_frame(purchases,
    query="user_id", doc="item_id", relevance=None)`` (every row relevant, grade 1).

    Examples
    --------
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d9": 2}})
    >>> qrels.to_dict()
    {'q1': {'d1': 1, 'd2': 0}, 'q2': {'d9': 2}}
    >>> len(qrels), qrels.n_queries
    (3, 2)
    """

    _coded: _Coded
    relevance: IntArray

    @classmethod
    def from_arrays(cls, query: ArrayLike, doc: ArrayLike, relevance: ArrayLike | None) -> Qrels:
        """One row per judged (query, document, grade); ``relevance=None`` grades every row 1.

        >>> Qrels.from_arrays(["q1", "q1"], ["a", "b"], [0, 1]).to_dict()
        {'q1': {'a': 0, 'b': 1}}
        """
        q = id_bytes(query, "query")
        d = id_bytes(doc, "doc")
        r = np.ones(q.size, np.int64) if relevance is None else _grades(relevance)
        _check_lengths(q, d, r, "relevance")
        return cls._build(q, d, r)

    @classmethod
    def from_trec(cls, path: _trec.PathLike) -> Qrels:
        """Read a TREC qrels file (``qid iter docno relevance``)."""
        try:
            return cls._build(*_trec.read_qrels(path))
        except DuplicateDocumentError as err:
            raise _with_lines(path, err, 0, 2) from None

    @classmethod
    def from_dict(cls, qrels: Mapping[Any, Mapping[Any, int]]) -> Qrels:
        """``{query_id: {doc_id: grade}}`` (the layout of pytrec_eval and ranx)."""
        return cls.from_arrays(*_flatten(qrels, "qrels"))

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        query: str = "query",
        doc: str = "doc",
        relevance: str | None = "relevance",
    ) -> Qrels:
        """A pandas or polars frame, one row per judged (query, document); ``relevance=None``: all 1."""
        rel = None if relevance is None else _column(frame, relevance, "relevance")
        return cls.from_arrays(_column(frame, query, "query"), _column(frame, doc, "doc"), rel)

    @classmethod
    def _build(cls, q: AnyArray, d: AnyArray, r: IntArray) -> Qrels:
        queries, code = _query_codes(q)
        w = order_words(d)
        order = np.lexsort([w[:, j] for j in range(w.shape[1] - 1, -1, -1)] + [code])
        code, d, r = code[order], d[order], r[order]
        coded = _Coded(queries, code, d, _starts(code, queries.size))
        w = words(d)
        dup = np.flatnonzero((code[1:] == code[:-1]) & (w[1:] == w[:-1]).all(axis=1))
        _duplicates("qrels", queries, code, d, np.concatenate([dup, dup + 1]))
        return cls(coded, r)

    def __len__(self) -> int:
        return int(self.relevance.size)

    def __repr__(self) -> str:
        return f"Qrels(queries={self.n_queries}, rows={len(self)})"

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{query_id: {doc_id: grade}}``."""
        return _nest(self._coded, self.relevance.tolist())

    def to_trec(self, path: _trec.PathLike) -> None:
        """Write the judgments as a TREC qrels file (iteration column 0)."""
        _trec.write_lines(
            path,
            [
                self._row_queries().tolist(),
                ["0"] * len(self),
                decode(self._coded.doc),
                [str(v) for v in self.relevance.tolist()],
            ],
        )

    def to_pandas(self) -> Any:
        """A pandas DataFrame with columns query, doc, relevance."""
        pd = require("pandas", pip="pandas")
        return pd.DataFrame(
            {
                "query": self._row_queries(),
                "doc": decode(self._coded.doc),
                "relevance": self.relevance,
            }
        )


def _column(frame: Any, name: str, argument: str) -> Any:
    """``frame[name]``, or a ParameterError naming the column and the argument."""
    columns = list(getattr(frame, "columns", []))
    if name not in columns:
        raise ParameterError(
            f"{argument}={name!r}: the frame has no column {name!r}; its columns are {columns}"
        )
    return frame[name]


def _own(arr: AnyArray, given: Any) -> AnyArray:
    """``arr``, copied if it may be (a view of) the caller's array: a Run never aliases input."""
    return arr.copy() if arr is given or not arr.flags.owndata else arr


def _grades(relevance: ArrayLike) -> IntArray:
    arr = as_array(relevance, "relevance")
    if arr.dtype.kind in "biu":
        return arr.astype(np.int64)
    values = scores_1d(arr, "relevance")
    if not np.isfinite(values).all():
        raise NonFiniteError("relevance contains NaN or infinite values")
    if (values != np.round(values)).any():
        raise LabelError("relevance must hold integer grades (0, 1, 2, ...), found fractions")
    return values.astype(np.int64)


def _flatten(
    nested: Mapping[Any, Mapping[Any, Any]], name: str
) -> tuple[list[Any], list[Any], list[Any]]:
    if not isinstance(nested, Mapping):
        raise LabelError(f"{name} must be a mapping {{query_id: {{doc_id: value}}}}")
    qs: list[Any] = []
    ds: list[Any] = []
    vs: list[Any] = []
    for qid, docs in nested.items():
        if not isinstance(docs, Mapping):
            raise LabelError(f"{name}[{qid!r}] must be a mapping {{doc_id: value}}")
        qs.extend([qid] * len(docs))
        ds.extend(docs.keys())
        vs.extend(docs.values())
    return qs, ds, vs


def _nest(c: _Coded, values: list[Any]) -> dict[str, dict[str, Any]]:
    qids = decode(c.queries)
    docs = decode(c.doc)
    starts = c.starts.tolist()
    return {
        qid: dict(
            zip(docs[starts[i] : starts[i + 1]], values[starts[i] : starts[i + 1]], strict=True)
        )
        for i, qid in enumerate(qids)
    }
