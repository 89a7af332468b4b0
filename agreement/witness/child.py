"""The witness search in a child process, so that ``--time-limit`` holds while clingo grounds
(issue 28; SPEC section 13).

clingo's grounding cannot be interrupted from Python: a search that spends its time grounding
never returns to the loop that watches the clock (:func:`agreement.witness.search.deepen`), and a
thread that ends the process meanwhile crashed it (SIGSEGV). So the search runs in a child
Python process (``python -m agreement.witness.child``, which imports only what the task needs,
unlike :mod:`multiprocessing`, which imports the parent's main module again) and the parent
owns the clock:

1. at the limit, or at Ctrl-C, the parent asks the child to stop (``("stop", reason)`` on the
   child's stdin); a child that is solving notices within a polling period, says so
   (``("stopping",)``) and winds down as in one process: the best witness so far, re-checked,
   or the error saying which sizes are ruled out;
2. a child that has not said so within :data:`GRACE` seconds is busy where it cannot be
   stopped (grounding, or reading its inputs): the parent kills it, with its own process group,
   and raises the same :class:`~lars.errors.LimitError` built from what the child reported so
   far (``("ruled-out", k)``: no witness with fewer than ``k`` triples within the bounds);
3. SIGTERM or SIGHUP (any other :class:`KeyboardInterrupt`) kill the child at once.

The child runs in a session of its own (so a terminal's Ctrl-C reaches only the parent, which
decides), dies with the parent on Linux (``PR_SET_PDEATHSIG``), and talks pickles: its task's
result, or the exception it raised (a :class:`~lars.errors.LarsError` arrives as itself, so its
one line and exit status are the same as in one process; an exception that cannot be pickled
arrives as :class:`ChildFailed`, an internal error, with the child's traceback).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from lars.errors import LimitError

GRACE = 0.5
"""Seconds a child asked to stop has to say that it is stopping before it is killed (a solving
child answers within 0.05 s, its polling period)."""
POLL = 0.25
"""Seconds the parent waits for a message at a time (it stays responsive to signals)."""

Task = Callable[..., Any]
"""A top-level function (pickled by name), called in the child as ``task(*arguments, watch)``."""


class ChildFailed(Exception):
    """The child ended without a result: a bug (its traceback is the message), or it died."""


def limit_error(limit: float | None, ruled_out: int, where: str = "") -> LimitError:
    """The refusal of a search stopped by ``--time-limit`` before any witness: what is ruled out
    (no witness with fewer than ``ruled_out`` triples), never "no disagreement"."""
    of = "" if limit is None else f" of {limit:g} s"
    return LimitError(f"no witness found within the time limit{of}{where}, and {ruled_text(ruled_out)}: "
                      "the bounds are not exhausted", hint="raise --time-limit or lower the bounds")


def ruled_text(ruled_out: int, within: str = "within the bounds") -> str:
    """What a search stopped before any witness has established: no witness with fewer than
    ``ruled_out`` triples ``within`` its bounds.

    >>> ruled_text(3, "within [1, 10]"), ruled_text(0)
    ('none with ≤ 2 triple(s) exists within [1, 10], but larger ones were not ruled out', 'none ruled out')
    """
    return (f"none with ≤ {ruled_out - 1} triple(s) exists {within}, but larger ones were not "
            "ruled out" if ruled_out else "none ruled out")


def interrupted(established: str) -> KeyboardInterrupt:
    """Ctrl-C's exception for a search stopped before any witness, carrying what it had
    established (:func:`ruled_text`), which the command's line says after what was interrupted
    (:func:`agreement.cli.interrupt.interrupted_line`; newcomer: ``interrupted while searching
    for a witness`` did not say what a minute of searching had ruled out). An attribute, not a
    note, so that the line still names the activity; it survives pickling, as the search's
    exception crosses from its child process."""
    interrupt = KeyboardInterrupt()
    interrupt.established = established
    return interrupt


@dataclass
class Watch:
    """How a search run from outside is asked to stop and tells what it has established.

    Attributes:
        stop: ``None`` while the search may go on; ``"time"`` (the time limit) or
            ``"interrupt"`` (Ctrl-C) once it should stop. Asked by the search's own thread.
        ruled_out: told ``k`` when no witness with fewer than ``k`` triples exists within the
            bounds (over the whole search space).
        stage: told what the search does now (:data:`STAGES`), for the message of a search
            killed where it could not be stopped.
        progress: told each deepening step (:data:`agreement.witness.search.Progress`).
        offer: hands the parent a result to return if the child is killed later (the report
            of a witness found before the whole space is searched, marked as not minimal).
        found: told ``(result, witness)`` of such a witness, re-checked, by the search; the
            task that runs it turns it into an :attr:`offer`.
    """

    stop: Callable[[], str | None]
    ruled_out: Callable[[int], None]
    stage: Callable[[str], None]
    progress: Callable[[int, list[int]], None] | None = None
    offer: Callable[[Any], None] | None = None
    found: Callable[[Any, Any], None] | None = None


STAGES = {"preparing": "reading the inputs and building the search space",
          "grounding": "clingo was grounding the search program, which cannot be interrupted",
          "solving": "solving", "checking": "re-checking the witness found"}
"""What a search does, as the message of a search killed at the time limit says it."""


# --- the parent ---------------------------------------------------------------------------------

def run_in_child(task: Task, arguments: tuple, time_limit: float | None = None,
                 on_progress: Callable[[int, list[int]], None] | None = None) -> Any:
    """``task(*arguments, watch)`` in a child process, stopped ``time_limit`` seconds from now
    (see the module docstring); its result, or its exception raised here.

    Raises:
        LimitError: the child was killed at the time limit (it could not be stopped).
        KeyboardInterrupt: Ctrl-C (the child stopped or killed), SIGTERM or SIGHUP (killed).
        ChildFailed: the child died or failed with an exception that cannot be pickled.
    """
    began = time.monotonic()
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    child = subprocess.Popen([sys.executable, "-m", "agreement.witness.child"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=environment, start_new_session=True)
    try:
        send(child.stdin, (task, arguments))
        messages: queue.Queue = queue.Queue()
        threading.Thread(target=read_messages, args=(child.stdout, messages), daemon=True).start()
        return Parent(child, messages, began, time_limit, on_progress).wait()
    finally:
        kill(child)


class Parent:
    """The parent's side of one child: its messages, the clock, the stop requests."""

    def __init__(self, child: subprocess.Popen, messages: queue.Queue, began: float,
                 time_limit: float | None, on_progress: Callable[[int, list[int]], None] | None):
        self.child, self.messages, self.on_progress = child, messages, on_progress
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else began + time_limit
        self.asked: tuple[str, float] | None = None  # (reason, when) of the stop request
        self.stopping = False
        self.ruled_out = 0
        self.stage = "preparing"
        self.offered: tuple[Any] | None = None

    def wait(self) -> Any:
        """The child's result, following the module docstring's steps."""
        while True:
            try:
                message = self.messages.get(timeout=self.timeout())
            except queue.Empty:
                if self.tick():
                    return self.offered[0]
                continue
            except KeyboardInterrupt as interrupt:
                self.interrupted(interrupt)
                continue
            kind, *rest = message
            if kind == "done":
                return rest[0]
            if kind == "error":
                raise rest[0]
            if kind == "failed":
                raise ChildFailed(rest[0])
            if kind == "ended":
                raise ChildFailed(f"the witness search process ended unexpectedly ({ending(self.child)})")
            if kind == "stopping":
                self.stopping = True
            elif kind == "ruled-out":
                self.ruled_out = max(self.ruled_out, rest[0])
            elif kind == "stage":
                self.stage = rest[0]
            elif kind == "offer":
                self.offered = (rest[0],)
            elif kind == "progress" and self.on_progress is not None:
                self.on_progress(*rest)

    def timeout(self) -> float:
        """Seconds to wait for a message: until the next thing to do, at most :data:`POLL`."""
        due = None
        if not self.stopping and self.asked is not None:
            due = self.asked[1] + GRACE
        elif not self.stopping and self.deadline is not None:
            due = self.deadline
        return POLL if due is None else min(POLL, max(due - time.monotonic(), 0.001))

    def tick(self) -> bool:
        """Ask for a stop at the deadline; kill a child that did not answer in time. True: the
        child was killed, return what it offered."""
        now = time.monotonic()
        if self.stopping:
            return False
        if self.asked is None:
            if self.deadline is not None and now >= self.deadline:
                self.ask("time", now)
            return False
        reason, when = self.asked
        if now - when >= GRACE:
            kill(self.child)
            if self.offered is not None:
                return True
            if reason == "time":
                raise limit_error(self.time_limit, self.ruled_out,
                                  f" (stopped while {STAGES[self.stage]})")
            raise interrupted(f"{ruled_text(self.ruled_out)} (stopped while {STAGES[self.stage]})")
        return False

    def interrupted(self, interrupt: KeyboardInterrupt) -> None:
        """Ctrl-C asks the child to stop (a second one, SIGTERM or SIGHUP kill it)."""
        if type(interrupt) is not KeyboardInterrupt or self.asked is not None:
            kill(self.child)
            raise interrupt
        self.ask("interrupt", time.monotonic())

    def ask(self, reason: str, now: float) -> None:
        self.asked = (reason, now)
        with contextlib.suppress(OSError):
            send(self.child.stdin, ("stop", reason))


def send(stream: BinaryIO, message: object) -> None:
    pickle.dump(message, stream, pickle.HIGHEST_PROTOCOL)
    stream.flush()


def read_messages(stream: BinaryIO, messages: queue.Queue) -> None:
    """The parent's reader thread: the child's messages, then ``("ended",)`` at its end (the
    pipe's end: the child exited or was killed); it closes the pipe."""
    with stream:
        while True:
            try:
                messages.put(pickle.load(stream))
            except (EOFError, OSError, ValueError, pickle.UnpicklingError):
                messages.put(("ended",))
                return


def ending(child: subprocess.Popen) -> str:
    """How the child ended, for people."""
    try:
        code = child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return "it stopped answering"
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


def kill(child: subprocess.Popen) -> None:
    """End the child and everything it started (its process group), and reap it."""
    if child.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            child.kill()
    child.wait()
    with contextlib.suppress(OSError):
        child.stdin.close()  # its stdout is closed by the reader thread, at its end


# --- the child ----------------------------------------------------------------------------------

class Requests:
    """The child's side: stop requests read from stdin by a thread, messages written to the
    parent under a lock (clingo's solving thread reports bounds too)."""

    def __init__(self, requests: BinaryIO, replies: BinaryIO):
        self.requests, self.replies = requests, replies
        self.lock = threading.Lock()
        self.reason: str | None = None
        self.acknowledged = False
        threading.Thread(target=self.listen, daemon=True).start()

    def listen(self) -> None:
        while True:
            try:
                kind, reason = pickle.load(self.requests)
            except (EOFError, OSError, pickle.UnpicklingError):  # the parent is gone
                kind, reason = "stop", "interrupt"
            if kind == "stop" and self.reason is None:
                self.reason = reason
            if kind == "stop":
                return

    def reply(self, *message: object) -> None:
        with self.lock:
            send(self.replies, message)

    def stop(self) -> str | None:
        """The stop request, acknowledged to the parent the first time the search sees it."""
        if self.reason is not None and not self.acknowledged:
            self.acknowledged = True
            with contextlib.suppress(OSError):
                self.reply("stopping")
        return self.reason

    def watch(self) -> Watch:
        return Watch(self.stop, lambda k: self.reply("ruled-out", k),
                     lambda stage: self.reply("stage", stage),
                     lambda steps, bound: self.reply("progress", steps, bound),
                     lambda result: self.reply("offer", result))


def die_with_parent() -> None:
    """Linux: be killed when the parent dies (even by SIGKILL), so no search outlives it."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:  # the parent died before the line above
        os._exit(1)


def main() -> None:
    """The child: one task from stdin, its messages and result on the real stdout (anything the
    task prints goes to stderr instead)."""
    die_with_parent()
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    task, arguments = pickle.load(sys.stdin.buffer)
    requests = Requests(sys.stdin.buffer, replies)
    try:
        result = task(*arguments, requests.watch())
    except BaseException as error:  # noqa: BLE001 - every outcome goes to the parent
        try:
            pickle.loads(pickle.dumps(error))
            requests.reply("error", error)
        except Exception:  # noqa: BLE001 - an exception that does not survive pickling
            requests.reply("failed", "".join(traceback.format_exception(error)).rstrip())
        return
    requests.reply("done", result)


if __name__ == "__main__":
    main()
