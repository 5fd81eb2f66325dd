"""Build (once, cached outside the repository) the trec_eval 10.0 C binary from its source tarball.

The tarball is ``shared/reference/trec_eval-v10.0.tar.gz`` in a parent folder of
the repository (``../shared/reference/`` next to a checkout). The binary is
built with ``make`` into ``~/.cache/scorekit/trec_eval-build/<tarball digest>/``
(or ``$SCOREKIT_CACHE``), in a temporary folder renamed into place, so
concurrent test sessions never see half a build.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

TARBALL = "trec_eval-v10.0.tar.gz"
ROOT = Path(__file__).resolve().parents[2]


def find_tarball() -> Path | None:
    """``shared/reference/trec_eval-v10.0.tar.gz`` in the nearest parent folder that has it."""
    for parent in ROOT.parents:
        path = parent / "shared" / "reference" / TARBALL
        if path.is_file():
            return path
    return None


def cache_dir() -> Path:
    base = os.environ.get("SCOREKIT_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "scorekit"


def build() -> tuple[Path | None, str]:
    """(path of the binary, "") or (None, why it cannot be built)."""
    tarball = find_tarball()
    if tarball is None:
        return None, f"the trec_eval source ({TARBALL}) is not in ../shared/reference/"
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()[:16]
    target = cache_dir() / "trec_eval-build" / digest
    binary = target / "trec_eval"
    if binary.is_file():
        return binary, ""
    if shutil.which("make") is None or not (shutil.which("cc") or shutil.which("gcc")):
        return None, "no C compiler (cc/gcc) and make to build trec_eval 10.0"
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=target.parent, prefix="build-"))
    try:
        with tarfile.open(tarball) as tar:
            tar.extractall(work, filter="data")
        source = next(p.parent for p in work.rglob("trec_eval.c"))
        done = subprocess.run(["make", "-s"], cwd=source, capture_output=True, text=True)
        if done.returncode != 0 or not (source / "trec_eval").is_file():
            return None, f"building trec_eval failed: {done.stderr.strip()[-300:]}"
        with contextlib.suppress(OSError):  # another session finished first
            os.replace(source, target)
        return (binary, "") if binary.is_file() else (None, "the trec_eval build vanished")
    finally:
        shutil.rmtree(work, ignore_errors=True)
