"""Shared fixtures: one Spark session for the whole test run, and the hypothesis CI profile."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=200)
if os.environ.get("CI"):
    settings.load_profile("ci")

SPARK_MASTER = "local[2]"


@pytest.fixture(scope="session")
def spark_master():
    """The master of the one Spark session all ``spark`` tests share (started once, stopped at the end).

    Skipped when pyspark is not installed.
    """
    pytest.importorskip("pyspark")
    from solver import slicing
    with slicing.spark_session(SPARK_MASTER):
        yield SPARK_MASTER
    slicing.stop_spark()
