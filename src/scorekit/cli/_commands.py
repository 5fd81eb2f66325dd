"""The ``scorekit`` commands: argument parsing, dispatch and the one-line error rule.

``run(argv)`` returns the exit code: 0 on success, 2 for any problem with the
input or the options (a :class:`~scorekit.ScorekitError`, a missing or
unreadable file, a bad option) — always exactly one line on stderr,
``scorekit: error: ...``, never a traceback — and 1 for an internal error
(also one line; ``SCOREKIT_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from .. import __version__
from .._catalog import FAMILIES
from .._errors import ScorekitError
from ._flags import in_flags
from ._format import OUTPUT_FORMATS, safe_text
from ._fuse import add_fuse_parser
from ._io import FORMATS
from ._recommend import add_recommend_parser

__all__ = ["build_parser", "run"]


class UsageError(Exception):
    """A command-line usage problem (argparse's errors, turned into one line)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


_MAIN_EPILOG = """\
examples:
  scorekit demo                                   # example data, summary table, HTML report
  scorekit classify preds.csv --true label --score p --bootstrap 1000 --report report.html
  scorekit classify preds.parquet --true y --pred y_hat --format json
  scorekit regress preds.tsv --true price --pred predicted
  scorekit cluster points.csv --true species --pred cluster --features x y
  scorekit rank qrels.txt run.txt -m all_trec -q  # trec_eval's output, byte for byte
  scorekit compare qrels.txt bm25.run dense.run -m map -m ndcg_cut_10 --test randomization
  scorekit gauc clicks.parquet --label click --score ctr --group user_id

Input files: CSV, TSV, Parquet, JSON lines (by extension; --input-format to
override) and TREC (qrels and runs). Exit status: 0 success, 2 bad input or
options (one line on stderr), 1 internal error.
"""


def _common(
    bootstrap: bool = True, fmt: Sequence[str] = OUTPUT_FORMATS, default: str = "table"
) -> argparse.ArgumentParser:
    parent = _Parser(add_help=False)
    out = parent.add_argument_group("output")
    out.add_argument(
        "--format",
        choices=fmt,
        default=default,
        help=f"how to print the result (default: {default}); json is one object keyed by metric name",
    )
    out.add_argument(
        "--report", metavar="PATH.html", help="also write a self-contained HTML report"
    )
    out.add_argument(
        "--quiet", "-Q", action="store_true", help="no progress display, no notes on stderr"
    )
    if bootstrap:
        stats = parent.add_argument_group("confidence intervals")
        stats.add_argument(
            "--bootstrap",
            type=int,
            default=0,
            metavar="N",
            help="add 95%% bootstrap intervals from N resamples, every metric from the same "
            "resamples (scorekit.stats.bootstrap_metrics; a progress bar on stderr)",
        )
        stats.add_argument(
            "--seed", type=int, default=0, help="seed of the resampling (default: 0)"
        )
        stats.add_argument(
            "--ci-method",
            choices=("percentile", "bca", "basic"),
            default="percentile",
            help="the bootstrap interval: percentile (default), bca (bias-corrected and "
            "accelerated) or basic (2·estimate − the percentile bounds)",
        )
    return parent


def _metric_option(parser: argparse.ArgumentParser, family: str) -> None:
    parser.add_argument(
        "-m",
        "--metric",
        dest="metrics",
        action="append",
        metavar="NAME",
        help=f"a metric of the catalog (repeatable, or a comma list; 'all': every one the "
        f"inputs allow; default: the usual set). 'scorekit metrics {family}' lists them",
    )


def _input_format(parser: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    parser.add_argument(
        "--input-format",
        choices=choices,
        help="format of the input file(s) (default: from the file extension)",
    )


def _sub(
    sub: Any, name: str, help_text: str, epilog: str, parents: list[argparse.ArgumentParser]
) -> Any:
    return sub.add_parser(
        name,
        help=help_text,
        description=help_text,
        epilog=epilog,
        parents=parents,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = _Parser(
        prog="scorekit",
        description="Exact, fast metrics for classification, regression, clustering, ranking and CTR models.",
        epilog=_MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"scorekit {__version__}")
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    tables = ("csv", "tsv", "parquet", "jsonl")

    p = _sub(
        sub,
        "demo",
        "evaluate a built-in example (classifier, multiclass, regression, clustering, ranking) and write an HTML report",
        "examples:\n  scorekit demo\n  scorekit demo --out /tmp/demo.html --quiet\n",
        [],
    )
    p.add_argument(
        "--out",
        default="scorekit-demo-report.html",
        metavar="PATH",
        help="where to write the report (default: ./scorekit-demo-report.html)",
    )
    p.add_argument("--format", choices=("table", "json"), default="table", help="summary format")
    p.add_argument("--quiet", "-Q", action="store_true", help="no progress display")

    p = _sub(
        sub,
        "metrics",
        "list the metrics of the catalog: name, family, inputs, direction, streaming accumulator",
        "examples:\n  scorekit metrics\n  scorekit metrics classification --format json\n",
        [],
    )
    p.add_argument("family", nargs="?", choices=FAMILIES, help="only this family")
    p.add_argument(
        "--format", choices=OUTPUT_FORMATS, default="table", help="how to print (default: table)"
    )

    p = _sub(
        sub,
        "classify",
        "score a classifier: from scores (binary: AUC, AP, log loss, ...) or predicted labels",
        "examples:\n"
        "  scorekit classify preds.csv --true label --score prob\n"
        "  scorekit classify preds.csv --true label --score prob --pos-label spam --threshold 0.3\n"
        "  scorekit classify preds.jsonl --true y --pred y_hat --format markdown\n"
        "  scorekit classify preds.parquet --true y --score p --bootstrap 1000 --report out.html\n"
        "  scorekit classify preds.csv --true y --score p -m all --format json\n"
        "  scorekit classify preds.csv --true y --pred y_hat -m f1_macro,cohen_kappa\n"
        "  scorekit classify preds.csv --true animal --score p_cat,p_dog,p_fox --report out.html\n",
        [_common()],
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--draws",
        choices=("auto", "rows", "cells", "poisson"),
        default="auto",
        help="with --score and --bootstrap: resample row indices (the draws of "
        "scorekit.stats.bootstrap_ci), the counts of the (label, score) cells (same "
        "distribution, faster when scores repeat), Poisson(1) row weights (one pass "
        "over the sorted rows per block of resamples), or auto (default: cells when "
        "there are at most rows/16 of them and every metric is computed from them, "
        "else Poisson when every metric has a block kernel, else rows)",
    )
    _metric_option(p, "classification")
    p.add_argument("--true", required=True, metavar="COL", help="column of true labels")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--score",
        metavar="COL",
        help="column of scores or probabilities (binary); multiclass: one column per class, "
        "comma-separated in the sorted order of the classes (COL_A,COL_B,COL_C)",
    )
    which.add_argument("--pred", metavar="COL", help="column of predicted labels")
    p.add_argument(
        "--pos-label", metavar="LABEL", help="the positive class (needed unless labels are 0/1)"
    )
    p.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help="with --score: a score >= T is a positive prediction (default 0.5 for probabilities)",
    )
    _input_format(p, tables)

    p = _sub(
        sub,
        "regress",
        "score a regressor: MAE, MSE, RMSE, R², explained variance, MAPE, median AE, max error",
        "examples:\n  scorekit regress preds.csv --true y --pred y_hat\n"
        "  scorekit regress preds.parquet --true y --pred y_hat --bootstrap 2000 --format json\n"
        "  scorekit regress preds.csv --true y --pred y_hat -m mae -m r2\n",
        [_common()],
    )
    p.add_argument("file", metavar="FILE")
    _metric_option(p, "regression")
    p.add_argument("--true", required=True, metavar="COL", help="column of true values")
    p.add_argument("--pred", required=True, metavar="COL", help="column of predicted values")
    _input_format(p, tables)

    p = _sub(
        sub,
        "cluster",
        "score a clustering against true classes (ARI, AMI, NMI, ...) and by its features (silhouette, ...)",
        "examples:\n  scorekit cluster points.csv --true species --pred cluster\n"
        "  scorekit cluster points.csv --true species --pred cluster --features x y z\n"
        "  scorekit cluster points.csv --pred cluster --features x y\n"
        "  scorekit cluster points.csv --true species --pred cluster -m adjusted_rand_index\n",
        [_common()],
    )
    p.add_argument("file", metavar="FILE")
    _metric_option(p, "clustering")
    p.add_argument("--true", metavar="COL", help="column of true classes")
    p.add_argument("--pred", required=True, metavar="COL", help="column of cluster labels")
    p.add_argument(
        "--features", nargs="+", metavar="COL", help="feature columns (internal measures)"
    )
    _input_format(p, tables)

    p = _sub(
        sub,
        "rank",
        "evaluate a ranking run against qrels; prints trec_eval's output by default",
        "examples:\n"
        "  scorekit rank qrels.test results.test                # trec_eval's default measures\n"
        "  scorekit rank qrels.test results.test -m all_trec -q\n"
        "  scorekit rank qrels.test results.test -m map -m ndcg_cut.10,20 -m P.5,10\n"
        "  scorekit rank qrels.test results.trunc -m all_trec -c -M100\n"
        "  scorekit rank qrels.csv run.parquet -m nDCG@10 -m AP --format json\n"
        "  scorekit rank qrels.txt run.txt -m nDCG@10 --ties average --ndcg-ideal candidates\n"
        "  scorekit rank qrels.txt run.txt -m AP@10 -m nDCG@10 --compat spark\n"
        "  gzip -dc run.txt.gz | scorekit rank qrels.txt -    # the run from standard input\n"
        "  scorekit rank subtopics.qrels run.txt -m alpha_nDCG@20 -m ERR_IA@20  # diversity (ndeval)\n"
        "\nOptions -m -q -n -c -l -M -J -N mean what they mean to trec_eval; a RUN or QRELS of '-'\n"
        "is read from standard input, and a gzip-compressed file is read as it is.\n",
        [_common(fmt=("trec", *OUTPUT_FORMATS), default="trec")],
    )
    p.add_argument("qrels", metavar="QRELS")
    p.add_argument("runs", metavar="RUN", nargs=1)
    _trec_options(p)
    _input_format(p, FORMATS)

    p = _sub(
        sub,
        "compare",
        "paired significance tests between runs on per-query scores",
        "examples:\n"
        "  scorekit compare qrels.test a.run b.run -m map -m ndcg_cut_10\n"
        "  scorekit compare qrels.test a.run b.run c.run -m P_10 --test randomization --correction holm\n",
        [_common(bootstrap=False)],
    )
    p.add_argument("qrels", metavar="QRELS")
    p.add_argument("runs", metavar="RUN", nargs="+")
    _trec_options(p, per_query=False, default="map, ndcg_cut_10, P_10")
    p.add_argument(
        "--test",
        default="t",
        choices=("t", "randomization", "bootstrap", "wilcoxon", "sign"),
        help="paired test (default: t)",
    )
    p.add_argument(
        "--correction", choices=("none", "bonferroni", "holm"), default="holm", help="default: holm"
    )
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default: 0.05)")
    p.add_argument(
        "--resamples", type=int, default=10_000, help="for randomization and bootstrap tests"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the randomization/bootstrap test")
    _input_format(p, FORMATS)

    p = _sub(
        sub,
        "gauc",
        "group AUC of a CTR model: AUC per user, weighted mean",
        "examples:\n  scorekit gauc clicks.parquet --true click --score ctr --group user_id\n"
        "  scorekit gauc clicks.csv --true click --score ctr --group user --weights clicks\n"
        "  scorekit gauc clicks.csv --true click --score ctr --group user -m gauc,roc_auc,log_loss\n",
        [_common()],
    )
    p.add_argument("file", metavar="FILE")
    _metric_option(p, "recsys")
    p.add_argument(
        "--true",
        "--label",
        dest="label",
        required=True,
        metavar="COL",
        help="column of 0/1 labels (clicks); --label is the same",
    )
    p.add_argument("--score", required=True, metavar="COL", help="column of scores")
    p.add_argument("--group", required=True, metavar="COL", help="column of group ids (users)")
    p.add_argument("--weights", choices=("impressions", "clicks", "none"), default="impressions")
    p.add_argument(
        "--resample",
        choices=("groups", "rows"),
        default="groups",
        help="with --bootstrap: resample groups (users, the default) or rows for GAUC's interval",
    )
    p.add_argument(
        "--pos-label", metavar="LABEL", help="the positive label (unless labels are 0/1)"
    )
    _input_format(p, tables)

    p = _sub(
        sub,
        "measures",
        "list the ranking measures: names, aliases and each family's parameters",
        "examples:\n  scorekit measures\n  scorekit measures --format json\n",
        [],
    )
    p.add_argument("--format", choices=("table", "json"), default="table", help="output format")

    add_fuse_parser(sub)
    _metric_option(add_recommend_parser(sub, [_common(bootstrap=False)]), "recsys")
    return parser


def _trec_options(
    p: argparse.ArgumentParser, *, per_query: bool = True, default: str = "trec_eval's default set"
) -> None:
    g = p.add_argument_group("trec_eval options")
    g.add_argument(
        "-m",
        dest="measures",
        action="append",
        metavar="MEASURE",
        help="measure, trec_eval syntax (P.5,10 ndcg_cut.10 all_trec) or alias (nDCG@10); "
        f"repeatable (default: {default})",
    )
    if per_query:
        g.add_argument(
            "-q", dest="per_query", action="store_true", help="also print each query's values"
        )
        g.add_argument(
            "-n",
            dest="no_summary",
            action="store_true",
            help="no summary: leave out the 'all' lines (with -q: per-query lines only)",
        )
    g.add_argument(
        "-c", dest="all_queries", action="store_true", help="average over every qrels query"
    )
    g.add_argument(
        "-l",
        dest="rel_level",
        type=int,
        default=1,
        metavar="LEVEL",
        help="relevance level (default 1); any integer, as trec_eval's -l",
    )
    g.add_argument(
        "-M", dest="max_docs", type=int, metavar="N", help="use only the first N documents a query"
    )
    g.add_argument("-J", dest="judged_only", action="store_true", help="drop unjudged documents")
    g.add_argument(
        "-N",
        dest="num_docs",
        type=int,
        metavar="N",
        help="number of documents in the collection (the utility measure's 4th term)",
    )
    from ..ranking._options import EvalOptions

    c = p.add_argument_group(
        "conventions (where tools disagree; default: trec_eval's, or the --compat preset's)"
    )
    c.add_argument(
        "--compat",
        choices=EvalOptions.choices("compat"),
        help="reproduce another tool: sets the options below as it does",
    )
    c.add_argument(
        "--ties",
        choices=EvalOptions.choices("ties"),
        help="order of documents with equal scores (average: expectation over all orders)",
    )
    c.add_argument(
        "--iprec-rule",
        choices=EvalOptions.choices("iprec_rule"),
        help="interpolated precision's rule: trec_eval 10 (default), trec_eval 9 (pytrec_eval, "
        "ir_measures, ranx) or the textbook one",
    )
    c.add_argument(
        "--ap-denominator",
        choices=EvalOptions.choices("ap_denominator"),
        help="AP@k divides by R, min(R, k) or the relevant documents found in the top k",
    )
    c.add_argument(
        "--missing-queries",
        choices=EvalOptions.choices("missing_queries"),
        help="qrels queries the run misses: leave out, score 0 (-c), or fail",
    )
    c.add_argument(
        "--ndcg-ideal",
        choices=EvalOptions.choices("ndcg_ideal"),
        help="nDCG's ideal ranking: of all judged documents or of the run's own",
    )
    c.add_argument(
        "--gain",
        metavar="GAIN",
        help=f"nDCG gain: {', '.join(EvalOptions.choices('gain'))} (2^grade-1 for exponential), "
        "or GRADE=GAIN,... (0=0,1=1,2=3)",
    )


def _warning_line(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    text = safe_text(" ".join(str(message).split()))
    sys.stderr.write(f"scorekit: warning: {text}\n")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        text = f"{exc.filename}: {exc.strerror.lower()}"
    return safe_text(text) or type(exc).__name__  # messages quote data: no escape sequences


def run(argv: list[str]) -> int:
    """Run the command line with ``argv`` (without the program name); return the exit code.

    Warnings are shown as one ``scorekit: warning:`` line each, whatever filters
    the caller has installed (an embedding program's "error" filter included):
    the command decides how they are shown, and restores the caller's on return.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = _warning_line
        return _run(argv)


def _run(argv: list[str]) -> int:
    parser: argparse.ArgumentParser | None = None
    command: str | None = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = getattr(args, "command", None)
        from ._run import dispatch

        return dispatch(args)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:  # the reader went away (``scorekit rank ... | head``): not an error
        _silence_stdout()
        return 0
    except (UsageError, ScorekitError, OSError, ValueError) as exc:
        text = _one_line(exc)
        _error(text if parser is None else in_flags(text, parser, command))
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except Exception as exc:
        if os.environ.get("SCOREKIT_DEBUG"):
            traceback.print_exc()
        _error(
            f"internal error: {type(exc).__name__}: {_one_line(exc)} (SCOREKIT_DEBUG=1 shows the traceback)"
        )
        return 1


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _error(text: str) -> None:
    try:
        sys.stderr.write(f"scorekit: error: {text}\n")
        sys.stderr.flush()
    except OSError:
        pass
