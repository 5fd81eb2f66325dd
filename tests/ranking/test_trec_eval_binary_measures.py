"""yaap, set_F.1,2 and one name printed twice, against the trec_eval 10.0 binary (when built)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from scorekit.ranking import Qrels, Run, evaluate

BINARY = Path.home() / ".cache" / "scorekit" / "trec_eval" / "trec_eval"
pytestmark = pytest.mark.skipif(
    not BINARY.exists(), reason=f"trec_eval 10.0 is not built at {BINARY}"
)
MEASURES = ["yaap", "set_F.1,2", "iprec_at_recall.0.333,0.334", "map"]


def _case(seed, tmp_path):
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(int(rng.integers(1, 6))):
        docs = [f"d{i}" for i in range(int(rng.integers(1, 15)))]
        for d in docs:
            if rng.random() < 0.7:
                qrels.append(f"{q} 0 {d} {int(rng.integers(-1, 4))}")
            if rng.random() < 0.8:
                run.append(f"{q} Q0 {d} 0 {int(rng.integers(0, 5))} tag")
    if not run:
        run.append("0 Q0 d0 0 1 tag")
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("\n".join(qrels) + "\n")
    rp.write_text("\n".join(run) + "\n")
    return qp, rp


@pytest.mark.parametrize("seed", range(25))
def test_text_equals_trec_eval(seed, tmp_path):
    qp, rp = _case(seed, tmp_path)
    args = [str(BINARY), "-q"] + [f"-m{m}" for m in MEASURES] + [str(qp), str(rp)]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0 or "nan" in done.stdout:
        pytest.skip("trec_eval rejects this case")
    result = evaluate(Qrels.from_trec(qp), Run.from_trec(rp), MEASURES, per_query=True)
    assert result.to_trec_eval() == done.stdout
