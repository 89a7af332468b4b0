"""Running ``lars`` on hostile input, in this process or as a child, and what a good refusal is.

A good outcome (issue 18): exit 0, or exit 2 with the error on stderr in one line that names
the file, never a traceback or ``internal error``; exit 130 and one line after Ctrl-C.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-c", "import sys; from agreement.cli.app import main; sys.exit(main())"]


def lars(*argv: str | os.PathLike) -> tuple[int, str, str]:
    """``lars ARGV`` in this process: exit status, stdout, stderr (argparse's exit 2 included)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(arg) for arg in argv])
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def child(*argv: str | os.PathLike, **options) -> subprocess.Popen:
    """``lars ARGV`` as a child process with pipes (for signals and closed pipes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([*COMMAND, *map(str, argv)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **options)


def lars_within(seconds: float, *argv: str | os.PathLike) -> tuple[int, str, str]:
    """``lars ARGV`` as a child process that must end within ``seconds`` of CPU time (its own
    and its children's): a command that works longer, or hangs, is a failure with a clear
    message (the child is killed), not a test run that never ends. CPU time, not wall time, so
    that the bound means the same on a machine shared with another test worker; the wall clock
    allows three times as much before it calls the command hung."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = child(*argv)
    command = f"lars {' '.join(map(str, argv))}"
    try:
        out, err = process.communicate(timeout=3 * seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"{command} did not end within {3 * seconds} s of wall time (it hangs)",
                    pytrace=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if used > seconds:
        pytest.fail(f"{command} took {used:.1f} s of CPU, more than {seconds} s", pytrace=False)
    return process.returncode, out, err


def assert_refused(status: int, err: str, names: str | os.PathLike | None = None) -> str:
    """Exit 2 with one error line (naming ``names`` if given); returns that line."""
    lines = err.strip().splitlines()
    assert status == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    errors = [line for line in lines if ": error: " in line or line.startswith("error: ")
              or line.startswith("lars: error:")]
    assert errors, err
    if names is not None:
        assert str(names) in errors[0], err
    return errors[0]


def assert_clean(status: int, err: str) -> None:
    """Exit 0 or a good refusal: never a traceback."""
    assert "Traceback" not in err and "internal error" not in err, err
    assert status in (0, 2), err
    if status == 2:
        assert_refused(status, err)
