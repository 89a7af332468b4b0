"""The process's one Spark context: started quietly on first use, stopped at exit (SPEC section 8).

Both Spark jobs share it: slicing stream files (:mod:`ingest.slicing`) and solving time ranges
on executors (:mod:`solver.partition`). Both are RDD jobs, so a bare ``SparkContext`` serves
them: no ``SparkSession``, whose SQL machinery no job of ours uses and whose start costs the
driver's JVM time and memory. pyspark is imported only when the first context starts, so
nothing else in ``solver`` needs it.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from lars.errors import InputError, LarsError, RemoteError
from solver.sparkmaster import check_master

if TYPE_CHECKING:
    from pyspark import SparkContext

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

DRIVER_JAVA_OPTIONS = ("-XX:+UseSerialGC", "-Xmn16m", "-XX:TieredStopAtLevel=1")
"""Options of Spark's driver JVM that keep its resident memory small (issue 30).

The driver JVM only schedules tasks and hands their results to Python, so it needs little: what
its peak holds is mostly garbage from starting Spark, and JIT compilation. Measured on ``lars
agree`` (CSRBench Q1, 10^4 triples, a standalone cluster of two single-core workers, peak RSS of
the JVM; ``docs/spark.md``): a SparkContext alone 266 MiB; ``-Xmn16m`` (a 16 MiB young
generation, so that the first collections come before a large eden is touched; the default
sizes it from the machine's memory) with the serial collector 214 MiB (G1 with it 220, the
serial collector alone 301); ``-XX:TieredStopAtLevel=1`` (the C1 compiler only: C2's compiler
arenas peaked at 27 MiB) 181 MiB. Tried without a gain beyond the noise (±8 MiB): a 512 MiB
heap (``spark.driver.memory``; Spark refuses less than 450 MiB), ``-Xss256k``,
``MALLOC_ARENA_MAX=2``, Netty on heap buffers (``spark.*.io.preferDirectBufs=false``). What stays
is class metadata (~57 MiB for Spark's 10,600 classes, plus 14 MiB of symbols), the heap's live
part and the JVM's own code. ``-Xmx`` is not allowed here (Spark's launcher sets it from
``spark.driver.memory``)."""


@contextmanager
def _jvm_stderr(log_path: str) -> Iterator[None]:
    """Start Spark's JVM with its standard error going to ``log_path`` instead of ours.

    The JVM inherits file descriptor 2 when pyspark launches it, and keeps what it got: the
    JVM's own notices (``WARNING: Using incubator modules``) and Spark's error log then stay out
    of the command's one-line messages, which is what a user reads (issue 30). Failures still
    reach the user, as the exceptions pyspark raises in Python. ``LARS_SPARK_LOG=stderr`` keeps
    the JVM on our standard error (to see Spark's own log).
    """
    if os.environ.get("LARS_SPARK_LOG") == "stderr":
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.dup2(log, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(log)


def _drop_numpy_converters() -> None:
    """Take pyspark's numpy converters out of py4j's input converters (issue 30: driver memory).

    pyspark registers converters that py4j asks about every argument of every call into the
    JVM; the two for numpy values import ``pyspark.testing.utils`` to learn whether numpy is
    installed, and that module imports pandas, pyarrow and numpy: 82 MiB of the driver's Python,
    more than half its peak, and pyspark's pandas-version warning. No call of ours passes numpy
    values to the JVM. The list is py4j's own (its gateways use it, not a copy), so it is
    changed in place.
    """
    from py4j.protocol import INPUT_CONVERTER
    from pyspark.sql.types import NumpyArrayConverter, NumpyScalarConverter

    INPUT_CONVERTER[:] = [converter for converter in INPUT_CONVERTER
                          if not isinstance(converter, (NumpyArrayConverter, NumpyScalarConverter))]


_state: dict[str, Any] = {"context": None, "master": None, "log_dir": None, "atexit": False}


def _settings(master: str, log_config: str, conf: Mapping[str, str]) -> dict[str, str]:
    """The Spark settings a context starts with: ours, then ``conf`` (which may override them)."""
    log_option = f"-Dlog4j2.configurationFile=file:{log_config}"
    return {"spark.master": master, "spark.app.name": "lars",
            "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
            "spark.driver.extraJavaOptions": " ".join((log_option, *DRIVER_JAVA_OPTIONS)),
            "spark.executor.extraJavaOptions": log_option, **conf}


def _start(master: str, conf: Mapping[str, str]) -> SparkContext:
    from pyspark import SparkConf, SparkContext  # here, so that slice_in_process needs no pyspark

    check_master(master)  # a wrong URL or a master not there: at once, not after a minute
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    log_dir = tempfile.mkdtemp(prefix="lars-spark-")
    log_config = os.path.join(log_dir, "log4j2.properties")
    with open(log_config, "w", encoding="utf-8") as file:
        file.write(_LOG4J2)
    _drop_numpy_converters()
    settings = SparkConf().setAll(_settings(master, log_config, conf).items())
    try:
        with _jvm_stderr(os.path.join(log_dir, "spark.log")):
            context = SparkContext.getOrCreate(settings)
    except Exception as exc:  # pyspark's own error types vary by version: ours must not leak them
        cause = log_cause(os.path.join(log_dir, "spark.log"))
        shutil.rmtree(log_dir, ignore_errors=True)
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"cannot start Spark with master {master!r}: {first_line}",
                         hint=f"Spark's log says: {cause}" if cause else
                         "Spark needs Java 17 or later (on PATH or in JAVA_HOME)") from None
    context.setLogLevel("ERROR")
    _state.update(context=context, master=master, log_dir=log_dir)
    if not _state["atexit"]:
        atexit.register(stop_spark)
        _state["atexit"] = True
    return context


_LOGGED_CAUSES = (re.compile(r"\b[\w.]*(?:Exception|Error): (.+)$"), re.compile(r"^ERROR [\w.$]+: (.+)$"))
"""An exception's message in Spark's log, else an ``ERROR`` line's (``Error initializing ...``)."""


def log_cause(path: str) -> str | None:
    r"""The first error Spark's log at ``path`` names (``Could not parse Master URL: ...``), if
    the log exists and names one: why the session did not start, in one line.

    >>> import tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "spark.log"
    >>> _ = log.write_text("WARNING: Using incubator modules\n"
    ...     "Exception in thread main org.apache.spark.SparkException: Could not parse Master "
    ...     "URL: 'spark//h:1'\n\tat org.apache.spark.SparkContext...\n")
    >>> log_cause(str(log))
    "Could not parse Master URL: 'spark//h:1'"
    """
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            lines = [line.strip() for line in file]
    except OSError:
        return None
    found = (match.group(1) for pattern in _LOGGED_CAUSES for line in lines
             if (match := pattern.search(line)))
    return next(found, None)


def stop_spark() -> None:
    """Stop this process's Spark context, if one runs (also called at exit)."""
    context, log_dir = _state["context"], _state["log_dir"]
    _state.update(context=None, master=None, log_dir=None)
    if context is not None:
        context.stop()
    if log_dir is not None:
        shutil.rmtree(log_dir, ignore_errors=True)


def is_current(context: SparkContext) -> bool:
    """Whether ``context`` is still this process's context (a stopped one took its caches along)."""
    return _state["context"] is context


_OURS = re.compile(r"^(?:ParseError|InputError|UnsupportedError|LimitError|SolverError|"
                   r"RemoteError): (.*\berror: .*)$")
"""The last line of a remote trace raised by one of our errors: its class, then its own line."""
_CAUSE = re.compile(r"^\s*(?:[\w.]+\.)?(\w+(?:Error|Exception|Exit)\b.*)$")


def remote_cause(error: BaseException) -> str:
    """The one line that says why a Spark job failed: the last ``SomethingError: …`` line of the
    remote trace pyspark hands back (a Python worker's traceback, or a Java stack trace), else
    the error's first line.

    >>> remote_cause(RuntimeError("Job aborted\\nTraceback (most recent call last):\\n"
    ...     '  File "x.py", line 1\\nFileNotFoundError: [Errno 2] No such file: \\'s.nt\\''))
    "FileNotFoundError: [Errno 2] No such file: 's.nt'"
    """
    text = str(error)
    causes = [match.group(1) for line in text.splitlines() if (match := _CAUSE.match(line))]
    return causes[-1] if causes else (text.strip().splitlines() or [type(error).__name__])[0]


def remote_error(error: Exception, job: str, master: str) -> RemoteError:
    """The one-line error for ``job`` failing inside Spark with ``error``: an error of ours raised
    on an executor as the line it printed there, anything else naming the job and its cause."""
    cause = remote_cause(error)
    ours = _OURS.match(cause)
    if ours:
        return RemoteError.forwarded(ours.group(1))
    return RemoteError(f"{job} failed on Spark ({master}): {cause}",
                       hint="run with --debug for the remote trace")


@contextmanager
def spark_context(master: str = "local[*]", conf: Mapping[str, str] | None = None,
                  job: str = "a Spark job") -> Iterator[SparkContext]:
    """The process's one Spark context (started quietly on first use, stopped at exit).

    A context with another master is stopped first. Leaving the block through Ctrl-C or an
    unexpected exception stops the context too; an error about the user's input
    (:class:`~lars.errors.LarsError`) leaves it running for the next job, and so does closing a
    generator that was reading inside the block (``GeneratorExit``: its consumer stopped early).

    Args:
        master: ``local[*]``, ``local[2]``, ``spark://host:7077``, ...
        conf: further Spark settings, used when the context starts.
        job: what the block does, named when it fails on the cluster.

    Raises:
        RemoteError: the block failed inside Spark for another reason than a
            :class:`~lars.errors.LarsError` (which reaches the caller as itself): one line naming
            ``job`` and the remote cause; the remote trace is its ``__cause__`` (``--debug``).
    """
    if _state["context"] is not None and _state["master"] != master:
        stop_spark()
    context = _state["context"] or _start(master, conf or {})
    try:
        yield context
    except (LarsError, GeneratorExit):
        raise
    except Exception as error:
        stop_spark()
        if type(error).__module__.split(".")[0] in ("pyspark", "py4j"):  # failed inside Spark
            raise remote_error(error, job, master) from error
        raise  # a bug of ours on the driver stays an internal error
    except BaseException:
        stop_spark()
        raise
