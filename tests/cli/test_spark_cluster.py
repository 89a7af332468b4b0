"""``lars run`` and ``lars agree`` against a real standalone Spark cluster on this machine.

One cluster serves every test of the module: where it can, it is the one ``docs/spark.md``'s
``cluster-start`` block starts as written (at the documented port 7077, with the project's
``.venv``), and ``test_the_documented_cluster_commands_run_as_written`` runs the ``cluster-run``
block on it as written, from the project's folder, with relative paths (issue 30: the executors
opened relative paths in their own folders), and compares what they print with the same commands
without a cluster. Elsewhere (port 7077 taken, no ``.venv``) that test is skipped and a master and
a worker are started on free ports with the launcher that ships with pyspark (``bin/spark-class``).

The commands run in fresh processes with ``--master spark://127.0.0.1:PORT`` (``lars run``
also with ``--partitions 2``, so the ranges are solved as tasks on the worker's executors: over
a Turtle folder read by the driver, and over an N-Triples file each executor reads its range of
itself), and their output must equal the in-process run's (on the documented cluster, the run
over the folder is the documented one's). The cluster is stopped at the end, whatever happened.
Slow: two JVMs start (half a minute on a busy machine), and each command on the cluster starts
a driver and an executor.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.rdffiles import CSRBENCH_STREAM, read_turtle_folder

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
CLI = "import sys; from agreement.cli import main; sys.exit(main())"

pytestmark = [pytest.mark.slow, pytest.mark.spark]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def spark_class() -> Path:
    pyspark = pytest.importorskip("pyspark")
    if shutil.which("java") is None and "JAVA_HOME" not in os.environ:
        pytest.skip("Spark needs Java")
    return Path(pyspark.__file__).parent / "bin" / "spark-class"


def wait_for(log: Path, text: str, process: subprocess.Popen, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            break
        time.sleep(0.5)
    raise AssertionError(f"{text!r} not seen in {log}:\n{log.read_text(errors='replace')[-2000:]}")


DOCUMENTED = "spark://127.0.0.1:7077"
"""The master ``docs/spark.md`` starts and its commands name."""


def doc_block(name: str) -> str:
    text = (ROOT / "docs" / "spark.md").read_text(encoding="utf-8")
    block = re.search(rf"<!-- {name} -->\n```bash\n(.*?)```\n<!-- /{name} -->", text, re.S)
    assert block, f"docs/spark.md has no {name} block"
    return block.group(1)


def port_in_use(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def documented_start_possible() -> bool:
    """Whether the ``cluster-start`` block can run as written here: it uses the project's
    ``.venv`` (scripts/setup.sh makes it) and port 7077."""
    return (ROOT / ".venv" / "bin" / "python").exists() and not port_in_use(7077)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """``spark://127.0.0.1:PORT`` of a master with one worker (2 cores), stopped afterwards:
    :data:`DOCUMENTED`, started by ``docs/spark.md``'s block as written (from the project's
    folder, in a shell of its own), where :func:`documented_start_possible`, else on free ports."""
    launcher = spark_class()
    folder = tmp_path_factory.mktemp("spark-cluster")
    started = []
    try:
        if documented_start_possible():
            url, log = DOCUMENTED, folder / "cluster.log"
            with open(log, "w") as out:
                started.append(subprocess.Popen(
                    ["bash", "-c", doc_block("cluster-start") + "wait\n"], cwd=ROOT, stdout=out,
                    stderr=subprocess.STDOUT, env={**os.environ, "SPARK_WORKER_DIR": str(folder / "work")},
                    start_new_session=True))
            wait_for(log, "Successfully registered with master", started[0])
            yield url
            return
        environment = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
                       "PYTHONPATH": str(ROOT), "SPARK_WORKER_DIR": str(folder / "work")}
        port = free_port()
        url = f"spark://127.0.0.1:{port}"
        master_log = folder / "master.log"
        with open(master_log, "w") as log:
            started.append(subprocess.Popen(
                [str(launcher), "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                 "--port", str(port), "--webui-port", str(free_port())],
                stdout=log, stderr=subprocess.STDOUT, env=environment, start_new_session=True))
        wait_for(master_log, "I have been elected leader", started[0])
        worker_log = folder / "worker.log"
        with open(worker_log, "w") as log:
            started.append(subprocess.Popen(
                [str(launcher), "org.apache.spark.deploy.worker.Worker", url, "--cores", "2",
                 "--memory", "1g", "--webui-port", str(free_port())],
                stdout=log, stderr=subprocess.STDOUT, env=environment, start_new_session=True))
        wait_for(worker_log, "Successfully registered with master", started[1])
        yield url
    finally:
        for process in reversed(started):  # only the process groups started here
            stop_group(process)


def stop_group(process: subprocess.Popen) -> None:
    """End the process group ``process`` leads (started with ``start_new_session``)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def lars(*args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYSPARK_PYTHON": sys.executable}
    return subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True,
                          env=environment, timeout=900)


@pytest.fixture(scope="module")
def stream_file(tmp_path_factory) -> Path:
    """The bundled CSRBench stream as one timestamped N-Triples file (as replay_csrbench.py
    writes its first round)."""
    path = tmp_path_factory.mktemp("csrbench") / "stream.nt"
    with path.open("w", encoding="utf-8") as out:
        for element in read_turtle_folder(CSRBENCH / "stream"):
            triple = " ".join(term.n3() for term in element.triple)
            out.write(f"{triple} {CSRBENCH_STREAM.n3()} {element.time}\n")
    return path


@pytest.mark.parametrize("form", ["q1-cqels", "q1-csparql"])
def test_run_with_partitions_reading_the_file_on_the_executors(cluster, stream_file, form):
    """Each executor seeks to its range of the stream file and reads it (ingest/ranges.py)."""
    query = str(CSRBENCH / "queries" / f"{form}.rq")
    local = lars("run", query, "--stream", str(stream_file), "--spark", "never", "--format", "json",
                 "--quiet")
    remote = lars("run", query, "--stream", str(stream_file), "--master", cluster,
                  "--partitions", "2", "--format", "json", "--quiet")
    assert local.returncode == 0 and remote.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout) != []


def test_run_with_partitions_on_the_cluster_equals_the_run_in_process(cluster):
    """The documented commands' ``lars run``, which on :data:`DOCUMENTED` their test runs: its
    table lists every answer, time and binding, as this JSON does."""
    if cluster == DOCUMENTED:
        pytest.skip("test_the_documented_cluster_commands_run_as_written runs this command")
    query, stream = str(CSRBENCH / "queries" / "q1-cqels.rq"), str(CSRBENCH / "stream")
    local = lars("run", query, "--stream", stream, "--spark", "never", "--format", "json", "--quiet")
    remote = lars("run", query, "--stream", stream, "--spark", "always", "--master", cluster,
                  "--partitions", "2", "--format", "json", "--quiet")
    assert local.returncode == 0 and remote.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_agree_reading_on_the_cluster_equals_the_check_in_process(cluster):
    query, stream = str(CSRBENCH / "queries" / "q1-cqels.rq"), str(CSRBENCH / "stream")
    local = lars("agree", query, "--stream", stream, "--period", "10s", "--spark", "never",
                 "--format", "json")
    remote = lars("agree", query, "--stream", stream, "--period", "10s", "--spark", "always",
                  "--master", cluster, "--format", "json")
    assert local.returncode == 1 and remote.returncode == 1, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_the_documented_cluster_commands_run_as_written(cluster):
    if cluster != DOCUMENTED:
        pytest.skip("the documented cluster needs the project's .venv (scripts/setup.sh makes it) "
                    "and port 7077 free")
    commands = doc_block("cluster-run")
    remote = subprocess.run(["bash", "-c", commands], cwd=ROOT, capture_output=True,
                            text=True, env=os.environ, timeout=900)
    local_commands = re.sub(r"\s*--master \S+ --spark always( --partitions 2)?", "",
                            commands.replace("\\\n", " "))
    local = subprocess.run(["bash", "-c", local_commands], cwd=ROOT, capture_output=True,
                           text=True, env=os.environ, timeout=900)
    assert remote.returncode == local.returncode == 1, remote.stderr  # agree: they disagree
    assert remote.stdout == local.stdout != ""
    assert "error" not in remote.stderr, remote.stderr
    assert "range(s) solved as Spark tasks on spark://127.0.0.1:7077" in remote.stderr
    assert "WARNING" not in remote.stderr and "pandas" not in remote.stderr, remote.stderr
