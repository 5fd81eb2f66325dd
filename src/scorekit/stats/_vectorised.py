r"""Every resample of a block at once: curve and count metrics from the block's cell tables.

A block of B resamples is a ``(B, 2, G)`` table: the negative (row 0) and
positive (row 1) count of each resample at each of the G distinct scores,
ascending (:func:`scorekit.stats._engine.bootstrap_metrics` builds it with
one ``bincount`` of the rows' cell codes, or draws it directly). The
kernels here compute one metric for the whole block in a few passes over the
table, with the conventions of the single-state kernels
(``classification._curve_kernel``, ``stream.ConfusionMatrix``):

- ``roc_auc`` :math:`= \sum_g P_g (N_{<g} + N_g/2) / (P N)` and
  ``gini`` :math:`= 2\,\mathrm{AUC} - 1` (nan with one class);
- ``average_precision`` :math:`= \sum_g P_g \cdot \mathrm{TP}_g / (\mathrm{TP}_g + \mathrm{FP}_g) / P`
  over the scores taken in decreasing order (TP, FP cumulated from the top;
  0 with no positive);
- ``ks_statistic`` :math:`= \max(0, \max_g \mathrm{TP}_g/P - \mathrm{FP}_g/N)`
  (nan with one class);
- ``log_loss`` :math:`= \sum_g P_g \ell(s_g) + N_g \ell(1 - s_g)` over the count,
  :math:`\ell(q) = -\log \mathrm{clip}(q, \epsilon, 1 - \epsilon)` as scikit-learn
  (nan with one class), and ``brier_score``
  :math:`= \sum_g P_g (1 - s_g)^2 + N_g s_g^2` over the count (scores in [0, 1]);
- at a score cut (ŷ = 1 from score rank ``split`` up), the 2×2 table
  (tn, fp, fn, tp) of each resample is two sums of the table, and
  ``accuracy`` :math:`= (tp + tn) / n`, ``precision`` :math:`= tp / (tp + fp)`,
  ``recall`` :math:`= tp / (tp + fn)`, ``f1`` :math:`= 2 tp / (2 tp + fp + fn)`,
  ``specificity`` :math:`= tn / (tn + fp)`, each 0 when its denominator is 0.

Counts are ``int64`` (float64 tables are read too): cumulative sums are
integer sums, exact and several times faster than float ones; the values
equal the per-resample kernels' to rounding (the same sums in another order).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from .._typing import BoolArray, FloatArray, IntArray
from ..classification._area import half_pairs
from ..classification._proba import _log_clipped
from ..classification._sortkeys import decimal_codes, unique_inverse

#: Threads computing blocks of resamples (the draws do not depend on them).
_THREADS = 2

__all__ = [
    "COUNT_KERNELS",
    "CURVE_KERNELS",
    "BlockTables",
    "CellLayout",
    "draw_cell_counts",
    "run_blocks",
    "score_cells",
    "vector_kernel",
]


class BlockTables:
    """One block's ``(B, 2, G)`` tables with the sums the kernels share (computed once).

    Or, built by :meth:`at_positives`, the same block given by its cumulative
    weights at the scores that positives hold only (no table): every kernel
    reads the block through :attr:`pos`, :attr:`totals`, :attr:`from_top`,
    :attr:`pairs` and :attr:`confusion`, which both forms give.
    """

    def __init__(
        self,
        tables: npt.NDArray[Any] | None,
        scores: FloatArray | None,
        split: int | None,
        losses: FloatArray | None = None,
    ) -> None:
        if tables is not None:
            self.neg, self.pos = tables[:, 0, :], tables[:, 1, :]
        self.tables, self.scores, self.split = tables, scores, split
        #: (B, 2) summed log loss and squared error of each resample, when the columns are
        #: merged (:class:`CellLayout`) and the scores alone no longer give them
        self.losses = losses
        self._cache: dict[str, Any] = {}
        self._lazy: dict[str, Callable[[], Any]] = {}  # how a form computes a sum, on first use

    @classmethod
    def at_positives(
        cls,
        below: tuple[npt.NDArray[Any], npt.NDArray[Any]],
        pos: npt.NDArray[Any],
        totals: tuple[npt.NDArray[Any], npt.NDArray[Any]],
        cut: tuple[npt.NDArray[Any], npt.NDArray[Any]] | None,
        losses: FloatArray | None,
        ties: tuple[IntArray, npt.NDArray[Any]] | None = None,
    ) -> BlockTables:
        r"""A block from its cumulative weights at each score that a positive holds, highest first.

        ``below`` = (positive, all) weight of the rows below each such score and
        ``pos`` the positive weight at it, shape (B, M); ``totals`` = (positive,
        all) weight, ``cut`` the (positive, all) weight below the score cut,
        shape (B,); ``ties`` = (columns, (B, k) negative weight at those
        scores), for the scores that negatives share (None: no such score).
        Scores that only negatives hold need no column: they add nothing to the
        AUC's and AP's sums, and KS is largest at a positive's score (or 0).
        With :math:`P^<_j, A^<_j` below score j: the (TP, FP) from the top are
        :math:`(P - P^<_j,\ A - A^<_j - (P - P^<_j))` and the AUC's pairs
        :math:`\sum_j P_j (N - \mathrm{FP}_j + N_j/2) = P N - \sum_j P_j \mathrm{FP}_j + \sum_j P_j N_j / 2`,
        N = A - P (sums of integers: exact in ``float64`` below :math:`2^{53}`).
        """
        out = cls(None, None, None, losses)
        (pos_lo, all_lo), (p, a) = below, totals
        out.pos = pos[:, ::-1]  # ascending scores, as the tables' rows
        tp = p[:, None] - pos_lo
        fp = a[:, None] - all_lo
        fp -= tp
        n = a - p
        out._cache["totals"] = (p, n)
        out._cache["from_top"] = (tp, fp)

        def pairs() -> FloatArray:
            weights = pos.astype(np.float64)
            area: FloatArray = p * n.astype(np.float64)
            area -= np.einsum("ij,ij->i", weights, fp.astype(np.float64))
            if ties is not None:
                columns, neg = ties
                area += np.einsum("ij,ij->i", weights[:, columns], neg.astype(np.float64)) / 2
            return area

        out._lazy["pairs"] = pairs
        if cut is not None:
            fn, below_cut = cut
            tn = below_cut - fn
            out._cache["confusion"] = (tn, n - tn, fn, p - fn)
        return out

    def _get(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = self._lazy.pop(key, make)()
        return self._cache[key]

    @property
    def totals(self) -> tuple[FloatArray, FloatArray]:
        """(P, N): each resample's positive and negative count."""
        return self._get("totals", lambda: (self.pos.sum(axis=1), self.neg.sum(axis=1)))  # type: ignore[no-any-return]

    @property
    def from_top(self) -> tuple[FloatArray, FloatArray]:
        """(TP, FP) cumulated from the highest score down, shape (B, G)."""
        return self._get(  # type: ignore[no-any-return]
            "from_top",
            lambda: (
                np.cumsum(self.pos[:, ::-1], axis=1),
                np.cumsum(self.neg[:, ::-1], axis=1),
            ),
        )

    @property
    def pairs(self) -> FloatArray:
        r"""The AUC's numerator :math:`\sum_g P_g (N_{<g} + N_g/2)` of each resample."""
        return self._get("pairs", lambda: half_pairs(self.neg, self.pos))  # type: ignore[no-any-return]

    @property
    def confusion(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """(tn, fp, fn, tp) of each resample at the score cut."""

        def make() -> tuple[FloatArray, ...]:
            c = self.split
            pos, neg = self.totals
            fp, tp = self.neg[:, c:].sum(axis=1), self.pos[:, c:].sum(axis=1)
            return neg - fp, fp, pos - tp, tp

        return self._get("confusion", make)  # type: ignore[no-any-return]


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    """The ratio num / den, 0 where den is 0 (the count metrics' zero-division convention)."""
    out: FloatArray = np.divide(num, den, out=np.zeros(np.shape(num)), where=den != 0)
    return out


def _one_class(b: BlockTables, values: FloatArray) -> FloatArray:
    pos, neg = b.totals
    values[(pos <= 0) | (neg <= 0)] = np.nan
    return values


def _auc(b: BlockTables) -> FloatArray:
    def make() -> FloatArray:  # as auc_from_cell_counts: nan with one class
        pos, neg = b.totals
        with np.errstate(invalid="ignore", divide="ignore"):
            out: FloatArray = b.pairs / (pos * neg.astype(np.float64))
        return out

    return b._get("auc", make)  # type: ignore[no-any-return]


def _ap(b: BlockTables) -> FloatArray:
    tp, fp = b.from_top
    # P_g · TP_g / (TP_g + FP_g): where nothing is at or above a score, P_g = TP_g = 0 (0 / 1)
    weighted = b.pos[:, ::-1] * (tp / np.maximum(tp + fp, 1))
    return _ratio(weighted.sum(axis=1), b.totals[0])


def _ks(b: BlockTables) -> FloatArray:
    tp, fp = b.from_top
    pos, neg = b.totals
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = tp / pos[:, None] - fp / neg[:, None]
    return _one_class(b, np.maximum(gap.max(axis=1), 0.0))


def _mean_loss(b: BlockTables, on_pos: FloatArray, on_neg: FloatArray) -> FloatArray:
    pos, neg = b.totals
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = (b.pos @ on_pos + b.neg @ on_neg) / (pos + neg)
    return out


def _summed(b: BlockTables, j: int) -> FloatArray:
    pos, neg = b.totals
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = b.losses[:, j] / (pos + neg)  # type: ignore[index]
    return out


def _log_loss(b: BlockTables) -> FloatArray:
    if b.losses is not None:
        return _one_class(b, _summed(b, 0))
    s = b.scores
    return _one_class(b, _mean_loss(b, *_unit_losses(s)[0]))  # type: ignore[arg-type]


def _brier(b: BlockTables) -> FloatArray:
    if b.losses is not None:
        return _summed(b, 1)
    return _mean_loss(b, *_unit_losses(b.scores)[1])  # type: ignore[arg-type]


def _unit_losses(
    s: FloatArray,
) -> tuple[tuple[FloatArray, FloatArray], tuple[FloatArray, FloatArray]]:
    """((log loss of a positive, of a negative), (squared error of each)) at each score."""
    return (-_log_clipped(s.copy()), -_log_clipped(1 - s)), ((1 - s) ** 2, s**2)


#: Catalog rows (by name, no options) computed from the curve tables of a block.
CURVE_KERNELS: dict[str, Callable[[BlockTables], FloatArray]] = {
    "roc_auc": lambda b: _auc(b),
    "gini": lambda b: 2 * _auc(b) - 1,
    "average_precision": _ap,
    "ks_statistic": _ks,
    "log_loss": _log_loss,
    "brier_score": _brier,
}


def _accuracy(b: BlockTables) -> FloatArray:
    tn, fp, fn, tp = b.confusion
    return _ratio(tp + tn, tn + fp + fn + tp)


#: Catalog rows (by name, no options) computed from the 2×2 tables at the score cut.
COUNT_KERNELS: dict[str, Callable[[BlockTables], FloatArray]] = {
    "accuracy": _accuracy,
    "precision": lambda b: _ratio(b.confusion[3], b.confusion[3] + b.confusion[1]),
    "recall": lambda b: _ratio(b.confusion[3], b.confusion[3] + b.confusion[2]),
    "sensitivity": lambda b: _ratio(b.confusion[3], b.confusion[3] + b.confusion[2]),
    "specificity": lambda b: _ratio(b.confusion[0], b.confusion[0] + b.confusion[1]),
    "f1": lambda b: _ratio(
        2 * b.confusion[3], 2 * b.confusion[3] + b.confusion[1] + b.confusion[2]
    ),
}


def vector_kernel(name: str, kind: str) -> Callable[[BlockTables], FloatArray] | None:
    """The block kernel of catalog row ``name`` computed as ``kind`` (None: per resample)."""
    if kind in ("auc", "curve", "cells"):
        return CURVE_KERNELS.get(name)
    if kind == "confusion":
        return COUNT_KERNELS.get(name)
    return None


class CellLayout:
    r"""The nonempty (label, score) cells of the data, and the narrower table the kernels read.

    ``cells`` are the rows' codes ``y G + g`` (``g`` the rank of the row's
    distinct score among the G ascending ``scores``). ``held`` are the
    nonempty codes, ascending (negatives first: the order of the cell draws);
    ``perm`` puts them in score order (at each score the negative cell, then
    the positive one) and ``code`` gives each row its place in that order, so
    one ``bincount`` of a block counts the K nonempty cells only.

    Merged columns: consecutive scores held by negatives only are summed into
    one column, unless the score cut ``split`` falls between them. This
    changes no kernel's value: the AUC, AP, KS and the 2×2 table at the cut
    read the negatives' weight only as a total above or below a positive's
    score or the cut (positives keep one column per score: AP's precision
    changes at each one). With few positives (CTR data) the table narrows
    from G columns to about twice the positive scores. Log loss and the
    squared error are summed per nonempty cell (:meth:`losses`) before the merge.
    """

    def __init__(self, cells: Any, groups: int, scores: FloatArray, split: int | None) -> None:
        full = np.bincount(cells, minlength=2 * groups)
        self.full = full  # each cell's count in the data (all 2G)
        self.groups, self.scores, self.width = groups, scores, 2 * groups
        self.held = np.flatnonzero(full)
        label, g = self.held // groups, self.held % groups
        self.perm = np.lexsort((label, g))  # score order, the negative cell first
        label, g = label[self.perm], g[self.perm]
        self.cells = self.held[self.perm]  # full code of each column of a compact block
        place = np.zeros(2 * groups, dtype=np.intp)
        place[self.cells] = np.arange(self.cells.size)
        # int32 codes: half the bytes to gather for each drawn row
        self.code = place[cells].astype(np.int32 if self.cells.size < 2**31 else np.intp)
        kind = np.zeros(groups, dtype=np.int64)  # 1: negatives only, 2: positives only, 3: both
        np.add.at(kind, g, label + 1)  # one or two cells per score
        starts = np.ones(groups, dtype=bool)
        starts[1:] = ~((kind[1:] == 1) & (kind[:-1] == 1))
        if split is not None and split < groups:
            starts[split] = True
        column = np.cumsum(starts) - 1
        self.columns = int(column[-1]) + 1 if groups else 0
        self.split = (
            None if split is None else int(column[split]) if split < groups else self.columns
        )
        target = label * self.columns + column[g]
        self.segments = np.flatnonzero(np.r_[True, target[1:] != target[:-1]])
        self.targets = target[self.segments]
        self.label, self.g = label, g

    def losses(self, probabilities: bool) -> FloatArray | None:
        """(K, 2): each nonempty cell's log loss and squared error (None: scores not in [0, 1])."""
        if not probabilities:
            return None
        (log_pos, log_neg), (sq_pos, sq_neg) = _unit_losses(self.scores[self.g])
        pos = self.label == 1
        out: FloatArray = np.stack(
            [np.where(pos, log_pos, log_neg), np.where(pos, sq_pos, sq_neg)], axis=1
        )
        return out

    def block(self, compact: Any, unit_losses: FloatArray | None) -> BlockTables:
        """The merged ``(B, 2, columns)`` tables of a block of compact counts (B, K)."""
        size = compact.shape[0]
        sums = np.add.reduceat(compact, self.segments, axis=1) if self.segments.size else compact
        tables = np.zeros((size, 2 * self.columns), dtype=np.int64)
        tables[:, self.targets] = sums
        losses = None
        if unit_losses is not None:
            losses = compact.astype(np.float64) @ unit_losses
        return BlockTables(tables.reshape(size, 2, self.columns), None, self.split, losses)

    def dense(self, compact: Any) -> Any:
        """The full ``(B, 2, G)`` tables of a block of compact counts (the per-resample kernels)."""
        out = np.zeros((compact.shape[0], self.width), dtype=np.int64)
        out[:, self.cells] = compact
        return out.reshape(compact.shape[0], 2, self.groups)


def score_cells(positive: BoolArray, s: FloatArray) -> tuple[IntArray, int, FloatArray]:
    """Each row's cell code ``y G + g`` (as :func:`~scorekit.stats._bootstrap.auc_cells`), G and the distinct scores, ascending.

    Exact decimal scores (a CTR model's rounded output) are ranked by one
    ``bincount`` of their integer codes, with no sort; other scores by one
    sort (:func:`~scorekit.classification._sortkeys.unique_inverse`: two threads).
    """
    dc = decimal_codes(s)
    if dc is None:
        uniq, g = unique_inverse(s)
    else:
        present = np.bincount(dc.codes, minlength=dc.size) > 0
        g = np.take(np.cumsum(present, dtype=np.int64) - 1, dc.codes)
        uniq = dc.scores(np.flatnonzero(present))
    groups = int(uniq.shape[0])
    cells: IntArray = np.add(g, groups, out=g, where=positive)  # in place: g is ours
    return cells, groups, uniq


def run_blocks(
    sizes: list[int],
    draw: Callable[[int, int], tuple[Any, ...]],
    values: Callable[..., FloatArray],
    out: FloatArray,
    progress: Callable[[int, int], None] | None,
    *,
    ordered: bool = True,
) -> None:
    """Draw the blocks and compute them on two threads; the resamples do not depend on the threads.

    ``ordered``: one generator draws the blocks in order under a lock (block j
    is always its j-th draw, whichever thread takes it), and the computing
    (gathers, ``bincount``, cumulative sums: NumPy releases the GIL) overlaps.
    Otherwise ``draw(size, j)`` has a generator per block and runs unlocked.
    """
    starts = np.cumsum([0, *sizes])
    lock, report = threading.Lock(), threading.Lock()
    queue = iter(range(len(sizes)))
    done = [0]

    def work() -> None:
        while True:
            with lock:
                j = next(queue, None)
                if j is None:
                    return
                drawn = draw(sizes[j], j) if ordered else ()
            if not ordered:
                drawn = draw(sizes[j], j)
            out[:, starts[j] : starts[j + 1]] = values(*drawn)
            with report:
                done[0] += sizes[j]
                if progress is not None:
                    progress(done[0], int(starts[-1]))

    threads = min(_THREADS, len(sizes))
    if threads <= 1:
        work()
        return
    with ThreadPoolExecutor(threads) as pool:
        for f in [pool.submit(work) for _ in range(threads)]:
            f.result()


def draw_cell_counts(
    rng: np.random.Generator, counts: IntArray, size: int
) -> npt.NDArray[np.int64]:
    r"""``size`` draws of Multinomial(n, counts / n), n = ``counts.sum()``: a row bootstrap's cell counts.

    Poissonised, which is exact: each cell's count is first drawn as
    :math:`X_c \sim \mathrm{Poisson}(\mathrm{counts}_c)`, independently (one
    vectorised call for the block); given their total T the X are
    Multinomial(T, counts / n), i.e. T independent draws of a cell. A
    resample with T < n then gets n − T more independent draws of a cell (by
    inverse CDF of ``rng.random``); one with T > n loses T − n of its T draws
    chosen uniformly without replacement (``rng.choice(T, T − n,
    replace=False, shuffle=False)``, the draws laid out cell by cell): what is
    left is n independent draws of a cell either way. A Poisson draw costs
    about half a binomial one, and the fix-up about √n draws.

    >>> rng = np.random.default_rng(0)
    >>> x = draw_cell_counts(rng, np.array([5, 0, 3, 2]), 4)
    >>> x.sum(axis=1).tolist(), bool((x[:, 1] == 0).all())
    ([10, 10, 10, 10], True)
    """
    n = int(counts.sum())
    out: npt.NDArray[np.int64] = rng.poisson(counts.astype(np.float64), size=(size, counts.size))
    k = counts.size
    totals = out.sum(axis=1)
    # the generator calls resample by resample, in order; the lookups after, for the block at once
    added, removed = [], []
    for b, total in enumerate(totals.tolist()):
        if total < n:
            added.append((b, rng.random(n - total)))
        elif total > n:
            removed.append((b, rng.choice(total, total - n, replace=False, shuffle=False)))
    if added:
        cdf = np.cumsum(counts) / n
        u = np.concatenate([x for _, x in added])
        extra = np.searchsorted(cdf, u, side="right")
        np.minimum(extra, k - 1, out=extra)  # u above a rounded-down last edge
        rows = np.repeat([b for b, _ in added], [x.size for _, x in added])
        out += np.bincount(rows * k + extra, minlength=size * k).reshape(size, k)
    if removed:
        # draw j of resample b is the j-th of its draws laid out cell by cell: its place in
        # the block's draws laid out resample after resample, found in one search
        now = out.sum(axis=1)
        start = np.cumsum(now) - now
        cum = np.cumsum(out, axis=1)
        cum += start[:, None]
        at = np.concatenate([x + start[b] for b, x in removed])
        place = np.searchsorted(cum.ravel(), at, side="right")
        out -= np.bincount(place, minlength=size * k).reshape(size, k)
    return out
