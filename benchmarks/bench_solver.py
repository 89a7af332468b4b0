"""Baseline figures of the reference solver: time per time point and peak memory.

Each configuration (workload × window size × input rate) runs in a fresh Python process, so
its peak resident memory (``ru_maxrss``) is its own. Run:

    .venv/bin/python benchmarks/bench_solver.py                 # default grid, ~1 minute
    .venv/bin/python benchmarks/bench_solver.py --points 200 --windows 8 32 128 512 --rates 10 100 1000

Workloads (issue 7 names them the same): ``diamond`` ``q(X) ← ⊞^w ◇ p(X)``, ``box``
``q(X) ← ⊞^w □ p(X)``, ``join`` ``q(X,Z) ← ⊞^w ◇ p(X,Y), ⊞^w ◇ p(Y,Z)`` (selective: few
outputs), ``negation`` ``q(X) ← ⊞^w ◇ p(X), not ⊞^2 ◇ r(X)``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time

WORKLOADS = {
    "diamond": "q(X) :- [{w}] <> p(X).",
    "box": "q(X) :- [{w}] [] p(X).",
    "join": "q(X,Z) :- [{w}] <> p(X,Y), [{w}] <> p(Y,Z).",
    "negation": "q(X) :- [{w}] <> p(X), not [2] <> r(X).",
}


def generated_stream(workload: str, points: int, rate: int, seed: int = 7):
    """``rate`` atoms per time point over ``points`` time points, deterministic for a seed."""
    from lars.atoms import Atom
    from lars.streams import Stream, Timeline
    from lars.terms import Number

    rng = random.Random(seed)
    contents = {}
    for t in range(points):
        if workload == "join":
            atoms = [Atom("p", (Number(rng.randrange(rate * 20)), Number(rng.randrange(rate * 20))))
                     for _ in range(rate)]
        else:
            atoms = [Atom("p", (Number(rng.randrange(rate * 2)),)) for _ in range(rate)]
            if workload == "negation":
                atoms += [Atom("r", (Number(rng.randrange(rate * 2)),)) for _ in range(rate // 10)]
        contents[t] = list(dict.fromkeys(atoms))
    return Stream.from_mapping(Timeline(0, points - 1), contents)


def run_one(workload: str, window: int, rate: int, points: int) -> dict:
    """Solve every time point once; return the figures of this configuration."""
    from lars.parser import parse_program
    from solver.reference import Problem

    program = parse_program(WORKLOADS[workload].format(w=window))
    stream = generated_stream(workload, points, rate)
    prob = Problem(program, stream)
    start = time.perf_counter()
    answers = sum(len(s) for answer in prob.run() for s in answer.streams)
    elapsed = time.perf_counter() - start
    facts = stream.atom_count()
    return {"workload": workload, "window": window, "rate": rate, "points": points,
            "ms_per_point": 1000 * elapsed / points, "facts_per_s": facts / elapsed,
            "answers": answers, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", nargs="+", default=list(WORKLOADS), choices=list(WORKLOADS))
    parser.add_argument("--windows", nargs="+", type=int, default=[8, 32, 128])
    parser.add_argument("--rates", nargs="+", type=int, default=[10, 100])
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(**json.loads(args.one))))
        return
    print(f"{'workload':<9} {'window':>6} {'rate':>5} {'ms/point':>9} {'facts/s':>9} {'answers':>8} {'peak MB':>8}")
    for workload in args.workloads:
        for window in args.windows:
            for rate in args.rates:
                config = json.dumps({"workload": workload, "window": window, "rate": rate,
                                     "points": args.points})
                out = subprocess.run([sys.executable, __file__, "--one", config],
                                     capture_output=True, text=True, check=True).stdout
                r = json.loads(out)
                print(f"{workload:<9} {window:>6} {rate:>5} {r['ms_per_point']:>9.2f} "
                      f"{r['facts_per_s']:>9.0f} {r['answers']:>8} {r['peak_rss_mb']:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
