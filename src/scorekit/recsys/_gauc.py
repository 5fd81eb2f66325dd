"""Group AUC (GAUC): the AUC of each group (user), averaged with weights.

Kernels, shaped for streaming (``scorekit.stream.GroupedCurve``) and Dask:

- :func:`_grouped_curve_from_chunk` rows -> :class:`GroupedCurveState`, the
  positive and negative weight at each distinct (group, score), sorted by
  group then score;
- :func:`_merge_grouped_curves` state ⊕ state (exact for unit weights; groups
  may arrive in different chunks);
- :func:`_gauc_from_state` state -> GAUC (and the per-group table).

The one-shot :func:`gauc` without ``sample_weight`` takes a faster path
(:func:`_unit_group_stats`: one ``np.sort`` of packed integer keys) that gives
the same per-group counts; both end in :func:`_gauc_from_stats`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from .._codes import distinct, encode
from .._errors import LabelError, LengthMismatchError, ParameterError, ShapeError
from .._optional import require
from .._typing import AnyArray, ArrayLike, BoolArray, FloatArray, IntArray
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

__all__ = ["GroupAUCTable", "gauc"]

U64Array = npt.NDArray[np.uint64]
GroupWeights = Literal["impressions", "clicks"] | None | Mapping[Any, float] | ArrayLike
_U1 = np.uint64(1)
_SIGN = np.uint64(1 << 63)
_LOW63 = np.uint64((1 << 63) - 1)


@dataclass(frozen=True, slots=True, eq=False)
class GroupedCurveState:
    """Positive and negative weight at each distinct (group, score), sorted by group then score.

    ``groups`` holds the labels of the groups present, sorted ascending; the
    entries of ``groups[i]`` are ``offsets[i]:offsets[i + 1]`` of ``scores``
    (strictly increasing within a group), ``pos`` and ``neg``.
    """

    groups: AnyArray
    offsets: IntArray
    scores: FloatArray
    pos: FloatArray
    neg: FloatArray


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


# --------------------------------------------------------------------------- kernels


def _empty_state(labels: AnyArray | None) -> GroupedCurveState:
    groups = np.zeros(0, np.int64) if labels is None else np.asarray(labels)[:0]
    empty = np.zeros(0)
    return GroupedCurveState(groups, np.zeros(1, np.int64), empty, empty, empty)


def _aggregate(
    codes: IntArray,
    scores: FloatArray,
    pos_w: FloatArray,
    neg_w: FloatArray,
    labels: AnyArray | None,
) -> GroupedCurveState:
    """Sum ``pos_w`` and ``neg_w`` per distinct (code, score); order by code, then score."""
    if codes.size == 0:
        return _empty_state(labels)
    scores = scores + 0.0  # a copy in which -0.0 is 0.0
    distinct, rank = np.unique(scores, return_inverse=True)
    n_distinct = distinct.size
    if (int(codes.max()) + 1) * n_distinct < 2**62:
        key = codes.astype(np.int64) * n_distinct + rank.reshape(-1)
        order = np.argsort(key)
        key = key[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        e_code, e_score = np.divmod(key[starts], n_distinct)
        e_scores = distinct[e_score]
    else:  # more (code, score) pairs than an int64 packs: sort on two keys
        order = np.lexsort((scores, codes))
        c, s = codes[order], scores[order]
        starts = np.flatnonzero(np.r_[True, (c[1:] != c[:-1]) | (s[1:] != s[:-1])])
        e_code, e_scores = c[starts], s[starts]
    pos = np.add.reduceat(pos_w[order], starts)
    neg = np.add.reduceat(neg_w[order], starts)
    g_starts = np.flatnonzero(np.r_[True, e_code[1:] != e_code[:-1]])
    present = e_code[g_starts]
    groups = present if labels is None else np.asarray(labels)[present]
    offsets = np.r_[g_starts, e_code.size].astype(np.int64)
    return GroupedCurveState(groups, offsets, e_scores, pos, neg)


def _grouped_curve_from_chunk(
    g_codes: IntArray,
    y: BoolArray,
    s: FloatArray,
    w: FloatArray | None,
    groups: AnyArray | None = None,
) -> GroupedCurveState:
    """Rows -> :class:`GroupedCurveState`.

    ``g_codes`` are integer group codes, ``y`` the positives, ``s`` the scores
    and ``w`` the weights (``None``: 1). ``groups[c]`` is the label of code
    ``c`` (sorted ascending, as ``np.unique`` returns them); without it the
    codes are the labels. Only groups with rows appear in the state.
    """
    yf = y.astype(np.float64)
    pos_w = yf if w is None else w * yf
    neg_w = 1.0 - yf if w is None else w * (1.0 - yf)
    return _aggregate(np.asarray(g_codes, np.int64), s, pos_w, neg_w, groups)


def _merge_grouped_curves(a: GroupedCurveState, b: GroupedCurveState) -> GroupedCurveState:
    """State ⊕ state: entries of equal (group, score) are added; exact for unit weights."""
    if a.scores.size == 0:
        return b
    if b.scores.size == 0:
        return a
    if (a.groups.dtype.kind in "USO") != (b.groups.dtype.kind in "USO"):
        raise LabelError("cannot merge GAUC states whose group ids mix strings and numbers")
    labels, inv = np.unique(np.concatenate([a.groups, b.groups]), return_inverse=True)
    inv = inv.reshape(-1)
    n_a = a.groups.size
    codes = np.concatenate(
        [np.repeat(inv[:n_a], np.diff(a.offsets)), np.repeat(inv[n_a:], np.diff(b.offsets))]
    )
    return _aggregate(
        codes,
        np.concatenate([a.scores, b.scores]),
        np.concatenate([a.pos, b.pos]),
        np.concatenate([a.neg, b.neg]),
        labels,
    )


def _group_stats_from_state(
    state: GroupedCurveState,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per group of ``state.groups``: positive weight, negative weight and Mann–Whitney U.

    U = Σ over positives of w⁺ (negative weight below + ½ negative weight tied).
    """
    n_groups = state.groups.size
    if n_groups == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    sizes = np.diff(state.offsets)
    entry_group = np.repeat(np.arange(n_groups), sizes)
    n_pos = np.add.reduceat(state.pos, state.offsets[:-1])
    n_neg = np.add.reduceat(state.neg, state.offsets[:-1])
    neg_before_group = np.cumsum(n_neg) - n_neg
    below = np.cumsum(state.neg) - state.neg - neg_before_group[entry_group]
    u = np.bincount(entry_group, state.pos * (below + state.neg / 2), minlength=n_groups)
    return n_pos, n_neg, u.astype(np.float64, copy=False)


def _gauc_from_state(
    state: GroupedCurveState,
    *,
    weights: GroupWeights = "impressions",
    return_groups: bool = False,
) -> float | tuple[float, GroupAUCTable]:
    """State -> GAUC (with ``return_groups``, also the per-group table); see :func:`gauc`."""
    _check_weights_option(weights)
    n_pos, n_neg, u = _group_stats_from_state(state)
    return _gauc_from_stats(state.groups, n_pos, n_neg, u, weights, return_groups)


# --------------------------------------------------------------------------- fast path


def _order_bits(x: FloatArray, signed: bool) -> U64Array:
    """Unsigned integers in the order of ``x`` (a new array; -0.0 and 0.0 map alike)."""
    u: U64Array = np.add(x, 0.0).view(np.uint64)
    if signed:  # negative floats: flip every bit; others: set the sign bit
        flip = u >> np.uint64(63)
        flip *= _LOW63
        flip |= _SIGN
        u ^= flip
    return u


def _impure_buckets(s: FloatArray, lo: np.uint64, shift: int, signed: bool) -> U64Array:
    """Buckets ``(bits - lo) >> shift`` that hold two or more distinct scores.

    Two neighbours in sorted order share a bucket but differ iff the XOR of
    their offsets from ``lo`` lies in ``[1, 2**shift)``.
    """
    d = _order_bits(np.sort(s), signed)
    d -= lo
    x = d[1:] ^ d[:-1]
    x -= _U1  # 0 (equal scores) wraps to the largest value
    hit = np.flatnonzero(x < np.uint64((1 << shift) - 1))
    return np.unique(d[hit] >> np.uint64(shift))


def _low16(a: U64Array) -> npt.NDArray[np.uint16]:
    """The low 16 bits of each entry, as a view when the machine is little-endian."""
    low: npt.NDArray[np.uint16]
    if sys.byteorder == "little" and a.flags.c_contiguous:
        low = a.view(np.uint16)[::4]
    else:
        low = (a & np.uint64(0xFFFF)).astype(np.uint16)
    return low


def _rows_in(bucket: U64Array, impure: U64Array) -> IntArray:
    """Indices of the rows whose bucket is impure (a bitmap prefilter, then an exact test)."""
    table = np.zeros(1 << 16, dtype=bool)
    table[_low16(impure)] = True
    cand = np.flatnonzero(table[_low16(bucket)])
    return cand[np.isin(bucket[cand], impure)]


def _unit_group_stats(
    codes: IntArray,
    n_codes: int,
    y: BoolArray,
    s: FloatArray,
    *,
    score_bits: int | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per code: positives, negatives and U for unit weights, from one sort of packed keys.

    Each row becomes one uint64 key ``group | score bucket | label``: the score
    bits (order-preserving, shifted right by the trailing zeros all scores
    share and, when there are more score bits than room, truncated). For a
    positive row at sorted position i, the negatives at or below its score
    number ``i - (positives before it)``; those strictly below differ only
    where a negative ties with it (then ``searchsorted`` counts them). Buckets
    that the truncation made hold several distinct scores (found from the
    scores, a second ``np.sort``) are corrected exactly with the general kernel
    on their few rows. ``score_bits`` forces truncation (for tests).
    """
    gbits = max(1, (n_codes - 1).bit_length())
    sbits = 63 - gbits if score_bits is None else score_bits
    signed = bool(s.min() < 0)
    key = _order_bits(s, signed)
    lo, hi = key.min(), key.max()
    key -= lo
    spread = int(hi - lo)
    tz = 0
    if spread:
        ored = int(np.bitwise_or.reduce(key))
        tz = (ored & -ored).bit_length() - 1
    shift = tz + max(0, (spread >> tz).bit_length() - sbits)
    if shift:
        key >>= np.uint64(shift)
    dirty = None
    if shift > tz:
        impure = _impure_buckets(s, lo, shift, signed)
        if impure.size:
            dirty = _rows_in(key, impure)
            dirty_bucket = key[dirty]
    key <<= _U1
    key |= y.view(np.uint8)
    gshift = np.uint64(sbits + 1)
    key |= np.left_shift(codes.view(np.uint64), gshift)
    key.sort()

    if sys.byteorder == "little":
        pos_at = np.flatnonzero(key.view(np.uint8)[::8] & 1)
    else:
        pos_at = np.flatnonzero(key & _U1)
    kpos = key[pos_at]
    le = pos_at - np.arange(pos_at.size)  # negatives at or below (all earlier groups too)
    lt = le
    if pos_at.size and np.any(key[np.maximum(pos_at - 1, 0)] == kpos - _U1):  # tied negatives
        lt = np.searchsorted(key, kpos - _U1) - np.searchsorted(kpos, kpos - _U1)
    g_of_pos = (kpos >> gshift).astype(np.intp)
    n = np.bincount(codes, minlength=n_codes).astype(np.float64)
    n_pos = np.bincount(g_of_pos, minlength=n_codes).astype(np.float64)
    n_neg = n - n_pos
    neg_before = np.cumsum(n_neg) - n_neg
    u = np.bincount(g_of_pos, (lt + le).astype(np.float64), minlength=n_codes) / 2
    u -= n_pos * neg_before
    if dirty is not None:
        u += _bucket_correction(codes[dirty], dirty_bucket, y[dirty], s[dirty], sbits, n_codes)
    return n_pos, n_neg, u


def _bucket_correction(
    codes: IntArray, bucket: U64Array, y: BoolArray, s: FloatArray, sbits: int, n_codes: int
) -> FloatArray:
    """U exact minus U with every pair in one (group, bucket) counted as a tie, per group."""
    run_key = (codes.astype(np.uint64) << np.uint64(sbits)) | bucket
    runs, run_code = np.unique(run_key, return_inverse=True)
    state = _grouped_curve_from_chunk(run_code.reshape(-1), y, s, None)
    p, q, u = _group_stats_from_state(state)
    run_group = (runs[state.groups] >> np.uint64(sbits)).astype(np.intp)
    return np.bincount(run_group, u - p * q / 2, minlength=n_codes).astype(np.float64, copy=False)


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


def _gauc_from_stats(
    groups: AnyArray,
    n_pos: FloatArray,
    n_neg: FloatArray,
    u: FloatArray,
    weights: Any,
    return_groups: bool,
) -> float | tuple[float, GroupAUCTable]:
    """Per-group counts -> weighted mean of the per-group AUC (and the table)."""
    n = n_pos + n_neg
    valid = (n_pos > 0) & (n_neg > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = np.where(valid, u / (n_pos * n_neg), np.nan)
    weight = np.where(valid, _weights_per_group(weights, groups, n, n_pos), 0.0)
    total = float(weight.sum())
    if not valid.any():
        value = undefined("gauc", "every group has only one class")
    elif total == 0:
        value = undefined("gauc", "the groups with both classes have total weight 0")
    else:
        value = float(np.dot(weight[valid], auc[valid]) / total)
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
        n_pos, n_neg, u = _unit_group_stats(codes, group_labels.size, y, s)
        present = (n_pos + n_neg) > 0
        if not present.all():
            group_labels, n_pos, n_neg, u = (
                group_labels[present],
                n_pos[present],
                n_neg[present],
                u[present],
            )
    else:
        state = _grouped_curve_from_chunk(codes, y, s, w, group_labels)
        group_labels = state.groups
        n_pos, n_neg, u = _group_stats_from_state(state)
    return _gauc_from_stats(group_labels, n_pos, n_neg, u, weights, return_groups)
