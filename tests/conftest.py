"""Shared fixtures: one Spark session for the whole test run, and the hypothesis CI profile."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# No deadlines: solver calls vary with machine load, and a deadline miss is not a wrong answer.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, max_examples=200)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

SPARK_MASTER = "local[2]"


@pytest.fixture(scope="session")
def spark_master():
    """The master of the one Spark context all ``spark`` tests share (started once, stopped at the end).

    Skipped when pyspark is not installed.
    """
    pytest.importorskip("pyspark")
    from solver import spark
    with spark.spark_context(SPARK_MASTER):
        yield SPARK_MASTER
    spark.stop_spark()
