"""The one options model of the ``lars`` command: a parsed command line → :class:`Options`.

Every subcommand's options are declared in :mod:`agreement.cli.app` (and its ``check``,
``witness`` and ``events`` parts) with the ``dest`` of the field they set in
:mod:`agreement.options`; :func:`options_of` builds the option objects from them once, the same
way for every subcommand, and the command hands them to the façade. Options that only shape
what a command prints (``--format``, ``--output``, ``--quiet`` …) stay on the namespace.

Adding an option: see :mod:`agreement.options` (a field, the argparse option with that
``dest``, a row of ``docs/options.md``); nothing changes here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agreement.options import Options, option_names

PATHS = ("background", "csparql")
"""Options naming a file that the façade would also take as text: the command line's are paths."""


def options_of(args: argparse.Namespace) -> Options:
    """The :class:`Options` of a parsed command line: each option whose ``dest`` is a field."""
    values = {}
    for name in option_names():
        if hasattr(args, name):
            value = getattr(args, name)
            if isinstance(value, list):
                value = tuple(value)
            if name in PATHS and value is not None:
                value = Path(value)
            values[name] = value
    return Options.of(**values)


class Notes:
    """Warnings and notes for stderr, each printed once per run of ``lars`` however many times
    it is reported (by each variant of a check, each reading of the stream …)."""

    def __init__(self) -> None:
        self.shown: set[str] = set()

    def clear(self) -> None:
        """Start a new run: nothing shown yet."""
        self.shown.clear()

    def show(self, lines) -> None:
        for line in lines:
            if line not in self.shown:
                self.shown.add(line)
                print(line, file=sys.stderr)


NOTES = Notes()
"""The notes of this run (:func:`agreement.cli.app.main` starts it afresh)."""
