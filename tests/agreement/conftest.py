"""Fixtures the ``lars agree --partitions`` tests share (test_agree_partitions, test_agree_remote)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def csrbench_file(tmp_path_factory) -> Path:
    """CSRBench's stream as one timestamped N-Triples file (round 0 of the replay benchmark)."""
    path = tmp_path_factory.mktemp("csrbench") / "stream.nt"
    subprocess.run([sys.executable, ROOT / "benchmarks" / "replay_csrbench.py", "15188", path],
                   check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return path
