"""``GroupedCurve``: the streaming front end of GAUC (groups may span chunks).

The state is :class:`~scorekit.recsys._gauc_kernel.GroupedCurveState`, the positive
and negative weight at each distinct (group, score); chunks go through
``grouped_curve_from_chunk``, states merge with ``merge_grouped_curves``
(entries of one group from different chunks are added) and the value is
``gauc_from_state``.
"""

from __future__ import annotations

from typing import Any, cast

from .._codes import encode
from .._errors import EmptyInputError, LabelError
from .._typing import AnyArray, ArrayLike
from .._validation import check_option
from ..classification._curve_exact import decode_exact, encode_exact
from ..recsys._gauc import (
    GroupAUCTable,
    GroupWeights,
    _check_weights_option,
    _gauc_inputs,
    gauc_from_state,
)
from ..recsys._gauc_kernel import GroupedCurveState, grouped_curve_from_chunk, merge_grouped_curves
from ._base import Accumulator, decode_array, encode_array
from ._labels import check_binary_classes, empty_chunk, union_classes

__all__ = ["GroupedCurve"]

_FIELDS = ("groups", "offsets", "scores", "pos", "neg")


class GroupedCurve(Accumulator):
    """Streaming group AUC (GAUC): the AUC of each group, averaged with weights.

    Holds the positive and negative weight at each distinct (group, score):
    memory grows with the distinct (group, score) pairs (about the rows when
    scores are continuous; round the scores to bound it). ``update(y_true,
    y_score, groups, sample_weight=...)`` adds a chunk; a group's rows may
    arrive in any number of chunks. :meth:`gauc` equals
    :func:`scorekit.gauc` on all rows seen, bit for bit, for any weights,
    chunking and merge order (weights are summed exactly, rounded once).

    Parameters
    ----------
    nan_policy : {"raise", "omit"}, default="raise"

    Examples
    --------
    Group ``a`` spans both chunks (AUC 1); ``b`` has AUC 0; 2 rows each:

    >>> acc = GroupedCurve().update([0, 1], [0.2, 0.1], ["b", "b"]).update([0], [0.1], ["a"])
    >>> acc.update([1], [0.9], ["a"]).gauc()
    0.5
    """

    _kind = "GroupedCurve"

    def __init__(self, *, nan_policy: str = "raise") -> None:
        super().__init__()
        check_option(nan_policy, "nan_policy", ("raise", "omit"))
        self.nan_policy = nan_policy
        self._classes: AnyArray | None = None
        self._strings: bool | None = None  # group ids are strings (None: nothing seen)

    def _merge_state(self, a: GroupedCurveState, b: GroupedCurveState) -> GroupedCurveState:
        return merge_grouped_curves(a, b)

    def _state_size(self, state: GroupedCurveState) -> int:
        return int(state.scores.size)

    def _params(self) -> dict[str, Any]:
        return {"nan_policy": self.nan_policy}

    def _add_classes(self, classes: AnyArray) -> None:
        union = union_classes(self._classes, classes)
        check_binary_classes(union, None)
        self._classes = union

    def _check_groups(self, strings: bool | None) -> None:
        if strings is None:
            return
        if self._strings is not None and strings != self._strings:
            raise LabelError("groups has string ids in one chunk and numbers in another")
        self._strings = strings

    def update(
        self,
        y_true: ArrayLike,
        y_score: ArrayLike,
        groups: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
    ) -> GroupedCurve:
        """Add a chunk (arguments as :func:`scorekit.gauc`); returns self."""
        if empty_chunk(y_true, y_score, groups, sample_weight):
            return self
        y, s, g, w, classes = _gauc_inputs(y_true, y_score, groups, sample_weight, self.nan_policy)
        self._check_groups(g.dtype.kind in "USO")
        self._add_classes(classes)
        group_labels, codes = encode(g, gaps=True)
        self._pending.push(grouped_curve_from_chunk(codes, y, s, w, group_labels))
        return self

    def _absorb(self, other: Any) -> None:
        if other._classes is not None:
            self._add_classes(other._classes)
        self._check_groups(other._strings)
        super()._absorb(other)

    def _grouped(self) -> GroupedCurveState:
        state = self._state()
        if state is None:
            raise EmptyInputError("no rows were seen; update() the accumulator with data first")
        s: GroupedCurveState = state
        return s

    @property
    def n_groups(self) -> int:
        """Number of distinct groups seen."""
        state = self._state()
        return 0 if state is None else int(state.groups.size)

    def gauc(self, *, weights: GroupWeights = "impressions") -> float:
        """GAUC of the rows seen; ``weights`` as :func:`scorekit.gauc`."""
        _check_weights_option(weights)
        return cast(float, gauc_from_state(self._grouped(), weights=weights))

    def group_table(self, *, weights: GroupWeights = "impressions") -> GroupAUCTable:
        """The per-group table of :func:`scorekit.gauc` (``return_groups=True``)."""
        _check_weights_option(weights)
        result = gauc_from_state(self._grouped(), weights=weights, return_groups=True)
        return cast(tuple[float, GroupAUCTable], result)[1]

    def _state_to_dict(self) -> dict[str, Any]:
        s = self._state()
        return {
            "curve": None
            if s is None
            else {
                **{k: encode_array(getattr(s, k)) for k in _FIELDS},
                "exact": encode_exact(s.exact, encode_array),
            },
            "classes": None if self._classes is None else encode_array(self._classes),
            "strings": self._strings,
        }

    def _state_from_dict(self, d: dict[str, Any]) -> None:
        if d["curve"] is not None:
            exact = decode_exact(d["curve"].get("exact"), decode_array)
            groups, offsets, scores, pos, neg = (decode_array(d["curve"][k]) for k in _FIELDS)
            self._pending.replace(GroupedCurveState(groups, offsets, scores, pos, neg, exact))
        self._classes = None if d["classes"] is None else decode_array(d["classes"])
        self._strings = d["strings"]
