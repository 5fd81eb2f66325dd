"""``scorekit rank`` against the trec_eval 10.0 C binary, byte for byte, on random adversarial files.

The binary is built once from ``../shared/reference/trec_eval-v10.0.tar.gz``
(:mod:`trec_eval_binary`; skipped with the reason where it cannot be). Each
case writes a random qrels and run — ties, graded and negative grades, queries
only in one file, long and numeric-looking ids, comments-free, no duplicate
documents — and runs both programs with random flags (-q -n -c -l -M -J -N and
-m lists). Inputs where trec_eval itself is undefined are not generated; they
are listed in docs/why-tools-disagree.md ("trec_eval's own defects"):

- a query whose judgments are all negative (``rel_levels`` sized ``max_rel + 1``);
- rbp with gains outside [0, 1] (``min``/``max`` read uninitialised, m_rbp.c);
- fractional gain parameters (``comp_rel_gain`` truncates differences, gain_init.c);
- ``-l`` below 0 (``rel_levels[-1]`` read, form_res_rels.c);
- measures that print ``-nan`` (0/0: bpref, iprec_at_recall, ... of a query whose
  ranking ``-J``/``-M`` emptied; Rndcg with no positive ideal gain): compared
  line for line, those values are skipped (scorekit prints 0);
- ``-c``: the ``num_rel`` summary counts grades > 0 whatever ``-l`` is
  (m_num_rel.c), not the sum of its own per-query lines (scorekit: the sum);
- ``runid`` of a run none of whose queries is evaluated (``-c``): trec_eval
  prints uninitialised bytes;
- ``-c``: a query the run misses is scored on a placeholder document, whose
  values trec_eval.c then clears for the measures named exactly ``num_ret``,
  ``utility``, ``relstring``, ``unj*`` and ``rbp_resid``; with parameters
  (``relstring_5``, ``utility_1,-1,0,1``, ``rbp_resid_p=0.8``) the placeholder's
  values stay (``'-'``, -1, 1.0) and enter the summary.
"""

from __future__ import annotations

import contextlib
import io
import subprocess

import numpy as np
import pytest
from trec_eval_binary import build

from scorekit.cli._commands import run as cli

pytestmark = pytest.mark.reference

N_CASES = 60
MEASURES = [
    ["official"],
    ["all_trec"],
    ["P.1,3,7", "recall.2,5", "map_cut.3", "ndcg_cut.2,4"],
    ["ndcg_rel", "Rndcg", "ndcg", "ndcg.1=2,2=5,3=1"],
    ["Rprec_mult.0.5,1.0,2.0", "success.1,3", "11pt_avg", "infAP", "bpref"],
    ["utility.1,-1,0,1", "set_F", "set_P", "set_recall", "num_nonrel_judged_ret", "G", "binG"],
    ["relstring.5", "runid", "num_q", "gm_map", "Rprec", "recip_rank"],
    ["P.5", "P.2", "P"],  # trec_eval keeps the first parameter list of a family
]
BINARY_ONLY = ["rbp", "rbp.p=0.5", "rbp_resid", "rbp_resid.p=0.8"]  # gains within [0, 1]


@pytest.fixture(scope="module")
def trec_eval():
    binary, why = build()
    if binary is None:
        pytest.skip(f"trec_eval differential test skipped: {why}")
    return binary


def _ident(rng: np.random.Generator, prefix: str, i: int) -> str:
    kind = rng.integers(4)
    if kind == 0:
        return str(int(rng.integers(1, 30)))  # numeric: "10" sorts before "9"
    if kind == 1:
        return f"{prefix}{i}-" + "x" * int(rng.integers(20, 70))  # long ids
    return f"{prefix}{int(rng.integers(0, 40))}"


def _case(seed: int) -> tuple[str, str, list[str]]:
    rng = np.random.default_rng(seed)
    binary = rng.random() < 0.3
    grades = [-1, 0, 1] if binary else [-1, 0, 1, 2, 3, 4]
    queries = sorted({_ident(rng, "q", i) for i in range(int(rng.integers(1, 7)))})
    docs = sorted({_ident(rng, "d", i) for i in range(int(rng.integers(3, 25)))})
    complete = rng.random() < 0.4  # -c
    qrels_lines, run_lines = [], []
    for q in queries:
        judged_q = rng.random() < 0.85
        if judged_q:  # in the qrels (at least one grade >= 0)
            judged = rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False)
            g = rng.choice(grades, size=judged.size)
            g[0] = max(int(g[0]), 0)
            qrels_lines += [f"{q} 0 {d} {int(v)}" for d, v in zip(judged, g, strict=True)]
        # without -c, trec_eval 10.0 exits when a qrels query has no results (documented)
        if rng.random() < 0.85 or (judged_q and not complete):  # in the run
            got = rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False)
            levels = np.round(rng.normal(size=got.size) * rng.choice([0.5, 3, 30]), 1)
            for rank, (d, s) in enumerate(zip(got, levels, strict=True), 1):
                score = (
                    rng.choice([f"{s}", f"{s:.3e}", f"{int(s)}"]) if rng.random() < 0.2 else f"{s}"
                )
                run_lines.append(f"{q} Q0 {d} {rank} {score} tag{seed}")
    if not run_lines:  # an empty run: trec_eval -c scores it, scorekit refuses (documented)
        run_lines.append(f"{queries[0]} Q0 {docs[0]} 1 1.5 tag{seed}")
    if not qrels_lines:  # a judged query that the run has
        q = run_lines[0].split()[0]
        qrels_lines.append(f"{q} 0 {docs[0]} 1")
    rng.shuffle(run_lines)
    flags = ["-c"] if complete else []
    for flag, p in (("-q", 0.5), ("-J", 0.3), ("-n", 0.15)):
        if rng.random() < p:
            flags.append(flag)
    if rng.random() < 0.4:
        flags.append(f"-l{int(rng.integers(1, 4))}")
    if rng.random() < 0.4:
        flags += ["-M", str(int(rng.integers(1, 12)))]
    if rng.random() < 0.3:
        flags += ["-N", str(int(rng.integers(0, 500)))]
    if rng.random() < 0.15:
        flags.append("-l0")  # only with measures that stay defined: see the docstring
        measures = ["P.1,3", "map", "recall.5", "num_rel", "num_rel_ret", "bpref"]
    else:
        measures = list(MEASURES[int(rng.integers(len(MEASURES)))])
        if binary and "-l2" not in flags and "-l3" not in flags:
            measures += BINARY_ONLY
    for m in measures:
        flags += ["-m", m]
    return "\n".join(qrels_lines) + "\n", "\n".join(run_lines) + "\n", flags


def _scorekit(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(["rank", "--quiet", *args])
    return code, out.getvalue()


@pytest.mark.parametrize("seed", range(N_CASES))
def test_rank_output_is_trec_eval_byte_for_byte(trec_eval, tmp_path, seed):
    qrels, run, flags = _case(seed)
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    files = [str(tmp_path / "qrels"), str(tmp_path / "run")]
    expected = subprocess.run([str(trec_eval), *flags, *files], capture_output=True, timeout=60)
    assert expected.returncode == 0, expected.stderr
    code, got = _scorekit([*flags, *files])
    assert code == 0
    _same_output(expected.stdout, got, flags)


def _trec_eval_defect(name: str, qid: str, value: str, flags: list[str]) -> bool:
    """A line where trec_eval 10.0 prints an undefined value (see the module docstring)."""
    if value.strip() in ("-nan", "nan"):
        return True
    if name.strip() == "runid" and not value.isprintable():
        return True
    if "-c" in flags and name.startswith(("relstring_", "utility_", "rbp_resid_")):
        return True
    levels = [f[2:] for f in flags if f.startswith("-l")]
    level = levels[-1] if levels else "1"  # getopt: the last -l wins
    return name.strip() == "num_rel" and qid == "all" and "-c" in flags and level != "1"


def _same_output(expected: bytes, got: str, flags: list[str]) -> None:
    """Byte for byte, except the values of the lines where trec_eval itself is undefined."""
    text = expected.decode("utf-8", "surrogateescape")
    where = f"flags: {' '.join(flags)}"
    if text == got:
        return
    exp_lines, got_lines = text.splitlines(), got.splitlines()
    assert len(exp_lines) == len(got_lines), where
    for e, g in zip(exp_lines, got_lines, strict=True):
        e_name, e_qid, e_value = e.split("\t")
        if e != g:
            assert g.split("\t")[:2] == [e_name, e_qid], f"{where}: {g!r} != {e!r}"
            assert _trec_eval_defect(e_name, e_qid, e_value, flags), f"{where}: {g!r} != {e!r}"


def test_run_from_standard_input_as_trec_eval(trec_eval, tmp_path, monkeypatch):
    qrels, run, _ = _case(1000)
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    flags = ["-q", "-m", "all_trec"]
    expected = subprocess.run(
        [str(trec_eval), *flags, str(tmp_path / "qrels"), "-"],
        input=run.encode(),
        capture_output=True,
        timeout=60,
    )
    assert expected.returncode == 0, expected.stderr
    stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(run.encode())))  # type: ignore[arg-type]
    monkeypatch.setattr("sys.stdin", stdin)
    code, got = _scorekit([*flags, str(tmp_path / "qrels"), "-"])
    assert code == 0
    _same_output(expected.stdout, got, flags)
