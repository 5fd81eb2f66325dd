"""``GroupedCurve``: the streaming front end of GAUC (groups may span chunks).

The state is :class:`~scorekit.recsys._gauc_kernel.GroupedCurveState`, the positive
and negative weight at each distinct (group, score); chunks go through
``grouped_curve_from_chunk``, states merge with ``merge_grouped_curves``
(entries of one group from different chunks are added) and the value is
``gauc_from_state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from .._codes import encode
from .._errors import EmptyInputError, LabelError
from .._typing import AnyArray, ArrayLike
from .._validation import check_option
from ..classification._curve_exact import encode_exact
from ..recsys._gauc import (
    GroupAUCTable,
    GroupWeights,
    _check_weights_option,
    _gauc_inputs,
    gauc_from_state,
    gauc_from_stats,
)
from ..recsys._gauc_kernel import (
    GroupedCurveState,
    group_aucs_from_state,
    grouped_curve_from_chunk,
    merge_grouped_curves,
)
from ._base import Accumulator, encode_array
from ._labels import check_binary_classes, empty_chunk, union_classes
from ._statecheck import Fields, check_increasing, check_lengths, exact_part

__all__ = ["GroupedCurve"]

GroupStats = tuple[AnyArray, AnyArray, AnyArray, AnyArray, AnyArray]

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
        f = Fields(d, "state", ("curve", "classes", "strings"))
        classes = f.maybe_array("classes", "label")
        if classes is not None:
            check_increasing(classes, f.name("classes"))
            if classes.size > 2:
                raise f.fail(
                    "classes", f"holds {classes.size} classes; a binary state has 2 at most"
                )
        strings = f.boolean("strings", optional=True)
        curve = f.sub("curve", (*_FIELDS, "exact"), optional=True)
        if curve is not None:
            groups = curve.array("groups", "label")
            offsets = curve.array("offsets", "i")
            scores = curve.array("scores", "f", finite=True)
            pos, neg = (curve.array(k, "f", finite=True, nonneg=True) for k in ("pos", "neg"))
            n = check_lengths("state.curve", scores=scores, pos=pos, neg=neg)
            check_increasing(groups, curve.name("groups"))
            if strings is not None and strings != (groups.dtype.kind == "U"):
                raise f.fail("strings", "does not match the type of state.curve.groups")
            if offsets.size != groups.size + 1 or offsets[0] != 0 or offsets[-1] != n:
                raise curve.fail("offsets", f"must run from 0 to {n} with one entry per group + 1")
            check_increasing(offsets, curve.name("offsets"))
            group_of = np.repeat(np.arange(groups.size), np.diff(offsets))
            if n > 1 and not np.all((scores[1:] > scores[:-1]) | (group_of[1:] != group_of[:-1])):
                raise curve.fail("scores", "must be strictly increasing within each group")
            exact = exact_part(curve, "exact", n, pos, neg)
            self._pending.replace(GroupedCurveState(groups, offsets, scores, pos, neg, exact))
        self._classes = classes
        self._strings = strings


# ------------------------------------------ whole groups per partition (Dask, Spark)


def group_stats(acc: GroupedCurve) -> GroupStats | None:
    """``(groups, positives, negatives, AUC, classes)`` of an accumulator holding whole groups.

    The per-group statistics a partition sends back when every
    group's rows are in it (after a shuffle by group); ``None`` when it saw no
    rows. :func:`gauc_from_group_stats` combines those of all partitions.
    """
    state = acc._state()
    if state is None or acc._classes is None:
        return None
    n_pos, n_neg, auc = group_aucs_from_state(state)
    return state.groups, n_pos, n_neg, auc, acc._classes


def gauc_from_group_stats(pieces: Sequence[GroupStats | None], weights: GroupWeights) -> float:
    """GAUC from the :func:`group_stats` of partitions holding disjoint sets of whole groups.

    The statistics are concatenated and sorted by group, and the weighted
    mean is taken once: the value of :func:`scorekit.gauc` on all the rows.
    """
    full = [p for p in pieces if p is not None]
    if not full:
        GroupedCurve().gauc()  # raises: no rows were seen
    classes: AnyArray | None = None
    for piece in full:
        classes = union_classes(classes, piece[4])
    check_binary_classes(cast(AnyArray, classes), None)
    kinds = {p[0].dtype.kind in "USO" for p in full}
    if len(kinds) > 1:
        raise LabelError("groups has string ids in some partitions and numbers in others")
    groups = np.concatenate([p[0] for p in full])
    order = np.argsort(groups, kind="stable")
    n_pos, n_neg, auc = (np.concatenate([p[i] for p in full])[order] for i in (1, 2, 3))
    return cast(float, gauc_from_stats(groups[order], n_pos, n_neg, auc, weights, False))
