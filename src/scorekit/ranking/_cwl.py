r"""C/W/L measures (Moffat et al.) as cwl_eval computes them: NERR (eq. 8-11), INST, INSQ.

A C/W/L measure is its continuation probability :math:`C_i` (that a user
at rank i goes on to rank i + 1); the weight of rank i is
:math:`W_i = \prod_{j<i} C_j / \sum_k \prod_{j<k} C_j` and the value the
expected utility :math:`\sum_i W_i g_i`. As in cwl_eval (and ir_measures'
``cwl_eval`` provider), rankings are cut or padded to 1000 ranks, and gains
are grades clipped to [min_rel, max_rel] (negative grades count 0 first)
and scaled to [0, 1]; documents without a judgment gain 0. Every query at
once: one (queries x 1000) matrix, ``cumprod`` along the ranks.

- NERR8@k (Azzopardi, Mackenzie and Moffat, ICTIR 2021, eq. 8): C = 1 - g
  before rank k, 0 from k on; NERR9@k: C = (i / (i + 1)) (1 - g);
  NERR10: C = p (1 - g); NERR11: C = ((i + 2T - 1) / (i + 2T))^2 (1 - g);
- INSQ: C = ((i + 2T - 1) / (i + 2T))^2; INST: the same with 2T replaced by
  T + T_i, T_i = T minus the gain gathered up to rank i.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import ParameterError
from .._typing import FloatArray
from ._state import NONPOOL, Context

__all__: list[str] = []

DEPTH = 1000  # cwl_eval's max_n


def _gains(ctx: Context, low: int, high: int) -> FloatArray:
    """(queries, DEPTH) gains in rank order, zero-padded."""
    if high <= low:
        raise ParameterError(f"max_rel={high} must exceed min_rel={low}")
    rel = ctx.state.rel
    pos = np.flatnonzero(rel != NONPOOL)
    q = np.searchsorted(ctx.starts, pos, side="right") - 1
    col = pos - ctx.starts[q]
    keep = col < DEPTH
    pos, q, col = pos[keep], q[keep], col[keep]
    grade = np.clip(np.maximum(rel[pos].astype(np.float64), 0.0), low, high)
    out: FloatArray = np.zeros((ctx.n_q, DEPTH))
    out[q, col] = (grade - low) / (high - low)
    return out


def _utility(c: FloatArray, g: FloatArray) -> FloatArray:
    """Expected utility per query from the continuation matrix ``c`` and gains ``g``."""
    prod = np.ones_like(c)
    np.cumprod(c[:, :-1], axis=1, out=prod[:, 1:])
    w = prod / prod.sum(axis=1, keepdims=True)
    out: FloatArray = (w * g).sum(axis=1)
    return out


_RANK = np.arange(1, DEPTH + 1, dtype=np.float64)


def _nerr_truncated(ctx: Context, params: tuple[Any, ...], eq9: bool) -> FloatArray:
    k, low, high = int(params[0]), int(params[1]), int(params[2])
    g = _gains(ctx, low, high)
    c = 1.0 - g
    if eq9:
        c = c * (_RANK / (_RANK + 1.0))
    c[:, max(k - 1, 0) :] = 0.0
    return _utility(c, g)


def nerr8(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """NERR eq. 8 at cutoff k (``params``: cutoff, min_rel, max_rel)."""
    return _nerr_truncated(ctx, params, False)


def nerr9(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """NERR eq. 9 at cutoff k (``params``: cutoff, min_rel, max_rel)."""
    return _nerr_truncated(ctx, params, True)


def nerr10(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """NERR eq. 10 (``params``: p, min_rel, max_rel)."""
    g = _gains(ctx, int(params[1]), int(params[2]))
    return _utility(float(params[0]) * (1.0 - g), g)


def _insq_c(t: float) -> FloatArray:
    out: FloatArray = ((_RANK + 2.0 * t - 1.0) / (_RANK + 2.0 * t)) ** 2.0
    return out


def nerr11(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """NERR eq. 11 (``params``: T, min_rel, max_rel)."""
    g = _gains(ctx, int(params[1]), int(params[2]))
    return _utility(_insq_c(float(params[0])) * (1.0 - g), g)


def insq(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """INSQ (``params``: T, min_rel, max_rel)."""
    g = _gains(ctx, int(params[1]), int(params[2]))
    return _utility(np.broadcast_to(_insq_c(float(params[0])), g.shape).copy(), g)


def inst(ctx: Context, params: tuple[Any, ...]) -> FloatArray:
    """INST (``params``: T, min_rel, max_rel)."""
    t = float(params[0])
    g = _gains(ctx, int(params[1]), int(params[2]))
    ti = t - np.cumsum(g, axis=1)
    c: FloatArray = ((_RANK + t + ti - 1.0) / (_RANK + t + ti)) ** 2.0
    return _utility(c, g)
