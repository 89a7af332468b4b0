"""``lars agree`` in one process against ``lars agree --partitions`` on a standalone Spark cluster.

Issue 30's measure: on an N-triple replay of the CSRBench stream (:mod:`replay_csrbench`), a
master and two single-core workers on loopback (started with pyspark's ``spark-class``, as
``docs/spark.md`` shows, and stopped at the end), ``lars agree`` on CSRBench Q1 runs once in
process (``--spark never``) and once with each side's ranges solved as Spark tasks whose
executors read their byte ranges of the file (``--master … --spark always --partitions P``).
The driver reads no triple of the stream (:mod:`agreement.agree.arrivals`), and the workers
explain the disagreeing intervals of their ranges (:mod:`agreement.agree.rangecheck`). It prints each
run's wall time and the driver's peak resident memory (the ``lars`` Python process's ``VmHWM``,
sampled while it runs; beside it, the peak of the Spark driver's JVM, a child of that process),
their ratio, and whether the two runs give the same verdict (exit status) and the same report,
byte for byte (verdicts, intervals, answers, explanations: they must). The in-process report
is kept in the work folder, so ``--cluster-only`` runs just the cluster half against it. Run
from the project's folder:

    .venv/bin/python benchmarks/bench_spark_agree.py 100000          # ~2 minutes
    .venv/bin/python benchmarks/bench_spark_agree.py 10000000 --partitions 4   # issue 30's size
    .venv/bin/python benchmarks/bench_spark_agree.py 10000000 --partitions 4 --cluster-only

(Figures and where the time goes: ``docs/spark.md``, "Benchmark: lars agree on a cluster".)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay_csrbench import stream_file

ROOT = Path(__file__).resolve().parents[1]
QUERY = ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq"
CLI = "from agreement.cli import console; console()"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(log: Path, text: str, process: subprocess.Popen, seconds: float = 240) -> None:
    """Wait until ``text`` is in ``log`` (a JVM's output); raise if it dies or takes too long."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if text in log.read_text(errors="replace"):
            return
        time.sleep(0.5)
    raise RuntimeError(f"{text!r} not seen in {log}")


def start(command: list[str], log: Path, environment: dict) -> subprocess.Popen:
    """A JVM in a process group of its own (so that it can be stopped with its children)."""
    with open(log, "w") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment,
                                start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    """End the process group ``process`` leads (only those this benchmark started)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def peaks(pid: int) -> tuple[int, int]:
    """The peak resident KiB (``VmHWM``) of process ``pid`` and the largest among its children
    (the Spark driver's JVM); 0 for one that is gone."""
    def peak(process: int) -> int:
        try:
            status = Path(f"/proc/{process}/status").read_text()
        except OSError:
            return 0
        return max([0] + [int(line.split()[1]) for line in status.splitlines()
                          if line.startswith("VmHWM:")])
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return peak(pid), max([0] + [peak(int(child)) for child in children])


def measured(args: list[str]) -> tuple[float, int, int, str, int]:
    """Run ``lars *args``: wall seconds, the process's and its largest child's peak resident
    MiB, stdout, exit status."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYSPARK_PYTHON": sys.executable}
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen([sys.executable, "-c", CLI, *args], stdout=out,
                                   stderr=subprocess.DEVNULL, env=environment)
        peak = child = 0
        while process.poll() is None:
            now = peaks(process.pid)
            peak, child = max(peak, now[0]), max(child, now[1])
            time.sleep(0.1)
        seconds = time.perf_counter() - started
        out.seek(0)
        return seconds, peak // 1024, child // 1024, out.read(), process.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, nargs="?", default=100_000, help="triples to replay")
    parser.add_argument("--partitions", type=int, default=2, help="ranges per side (default 2)")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lars-bench",
                        help="where the replayed streams and the in-process reports are kept")
    parser.add_argument("--cluster-only", action="store_true",
                        help="run only the cluster half, against the in-process report kept by an "
                             "earlier run of the same size")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the cluster on a timeout too
    import pyspark
    launcher = str(Path(pyspark.__file__).parent / "bin" / "spark-class")
    stream = stream_file(args.count, args.workdir)
    agree = ["agree", str(QUERY), "--stream", str(stream), "--period", "10s", "--format", "json"]
    kept = args.workdir / f"agree-q1-{args.count}.json"
    print(f"{args.count:,} triples ({stream}, {stream.stat().st_size / 2**20:,.0f} MiB), Q1, "
          f"period 10s; {os.cpu_count()} cores", flush=True)
    if args.cluster_only:
        if not kept.exists():
            parser.error(f"no in-process report at {kept}: run once without --cluster-only")
        saved = json.loads(kept.read_text())
        local = (saved["seconds"], saved["peak"], 0, saved["report"], saved["exit"])
        print(f"in process:       {local[0]:7.1f} s, peak {local[1]:5} MiB, exit {local[4]} "
              f"(kept from an earlier run: {kept}; a report of older code may differ in form)")
    else:
        local = measured([*agree, "--spark", "never"])
        kept.write_text(json.dumps({"seconds": local[0], "peak": local[1], "report": local[3],
                                    "exit": local[4]}))
        print(f"in process:       {local[0]:7.1f} s, peak {local[1]:5} MiB, exit {local[4]}",
              flush=True)
    folder = Path(tempfile.mkdtemp(prefix="lars-spark-"))
    environment = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
                   "PYTHONPATH": str(ROOT), "SPARK_WORKER_DIR": str(folder / "work")}
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    started: list[subprocess.Popen] = []
    try:
        started.append(start([launcher, "org.apache.spark.deploy.master.Master", "--host",
                              "127.0.0.1", "--port", str(port), "--webui-port", str(free_port())],
                             folder / "master.log", environment))
        wait_for(folder / "master.log", "I have been elected leader", started[0])
        for index in range(2):
            log = folder / f"worker{index}.log"
            started.append(start([launcher, "org.apache.spark.deploy.worker.Worker", url,
                                  "--cores", "1", "--memory", "1g", "--webui-port", str(free_port())],
                                 log, environment))
            wait_for(log, "Successfully registered with master", started[-1])
        cluster = measured([*agree, "--master", url, "--spark", "always",
                            "--partitions", str(args.partitions)])
    finally:
        for process in reversed(started):
            stop(process)
    print(f"cluster ({args.partitions} ranges per side, 2 single-core workers): {cluster[0]:7.1f} s, "
          f"driver peak {cluster[1]:5} MiB (Python; Spark's driver JVM {cluster[2]} MiB), "
          f"exit {cluster[4]}")
    same = local[3] == cluster[3] and local[4] == cluster[4]
    if not same:  # kept beside the in-process report, to be compared with it
        (args.workdir / f"agree-q1-{args.count}-cluster.json").write_text(cluster[3])
    print(f"wall time in process / on the cluster: {local[0] / cluster[0]:.2f}x (target >= 1.3); "
          f"driver peak {cluster[1]} + {cluster[2]} = {cluster[1] + cluster[2]} MiB, Python and "
          f"JVM together (target < 300); same verdict: {local[4] == cluster[4]}; "
          f"same report, answers and explanations: {local[3] == cluster[3]}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
