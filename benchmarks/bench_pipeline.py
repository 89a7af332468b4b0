"""End to end: timestamped N-Triples → slices → ``striple`` atoms → answers (SPEC section 8).

The stream is made by ``replay_csrbench.py`` (kept in ``--workdir`` for reuse): CSRBench replayed
round after round, 15,188 triples per 34 s, so every time point holds about 450 triples and a
10 s window about 4,900. Each configuration runs in a fresh Python process, so its peak memory
(``ru_maxrss`` of the driver; Spark's JVM and its Python workers are not counted) is its own.

Stages, each timed, with the driver's resident memory after it:

1. *slice*: :func:`solver.slicing.slice_in_process` (mode ``local``) or
   :func:`solver.slicing.slice_stream` (mode ``spark``; the session start is timed apart);
2. *encode*: the elements become ``striple(S,P,O,G)`` atoms with one
   :class:`translate.rdf.RdfTermEncoder` (time point by time point);
3. *evaluate*: :func:`solver.partition.evaluate_partitioned` over the whole timeline, in
   process (``local``, one range: the reference ``Problem.run()``) or one Spark task per range
   (``spark``), the answers written as JSON Lines (:mod:`solver.sinks`) to ``/dev/null``.

Programs (``--program``): ``hand``, CSRBench Q1 written by hand over ``striple``; ``csparql`` and
``cqels``, Q1 of ``examples/csrbench/QUERIES.md`` in either language, translated by
:mod:`translate` (plain programs, no push or pull triggers). Run:

    .venv/bin/python benchmarks/bench_pipeline.py                        # 10^5 triples
    .venv/bin/python benchmarks/bench_pipeline.py --sizes 100000 1000000 --programs hand cqels
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
QUERIES = HERE.parent / "examples" / "csrbench" / "QUERIES.md"
STREAM = "http://ex.org/streams/test"
OM = "http://knoesis.wright.edu/ssw/ont/sensor-observation.owl#"
HAND_Q1 = f"""
ans(Sensor,Obs) :- [10,0,10] <> striple(Obs,<{OM}observedProperty>,
                       <http://knoesis.wright.edu/ssw/ont/weather.owl#_AirTemperature>,<{STREAM}>),
                   [10,0,10] <> striple(Obs,<{OM}procedure>,Sensor,<{STREAM}>),
                   [10,0,10] <> striple(Obs,<{OM}result>,Res,<{STREAM}>),
                   [10,0,10] <> striple(Res,<{OM}floatValue>,Value,<{STREAM}>), Value > 80.
"""
"""CSRBench Q1 (``[RANGE 10s STEP 10s]``, τ(ω) = ⊞^{10,0,10}) as one LARS rule."""


def rss_mb() -> float:
    """The current resident memory of this process, in MB (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def q1_text(engine: str) -> str:
    """Q1 of QUERIES.md for ``csparql`` or ``cqels``, with the prefixes."""
    text = QUERIES.read_text(encoding="utf-8")
    prefixes = re.search(r"Prefixes used below:\n```\n(.*?)```", text, re.S).group(1)
    blocks = re.findall(r"```\n(.*?)```", text, re.S)
    window = "[RANGE 10s STEP 10s]" if engine == "csparql" else "[RANGE 10s SLIDE 10s]"
    return prefixes + next(b for b in blocks if window in b and (engine == "csparql") == b.startswith("REGISTER"))


def load_program(name: str):
    """The LARS program, its answer predicate, and a term encoder that knows its constants."""
    from lars.parser import parse_program
    from translate.rdf import RdfTermEncoder

    if name == "hand":
        return parse_program(HAND_Q1), "ans", RdfTermEncoder()
    from translate import parse_query, translate
    translation = translate(parse_query(q1_text(name), unit="1s"), name)
    return translation.program, translation.answer.predicate, translation.encoder()


def slice_file(mode: str, path: str, master: str, figures: dict) -> list:
    """Stage 1: the slices ``(t, elements)`` of the file."""
    from rdflib import URIRef

    from solver import slicing
    from translate.rdfstreams import parse_ntriples_line

    parser = functools.partial(parse_ntriples_line, default_stream=URIRef(STREAM))
    if mode == "local":
        return slicing.slice_in_process(path, parser)
    started = time.perf_counter()
    with slicing.spark_session(master, {"spark.driver.memory": "8g", "spark.driver.maxResultSize": "0"}):
        pass
    figures["spark_start_s"] = round(time.perf_counter() - started, 1)
    return slicing.slice_stream(path, parser, master=master)


def encode(slices: list, encoder) -> list:
    """Stage 2: ``striple`` atoms per time point, in arrival order (the raw slices are emptied)."""
    from translate import input_atoms

    atoms = []
    for index, (time_point, elements) in enumerate(slices):
        atoms.append((time_point, tuple(input_atoms(elements, encoder).get(time_point, ()))))
        slices[index] = None
    slices.clear()
    return atoms


def evaluate(program, answer: str, atoms: list, mode: str, master: str, parts: int) -> tuple[int, int]:
    """Stage 3: every time point evaluated, answers written as JSON Lines to /dev/null.

    Returns the number of time points and of ``answer`` atoms (summed over time points).
    """
    from lars.streams import Timeline
    from solver.partition import evaluate_partitioned, in_process, spark_runner
    from solver.progress import progress
    from solver.sinks import open_sink

    timeline = Timeline(atoms[0][0], atoms[-1][0])
    runner = in_process if mode == "local" else spark_runner(master)
    answers = evaluate_partitioned(program, atoms, timeline, frozenset(), parts, runner)
    found = 0
    with open_sink("/dev/null", "jsonl") as sink, progress(answers, len(timeline)) as counted:
        for at_t in counted:
            sink.write(at_t)
            found += sum(atom.predicate == answer for stream in at_t.streams for atom, _ in stream)
    return len(timeline), found


def measure(mode: str, path: str, program_name: str, master: str, parts: int) -> dict:
    """One configuration in this process: seconds and memory per stage."""
    program, answer, encoder = load_program(program_name)
    figures: dict = {"mode": mode, "program": program_name, "parts": parts, "start_mb": round(rss_mb())}
    started = time.perf_counter()
    slices = slice_file(mode, path, master, figures)
    elapsed = time.perf_counter() - started - figures.get("spark_start_s", 0.0)
    figures.update(slice_s=round(elapsed, 1), triples=sum(len(e) for _, e in slices),
                   slice_mb=round(rss_mb()))
    started = time.perf_counter()
    atoms = encode(slices, encoder)
    figures.update(encode_s=round(time.perf_counter() - started, 1), encode_mb=round(rss_mb()),
                   constants=len(encoder))
    started = time.perf_counter()
    points, answers = evaluate(program, answer, atoms, mode, master, parts)
    seconds = time.perf_counter() - started
    figures.update(evaluate_s=round(seconds, 1), points=points, answers=answers,
                   points_per_s=round(points / seconds, 1), evaluate_mb=round(rss_mb()),
                   peak_mb=round(peak_mb()))
    figures["total_s"] = round(figures["slice_s"] + figures["encode_s"] + seconds, 1)
    return figures


def stream_file(size: int, workdir: Path) -> Path:
    path = workdir / f"csrbench-replay-{size}.nt"
    if not path.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(HERE / "replay_csrbench.py"), str(size), str(path)], check=True)
    return path


COLUMNS = ("triples", "mode", "program", "parts", "points", "answers", "slice_s", "encode_s",
           "evaluate_s", "total_s", "points_per_s", "slice_mb", "encode_mb", "peak_mb")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--modes", nargs="+", default=["local", "spark"], choices=["local", "spark"])
    parser.add_argument("--programs", nargs="+", default=["hand"], choices=["hand", "csparql", "cqels"])
    parser.add_argument("--parts", type=int, default=4, help="ranges for the spark mode (local: 1)")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/lars-bench-ingest"))
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        config = json.loads(args.one)
        print(json.dumps(measure(config["mode"], config["path"], config["program"], args.master,
                                 config["parts"])))
        return 0
    print(" ".join(f"{name:>12}" for name in COLUMNS), flush=True)
    for size in args.sizes:
        path = stream_file(size, args.workdir)
        for program in args.programs:
            for mode in args.modes:
                config = {"mode": mode, "path": str(path), "program": program,
                          "parts": 1 if mode == "local" else args.parts}
                out = subprocess.run([sys.executable, __file__, "--master", args.master, "--one",
                                      json.dumps(config)], check=True, capture_output=True, text=True).stdout
                row = json.loads(out.strip().splitlines()[-1])
                print(" ".join(f"{row[name]:>12}" for name in COLUMNS), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
