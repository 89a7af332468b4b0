"""Slicing streams into per-instant fact sets, on Spark or in process (SPEC section 8).

Both functions read stream files, parse them with a parser passed in (so ``solver`` never
imports ``translate``) and return the slices ``[(t, elements), ...]``: ascending in ``t``, the
elements of one time point in arrival order (file order, then line order, then order within
the line). They follow the shared :class:`~ingest.policy.ReadPolicy` and fill the same
:class:`~ingest.policy.ReadReport`, so ``slice_stream(...) == slice_in_process(...)``.

Two kinds of input:

* line files (``whole_files=False``): each line is parsed by a *line parser*
  ``(line, source, line_number) -> (t, elements) | None`` such as
  :func:`lars.parser.parse_stream_line`; each file's timestamps are checked (or sorted) on their
  own, and several files are merged by time. A file holding several streams, each in time
  order, is merged by time (:class:`ingest.timeorder.StreamMerge`), on Spark as in process;
* whole files (``whole_files=True``): each file is parsed by a *document parser*
  ``(text, source) -> (t, elements)`` (a Turtle folder's files, listed by the caller).

On Spark, each line file is numbered (``zipWithIndex``), parsed on the executors (cached on
the executors' disks: kept on the heap, 10^7 parsed lines overran local mode's default 1 GiB
driver heap; on disk the JVM peaked at 1.3 GB for 10^6 and 10^7 alike, at the same speed), and
its time order checked per partition, each partition starting from the state its predecessors
left (:func:`ingest.policy.combine_orders`; one small job collects the partitions' end
states and streams). A file of several interleaved streams is checked on the driver instead,
over each line's time and stream, as the local reader merges it (:func:`_checked_lines`). The executors then group each partition into runs of one time point; the driver
merges the runs in partition order, which is arrival order, so no shuffle is needed. Elements
travel pickled once (:func:`_pack`). pyspark is imported here only, when the first Spark context
starts, so :func:`slice_in_process` needs no pyspark.

:func:`slice_stream` collects all runs at once, so the driver holds the whole stream.
:func:`iter_slice_stream` gives the same slices lazily: it fetches the runs a partition at a time
(``toLocalIterator``) and yields each slice once the next time point begins, so the driver holds
about one partition and one slice. That needs runs that arrive in ascending time, which holds for
one line file of one stream under ``order="strict"`` (lines going back in time are bad records,
never runs) and for whole files listed in time order; for anything else it falls back to
:func:`slice_stream`.
"""

from __future__ import annotations

import gc
import itertools
import os
import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ingest.policy import (
    MAX_MESSAGES, LineParser, ReadPolicy, ReadReport, decode_line,
    group_by_time, handle, parse_lines, read_lines, read_text, refuse_special_file, require_report,
)
from ingest.timeorder import Entry, StreamMerge, TimeOrder, at_timestamp, combine_orders, stream_of
from lars.errors import InputError, LarsError, ParseError, Position
from solver.spark import is_current, spark_context

Slice = tuple[int, tuple[Any, ...]]
DocumentParser = Callable[[str, str], "tuple[int, list[Any]]"]


def _check_paths(paths: Sequence[str]) -> list[str]:
    """The paths as strings; a missing local file is an :class:`InputError` before any work."""
    paths = [str(path) for path in paths]
    for path in paths:
        if "://" not in path:
            refuse_special_file(path)
        if "://" not in path and not os.path.isfile(path):
            reason = "it is a folder" if os.path.isdir(path) else "No such file or directory"
            raise InputError(f"cannot read the file: {reason}", Position(path))
    return paths


def shipped_path(path: str) -> str:
    """The path an executor opens for ``path``: an absolute path for a local file (executors work
    in folders of their own, where a relative path names nothing), a ``scheme://`` URI as it is.
    Positions in messages keep the path as the user gave it."""
    return path if "://" in path else os.path.abspath(path)


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


# --- the Spark job -----------------------------------------------------------------------

def _payload(error: LarsError, timestamp: tuple[int, LineParser] | None = None) -> tuple:
    """An error as plain data (``LarsError`` does not survive pickling with its position).

    ``timestamp`` is ``(time, parser)`` for a line going back in time: a record keeps the
    line's time, not its text, so the driver reads the line again to place the error at its
    timestamp (:func:`_rebuild`), as the local reader does."""
    return (type(error), error.message, error.position, error.hint, timestamp)


def _rebuild(payload: tuple) -> LarsError:
    kind, message, position, hint, timestamp = payload
    error = kind(message, position, hint)
    return error if timestamp is None else _at_timestamp(error, *timestamp)


def _at_timestamp(error: InputError, time: int, parser: LineParser) -> InputError:
    """``error`` placed at the timestamp of its line, read again from the file when the driver
    can open it (a ``scheme://`` path keeps the error without a column); it runs only for the
    few errors that are raised or reported."""
    where = error.position
    if where is None or where.source is None or where.line is None or "://" in where.source:
        return error
    try:
        raw = next(itertools.islice(read_lines(where.source), where.line - 1, None), None)
    except InputError:
        return error
    if raw is None:
        return error
    return at_timestamp(error, decode_line(raw, where.source, where.line), time, parser)


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
    """Rows → records ``(number, time, packed elements, error, stream)``."""
    for line, index in rows:
        number = index + 1
        try:
            parsed = parser(line, source, number)
        except ParseError as error:
            yield number, None, None, _payload(error), None
            continue
        if parsed is None:
            yield number, None, None, None, None
        else:
            yield number, parsed[0], _pack(parsed[1]), None, stream_of(parsed[1])


def _order_state(partition: int, records: Iterable[tuple]) -> Iterator[tuple]:
    """A partition's line count, its :class:`TimeOrder` end state (started from nothing) and
    the streams its lines arrive on."""
    order, count, streams = TimeOrder(""), 0, set()
    for number, time, _, _, stream in records:
        count += 1
        if time is not None:
            order.check(time, number)
            streams.add(stream)
    yield partition, count, order.state, streams


def _check_partition(file_index: int, source: str, parser: LineParser, starts: list, strict: bool,
                     partition: int, records: Iterable[tuple]) -> Iterator[tuple]:
    """Records → ``(kind, key, time, elements, error)`` with kind ``ok``, ``late`` or ``bad``:
    the file's lines all in one time order (one stream, or ``order="sort"``)."""
    order = TimeOrder(source, starts[partition])
    for number, time, elements, error, _ in records:
        key = (file_index, number)
        if error is not None:
            yield "bad", key, None, None, error
        elif time is not None:
            backwards = order.check(time, number)
            if backwards is None:
                yield "ok", key, time, elements, None
            else:
                payload = _payload(backwards, (time, parser))
                yield ("bad", key, None, None, payload) if strict else (
                    "late", key, time, elements, payload)


def _merge_errors(source: str, parser: LineParser, lines: Iterable[tuple[int, int, Any]],
                  stop: bool) -> dict[int, tuple]:
    """The lines that :class:`StreamMerge` refuses, ``{line number: error payload}``, for
    ``lines`` ``(number, time, stream)`` in file order: the local reader's per-stream order
    check, run on the driver over the lines' times and streams only. With ``stop`` the first
    refused line is enough."""
    merge, refused = StreamMerge(source), {}
    for number, time, stream in lines:
        error = merge.check(time, number, stream)
        if error is not None:
            refused[number] = _payload(error, (time, parser))
            if stop:
                break
        else:
            for _ in merge.push(Entry(time, (), Position(source, number))):
                pass  # only the time points handed on matter here
    return refused


def _check_merged(file_index: int, refused: dict[int, tuple], records: Iterable[tuple]
                  ) -> Iterator[tuple]:
    """Records → ``(kind, key, time, elements, error)``, the refused lines bad: a file whose
    streams interleave, each in its own time order (``order="strict"``)."""
    for number, time, elements, error, _ in records:
        key = (file_index, number)
        if error is not None:
            yield "bad", key, None, None, error
        elif number in refused:
            yield "bad", key, None, None, refused[number]
        elif time is not None:
            yield "ok", key, time, elements, None


def _checked_lines(context, file_index: int, path: str, parser: LineParser, policy: ReadPolicy,
                   partitions: int | None):
    """One line file as checked records, its number of lines, the cached parsed lines, and
    whether the records kept ascend in time (not so when several streams interleave).

    One stream (the common case) is checked partition by partition, each starting from the
    state its predecessors left. Several streams under ``order="strict"`` are merged as the
    local reader merges them (:class:`StreamMerge`): each stream's lines must ascend, and a
    stream may not start before what was already handed on. That check needs the lines in file
    order, so it runs on the driver over each line's time and stream (fetched a partition at a
    time); the records then keep their file order and are sorted by time when collected.
    """
    from pyspark import StorageLevel

    rows = context.textFile(shipped_path(path), partitions).zipWithIndex()
    parsed = rows.mapPartitions(lambda part: _parse_partition(parser, path, part)).persist(
        StorageLevel.DISK_ONLY)
    summaries = sorted(parsed.mapPartitionsWithIndex(_order_state).collect())
    count = sum(summary[1] for summary in summaries)
    strict = policy.order == "strict"
    if strict and len(set().union(*(summary[3] for summary in summaries))) > 1:
        times = parsed.filter(lambda record: record[1] is not None).map(
            lambda record: (record[0], record[1], record[4])).toLocalIterator()
        refused = _merge_errors(path, parser, times, stop=policy.on_error == "stop")
        checked = parsed.mapPartitions(lambda part: _check_merged(file_index, refused, part))
        return checked, count, parsed, False
    starts, state = [], None
    for summary in summaries:
        starts.append(state)
        state = combine_orders(state, summary[2])
    checked = parsed.mapPartitionsWithIndex(
        lambda partition, part: _check_partition(file_index, path, parser, starts, strict, partition, part))
    return checked, count, parsed, True


def _document_record(parser: DocumentParser, item: tuple[int, str, str]) -> tuple:
    file_index, path, shipped = item
    try:
        time, elements = parser(read_text(shipped), path)
    except (ParseError, InputError) as error:
        return "bad", (file_index, 0), None, None, _payload(error)
    return "ok", (file_index, 0), time, _pack(elements), None


def _runs(records: Iterable[tuple], stop: bool = False) -> Iterator[tuple]:
    """A partition's good and late records as runs ``("run", t, packed, key)`` of one time point
    (``key`` is the run's first record), then one ``("problems", ...)`` summary: counts and first
    messages of bad and late records.

    With ``stop`` (``on_error="stop"``) the partition ends at its first bad record: its summary
    comes right after the runs before that record, so a lazy reader raises before it could yield
    anything read after the bad record (and no task goes on parsing in vain).
    """
    bad, late, time, run, key = [], [], None, [], None
    for kind, record_key, record_time, packed, error in records:
        if kind != "ok":
            (bad if kind == "bad" else late).append((record_key, error))
        if kind == "bad":
            if stop:
                break
            continue
        if record_time != time and run:
            yield "run", time, tuple(run), key
            run = []
        if not run:
            key = record_key
        time = record_time
        run.append(packed)
    if run:
        yield "run", time, tuple(run), key
    first = lambda items, count: sorted(items, key=lambda item: item[0])[:count]  # noqa: E731
    yield "problems", len(bad), first(bad, MAX_MESSAGES), len(late), first(late, 1)


def _raise_first_bad(summaries: Iterable[tuple], policy: ReadPolicy) -> None:
    """Under ``on_error="stop"``, raise the first bad record of the summaries in file order."""
    if policy.on_error == "stop":
        bad = [item for part in summaries for item in part[2]]
        if bad:
            raise _rebuild(min(bad, key=lambda item: item[0])[1])


def _note_problems(summaries: list[tuple], policy: ReadPolicy, report: ReadReport) -> None:
    """Raise the first bad record (stop) or count bad and late ones, as the local reader does."""
    _raise_first_bad(summaries, policy)
    bad = sorted((item for part in summaries for item in part[2]), key=lambda item: item[0])
    late = sorted((item for part in summaries for item in part[4]), key=lambda item: item[0])
    for _, error in bad[:MAX_MESSAGES]:
        report.skip(_rebuild(error))
    report.skipped = sum(part[1] for part in summaries)
    if late:
        report.reorder(_rebuild(late[0][1]))
        report.reordered = sum(part[3] for part in summaries)


@contextmanager
def _spark_records(paths: list[str], parser: LineParser | DocumentParser, whole_files: bool,
                   master: str, policy: ReadPolicy, report: ReadReport, partitions: int | None,
                   conf: Mapping[str, str] | None) -> Iterator[Any]:
    """The job's records ``(kind, key, time, packed, error)`` in arrival order, as an RDD, and
    whether the records kept of each line file ascend in time.

    Runs inside the Spark context and counts the records read in ``report``. The parsed line
    files stay cached while the block runs and are unpersisted however it is left: by the
    collecting job at its end, by the lazy one also when its consumer closes it early.
    """
    with spark_context(master, conf, job="slicing the stream") as context:
        cached, ascending = [], True
        try:
            if whole_files:
                items = [(index, path, shipped_path(path)) for index, path in enumerate(paths)]
                records = context.parallelize(items, context.defaultParallelism).map(
                    lambda item: _document_record(parser, item))
                report.records += len(paths)
            else:
                parts = [_checked_lines(context, index, path, parser, policy, partitions)
                         for index, path in enumerate(paths)]
                cached.extend(part[2] for part in parts)
                records = context.union([part[0] for part in parts])
                report.records += sum(part[1] for part in parts)
                ascending = all(part[3] for part in parts)
            yield records, ascending
        finally:
            if is_current(context):  # a stopped context took its cache along
                for rdd in cached:
                    rdd.unpersist()


def _run_rdd(records, policy: ReadPolicy):
    """The records grouped into runs of one time point per partition, each ending in its summary."""
    stop = policy.on_error == "stop"
    return records.mapPartitions(lambda part: _runs(part, stop))


def _collect_slices(records, policy: ReadPolicy, report: ReadReport) -> list[Slice]:
    """Group by time on the executors (runs within a partition), merge on the driver.

    ``collect`` returns the partitions in order (files in order, lines in order), so appending
    each run to its time point keeps arrival order; no shuffle is needed, since the slices end
    up on the driver anyway.
    """
    collected = _run_rdd(records, policy).collect()
    _note_problems([item for item in collected if item[0] == "problems"], policy, report)
    packed: dict[int, list[bytes]] = {}
    for item in collected:
        if item[0] == "run":
            packed.setdefault(item[1], []).extend(item[2])
    with gc_paused():
        return [(time, _unpack(packed[time])) for time in sorted(packed)]


def _merge_runs(runs: Iterable[tuple], paths: list[str], policy: ReadPolicy, report: ReadReport,
                summaries: list[tuple]) -> Iterator[Slice]:
    """Runs ascending in time → slices, each yielded when the next time point begins.

    Consecutive runs of one time point (it can straddle partitions) make one slice. Each
    partition's summary is appended to ``summaries``, after raising its first bad record under
    ``on_error="stop"``: since a partition's runs stop at that record, nothing read after it is
    yielded, and the slice still open (perhaps incomplete) is dropped.

    Raises:
        InputError: a run earlier than the one before (whole files not listed in time order).
    """
    time, packed, latest = None, [], None
    for item in runs:
        if item[0] == "problems":
            _raise_first_bad([item], policy)
            summaries.append(item)
            continue
        _, run_time, run, key = item
        if run_time != time:
            if time is not None and run_time < time:
                path = paths[key[0]]
                raise InputError(
                    f"time point {run_time} goes back in time ({paths[latest[0]]} had {time})",
                    Position(path, key[1] or None),
                    hint="list the files in ascending time order, as turtle_files does, "
                         "or read them with slice_stream, which sorts them")
            if packed:
                yield _unpacked_slice(time, packed, report)
            time, packed = run_time, []
        packed.extend(run)
        latest = key
    if packed:
        yield _unpacked_slice(time, packed, report)


def _unpacked_slice(time: int, packed: list[bytes], report: ReadReport) -> Slice:
    with gc_paused():
        elements = _unpack(packed)
    report.elements += len(elements)
    return time, elements


def _streamed_slices(paths: list[str], parser: LineParser | DocumentParser, whole_files: bool,
                     master: str, policy: ReadPolicy, report: ReadReport, partitions: int | None,
                     conf: Mapping[str, str] | None) -> Iterator[Slice]:
    """The lazy job: runs fetched a partition at a time, merged into slices as they come.

    ``prefetchPartitions`` lets Spark compute the next partition while the driver reads this
    one: the driver's JVM holds at most two partitions' runs, the Python side one batch of runs
    and the slice being built. (In local mode the executors live in the driver's JVM as
    well.) However the iteration ends, the socket iterator is closed
    (which drains the partition being served and tells Spark to stop), the problems seen so far
    are noted in ``report``, and the cache goes.
    """
    with _spark_records(paths, parser, whole_files, master, policy, report, partitions,
                        conf) as (records, ascending):
        if not ascending:  # interleaved streams: no slice is complete before the job is
            slices = _collect_slices(records, policy, report)
            report.elements += sum(len(elements) for _, elements in slices)
            yield from slices
            return
        runs = _run_rdd(records, policy).toLocalIterator(prefetchPartitions=True)
        summaries: list[tuple] = []
        try:
            yield from _merge_runs(runs, paths, policy, report, summaries)
        finally:
            close = getattr(runs, "close", None)
            if close is not None:
                close()
            _note_problems(summaries, policy, report)


def _later(function: Callable[..., list[Slice]], *args: Any, **options: Any) -> Iterator[Slice]:
    """The list ``function(...)`` returns, computed at the first ``next`` and then yielded."""
    yield from function(*args, **options)


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
        conf: further Spark settings for a context that is not running yet.

    Raises:
        InputError: a missing file; a timestamp going back in time (strict order).
        ParseError: a bad line or file (``on_error="stop"``), as the local reader raises it.
    """
    report = require_report(policy, report)
    paths = _check_paths([paths] if isinstance(paths, (str, os.PathLike)) else paths)
    if not paths:
        return []
    with _spark_records(paths, parser, whole_files, master, policy, report, partitions,
                        conf) as (records, _):
        slices = _collect_slices(records, policy, report)
    report.elements += sum(len(elements) for _, elements in slices)
    return slices


def iter_slice_stream(paths: str | Sequence[str], parser: LineParser | DocumentParser, *,
                      whole_files: bool = False, master: str = "local[*]",
                      policy: ReadPolicy = ReadPolicy(), report: ReadReport | None = None,
                      partitions: int | None = None, conf: Mapping[str, str] | None = None
                      ) -> Iterator[Slice]:
    """The slices of :func:`slice_stream`, in the same order, yielded as the Spark job reads them.

    The driver fetches one partition at a time, so its memory stays flat however long the
    stream is. This needs the runs to arrive in ascending time, which holds for

    * one line file of one stream under ``order="strict"``: a line going back in time is a bad
      record (raised, or skipped under ``on_error="skip"``), so the lines kept ascend (a file
      of several interleaved streams is collected whole once the job has checked it);
    * whole files listed in ascending time order (:func:`ingest.rdffiles.turtle_files`
      lists a folder so); the times are checked as they come.

    Anything else falls back to :func:`slice_stream` (run at the first ``next``) and yields from
    its list: several line files arrive one after another, so a time point of the first file may
    get more elements from the last partition of the next; under ``order="sort"`` a line may
    belong before anything already read. Either way no slice is complete before the job is.

    The paths and the report are checked at once; the Spark job starts at the first ``next``.
    The generator keeps the context, and the parsed lines cached, until it is exhausted or
    closed (``close()``, or dropped): closing it early unpersists the cache and leaves the
    context running for the next job.

    Under ``on_error="stop"`` the first bad record (in file order) is raised before any slice
    read after it is yielded; the slices before it have been yielded by then, as a lazy reader
    must. Under ``on_error="skip"`` the report's counts equal :func:`slice_stream`'s once the
    iteration ends (if closed early: those of the partitions read).

    Args:
        paths, parser, whole_files, master, policy, report, partitions, conf: as for
            :func:`slice_stream`; ``partitions`` also bounds what the driver holds at once
            (about one partition).

    Raises:
        InputError: a missing file (at once); a timestamp going back in time (strict order);
            whole files not listed in ascending time order.
        ParseError: a bad line or file (``on_error="stop"``), as :func:`slice_stream` raises it.
    """
    report = require_report(policy, report)
    paths = _check_paths([paths] if isinstance(paths, (str, os.PathLike)) else paths)
    options = {"whole_files": whole_files, "master": master, "policy": policy, "report": report,
               "partitions": partitions, "conf": conf}
    if not paths or policy.order == "sort" or (len(paths) > 1 and not whole_files):
        return _later(slice_stream, paths, parser, **options)
    return _streamed_slices(paths, parser, **options)
