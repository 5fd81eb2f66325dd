"""Table columns reach NumPy from their buffers: equal values, and pandas is not imported."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

from scorekit.cli._io import _fixed_width  # noqa: E402


@pytest.mark.parametrize(
    "kind",
    [pa.int8(), pa.int32(), pa.int64(), pa.uint16(), pa.uint64(), pa.float32(), pa.float64()],
)
def test_fixed_width_columns_equal_pyarrow_to_numpy(kind):
    rng = np.random.default_rng(0)
    values = (rng.random(50) * 100).astype(kind.to_pandas_dtype())
    # sliced chunks (an offset into the buffer), an empty chunk, several chunks
    col = pa.chunked_array(
        [pa.array(values[:20], kind).slice(3, 10), pa.array([], kind), pa.array(values[20:], kind)]
    )
    got = _fixed_width(col)
    np.testing.assert_array_equal(got, col.to_numpy())
    assert got.dtype == col.to_numpy().dtype


def test_nulls_and_other_types_take_pyarrows_path():
    assert _fixed_width(pa.chunked_array([pa.array([1, None])])) is None
    assert _fixed_width(pa.chunked_array([pa.array(["a"])])) is None
    assert _fixed_width(pa.chunked_array([pa.array([True])])) is None


def test_classify_reads_a_csv_without_importing_pandas(tmp_path):
    data = tmp_path / "p.csv"
    data.write_text("y,p\n" + "".join(f"{i % 2},{(i % 7) / 7}\n" for i in range(40)))
    code = (
        "import sys; from scorekit.cli.__main__ import main; sys.argv = ['scorekit', 'classify', "
        f"{str(data)!r}, '--true', 'y', '--score', 'p', '--format', 'json']; rc = main(); "
        "print('PANDAS' if 'pandas' in sys.modules else 'NO-PANDAS', rc)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip().endswith("NO-PANDAS 0"), proc.stdout + proc.stderr
