"""Group AUC (GAUC): the AUC of each group (user), averaged with weights.

The kernel (rows -> :class:`~._gauc_kernel.GroupedCurveState` -> merge ->
per-group AUC) is :mod:`._gauc_kernel`; this module validates the inputs,
weights the groups (:func:`gauc_from_stats`) and holds the public
:func:`gauc`. Without ``sample_weight`` the one-shot :func:`gauc` takes the
kernel's faster path (``unit_group_stats``), and with it the rows go straight
to the state's class weights (``weighted_group_aucs``): the same per-group values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np

from .._codes import distinct, encode
from .._errors import LengthMismatchError, ParameterError, ShapeError
from .._optional import require
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray
from .._validation import (
    as_array,
    binary_target,
    check_option,
    check_weights,
    checked_rows,
    labels_1d,
    scores_1d,
    undefined,
)
from ._gauc_kernel import (
    GroupedCurveState,
    group_aucs_from_state,
    grouped_curve_from_chunk,
    unit_group_stats,
    weighted_group_aucs,
)

__all__ = ["GroupAUCTable", "gauc"]

GroupWeights = Literal["impressions", "clicks"] | None | Mapping[Any, float] | ArrayLike


class _GroupTable:
    """A table of equal-length columns (its slots), one row per group, ``group`` first."""

    __slots__: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(getattr(self, "group").shape[0])  # noqa: B009 - set by the dataclass

    def to_dict(self) -> dict[str, list[Any]]:
        """Columns as Python lists: ``{"group": [...], "n": [...], ...}``."""
        return {name: getattr(self, name).tolist() for name in self.__slots__}

    def to_pandas(self) -> Any:
        """A pandas DataFrame with one row per group (needs pandas)."""
        pd = require("pandas", pip="pandas")
        return pd.DataFrame({name: getattr(self, name) for name in self.__slots__})


@dataclass(frozen=True, slots=True, eq=False)
class GroupAUCTable(_GroupTable):
    """One row per group: ``group, n, n_pos, n_neg, auc, weight``, groups sorted ascending.

    ``n``, ``n_pos`` and ``n_neg`` are row counts (weight sums with
    ``sample_weight``); ``auc`` is ``nan`` and ``weight`` is 0 for a group
    with one class only, which does not enter the mean.
    """

    group: AnyArray
    n: FloatArray
    n_pos: FloatArray
    n_neg: FloatArray
    auc: FloatArray
    weight: FloatArray


def gauc_from_state(
    state: GroupedCurveState,
    *,
    weights: GroupWeights = "impressions",
    return_groups: bool = False,
) -> float | tuple[float, GroupAUCTable]:
    """State -> GAUC (with ``return_groups``, also the per-group table); see :func:`gauc`."""
    _check_weights_option(weights)
    n_pos, n_neg, auc = group_aucs_from_state(state)
    return gauc_from_stats(state.groups, n_pos, n_neg, auc, weights, return_groups)


# --------------------------------------------------------------------------- weighting


def _check_weights_option(weights: Any) -> None:
    if isinstance(weights, (str, bool, np.bool_)):
        check_option(weights, "weights", ("impressions", "clicks", None))


def _weights_per_group(
    weights: Any, groups: AnyArray, n: FloatArray, n_pos: FloatArray
) -> FloatArray:
    if isinstance(weights, str):  # "impressions" or "clicks"; others were refused before
        return n if weights == "impressions" else n_pos
    if weights is None:
        return np.ones_like(n)
    if isinstance(weights, Mapping) or type(weights).__module__.startswith("pandas"):
        return _weights_from_mapping(weights, groups)
    arr = as_array(weights, "weights")
    if arr.ndim != 1:
        raise ShapeError(f"weights must be 1-D (one weight per group), got shape {arr.shape}")
    if arr.shape[0] != groups.size:
        raise LengthMismatchError(
            f"weights has {arr.shape[0]} entries but there are {groups.size} distinct groups; "
            "an array of weights aligns with the sorted unique group ids "
            "(pass a mapping group -> weight to be explicit)"
        )
    return check_weights(scores_1d(arr, "weights"), "weights", ParameterError)


def _weights_from_mapping(weights: Any, groups: AnyArray) -> FloatArray:
    if isinstance(weights, Mapping):
        keys = as_array(list(weights.keys()), "weights keys")
        values = scores_1d(list(weights.values()), "weights")
    else:  # a pandas Series: index -> weight
        keys = as_array(weights.index, "weights keys")
        values = scores_1d(weights, "weights")
    if keys.size == 0 or (keys.dtype.kind in "USO") != (groups.dtype.kind in "USO"):
        found = np.zeros(groups.size, dtype=bool)
        pos = np.zeros(groups.size, dtype=np.intp)
    else:
        order = np.argsort(keys, kind="stable")
        pos = np.minimum(np.searchsorted(keys[order], groups), keys.size - 1)
        found = keys[order][pos] == groups
        pos = order[pos]
    if not found.all():
        missing = groups[~found]
        raise ParameterError(
            f"weights has no entry for {missing.size} groups ({missing[:5].tolist()}); "
            "a mapping of weights needs one for every group"
        )
    return check_weights(values[pos], "weights", ParameterError)


def gauc_from_stats(
    groups: AnyArray,
    n_pos: FloatArray,
    n_neg: FloatArray,
    auc: FloatArray,
    weights: Any,
    return_groups: bool,
) -> float | tuple[float, GroupAUCTable]:
    """Per-group weights and AUC -> weighted mean of the per-group AUC (and the table).

    The group weights are scaled by a power of two (their largest to [0.5, 1))
    before the weighted mean: exact, so the value is the same at any scale.
    """
    n = n_pos + n_neg
    valid = (n_pos > 0) & (n_neg > 0)
    auc = np.where(valid, auc, np.nan)
    weight = np.where(valid, _weights_per_group(weights, groups, n, n_pos), 0.0)
    top = float(weight.max()) if weight.size else 0.0
    scaled = np.ldexp(weight, -int(np.frexp(top)[1])) if 0 < top < np.inf else weight
    total = float(scaled.sum())
    if not valid.any():
        value = undefined("gauc", "every group has only one class")
    elif total == 0:
        value = undefined("gauc", "the groups with both classes have total weight 0")
    else:
        value = float(np.dot(scaled[valid], auc[valid]) / total)
    if not return_groups:
        return value
    return value, GroupAUCTable(groups, n, n_pos, n_neg, auc, weight)


# --------------------------------------------------------------------------- public


def _gauc_inputs(
    y_true: ArrayLike,
    y_score: ArrayLike,
    groups: ArrayLike,
    sample_weight: ArrayLike | None,
    nan_policy: str,
) -> tuple[BoolArray, FloatArray, AnyArray, FloatArray | None, AnyArray]:
    """Validate GAUC rows: ``(positives, finite scores, group ids, weights, classes of y_true)``.

    Rows with a NaN score are dropped (``nan_policy="omit"``) before the labels
    are read; the classes are returned for ``stream.GroupedCurve``, which checks
    them across chunks.
    """
    labels = labels_1d(y_true, "y_true")
    s = scores_1d(y_score, "y_score")
    g = labels_1d(groups, "groups")
    labels, s, g, w = checked_rows(
        nan_policy, sample_weight, ("y_score",), y_true=labels, y_score=s, groups=g
    )
    classes = distinct(labels)
    return binary_target(labels, None, "y_true", classes=classes), s, g, w, classes


@overload
def gauc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    groups: ArrayLike,
    *,
    weights: GroupWeights = ...,
    sample_weight: ArrayLike | None = ...,
    return_groups: Literal[False] = ...,
    nan_policy: str = ...,
) -> float: ...


@overload
def gauc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    groups: ArrayLike,
    *,
    weights: GroupWeights = ...,
    sample_weight: ArrayLike | None = ...,
    return_groups: Literal[True],
    nan_policy: str = ...,
) -> tuple[float, GroupAUCTable]: ...


def gauc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    groups: ArrayLike,
    *,
    weights: GroupWeights = "impressions",
    sample_weight: ArrayLike | None = None,
    return_groups: bool = False,
    nan_policy: str = "raise",
) -> float | tuple[float, GroupAUCTable]:
    r"""Group AUC: the ROC AUC of each group (user), averaged with weights.

    .. math:: \mathrm{GAUC} = \sum_g v_g \mathrm{AUC}_g / \sum_g v_g,\quad
              \mathrm{AUC}_g = \frac{1}{W^+_g W^-_g} \sum_{i \in g^+} \sum_{j \in g^-}
              w_i w_j \big([s_i > s_j] + \tfrac12 [s_i = s_j]\big)

    Exact, tied scores count one half; one sort serves every group. Groups
    whose labels are all one class are skipped (``auc`` nan, weight 0).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels in {0, 1}, {-1, 1} or bool (click or not).
    y_score : array-like of shape (n_samples,)
    groups : array-like of shape (n_samples,)
        Group (user) id of each row: ints or strings.
    weights : "impressions", "clicks", None, mapping or array-like, default="impressions"
        ``v_g``: the group's rows (weight sum with ``sample_weight``), its
        positives, 1 each (None), a mapping group -> weight covering every
        group, or an array aligned with the sorted unique group ids
        (``np.unique(groups)``, the order of the table). Not negative.
    sample_weight : array-like of shape (n_samples,), default=None
    return_groups : bool, default=False
        Also return a :class:`GroupAUCTable` (``group, n, n_pos, n_neg, auc, weight``).
    nan_policy : {"raise", "omit"}, default="raise"

    Returns
    -------
    float, or (float, GroupAUCTable)
        ``nan`` with ``UndefinedMetricWarning`` when no group has both classes.

    Examples
    --------
    a: AUC 1 over 2 rows; b: 2 of 4 pairs in order, AUC 0.5 over 4 rows; c has
    no negative and is skipped. (2·1 + 4·0.5) / 6:

    >>> y = [0, 1, 1, 0, 0, 1, 1, 1]
    >>> s = [0.2, 0.6, 0.2, 0.3, 0.3, 0.9, 0.5, 0.7]
    >>> g = ["a", "a", "b", "b", "b", "b", "c", "c"]
    >>> gauc(y, s, g), gauc(y, s, g, weights="clicks"), gauc(y, s, g, weights=None)
    (0.6666666666666666, 0.6666666666666666, 0.75)
    """
    _check_weights_option(weights)
    y, s, g, w, _ = _gauc_inputs(y_true, y_score, groups, sample_weight, nan_policy)
    group_labels, codes = encode(g, gaps=True)
    if w is None:
        n_pos, n_neg, u = unit_group_stats(codes, group_labels.size, y, s)
        with np.errstate(divide="ignore", invalid="ignore"):
            auc = u / (n_pos * n_neg)
        present = (n_pos + n_neg) > 0
        if not present.all():
            group_labels, n_pos, n_neg, auc = (
                group_labels[present],
                n_pos[present],
                n_neg[present],
                auc[present],
            )
    else:
        stats = weighted_group_aucs(codes, group_labels.size, y, s, w) if s.size else None
        if stats is None:
            state = grouped_curve_from_chunk(codes, y, s, w, group_labels)
            group_labels = state.groups
            n_pos, n_neg, auc = group_aucs_from_state(state)
        else:
            present, n_pos, n_neg, auc = stats
            group_labels = group_labels[present]
    return gauc_from_stats(group_labels, n_pos, n_neg, auc, weights, return_groups)
