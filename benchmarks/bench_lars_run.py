"""``lars run`` end to end on generated LARS workloads: input facts per second of CPU time.

Each workload is a LARS program and an atom stream file of ``--points`` time points ×
``--rate`` facts (the streams of ``bench_strategies.py``: ``copy`` and the ``⊞^32`` workloads
over ``p(X)`` with values from ``2·rate`` constants, ``join`` over ``p(X,Y)``), written once to
``--workdir``. ``lars run PROGRAM --stream FILE --output answers.jsonl`` runs in a fresh process
and the operating system's accounting of it is reported: CPU seconds (user + system: reading,
parsing, solving, writing, and the start-up), input facts per CPU second, peak memory. Run:

    .venv/bin/python benchmarks/bench_lars_run.py                 # 1000 x 1000, all workloads
    .venv/bin/python benchmarks/bench_lars_run.py --points 200 --workloads copy diamond
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_strategies import generated_slices
from processes import compiled_environment

ROOT = Path(__file__).parent.parent
CLI = "from agreement.cli import console; console()"
PROGRAMS = {
    "copy": ("q(X) :- p(X).", "diamond"),
    "box": ("q(X) :- [32] [] p(X).", "diamond"),
    "diamond": ("q(X) :- [32] <> p(X).", "diamond"),
    "join": ("q(X,Z) :- [32] <> p(X,Y), [32] <> p(Y,Z).", "join"),
    "diamond512": ("q(X) :- [512] <> p(X).", "diamond"),
}
"""Workload → (program, the stream of ``bench_strategies.generated_slices`` it reads)."""


def stream_file(kind: str, points: int, rate: int, workdir: Path) -> Path:
    """The atom stream file of one generated stream, written if it is not there yet."""
    path = workdir / f"lars-{kind}-{points}x{rate}.txt"
    if not path.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as out:
            for t, atoms in generated_slices(kind, points, rate, 32):
                out.write(f"{t}: " + ", ".join(f"p({','.join(str(a.value) for a in atom.args)})"
                                               for atom in atoms) + "\n")
    return path


def measure(program: str, stream: Path, folder: Path) -> tuple[float, int]:
    """CPU seconds and peak MB of one ``lars run`` in a fresh process."""
    source = folder / "program.lars"
    source.write_text(program + "\n")
    argv = [sys.executable, "-c", CLI, "run", str(source), "--stream", str(stream), "--quiet",
            "--output", str(folder / "answers.jsonl"), "--output-format", "jsonl"]
    child = subprocess.Popen(argv, env=compiled_environment(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"lars run failed: {child.stderr.read().decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", nargs="*", default=list(PROGRAMS), choices=list(PROGRAMS))
    parser.add_argument("--points", type=int, default=1000)
    parser.add_argument("--rate", type=int, default=1000, help="facts per time point")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lars-bench")
    args = parser.parse_args(argv)
    facts = args.points * args.rate
    print("workload | program | facts | cpu_s | facts_per_cpu_s | peak_mb")
    for name in args.workloads:
        program, kind = PROGRAMS[name]
        stream = stream_file(kind, args.points, args.rate, args.workdir)
        with tempfile.TemporaryDirectory() as folder:
            cpu, peak = measure(program, stream, Path(folder))
        print(f"{name} | {program} | {facts:,} | {cpu:.2f} | {facts / cpu:,.0f} | {peak}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
