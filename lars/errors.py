"""The one error hierarchy of the project, and source positions.

Every package raises these for problems with the user's input; bugs stay ordinary exceptions.
The command line turns a :class:`LarsError` into one line on stderr in clingo's own form::

    program.lars:3:14: error: expected ')' but found ','
"""

from __future__ import annotations

from typing import NamedTuple


class Position(NamedTuple):
    """Where something is in the user's input: file (or ``<string>``), line and column (1-based).

    A named tuple, not a frozen dataclass, for speed: stream readers make one per element,
    with ``tuple.__new__``, in about a quarter of a dataclass's time (issue 29). It is
    immutable, equal and hashed by value; it also equals the plain tuple of its fields.

    >>> str(Position("s.nt", 4, 2)), str(Position("s.nt")), str(Position())
    ('s.nt:4:2', 's.nt', '<input>')
    """

    source: str | None = None
    line: int | None = None
    column: int | None = None

    __reduce__ = object.__reduce__
    """Pickled as a tuple of its class, the default (on a Spark worker too): pyspark's opt-in
    namedtuple patch (``PYSPARK_ENABLE_NAMEDTUPLE_PATCH=1``) would otherwise give it a reduction
    that rebuilds it elsewhere as a class of the same name without :meth:`__str__`."""

    def __str__(self) -> str:
        parts = [self.source or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


class LarsError(Exception):
    """Base of all errors about the user's input (not bugs).

    Args:
        message: what is wrong, one line.
        position: where, when known.
        hint: an optional second sentence telling how to fix it.
    """

    kind = "error"

    def __init__(self, message: str, position: Position | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.hint = hint

    def __str__(self) -> str:
        prefix = f"{self.position}: " if self.position is not None else ""
        suffix = f" ({self.hint})" if self.hint else ""
        return f"{prefix}{self.kind}: {self.message}{suffix}"


class ParseError(LarsError):
    """Text did not parse: programs, queries, stream lines, durations."""


class UnsupportedError(LarsError):
    """Valid input outside the supported fragment; the message names the feature."""

    def __str__(self) -> str:
        prefix = f"{self.position}: " if self.position is not None else ""
        return f"{prefix}{self.kind}: unsupported: {self.message}"


class InputError(LarsError):
    """Bad data: timestamps out of order, missing files, unsafe rules, inconsistent options."""


class LimitError(InputError):
    """A configured limit that protects the machine would be exceeded; the hint says how to raise it."""


class SolverError(LarsError):
    """clingo refused something we generated (a bug on our side or a limit of clingo)."""


class RemoteError(LarsError):
    """A job failed where it ran (a Spark executor): one line naming the job and the remote
    cause; the remote trace is the ``__cause__``. An error of ours raised remotely arrives as
    the line it printed there (:meth:`forwarded`), file, line and column included."""

    written: str | None = None

    @classmethod
    def forwarded(cls, line: str) -> "RemoteError":
        """The error whose ``str`` is ``line``, as a :class:`LarsError` printed it remotely."""
        error = cls(line)
        error.written = line
        return error

    def __str__(self) -> str:
        return self.written if self.written is not None else super().__str__()


def placed(error: LarsError, position: Position | None) -> LarsError:
    """``error``, or the same error at ``position`` when it has no position of its own (a caller
    that knows the file adds it to an error raised where only the value was known).

    >>> str(placed(InputError("bad number"), Position("q.rq")))
    'q.rq: error: bad number'
    """
    if error.position is not None or position is None:
        return error
    return type(error)(error.message, position, error.hint)
