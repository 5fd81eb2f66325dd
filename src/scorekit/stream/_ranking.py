"""``RankingAccumulator``: run rows in chunks, evaluated against qrels at the end.

A ranking measure needs all the rows of a query (its documents are ranked
together), and a stream may cut a query anywhere, so the accumulator keeps
the rows it is given, compactly (ids as the UTF-8 byte strings the ranking
engine uses, scores as float64), and :meth:`RankingAccumulator.evaluate` runs
:func:`scorekit.evaluate` once on all of them. Memory grows with the rows kept
(about 8 bytes per score plus the id bytes, rounded up to 8, per row).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._errors import EmptyInputError, NonFiniteError, ParameterError
from .._typing import AnyArray, ArrayLike
from .._validation import check_same_length, scores_1d
from ..ranking import Qrels, RankingResult, Run, SubtopicQrels, evaluate
from ..ranking._diversity import split_requests
from ..ranking._ids import id_bytes
from ..ranking._options import EvalOptions
from ..ranking._parse import parse_requests
from ._base import Accumulator, encode_array
from ._labels import empty_chunk
from ._statecheck import Fields, check_lengths

__all__ = ["RankingAccumulator"]


def _checked(options: dict[str, Any]) -> dict[str, Any]:
    """The options of :func:`scorekit.evaluate`, checked now (a bad one raises before any data).

    An ``options=EvalOptions(...)`` entry is merged with the others; the result
    is JSON-safe (:meth:`EvalOptions.to_dict`), for ``to_dict``.
    """
    base = options.pop("options", None)
    return EvalOptions.build(base, **options).to_dict()


def _qrels(qrels: Any) -> Qrels | SubtopicQrels:
    """The judgments as given, or built from a mapping.

    ``{q: {doc: grade}}`` is a :class:`Qrels`; ``{q: {subtopic: {doc: grade}}}``
    (one level deeper) a :class:`SubtopicQrels`.
    """
    if isinstance(qrels, (Qrels, SubtopicQrels)):
        return qrels
    if not isinstance(qrels, dict):
        raise ParameterError(
            "qrels must be a scorekit Qrels, a SubtopicQrels or a mapping, "
            f"got {type(qrels).__name__}"
        )
    inner = [v for docs in qrels.values() if isinstance(docs, dict) for v in docs.values()]
    if inner and all(isinstance(v, dict) for v in inner):
        return SubtopicQrels.from_dict(qrels)
    return Qrels.from_dict(qrels)


class RankingAccumulator(Accumulator):
    """Ranking measures of a run that arrives in chunks of (query, doc, score) rows.

    ``update(query, doc, score)`` adds rows (the arguments of
    :meth:`scorekit.Run.from_arrays`); a query's rows may be spread over any
    number of chunks. :meth:`evaluate` returns what :func:`scorekit.evaluate`
    returns for ``qrels`` and the run of all rows seen, with ``measures`` and
    the options given here, so the values are identical. Unlike the other
    accumulators it keeps the rows until then: memory grows with the rows.
    Merging two accumulators (same qrels, measures and options) pools their
    rows; a document twice for one query raises when evaluated, as in
    :meth:`scorekit.Run.from_arrays`.

    Parameters
    ----------
    qrels : Qrels, SubtopicQrels or mapping
        The judgments: a :class:`scorekit.Qrels` or ``{query: {doc: grade}}``;
        for the diversity measures (``alpha_nDCG@20``, ``ERR_IA@20``, ...) a
        :class:`scorekit.SubtopicQrels` or ``{query: {subtopic: {doc: grade}}}``
        (what :func:`scorekit.evaluate` takes; ``to_dict``/``from_dict`` keep the kind).
    measures : str or iterable of str
        As :func:`scorekit.evaluate` (parsed here once, so a bad name raises now).
    tag : str, default="scorekit"
        The run's tag (trec_eval's ``runid``).
    **options
        The keyword options of :func:`scorekit.evaluate` (``rel_level``,
        ``all_queries``, ``max_docs``, ``judged_only``, ``gain``, ``per_query``,
        and the conventions ``ties``, ``ap_denominator``, ``missing_queries``,
        ``ndcg_ideal``, ``compat``, ``num_docs``) or ``options=EvalOptions(...)``,
        checked here. With ``ties="input_order"``
        the input order is the order of the rows fed (merged rows after one's own).

    Examples
    --------
    Query ``q``'s three documents arrive in two chunks; AP = (1/1 + 2/3) / 3:

    >>> acc = RankingAccumulator({"q": {"a": 1, "c": 1, "z": 1}}, ["AP", "P@2"])
    >>> _ = acc.update(["q", "q"], ["a", "c"], [0.9, 0.7]).update(["q"], ["b"], [0.8])
    >>> {k: round(v, 4) for k, v in acc.evaluate().mean().items()}
    {'AP': 0.5556, 'P@2': 0.5}

    With subtopic qrels, the diversity measures (Clarke et al. 2008's example):

    >>> sub = {"q": {"1": {"a": 1, "b": 1}, "2": {"a": 1, "d": 1}, "3": {"c": 1, "d": 1}}}
    >>> acc = RankingAccumulator(sub, ["alpha_nDCG@3", "P_IA@3"])
    >>> _ = acc.update(["q", "q"], ["a", "b"], [3.0, 2.0]).update(["q"], ["c"], [1.0])
    >>> {k: round(v, 4) for k, v in acc.evaluate().mean().items()}
    {'alpha_nDCG@3': 0.8808, 'P_IA@3': 0.4444}
    """

    _kind = "RankingAccumulator"

    def __init__(
        self,
        qrels: Qrels | dict[Any, Any],
        measures: str | Iterable[str],
        *,
        tag: str = "scorekit",
        **options: Any,
    ) -> None:
        super().__init__()
        self.qrels = _qrels(qrels)
        self.measures = [measures] if isinstance(measures, str) else list(measures)
        div, other = split_requests(self.measures)
        if div and not isinstance(self.qrels, SubtopicQrels):
            raise ParameterError(
                f"{div[0][0]!r} is a diversity measure: it needs subtopic qrels (a "
                "SubtopicQrels or {query: {subtopic: {doc: grade}}})"
            )
        if other or not div:
            parse_requests(other)  # an unknown name raises here, not at the end
        self.tag = str(tag)
        self.options = _checked(options)
        self._queries: list[AnyArray] = []
        self._docs: list[AnyArray] = []
        self._scores: list[AnyArray] = []

    # rows are kept as lists of arrays; the merge stack is not used
    def _params(self) -> dict[str, Any]:
        return {
            "qrels": self.qrels.to_dict(),
            "measures": list(self.measures),
            "tag": self.tag,
            **self.options,
        }

    def merge(self, other: RankingAccumulator) -> RankingAccumulator:  # type: ignore[override]
        """Pool the rows of ``other`` (same qrels, measures and options); returns self."""
        if type(other) is not type(self):
            raise ParameterError(
                f"cannot merge a {type(other).__name__} into a {type(self).__name__}"
            )
        if (other.measures, other.tag, other.options) != (self.measures, self.tag, self.options):
            raise ParameterError(
                "cannot merge RankingAccumulators built with different measures or options"
            )
        if other.qrels is not self.qrels and other.qrels.to_dict() != self.qrels.to_dict():
            raise ParameterError("cannot merge RankingAccumulators built with different qrels")
        self._queries += other._queries
        self._docs += other._docs
        self._scores += other._scores
        return self

    def __repr__(self) -> str:
        return (
            f"RankingAccumulator(measures={self.measures!r}, tag={self.tag!r}, "
            f"options={self.options!r})"
        )

    def update(self, query: ArrayLike, doc: ArrayLike, score: ArrayLike) -> RankingAccumulator:
        """Add run rows (arguments as :meth:`scorekit.Run.from_arrays`); returns self."""
        if empty_chunk(query, doc, score):
            return self
        q = id_bytes(query, "query")
        d = id_bytes(doc, "doc")
        s = scores_1d(score, "score")
        check_same_length(query=q, doc=d, score=s)
        if not np.isfinite(s).all():
            raise NonFiniteError(
                f"score contains {int((~np.isfinite(s)).sum())} NaN or infinite values"
            )
        # copies: the caller may reuse its buffers after update() returns
        self._queries.append(q.copy())
        self._docs.append(d.copy())
        self._scores.append(s.copy())
        return self

    @property
    def n_rows(self) -> int:
        """Rows kept so far."""
        return sum(s.size for s in self._scores)

    def run(self) -> Run:
        """The :class:`scorekit.Run` of every row seen."""
        if not self._scores:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        return Run.from_arrays(
            np.concatenate(self._queries),
            np.concatenate(self._docs),
            np.concatenate(self._scores),
            tag=self.tag,
        )

    def evaluate(self) -> RankingResult:
        """:func:`scorekit.evaluate` of the qrels and every row seen."""
        return evaluate(self.qrels, self.run(), self.measures, **self.options)

    def _state_to_dict(self) -> dict[str, Any]:
        if not self._scores:
            return {"rows": None}
        return {
            "rows": {
                "query": encode_array(np.concatenate(self._queries)),
                "doc": encode_array(np.concatenate(self._docs)),
                "score": encode_array(np.concatenate(self._scores)),
            }
        }

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        rows = Fields(d, "state", ("rows",)).sub("rows", ("query", "doc", "score"), optional=True)
        if rows is None:
            return
        query, doc = rows.array("query", "id"), rows.array("doc", "id")
        score = rows.array("score", "f", finite=True)
        check_lengths("state.rows", query=query, doc=doc, score=score)
        self._queries, self._docs, self._scores = [query], [doc], [score]

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_pending")
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        Accumulator.__init__(self)
