"""Large inputs are read chunk by chunk when every metric asked for is mergeable (issue 13)."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

import scorekit as sk
from scorekit.cli._commands import run
from scorekit.stream import _files


def _json(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert run(argv) == 0
    return json.loads(out.getvalue())


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 5000)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(5000), 0, 1), 3)
    t = rng.normal(size=5000)
    path = tmp_path / "d.csv"
    path.write_text("y,p,h,t,r\n" + "".join(
        f"{a},{b},{int(b >= 0.5)},{c},{c + b}\n" for a, b, c in zip(y, p, t, strict=True)))  # fmt: skip
    return path, y, p, t


def test_mergeable_metrics_stream_and_equal_the_in_memory_values(table, monkeypatch):
    path, y, p, t = table
    opened = []
    original = _files.read_chunks.__init__

    def spy(self, *args, **kwargs):
        opened.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(_files.read_chunks, "__init__", spy)
    got = _json(["classify", str(path), "--true", "y", "--score", "p", "-m", "roc_auc,log_loss,ks_statistic", "--format", "json-flat", "-Q"])  # fmt: skip
    assert opened  # read through read_chunks
    assert got == {
        "roc_auc": sk.roc_auc(y, p),
        "log_loss": sk.log_loss(y, p),
        "ks_statistic": sk.ks_statistic(y, p),
    }
    reg = _json(["regress", str(path), "--true", "t", "--pred", "r", "-m", "mae,r2", "--format", "json-flat", "-Q"])  # fmt: skip
    assert reg == {"mae": sk.mae(t, t + p), "r2": sk.r2(t, t + p)}
    labels = _json(["classify", str(path), "--true", "y", "--pred", "h", "-m", "f1_macro,accuracy", "--format", "json-flat", "-Q"])  # fmt: skip
    h = (p >= 0.5).astype(int)
    assert labels == {"f1_macro": sk.f1(y, h, average="macro"), "accuracy": sk.accuracy(y, h)}


def test_other_requests_read_the_file_whole(table, monkeypatch):
    path, y, p, _ = table
    opened = []
    monkeypatch.setattr(_files.read_chunks, "__init__", lambda self, *a, **k: opened.append(a))
    got = _json(["classify", str(path), "--true", "y", "--score", "p", "-m", "brier_score", "--format", "json-flat", "-Q"])  # fmt: skip
    assert got == {"brier_score": sk.brier_score(y, p)}
    assert not opened  # brier_score has no accumulator
