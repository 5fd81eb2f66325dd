"""Helpers shared by the streaming tests (imported by name; not a test module): random chunking, random merge order, warning capture."""

from __future__ import annotations

import itertools
import json
import pickle
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np


def feed(
    factory: Callable[[], Any],
    arrays: tuple[Any, ...],
    rng: np.random.Generator,
    *,
    sample_weight: Any = None,
) -> Any:
    """Cut the rows at random places, shuffle the chunks over 1-3 accumulators, merge in random order.

    Empty chunks are included on purpose (they are skipped by update).
    """
    n = len(arrays[0])
    cuts = np.sort(rng.integers(0, n + 1, size=int(rng.integers(0, 7))))
    edges = [0, *cuts.tolist(), n]
    slices = list(itertools.pairwise(edges))
    accs = [factory() for _ in range(int(rng.integers(1, 4)))]
    for i in rng.permutation(len(slices)):
        a, b = slices[i]
        acc = accs[int(rng.integers(len(accs)))]
        kw = {} if sample_weight is None else {"sample_weight": sample_weight[a:b]}
        assert acc.update(*(x[a:b] for x in arrays), **kw) is acc
    while len(accs) > 1:
        i = int(rng.integers(len(accs) - 1))
        left, right = accs.pop(i), accs.pop(i)
        assert left.merge(right) is left
        accs.insert(i, left)
    return accs[0]


def outcome(fn: Callable[[], Any]) -> tuple[Any, list[type]]:
    """``fn()``'s value (or the type of the error it raised) and the categories it warned with."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn()
        except ValueError as exc:
            value = type(exc)
    return value, [w.category for w in caught]


def same(a: Any, b: Any) -> bool:
    """Bit-for-bit equality of nested results (nan equals nan; dtypes of arrays may differ)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (np.ndarray, list)) or isinstance(b, (np.ndarray, list)):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and bool(np.all((a == b) | ((a != a) & (b != b))))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (a != a and b != b)
    return bool(a == b)


def close(a: Any, b: Any, rtol: float = 1e-12, atol: float = 1e-12) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(close(x, y, rtol, atol) for x, y in zip(a, b, strict=True))
    if isinstance(a, type) or isinstance(b, type):
        return a is b
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


def json_roundtrip(acc: Any) -> Any:
    d = acc.to_dict()
    text = json.dumps(d, allow_nan=False)
    back = type(acc).from_dict(json.loads(text))
    assert back.to_dict() == d
    return back


def pickle_roundtrip(acc: Any) -> Any:
    back = pickle.loads(pickle.dumps(acc))
    assert back.to_dict() == acc.to_dict()
    return back
