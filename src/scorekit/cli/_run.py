"""What each command does once its arguments are parsed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._errors import ParameterError
from ..report import Report, Section
from ._args import parse_label, report_path
from ._format import metrics_json, metrics_json_flat, metrics_rows, render
from ._fuse import fuse_command
from ._io import detect_format, read_frame, read_ranking
from ._progress import Progress
from ._recommend import recommend_section

__all__ = ["DEFAULT_COMPARE_MEASURES", "DEFAULT_TREC_MEASURES", "dispatch"]

# trec_eval's default ("official") measures, in its parameter syntax.
DEFAULT_TREC_MEASURES = ("official",)
DEFAULT_COMPARE_MEASURES = ("map", "ndcg_cut_10", "P_10")


def dispatch(args: argparse.Namespace) -> int:
    """Run the parsed command; return its exit code."""
    if getattr(args, "bootstrap", 0) < 0:
        raise ParameterError(
            f"--bootstrap {args.bootstrap}: the number of resamples cannot be negative"
        )
    command = {
        "demo": _demo,
        "classify": _classify,
        "regress": _regress,
        "cluster": _cluster,
        "rank": _rank,
        "compare": _compare,
        "gauc": _gauc,
        "metrics": _metrics,
        "measures": _measures,
        "fuse": fuse_command,
        "recommend": _recommend,
    }[args.command]
    return command(args)


def _note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        sys.stderr.write(f"scorekit: {text}\n")


def _finish(
    args: argparse.Namespace,
    section: Section,
    report: Path | None,
    progress: Progress,
    *,
    title: str,
    subtitle: str,
) -> None:
    if report is not None:
        progress.step("drawing the report")
        Report(title, [section], subtitle=subtitle, meta=report_meta()).write(report)


def report_meta() -> list[tuple[str, str]]:
    """The header facts of a report made by the command line: command, time, version."""
    import datetime
    import shlex

    from .. import __version__

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    command = shlex.join(["scorekit", *sys.argv[1:]])
    return [("command", command), ("generated", now), ("scorekit", __version__)]


def _print_section(args: argparse.Namespace, section: Section, report: Path | None) -> None:
    header, rows = metrics_rows(section.metrics)
    render(
        args.format,
        header,
        rows,
        metrics_json(section.metrics),
        title=section.title,
        flat=metrics_json_flat(section.metrics),
    )
    for note in section.notes:
        _note(args, f"note: {note}")
    if report is not None:
        _note(args, f"report written to {report}")


_CHUNKED = ("csv", "tsv", "parquet", "jsonl")


def _streamed(
    args: argparse.Namespace, fmt: str, columns: dict[str, str], title: str, kind: str
) -> Section | None:
    """The metrics of a large file read chunk by chunk, when every one asked for is mergeable.

    Only with ``-m`` (the default sets depend on the whole data: are the scores
    probabilities?), without ``--report`` or ``--bootstrap``, from a file
    :func:`scorekit.stream.read_chunks` reads. ``columns`` maps ``y_true``,
    ``y_score``, ``y_pred``, ``groups`` to file columns. The values equal the
    in-memory ones bit for bit (the accumulators' guarantee). ``None``: read it whole.
    """
    if not args.metrics or args.report or args.bootstrap or fmt not in _CHUNKED:
        return None
    from .._catalog import select
    from ..report import Metric
    from ..stream import MetricSet, consume, read_chunks
    from ..stream._set import _inputs
    from ._progress import ChunkBar

    given = {
        "score": "y_score" in columns,
        "pred": "y_pred" in columns,
        "groups": "groups" in columns,
    }
    try:
        wanted = select(args.metrics, inputs=_inputs(**given), flag="-m")
    except ParameterError:
        return None  # the in-memory path gives the full message (and --threshold's labels)
    if not all(r.mergeable for r in wanted):
        return None
    names = list(columns)
    chunks = iter(read_chunks(args.file, list(columns.values()), input_format=fmt))
    first = next(chunks, None)
    if first is None:
        return None
    pos = getattr(args, "pos_label", None)
    pos_label = parse_label(pos, first[0]) if pos is not None else None
    acc = MetricSet(
        [r.name for r in wanted],
        score=given["score"],
        pred=given["pred"],
        groups=given["groups"],
        pos_label=pos_label,
    )

    def rows() -> Any:
        yield dict(zip(names, first, strict=True))
        for chunk in chunks:
            yield dict(zip(names, chunk, strict=True))

    with ChunkBar("reading in chunks", quiet=args.quiet) as bar:
        consume(acc, rows(), progress=bar)
    values = tuple(Metric(k, float(v)) for k, v in acc.values().items())
    note = f"{args.file} read in chunks: every metric asked for is mergeable."
    return Section(title, kind, values, notes=(note,))


def _score_columns(spec: str) -> list[str]:
    """``--score a,b,c``: one score column per class (multiclass); a single name otherwise."""
    columns = [c.strip() for c in spec.split(",")] if "," in spec else [spec]
    if not all(columns):
        raise ParameterError(f"--score {spec!r}: an empty column name in the comma list")
    return columns


def _classify(args: argparse.Namespace) -> int:
    report = report_path(args.report) if args.report else None
    fmt = detect_format(args.file, args.input_format)
    target = args.score or args.pred
    role = "y_score" if args.score is not None else "y_pred"
    title = f"Classification: {target} against {args.true}"
    multiclass = args.score is not None and "," in args.score
    streamed = (
        None
        if multiclass
        else _streamed(args, fmt, {"y_true": args.true, role: target}, title, "classification")
    )
    if streamed is not None:
        _print_section(args, streamed, None)
        return 0
    with Progress(args.quiet) as progress:
        progress.step(f"reading {args.file}")
        columns = _score_columns(args.score) if args.score is not None else [target]
        frame = read_frame(args.file, fmt, [args.true, *columns])
        y = frame.labels(args.true, "--true")
        if args.score is not None and len(columns) > 1:  # one score column per class
            values: Any = np.column_stack([frame.numbers(c, "--score") for c in columns])
        elif args.score is not None:
            values = frame.numbers(args.score, "--score")
        else:
            values = frame.labels(args.pred, "--pred")
        progress.step("scoring")
        from ..report import classification_section

        section = classification_section(
            y,
            y_score=values if args.score is not None else None,
            y_pred=values if args.score is None else None,
            pos_label=parse_label(args.pos_label, y),
            threshold=args.threshold,
            bootstrap=args.bootstrap,
            seed=args.seed,
            ci_method=args.ci_method,
            progress=progress.bar("bootstrap"),
            draws=args.draws,
            details=report is not None,
            title=f"Classification: {target} against {args.true}",
            names=(f"column {args.true!r}", f"column {target!r}"),
            metrics=args.metrics,
        )
        _finish(args, section, report, progress, title="scorekit classify", subtitle=args.file)
    _print_section(args, section, report)
    return 0


def _regress(args: argparse.Namespace) -> int:
    report = report_path(args.report) if args.report else None
    fmt = detect_format(args.file, args.input_format)
    title = f"Regression: {args.pred} against {args.true}"
    streamed = _streamed(args, fmt, {"y_true": args.true, "y_pred": args.pred}, title, "regression")
    if streamed is not None:
        _print_section(args, streamed, None)
        return 0
    with Progress(args.quiet) as progress:
        progress.step(f"reading {args.file}")
        frame = read_frame(args.file, fmt, [args.true, args.pred])
        t = frame.numbers(args.true, "--true")
        p = frame.numbers(args.pred, "--pred")
        progress.step("scoring")
        from ..report import regression_section

        section = regression_section(
            t,
            p,
            bootstrap=args.bootstrap,
            seed=args.seed,
            ci_method=args.ci_method,
            progress=progress.bar("bootstrap"),
            details=report is not None,
            title=f"Regression: {args.pred} against {args.true}",
            names=(f"column {args.true!r}", f"column {args.pred!r}"),
            metrics=args.metrics,
        )
        _finish(args, section, report, progress, title="scorekit regress", subtitle=args.file)
    _print_section(args, section, report)
    return 0


def _cluster(args: argparse.Namespace) -> int:
    if args.true is None and not args.features:
        raise ParameterError("pass --true COL (true classes), --features COL..., or both")
    report = report_path(args.report) if args.report else None
    fmt = detect_format(args.file, args.input_format)
    wanted = [args.pred, *([args.true] if args.true else []), *(args.features or [])]
    with Progress(args.quiet) as progress:
        progress.step(f"reading {args.file}")
        frame = read_frame(args.file, fmt, wanted)
        p = frame.labels(args.pred, "--pred")
        t = frame.labels(args.true, "--true") if args.true else None
        x = None
        if args.features:
            import numpy as np

            x = np.column_stack([frame.numbers(c, "--features") for c in args.features])
        progress.step("scoring")
        from ..report import clustering_section

        section = clustering_section(
            t,
            p,
            features=x,
            bootstrap=args.bootstrap,
            seed=args.seed,
            ci_method=args.ci_method,
            progress=progress.bar("bootstrap"),
            details=report is not None,
            title=f"Clustering: {args.pred}" + (f" against {args.true}" if args.true else ""),
            names=(f"column {args.true!r}", f"column {args.pred!r}"),
            feature_names=args.features or (),
            metrics=args.metrics,
        )
        _finish(args, section, report, progress, title="scorekit cluster", subtitle=args.file)
    _print_section(args, section, report)
    return 0


def _gauc(args: argparse.Namespace) -> int:
    report = report_path(args.report) if args.report else None
    fmt = detect_format(args.file, args.input_format)
    with Progress(args.quiet) as progress:
        progress.step(f"reading {args.file}")
        frame = read_frame(args.file, fmt, [args.label, args.score, args.group])
        y = frame.labels(args.label, "--true")
        s = frame.numbers(args.score, "--score")
        g = frame.labels(args.group, "--group")
        progress.step("scoring")
        from ..report import gauc_section

        section = gauc_section(
            y,
            s,
            g,
            weights=None if args.weights == "none" else args.weights,
            pos_label=parse_label(args.pos_label, y),
            bootstrap=args.bootstrap,
            seed=args.seed,
            ci_method=args.ci_method,
            progress=progress.bar("bootstrap"),
            details=report is not None,
            title=f"GAUC: {args.score} against {args.label}, grouped by {args.group}",
            names=(f"column {args.label!r}", f"column {args.score!r}", f"column {args.group!r}"),
            metrics=args.metrics,
            resample=args.resample,
        )
        _finish(args, section, report, progress, title="scorekit gauc", subtitle=args.file)
    _print_section(args, section, report)
    return 0


def _recommend(args: argparse.Namespace) -> int:
    report = report_path(args.report) if args.report else None
    with Progress(args.quiet) as progress:
        progress.step("reading and scoring the recommendations")
        section = recommend_section(args)
        _finish(args, section, report, progress, title="scorekit recommend", subtitle=args.file)
    _print_section(args, section, report)
    return 0


def _metrics(args: argparse.Namespace) -> int:
    from .._catalog import metrics

    header = ["name", "family", "inputs", "better", "accumulator", "description"]
    better = {True: "higher", False: "lower", None: ""}
    rows = [
        [
            r.name,
            r.family,
            r.inputs,
            better[r.greater_is_better],
            f"{r.accumulator}.{r.method}" if r.accumulator else "",
            r.description,
        ]
        for r in metrics(args.family)
    ]
    as_json = [dict(zip(header, row, strict=True)) for row in rows]
    render(args.format, header, rows, as_json, title="scorekit metrics")
    return 0


def run_names(paths: Sequence[str]) -> list[str]:
    """A short, unique name for each run file: its name without extension, its name, or its path.

    >>> run_names(["a/bm25.run", "b/dense.txt"]), run_names(["r.test", "r.trunc"])
    (['bm25', 'dense'], ['r.test', 'r.trunc'])
    >>> run_names(["x/run.txt", "y/run.txt"]), run_names(["a", "a"])
    (['x/run.txt', 'y/run.txt'], ['1:a', '2:a'])
    """
    names = [Path(p).name for p in paths]
    stems = []
    for name in names:
        for ext in (".gz", ".bz2"):
            name = name.removesuffix(ext)
        stems.append(Path(name).stem or name)
    for candidate in (stems, names, [str(p) for p in paths]):
        if len(set(candidate)) == len(candidate):
            return candidate
    return [f"{i + 1}:{p}" for i, p in enumerate(paths)]


def _read_inputs(
    args: argparse.Namespace, progress: Progress, paths: Sequence[str]
) -> tuple[Any, dict[str, Any]]:
    progress.step(f"reading {args.qrels}")
    from ..ranking._diversity import is_diversity  # diversity measures read subtopic qrels

    kind = "subtopics" if any(is_diversity(m) for m in args.measures or ()) else "qrels"
    qrels = read_ranking(
        args.qrels, kind, detect_format(args.qrels, args.input_format, default="trec")
    )
    runs = {}
    for name, path in zip(run_names(paths), paths, strict=True):
        progress.step(f"reading {path}")
        runs[name] = read_ranking(
            path, "run", detect_format(path, args.input_format, default="trec")
        )
    return qrels, runs


def _evaluate_options(args: argparse.Namespace) -> dict[str, Any]:
    """trec_eval's -l -c -M -J -N and the conventions as ``options=EvalOptions(...)``."""
    from ..ranking import EvalOptions

    given: dict[str, Any] = {name: getattr(args, name, None) for name in _CONVENTION_FLAGS}
    gain = getattr(args, "gain", None)
    options = EvalOptions.build(
        rel_level=args.rel_level,
        all_queries=bool(args.all_queries),
        max_docs=args.max_docs,
        judged_only=bool(args.judged_only),
        gain=None if gain is None else parse_gain(gain),
        num_docs=getattr(args, "num_docs", None),
        **given,
    )
    return {"options": options}


_CONVENTION_FLAGS = (
    "compat",
    "ties",
    "ap_denominator",
    "missing_queries",
    "ndcg_ideal",
    "iprec_rule",
)


def parse_gain(text: str) -> Any:
    """``--gain``: a name, or ``GRADE=GAIN`` pairs separated by commas.

    >>> parse_gain("exponential"), parse_gain("0=0, 1=1,2=3.5")
    ('exponential', {0: 0.0, 1: 1.0, 2: 3.5})
    """
    if "=" not in text:
        return text.strip()
    mapping: dict[int, float] = {}
    for part in text.split(","):
        grade, _sep, gain = part.partition("=")
        try:
            mapping[int(grade)] = float(gain)
        except ValueError:
            raise ParameterError(
                f"--gain {text!r}: expected GRADE=GAIN pairs such as 0=0,1=1,2=3, got {part!r}"
            ) from None
        if not -(1 << 63) <= int(grade) < 1 << 63:
            raise ParameterError(f"--gain {text!r}: grade {grade.strip()} is out of range")
    return mapping


def trec_eval_measures(items: Sequence[str]) -> list[str]:
    """The ``-m`` values trec_eval acts on: the first parameter list of a family wins.

    trec_eval keeps the parameters of the first ``-m FAMILY.PARAMS`` of a
    family and ignores any later ``-m`` of it, with or without parameters
    (``-m P.5 -m P.10`` prints P_5 only; ``-m P -m P.10`` prints P_10 only).

    >>> trec_eval_measures(["P.5", "map", "P.10", "P", "ndcg_cut", "nDCG@10"])
    ['P.5', 'map', 'ndcg_cut', 'nDCG@10']
    """
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        family, dot, _ = item.strip().partition(".")
        if dot:
            first.setdefault(family, i)
    out = []
    for i, item in enumerate(items):
        family, dot, _ = item.strip().partition(".")
        if family in first and first[family] != i:
            continue
        out.append(item)
    return out


def _rank(args: argparse.Namespace) -> int:
    from ..report import ranking_section
    from ..report._ranking import means, per_query

    report = report_path(args.report) if args.report else None
    measures = trec_eval_measures(args.measures or DEFAULT_TREC_MEASURES)
    options = _evaluate_options(args)
    from ..ranking import evaluate

    with Progress(args.quiet) as progress:
        qrels, runs = _read_inputs(args, progress, args.runs)
        ((name, run),) = runs.items()
        progress.step("evaluating")
        result = evaluate(qrels, run, measures, per_query=args.per_query, **options)
        section = None
        if report is not None or args.bootstrap > 0:
            # one evaluation serves the output and the report: per-query values are
            # always kept, ``per_query`` only decides what to_trec_eval() prints
            section = ranking_section(
                {name: result},
                bootstrap=args.bootstrap,
                seed=args.seed,
                title=f"Ranking: {name}",
                notes=[
                    f"qrels: {args.qrels}; run: {args.runs[0]}; measures: {', '.join(measures)}"
                ],
            )
        if report is not None and section is not None:
            progress.step("drawing the report")
            Report(
                "scorekit rank",
                [section],
                subtitle=f"{args.qrels} · {args.runs[0]}",
                meta=report_meta(),
            ).write(report)
    if args.format == "trec":
        if args.bootstrap > 0:
            _note(args, "note: trec_eval's format has no intervals; see --format table or json")
        sys.stdout.write(result.to_trec_eval(summary=not args.no_summary))
    elif args.per_query:
        pq = per_query(result)
        mean = {} if args.no_summary else means(result)
        rows = [[m, q, v] for m, values in pq.items() for q, v in values.items()]
        rows += [[m, "all", v] for m, v in mean.items()]
        # the summary and the queries apart: a query may be named "all"
        obj = {"mean": mean, "per_query": {m: {str(q): v for q, v in pq[m].items()} for m in pq}}
        render(args.format, ["measure", "query", "value"], rows, obj, title=f"Ranking: {name}")
    elif section is not None:
        header, rows = metrics_rows(section.metrics)
        render(
            args.format,
            header,
            rows,
            metrics_json(section.metrics),
            title=section.title,
            flat=metrics_json_flat(section.metrics),
        )
    else:
        mean = means(result)
        render(
            args.format,
            ["measure", "value"],
            [[m, v] for m, v in mean.items()],
            {m: {"value": v} for m, v in mean.items()},
            title=f"Ranking: {name}",
            flat=mean,
        )
    if report is not None:
        _note(args, f"report written to {report}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from ..report import ranking_section
    from ..report._ranking import COMPARISON_COLUMNS, comparison_rows, evaluate_runs

    if len(args.runs) < 2:
        raise ParameterError("compare needs at least two runs")
    report = report_path(args.report) if args.report else None
    measures = list(args.measures or DEFAULT_COMPARE_MEASURES)
    from ..ranking._compare import compare_results

    with Progress(args.quiet) as progress:
        qrels, runs = _read_inputs(args, progress, args.runs)
        progress.step("evaluating")
        # one evaluation of each run serves the tests and the report
        results = evaluate_runs(qrels, runs, measures, **_evaluate_options(args))
        progress.step("testing")
        comparison = compare_results(
            results,
            test=args.test,
            correction=None if args.correction == "none" else args.correction,
            alpha=args.alpha,
            n_resamples=args.resamples,
            seed=args.seed,
        )
        rows = comparison_rows(comparison)
        if report is not None:
            section = ranking_section(
                results,
                comparison=comparison,
                title="Comparison of " + ", ".join(runs),
                notes=[
                    f"qrels: {args.qrels}; test: {args.test}; correction: {args.correction}; "
                    f"alpha: {args.alpha}"
                ],
            )
            progress.step("drawing the report")
            Report(
                "scorekit compare",
                [section],
                subtitle=" · ".join([args.qrels, *args.runs]),
                meta=report_meta(),
            ).write(report)
    extra = [c for c in ("ci_low", "ci_high", "effect_size") if rows and c in rows[0]]
    header = [*COMPARISON_COLUMNS, *extra]
    table = [[r.get(c) for c in header] for r in rows]
    grouped: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        grouped.setdefault(str(r.get("measure")), []).append(
            {c: r.get(c) for c in header if c != "measure"}
        )
    render(
        args.format,
        header,
        table,
        grouped,
        title=f"{args.test} test, correction: {args.correction}",
    )
    if report is not None:
        _note(args, f"report written to {report}")
    return 0


def _measures(args: argparse.Namespace) -> int:
    from ._measures import list_measures

    return list_measures(args)


def _demo(args: argparse.Namespace) -> int:
    from ._demo import run_demo

    out = report_path(args.out)
    with Progress(args.quiet) as progress:
        summary, path = run_demo(out, progress=progress.step)
    header = ["section", "metric", "value", "95% CI low", "95% CI high"]
    if args.format == "json":
        obj: dict[str, Any] = {}
        for section, metric, value, *_ in summary:
            obj.setdefault(section, {})[metric] = value
        render("json", header, summary, {"sections": obj, "report": str(path)})
    else:
        render("table", header, summary, None, title="scorekit demo: summary")
        sys.stdout.write(f"Report written to {path}\n")
    return 0
