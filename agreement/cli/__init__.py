"""The ``lars`` command: the only place that reads ``sys.argv``, prints results and exits.

Read first: :mod:`agreement.cli.app` (the argument parser, ``main``, exit codes), then
:mod:`agreement.cli.commands` (one function per subcommand, each a call of the façade
:mod:`agreement.facade` plus printing).

Imports: everything below it; nothing imports this package but the console script.
"""

from agreement.cli.app import console, main

__all__ = ["console", "main"]
