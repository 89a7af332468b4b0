"""Evaluation strategies against the reference: throughput, speed-up, and memory vs stream length.

One command runs everything (about 15 minutes on 2 cores; each configuration in a fresh Python
process, so ``ru_maxrss`` is that configuration's own peak memory):

    .venv/bin/python benchmarks/bench_strategies.py

Options: ``--points N`` time points per run (default 1000), ``--rate R`` atoms per time point
(default 1000), ``--windows``, ``--workloads``, ``--strategies``, ``--reference-points K``
(default 5), ``--lengths`` (facts per stream-length run, default 1e5 1e6 1e7), ``--no-lengths``.

Workloads (issue 7): ``diamond`` ``q(X) ← ⊞^w ◇ p(X)`` (values from ``2·rate`` constants),
``box`` ``q(X) ← ⊞^w □ p(X)``, ``join`` ``q(X,Z) ← ⊞^w ◇ p(X,Y), ⊞^w ◇ p(Y,Z)`` (values from a
domain sized so that about 1,000 answers hold per time point: ~10^6 at ``w = 32``),
``negation`` ``q(X) ← ⊞^w ◇ p(X), not ⊞^2 ◇ r(X)`` (stratified; ``r`` at a tenth of the rate),
``derived`` ``d(X) ← ⊞^w ◇ p(X). q(X) ← d(X), not ⊞^2 ◇ r(X).`` (a rule over a derived
predicate: the residual that ``incremental`` gives to clingo and ``stratified`` evaluates in
Python), and ``fresh``, ``diamond`` over IRIs that never repeat (memory runs only, up to 10^6 facts).

How it measures. Streams come from a generator, never held in memory (except by ``reference``,
which materializes its stream). Throughput is measured over the *steady state*, the time points
after the first window has filled (``t ≥ w``), in CPU seconds of the process (``process_time``:
the machine may be shared, and the issue's targets are per core); wall-clock figures are printed
beside. The reference is measured on ``--reference-points`` steady time points only (it takes
0.5 s to tens of seconds per point), so its per-point figures come from fewer points than the
others; the speed-up compares CPU time per time point. Memory: the shortest stream (10^5 facts,
100 time points) can end before the process reaches its steady size (hash tables grow to their
working size under churn, the allocator keeps its arenas), so the verdict is on the last tenfold
step; all figures are printed.
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
    "derived": "d(X) :- [{w}] <> p(X).\nq(X) :- d(X), not [2] <> r(X).",
    "fresh": "q(X) :- [{w}] <> p(X).",
}
WINDOWS = {"diamond": [8, 32, 128, 512], "join": [8, 32, 128, 512], "box": [32], "negation": [32],
           "derived": [32]}
TARGETS = {"diamond": 31_000, "join": 39_000}
FRESH_MAX_LENGTH = 1e6
"""``fresh`` holds 33 x rate answers at every point (every value is new), so its length runs stop
at 10^6 facts to keep the benchmark short."""


def join_domain(window: int, rate: int) -> int:
    """Values of ``join`` come from this many constants: about 1,000 answers per time point."""
    return max(10**6, ((window + 1) * rate) ** 2 // 1000)


def generated_slices(workload: str, points: int, rate: int, window: int, seed: int = 7):
    """``(t, atoms)`` for ``t`` in ``[0, points)``, generated one time point at a time."""
    from lars.atoms import Atom
    from lars.terms import Iri, Number

    rng = random.Random(seed)
    domain = join_domain(window, rate)
    for t in range(points):
        if workload == "join":
            atoms = [Atom("p", (Number(rng.randrange(domain)), Number(rng.randrange(domain))))
                     for _ in range(rate)]
        elif workload == "fresh":
            atoms = [Atom("p", (Iri(f"http://example.org/s{t}-{i}"),)) for i in range(rate)]
        else:
            atoms = [Atom("p", (Number(rng.randrange(rate * 2)),)) for _ in range(rate)]
            if workload in ("negation", "derived"):
                atoms += [Atom("r", (Number(rng.randrange(rate * 2)),)) for _ in range(rate // 10)]
        yield t, atoms


def run_one(strategy: str, workload: str, window: int, rate: int, points: int) -> dict:
    """Evaluate one configuration; figures over the time points ``t >= window``."""
    from lars.parser import parse_program
    from lars.streams import Stream, Timeline
    from solver.evaluate import Problem
    from solver.strategies import evaluate

    program = parse_program(WORKLOADS[workload].format(w=window))
    timeline = Timeline(0, points - 1)
    steady = min(window, points - 1)
    facts = answers = 0
    if strategy == "reference":
        stream = Stream.from_mapping(timeline, dict(generated_slices(workload, points, rate, window)))
        answer_iter = Problem(program, stream).run(range(steady, points))
        counted = {t: len(stream.at(t)) for t in range(steady, points)}
        cpu, wall = time.process_time(), time.perf_counter()
        for answer in answer_iter:
            facts += counted[answer.time]
            answers += sum(len(s) for s in answer.streams)
    else:
        sizes: dict[int, int] = {}

        def slices():
            for t, atoms in generated_slices(workload, points, rate, window):
                sizes[t] = len(atoms)
                yield t, atoms
        cpu = wall = None
        for answer in evaluate(program, slices(), timeline, strategy=strategy):
            if answer.time == steady - 1 or (cpu is None and steady == 0):
                cpu, wall = time.process_time(), time.perf_counter()
            if answer.time >= steady:
                facts += sizes.pop(answer.time)
                answers += sum(len(s) for s in answer.streams)
            else:
                sizes.pop(answer.time)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    measured = points - steady
    return {"strategy": strategy, "workload": workload, "window": window, "rate": rate,
            "points": measured, "facts": facts, "answers": answers, "cpu_s": cpu, "wall_s": wall,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def in_subprocess(**config) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", json.dumps(config)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


HEADER = (f"{'workload':<9} {'w':>4} {'strategy':<12} {'points':>6} {'facts/s':>9} {'points/s':>8} "
          f"{'ms/point':>9} {'wall f/s':>9} {'peak MB':>8} {'speed-up':>8}")


def line(r: dict, reference: dict | None) -> str:
    ms = 1000 * r["cpu_s"] / r["points"]
    speed = ""
    if reference is not None and r["strategy"] != "reference":
        speed = f"{1000 * reference['cpu_s'] / reference['points'] / ms:.0f}x"
    return (f"{r['workload']:<9} {r['window']:>4} {r['strategy']:<12} {r['points']:>6} "
            f"{r['facts'] / r['cpu_s']:>9.0f} {r['points'] / r['cpu_s']:>8.1f} {ms:>9.2f} "
            f"{r['facts'] / r['wall_s']:>9.0f} {r['peak_rss_mb']:>8.1f} {speed:>8}")


def throughput(args) -> list[dict]:
    print(f"# throughput: {args.points} time points x {args.rate} atoms per point (steady state, t >= w); "
          f"reference on {args.reference_points} steady points only; CPU time", flush=True)
    print(HEADER, flush=True)
    results = []
    for workload in args.workloads:
        for window in (args.windows or WINDOWS[workload]):
            reference = None
            if "reference" in args.strategies:
                reference = in_subprocess(strategy="reference", workload=workload, window=window,
                                          rate=args.rate, points=window + args.reference_points)
                print(line(reference, None), flush=True)
                results.append(reference)
            for strategy in [s for s in args.strategies if s != "reference"]:
                r = in_subprocess(strategy=strategy, workload=workload, window=window,
                                  rate=args.rate, points=args.points)
                r["speedup"] = (reference["cpu_s"] / reference["points"]) / (r["cpu_s"] / r["points"]) \
                    if reference else None
                print(line(r, reference), flush=True)
                results.append(r)
    return results


def lengths(args) -> list[dict]:
    print(f"\n# memory vs stream length: window 32, {args.rate} atoms per point, strategy stratified",
          flush=True)
    print(HEADER, flush=True)
    results = []
    for workload in ("diamond", "fresh", "join"):
        for length in args.lengths:
            if workload == "fresh" and length > FRESH_MAX_LENGTH:
                continue
            r = in_subprocess(strategy="stratified", workload=workload, window=32, rate=args.rate,
                              points=int(length) // args.rate)
            print(line(r, None) + f"   ({int(length):.0e} facts)", flush=True)
            results.append(r)
    return results


def summary(rates: list[dict], memory: list[dict]) -> None:
    """The issue's targets, each with the measured figure."""
    print("\n# targets")
    for r in rates:
        if r["strategy"] != "reference" and r["window"] == 32 and r["workload"] in TARGETS:
            rate = r["facts"] / r["cpu_s"]
            print(f"{r['workload']} w=32 {r['strategy']}: {rate:.0f} facts/s (target {TARGETS[r['workload']]}): "
                  f"{'met' if rate >= TARGETS[r['workload']] else 'NOT met'}")
        if r.get("speedup") is not None and r["workload"] in ("diamond", "join"):
            print(f"{r['workload']} w={r['window']} {r['strategy']}: {r['speedup']:.0f}x the reference "
                  f"(target 5x): {'met' if r['speedup'] >= 5 else 'NOT met'}")
    per_point = {(r["strategy"], r["window"]): r["cpu_s"] / r["points"] for r in rates
                 if r["workload"] == "diamond"}
    for strategy in sorted({s for s, _ in per_point}):
        if (strategy, 32) in per_point and (strategy, 512) in per_point and strategy != "reference":
            growth = per_point[strategy, 512] / per_point[strategy, 32]
            print(f"diamond {strategy}: time per point grows {growth:.2f}x from w=32 to w=512 "
                  f"(target <= 2x): {'met' if growth <= 2 else 'NOT met'}")
    for workload in ("diamond", "fresh", "join"):
        peaks = [r["peak_rss_mb"] for r in memory if r["workload"] == workload]
        if len(peaks) > 1:
            step = peaks[-1] / peaks[-2] - 1
            print(f"{workload}: peak memory {' / '.join(f'{p:.0f}' for p in peaks)} MB over the stream "
                  f"lengths; {step:+.0%} over the last tenfold step: {'flat' if step <= 0.1 else 'GROWS'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", nargs="+", default=list(WINDOWS), choices=list(WINDOWS))
    parser.add_argument("--windows", nargs="+", type=int, help="override the windows of every workload")
    parser.add_argument("--strategies", nargs="+", default=["reference", "stratified", "incremental"])
    parser.add_argument("--points", type=int, default=1000)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--reference-points", type=int, default=5)
    parser.add_argument("--lengths", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    parser.add_argument("--no-lengths", action="store_true")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(**json.loads(args.one))))
        return
    rates = throughput(args)
    memory = [] if args.no_lengths else lengths(args)
    summary(rates, memory)


if __name__ == "__main__":
    main()
