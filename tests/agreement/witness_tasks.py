"""Tasks for the child process of ``lars witness`` (tests/agreement/test_witness_child.py): each
is pickled by name and run in the child, so this module imports little."""

from __future__ import annotations

import os
import time

from agreement.witness.child import Watch
from lars.errors import InputError, Position


def answer(value: int, watch: Watch) -> tuple[int, int]:
    watch.ruled_out(2)
    watch.progress(1, [value, 0])
    return value, os.getpid()


def refuse(watch: Watch) -> None:
    raise InputError("bad number", Position("q.rq", 3, 7), hint="write another")


class Unpicklable(Exception):
    def __init__(self, a, b):
        super().__init__(f"{a}{b}")


def fail(watch: Watch) -> None:
    raise Unpicklable(1, 2)


def deaf(seconds: float, watch: Watch) -> None:
    """Busy where it cannot be stopped (as clingo grounding is), after telling what it ruled out."""
    watch.ruled_out(3)
    watch.stage("grounding")
    time.sleep(seconds)


def obedient(watch: Watch) -> str:
    """Polls the stop request as the deepening does, and ends with what it has."""
    while watch.stop() is None:
        time.sleep(0.05)
    return f"stopped for {watch.stop()}"
