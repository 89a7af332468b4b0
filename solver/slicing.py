"""Slicing streams into per-instant fact sets, on Spark or in process (SPEC section 8).

Both functions read stream files, parse them with a parser passed in (so ``solver`` never
imports ``translate``) and return the slices ``[(t, elements), ...]``: ascending in ``t``, the
elements of one time point in arrival order (file order, then line order, then order within
the line). They follow the shared :class:`~lars.readpolicy.ReadPolicy` and fill the same
:class:`~lars.readpolicy.ReadReport`, so ``slice_stream(...) == slice_in_process(...)``.

Two kinds of input:

* line files (``whole_files=False``): each line is parsed by a *line parser*
  ``(line, source, line_number) -> (t, elements) | None`` such as
  :func:`lars.parser.parse_stream_line`; each file's timestamps are checked (or sorted) on their
  own, and several files are merged by time;
* whole files (``whole_files=True``): each file is parsed by a *document parser*
  ``(text, source) -> (t, elements)`` (a Turtle folder's files, listed by the caller).

On Spark, each line file is numbered (``zipWithIndex``), parsed on the executors (cached), and
its time order checked per partition, each partition starting from the state its predecessors
left (:func:`lars.readpolicy.combine_orders`; one small job collects the partitions' end
states). The executors then group each partition into runs of one time point; the driver
merges the runs in partition order, which is arrival order, so no shuffle is needed. Elements
travel pickled once (:func:`_pack`). pyspark is imported here only, when the first Spark session
starts, so :func:`slice_in_process` needs no pyspark.
"""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from lars.errors import InputError, LarsError, ParseError, Position
from lars.readpolicy import (
    MAX_MESSAGES, Entry, LineParser, ReadPolicy, ReadReport, TimeOrder, combine_orders,
    group_by_time, handle, parse_lines, read_lines, read_text, require_report,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

Slice = tuple[int, tuple[Any, ...]]
DocumentParser = Callable[[str, str], "tuple[int, list[Any]]"]
SHUFFLE_PARTITIONS = 4

_LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %p %c{1}: %m%n
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = error
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = error
"""


def _check_paths(paths: Sequence[str]) -> list[str]:
    """The paths as strings; a missing local file is an :class:`InputError` before any work."""
    paths = [str(path) for path in paths]
    for path in paths:
        if "://" not in path and not os.path.isfile(path):
            reason = "it is a folder" if os.path.isdir(path) else "No such file or directory"
            raise InputError(f"cannot read the file: {reason}", Position(path))
    return paths


def slice_in_process(paths: str | Sequence[str], parser: LineParser | DocumentParser, *,
                     whole_files: bool = False, policy: ReadPolicy = ReadPolicy(),
                     report: ReadReport | None = None) -> list[Slice]:
    """The slices of the streams in ``paths``, computed with plain Python.

    Args:
        paths: one file or several (merged by time, ties in the order given).
        parser: a line parser, or a document parser if ``whole_files``.
        whole_files: parse each file as one document instead of line by line.
        policy: bad lines (files) and backwards timestamps.
        report: where skipped and reordered records are counted (needed unless stop/strict).

    Raises:
        InputError: a missing file; a timestamp going back in time (strict order).
        ParseError: a bad line or file (``on_error="stop"``).
    """
    report = require_report(policy, report)
    paths = _check_paths([paths] if isinstance(paths, (str, os.PathLike)) else paths)
    entries: list[Entry] = []
    with gc_paused():
        for path in paths:
            if whole_files:
                entries.extend(_parse_document(parser, path, policy, report))
            else:
                entries.extend(parse_lines(read_lines(path), path, parser, policy, report))
        return group_by_time(entries)


def _parse_document(parser: DocumentParser, path: str, policy: ReadPolicy,
                    report: ReadReport) -> list[Entry]:
    report.records += 1
    try:
        time, elements = parser(read_text(path), path)
    except (ParseError, InputError) as error:
        handle(error, policy, report)
        return []
    report.elements += len(elements)
    return [Entry(time, tuple(elements), Position(path))]


# --- the Spark session -------------------------------------------------------------------

_state: dict[str, Any] = {"session": None, "master": None, "log_dir": None, "atexit": False}


def _start(master: str, conf: Mapping[str, str]) -> SparkSession:
    from pyspark.sql import SparkSession  # here, so that slice_in_process works without pyspark

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    log_dir = tempfile.mkdtemp(prefix="lars-spark-")
    log_config = os.path.join(log_dir, "log4j2.properties")
    with open(log_config, "w", encoding="utf-8") as file:
        file.write(_LOG4J2)
    java_options = f"-Dlog4j2.configurationFile=file:{log_config}"
    builder = (SparkSession.builder.master(master).appName("lars-slicing")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", str(SHUFFLE_PARTITIONS))
               .config("spark.driver.extraJavaOptions", java_options)
               .config("spark.executor.extraJavaOptions", java_options))
    for key, value in conf.items():
        builder = builder.config(key, value)
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # pyspark's own error types vary by version: ours must not leak them
        shutil.rmtree(log_dir, ignore_errors=True)
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"cannot start Spark with master {master!r}: {first_line}",
                         hint="Spark needs Java 17 or later (on PATH or in JAVA_HOME)") from None
    session.sparkContext.setLogLevel("ERROR")
    _state.update(session=session, master=master, log_dir=log_dir)
    if not _state["atexit"]:
        atexit.register(stop_spark)
        _state["atexit"] = True
    return session


def stop_spark() -> None:
    """Stop this process's Spark session, if one runs (also called at exit)."""
    session, log_dir = _state["session"], _state["log_dir"]
    _state.update(session=None, master=None, log_dir=None)
    if session is not None:
        session.stop()
    if log_dir is not None:
        shutil.rmtree(log_dir, ignore_errors=True)


@contextmanager
def spark_session(master: str = "local[*]", conf: Mapping[str, str] | None = None
                  ) -> Iterator[SparkSession]:
    """The process's one Spark session (started quietly on first use, stopped at exit).

    A session with another master is stopped first. Leaving the block through Ctrl-C or an
    unexpected exception stops the session too; an error about the user's input
    (:class:`~lars.errors.LarsError`) leaves it running for the next job.

    Args:
        master: ``local[*]``, ``local[2]``, ``spark://host:7077``, ...
        conf: further Spark settings, used when the session starts.
    """
    if _state["session"] is not None and _state["master"] != master:
        stop_spark()
    session = _state["session"] or _start(master, conf or {})
    try:
        yield session
    except LarsError:
        raise
    except BaseException:
        stop_spark()
        raise


# --- the Spark job -----------------------------------------------------------------------

def _payload(error: LarsError) -> tuple:
    """An error as plain data (``LarsError`` does not survive pickling with its position)."""
    return (type(error), error.message, error.position, error.hint)


def _rebuild(payload: tuple) -> LarsError:
    kind, message, position, hint = payload
    return kind(message, position, hint)


def _pack(elements: Iterable[Any]) -> bytes:
    """A line's elements pickled once on the executor and unpickled once on the driver.

    Spark pickles every record at each stage (cache, shuffle, collect); passing bytes instead of
    rdflib terms (whose literals re-parse their values when unpickled) makes that cheap.
    """
    return pickle.dumps(tuple(elements), protocol=pickle.HIGHEST_PROTOCOL)


def _unpack(packed: Iterable[bytes]) -> tuple[Any, ...]:
    return tuple(element for blob in packed for element in pickle.loads(blob))


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many long-lived objects are built.

    Building 10^5 rdflib terms triggers collection after collection over objects that all stay
    alive; pausing it halves the time of parsing and unpickling. Restored on exit.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _parse_partition(parser: LineParser, source: str, rows: Iterable[tuple[str, int]]) -> Iterator[tuple]:
    """Rows ``(line, index)`` → records ``(number, time, elements, error)``; blanks have neither."""
    with gc_paused():
        yield from _parse_rows(parser, source, rows)


def _parse_rows(parser: LineParser, source: str, rows: Iterable[tuple[str, int]]) -> Iterator[tuple]:
    for line, index in rows:
        number = index + 1
        try:
            parsed = parser(line, source, number)
        except ParseError as error:
            yield number, None, None, _payload(error)
            continue
        if parsed is None:
            yield number, None, None, None
        else:
            yield number, parsed[0], _pack(parsed[1]), None


def _order_state(partition: int, records: Iterable[tuple]) -> Iterator[tuple]:
    """A partition's line count and its :class:`TimeOrder` end state, started from nothing."""
    order, count = TimeOrder(""), 0
    for number, time, _, _ in records:
        count += 1
        if time is not None:
            order.check(time, number)
    yield partition, count, order.state


def _check_partition(file_index: int, source: str, starts: list, strict: bool,
                     partition: int, records: Iterable[tuple]) -> Iterator[tuple]:
    """Records → ``(kind, key, time, elements, error)`` with kind ``ok``, ``late`` or ``bad``."""
    order = TimeOrder(source, starts[partition])
    for number, time, elements, error in records:
        key = (file_index, number)
        if error is not None:
            yield "bad", key, None, None, error
        elif time is not None:
            backwards = order.check(time, number)
            if backwards is None:
                yield "ok", key, time, elements, None
            else:
                yield ("bad", key, None, None, _payload(backwards)) if strict else (
                    "late", key, time, elements, _payload(backwards))


def _checked_lines(context, file_index: int, path: str, parser: LineParser, strict: bool,
                   partitions: int | None):
    """One line file as checked records, its number of lines, and the cached parsed lines."""
    rows = context.textFile(path, partitions).zipWithIndex()
    parsed = rows.mapPartitions(lambda part: _parse_partition(parser, path, part)).cache()
    summaries = sorted(parsed.mapPartitionsWithIndex(_order_state).collect())
    starts, state = [], None
    for _, _, end_state in summaries:
        starts.append(state)
        state = combine_orders(state, end_state)
    checked = parsed.mapPartitionsWithIndex(
        lambda partition, part: _check_partition(file_index, path, starts, strict, partition, part))
    return checked, sum(count for _, count, _ in summaries), parsed


def _document_record(parser: DocumentParser, item: tuple[int, str]) -> tuple:
    file_index, path = item
    try:
        time, elements = parser(read_text(path), path)
    except (ParseError, InputError) as error:
        return "bad", (file_index, 0), None, None, _payload(error)
    return "ok", (file_index, 0), time, _pack(elements), None


def _runs(records: Iterable[tuple]) -> Iterator[tuple]:
    """A partition's good and late records as runs ``("run", t, packed...)`` of one time point,
    then one ``("problems", ...)`` summary: counts and first messages of bad and late records."""
    bad, late, time, run = [], [], None, []
    for kind, key, record_time, packed, error in records:
        if kind != "ok":
            (bad if kind == "bad" else late).append((key, error))
        if kind == "bad":
            continue
        if record_time != time and run:
            yield "run", time, tuple(run)
            run = []
        time = record_time
        run.append(packed)
    if run:
        yield "run", time, tuple(run)
    first = lambda items, count: sorted(items, key=lambda item: item[0])[:count]  # noqa: E731
    yield "problems", len(bad), first(bad, MAX_MESSAGES), len(late), first(late, 1)


def _note_problems(summaries: list[tuple], policy: ReadPolicy, report: ReadReport) -> None:
    """Raise the first bad record (stop) or count bad and late ones, as the local reader does."""
    bad = sorted((item for part in summaries for item in part[2]), key=lambda item: item[0])
    if bad and policy.on_error == "stop":
        raise _rebuild(bad[0][1])
    late = sorted((item for part in summaries for item in part[4]), key=lambda item: item[0])
    for _, error in bad[:MAX_MESSAGES]:
        report.skip(_rebuild(error))
    report.skipped = sum(part[1] for part in summaries)
    if late:
        report.reorder(_rebuild(late[0][1]))
        report.reordered = sum(part[3] for part in summaries)


def _collect_slices(records, policy: ReadPolicy, report: ReadReport) -> list[Slice]:
    """Group by time on the executors (runs within a partition), merge on the driver.

    ``collect`` returns the partitions in order (files in order, lines in order), so appending
    each run to its time point keeps arrival order; no shuffle is needed, since the slices end
    up on the driver anyway.
    """
    collected = records.mapPartitions(_runs).collect()
    _note_problems([item for item in collected if item[0] == "problems"], policy, report)
    packed: dict[int, list[bytes]] = {}
    for item in collected:
        if item[0] == "run":
            packed.setdefault(item[1], []).extend(item[2])
    with gc_paused():
        return [(time, _unpack(packed[time])) for time in sorted(packed)]


def slice_stream(paths: str | Sequence[str], parser: LineParser | DocumentParser, *,
                 whole_files: bool = False, master: str = "local[*]",
                 policy: ReadPolicy = ReadPolicy(), report: ReadReport | None = None,
                 partitions: int | None = None, conf: Mapping[str, str] | None = None) -> list[Slice]:
    """The slices of the streams in ``paths``, computed by a Spark job; as :func:`slice_in_process`.

    Line files are read with ``textFile``; whole files are read by the tasks themselves
    (Hadoop's readers skip names starting with ``_``). Paths must be visible to every executor.

    Args:
        paths: one file or several (merged by time, ties in the order given).
        parser: a line parser, or a document parser if ``whole_files``; it runs on the
            executors, so it must be picklable (a module-level function or a ``partial`` of one).
        whole_files: parse each file as one document instead of line by line.
        master: the Spark master (``local[*]`` runs embedded).
        policy: bad lines (files) and backwards timestamps.
        report: where skipped and reordered records are counted (needed unless stop/strict).
        partitions: the minimum number of partitions per line file (Spark's default if ``None``).
        conf: further Spark settings for a session that is not running yet.

    Raises:
        InputError: a missing file; a timestamp going back in time (strict order).
        ParseError: a bad line or file (``on_error="stop"``), as the local reader raises it.
    """
    report = require_report(policy, report)
    paths = _check_paths([paths] if isinstance(paths, (str, os.PathLike)) else paths)
    if not paths:
        return []
    with spark_session(master, conf) as session:
        context, cached = session.sparkContext, []
        try:
            if whole_files:
                records = context.parallelize(list(enumerate(paths)), context.defaultParallelism).map(
                    lambda item: _document_record(parser, item))
                report.records += len(paths)
            else:
                parts = [_checked_lines(context, index, path, parser, policy.order == "strict",
                                        partitions) for index, path in enumerate(paths)]
                cached.extend(parsed for _, _, parsed in parts)
                records = context.union([checked for checked, _, _ in parts])
                report.records += sum(count for _, count, _ in parts)
            slices = _collect_slices(records, policy, report)
        finally:
            for rdd in cached:
                rdd.unpersist()
    report.elements += sum(len(elements) for _, elements in slices)
    return slices

