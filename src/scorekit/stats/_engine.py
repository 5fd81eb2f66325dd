r"""Bootstrap intervals of many catalog metrics from one set of resample draws.

:func:`bootstrap_metrics` draws each block of resamples once and computes
every requested metric of every resample from it:

- rows computed by a ``BinaryCurve`` (ROC AUC, average precision, KS, log
  loss, Gini ...), the Brier score, and the label metrics of a score cut
  (ŷ = 1 from a score up: accuracy, precision, recall, F1 ...): each row of
  data is coded once as one of the K nonempty (label, distinct score) cells
  (:class:`~scorekit.stats._vectorised.CellLayout`; exact decimal scores by a
  ``bincount`` of their codes, others by one sort); a resample is one
  ``bincount`` of its rows' cells (or its cell counts are drawn directly),
  and every metric of the whole block comes from that (block, K) table in a
  few vectorised passes (:mod:`~scorekit.stats._vectorised`: log loss and
  squared error summed per cell by one matrix product; negative-only runs of
  scores merged into one column, which changes no value; cumulative sums
  for AUC, AP, KS; two sums for the 2×2 table at the cut);
- other curve and count rows (PR AUC, MCC ...): that resample's curve state
  or 2×2 table, and the row's own kernel, per resample;
- rows computed by a ``ConfusionMatrix`` of 0/1 labels that are not a score
  cut: one ``bincount`` of the four cells ``2 y + ŷ``;
- other rows of scores and probabilities that take ``sample_weight``: the
  metric of the rows weighted by their multiplicity in the resample;
- anything else: the metric of the resampled rows (as
  :func:`~scorekit.stats.bootstrap_ci`).

Blocks are computed on two threads (NumPy releases the GIL); the draws do not
depend on them.

Seed contract, with ``rng = numpy.random.default_rng(seed)`` (or the Generator
passed):

- ``weights="multinomial"`` (rows; the default here) draws resample blocks as
  ``rng.integers(0, n, (block, n))``, block after block, with the block sizes
  of :func:`~scorekit.stats.bootstrap_ci`, which draws the same: for one seed,
  resample b is the same rows for every metric here and for ``bootstrap_ci``
  (the draws are made as ``uint32``, which gives the same integers);
- ``weights="poisson"`` gives each row an independent Poisson(1)
  multiplicity (the resample size varies around n), drawn as
  :mod:`~scorekit.stats._rowweights` documents: blocks of 50 resamples, each
  with its generator, ``SFC64`` seeded by the seed sequence of
  ``rng.spawn(number of blocks)[j]``, rows in score order, 16 random bits per
  row and resample mapped through a table (Poisson(1) to :math:`2^{-16}`).
  When every row has a block kernel (curve metrics, log loss and Brier score
  of probabilities, labels at a score cut), a block is one pass over the
  sorted rows with ``uint8`` weights and ``int32`` cumulative sums read at the
  positives' scores only (no row index, no scatter); other rows get the same
  multiplicities;
- ``weights="cells"`` draws each resample's counts of the nonempty
  (label, distinct score) cells directly: blocks of 50 resamples, block j
  drawn by :func:`~scorekit.stats._vectorised.draw_cell_counts` with the
  generator ``rng.spawn(number of blocks)[j]`` and the cells' counts in code
  order (negatives first, ascending scores). That multinomial over cells is
  exactly the distribution of the row bootstrap's cell counts (not the same
  draws), at a cost per resample in cells instead of rows; every row must
  then be computed from the cells (a curve metric, a weighted score metric
  or a label metric at a score cut);
- ``weights="auto"`` is ``"cells"`` when that is possible and there are at most
  n/16 nonempty cells (scores on a grid), else ``"poisson"`` when every row
  has a block kernel, else ``"multinomial"``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import ParameterError, ScorekitError, UndefinedMetricWarning
from .._typing import AnyArray, FloatArray, IntArray
from .._validation import check_option, nonempty, random_generator
from ._bootstrap import (
    METHODS,
    _auc_jackknife,
    _blocks,
    _interval,
    auc_from_cell_counts,
)
from ._paired import _check_resamples
from ._rowweights import ROW_BLOCK, RowLayout, poisson_streams, poisson_weights
from ._vectorised import (
    BlockTables,
    CellLayout,
    draw_cell_counts,
    run_blocks,
    score_cells,
    vector_kernel,
)

__all__ = ["WEIGHTS", "bootstrap_metrics"]

WEIGHTS = ("multinomial", "poisson", "cells", "auto")
#: Resamples per block of cell draws (each block its own generator).
_CELL_BLOCK = 50
#: ``weights="auto"`` draws cells when there are at most n / this many nonempty cells: a cell
#: costs one binomial draw, a row one integer draw and one count.
_AUTO_CELLS = 16
_CELL_KINDS = ("auc", "curve", "cells", "confusion")
#: BCa's jackknife: leave-one-out over the distinct cells when there are at most this many,
#: else delete-a-group over this many groups of rows (row i in group i mod K).
_JACKKNIFE_UNITS = 256
_SCORE_KINDS = ("scores", "probabilities", "decision")

Progress = Callable[[int, int], None]


@dataclass
class _Job:
    """One catalog row: how it is resampled and its value from a resample's state."""

    kind: str  # "auc", "curve", "cells", "confusion", "weighted", "rows"
    value: Callable[[Any], float]
    #: the whole block at once from its cell tables (:mod:`._vectorised`), when there is one
    vector: Callable[[BlockTables], FloatArray] | None = None


def bootstrap_metrics(
    rows: Sequence[Any],
    data: Mapping[str, tuple[AnyArray, ...]],
    *,
    kwargs: Callable[[Any], Mapping[str, Any]] = lambda row: {},
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = 0,
    method: str = "percentile",
    weights: str = "multinomial",
    progress: Progress | None = None,
) -> list[tuple[float, float]]:
    r"""Bootstrap interval ``(low, high)`` of each catalog row, every row from the same resamples.

    ``rows`` are :class:`scorekit._catalog.MetricInfo` rows, ``data`` maps an
    input kind (``"scores"``, ``"labels"`` ...) to the arrays of that kind (one
    entry per row of data, the same rows for every kind), ``kwargs(row)`` the
    options the caller adds. Binary rows expect their labels coded 0/1 (the
    positive class 1), as the report builds them.

    With :math:`\theta^*_b` the metric on resample b, :math:`\hat\theta` on the
    data and :math:`q_\alpha` the :math:`\alpha` quantile of :math:`\theta^*`
    (:math:`\alpha = 1 -` confidence), ``method`` is ``"percentile"``
    (:math:`[q_{\alpha/2}, q_{1-\alpha/2}]`), ``"basic"``
    (:math:`[2\hat\theta - q_{1-\alpha/2},\ 2\hat\theta - q_{\alpha/2}]`) or
    ``"bca"`` (as :func:`scorekit.stats.bootstrap_ci`; the jackknife of the
    acceleration leaves out one row when the rows fall in at most 256 distinct
    cells, else one of 256 groups of rows, row i in group i mod 256).
    Resamples on which a metric is undefined are dropped with a warning.

    The seed contract and how each kind of row is computed are in the module
    docstring: for one seed, ``bootstrap_ci(metric, ...)`` gives the same
    resamples. ``progress(done, n_resamples)`` is called after each block.

    Parameters
    ----------
    rows : sequence of MetricInfo
    data : mapping of str to tuple of arrays
    kwargs : callable, optional
    n_resamples : int, default=1000
    confidence : float, default=0.95
    seed : int, Generator or None, default=0
    method : {"percentile", "bca", "basic"}, default="percentile"
    weights : {"multinomial", "poisson", "cells", "auto"}, default="multinomial"
    progress : callable, optional

    Examples
    --------
    Every positive scores above every negative, so every resample's Gini is 1
    and its ROC AUC 1:

    >>> from scorekit._catalog import get
    >>> y, s = np.repeat([0, 1], 20), np.arange(40) / 40
    >>> bootstrap_metrics([get("gini"), get("roc_auc")], {"scores": (y, s)}, n_resamples=50)
    [(1.0, 1.0), (1.0, 1.0)]
    """
    check_option(method, "method", METHODS)
    if not 0.0 < float(confidence) < 1.0:
        raise ParameterError(f"confidence={confidence!r} must lie strictly between 0 and 1")
    check_option(weights, "weights", WEIGHTS)
    _check_resamples(n_resamples)
    if not rows:
        return []
    plan, theta_hat, thetas = _resample(rows, data, kwargs, n_resamples, seed, weights, progress)
    alpha = 1.0 - float(confidence)
    out = []
    for j in range(len(rows)):
        jack = functools.partial(plan.jackknife, j) if method == "bca" else None
        out.append(_interval(float(theta_hat[j]), thetas[j], alpha, jack, basic=method == "basic"))
    return out


def _resample(
    rows: Sequence[Any],
    data: Mapping[str, tuple[AnyArray, ...]],
    kwargs: Callable[[Any], Mapping[str, Any]],
    n_resamples: int,
    seed: int | np.random.Generator | None,
    weights: str,
    progress: Progress | None,
) -> tuple[_Plan, FloatArray, FloatArray]:
    """The plan, each row's value on the data and on every resample (rows × resamples)."""
    check_option(weights, "weights", WEIGHTS)
    n_resamples = _check_resamples(n_resamples)
    rng = random_generator(seed)
    lengths = {int(np.shape(a)[0]) for r in rows for a in data[r.inputs]}
    if len(lengths) > 1:
        raise ParameterError(f"the data arrays have different lengths {sorted(lengths)}")
    n = lengths.pop() if lengths else 0
    nonempty(n, "data")
    plan = _Plan(rows, data, kwargs, n)
    thetas = np.empty((len(rows), n_resamples))
    with warnings.catch_warnings():  # undefined resamples are counted once, in _interval
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        if weights == "auto":
            weights = plan.auto_weights()
        if weights == "poisson" and plan.on_rows():  # the sorted rows serve the point too
            theta_hat = plan.poisson_values(None, 1)[:, 0]
        else:
            theta_hat = plan.values(None, plan.ones)[:, 0]  # builds the cells
        streams = None
        if weights == "poisson":
            _poisson_blocks(plan, rng, thetas, progress)
            return plan, theta_hat, thetas
        if weights == "cells":
            plan.cell_shares()  # every row on the cells, else an error naming the option
            layout = plan.layout()
            held = layout.full[layout.held]  # the nonempty cells' counts, in code order
            sizes = [min(_CELL_BLOCK, n_resamples - d) for d in range(0, n_resamples, _CELL_BLOCK)]
            # block j has its own generator (spawned in order), so both threads draw
            streams = rng.spawn(len(sizes))
        else:
            sizes = list(_blocks(n_resamples, n))

        def draw(size: int, j: int) -> tuple[Any, ...]:
            if streams is not None:
                return (None, None, draw_cell_counts(streams[j], held, size))
            # multinomial: uint32 draws are the int64 draws' values (the same generator
            # calls), half the bytes
            kind = np.uint32 if n < 2**32 else np.int64
            return (rng.integers(0, n, size=(size, n), dtype=kind), None, None)

        run_blocks(sizes, draw, plan.values, thetas, progress, ordered=streams is None)
    return plan, theta_hat, thetas


def _poisson_blocks(
    plan: _Plan, rng: np.random.Generator, thetas: FloatArray, progress: Progress | None
) -> None:
    """``weights="poisson"``: blocks of ROW_BLOCK resamples, one spawned generator each, on two threads."""
    total = thetas.shape[1]
    sizes = [min(ROW_BLOCK, total - d) for d in range(0, total, ROW_BLOCK)]
    streams = poisson_streams(rng, len(sizes))
    if plan.curve is not None:
        plan.row_layout()  # built once, before the threads
    run_blocks(
        sizes,
        lambda size, j: (streams[j], size),
        plan.poisson_values,
        thetas,
        progress,
        ordered=False,
    )


class _Plan:
    """The cells of the data coded once, and one :class:`_Job` per row."""

    def __init__(
        self,
        rows: Sequence[Any],
        data: Mapping[str, tuple[AnyArray, ...]],
        kwargs: Callable[[Any], Mapping[str, Any]],
        n: int,
    ) -> None:
        self.n = n
        self.curve: tuple[IntArray, int, FloatArray] | None = None
        self.confusion: IntArray | None = None
        self.split: int | None = None  # ŷ = 1 from this score rank up: 2×2 tables from curves
        self._layout: CellLayout | None = None
        self.ones = np.ones((1, n), dtype=np.int64)  # every row once: the point estimate
        self._losses: FloatArray | None = None
        self._rows: RowLayout | None = None  # weights="poisson": the rows in score order
        self._row_losses: FloatArray | None = None
        self._sums_losses = False  # a vectorised log loss or Brier score: cells' losses summed
        # the (0/1 labels, finite scores) of the score rows: the data of the curve states
        self.scored = next(
            (
                data[k]
                for k in _SCORE_KINDS
                if k in data and len(data[k]) == 2 and _is01(data[k][0]) and _finite(data[k][1])
            ),
            None,
        )
        self.jobs = [self._job(row, data[row.inputs], dict(kwargs(row))) for row in rows]

    def _on_curve(self, arrays: tuple[AnyArray, ...]) -> bool:
        """Whether ``arrays`` are the scored rows; codes their cells (one sort) on first use."""
        if self.scored is None or not all(
            a is b or np.array_equal(a, b) for a, b in zip(arrays, self.scored, strict=False)
        ):
            return False
        if self.curve is None:
            y, s = self.scored
            self.curve = score_cells(np.asarray(y) == 1, np.asarray(s, dtype=np.float64))
        return True

    def _job(self, row: Any, arrays: tuple[AnyArray, ...], extra: dict[str, Any]) -> _Job:
        job = self._row_job(row, arrays, extra)
        if not row.options and not extra and (job.kind != "confusion" or self.split is not None):
            job.vector = vector_kernel(row.name, job.kind)
            if row.name in ("log_loss", "brier_score"):
                if self._probabilities():
                    self._sums_losses = True
                else:  # scores outside [0, 1]: the metric's own error, per resample
                    job.vector = None
        return job

    def _probabilities(self) -> bool:
        _, _, scores = self.curve  # type: ignore[misc]
        return bool(scores.size) and float(scores[0]) >= 0.0 and float(scores[-1]) <= 1.0

    def _row_job(self, row: Any, arrays: tuple[AnyArray, ...], extra: dict[str, Any]) -> _Job:
        binary = len(arrays) == 2 and not extra and all(np.ndim(a) == 1 for a in arrays)
        if binary and row.accumulator == "BinaryCurve" and self._on_curve(arrays):
            if row.method == "roc_auc" and not row.options:  # the whole block at once
                return _Job("auc", functools.partial(row.from_state))
            return _Job("curve", functools.partial(row.from_state))
        if binary and row.accumulator == "ConfusionMatrix" and _is01(arrays[0]):
            if _is01(arrays[1]) and self.split is None and self.confusion is None:
                self._plan_confusion(arrays)
            if self.split is not None or self.confusion is not None:
                return _Job("confusion", functools.partial(row.from_state))
        fn = functools.partial(row.function, **row.options, **extra)
        if row.inputs in _SCORE_KINDS and row.weighted and "sample_weight" not in extra:
            if len(arrays) == 2 and self._on_curve(arrays):  # rows alike summed: cells' weights
                return _Job("cells", lambda c: float(fn(*c[:2], sample_weight=c[2])))
            return _Job("weighted", lambda m: float(fn(*arrays, sample_weight=m)))
        return _Job("rows", lambda rows: float(fn(*(np.asarray(a)[rows] for a in arrays))))

    def _plan_confusion(self, arrays: tuple[AnyArray, ...]) -> None:
        """2×2 tables from the curve tables when ŷ is the scored rows' score above a cut, else cells."""
        y_hat = np.asarray(arrays[1])
        if self.scored is not None and self._on_curve((arrays[0], self.scored[1])):
            cells, groups, _ = self.curve  # type: ignore[misc]
            rank = cells - groups * (cells >= groups)
            cut = int(rank[y_hat == 1].min()) if y_hat.any() else groups
            if np.array_equal(y_hat == 1, rank >= cut):
                self.split = cut
                return
        self.confusion = 2 * np.asarray(arrays[0], dtype=np.int64) + y_hat

    def auto_weights(self) -> str:
        """``"cells"`` when every row is on the cells and they are few (n / 16), else ``"poisson"`` when every row has a block kernel, else ``"multinomial"``."""
        if self._off_cells() or self.curve is None:
            return "multinomial"
        cells, groups, _ = self.curve
        if np.count_nonzero(np.bincount(cells, minlength=2 * groups)) * _AUTO_CELLS <= self.n:
            return "cells"
        return "poisson" if self.on_rows() else "multinomial"

    def on_rows(self) -> bool:
        """Every job has a block kernel on the scored rows (``weights="poisson"`` in one pass)."""
        return self.curve is not None and all(job.vector is not None for job in self.jobs)

    def _off_cells(self) -> list[str]:
        """The kinds of the jobs that the cell counts do not give."""
        return [
            j.kind
            for j in self.jobs
            if j.kind not in _CELL_KINDS or (j.kind == "confusion" and self.split is None)
        ]

    def row_layout(self) -> RowLayout:
        """The scored rows in score order, their merged columns and losses (built once)."""
        if self._rows is None:
            cells, groups, scores = self.curve  # type: ignore[misc]
            self._rows = RowLayout(cells, groups, scores, self.split)
            if self._sums_losses:
                self._row_losses = self._rows.losses()
        return self._rows

    def poisson_values(self, rng: np.random.Generator | None, size: int) -> FloatArray:
        """Every job's value on a block of Poisson resamples drawn by ``rng`` (:mod:`._rowweights`).

        ``rng=None``: the data itself (one column, every weight 1).
        """
        if not self.on_rows():
            if rng is None:
                return self.values(None, self.ones)
            order = np.arange(self.n) if self.curve is None else self.row_layout().order
            return self.values(None, poisson_weights(rng, size, order))
        rows = self.row_layout()
        if rng is None:
            point = rows.point(self._row_losses)
            return np.stack([job.vector(point) for job in self.jobs])  # type: ignore[misc]
        parts = rows.block(rng, size, self._row_losses)
        return np.hstack([np.stack([job.vector(b) for job in self.jobs]) for b in parts])  # type: ignore[misc]

    def cell_shares(self) -> FloatArray:
        """Each score cell's share of the rows (``weights="cells"``: every row must be on them)."""
        if self._off_cells() or self.curve is None:
            raise ParameterError(
                "weights='cells' (--draws cells) draws the counts of the (label, score) cells: "
                "every metric must be computed from them (curve metrics, weighted score "
                "metrics, labels at a score cut); draw rows instead"
            )
        share: FloatArray = self.layout().full / self.n
        return share

    def values(
        self, idx: IntArray | None, counts: AnyArray | None, cell_counts: IntArray | None = None
    ) -> FloatArray:
        """Every job's value on each resample of a block (draws, multiplicities or cell counts).

        ``cell_counts``: each resample's counts of the nonempty cells in code order
        (the cell draws), or of all 2G cells (shape (block, 2G)).
        """
        given = idx if idx is not None else counts if counts is not None else cell_counts
        size = given.shape[0]  # type: ignore[union-attr]
        out = np.full((len(self.jobs), size), np.nan)
        rest = [j for j, job in enumerate(self.jobs) if job.vector is None]
        kinds = {self.jobs[j].kind for j in rest}
        curves = None
        if {job.kind for job in self.jobs} & {"curve", "auc", "cells"} or self.split is not None:
            layout = self.layout()
            compact = self._compact_counts(layout, idx, counts, cell_counts)
            if len(rest) < len(self.jobs):  # the whole block at once from its tables
                block = layout.block(compact, self._unit_losses(layout))
                for j, job in enumerate(self.jobs):
                    if job.vector is not None:
                        out[j] = job.vector(block)
            if rest and kinds & {"curve", "auc", "cells", "confusion"}:
                curves = layout.dense(compact)
        if not rest:
            return out
        auc = None
        if curves is not None and "auc" in kinds:
            auc = auc_from_cell_counts(curves.astype(np.float64))
        tables = None
        if "confusion" in kinds:
            tables = self._confusion_counts(idx, counts, curves)
        mult = counts
        if mult is None and "weighted" in kinds:
            mult = _multiplicities(idx, self.n)  # type: ignore[arg-type]
        for b in range(size):
            curve = self._curve_state(curves[b]) if "curve" in kinds else None  # type: ignore[index]
            cells = self._cell_rows(curves[b]) if "cells" in kinds else None  # type: ignore[index]
            table = None if tables is None else _confusion_state(tables[b])
            for j in rest:
                job = self.jobs[j]
                if job.kind == "auc":
                    out[j, b] = auc[b]  # type: ignore[index]
                    continue
                if job.kind == "curve":
                    arg: Any = curve
                elif job.kind == "cells":
                    arg = cells
                elif job.kind == "confusion":
                    arg = table
                elif job.kind == "weighted":
                    arg = mult[b].astype(np.float64)  # type: ignore[index]
                else:
                    arg = idx[b] if idx is not None else np.repeat(np.arange(self.n), counts[b])  # type: ignore[index]
                out[j, b] = _safe(job.value, arg)
        return out

    def layout(self) -> CellLayout:
        """The nonempty cells and merged columns of the scored rows (built once)."""
        if self._layout is None:
            cells, groups, scores = self.curve  # type: ignore[misc]
            self._layout = CellLayout(cells, groups, scores, self.split)
        return self._layout

    def _unit_losses(self, layout: CellLayout) -> FloatArray | None:
        """Each cell's log loss and squared error, when a vectorised job sums them (else None)."""
        if self._losses is None and self._sums_losses:
            self._losses = layout.losses(True)
        return self._losses

    def _compact_counts(
        self,
        layout: CellLayout,
        idx: IntArray | None,
        counts: IntArray | None,
        held: IntArray | None,
    ) -> IntArray:
        """Each resample's count of each nonempty cell, in score order: (block, K)."""
        if held is not None:  # drawn over the nonempty cells in code order
            if held.shape[1] == layout.width != layout.held.size:  # all 2G cells (as before)
                held = held[:, layout.held]
            out: IntArray = held[:, layout.perm]
            return out
        if idx is None and counts is not None and counts.shape[0] == 1 and counts is self.ones:
            return layout.full[layout.cells][None, :]  # the data itself (the point estimate)
        return _cell_counts(layout.code, layout.cells.size, idx, counts)

    def _cell_rows(self, table: IntArray) -> tuple[IntArray, FloatArray, FloatArray]:
        """The distinct (label, score) rows of a resample and their counts, as weighted rows."""
        _, groups, scores = self.curve  # type: ignore[misc]
        w = table.reshape(-1)
        keep = np.flatnonzero(w)
        return keep // groups, scores[keep % groups], w[keep].astype(np.float64)

    def _curve_counts(self, idx: IntArray | None, counts: IntArray | None) -> IntArray:
        cells, groups, _ = self.curve  # type: ignore[misc]
        return _cell_counts(cells, 2 * groups, idx, counts).reshape(-1, 2, groups)

    def _confusion_counts(
        self, idx: IntArray | None, counts: IntArray | None, curves: IntArray | None
    ) -> FloatArray:
        """Each resample's (tn, fp, fn, tp): sums of its curve table when ŷ is a score cut."""
        if self.split is None:
            return _cell_counts(self.confusion, 4, idx, counts).astype(np.float64)  # type: ignore[arg-type]
        return self._split_tables(curves)  # type: ignore[arg-type]

    def _split_tables(self, curves: IntArray | FloatArray) -> FloatArray:
        """(tn, fp, fn, tp) of each (block, 2, G) curve table: its weight below and above the cut."""
        c = self.split
        below, above = curves[..., :c].sum(axis=-1), curves[..., c:].sum(axis=-1)
        out: FloatArray = np.stack(
            [below[:, 0], above[:, 0], below[:, 1], above[:, 1]], axis=1
        ).astype(np.float64)
        return out

    def _table_arg(self, kind: str) -> Callable[[FloatArray], Any]:
        """What a job of ``kind`` takes, from one flat (2G,) curve table (for the jackknife)."""
        if kind == "curve":
            return lambda t: self._curve_state(t.reshape(2, -1))
        if kind == "cells":
            return self._cell_rows  # type: ignore[return-value]
        return lambda t: _confusion_state(self._split_tables(t.reshape(1, 2, -1))[0])

    def _curve_state(self, table: FloatArray) -> Any:
        """A ``BinaryCurve`` holding one resample's table (negatives row 0, ascending scores)."""
        from ..classification._curve_kernel import CurveState
        from ..stream import BinaryCurve

        _, _, ascending = self.curve  # type: ignore[misc]
        neg, pos, scores = table[0, ::-1], table[1, ::-1], ascending[::-1]
        keep = (pos + neg) > 0
        acc = BinaryCurve()
        weights = (pos[keep].astype(np.float64), neg[keep].astype(np.float64))
        acc._pending.replace(CurveState(scores[keep], *weights))
        acc._classes = np.flatnonzero([neg.sum() > 0, pos.sum() > 0])
        s = scores[keep]
        if s.size:
            acc._lo, acc._hi = float(s[-1]), float(s[0])
        return acc

    def jackknife(self, j: int) -> FloatArray:
        """Jackknife values of job j: one per left-out row, or per left-out group of rows."""
        job = self.jobs[j]
        k = _JACKKNIFE_UNITS
        if job.kind == "auc":
            cells, groups, _ = self.curve  # type: ignore[misc]
            return _auc_jackknife(cells, groups, None)  # type: ignore[no-any-return]
        on_curve = job.kind in ("curve", "cells") or (
            job.kind == "confusion" and self.confusion is None
        )
        if on_curve or job.kind == "confusion":
            state: Callable[[FloatArray], Any]
            if on_curve:
                code, width = self.curve[0], 2 * self.curve[1]  # type: ignore[index]
                state = self._table_arg(job.kind)
            else:
                code, width, state = self.confusion, 4, _confusion_state  # type: ignore[assignment]
            full = np.bincount(code, minlength=width).astype(np.float64)
            units, per_unit = np.unique(code, return_counts=True)
            if units.size <= k:  # leave one row out: the value depends on its cell only
                out = np.empty(units.size)
                for i, u in enumerate(units):
                    full[u] -= 1
                    out[i] = _safe(job.value, state(full))
                    full[u] += 1
                return np.repeat(out, per_unit)
            return np.array(
                [
                    _safe(job.value, state(full - np.bincount(code[g::k], minlength=width)))
                    for g in range(k)
                ]
            )
        out = np.empty(min(k, self.n))
        for g in range(out.size):
            keep = np.ones(self.n, dtype=bool)
            keep[g :: out.size] = False
            arg = keep.astype(np.float64) if job.kind == "weighted" else np.flatnonzero(keep)
            out[g] = _safe(job.value, arg)
        return out


def _cell_counts(
    code: IntArray, width: int, idx: IntArray | None, counts: AnyArray | None
) -> IntArray:
    """One ``bincount`` per resample: the count of each cell in each resample, shape (block, width)."""
    rows: Any = idx if idx is not None else counts
    out: IntArray = np.empty((rows.shape[0], width), dtype=np.int64)
    for b, r in enumerate(rows):
        if idx is not None:  # the drawn rows' cells: no offsets to add, a table in cache
            out[b] = np.bincount(np.take(code, r), minlength=width)
        else:  # Poisson multiplicities are integers: the float sums are exact
            out[b] = np.bincount(code, weights=r, minlength=width)
    return out


def _multiplicities(idx: IntArray, n: int) -> IntArray:
    size = idx.shape[0]
    flat = (idx + (np.arange(size) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=size * n).reshape(size, n)


def _confusion_state(cells: FloatArray) -> Any:
    from ..stream import ConfusionMatrix

    keep = cells > 0
    y, y_hat = np.array([0, 0, 1, 1])[keep], np.array([0, 1, 0, 1])[keep]
    return ConfusionMatrix(labels=[0, 1]).update(y, y_hat, sample_weight=cells[keep])


def _safe(value: Callable[[Any], float], arg: Any) -> float:
    """The metric of one resample; nan where it is undefined (one class drawn, ...)."""
    try:
        return float(value(arg))
    except ScorekitError:
        return float("nan")


def _is01(a: Any) -> bool:
    x = np.asarray(a)
    if x.dtype.kind == "b":
        return True
    # two reductions instead of a membership test (this runs once per row of the catalog)
    return x.dtype.kind in "iu" and (x.size == 0 or (int(x.min()) >= 0 and int(x.max()) <= 1))


def _finite(a: Any) -> bool:
    x = np.asarray(a)
    return x.dtype.kind in "biuf" and bool(np.isfinite(x).all())
