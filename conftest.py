"""The order test files run in: longest first, by the seconds ``tests/durations.txt`` records.

The worker processes of ``scripts/test.sh`` (pytest-xdist, ``--dist loadfile``: a file's tests
in one worker; ``--no-loadscope-reorder``: files handed out in the order below) then finish
together instead of one running a long file alone at the end. xdist's own order, most tests
first, put a file of a few slow tests late: the Spark cluster's five tests (264 s) came 140th of
321 files, the fuzzer's one test (57 s) 239th. ``--record-durations`` rewrites the table from a
run. Here, at the root, so that it sees every collected item (the doctests of the packages too)
and its option is known whatever is run; the shared fixtures are in ``tests/conftest.py``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parent / "tests" / "durations.txt"
RECORDED_FROM = 2.0
"""Seconds a file must take to be recorded: shorter ones run after the recorded ones, as xdist
orders them, where they fill the gaps."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-durations", action="store_true",
                     help="write the seconds each test file of this run took into tests/durations.txt "
                          "(files this run did not run keep their line), for the order files run in")


def file_of(nodeid: str) -> str:
    """The file of a test id (``tests/x/test_y.py::test_z[a::b]`` → ``tests/x/test_y.py``)."""
    return nodeid.split("::", 1)[0]


def recorded_seconds() -> dict[str, float]:
    """``tests/durations.txt``: a file's path → the seconds it took (``# `` lines are comments)."""
    if not DURATIONS.exists():
        return {}
    lines = DURATIONS.read_text(encoding="utf-8").splitlines()
    return {path: float(seconds) for seconds, path in
            (line.split(maxsplit=1) for line in lines if line.strip() and not line.startswith("#"))}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files in decreasing recorded seconds, then the others as xdist would order them (most
    tests first); the tests of a file keep their order and stay together (module fixtures are
    set up once)."""
    seconds = recorded_seconds()
    first: dict[str, int] = {}
    tests: Counter[str] = Counter()
    for index, item in enumerate(items):
        first.setdefault(file_of(item.nodeid), index)
        tests[file_of(item.nodeid)] += 1

    def key(item: pytest.Item) -> tuple[float, int, int]:
        path = file_of(item.nodeid)
        return -seconds.get(path, 0.0), -tests[path], first[path]
    items.sort(key=key)


class DurationRecorder:
    """Adds up the setup, call and teardown seconds of each file's tests (in the controlling
    process under xdist, which receives every worker's reports) and writes them at the end."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self) -> None:
        table = {path: s for path, s in recorded_seconds().items() if path not in self.seconds}
        table.update((path, s) for path, s in self.seconds.items() if s >= RECORDED_FROM)
        header = ("# Seconds each test file took (setup, call and teardown of its tests, CI's hypothesis\n"
                  f"# profile), files of {RECORDED_FROM:g} s or more: conftest.py runs the longest first.\n"
                  "# Rewritten by: CI=1 bash scripts/test.sh --record-durations [FILES]\n")
        body = "".join(f"{s:8.1f} {path}\n" for path, s in sorted(table.items(), key=lambda e: (-e[1], e[0])))
        DURATIONS.write_text(header + body, encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("record_durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DurationRecorder(), "lars-duration-recorder")
