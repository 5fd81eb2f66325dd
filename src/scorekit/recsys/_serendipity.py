"""Serendipity of recommendation lists, as Microsoft recommenders defines it.

Each recommended item is scored by how unlike it is to what the user already
interacted with (the training history), weighted by its relevance; the
per-item values are averaged per user, and the user means over users. The
item similarity is the co-occurrence cosine of the training histories (Zhang
et al. 2012, "Auralist") or the cosine of item feature vectors. Everything is
computed on the flat (list, item) columns: the co-occurrence counts the pairs
need come from one sparse product of the user-item matrix, looked up by a
packed (item, item) key; no Python loop over users or items.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import EmptyInputError, LabelError, ParameterError, ShapeError
from .._typing import AnyArray, ArrayLike, FloatArray, IntArray
from ..ranking._order import segments
from ._beyond import _feature_table, _lists, _lookup

__all__ = ["serendipity"]


def serendipity(
    recommended_lists: ArrayLike,
    history: ArrayLike,
    *,
    relevance: ArrayLike | None = None,
    item_features: Any = None,
) -> float:
    r"""Serendipity: how unexpected and relevant the recommendations are (Microsoft recommenders).

    .. math::

        \mathrm{ser}(u, i) = \Bigl(1 - \frac{1}{|H_u|}\sum_{j \in H_u} \mathrm{sim}(i, j)\Bigr)
        \, \mathrm{rel}(u, i), \qquad
        \mathrm{serendipity} = \frac{1}{|U|}\sum_{u \in U}
        \frac{1}{|L_u|}\sum_{i \in L_u} \mathrm{ser}(u, i)

    where :math:`L_u` is user u's recommendation list, :math:`H_u` the items u
    interacted with in training, and U the users with a non-empty list *and* a
    non-empty history (Microsoft recommenders' ``serendipity`` joins the two
    on the user, so users without history drop out). The similarity is the
    co-occurrence cosine of the training histories,
    :math:`\mathrm{sim}(i, j) = |U_i \cap U_j| / \sqrt{|U_i|\,|U_j|}` with
    :math:`U_i` the training users of item i (``item_sim_measure=
    "item_cooccurrence_count"``, the default there; 0 for an item nobody had),
    or with ``item_features`` the cosine of the items' feature vectors
    (``"item_feature_vector"``). Relevance defaults to 1 for every item.

    Conventions (Microsoft recommenders' assumptions, checked here): a user's
    history holds an item once, and no recommended item is in the user's own
    history (both raise). Microsoft recommenders casts a given relevance to
    float16 before using it; scorekit keeps float64 (equal for 0/1 relevance;
    docs/why-tools-disagree.md).

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
        One list per user.
    history : list of lists of item ids
        The training items of each user, in the same user order (the whole
        training set: users with an empty recommendation list still count in
        the co-occurrence similarity).
    relevance : list of lists or 2-D array of floats, optional
        The relevance of each recommended item, shaped like ``recommended_lists``.
    item_features : mapping {item: vector} or (items, matrix), optional
        Use the cosine of feature vectors instead of co-occurrence; every
        recommended and history item needs a non-zero vector.

    Returns
    -------
    float

    Examples
    --------
    Two training users: u0 had a and b, u1 had b and c, so sim(a, b) = 1/√2,
    sim(a, c) = 0, sim(b, c) = 1/√2. u0 is recommended c: 1 − (0 + 1/√2)/2;
    u1 is recommended a: the same.

    >>> round(serendipity([["c"], ["a"]], [["a", "b"], ["b", "c"]]), 6)
    0.646447
    """
    items, owner, n = _lists(recommended_lists)
    h_items, h_owner, n_h = _lists(history, "history")
    if n_h != n:
        raise ShapeError(f"history has {n_h} lists and recommended_lists {n}: one of each per user")
    if items.size == 0:
        raise EmptyInputError("recommended_lists holds no items")
    rel = _relevance(relevance, items.size)
    if (items.dtype.kind in "US") != (h_items.dtype.kind in "US"):
        raise LabelError("recommended_lists and history must hold item ids of the same kind")
    try:
        vocab, codes = np.unique(np.concatenate([items, h_items]), return_inverse=True)
    except TypeError:
        raise LabelError(
            "item ids must be of one comparable kind (all strings or all numbers)"
        ) from None
    codes = codes.reshape(-1)
    rec, hist = codes[: items.size], codes[items.size :]
    width = np.int64(vocab.size)
    _unique_pairs(h_owner * width + hist, "history", "an item twice in one user's history")
    rec_keys = owner * width + rec
    _unique_pairs(rec_keys, "recommended_lists", "an item twice in one list")
    seen = np.isin(rec_keys, h_owner * width + hist)
    if seen.any():
        raise ParameterError(
            f"{int(seen.sum())} recommended items are in the user's own history "
            "(Microsoft recommenders' serendipity assumes none is)"
        )
    h_len = np.bincount(h_owner, minlength=n)
    keep = h_len[owner] > 0  # users without history drop out (the join on the user)
    if not keep.any():
        raise EmptyInputError("no user with a recommendation has a training history")
    rec, owner, rel = rec[keep], owner[keep], rel[keep]
    order = np.argsort(h_owner, kind="stable")
    h_start = np.concatenate([[0], np.cumsum(h_len)])
    at = segments(h_start[owner], h_len[owner])  # each (recommended item, history item) pair
    pair_row = np.repeat(np.arange(rec.size), h_len[owner])
    i, j = rec[pair_row], hist[order][at]
    if item_features is None:
        sim = _cooccurrence_cosine(i, j, h_owner, hist, n, vocab.size)
    else:
        sim = _feature_cosine(i, j, vocab, item_features)
    mean_sim = np.bincount(pair_row, weights=sim, minlength=rec.size) / h_len[owner]
    per_item = (1.0 - mean_sim) * rel
    users = np.unique(owner)
    per_user = np.bincount(owner, weights=per_item)[users] / np.bincount(owner)[users]
    return float(np.mean(per_user))


def _relevance(relevance: ArrayLike | None, size: int) -> FloatArray:
    if relevance is None:
        return np.ones(size)
    values, _, _ = _lists(relevance, "relevance")
    if values.size != size:
        raise ShapeError(
            f"relevance has {values.size} values for {size} recommended items: "
            "one per item, shaped like recommended_lists"
        )
    if values.dtype.kind not in "biuf":
        raise LabelError("relevance must hold numbers")
    out = values.astype(np.float64)
    if not np.isfinite(out).all():
        raise ParameterError("relevance contains NaN or infinite values")
    return out


def _unique_pairs(keys: IntArray, name: str, what: str) -> None:
    if np.unique(keys).size != keys.size:
        raise ParameterError(f"{name} has {what}; give each (user, item) pair once")


def _cooccurrence_cosine(
    i: IntArray, j: IntArray, h_owner: IntArray, hist: IntArray, n_users: int, n_items: int
) -> FloatArray:
    """``|U_i ∩ U_j| / (√|U_i| √|U_j|)`` for each pair, as Microsoft recommenders rounds it."""
    from scipy import sparse

    x = sparse.csr_matrix((np.ones(hist.size, np.int64), (h_owner, hist)), shape=(n_users, n_items))
    co = (x.T @ x).tocoo()
    table = co.row.astype(np.int64) * n_items + co.col
    order = np.argsort(table)
    table, count = table[order], co.data[order].astype(np.float64)
    want = i.astype(np.int64) * n_items + j
    at = np.minimum(np.searchsorted(table, want), max(table.size - 1, 0))
    found = table[at] == want if table.size else np.zeros(want.size, bool)
    root = np.sqrt(np.bincount(hist, minlength=n_items).astype(np.float64))
    out: FloatArray = np.zeros(want.size)
    f = np.flatnonzero(found)
    lo, hi = np.minimum(i[f], j[f]), np.maximum(i[f], j[f])  # their (i1 <= i2) pair order
    out[f] = count[at[f]] / (root[lo] * root[hi])
    return out


def _feature_cosine(i: IntArray, j: IntArray, vocab: AnyArray, item_features: Any) -> FloatArray:
    """``f_i · f_j / (‖f_i‖ ‖f_j‖)`` for each pair (Microsoft recommenders' feature similarity)."""
    keys, matrix = _feature_table(item_features)
    used = np.unique(np.concatenate([i, j]))
    rows = np.zeros(vocab.size, np.int64)
    rows[used] = _lookup(vocab[used], (keys, np.arange(keys.size)), "item_features").astype(
        np.int64
    )
    norms = np.linalg.norm(matrix, axis=1)
    if (norms[rows[used]] == 0).any():
        raise ParameterError("item_features has an all-zero vector: its cosine is undefined")
    lo, hi = rows[np.minimum(i, j)], rows[np.maximum(i, j)]
    dots = np.einsum("pd,pd->p", matrix[lo], matrix[hi])
    out: FloatArray = dots / (norms[lo] * norms[hi])
    return out
