"""Writing answers as they come, without holding the answer stream in memory (SPEC section 8).

Three formats, each written one time point at a time (Parquet: one row group at a time):

* ``jsonl`` — one JSON object per evaluated time point, the atoms as in
  :func:`solver.formats.atom_json`::

      {"time": 18, "answer_streams": [[{"atom": "ans(b)", "predicate": "ans",
                                        "args": [{"type": "name", "value": "b"}], "time": 18}]]}

* ``csv`` — a header, then one row per atom: ``time`` (the reference time), ``stream`` (the
  answer stream's index, from 0), ``atom``, ``held`` (the time point the atom holds at),
  ``predicate`` and ``args`` (the arguments as a JSON list). An answer stream that adds nothing
  is one row with the last four cells empty; a time point with no answer stream is one row with
  ``stream`` empty too. So every evaluated time point has a row and the answers can be rebuilt.
* ``parquet`` — the same columns (``time``, ``held`` int64; ``stream`` int32; the rest strings;
  empty cells are nulls), written in row groups of ``row_group_size`` rows (10,000 by default),
  so memory stays flat. Needs ``pyarrow``.

>>> from lars.atoms import Atom
>>> from solver.answers import TimePointAnswer
>>> with open_sink("-", "csv") as sink:
...     sink.write(TimePointAnswer(3, (frozenset({(Atom("x"), 3)}), frozenset())))
time,stream,atom,held,predicate,args
3,0,x,3,x,[]
3,1,,,,
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from lars.errors import InputError, Position
from lars.filekinds import WRITE_FAILURES, kind_of
from lars.printer import print_atom
from solver.answers import TimePointAnswer
from solver.formats import answer_json_text, atom_json, constant_json, sorted_pairs

COLUMNS = ("time", "stream", "atom", "held", "predicate", "args")
ROW_GROUP_SIZE = 10_000
Row = tuple[int, "int | None", "str | None", "int | None", "str | None", "str | None"]


def answer_json(answer: TimePointAnswer) -> dict:
    """The JSON object of one time point (one line of ``jsonl``)."""
    streams = [[atom_json(atom, time) for atom, time in sorted_pairs(s)] for s in answer.streams]
    return {"time": answer.time, "answer_streams": streams}


def answer_rows(answer: TimePointAnswer) -> Iterator[Row]:
    """The rows of one time point (see the module docstring).

    >>> from lars.atoms import Atom
    >>> from lars.terms import Number
    >>> list(answer_rows(TimePointAnswer(5, (frozenset({(Atom("p", (Number(1),)), 4)}),))))
    [(5, 0, 'p(1)', 4, 'p', '[{"type": "number", "value": 1}]')]
    >>> list(answer_rows(TimePointAnswer(5, ())))
    [(5, None, None, None, None, None)]
    """
    if not answer.streams:
        yield answer.time, None, None, None, None, None
    for index, stream in enumerate(answer.streams):
        if not stream:
            yield answer.time, index, None, None, None, None
        for atom, held in sorted_pairs(stream):
            args = json.dumps([constant_json(arg) for arg in atom.args], ensure_ascii=False)
            yield answer.time, index, print_atom(atom), held, atom.predicate, args


class Sink:
    """Something answers are written to, one time point at a time; :func:`open_sink` makes one."""

    def write(self, answer: TimePointAnswer) -> None:
        """Write the answer at one time point."""
        raise NotImplementedError

    def write_all(self, answers: Iterable[TimePointAnswer]) -> int:
        """Write ``answers`` one by one as they come (never all at once); return how many."""
        count = 0
        for answer in answers:
            self.write(answer)
            count += 1
        return count

    def close(self) -> None:
        """Write whatever is still buffered (the file itself is closed by :func:`open_sink`)."""


class JsonLinesSink(Sink):
    """``jsonl``: one JSON object per line."""

    def __init__(self, out: IO[str]):
        self.out = out

    def write(self, answer: TimePointAnswer) -> None:
        self.out.write(answer_json_text(answer) + "\n")  # json.dumps(answer_json(answer))


class CsvRows:
    """CSV rows ending in ``\\n`` in which a field holding ``\\r`` is quoted too (RFC 4180: a
    field with a line break is quoted; Python's writer quotes only the characters of its line
    terminator, so a lone ``\\r`` went out bare and split the row for every reader).

    >>> import io
    >>> out = io.StringIO()
    >>> CsvRows(out).writerow(["a\\rb", "c,d", "e"])
    >>> out.getvalue()
    '"a\\rb","c,d",e\\n'
    """

    def __init__(self, out: IO[str]):
        self.out, self.row = out, io.StringIO()
        self.writer = csv.writer(self.row, lineterminator="\r\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self.row.seek(0)
        self.row.truncate()
        self.writer.writerow(row)
        self.out.write(self.row.getvalue()[:-2] + "\n")

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


class CsvSink(Sink):
    """``csv``: a header, then :func:`answer_rows`."""

    def __init__(self, out: IO[str]):
        self.writer = CsvRows(out)
        self.writer.writerow(COLUMNS)

    def write(self, answer: TimePointAnswer) -> None:
        self.writer.writerows(answer_rows(answer))


class ParquetSink(Sink):
    """``parquet``: :func:`answer_rows` gathered into row groups of ``row_group_size`` rows."""

    def __init__(self, out: IO[bytes], row_group_size: int = ROW_GROUP_SIZE):
        self.pa, parquet = pyarrow_modules()
        self.schema = self.pa.schema([
            ("time", self.pa.int64()), ("stream", self.pa.int32()), ("atom", self.pa.string()),
            ("held", self.pa.int64()), ("predicate", self.pa.string()), ("args", self.pa.string())])
        self.writer = parquet.ParquetWriter(out, self.schema)
        self.row_group_size = row_group_size
        self.rows: list[Row] = []

    def write(self, answer: TimePointAnswer) -> None:
        self.rows.extend(answer_rows(answer))
        while len(self.rows) >= self.row_group_size:
            self.flush(self.rows[:self.row_group_size])
            del self.rows[:self.row_group_size]

    def flush(self, rows: list[Row]) -> None:
        """Write ``rows`` as one row group."""
        columns = {name: [row[i] for row in rows] for i, name in enumerate(COLUMNS)}
        self.writer.write_table(self.pa.table(columns, schema=self.schema),
                                row_group_size=self.row_group_size)

    def close(self) -> None:
        """Write the last, partial row group and the file footer."""
        if self.rows:
            self.flush(self.rows)
            self.rows = []
        self.writer.close()


def pyarrow_modules() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, or an :class:`InputError` saying how to get them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise InputError("the parquet format needs pyarrow, which is not installed",
                         hint="pip install pyarrow, or choose jsonl or csv") from None
    return pyarrow, pyarrow.parquet


SINKS = {"jsonl": JsonLinesSink, "csv": CsvSink, "parquet": ParquetSink}
BINARY = {"parquet"}


def check_format(format: str) -> None:
    """Raise an :class:`InputError` (with "did you mean") for an unknown format."""
    if format in SINKS:
        return
    close = difflib.get_close_matches(format, SINKS, n=1)
    raise InputError(f"unknown output format {format!r}: expected one of {', '.join(SINKS)}",
                     hint=f"did you mean {close[0]!r}?" if close else None)


def check_target(target: str | os.PathLike, inputs: Iterable[str | os.PathLike | None] = ()) -> None:
    """Refuse an output target that cannot be replaced safely, before anything is computed.

    ``-`` is stdout. Otherwise the target must be a new file or an existing regular file (a
    FIFO or a device would be replaced by a regular file when the finished output is renamed
    onto it: write to stdout with ``-`` and redirect instead), and not the same file (inode) as
    any of ``inputs`` (the answers would replace the stream or the query they come from).

    Raises:
        InputError: an empty name, a folder, a file that is not regular, one of the inputs, or a
            new file in a folder that does not exist or cannot be written.
    """
    if str(target) == "-":
        return
    if not str(target):
        raise InputError("--output names no file (an empty name); use - for standard output")
    try:
        found = os.stat(target)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(target))
        if not os.path.isdir(folder):  # refused now, not after a long run (newcomer, issue 28)
            raise InputError(f"cannot write the file: its folder {folder} does not exist",
                             Position(str(target))) from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise InputError(f"cannot write the file: its folder {folder} is not writable",
                             Position(str(target))) from None
        return
    except OSError as exc:
        raise InputError(f"cannot write the file: {exc.strerror or exc}", Position(str(target))) from None
    if not stat.S_ISREG(found.st_mode):
        raise InputError(f"the output must be a regular file, not {kind_of(found.st_mode)}",
                         Position(str(target)), hint="to write to a pipe or a device, use --output - and "
                                                     "redirect standard output")
    for source in inputs:
        try:
            other = os.stat(source) if source else None
        except OSError:
            continue
        if other is not None and (other.st_dev, other.st_ino) == (found.st_dev, found.st_ino):
            raise InputError(f"the output is the input {os.fspath(source)}: writing would replace it",
                             Position(str(target)))


@contextmanager
def opened_output(target: str | Path, binary: bool) -> Iterator[IO]:
    """The file to write (``-``: stdout, left open), as text or bytes.

    A file is written atomically: into a temporary file in the same folder, renamed onto
    ``target`` only when the block ends normally. If it raises (a bad line, Ctrl-C, SIGTERM), the
    temporary file is removed, ``target`` is left as it was, and the exception carries a note
    saying so (the command line prints it). A full disk is an :class:`InputError` naming
    ``target``; a target that :func:`check_target` refuses is refused before it is opened.
    """
    check_target(target)
    if str(target) == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = Path(target)
    try:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                                 suffix=".part")
    except OSError as exc:
        raise InputError(f"cannot write the file: {exc.strerror or exc}", Position(str(target))) from None
    try:
        try:
            with (os.fdopen(descriptor, "wb") if binary
                  else os.fdopen(descriptor, "w", encoding="utf-8", newline="")) as file:
                yield file
            os.chmod(temporary, _file_mode(target))
            os.replace(temporary, target)
        except OSError as exc:
            if exc.errno not in WRITE_FAILURES:
                raise
            raise InputError(f"cannot write the file: {exc.strerror}", Position(str(target))) from None
    except BaseException as exc:
        Path(temporary).unlink(missing_ok=True)
        kept = "left as it was" if target.exists() else "not written"
        exc.add_note(f"{target}: {kept}")
        raise


def _file_mode(target: Path) -> int:
    """The permissions for a new ``target``: those of the file it replaces, else the umask's."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def open_sink(target: str | Path, format: str, *, row_group_size: int = ROW_GROUP_SIZE) -> Iterator[Sink]:
    """A sink writing ``format`` to the file ``target`` (``-``: stdout), closed on exit.

    The file is replaced atomically when the block ends: if it raises (Ctrl-C in a long run, a
    bad stream line), nothing is written and an existing ``target`` is left as it was.

    Args:
        target: a path, or ``-`` for stdout.
        format: ``jsonl``, ``csv`` or ``parquet``.
        row_group_size: rows per Parquet row group (the most rows held in memory).

    Raises:
        InputError: an unknown format, a file that cannot be written, pyarrow missing.
    """
    check_format(format)
    if format in BINARY:
        pyarrow_modules()
    with opened_output(target, format in BINARY) as out:
        sink = ParquetSink(out, row_group_size) if format == "parquet" else SINKS[format](out)
        try:
            yield sink
        finally:
            sink.close()
