"""Beyond-accuracy measures of recommendation lists: novelty, diversity, exposure, popularity.

Every function takes the lists as :func:`scorekit.catalog_coverage` does (a list
of lists, a users × k array, or a pandas Series of lists) and works on the flat
item column with the list of each entry: no Python loop over users. Item
popularity (the number of training interactions, or of users, per item) is a
mapping ``{item: count}`` or a pair ``(items, counts)``.

=========================  ===============================================  ==================
function                   definition                                       as in
=========================  ===============================================  ==================
novelty                    mean over recommended items of −log2(n_i / U)    MS recommenders
average_popularity         mean over users of the mean popularity of L_u    RecBole (ARP)
exposure_gini              Gini index of the exposure counts of all items   RecBole GiniIndex
exposure_entropy           −Σ p_i log p_i of the exposure distribution     RecBole ShannonEntropy
tail_share                 mean over users of |L_u ∩ tail| / |L_u|          RecBole TailPercentage
intra_list_diversity       mean over users of the mean pairwise distance   Ziegler et al. 2005
user_coverage              share of users with a non-empty list             Ge et al. 2010
=========================  ===============================================  ==================
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._errors import EmptyInputError, LabelError, ParameterError, ShapeError
from .._typing import AnyArray, ArrayLike, FloatArray, IntArray
from .._validation import as_array
from ._coverage import _is_list

__all__ = [
    "average_popularity",
    "exposure_entropy",
    "exposure_gini",
    "intra_list_diversity",
    "novelty",
    "tail_share",
    "user_coverage",
]


def _lists(lists: ArrayLike, name: str = "recommended_lists") -> tuple[AnyArray, IntArray, int]:
    """Flat items, the list index of each, and the number of lists."""
    if isinstance(lists, (list, tuple)) and all(_is_list(v) for v in lists):
        nested: Any = lists
    else:
        arr = as_array(lists, name)
        if arr.dtype.kind == "O" and arr.ndim == 1 and all(_is_list(v) for v in arr):
            nested = arr
        elif arr.ndim == 2:
            n, k = arr.shape
            if n == 0:
                raise EmptyInputError(f"{name} is empty; at least one list is needed")
            return arr.reshape(-1), np.repeat(np.arange(n), k), n
        else:
            raise ShapeError(
                f"{name} must be lists of item ids (one per user) or a users × k array"
            )
    parts = [as_array(v, name).reshape(-1).tolist() for v in nested]
    if not parts:
        raise EmptyInputError(f"{name} is empty; at least one list is needed")
    lengths = np.fromiter((len(p) for p in parts), dtype=np.int64, count=len(parts))
    items = as_array(list(itertools.chain.from_iterable(parts)), name).reshape(-1)
    return items, np.repeat(np.arange(len(parts)), lengths), len(parts)


def _lookup(items: AnyArray, table: Any, name: str) -> FloatArray:
    """The value of each item in ``table`` (a mapping or ``(items, values)``); unknown items raise."""
    if isinstance(table, Mapping):
        keys = as_array(list(table.keys()), name)
        values = np.asarray(list(table.values()), dtype=np.float64)
    elif isinstance(table, tuple) and len(table) == 2:
        keys, values = as_array(table[0], name), np.asarray(table[1], dtype=np.float64)
    else:
        raise ParameterError(f"{name} must be a mapping {{item: value}} or a pair (items, values)")
    if keys.shape != values.shape or keys.ndim != 1:
        raise ShapeError(f"{name}: items and values must be two 1-D arrays of one length")
    if not np.isfinite(values).all() or (values < 0).any():
        raise ParameterError(f"{name}: values must be finite and non-negative")
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    if keys.size and (keys[1:] == keys[:-1]).any():
        raise ParameterError(f"{name} lists an item twice")
    try:
        pos = np.searchsorted(keys, items)
    except TypeError as e:
        raise LabelError(f"{name}: its items and the recommended items are not comparable") from e
    pos = np.minimum(pos, max(keys.size - 1, 0))
    known = keys.size > 0 and bool((keys[pos] == items).all()) if items.size else True
    if not known:
        missing = items[keys[pos] != items] if keys.size else items
        raise LabelError(f"{name} has no entry for recommended item {missing[0].item()!r}")
    return values[pos] if items.size else np.empty(0)


def _per_list_mean(values: FloatArray, owner: IntArray, n_lists: int) -> FloatArray:
    sizes = np.bincount(owner, minlength=n_lists)
    if (sizes == 0).any():
        raise EmptyInputError(f"recommended_lists has {int((sizes == 0).sum())} empty lists")
    means: FloatArray = np.bincount(owner, values, minlength=n_lists) / sizes
    return means


def novelty(recommended_lists: ArrayLike, popularity: Any, *, n_users: int) -> float:
    r"""Novelty: mean self-information of the recommended items (Castells et al.).

    .. math:: \mathrm{novelty} = \frac{1}{|R|}\sum_{(u, i) \in R} -\log_2 \frac{n_i}{U}

    where :math:`n_i` is the number of training users who interacted with item
    i and U the number of training users, over every recommended (user, item)
    pair R, as Microsoft recommenders' ``novelty``.

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
    popularity : mapping or (items, counts)
        Training users per item, every recommended item included (> 0).
    n_users : int
        Training users, at least every count.

    Returns
    -------
    float

    Examples
    --------
    Of 8 training users, 4 saw item "a" (1 bit) and 1 saw "b" (3 bits):

    >>> novelty([["a", "b"], ["a"]], {"a": 4, "b": 1}, n_users=8)
    1.6666666666666667
    """
    if isinstance(n_users, bool) or not isinstance(n_users, (int, np.integer)) or n_users < 1:
        raise ParameterError(f"n_users must be a positive integer, got {n_users!r}")
    items, _, _ = _lists(recommended_lists)
    if items.size == 0:
        raise EmptyInputError("recommended_lists holds no items")
    counts = _lookup(items, popularity, "popularity")
    if (counts <= 0).any() or (counts > n_users).any():
        raise ParameterError("popularity counts must be in 1..n_users for recommended items")
    return float(np.mean(-np.log2(counts / n_users)))


def average_popularity(recommended_lists: ArrayLike, popularity: Any) -> float:
    r"""Average recommendation popularity (ARP): per user, the mean popularity of the list.

    .. math:: \mathrm{ARP} = \frac{1}{|U|}\sum_u \frac{1}{|L_u|}\sum_{i \in L_u} \phi(i)

    with :math:`\phi(i)` the item's training interactions (RecBole's
    ``AveragePopularity``). Lower recommends less popular items.

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
        No list may be empty.
    popularity : mapping or (items, counts)

    Returns
    -------
    float

    Examples
    --------
    >>> average_popularity([[1, 2], [3]], {1: 10, 2: 2, 3: 1})
    3.5
    """
    items, owner, n = _lists(recommended_lists)
    return float(np.mean(_per_list_mean(_lookup(items, popularity, "popularity"), owner, n)))


def _exposure(recommended_lists: ArrayLike, catalog_size: int | None) -> FloatArray:
    items, _, _ = _lists(recommended_lists)
    if items.size == 0:
        raise EmptyInputError("recommended_lists holds no items")
    _, counts = np.unique(items, return_counts=True)
    if catalog_size is None:
        return counts.astype(np.float64)
    if isinstance(catalog_size, bool) or not isinstance(catalog_size, (int, np.integer)):
        raise ParameterError(f"catalog_size must be an integer, got {catalog_size!r}")
    if catalog_size < counts.size:
        raise ParameterError(
            f"catalog_size={catalog_size} is smaller than the {counts.size} distinct items recommended"
        )
    return np.concatenate([np.zeros(catalog_size - counts.size), counts]).astype(np.float64)


def exposure_gini(recommended_lists: ArrayLike, catalog_size: int) -> float:
    r"""Gini index of item exposure: 0 when every item is recommended equally often, → 1 when one is.

    .. math:: G = \frac{\sum_{j=1}^{n} (2j - n - 1)\, c_{(j)}}{n \sum_j c_{(j)}}

    over the n catalog items' recommendation counts sorted increasingly (items
    never recommended count 0), as RecBole's ``GiniIndex``.

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
    catalog_size : int
        Items in the catalog, at least the distinct items recommended.

    Returns
    -------
    float

    Examples
    --------
    Item 1 shown 3 times, item 2 once, items 3 and 4 never: (−3·0 −1·0 + 1·1 + 3·3) / (4·4):

    >>> exposure_gini([[1, 2], [1], [1]], catalog_size=4)
    0.625
    """
    c = np.sort(_exposure(recommended_lists, catalog_size))
    n = c.size
    j = np.arange(1, n + 1)
    return float(np.sum((2 * j - n - 1) * c) / (n * c.sum()))


def exposure_entropy(recommended_lists: ArrayLike, *, base: float = math.e) -> float:
    r"""Shannon entropy of item exposure: how evenly recommendations spread over items.

    .. math:: H = -\sum_i p_i \log p_i, \qquad p_i = c_i / \sum_j c_j

    over the recommended items (RecBole's ``ShannonEntropy``: natural log;
    ``base=2`` gives Microsoft recommenders' ``distributional_coverage``).

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
    base : float, default=e
        The logarithm's base (> 1).

    Returns
    -------
    float

    Examples
    --------
    Four items shown once each: log2(4) = 2 bits:

    >>> exposure_entropy([[1, 2], [3, 4]], base=2)
    2.0
    """
    if isinstance(base, bool) or not isinstance(base, (int, float)) or not base > 1:
        raise ParameterError(f"base must be a number > 1, got {base!r}")
    c = _exposure(recommended_lists, None)
    p = c / c.sum()
    return float(-np.sum(p * np.log(p)) / math.log(base))


def tail_share(recommended_lists: ArrayLike, tail_items: Iterable[Any]) -> float:
    r"""Share of long-tail items: per user, the tail items' share of the list, averaged.

    .. math:: \mathrm{TailPercentage} = \frac{1}{|U|}\sum_u \frac{|L_u \cap T|}{|L_u|}

    with T the tail items (RecBole's ``TailPercentage`` with the tail given as a
    set: e.g. the items below a popularity threshold).

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
        No list may be empty.
    tail_items : iterable of item ids

    Returns
    -------
    float

    Examples
    --------
    >>> tail_share([[1, 2], [3, 4]], tail_items={2, 3, 4})
    0.75
    """
    items, owner, n = _lists(recommended_lists)
    tail = as_array(list(tail_items), "tail_items").reshape(-1)
    in_tail = np.isin(items, tail) if tail.size else np.zeros(items.size, dtype=bool)
    return float(np.mean(_per_list_mean(in_tail.astype(np.float64), owner, n)))


def user_coverage(recommended_lists: ArrayLike) -> float:
    """Share of users who get at least one recommendation (Ge et al. 2010).

    Parameters
    ----------
    recommended_lists : list of lists of item ids
        One list per user; an empty list is a user without recommendations.

    Returns
    -------
    float

    Examples
    --------
    >>> user_coverage([[1, 2], [], [3]])
    0.6666666666666666
    """
    _, owner, n = _lists(recommended_lists)
    return float(np.count_nonzero(np.bincount(owner, minlength=n)) / n)


def intra_list_diversity(
    recommended_lists: ArrayLike, item_features: Any, *, metric: str = "cosine"
) -> float:
    r"""Intra-list diversity: per user, the mean distance between the items of the list.

    .. math:: \mathrm{ILD} = \frac{1}{|U|}\sum_u \frac{2}{|L_u|(|L_u| - 1)}
              \sum_{i < j \in L_u} \bigl(1 - \mathrm{sim}(f_i, f_j)\bigr)

    with cosine similarity of the feature vectors, or Jaccard similarity of
    binary features (Ziegler et al. 2005; Microsoft recommenders' ``diversity``
    with item features is ``1 −`` the mean cosine similarity). Users with fewer
    than two items are left out.

    Parameters
    ----------
    recommended_lists : list of lists or 2-D array of item ids
    item_features : mapping {item: vector} or (items, matrix)
        One feature vector per item, every recommended item included.
    metric : {"cosine", "jaccard"}, default="cosine"

    Returns
    -------
    float

    Examples
    --------
    Orthogonal items are 1 apart, identical ones 0:

    >>> feats = {"a": [1, 0], "b": [0, 1], "c": [1, 0]}
    >>> intra_list_diversity([["a", "b"], ["a", "c"]], feats)
    0.5
    """
    if metric not in ("cosine", "jaccard"):
        raise ParameterError(f"metric must be 'cosine' or 'jaccard', got {metric!r}")
    items, owner, n = _lists(recommended_lists)
    keys, matrix = _feature_table(item_features)
    rows = _lookup(items, (keys, np.arange(keys.size, dtype=np.float64)), "item_features")
    f = matrix[rows.astype(np.int64)]
    if metric == "cosine":
        norms = np.linalg.norm(f, axis=1)
        if (norms == 0).any():
            raise ParameterError("item_features has an all-zero vector: its cosine is undefined")
        f = f / norms[:, None]
    elif not np.isin(f, (0.0, 1.0)).all():
        raise ParameterError("metric='jaccard' needs binary (0/1) item features")
    sizes = np.bincount(owner, minlength=n)
    per_user = []
    for k in np.unique(sizes[sizes >= 2]):  # one pass per list length, not per user
        users = np.flatnonzero(sizes == k)
        take = np.isin(owner, users)
        block = f[take].reshape(users.size, int(k), -1)
        inner = np.einsum("ukd,uld->ukl", block, block)
        if metric == "cosine":
            sim = inner
        else:
            counts = block.sum(axis=2)
            union = counts[:, :, None] + counts[:, None, :] - inner
            sim = np.divide(inner, union, out=np.ones_like(inner), where=union > 0)
        iu = np.triu_indices(int(k), 1)
        per_user.append(np.mean(1.0 - sim[:, iu[0], iu[1]], axis=1))
    if not per_user:
        raise EmptyInputError("no list has two items: intra-list diversity is undefined")
    return float(np.mean(np.concatenate(per_user)))


def _feature_table(item_features: Any) -> tuple[AnyArray, FloatArray]:
    if isinstance(item_features, Mapping):
        keys = as_array(list(item_features.keys()), "item_features")
        matrix = np.asarray([np.asarray(v, dtype=np.float64) for v in item_features.values()])
    elif isinstance(item_features, tuple) and len(item_features) == 2:
        keys = as_array(item_features[0], "item_features")
        matrix = np.asarray(item_features[1], dtype=np.float64)
    else:
        raise ParameterError("item_features must be a mapping {item: vector} or (items, matrix)")
    if matrix.ndim != 2 or matrix.shape[0] != keys.shape[0]:
        raise ShapeError("item_features must give one feature vector per item")
    if not np.isfinite(matrix).all():
        raise ParameterError("item_features contains NaN or infinite values")
    return keys, matrix
