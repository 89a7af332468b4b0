"""Every example of every ``lars COMMAND --help`` runs, and prints what its ``->`` line says
(issue 25: ``lars check --help`` described output the command no longer printed).

An example is a line ``  lars …`` of a subcommand's epilog (continued by a trailing ``\\``),
run from the folder its heading names (``examples (from examples/coupons/rdf)``, else the
repository), ``> FILE`` written by the test to a temporary file. The ``->`` line under it says
what it prints: a verdict word the output starts with (``CORRECT``, ``DISAGREE`` …), ``exit N``,
and fragments in backquotes that the output (or the file) holds.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from agreement.cli.app import build_parser, main
from agreement.cli.optionstable import COMMANDS, subparsers

ROOT = Path(__file__).resolve().parents[2]


def examples(command: str) -> list[tuple[str, str, str]]:
    """``(folder, command line, what it prints)`` of each example in ``command``'s epilog."""
    epilog = subparsers(build_parser())[command].epilog or ""
    where = re.search(r"\(from ([^)]+)\)", epilog)
    folder = where.group(1) if where else "."
    lines = epilog.replace("\\\n", " ").splitlines()
    found = []
    for index, line in enumerate(lines):
        if line.startswith("  lars "):
            described = []
            for after in lines[index + 1:]:
                if after.startswith("  ->") or (described and after.startswith("     ")):
                    described.append(after.strip())
                else:
                    break
            found.append((folder, line.split("#")[0].strip(), " ".join(described)))
    return found


CASES = [pytest.param(command, *example, id=f"{command}-{n}")
         for command in COMMANDS for n, example in enumerate(examples(command))]


def test_every_command_has_an_example_with_its_output_described():
    assert {case.values[0] for case in CASES} == set(COMMANDS)
    assert all(case.values[3].startswith("->") for case in CASES)


@pytest.mark.parametrize(("command", "folder", "line", "described"), CASES)
def test_the_example_prints_what_it_says(capsys, monkeypatch, tmp_path, command, folder, line,
                                         described):
    monkeypatch.chdir(ROOT / folder)
    words = shlex.split(line)[1:]
    target = None
    if ">" in words:
        at = words.index(">")
        target, words = tmp_path / words[at + 1], words[:at]
    status = main(words)
    out = capsys.readouterr().out
    if target is not None:
        target.write_text(out, encoding="utf-8")
    verdict = re.match(r"->\s+([A-Z]+)\b", described)
    exit_status = re.search(r"\bexit (\d)", described)
    assert exit_status is not None, f"say the exit status of: {line}"
    assert status == int(exit_status.group(1)), out
    if verdict is not None:
        assert out.startswith(verdict.group(1) + ":"), out[:200]
    flat = " ".join(out.split())
    for fragment in re.findall(r"`([^`]+)`", described):
        assert " ".join(fragment.split()) in flat, (fragment, out[:500])
