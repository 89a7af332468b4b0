"""An error after some answers were written: the output it cut short says so on the error's line.

``lars run`` writes the answers of each time point as it computes them, so a bad stream line
found later ends a run whose first answers are already on stdout (``--format sparql-json``:
one complete JSON document per line; ``csv``: complete rows). A program reading stdout could not
tell that answer stream from a complete one; the error line now ends with ``output stopped at
time T: incomplete`` (newcomer finding D3), ``T`` the last time point written. ``--output FILE``
needs no such line: the file is replaced only when the run ends (:func:`solver.sinks.opened_output`),
so an error leaves it as it was. ``lars agree --format jsonl`` writes each interval's lines as it
closes: an error after some says the same (the text and JSON reports write nothing before the end).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from lars.errors import LarsError


class Timed(Protocol):
    time: int


class Followed:
    """The answers of a run, handed on one at a time; :attr:`last` is the time point of the
    last one handed on (``None`` before the first), whose output the writer has finished when
    it asks for the next."""

    def __init__(self, answers: Iterable[Timed]) -> None:
        self.answers, self.last = answers, None

    def __iter__(self) -> Iterator[Timed]:
        for answer in self.answers:
            self.last = answer.time
            yield answer


class IncompleteOutput(LarsError):
    """``error``, raised after the answers up to time point ``time`` were written: one line,
    the error's own, ending with ``; output stopped at time T: incomplete`` (its notes kept).

    >>> from lars.errors import ParseError, Position
    >>> str(IncompleteOutput(ParseError("bad line", Position("s.nt", 5, 1)), 3))
    's.nt:5:1: error: bad line; output stopped at time 3: incomplete'
    """

    def __init__(self, error: LarsError, time: int) -> None:
        super().__init__(error.message, error.position, error.hint)
        self.error, self.time = error, time
        for note in getattr(error, "__notes__", ()):
            self.add_note(note)

    def __str__(self) -> str:
        return f"{self.error}; output stopped at time {self.time}: incomplete"
