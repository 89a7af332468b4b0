"""The process's one Spark session: started quietly on first use, stopped at exit (SPEC section 8).

Both Spark jobs share it: slicing stream files (:mod:`ingest.slicing`) and solving time ranges
on executors (:mod:`solver.partition`). pyspark is imported only when the first session starts,
so nothing else in ``solver`` needs it.
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
    from pyspark.sql import SparkSession

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


_state: dict[str, Any] = {"session": None, "master": None, "log_dir": None, "atexit": False}


def _start(master: str, conf: Mapping[str, str]) -> SparkSession:
    from pyspark.sql import SparkSession  # here, so that slice_in_process works without pyspark

    check_master(master)  # a wrong URL or a master not there: at once, not after a minute
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
        with _jvm_stderr(os.path.join(log_dir, "spark.log")):
            session = builder.getOrCreate()
    except Exception as exc:  # pyspark's own error types vary by version: ours must not leak them
        cause = log_cause(os.path.join(log_dir, "spark.log"))
        shutil.rmtree(log_dir, ignore_errors=True)
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"cannot start Spark with master {master!r}: {first_line}",
                         hint=f"Spark's log says: {cause}" if cause else
                         "Spark needs Java 17 or later (on PATH or in JAVA_HOME)") from None
    session.sparkContext.setLogLevel("ERROR")
    _state.update(session=session, master=master, log_dir=log_dir)
    if not _state["atexit"]:
        atexit.register(stop_spark)
        _state["atexit"] = True
    return session


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
    """Stop this process's Spark session, if one runs (also called at exit)."""
    session, log_dir = _state["session"], _state["log_dir"]
    _state.update(session=None, master=None, log_dir=None)
    if session is not None:
        session.stop()
    if log_dir is not None:
        shutil.rmtree(log_dir, ignore_errors=True)


def is_current(session: SparkSession) -> bool:
    """Whether ``session`` is still this process's session (a stopped one took its caches along)."""
    return _state["session"] is session


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
def spark_session(master: str = "local[*]", conf: Mapping[str, str] | None = None,
                  job: str = "a Spark job") -> Iterator[SparkSession]:
    """The process's one Spark session (started quietly on first use, stopped at exit).

    A session with another master is stopped first. Leaving the block through Ctrl-C or an
    unexpected exception stops the session too; an error about the user's input
    (:class:`~lars.errors.LarsError`) leaves it running for the next job, and so does closing a
    generator that was reading inside the block (``GeneratorExit``: its consumer stopped early).

    Args:
        master: ``local[*]``, ``local[2]``, ``spark://host:7077``, ...
        conf: further Spark settings, used when the session starts.
        job: what the block does, named when it fails on the cluster.

    Raises:
        RemoteError: the block failed inside Spark for another reason than a
            :class:`~lars.errors.LarsError` (which reaches the caller as itself): one line naming
            ``job`` and the remote cause; the remote trace is its ``__cause__`` (``--debug``).
    """
    if _state["session"] is not None and _state["master"] != master:
        stop_spark()
    session = _state["session"] or _start(master, conf or {})
    try:
        yield session
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
