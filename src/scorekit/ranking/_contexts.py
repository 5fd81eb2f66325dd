"""Per-measure options: the context a measure with ``rel=``, ``judged_only=``, ``dcg=``, ``gains=`` reads.

A measure written ``P(rel=2)@10`` or ``nDCG(judged_only=True,dcg=exp-log2)@10``
(ir_measures' syntax) carries its options in :attr:`~._measures.Measure.options`;
the kernels do not know about them. :class:`Contexts` builds one
:class:`~._state.Context` per distinct set of options, from the one state of
the evaluation: ``rel`` replaces ``rel_level``, ``judged_only`` drops the
unjudged documents after ranking (as ``-J``), ``dcg``/``gains`` replace
``gain=``. Measures without options share the evaluation's own context.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ._conventions import Conventions
from ._state import Context, RankedState

__all__ = ["Contexts", "judged_state"]


def judged_state(state: RankedState) -> RankedState:
    """The state without the retrieved documents that have no judgment (codes < 0)."""
    keep = state.rel >= 0
    length = np.diff(state.starts)
    owner = np.repeat(np.arange(state.n_queries), length)
    starts = np.zeros(state.n_queries + 1, np.int64)
    np.cumsum(np.bincount(owner[keep], minlength=state.n_queries), out=starts[1:])
    tie_start = None
    if state.tie_start is not None:
        group = np.cumsum(state.tie_start)[keep]
        tie_start = np.ones(group.size, bool)
        np.not_equal(group[1:], group[:-1], out=tie_start[1:])
    return replace(state, starts=starts, rel=state.rel[keep], tie_start=tie_start)


class Contexts:
    """One context per distinct set of per-measure options, built on first use."""

    def __init__(self, state: RankedState, rel_level: int, conv: Conventions, make: Any) -> None:
        self.state, self.rel_level, self.conv, self.make = state, rel_level, conv, make
        self.cache: dict[tuple[tuple[str, Any], ...], Context] = {}
        self._judged: RankedState | None = None

    def get(self, options: tuple[tuple[str, Any], ...]) -> Context:
        """The context of a measure with these options."""
        if options not in self.cache:
            opts = dict(options)
            state = self.state
            if opts.get("judged_only"):
                if self._judged is None:
                    self._judged = judged_state(self.state)
                state = self._judged
            conv = self.conv
            if opts.get("dcg") == "exp-log2":
                conv = replace(conv, gain="exponential", gain_map=())
            if "gains" in opts:
                conv = replace(conv, gain="mapping", gain_map=opts["gains"])
            rel = int(opts.get("rel", self.rel_level))
            self.cache[options] = self.make(state, rel, conv)
        return self.cache[options]
