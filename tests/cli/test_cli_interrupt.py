"""Ctrl-C at any moment of the command, start-up included: one line, exit 130, no traceback."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = shutil.which("scorekit") or str(Path(sys.executable).with_name("scorekit"))


@pytest.mark.skipif(
    not Path(SCRIPT).exists(), reason="the scorekit console script is not installed"
)
@pytest.mark.parametrize("delay", [0.3, 0.6, 1.0])  # after the interpreter itself started
def test_interrupt_during_start_up_is_one_line(delay, tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("y,p\n" + "".join(f"{i % 2},{(i % 7) / 7}\n" for i in range(200)))
    proc = subprocess.Popen(
        [SCRIPT, "classify", str(data), "--true", "y", "--score", "p", "-Q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
    if proc.returncode != 0:  # the command may have finished before the signal
        assert proc.returncode == 130, err
        assert err.strip().splitlines() == ["scorekit: error: interrupted"]
