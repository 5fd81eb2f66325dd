"""Coverage of recommendations: catalog coverage and the user-oriented coverage and novelty ratios."""

from __future__ import annotations

import itertools
import numbers
from typing import Any

import numpy as np

from .._errors import EmptyInputError, LabelError, NonFiniteError, ParameterError, ShapeError
from .._typing import AnyArray, ArrayLike
from .._validation import as_array, labels_1d, undefined

__all__ = [
    "catalog_coverage",
    "coverage_ratio",
    "novelty_ratio",
    "recall_effort",
    "relative_recall",
]


def _is_list(v: Any) -> bool:
    return not isinstance(v, (str, bytes)) and hasattr(v, "__len__")


def _flat_items(lists: ArrayLike, name: str) -> tuple[AnyArray, int]:
    """All item ids of the lists, flattened, and the number of lists (0 for a flat array)."""
    nested: Any = None
    if isinstance(lists, (list, tuple)) and len(lists) and all(_is_list(v) for v in lists):
        nested = lists
    else:
        arr = as_array(lists, name)
        if arr.dtype.kind == "O" and arr.ndim == 1 and all(_is_list(v) for v in arr):
            nested = arr  # e.g. a pandas Series of lists
        elif arr.ndim == 0:
            raise ShapeError(f"{name} must be lists of item ids or an array of item ids")
        else:
            return arr.reshape(-1), int(arr.shape[0]) if arr.ndim > 1 else 0
    parts = (as_array(v, name).reshape(-1).tolist() for v in nested)
    return as_array(list(itertools.chain.from_iterable(parts)), name).reshape(-1), len(nested)


def catalog_coverage(recommended_lists: ArrayLike, catalog_size: int) -> float:
    r"""The share of the catalog that appears in at least one recommendation list.

    .. math:: \text{coverage} = |\bigcup_u L_u| / |I|

    Parameters
    ----------
    recommended_lists : list of lists, 2-D array or 1-D array of item ids
        One list per user (lists may differ in length; a pandas Series of
        lists works too), a users × k array, or the flat item column of a
        recommendations table. Ints or strings; every entry counts as an item
        (drop padding such as -1 first).
    catalog_size : int
        Number of items in the catalog, at least the number of distinct items
        recommended.

    Returns
    -------
    float
        In [0, 1]; 0.0 when every list is empty.

    Examples
    --------
    Items 1, 2, 3 and 5 of a 10-item catalog are recommended:

    >>> catalog_coverage([[1, 2, 3], [2, 3, 5], []], catalog_size=10)
    0.4
    """
    if isinstance(catalog_size, (bool, np.bool_)) or not isinstance(catalog_size, numbers.Integral):
        raise ParameterError(f"catalog_size must be an integer, got {catalog_size!r}")
    if catalog_size < 1:
        raise ParameterError(f"catalog_size must be at least 1, got {catalog_size}")
    items, n_lists = _flat_items(recommended_lists, "recommended_lists")
    if items.size == 0 and n_lists == 0:
        raise EmptyInputError("recommended_lists is empty; at least one list is needed")
    if items.dtype.kind == "f" and not np.isfinite(items).all():
        raise NonFiniteError(
            f"recommended_lists contains {int((~np.isfinite(items)).sum())} NaN or infinite item ids"
        )
    n_distinct = int(np.unique(items).size)
    if n_distinct > catalog_size:
        raise ParameterError(
            f"recommended_lists holds {n_distinct} distinct items, more than catalog_size={catalog_size}"
        )
    return n_distinct / int(catalog_size)


def _listed(x: Any) -> Any:
    """A Python set (the natural type of "a set of items") as a list; anything else as is."""
    return list(x) if isinstance(x, (set, frozenset)) else x


def _item_sets(**named: ArrayLike) -> dict[str, AnyArray]:
    sets = {name: np.unique(labels_1d(_listed(x), name)) for name, x in named.items()}
    kinds = {name: a.dtype.kind in "USO" for name, a in sets.items() if a.size}
    if len(set(kinds.values())) > 1:
        text = [n for n, k in kinds.items() if k]
        raise LabelError(
            f"item ids mix strings ({', '.join(text)}) and numbers "
            f"({', '.join(n for n, k in kinds.items() if not k)})"
        )
    return sets


def _common(a: AnyArray, b: AnyArray) -> AnyArray:
    if a.size == 0 or b.size == 0:
        return a[:0]
    return np.intersect1d(a, b, assume_unique=True)


def coverage_ratio(retrieved: ArrayLike, relevant: ArrayLike, known: ArrayLike) -> float:
    r"""Share of the relevant items known to the user that were retrieved (Korfhage).

    .. math:: \text{coverage} = |R \cap K \cap A| \,/\, |R \cap K|

    with A the retrieved (recommended) items, R the relevant ones and K the
    items the user already knows. A user-oriented measure (Korfhage, 1997;
    Baeza-Yates & Ribeiro-Neto, *Modern Information Retrieval*, §3.2.2). Each
    argument is a set: duplicates count once.

    Parameters
    ----------
    retrieved : set or array-like
        Items retrieved (recommended).
    relevant : set or array-like
        Relevant items.
    known : set or array-like
        Items the user already knew.

    Returns
    -------
    float
        ``nan`` with ``UndefinedMetricWarning`` when no relevant item is known.

    Examples
    --------
    Relevant and known: 1, 2, 3, 4; of these 1 and 2 are retrieved:

    >>> coverage_ratio([1, 2, 5, 6, 7, 9], [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 8])
    0.5
    """
    sets = _item_sets(retrieved=retrieved, relevant=relevant, known=known)
    relevant_known = _common(sets["relevant"], sets["known"])
    if relevant_known.size == 0:
        return undefined("coverage_ratio", "no relevant item is known to the user")
    return _common(relevant_known, sets["retrieved"]).size / relevant_known.size


def novelty_ratio(retrieved: ArrayLike, relevant: ArrayLike, known: ArrayLike) -> float:
    r"""Share of the relevant retrieved items that were unknown to the user (Korfhage).

    .. math:: \text{novelty} = |(R \cap A) \setminus K| \,/\, |R \cap A|

    with A the retrieved (recommended) items, R the relevant ones and K the
    items the user already knows (Baeza-Yates & Ribeiro-Neto, §3.2.2). Each
    argument is a set: duplicates count once.

    Parameters
    ----------
    retrieved : set or array-like
        Items retrieved (recommended).
    relevant : set or array-like
        Relevant items.
    known : set or array-like
        Items the user already knew.

    Returns
    -------
    float
        ``nan`` with ``UndefinedMetricWarning`` when no relevant item is retrieved.

    Examples
    --------
    Relevant and retrieved: 1, 2, 5, 6, 7; of these 5, 6 and 7 are new to the user:

    >>> novelty_ratio([1, 2, 5, 6, 7, 9], [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 8])
    0.6
    """
    sets = _item_sets(retrieved=retrieved, relevant=relevant, known=known)
    relevant_retrieved = _common(sets["relevant"], sets["retrieved"])
    if relevant_retrieved.size == 0:
        return undefined("novelty_ratio", "no relevant item was retrieved")
    known_too = _common(relevant_retrieved, sets["known"]).size
    return (relevant_retrieved.size - known_too) / relevant_retrieved.size


def relative_recall(retrieved: ArrayLike, relevant: ArrayLike, expected: ArrayLike) -> float:
    r"""Relevant items found over the relevant items the user expected to find (Korfhage).

    .. math:: \text{relative recall} = |R \cap A| \,/\, |E|

    with A the retrieved items, R the relevant ones and E the relevant items
    the user expected (Korfhage, 1997; Baeza-Yates & Ribeiro-Neto, §3.2.2).
    Above 1 when the system found more relevant items than the user expected.
    Each argument is a set: duplicates count once.

    Parameters
    ----------
    retrieved : set or array-like
        Items retrieved (recommended).
    relevant : set or array-like
        Relevant items.
    expected : set or array-like
        The relevant items the user expected to find.

    Returns
    -------
    float
        ``nan`` with ``UndefinedMetricWarning`` when the user expected nothing.

    Examples
    --------
    3 relevant items found (1, 2, 5), 4 expected:

    >>> relative_recall([1, 2, 5, 9], [1, 2, 3, 5], [1, 2, 3, 4])
    0.75
    """
    sets = _item_sets(retrieved=retrieved, relevant=relevant, expected=expected)
    if sets["expected"].size == 0:
        return undefined("relative_recall", "the user expected no relevant item")
    return _common(sets["relevant"], sets["retrieved"]).size / sets["expected"].size


def recall_effort(ranking: ArrayLike, relevant: ArrayLike, expected: ArrayLike) -> float:
    r"""Relevant items the user expected over the items examined to find as many (Korfhage).

    .. math:: \text{recall effort} = |E| \,/\, n_E

    where :math:`n_E` is the rank at which the :math:`|E|`-th relevant item of
    ``ranking`` appears: the user reads the ranking top down until as many
    relevant items as expected are found (Korfhage, 1997). 1 is no wasted
    effort; ``nan`` with ``UndefinedMetricWarning`` when the ranking never
    holds that many relevant items, or when nothing was expected.

    Parameters
    ----------
    ranking : array-like
        The retrieved items, best first (an item listed twice counts once, at its first rank).
    relevant : set or array-like
        Relevant items.
    expected : set or array-like
        The relevant items the user expected to find (only their number counts).

    Returns
    -------
    float

    Examples
    --------
    Two relevant items expected; the second relevant item is at rank 4:

    >>> recall_effort(["a", "x", "b", "c", "y"], ["a", "c", "b"], ["a", "b"])
    0.6666666666666666
    """
    sets = _item_sets(relevant=relevant, expected=expected)
    order = labels_1d(_listed(ranking), "ranking")
    _, first = np.unique(order, return_index=True)
    order = order[np.sort(first)]  # each item once, at its first rank
    wanted = int(sets["expected"].size)
    if wanted == 0:
        return undefined("recall_effort", "the user expected no relevant item")
    if order.size and sets["relevant"].size:
        try:
            hits = np.flatnonzero(np.isin(order, sets["relevant"]))
        except TypeError:
            raise LabelError("ranking and relevant mix strings and numbers") from None
    else:
        hits = np.zeros(0, dtype=np.intp)
    if hits.size < wanted:
        return undefined(
            "recall_effort", f"the ranking holds {hits.size} relevant items, {wanted} were expected"
        )
    return wanted / float(hits[wanted - 1] + 1)
