"""The table of ``docs/options.md``: every option of ``lars`` and the commands that take it,
read from the argparse parsers themselves (``tests/cli/test_options_doc.py`` fails when the
page and the parsers differ; ``python -m agreement.cli.optionstable`` prints the table anew).

A row per option: the commands that take it (an event query is read by ``translate``, ``run``
and ``agree``; the options those commands refuse for it are in
:data:`agreement.cli.events.NOT_FOR_EVENTS`), the field of :mod:`agreement.options` it sets
(empty for an option that only shapes what a command prints), and its help.
"""

from __future__ import annotations

import argparse

from agreement.cli.app import build_parser
from agreement.cli.events import NOT_FOR_EVENTS
from agreement.options import option_names

COMMANDS = ("translate", "run", "agree", "check", "witness", "replay")
EVENT_COMMANDS = ("translate", "run", "agree")


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser of each subcommand, by name."""
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def option_rows() -> list[tuple[str, dict[str, bool], bool, str, str]]:
    """``(option, {command: takes it}, event queries take it, field, help)`` for every option."""
    commands = subparsers(build_parser())
    found: dict[str, tuple[argparse.Action, set[str]]] = {}
    for name in COMMANDS:
        for action in commands[name]._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            flag = max(action.option_strings, key=len)
            found.setdefault(flag, (action, set()))[1].add(name)
    fields = option_names()
    rows = []
    for flag in sorted(found):
        action, names = found[flag]
        events = bool(names & set(EVENT_COMMANDS)) and action.dest not in NOT_FOR_EVENTS
        field = f"{fields[action.dest]}.{action.dest}" if action.dest in fields else ""
        text = " ".join((action.help or "").replace("%(default)s", str(action.default)).split())
        rows.append((flag, {n: n in names for n in COMMANDS}, events, field, text.replace("|", "\\|")))
    return rows


def table() -> str:
    """The Markdown table of :func:`option_rows`."""
    head = "| option | " + " | ".join(COMMANDS) + " | event queries | field | meaning |"
    lines = [head, "|" + "---|" * (len(COMMANDS) + 4)]
    for flag, takes, events, field, text in option_rows():
        marks = " | ".join("✓" if takes[n] else "" for n in COMMANDS)
        lines.append(f"| `{flag}` | {marks} | {'✓' if events else ''} | "
                     f"{f'`{field}`' if field else ''} | {text} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(table(), end="")
