"""lars/deep.py: deep recursions run on the large-stack thread; results, errors and the limit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lars.deep import RECURSION_LIMIT, call_deep, deep
from lars.errors import LimitError, ParseError

ROOT = Path(__file__).resolve().parents[2]


def depth(n: int) -> int:
    return 0 if n == 0 else 1 + depth(n - 1)


def test_a_recursion_too_deep_for_the_default_limit_runs():
    assert call_deep(depth, 50_000) == 50_000
    assert sys.getrecursionlimit() < RECURSION_LIMIT  # restored afterwards


def test_an_endless_recursion_is_a_limit_error():
    with pytest.raises(LimitError, match="nested too deeply"):
        call_deep(depth, -1)


def test_errors_and_nested_calls_pass_through():
    @deep
    def fails():
        raise ParseError("bad")

    with pytest.raises(ParseError, match="bad"):
        fails()
    assert call_deep(call_deep, depth, 3) == 3


def test_an_interrupted_call_keeps_the_limit_for_the_worker(tmp_path):
    """An alarm (or Ctrl-C) ends the caller's wait while the worker still recurses deeply:
    the recursion limit must not drop under the worker. Dropped, the worker's next call fails
    with RecursionError, and inside a parser that catches exceptions and goes on (pyparsing)
    Python aborts ("Cannot recover from stack overflow"), as the conformance harness did with
    its per-case alarm."""
    script = tmp_path / "interrupted.py"
    script.write_text(
        "import signal, time\n"
        "from lars.deep import call_deep\n"
        "seen = []\n"
        "def zero(): return 0\n"
        "def down(n):\n"
        "    if n == 0:\n"
        "        time.sleep(0.5)\n"
        "        try:\n"
        "            seen.append(zero())\n"
        "        except RecursionError:\n"
        "            seen.append('RecursionError')\n"
        "        return 0\n"
        "    return down(n - 1) + 1\n"
        "class Late(Exception): pass\n"
        "def alarm(*_): raise Late()\n"
        "signal.signal(signal.SIGALRM, alarm)\n"
        "signal.setitimer(signal.ITIMER_REAL, 0.2)\n"
        "try:\n"
        "    call_deep(down, 20_000)\n"
        "except Late:\n"
        "    pass\n"
        "deadline = time.monotonic() + 30\n"
        "while not seen and time.monotonic() < deadline:\n"
        "    time.sleep(0.05)  # not join(): Python 3.11 marks the worker stopped already\n"
        "print(seen)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stdout.strip()) == (0, "[0]"), done.stderr[-500:]
