"""``Contingency``: the streaming front end of the external clustering metrics.

The state is :class:`~scorekit.clustering._contingency.ContingencyState`, the
non-zero cells of the contingency table; it never holds rows. As the kernel
module's docstring prescribes, each side keeps its label vocabulary in
first-seen order (a new label is appended, so earlier codes stay valid): a
chunk is coded with ``scorekit._codes.encode``, its classes are mapped to vocabulary
positions and its codes translated before ``_contingency_from_chunk``; another
accumulator's state is moved into this vocabulary with
``_remap_contingency``. Before a metric is read the state is remapped once
into sorted label order, so its cells come in the order of the one-shot
functions and every value is bit-identical to theirs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codes import encode
from .._errors import EmptyInputError, LabelError, ParameterError
from .._typing import AnyArray, ArrayLike, IntArray
from .._validation import check_same_length, labels_1d
from ..clustering._contingency import (
    ContingencyState,
    _ari_from_contingency,
    _contingency_from_chunk,
    _fowlkes_mallows_from_contingency,
    _merge_contingency,
    _rand_from_contingency,
    _remap_contingency,
)
from ..clustering._information import (
    _ami_from_contingency,
    _check_average,
    _check_beta,
    _hcv_from_contingency,
    _mi_from_contingency,
    _nmi_from_contingency,
)
from ..clustering._matching import (
    cluster_accuracy_from_contingency,
    pair_confusion_from_contingency,
)
from ._base import Accumulator, encode_array
from ._labels import empty_chunk
from ._statecheck import Fields, check_increasing, check_lengths

__all__ = ["Contingency"]


class _Vocabulary:
    """Labels in first-seen order, with a sorted view for look-ups."""

    __slots__ = ("labels", "order", "sorted")

    def __init__(self, labels: AnyArray | None = None) -> None:
        self.labels: AnyArray | None = None
        self.sorted: AnyArray | None = None
        self.order: IntArray | None = None  # positions in ``labels`` of ``sorted``
        if labels is not None:
            self._set(labels)

    def _set(self, labels: AnyArray) -> None:
        self.labels = labels
        self.order = np.argsort(labels, kind="stable").astype(np.int64)
        self.sorted = labels[self.order]

    @property
    def size(self) -> int:
        return 0 if self.labels is None else int(self.labels.size)

    def positions(self, classes: AnyArray, name: str) -> IntArray:
        """Vocabulary positions of the sorted distinct ``classes``; unseen ones are appended."""
        if self.labels is None or self.sorted is None or self.order is None:
            self._set(classes)
            return np.arange(classes.size, dtype=np.int64)
        if classes.size and (self.labels.dtype.kind in "USO") != (classes.dtype.kind in "USO"):
            raise LabelError(f"{name} has string labels in one chunk and numbers in another")
        idx = np.searchsorted(self.sorted, classes)
        clipped = np.minimum(idx, self.sorted.size - 1)
        found = (idx < self.sorted.size) & (self.sorted[clipped] == classes)
        pos = np.where(found, self.order[clipped], -1)
        new = classes[~found]
        if new.size:
            pos[~found] = self.size + np.arange(new.size)
            self._set(np.concatenate([self.labels, new]))
        return pos

    def ranks(self) -> IntArray:
        """The position in sorted label order of each vocabulary entry."""
        rank = np.empty(self.size, dtype=np.int64)
        if self.order is not None:
            rank[self.order] = np.arange(self.size)
        return rank


class Contingency(Accumulator):
    """Streaming pair-counting and information-theoretic clustering metrics.

    Holds the non-zero cells of the contingency table of ``labels_true``
    against ``labels_pred`` and the labels of each side: memory grows with
    the number of distinct (class, cluster) pairs, never with rows.
    ``update(labels_true, labels_pred)`` adds a chunk (ints, bools or
    strings); a class or cluster may span any number of chunks. Every method
    equals the one-shot function of the same name (:func:`scorekit.rand_index`,
    ...) on all rows seen, bit for bit.

    Examples
    --------
    >>> acc = Contingency().update([0, 0], ["b", "b"]).update([1, 1], ["a", "a"])
    >>> acc.adjusted_rand_index(), acc.normalized_mutual_info()
    (1.0, 1.0)
    """

    _kind = "Contingency"

    def __init__(self) -> None:
        super().__init__()
        self._true = _Vocabulary()
        self._pred = _Vocabulary()
        self._sorted: ContingencyState | None = None  # cache of the sorted state

    def _merge_state(self, a: ContingencyState, b: ContingencyState) -> ContingencyState:
        return _merge_contingency(a, b)

    def _state_size(self, state: ContingencyState) -> int:
        return int(state.counts.size)

    def _params(self) -> dict[str, Any]:
        return {}

    def update(self, labels_true: ArrayLike, labels_pred: ArrayLike) -> Contingency:
        """Add a chunk of two labelings (arguments as :func:`scorekit.rand_index`); returns self."""
        if empty_chunk(labels_true, labels_pred):
            return self
        t = labels_1d(labels_true, "labels_true")
        p = labels_1d(labels_pred, "labels_pred")
        check_same_length(labels_true=t, labels_pred=p)
        classes, t_codes = encode(t)
        clusters, p_codes = encode(p)
        t_map = self._true.positions(classes, "labels_true")
        p_map = self._pred.positions(clusters, "labels_pred")
        state = _contingency_from_chunk(
            t_map[t_codes], p_map[p_codes], n_true=self._true.size, n_pred=self._pred.size
        )
        self._sorted = None
        self._pending.push(state)
        return self

    def _absorb(self, other: Any) -> None:
        state = other._state()
        if state is None:
            return
        t_map = self._true.positions(other._true.sorted, "labels_true")
        p_map = self._pred.positions(other._pred.sorted, "labels_pred")
        # other's code c is the label other._true.labels[c] = other._true.sorted[rank[c]]
        t_map = t_map[other._true.ranks()]
        p_map = p_map[other._pred.ranks()]
        moved = _remap_contingency(state, t_map, p_map, self._true.size, self._pred.size)
        self._sorted = None
        self._pending.push(moved)

    def _contingency(self) -> ContingencyState:
        """The state in sorted label order (the one-shot functions' code space)."""
        if self._sorted is None:
            state = self._state()
            if state is None:
                raise EmptyInputError("no rows were seen; update() the accumulator with data first")
            nt, np_ = self._true.size, self._pred.size
            self._sorted = _remap_contingency(
                state, self._true.ranks(), self._pred.ranks(), nt, np_
            )
        return self._sorted

    @property
    def classes_true(self) -> AnyArray:
        """Sorted labels of ``labels_true`` seen: the rows of :meth:`contingency_matrix`."""
        return np.asarray(self._true.sorted if self._true.sorted is not None else [])

    @property
    def classes_pred(self) -> AnyArray:
        """Sorted labels of ``labels_pred`` seen: the columns of :meth:`contingency_matrix`."""
        return np.asarray(self._pred.sorted if self._pred.sorted is not None else [])

    # -- metrics ------------------------------------------------------------------

    def contingency_matrix(self, *, eps: float | None = None, sparse: bool = False) -> Any:
        """Rows true classes, columns clusters (sorted); see :func:`scorekit.contingency_matrix`."""
        if eps is not None and sparse:
            raise ParameterError("eps cannot be set when sparse=True")
        if eps is not None and not (
            isinstance(eps, (int, float, np.number)) and np.isfinite(eps) and eps >= 0
        ):
            raise ParameterError(f"eps={eps!r} must be a finite number >= 0")
        s = self._contingency()
        if sparse:
            from scipy import sparse as sp

            return sp.csr_matrix((s.counts, (s.rows, s.cols)), shape=(s.n_true, s.n_pred))
        out = np.zeros((s.n_true, s.n_pred), dtype=np.int64)
        out[s.rows, s.cols] = s.counts
        return out + eps if eps is not None else out

    def pair_confusion_matrix(self) -> AnyArray:
        """Ordered pairs grouped alike or apart; see :func:`scorekit.pair_confusion_matrix`."""
        return pair_confusion_from_contingency(self._contingency())

    def cluster_accuracy(self) -> float:
        """Accuracy under the best class/cluster matching; see :func:`scorekit.cluster_accuracy`."""
        return cluster_accuracy_from_contingency(self._contingency())

    def rand_index(self) -> float:
        """Share of sample pairs on which the labelings agree; see :func:`scorekit.rand_index`."""
        return _rand_from_contingency(self._contingency())

    def adjusted_rand_index(self) -> float:
        """Rand index adjusted for chance; see :func:`scorekit.adjusted_rand_index`."""
        return _ari_from_contingency(self._contingency())

    def fowlkes_mallows(self) -> float:
        """Geometric mean of pair precision and recall; see :func:`scorekit.fowlkes_mallows`."""
        return _fowlkes_mallows_from_contingency(self._contingency())

    def mutual_info(self) -> float:
        """Mutual information in nats; see :func:`scorekit.mutual_info`."""
        return _mi_from_contingency(self._contingency())

    def normalized_mutual_info(self, *, average_method: str = "arithmetic") -> float:
        """MI over a mean of the entropies; see :func:`scorekit.normalized_mutual_info`."""
        _check_average(average_method)
        return _nmi_from_contingency(self._contingency(), average_method)

    def adjusted_mutual_info(self, *, average_method: str = "arithmetic") -> float:
        """MI adjusted for chance; see :func:`scorekit.adjusted_mutual_info`."""
        _check_average(average_method)
        return _ami_from_contingency(self._contingency(), average_method)

    def homogeneity_completeness_v_measure(
        self, *, beta: float = 1.0
    ) -> tuple[float, float, float]:
        """See :func:`scorekit.homogeneity_completeness_v_measure`."""
        _check_beta(beta)
        return _hcv_from_contingency(self._contingency(), beta)

    def homogeneity(self) -> float:
        """Each cluster holds one class; see :func:`scorekit.homogeneity`."""
        return _hcv_from_contingency(self._contingency())[0]

    def completeness(self) -> float:
        """Each class lies in one cluster; see :func:`scorekit.completeness`."""
        return _hcv_from_contingency(self._contingency())[1]

    def v_measure(self, *, beta: float = 1.0) -> float:
        """Weighted harmonic mean of homogeneity and completeness; see :func:`scorekit.v_measure`."""
        _check_beta(beta)
        return _hcv_from_contingency(self._contingency(), beta)[2]

    # -- JSON-safe dict -----------------------------------------------------------

    def _state_to_dict(self) -> dict[str, Any]:
        s = self._state()
        if s is None or self._true.labels is None or self._pred.labels is None:
            return {"contingency": None}
        return {
            "contingency": {
                "labels_true": encode_array(self._true.labels),
                "labels_pred": encode_array(self._pred.labels),
                "rows": encode_array(s.rows),
                "cols": encode_array(s.cols),
                "counts": encode_array(s.counts),
            }
        }

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        keys = ("labels_true", "labels_pred", "rows", "cols", "counts")
        c = Fields(d, "state", ("contingency",)).sub("contingency", keys, optional=True)
        if c is None:
            return
        labels_true, labels_pred = c.array("labels_true", "label"), c.array("labels_pred", "label")
        for key, labels in (("labels_true", labels_true), ("labels_pred", labels_pred)):
            if np.unique(labels).size != labels.size:
                raise c.fail(key, "must hold distinct labels")
        rows, cols = c.array("rows", "i"), c.array("cols", "i")
        counts = c.array("counts", "i", nonneg=True)
        check_lengths("state.contingency", rows=rows, cols=cols, counts=counts)
        for key, codes, size in (
            ("rows", rows, labels_true.size),
            ("cols", cols, labels_pred.size),
        ):
            if codes.size and (codes.min() < 0 or codes.max() >= size):
                raise c.fail(key, f"holds codes outside [0, {size})")
        cell = rows * max(labels_pred.size, 1) + cols
        check_increasing(cell, "state.contingency (rows, cols)")
        if counts.size and counts.min() == 0:
            raise c.fail("counts", "holds zero counts; only non-zero cells are stored")
        self._true = _Vocabulary(labels_true)
        self._pred = _Vocabulary(labels_pred)
        state = ContingencyState(labels_true.size, labels_pred.size, rows, cols, counts)
        self._pending.replace(state)
