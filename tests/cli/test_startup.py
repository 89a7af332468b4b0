"""What the ``lars`` command loads (issue 17, start-up cost): building its parser loads none of
the modules behind the options, and each subcommand loads its own implementation only. Each
check runs in a fresh interpreter, since this test session has imported everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons"
CSRBENCH = ROOT / "examples" / "csrbench"

NEVER = ("networkx", "pyspark", "pyarrow", "pandas", "matplotlib", "agreement.witness.find",
         "agreement.witness.search", "agreement.check.judge", "agreement.notebook.eventviews",
         "agreement.notebook.plots", "agreement.events.compare", "translate.eventrules")
"""Loaded by no command below (the witness search, the judge, event queries and plots are
other commands' or the notebooks'; Spark only with --spark or --partitions)."""
PARSER_ONLY = NEVER + ("rdflib", "clingo", "agreement.facade", "agreement.cli.commands",
                       "translate.engines", "solver.strategies", "ingest.lazy")
"""Not loaded by importing the command, nor by ``--help``."""


def loaded(statement: str) -> set[str]:
    """The modules in ``sys.modules`` after ``statement`` ran in a fresh interpreter (its own
    output discarded, exit status ignored)."""
    code = ("import contextlib, io, json, sys\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    try:\n        {statement}\n    except SystemExit:\n        pass\n"
            "print(json.dumps(sorted(sys.modules)))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    return set(json.loads(run.stdout))


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(name for name in names if any(m == name or m.startswith(name + ".") for m in modules))


@pytest.mark.parametrize("statement", [
    pytest.param("import agreement.cli", id="import"),
    pytest.param("from agreement.cli import main; main(['--help'])", id="help"),
    pytest.param("from agreement.cli import main; main(['run', '--help'])", id="run-help"),
    pytest.param("from agreement.cli import main; main(['check', '--help'])", id="check-help"),
    pytest.param("from agreement.cli import main; main(['witness', '--help'])", id="witness-help"),
])
def test_the_parser_loads_nothing_behind_its_options(statement):
    assert present(loaded(statement), PARSER_ONLY) == []


@pytest.mark.parametrize("argv", [
    pytest.param(["run", str(COUPONS / "program.lars"), "--stream", str(COUPONS / "stream.txt"),
                  "--background", str(COUPONS / "background.lars")], id="run-program"),
    pytest.param(["translate", str(CSRBENCH / "queries" / "q1-cqels.rq")], id="translate"),
    pytest.param(["agree", str(CSRBENCH / "queries" / "q1-cqels.rq"), "--csparql",
                  str(CSRBENCH / "queries" / "q1-csparql.rq"), "--stream",
                  str(CSRBENCH / "stream"), "--period", "10s", "--format", "json"], id="agree"),
])
def test_a_command_loads_only_what_it_runs(argv):
    assert present(loaded(f"from agreement.cli import main; main({argv!r})"), NEVER) == []


def test_the_guard_sees_a_module_loaded():
    assert "agreement.witness.find" in present(loaded("import agreement.witness.find"), NEVER)


def test_every_subcommand_names_an_implementation():
    from agreement.cli.app import build_parser, implementation
    parser = build_parser()
    [commands] = [a for a in parser._actions if a.dest == "command"]
    for name, subparser in commands.choices.items():
        assert callable(implementation(subparser.get_default("handler"))), name
