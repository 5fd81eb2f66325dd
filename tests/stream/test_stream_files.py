"""read_chunks: files streamed chunk by chunk give the one-shot numbers; bad columns raise."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import scorekit as sk
from scorekit.stream import BinaryCurve, RegressionMoments, consume, read_chunks

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pv = pytest.importorskip("pyarrow.csv")


@pytest.fixture
def table():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 5003)
    p = np.round(rng.random(5003), 3)  # ties
    return pa.table({"y": y, "p": p, "t": p * 10 + rng.normal(size=5003)})


@pytest.mark.parametrize("fmt", ["parquet", "csv", "tsv", "jsonl"])
def test_chunks_equal_one_shot(tmp_path, table, fmt):
    path = tmp_path / f"data.{fmt}"
    if fmt == "parquet":
        pq.write_table(table, path, row_group_size=1000)
    elif fmt == "jsonl":
        lines = (
            f'{{"y": {a}, "p": {b!r}, "t": {c!r}}}'
            for a, b, c in zip(*table.to_pydict().values(), strict=True)
        )
        path.write_text("\n".join(lines) + "\n")
    else:
        pv.write_csv(
            table, path, write_options=pv.WriteOptions(delimiter="\t" if fmt == "tsv" else ",")
        )
    y, p, t = (table.column(c).to_numpy() for c in ("y", "p", "t"))
    chunks = read_chunks(path, ["y", "p"], chunk_rows=700)
    assert consume(BinaryCurve(), chunks).roc_auc() == sk.roc_auc(y, p)
    moments = consume(RegressionMoments(), read_chunks(path, ["t", "p"], chunk_rows=700))
    assert moments.r2() == pytest.approx(sk.r2(t, p), rel=1e-12)


def test_parquet_knows_its_chunk_count(tmp_path, table):
    path = tmp_path / "data.parquet"
    pq.write_table(table, path)
    assert operator.length_hint(read_chunks(path, ["y", "p"], chunk_rows=1000)) == 6
    assert len(list(read_chunks(path, ["y", "p"], chunk_rows=1000))) == 6


def test_progress_bar_goes_to_stderr(tmp_path, table, capsys):
    pytest.importorskip("rich")
    from scorekit.cli._progress import ChunkBar

    path = tmp_path / "data.parquet"
    pq.write_table(table, path)
    with ChunkBar("BinaryCurve") as bar:
        acc = consume(BinaryCurve(), read_chunks(path, ["y", "p"], chunk_rows=1000), progress=bar)
    assert acc.roc_auc() == sk.roc_auc(table.column("y").to_numpy(), table.column("p").to_numpy())
    out, err = capsys.readouterr()
    assert out == ""
    assert "BinaryCurve" in err


def test_unknown_column_lists_the_columns(tmp_path, table):
    path = tmp_path / "data.parquet"
    pq.write_table(table, path)
    with pytest.raises(
        sk.ParameterError, match=r"columns \['label'\] are not in .* it has y, p, t"
    ):
        read_chunks(path, ["label", "p"])
    csv = tmp_path / "data.csv"
    pv.write_csv(table, csv)
    with pytest.raises(sk.ParameterError, match=r"columns \['label'\] are not in"):
        list(read_chunks(csv, ["label", "p"]))


def test_bad_arguments(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_chunks(tmp_path / "missing.csv", ["y"])
    (tmp_path / "x.csv").write_text("y\n1\n")
    with pytest.raises(sk.ParameterError, match="chunk_rows"):
        read_chunks(tmp_path / "x.csv", ["y"], chunk_rows=0)
    with pytest.raises(sk.ParameterError, match="columns"):
        read_chunks(tmp_path / "x.csv", "y")
