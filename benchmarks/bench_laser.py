"""``lars run`` side by side with Laser++ (C++ LARS stream reasoner): CPU time and answers.

Laser++ (https://github.com/maspadaru/laser-plus-plus, its ``simpleapp``) is built from a
checkout given with ``--laser-source`` (CMake, Release) or taken ready with ``--laser-binary``.
Both engines read the same generated stream of ``bench_lars_run.py`` (``--points`` time points
× ``--rate`` facts; Laser++ gets it in its own line format, ``t : p(1), p(2)`` after a
``start end`` header) and run the same rule, single thread, each in a fresh process; the
operating system's accounting of each process gives CPU seconds (user + system, start-up
included). The answers are compared time point by time point: the set of derived atoms
(``q(...)``) of each time point must be equal, otherwise the row says ``DIFFERENT`` and the
first differing time point. (On the ``join`` workload they differ: Laser++ misses
derivations; at 50 × 100, t=14, it lacks ``q(183181,442906)`` although ``p(183181,358566)``
arrived at t=5 and ``p(358566,442906)`` at t=14, both in the window ``[t-32, t]``.) Run:

    .venv/bin/python benchmarks/bench_laser.py --laser-source /path/to/laser-plus-plus
    .venv/bin/python benchmarks/bench_laser.py --laser-binary build/simpleapp --points 200
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bench_lars_run import PROGRAMS, measure, stream_file

LASER_PROGRAMS = {
    "copy": "q(X) := p(X)",
    "box": "q(X) := [$, 32] [B] p(X)",
    "diamond": "q(X) := [$, 32] [D] p(X)",
    "join": "q(X, Z) := [$, 32] [D] p(X, Y) && [$, 32] [D] p(Y, Z)",
    "diamond512": "q(X) := [$, 512] [D] p(X)",
}
"""Workload → the same rule as ``bench_lars_run.PROGRAMS`` in Laser++'s syntax."""

Answers = dict[int, frozenset[str]]


def build_laser(source: Path, build: Path) -> Path:
    """Laser++'s ``simpleapp`` compiled (Release) from ``source`` into ``build``."""
    build.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cmake", "-DCMAKE_BUILD_TYPE=Release", str(source.resolve())], cwd=build,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["make", "simpleapp"], cwd=build, check=True, stdout=subprocess.DEVNULL)
    return build / "simpleapp"


def laser_stream(lars_stream: Path, points: int) -> Path:
    """The Laser++ line format of a ``bench_lars_run`` stream file, written next to it."""
    path = lars_stream.with_suffix(".laser-stream")
    if not path.exists():
        with open(lars_stream) as source, open(path, "w") as out:
            out.write(f"0 {points - 1}\n")
            for line in source:
                time, _, atoms = line.partition(": ")
                out.write(f"{time} : {atoms}")
    return path


def cpu_seconds(argv: list[str]) -> float:
    """User + system CPU seconds of ``argv`` run to completion in a fresh process."""
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[0]} failed: {child.stderr.read().decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime


def laser_answers(path: Path) -> Answers:
    """Laser++'s output ``t -> q(1) q(2, 3) ...`` as derived atoms per time point (no spaces)."""
    answers: Answers = {}
    for line in open(path):
        time, _, atoms = line.partition(" -> ")
        if time.strip():
            answers[int(time)] = frozenset(atom.replace(" ", "") for atom in split_atoms(atoms))
    return answers


def split_atoms(text: str) -> Iterator[str]:
    """The atoms ``q(a, b)`` of a space-separated Laser++ output line."""
    start = 0
    while (close := text.find(")", start)) != -1:
        yield text[start:close + 1].strip()
        start = close + 1


def lars_answers(path: Path) -> Answers:
    """``lars run``'s JSON-lines answers as derived atoms per time point."""
    answers: Answers = {}
    for line in open(path):
        record = json.loads(line)
        answers[record["time"]] = frozenset(
            item["atom"] for stream in record["answer_streams"] for item in stream)
    return answers


def difference(lars: Answers, laser: Answers) -> str:
    """``same`` or the first time point whose derived atoms differ, with both counts."""
    for time in sorted(set(lars) | set(laser)):
        ours, theirs = lars.get(time, frozenset()), laser.get(time, frozenset())
        if ours != theirs:
            return f"DIFFERENT at t={time}: lars {len(ours)}, Laser++ {len(theirs)}"
    return "same"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--laser-source", type=Path, help="a laser-plus-plus checkout to build")
    given.add_argument("--laser-binary", type=Path, help="Laser++'s simpleapp, already built")
    parser.add_argument("--workloads", nargs="*", default=list(LASER_PROGRAMS),
                        choices=list(LASER_PROGRAMS))
    parser.add_argument("--points", type=int, default=1000)
    parser.add_argument("--rate", type=int, default=1000, help="facts per time point")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lars-bench")
    args = parser.parse_args(argv)
    binary = args.laser_binary or build_laser(args.laser_source, args.workdir / "laser-build")
    print("workload | lars_cpu_s | laser_cpu_s | lars/laser | derived (lars) | answers")
    for name in args.workloads:
        program, kind = PROGRAMS[name]
        stream = stream_file(kind, args.points, args.rate, args.workdir)
        with tempfile.TemporaryDirectory() as name_folder:
            folder = Path(name_folder)
            lars_cpu, _ = measure(program, stream, folder)
            ours = lars_answers(folder / "answers.jsonl")
            (folder / "program.laser").write_text(LASER_PROGRAMS[name] + "\n")
            laser_cpu = cpu_seconds([str(binary), str(folder / "program.laser"),
                                     str(laser_stream(stream, args.points)),
                                     str(folder / "laser.out")])
            theirs = laser_answers(folder / "laser.out")
        derived = sum(len(atoms) for atoms in ours.values())
        print(f"{name} | {lars_cpu:.2f} | {laser_cpu:.2f} | {lars_cpu / laser_cpu:.2f} | "
              f"{derived:,} | {difference(ours, theirs)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
