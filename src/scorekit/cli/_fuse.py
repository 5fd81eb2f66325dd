"""``scorekit fuse``: combine run files into one fused TREC run (ranx's fusion methods)."""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from .._errors import DuplicateDocumentError, ParameterError, ScorekitError
from ._io import FORMATS, detect_format, read_ranking

__all__ = ["add_fuse_parser", "fuse_command"]

_EPILOG = (
    "examples:\n"
    "  scorekit fuse bm25.run dense.run --method rrf -o fused.run\n"
    "  scorekit fuse a.run b.run c.run --method mnz --norm min-max > fused.run\n"
    "  scorekit fuse a.run b.run --method wsum --weights 0.7 0.3\n"
    "  scorekit fuse a.run b.run --method rbc --param phi=0.8\n"
    "  scorekit fuse a.run b.run --method probfuse --qrels train.qrels --param n_segments=10\n"
    "\nMethods and normalisations are ranx's (docs/fusion.md). The fused run\n"
    "is evaluated like any other: scorekit compare QRELS a.run b.run fused.run\n"
)


def add_fuse_parser(sub: Any) -> None:
    """Register ``scorekit fuse`` on the command parser's subparsers."""
    p = sub.add_parser(
        "fuse",
        help="fuse run files into one TREC run (rrf, CombMNZ, Borda, Condorcet, ...)",
        description="fuse run files into one TREC run (rrf, CombMNZ, Borda, Condorcet, ...)",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("runs", metavar="RUN", nargs="+", help="two or more run files")
    p.add_argument("--method", default="rrf", help="fusion method, ranx's name (default: rrf)")
    p.add_argument(
        "--norm",
        default="min-max",
        help="normalisation: min-max (default), none, max, sum, zmuv, rank, borda",
    )
    p.add_argument("--weights", nargs="+", type=str, metavar="W", help="one weight per run")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a method parameter (k=60, phi=0.8, ...)",
    )
    p.add_argument(
        "--qrels", metavar="QRELS", help="training judgments of the probabilistic methods"
    )
    p.add_argument("--tag", help="the fused run's tag (default: the method)")
    p.add_argument(
        "-o", "--output", metavar="PATH", help="where to write the fused run (default: stdout)"
    )
    p.add_argument(
        "--input-format",
        choices=FORMATS,
        help="format of the input files (default: from the extension)",
    )


def _number(text: str, flag: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ParameterError(f"{flag}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ParameterError(f"{flag}: {text!r} is not a finite number")
    return value


def _params(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ParameterError(f"--param {item!r}: expected KEY=VALUE (e.g. k=60)")
        number = _number(value.strip(), f"--param {key.strip()}")
        out[key.strip()] = int(number) if number.is_integer() and "." not in value else number
    return out


def fuse_command(args: argparse.Namespace) -> int:
    """Read the runs, fuse them, write the fused run."""
    from ..fusion import fuse
    from ..fusion._fuse import resolve_method, resolve_norm

    for flag, check, value in (
        ("--method", resolve_method, args.method),
        ("--norm", resolve_norm, args.norm),
    ):
        try:
            check(value)
        except ScorekitError as exc:
            raise ParameterError(f"{flag}: {exc}") from None
    if len(args.runs) < 2:
        raise ParameterError(f"RUN: fusion needs at least 2 run files, got {len(args.runs)}")
    weights = None if args.weights is None else [_number(w, "--weights") for w in args.weights]
    if weights is not None and len(weights) != len(args.runs):
        raise ParameterError(f"--weights: {len(weights)} weights for {len(args.runs)} runs")
    params = _params(args.param)
    runs = [
        read_ranking(p, "run", detect_format(p, args.input_format, default="trec"))
        for p in args.runs
    ]
    qrels = None
    if args.qrels:
        qrels = read_ranking(
            args.qrels, "qrels", detect_format(args.qrels, args.input_format, default="trec")
        )
    try:
        fused = fuse(
            runs,
            method=args.method,
            norm=args.norm,
            weights=weights,
            params=params,
            qrels=qrels,
            tag=args.tag,
        )
    except DuplicateDocumentError:
        raise  # names the file and the lines
    except ScorekitError as exc:
        text = str(exc)
        flag = "--weights" if "weights" in text else "--qrels" if "qrels=" in text else "--param"
        raise ParameterError(f"{flag}: {text}") from None
    if args.output:
        fused.to_trec(args.output)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fused.run"
        fused.to_trec(path)
        with path.open(encoding="utf-8") as f:
            shutil.copyfileobj(f, sys.stdout)
    return 0
