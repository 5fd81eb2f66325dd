"""``scorekit recommend``: the beyond-accuracy metrics of recommendation lists, from files.

The recommendations file has one row per recommended (user, item), optionally
a rank column (the list order; file order otherwise) and a relevance column
(for serendipity). A training file of (user, item) interactions gives item
popularity (training users per item), each user's history and, by default,
the catalog (its distinct items, as Microsoft recommenders' catalog coverage);
a (user, item) pair repeated in the training file counts once (popularity is
the number of training users of an item);
an item features file gives intra-list diversity. Each metric the inputs allow
is reachable with ``-m``; the values are those of the library functions
(``scorekit.novelty``, ``scorekit.serendipity``, ...) on the lists built here.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._errors import ParameterError, ScorekitError
from .._typing import AnyArray
from ._io import detect_format, read_frame

__all__ = ["add_recommend_parser", "recommend_section"]

_EPILOG = (
    "examples:\n"
    "  scorekit recommend recs.csv --user user --item item --train train.csv\n"
    "  scorekit recommend recs.csv --user u --item i --rank pos --train train.csv -m novelty,serendipity\n"
    "  scorekit recommend recs.parquet --user u --item i --features items.csv -m intra_list_diversity\n"
    "  scorekit recommend recs.csv --user u --item i --catalog-size 5000 -m catalog_coverage,exposure_gini\n"
    "\nThe recommendations file has one row per recommended (user, item); --train\n"
    "(same column names) holds the training interactions. 'scorekit metrics recsys'\n"
    "lists the metrics and the inputs each needs.\n"
)

#: the catalog input kinds this command builds
KINDS = ("lists", "user_lists", "popularity", "tail", "item_features", "history")


def add_recommend_parser(sub: Any, parents: list[argparse.ArgumentParser]) -> Any:
    """Register ``scorekit recommend``; returns its parser (the caller adds ``-m``)."""
    text = (
        "score recommendation lists beyond accuracy: coverage, novelty, serendipity, "
        "diversity, exposure"
    )
    p = sub.add_parser(
        "recommend",
        help=text,
        description=text,
        epilog=_EPILOG,
        parents=parents,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="RECS", help="one row per recommended (user, item)")
    p.add_argument("--user", required=True, metavar="COL", help="user column (every file)")
    p.add_argument("--item", required=True, metavar="COL", help="item column (every file)")
    p.add_argument("--rank", metavar="COL", help="position in the list (default: file order)")
    p.add_argument(
        "--relevance", metavar="COL", help="relevance of each recommendation (serendipity)"
    )
    p.add_argument(
        "--train",
        metavar="FILE",
        help="training interactions (user, item): popularity, histories and the catalog",
    )
    p.add_argument(
        "--features",
        metavar="FILE",
        help="item features: the item column and numeric feature columns (intra-list diversity)",
    )
    p.add_argument(
        "--feature-cols",
        nargs="+",
        metavar="COL",
        help="the feature columns of --features (default: every column but the item)",
    )
    p.add_argument(
        "--feature-metric",
        choices=("cosine", "jaccard"),
        default="cosine",
        help="intra-list diversity's distance (default: cosine)",
    )
    p.add_argument(
        "--catalog-size",
        type=int,
        metavar="N",
        help="items in the catalog (default: the distinct items of --train)",
    )
    p.add_argument(
        "--tail-max-users",
        type=int,
        metavar="N",
        help="tail items: at most N training users (with --train; tail_share)",
    )
    p.add_argument(
        "--input-format",
        choices=("csv", "tsv", "parquet", "jsonl"),
        help="format of the input files (default: from each file's extension)",
    )
    return p


@dataclass
class _Inputs:
    """Everything the list metrics read, built from the files."""

    lists: list[AnyArray]  # the users with recommendations, in user order
    all_lists: list[AnyArray]  # every user (training users without recommendations: empty)
    history: list[AnyArray] | None = None  # aligned with all_lists
    relevance: list[AnyArray] | None = None  # aligned with all_lists
    popularity: tuple[AnyArray, AnyArray] | None = None
    n_users: int = 0
    catalog_size: int | None = None
    tail: AnyArray | None = None
    features: tuple[AnyArray, AnyArray] | None = None
    missing: dict[str, str | None] = field(default_factory=dict)


def _split(values: AnyArray, owner: AnyArray, n: int) -> list[AnyArray]:
    """``values`` (sorted by ``owner``) cut into one array per owner 0..n-1."""
    bounds = np.searchsorted(owner, np.arange(1, n))
    return list(np.split(values, bounds))


def _read(args: argparse.Namespace) -> _Inputs:
    fmt = detect_format(args.file, args.input_format)
    cols = [args.user, args.item, *(c for c in (args.rank, args.relevance) if c)]
    recs = read_frame(args.file, fmt, cols)
    users = recs.labels(args.user, "--user")
    items = recs.labels(args.item, "--item")
    rank = recs.numbers(args.rank, "--rank") if args.rank else None
    rel = recs.numbers(args.relevance, "--relevance") if args.relevance else None
    t_users = t_items = None
    if args.train:
        train = read_frame(args.train, detect_format(args.train, args.input_format))
        t_users = train.labels(args.user, "--user (in --train)")
        t_items = train.labels(args.item, "--item (in --train)")
        if (t_users.dtype.kind in "US") != (users.dtype.kind in "US"):
            users, t_users = users.astype(str), t_users.astype(str)
        if (t_items.dtype.kind in "US") != (items.dtype.kind in "US"):
            items, t_items = items.astype(str), t_items.astype(str)
    every = users if t_users is None else np.concatenate([users, t_users])
    vocab, code = np.unique(every, return_inverse=True)
    code = code.reshape(-1)
    owner, n = code[: users.size], int(vocab.size)
    keys = (owner,) if rank is None else (rank, owner)
    order = np.lexsort(keys) if rank is not None else np.argsort(owner, kind="stable")
    s_owner = owner[order]
    all_lists = _split(items[order], s_owner, n)
    has = np.bincount(owner, minlength=n) > 0
    out = _Inputs([lst for lst, h in zip(all_lists, has, strict=True) if h], all_lists)
    if rel is not None:
        out.relevance = _split(rel[order], s_owner, n)
    if t_users is not None and t_items is not None:
        _training(out, code[users.size :], t_items, n, args)
    if args.catalog_size is not None:
        if args.catalog_size < 1:
            raise ParameterError(f"--catalog-size {args.catalog_size}: must be at least 1")
        out.catalog_size = int(args.catalog_size)
    if args.features:
        out.features = _features(args)
    need_train = "pass --train FILE (training interactions)"
    out.missing = {
        "lists": None if out.catalog_size is not None else "pass --catalog-size N or --train FILE",
        "user_lists": None,
        "popularity": None if out.popularity is not None else need_train,
        "history": None if out.history is not None else need_train,
        "tail": None
        if out.tail is not None
        else "pass --train FILE and --tail-max-users N (tail items)",
        "item_features": None if out.features is not None else "pass --features FILE",
    }
    return out


def _training(
    out: _Inputs, t_owner: AnyArray, t_items: AnyArray, n: int, args: argparse.Namespace
) -> None:
    """Popularity, histories, the catalog and the tail from the training interactions."""
    vocab, icode = np.unique(t_items, return_inverse=True)
    key = t_owner.astype(np.int64) * np.int64(vocab.size) + icode.reshape(-1)
    _, first = np.unique(key, return_index=True)  # each (user, item) once, by user then item
    s_owner, s_items = t_owner[first], t_items[first]
    out.history = _split(s_items, s_owner, n)
    items, counts = np.unique(s_items, return_counts=True)
    out.popularity = (items, counts)
    out.n_users = int(np.unique(s_owner).size)
    out.catalog_size = int(items.size)
    if args.tail_max_users is not None:
        if args.tail_max_users < 0:
            raise ParameterError(f"--tail-max-users {args.tail_max_users}: cannot be negative")
        recommended = np.unique(np.concatenate(out.lists)) if out.lists else items[:0]
        unseen = recommended[~np.isin(recommended, items)]  # never trained on: 0 users
        out.tail = np.concatenate([items[counts <= args.tail_max_users], unseen])


def _features(args: argparse.Namespace) -> tuple[AnyArray, AnyArray]:
    fmt = detect_format(args.features, args.input_format)
    frame = read_frame(args.features, fmt)
    cols = args.feature_cols or [c for c in frame.names if c != args.item]
    if not cols:
        raise ParameterError(f"--features {args.features}: no feature column besides the item")
    keys = frame.labels(args.item, "--item (in --features)")
    matrix = np.column_stack([frame.numbers(c, "--feature-cols") for c in cols])
    return keys, matrix


def _call(name: str, data: _Inputs, args: argparse.Namespace) -> float:
    """The library function of catalog row ``name`` on the inputs it takes."""
    from .._catalog import get

    row = get(name)
    kind = row.inputs
    if kind == "lists":
        return float(row(data.lists, data.catalog_size))
    if kind == "user_lists":
        return float(row(data.all_lists))
    if kind == "popularity":
        if name == "novelty":
            return float(row(data.lists, data.popularity, n_users=data.n_users))
        return float(row(data.lists, data.popularity))
    if kind == "tail":
        return float(row(data.lists, data.tail))
    if kind == "item_features":
        return float(row(data.lists, data.features, metric=args.feature_metric))
    return float(row(data.all_lists, data.history, relevance=data.relevance))  # history


def recommend_section(args: argparse.Namespace) -> Any:
    """Read the files and compute every metric asked for (or every one the inputs allow).

    Returns the report :class:`~scorekit.report.Section`; a metric of the
    default set that is undefined on these inputs is left out with a note
    saying why (one named with ``-m`` raises instead).
    """
    from .._catalog import metrics, select
    from ..report import Metric, Section

    data = _read(args)
    inputs: dict[str, str | None] = dict.fromkeys(
        ("labels", "scores", "groups"), "use scorekit classify / gauc"
    )
    inputs.update(data.missing)
    default = [
        r.name
        for r in metrics("recsys")
        if r.scalar and r.inputs in KINDS and data.missing.get(r.inputs) is None
    ]
    rows = select(args.metrics, inputs=inputs, default=default, flag="-m", supplied=("n_users",))
    values, skipped = [], []
    for r in rows:  # one call per metric asked for
        try:
            values.append(Metric(r.name, _call(r.name, data, args)))
        except ScorekitError as exc:
            if args.metrics:  # asked for by name: its error is the answer
                raise type(exc)(f"-m {r.name}: {exc}") from None
            skipped.append(f"{r.name} ({exc})")  # the default set: say why it is left out
    if not values:
        raise ParameterError("no metric is defined on these inputs: " + "; ".join(skipped))
    users = len(data.all_lists)
    notes = [
        f"{len(data.lists):,} users with recommendations of {users:,}"
        + (" (users of the training file included)" if args.train else "")
    ]
    if skipped:
        notes.append("not computed: " + "; ".join(skipped))
    return Section(f"Recommendations: {args.file}", "recommend", tuple(values), notes=tuple(notes))
