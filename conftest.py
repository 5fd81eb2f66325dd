"""Root test configuration: the one local Spark session shared by tests/spark and the doctests.

Starting a JVM costs seconds, so one ``local[2]`` session (small memory, UI
and progress bars off, few shuffle partitions) serves the whole test run; it
is created on first use and stopped at the end. The Spark tests skip, saying
why, only when no Java runtime is installed.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from _pytest.doctest import DoctestItem


def _java() -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return os.path.join(home, "bin", "java")
    return shutil.which("java")


@pytest.fixture(scope="session")
def spark_session() -> Iterator[Any]:
    """The shared local[2] Spark session (skips when pyspark or Java is missing)."""
    sql = pytest.importorskip("pyspark.sql", reason="pyspark is not installed (dev extra)")
    if _java() is None:
        pytest.skip(
            "no Java runtime (no java on PATH, JAVA_HOME unset): the Spark tests need one "
            "(Debian: apt-get install openjdk-17-jre-headless; .ci/run installs it)"
        )
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers import this scorekit
    session = (
        sql.SparkSession.builder.master("local[2]")
        .appName("scorekit-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "512m")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.python.worker.reuse", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(autouse=True)
def _spark_for_doctests(request: pytest.FixtureRequest) -> None:
    """The doctests of ``scorekit.spark`` find the shared session as ``spark``."""
    item = request.node
    if isinstance(item, DoctestItem) and item.name.startswith("scorekit.spark"):
        namespace = request.getfixturevalue("doctest_namespace")
        namespace["spark"] = request.getfixturevalue("spark_session")
