"""clingo in a child process, replaced once its memory has grown: long streams of fresh values.

clingo keeps every symbol it ever makes (each distinct IRI, string and compound term) for the
life of its process. A residual solved per time point over a stream whose IRIs never repeat
(CSRBench replayed, sensors renamed every round) therefore grows without bound: measured with
the C-SPARQL Q1 translation and ``--strategy incremental``, the process grew from 200 to 429 MB
between 10^5 and 10^6 triples while its Python objects stayed at 130 MB (``tracemalloc``).

So :class:`ClingoProcess` grounds and solves in a child Python process and, once the child's
peak memory has grown by more than a budget, replaces it by a fresh one at the next solve. The
parent never makes a clingo symbol on this path (:func:`solver.symbols.atom_text` renders text
without clingo); what comes back are LARS atoms, pickled. The child is started with
``python -m solver.incremental.clingoprocess`` (not :mod:`multiprocessing`, which would import the
parent's main module again) and talks pickles over its stdin and stdout.
"""

from __future__ import annotations

import atexit
import os
import pickle
import resource
import signal
import subprocess
import sys
from typing import BinaryIO

from lars.atoms import Atom
from lars.errors import SolverError

Pair = tuple[Atom, int]

BUDGET_MB = 256
"""How much the child's peak memory may grow before it is replaced."""


class GroundTooLarge(Exception):
    """clingo grounded more atoms than the limit it was given (the caller names the time point)."""


def solve_text(text: str, facts: str = "", modules: tuple[str, ...] = (), models: int = 0,
               max_derived: int | None = None) -> tuple[str, object]:
    """Ground and solve ``text`` with ``facts`` (one a line) in this process; the shown
    ``__d(A,T)`` of each answer set. ``modules`` register the external functions the text calls
    (:func:`lars.externals.load`); at most ``models`` answer sets are enumerated (0: all); a
    grounding of more than ``max_derived`` atoms beyond the facts is not solved.

    Returns:
        ``("ok", [{(atom, T), ...}, ...])``, ``("rejected", messages)`` if clingo refused
        the text, or ``("too-large", atoms)`` past ``max_derived``.
    """
    import clingo

    from lars.externals import load
    from solver.limits import ground_beyond_facts
    from solver.symbols import atom_of, ground

    load(modules)
    messages: list[str] = []
    control = clingo.Control([str(models)], logger=lambda code, message: messages.append(message),
                             message_limit=20)
    try:
        control.add("base", [], text + "\n" + facts)
        ground(control)
    except RuntimeError as error:
        return "rejected", " ".join(messages) or str(error)
    if max_derived is not None and ground_beyond_facts(control, facts) > max_derived:
        return "too-large", max_derived
    found: list[set[Pair]] = []
    control.solve(on_model=lambda model: found.append(
        {(atom_of(s.arguments[0]), s.arguments[1].number) for s in model.symbols(shown=True)}))
    return "ok", found


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """The child's loop: a text in, ``(status, result, peak KiB, CPU seconds so far)`` out,
    until the input ends."""
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        try:
            status, result = solve_text(*request)
        except Exception as error:  # noqa: BLE001 - reported to the parent, which raises it
            status, result = "failed", f"{type(error).__name__}: {error}"
        usage = resource.getrusage(resource.RUSAGE_SELF)
        pickle.dump((status, result, usage.ru_maxrss, usage.ru_utime + usage.ru_stime),
                    replies, pickle.HIGHEST_PROTOCOL)
        replies.flush()


class ClingoProcess:
    """One child process solving texts, one at a time; replaced when it has grown by ``budget_mb``."""

    def __init__(self, budget_mb: int = BUDGET_MB) -> None:
        self.budget_kib = budget_mb * 1024
        self.child: subprocess.Popen | None = None
        self.limit_kib: int | None = None
        self.started = 0
        """How many children were started (the first, and every replacement)."""
        self.cpu_seconds = 0.0
        """CPU time the children have spent so far (this process's ``process_time`` leaves it out)."""
        self._child_cpu = 0.0

    def solve(self, text: str, facts: str = "", where: str = "", modules: tuple[str, ...] = (),
              models: int = 0, max_derived: int | None = None) -> list[set[Pair]]:
        """The shown ``__d`` pairs of every answer set of ``text`` with ``facts`` (one a line;
        none if inconsistent), at most ``models`` of them (0: all); ``where`` (e.g. `` at t=5``)
        goes into the error message; ``modules`` register the external functions the text calls.

        Raises:
            SolverError: clingo rejected the text (its messages), the child failed (a text
                showing other than ``__d/2``), or it died.
            GroundTooLarge: clingo grounded more than ``max_derived`` atoms beyond the facts.
        """
        child = self.child or self._start()
        try:
            pickle.dump((text, facts, modules, models, max_derived), child.stdin,
                        pickle.HIGHEST_PROTOCOL)
            child.stdin.flush()
            status, result, peak_kib, child_cpu = pickle.load(child.stdout)
        except (EOFError, BrokenPipeError, pickle.UnpicklingError) as error:
            self.close()
            raise SolverError(f"clingo's process ended unexpectedly ({type(error).__name__})",
                              hint="run again with --strategy stratified or reference") from None
        except BaseException:  # Ctrl-C: its reply may still come, so no later solve may use it
            self.close(kill=True)
            raise
        self.cpu_seconds += child_cpu - self._child_cpu
        self._child_cpu = child_cpu
        if self.limit_kib is None:
            self.limit_kib = peak_kib + self.budget_kib
        elif peak_kib > self.limit_kib:
            self.close()
        if status == "rejected":
            raise SolverError(f"clingo rejected the encoding{where}: {result}")
        if status == "too-large":
            raise GroundTooLarge(result)
        if status != "ok":
            raise SolverError(f"clingo's process failed{where}: {result}")
        return result

    def _start(self) -> subprocess.Popen:
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        self.child = subprocess.Popen([sys.executable, "-m", "solver.incremental.clingoprocess"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment)
        self.limit_kib, self._child_cpu = None, 0.0
        self.started += 1
        return self.child

    def close(self, kill: bool = False) -> None:
        """End the child, letting it finish its solve unless ``kill`` (the next :meth:`solve`
        starts another)."""
        child, self.child = self.child, None
        if child is not None:
            if kill:
                child.kill()
            try:
                child.stdin.close()
            except BrokenPipeError:  # it died
                pass
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            child.stdout.close()


_shared: list[ClingoProcess] = []


def shared_process() -> ClingoProcess:
    """This process's one :class:`ClingoProcess` (started at its first solve, ended at exit)."""
    if not _shared:
        _shared.append(ClingoProcess())
        atexit.register(_shared[0].close)
    return _shared[0]


def main() -> None:
    """The child: replies go to the real stdout; anything printed goes to stderr instead.

    It ignores Ctrl-C (SIGINT, sent to the whole process group by a terminal or by Jupyter
    stopping its kernel): the parent owns it, kills it when interrupted itself
    (:meth:`ClingoProcess.solve`) and ends it by closing its input, so an interrupt never shows
    the child's traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
