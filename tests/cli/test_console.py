"""The ``lars`` console command (``agreement.cli:console``): :func:`main`, then an exit that skips
the interpreter's last collection (``gc.freeze``). What it writes and its exit status must be
those of :func:`main`: the freeze must not lose buffered output or change a status."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
CONSOLE = "from agreement.cli import console; console()"


def console(*argv: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", CONSOLE, *argv], capture_output=True, text=True,
                          env=environment, cwd=ROOT, timeout=300)


def test_the_installed_command_is_the_console_entry():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"lars": "agreement.cli:console"}


def test_console_writes_what_main_writes_to_a_file_and_exits_alike(tmp_path, capsys):
    query = CSRBENCH / "queries" / "q1-cqels.rq"
    stream = CSRBENCH / "stream"
    by_console, by_main = tmp_path / "console.txt", tmp_path / "main.txt"
    done = console("run", str(query), "--stream", str(stream), "--quiet", "--output", str(by_console))
    status = main(["run", str(query), "--stream", str(stream), "--quiet", "--output", str(by_main)])
    capsys.readouterr()
    assert done.returncode == status == 0
    assert by_console.read_text() == by_main.read_text() != ""


def test_console_exits_with_mains_status_on_bad_input(tmp_path):
    bad = tmp_path / "bad.rq"
    bad.write_text("SELECT ?x WHERE { ?x ")
    done = console("translate", str(bad))
    assert done.returncode == 2 and "bad.rq:1:" in done.stderr
