"""Running a recursive computation on a thread with a large stack (issue 18: deep queries).

rdflib's SPARQL parser (pyparsing) and algebra recurse once or more per nested group, UNION
branch and triple pattern, and so do the walks over the trees they build: with Python's default
limit of 1000 frames a query of 100 triple patterns or 50 nested groups fails with
``RecursionError``. :func:`call_deep` runs a function on a fresh thread whose stack is
:data:`STACK_BYTES` large, with the recursion limit raised to :data:`RECURSION_LIMIT` while it
runs; the stack is only reserved, so a shallow call costs no memory. Measured on rdflib 7 (2-core
machine): 10^4 triple patterns, 1000 nested groups, 1000 UNION branches and 1000 OPTIONALs
parse and translate (see the README's limits section for times); deeper input still ends in a
``RecursionError``, which :func:`call_deep` turns into a :class:`~lars.errors.LimitError`.

>>> call_deep(sum, [1, 2, 3])
6
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from lars.errors import LimitError

STACK_BYTES = 1 << 30
"""The worker thread's stack (reserved, not committed: pages are used as the recursion grows)."""
RECURSION_LIMIT = 400_000
"""Python frames allowed while the worker runs (about 2.5 KB of stack each at most)."""

TOO_DEEP = "the input is nested too deeply to be read (Python's recursion limit)"
_WORKER = "lars-deep"
_lock = threading.Lock()
T = TypeVar("T")


def call_deep(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` on a thread with a large stack; its result or its exception.

    Called from that thread already, it just calls ``function``.

    Raises:
        LimitError: the recursion went deeper than even the large stack allows.
    """
    if threading.current_thread().name == _WORKER:
        return function(*args, **kwargs)
    outcome: dict[str, Any] = {}
    ending = threading.Lock()
    flags = {"finished": False, "abandoned": False}

    def work() -> None:
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the calling thread
            outcome["error"] = error
        finally:
            with ending:
                flags["finished"] = True
                if flags["abandoned"]:  # the caller left early: the limit is ours to lower
                    sys.setrecursionlimit(previous_limit)

    with _lock:  # stack_size and the recursion limit are process-wide settings
        previous_stack, previous_limit = threading.stack_size(STACK_BYTES), sys.getrecursionlimit()
        sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
        try:
            worker = threading.Thread(target=work, name=_WORKER, daemon=True)
            try:
                worker.start()
            except (RuntimeError, MemoryError):  # no room for the stack (ulimit -v): run here
                sys.setrecursionlimit(previous_limit)
                work()
            else:
                threading.stack_size(previous_stack)
                worker.join()
        finally:
            threading.stack_size(previous_stack)
            # An exception in join (Ctrl-C, an alarm) leaves the worker recursing: lowering the
            # limit under it would make Python abort ("Cannot recover from stack overflow"), so
            # the worker lowers it when it ends. (Thread.is_alive() cannot tell: Python 3.11
            # marks a thread stopped when a join on it is interrupted.)
            with ending:
                if flags["finished"]:
                    sys.setrecursionlimit(previous_limit)
                else:
                    flags["abandoned"] = True
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, RecursionError):
            raise LimitError(TOO_DEEP, hint="split the query or program into smaller parts") from None
        raise error
    return outcome["value"]


def deep(function: Callable[..., T]) -> Callable[..., T]:
    """Decorate ``function`` so that every call runs through :func:`call_deep`."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        return call_deep(function, *args, **kwargs)

    return wrapper
