"""What the benchmarks measure about processes: a child's CPU and peak memory, Spark's JVM peak memory, a failed run's reason."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def descendants_peak_mb() -> int:
    """The largest peak resident memory (``VmHWM``) among the living descendants of this
    process: Spark's JVM, read before the session stops (a stopped JVM that nobody waits for
    never shows in ``RUSAGE_CHILDREN``). 0 if there are none (Linux ``/proc`` only)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    peak, todo = 0, list(parents.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo.extend(parents.get(pid, []))
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]) // 1024)
    return peak


def last_line(text: str) -> str:
    """The last non-blank line of a failed run's stderr: usually the error itself."""
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "(no message)"


@cache
def compiled_environment() -> dict[str, str]:
    """The environment of a measured ``lars`` command: this checkout first on the path, and its
    modules' bytecode compiled once into a cache of its own (``PYTHONPYCACHEPREFIX``), as an
    installed package has it. Without it, where ``PYTHONDONTWRITEBYTECODE`` is set, every run
    compiled some 140 modules from source again (about 1 s of CPU, counted as start-up)."""
    cache = Path(tempfile.gettempdir()) / "lars-bench-pycache"
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(cache)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    packages = [str(ROOT / name) for name in ("agreement", "lars", "solver", "ingest", "translate")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], env=environment,
                   check=True, stdout=subprocess.DEVNULL)
    return environment


def measured(argv: list[str], output: Path, environment: dict[str, str] | None = None
             ) -> tuple[float, int, int]:
    """Run ``argv`` with stdout to ``output`` (in ``environment``; by default this one with
    this checkout on its path): CPU seconds, peak MB, exit status."""
    environment = environment or {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(output, "w") as out:
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=environment)
        _, status, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, os.waitstatus_to_exitcode(status)
