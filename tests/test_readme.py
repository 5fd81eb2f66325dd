"""The README's Python examples run, in order, as one session."""

from __future__ import annotations

import re

from conftest import ROOT


def test_readme_python_blocks_run(capsys):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    assert "y_score contains 1 NaN" in capsys.readouterr().out
