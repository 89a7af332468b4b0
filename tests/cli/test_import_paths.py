"""What each ``lars`` command loads on the bundled CSRBench data (issue 29, the fixed import cost):
none of the modules another command, or an option it was not given, needs. Each list names
modules that the command loaded before issue 29 and never used (found by tracing which modules
had a function called), so the test fails if one of them comes back into the command's path.

Each command runs in a fresh interpreter (this test session has imported everything); the
guard test shows that the check sees a module a command does load.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUERIES = ROOT / "examples" / "csrbench" / "queries"
STREAM = ROOT / "examples" / "csrbench" / "stream"
RECORDING = ROOT / "examples" / "csrbench" / "engine-answers" / "csparql-answer-1.json"

PARTITIONS = ("solver.partition", "agreement.agree.rangecheck", "multiprocessing",
              "concurrent.futures")
"""Worker pools and Spark ranges: ``--partitions`` only."""
AGREE = ("agreement.agree.plan", "agreement.agree.streaming", "agreement.agree.arrivals",
         "agreement.agree.reportwriter", "agreement.notebook.checkview")
"""``lars agree``'s interval check and report, and the notebook's view of it."""
RECORDED = ("agreement.recorded", "ingest.recordedjson", "agreement.check")
"""Recorded answers (``--recorded-*``, ``lars check``) and the judge's expected runs."""
SOLVER = ("clingo", "solver.strategies", "solver.symbols", "agreement.runplan", "solver.progress")
"""The solver and its answers: not for printing a translation (``--syntax asp`` loads clingo)."""
READERS = ("ingest.lazy", "ingest.rdffiles", "ingest.larsfile", "pyoxigraph")
"""The stream and static data readers: not for printing a translation."""
ON_DEMAND = ("regex", "tomllib")
"""Only for a query with REGEX or REPLACE, and for a profile given as a .toml file."""

COMMANDS = {
    "translate": (["translate", str(QUERIES / "q1-cqels.rq")],
                  PARTITIONS + AGREE + RECORDED + SOLVER + READERS + ON_DEMAND),
    "run": (["run", str(QUERIES / "q1-cqels.rq"), "--stream", str(STREAM), "--quiet",
             "--output", "-"], PARTITIONS + AGREE + RECORDED + ON_DEMAND + ("ingest.larsfile",)),
    "agree": (["agree", str(QUERIES / "q1-cqels.rq"), "--csparql", str(QUERIES / "q1-csparql.rq"),
               "--stream", str(STREAM), "--period", "10s"],
              PARTITIONS + RECORDED + ON_DEMAND + ("agreement.notebook", "ingest.larsfile", "lars.parser",
                                                   "translate.reports")),
    "check": (["check", str(QUERIES / "q1-csparql.rq"), "--stream", str(STREAM), "--answers",
               str(RECORDING), "--profile", "csparql"],
              PARTITIONS + AGREE + ON_DEMAND + ("ingest.larsfile", "ingest.ranges")),
}
"""Each command on the bundled data, and what it must not load."""


def loaded(argv: list[str]) -> tuple[set[str], int]:
    """The modules in ``sys.modules`` after ``lars ARGV`` ran in a fresh interpreter, and its exit
    status (its output discarded)."""
    code = ("import contextlib, io, json, sys\n"
            "from agreement.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    status = main({argv!r})\n"
            "print(json.dumps([status, sorted(sys.modules)]))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    status, modules = json.loads(run.stdout)
    return set(modules), status


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(name for name in names if any(m == name or m.startswith(name + ".") for m in modules))


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_loads_no_other_commands_machinery(command):
    argv, never = COMMANDS[command]
    modules, status = loaded(argv)
    assert status in (0, 1)  # the command ran (agree's q1 pair disagrees: 1)
    assert present(modules, never) == []


def test_the_guard_sees_what_a_command_loads():
    """The same check on what ``lars run`` needs: the solver, the readers, clingo."""
    modules, status = loaded(COMMANDS["run"][0])
    assert status == 0
    assert present(modules, SOLVER + ("ingest.lazy", "pyoxigraph")) == sorted(
        SOLVER + ("ingest.lazy", "pyoxigraph"))


def test_asp_syntax_loads_the_encoder():
    """``--syntax asp`` prints clingo's encoding: the one translation that loads the solver's
    encoder (and with it clingo), on demand."""
    modules, status = loaded(COMMANDS["translate"][0] + ["--syntax", "asp"])
    assert status == 0
    assert present(modules, ("solver.encode", "clingo")) == ["clingo", "solver.encode"]


def test_regex_is_loaded_for_a_query_that_uses_it(tmp_path):
    """A REGEX filter loads the ``regex`` module on demand, and still answers (issue 28's budget)."""
    query = tmp_path / "q.rq"
    query.write_text('PREFIX : <http://ex.org/> SELECT ?s WHERE { ?s :p ?o FILTER REGEX(STR(?o), "^a") }')
    data = tmp_path / "static.nt"
    data.write_text('<http://ex.org/x> <http://ex.org/p> "abc" .\n<http://ex.org/y> <http://ex.org/p> "bcd" .\n')
    modules, status = loaded(["run", str(query), "--static", str(data), "--format", "csv"])
    assert status == 0
    assert present(modules, ("regex",)) == ["regex"]


OURS = ("agreement", "ingest", "solver", "translate", "lars")


def imported_late(argv: list[str]) -> list[str]:
    """Our modules that ``lars ARGV`` imported after :func:`agreement.cli.app.implementation`
    returned its handler, that is while the command ran, with the garbage collector running."""
    code = ("import contextlib, io, json, sys\n"
            "import agreement.cli.app as app\n"
            "found, loaded = app.implementation, {}\n"
            "def implementation(reference):\n"
            "    handler = found(reference)\n"
            "    loaded['before'] = set(sys.modules)\n"
            "    return handler\n"
            "app.implementation = implementation\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    app.main({argv!r})\n"
            "print(json.dumps(sorted(set(sys.modules) - loaded['before'])))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    return [name for name in json.loads(run.stdout) if name.split(".")[0] in OURS]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_imports_its_machinery_with_its_handler(command):
    """What a command imports inside its functions is named in its module's ``LOADS`` and
    imported with the handler, the collector paused: importing it while the command ran cost
    ``lars agree`` on CSRBench q1 half as many instructions again (collections scanning the
    new modules' objects)."""
    assert imported_late(COMMANDS[command][0]) == []
