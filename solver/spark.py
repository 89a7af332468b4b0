"""The process's one Spark session: started quietly on first use, stopped at exit (SPEC section 8).

Both Spark jobs share it: slicing stream files (:mod:`ingest.slicing`) and solving time ranges
on executors (:mod:`solver.partition`). pyspark is imported only when the first session starts,
so nothing else in ``solver`` needs it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from lars.errors import InputError, LarsError

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


def is_current(session: SparkSession) -> bool:
    """Whether ``session`` is still this process's session (a stopped one took its caches along)."""
    return _state["session"] is session


@contextmanager
def spark_session(master: str = "local[*]", conf: Mapping[str, str] | None = None
                  ) -> Iterator[SparkSession]:
    """The process's one Spark session (started quietly on first use, stopped at exit).

    A session with another master is stopped first. Leaving the block through Ctrl-C or an
    unexpected exception stops the session too; an error about the user's input
    (:class:`~lars.errors.LarsError`) leaves it running for the next job, and so does closing a
    generator that was reading inside the block (``GeneratorExit``: its consumer stopped early).

    Args:
        master: ``local[*]``, ``local[2]``, ``spark://host:7077``, ...
        conf: further Spark settings, used when the session starts.
    """
    if _state["session"] is not None and _state["master"] != master:
        stop_spark()
    session = _state["session"] or _start(master, conf or {})
    try:
        yield session
    except (LarsError, GeneratorExit):
        raise
    except BaseException:
        stop_spark()
        raise
