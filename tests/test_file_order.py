"""The order test files run in (the root ``conftest.py``): the files ``tests/durations.txt``
records, longest first, then the others with the most tests first; a file's tests together and
in their order. And ``--record-durations``: the table rewritten from a run's reports, keeping
the files the run did not time."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def order(tmp_path, monkeypatch):
    """The root conftest as a module, reading and writing its table in ``tmp_path``."""
    spec = importlib.util.spec_from_file_location("root_conftest_under_test", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "DURATIONS", tmp_path / "durations.txt")
    return module


def items(*nodeids: str) -> list:
    return [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]


def test_recorded_files_first_longest_first_then_most_tests_first(order):
    order.DURATIONS.write_text("# a comment\n   12.5 tests/b.py\n  300.0 tests/d.py\n")
    collected = items("tests/a.py::t1", "tests/b.py::t1", "tests/c.py::t1", "tests/c.py::t2[x::y]",
                      "tests/d.py::t1", "tests/b.py::t2", "lars/e.py::lars.e", "tests/a.py::t2",
                      "tests/f.py::t1")
    order.pytest_collection_modifyitems(collected)
    assert [i.nodeid for i in collected] == [
        "tests/d.py::t1", "tests/b.py::t1", "tests/b.py::t2",  # recorded: 300 s, 12.5 s
        "tests/a.py::t1", "tests/a.py::t2", "tests/c.py::t1", "tests/c.py::t2[x::y]",  # two tests each
        "lars/e.py::lars.e", "tests/f.py::t1"]  # one test each, in collection order


def test_without_a_table_files_with_the_most_tests_come_first(order):
    collected = items("tests/a.py::t1", "tests/b.py::t1", "tests/b.py::t2")
    order.pytest_collection_modifyitems(collected)
    assert [i.nodeid for i in collected] == ["tests/b.py::t1", "tests/b.py::t2", "tests/a.py::t1"]


def test_recording_adds_each_files_phases_and_keeps_the_files_not_run(order):
    order.DURATIONS.write_text("    50.0 tests/kept.py\n    40.0 tests/now_fast.py\n    9.0 tests/a.py\n")
    recorder = order.DurationRecorder()
    for nodeid, seconds in [("tests/a.py::t1", 1.5), ("tests/a.py::t1", 0.25), ("tests/a.py::t2[p::q]", 1.0),
                            ("tests/now_fast.py::t", 0.5), ("tests/new.py::t", 70.0)]:
        recorder.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=seconds))
    recorder.pytest_sessionfinish()
    assert order.recorded_seconds() == {"tests/new.py": 70.0, "tests/kept.py": 50.0, "tests/a.py": 2.8}
    lines = [line for line in order.DURATIONS.read_text().splitlines() if not line.startswith("#")]
    assert [line.split()[1] for line in lines] == ["tests/new.py", "tests/kept.py", "tests/a.py"]
