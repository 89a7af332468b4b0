"""Evaluation strategies against the reference: throughput, speed-up, and memory vs stream length.

One command runs everything (about 25 minutes on 2 cores, of which the CSRBench workloads take
8; each configuration in a fresh Python process, so ``ru_maxrss`` is that configuration's
own peak memory, ``peak MB``; ``clingo MB`` is the peak of the child process in which
``incremental`` solves its clingo residual, :mod:`solver.incremental.clingoprocess`, ``-`` if none ran):

    .venv/bin/python benchmarks/bench_strategies.py

The CSRBench workloads alone (about 8 minutes):

    .venv/bin/python benchmarks/bench_strategies.py --workloads q1-cqels q1-csparql q6-cqels q6-csparql --no-lengths

Options: ``--points N`` time points per run (default 1000), ``--rate R`` atoms per time point
(default 1000), ``--windows``, ``--workloads``, ``--strategies``, ``--reference-points K``
(default 5), ``--lengths`` (facts per stream-length run, default 1e5 1e6 1e7), ``--no-lengths``,
``--csrbench-triples N`` (length of the replayed CSRBench stream, default 1e6).

Workloads (issue 7): ``diamond`` ``q(X) ← ⊞^w ◇ p(X)`` (values from ``2·rate`` constants),
``box`` ``q(X) ← ⊞^w □ p(X)``, ``join`` ``q(X,Z) ← ⊞^w ◇ p(X,Y), ⊞^w ◇ p(Y,Z)`` (values from a
domain sized so that about 1,000 answers hold per time point: ~10^6 at ``w = 32``),
``negation`` ``q(X) ← ⊞^w ◇ p(X), not ⊞^2 ◇ r(X)`` (stratified; ``r`` at a tenth of the rate),
``derived`` ``d(X) ← ⊞^w ◇ p(X). q(X) ← d(X), not ⊞^2 ◇ r(X).`` (a rule over a derived
predicate: the residual that ``incremental`` gives to clingo and ``stratified`` evaluates in
Python), and ``fresh``, ``diamond`` over IRIs that never repeat (memory runs only, up to 10^6 facts).
CSRBench: ``q1-cqels``, ``q1-csparql``, ``q6-cqels``, ``q6-csparql``, the queries of
``examples/csrbench/queries`` translated as they are (plain programs, no triggers; Q1 has a 10 s
window, Q6 a 5 s one) over the CSRBench stream replayed to ``--csrbench-triples`` triples by
``replay_csrbench.py`` (round after round of 34 s, renamed; about 450 triples per time point, so
10^6 triples are about 2,240 time points), each line parsed (``parse_ntriples_line``) and encoded
(``stream_atom``, the translation's encoder) as the strategy reads it; no background data. As
``lars run`` does, the answers report the answer predicate only (``evaluate(shown=...)``), not the
``triple`` copies of the C-SPARQL translation.

How it measures. Streams come from a generator, never held in memory (except by ``reference``,
which materializes its stream). Throughput is measured over the *steady state*, the time points
after the first window has filled (``t ≥ w``), in CPU seconds of the process (``process_time``:
the machine may be shared, and the issue's targets are per core); wall-clock figures are printed
beside. The time spent making the input (generating atoms; parsing and encoding CSRBench lines,
~30 µs per triple) is measured apart and left out of the evaluation's figures, as it is for the
reference, which materializes its stream before it is timed; ``in us/f`` prints it per fact.
Facts/s counts input atoms (for CSRBench, triples). The reference is measured on
``--reference-points`` steady time points only (it takes 0.1 s to tens of seconds per point), so
its per-point figures come from fewer points than the others; the speed-up compares CPU time per
time point. The answers of every strategy at those points are fingerprinted and compared with
the reference's: a difference prints ``!!! MISMATCH`` at once and again with the targets.
Memory: the shortest stream (10^5 facts, 100 time points) can end before the process reaches its
steady size (hash tables grow to their working size under churn, the allocator keeps its arenas),
so the verdict is on the last tenfold step; all figures are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from processes import descendants_peak_mb

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
CSRBENCH = {"q1-cqels": 10, "q1-csparql": 10, "q6-cqels": 5, "q6-csparql": 5}
"""The CSRBench workloads: ``examples/csrbench/queries/<name>.rq`` and its window in seconds (its
``RANGE``, which is also where the steady state starts)."""
QUERIES = Path(__file__).parents[1] / "examples" / "csrbench" / "queries"
TARGETS = {"diamond": 31_000, "join": 39_000}
SPEEDUP_TARGETS = ("diamond", "join", "q1-cqels", "q1-csparql")
"""Workloads with the target "each faster strategy at least 5x the reference"."""
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


@dataclass
class Workload:
    """What one configuration evaluates: a program over slices ``(t, atoms)`` on a timeline."""

    program: object
    timeline: object
    slices: object
    """An iterator of ``(t, atoms)``, made as it is read."""
    steady: int
    """The first time point of the steady state (the first window has filled)."""
    shown: frozenset[str] | None = None
    """The predicates the answers report (``evaluate(shown=...)``; all if ``None``)."""


def generic_workload(workload: str, window: int, rate: int, points: int) -> Workload:
    from lars.parser import parse_program
    from lars.streams import Timeline

    return Workload(parse_program(WORKLOADS[workload].format(w=window)), Timeline(0, points - 1),
                    generated_slices(workload, points, rate, window), min(window, points - 1))


def csrbench_slices(lines, encoder, points: int | None):
    """``(t, striple atoms)`` from replayed lines, grouped by time point; ``t < points`` only."""
    from translate.rdf import stream_atom
    from ingest.rdffiles import parse_ntriples_line

    current, atoms = None, []
    for number, text in enumerate(lines, 1):
        t, elements = parse_ntriples_line(text.rstrip("\n"), "replay", number)
        if t != current:
            if atoms:
                yield current, atoms
            if points is not None and t >= points:
                return
            current, atoms = t, []
        atoms += [stream_atom(e.triple, e.stream, encoder) for e in elements]
    if atoms:
        yield current, atoms


def csrbench_workload(workload: str, length: int, points: int | None) -> Workload:
    """A CSRBench query translated (plain program, mode none) over CSRBench replayed to ``length``
    triples (:mod:`replay_csrbench`); with ``points``, only the time points before ``points``."""
    from lars.streams import Timeline
    from replay_csrbench import CSRBENCH as STREAM_FOLDER
    from replay_csrbench import replay, templates
    from translate.api import parse_query, translate

    engine = workload.split("-")[1]
    path = QUERIES / f"{workload}.rq"
    translation = translate(parse_query(path.read_text(), str(path), engine, unit="1s"), engine)
    base, period = templates(STREAM_FOLDER, True)
    last = base[(length - 1) % len(base)][0] + (length - 1) // len(base) * period
    if points is not None:
        last = min(last, points - 1)
    slices = csrbench_slices(replay(base, period, length), translation.encoder(), points)
    return Workload(translation.program, Timeline(0, last), slices, min(CSRBENCH[workload], last),
                    frozenset({translation.answer.predicate}))


def digest(answer) -> str:
    """A fingerprint of one time point's answer streams, equal iff the answers are."""
    streams = sorted(sorted((t, repr(atom)) for atom, t in stream) for stream in answer.streams)
    return hashlib.sha256(repr(streams).encode()).hexdigest()[:16]


def run_one(strategy: str, workload: str, window: int, rate: int, points: int | None,
            length: int = 10**6, check: int = 0) -> dict:
    """Evaluate one configuration; figures over the steady time points ``t >= steady``.

    ``cpu_s`` is the CPU time of the evaluation alone: the time spent making the input (generating
    atoms, or parsing and encoding replayed lines) is measured apart (``input_cpu_s``), as the
    reference, which materializes its stream before it is timed, never pays it; it includes the
    CPU time of the child process that solves ``incremental``'s clingo residual. The answers at
    the first ``check`` steady points (every point the reference solves) are fingerprinted.
    """
    from lars.streams import Stream
    from solver.incremental.clingoprocess import shared_process
    from solver.reference import Problem
    from solver.strategies import evaluate, projected

    if workload in CSRBENCH:
        work = csrbench_workload(workload, length, points)
    else:
        work = generic_workload(workload, window, rate, points)
    steady, end = work.steady, work.timeline.end + 1
    facts = answers = 0
    input_cpu = input_wall = 0.0
    kept = []
    if strategy == "reference":
        stream = Stream.from_mapping(work.timeline, dict(work.slices))
        answer_iter = Problem(work.program, stream).run(range(steady, end))
        counted = {t: len(stream.at(t)) for t in range(steady, end)}
        check = end - steady
        cpu, wall = time.process_time(), time.perf_counter()
        for answer in answer_iter:
            if work.shown is not None:
                answer = projected(answer, work.shown)
            facts += counted[answer.time]
            answers += sum(len(s) for s in answer.streams)
            kept.append(answer)
    else:
        sizes: dict[int, int] = {}

        def slices():
            nonlocal input_cpu, input_wall
            source = iter(work.slices)
            while True:
                started, started_wall = time.process_time(), time.perf_counter()
                item = next(source, None)
                if item is None:
                    return
                if item[0] >= steady:
                    input_cpu += time.process_time() - started
                    input_wall += time.perf_counter() - started_wall
                sizes[item[0]] = len(item[1])
                yield item
        cpu = wall = None
        for answer in evaluate(work.program, slices(), work.timeline, strategy=strategy,
                               shown=work.shown):
            if answer.time == steady - 1 or (cpu is None and steady == 0):
                cpu, wall = time.process_time(), time.perf_counter()
                clingo_cpu = shared_process().cpu_seconds
            facts_now = sizes.pop(answer.time, 0)
            if answer.time >= steady:
                facts += facts_now
                answers += sum(len(s) for s in answer.streams)
                if answer.time < steady + check:
                    kept.append(answer)
    cpu, wall = time.process_time() - cpu - input_cpu, time.perf_counter() - wall - input_wall
    if strategy != "reference":
        cpu += shared_process().cpu_seconds - clingo_cpu  # the residual's, solved in a child
    return {"strategy": strategy, "workload": workload, "window": window, "rate": rate,
            "points": end - steady, "facts": facts, "answers": answers, "cpu_s": cpu, "wall_s": wall,
            "input_cpu_s": input_cpu,
            "digests": {str(a.time): digest(a) for a in kept[:check]},
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "clingo_mb": max(descendants_peak_mb(),
                             resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)}


def in_subprocess(**config) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", json.dumps(config)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


HEADER = (f"{'workload':<10} {'w':>4} {'strategy':<12} {'points':>6} {'facts/s':>9} {'points/s':>8} "
          f"{'ms/point':>9} {'wall f/s':>9} {'in us/f':>7} {'peak MB':>8} {'clingo MB':>9} {'speed-up':>8}")


def line(r: dict, reference: dict | None) -> str:
    ms = 1000 * r["cpu_s"] / r["points"]
    speed = ""
    if reference is not None and r["strategy"] != "reference":
        speed = f"{1000 * reference['cpu_s'] / reference['points'] / ms:.0f}x"
    making = f"{1e6 * r['input_cpu_s'] / r['facts']:.1f}" if r["input_cpu_s"] else "-"
    return (f"{r['workload']:<10} {r['window']:>4} {r['strategy']:<12} {r['points']:>6} "
            f"{r['facts'] / r['cpu_s']:>9.0f} {r['points'] / r['cpu_s']:>8.1f} {ms:>9.2f} "
            f"{r['facts'] / r['wall_s']:>9.0f} {making:>7} {r['peak_rss_mb']:>8.1f} "
            f"{r['clingo_mb'] or '-':>9} {speed:>8}")


def mismatches(r: dict, reference: dict) -> list[str]:
    """The time points where ``r`` answers differently from the reference (or did not answer)."""
    return [t for t, fingerprint in reference["digests"].items() if r["digests"].get(t) != fingerprint]


def throughput(args) -> list[dict]:
    print(f"# throughput (steady state, t >= w; CPU seconds of evaluation, input making apart in "
          f"'in us/f'): {args.points} time points x {args.rate} atoms per point; CSRBench replayed to "
          f"{args.csrbench_triples:,} triples; reference on {args.reference_points} steady points only, "
          "its answers compared with every strategy's", flush=True)
    print(HEADER, flush=True)
    results = []
    for workload in args.workloads:
        csrbench = workload in CSRBENCH
        windows = [CSRBENCH[workload]] if csrbench else (args.windows or WINDOWS[workload])
        for window in windows:
            config = {"workload": workload, "window": window, "rate": args.rate,
                      "length": args.csrbench_triples}
            reference = None
            if "reference" in args.strategies:
                reference = in_subprocess(strategy="reference", points=window + args.reference_points,
                                          **config)
                print(line(reference, None), flush=True)
                results.append(reference)
            for strategy in [s for s in args.strategies if s != "reference"]:
                r = in_subprocess(strategy=strategy, points=None if csrbench else args.points,
                                  check=args.reference_points, **config)
                r["speedup"] = (reference["cpu_s"] / reference["points"]) / (r["cpu_s"] / r["points"]) \
                    if reference else None
                r["mismatches"] = mismatches(r, reference) if reference else []
                print(line(r, reference), flush=True)
                if r["mismatches"]:
                    print(f"!!! MISMATCH: {workload} w={window} {strategy} answers differently from the "
                          f"reference at t = {', '.join(r['mismatches'])}", flush=True)
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
    wrong = [r for r in rates if r.get("mismatches")]
    print(f"answers: {len(wrong)} of {sum('mismatches' in r for r in rates)} strategy runs differ from the "
          "reference on its points" + "".join(f"\n  !!! MISMATCH {r['workload']} w={r['window']} "
                                              f"{r['strategy']} at t = {', '.join(r['mismatches'])}"
                                              for r in wrong))
    for r in rates:
        if r["strategy"] != "reference" and r["window"] == 32 and r["workload"] in TARGETS:
            rate = r["facts"] / r["cpu_s"]
            print(f"{r['workload']} w=32 {r['strategy']}: {rate:.0f} facts/s (target {TARGETS[r['workload']]}): "
                  f"{'met' if rate >= TARGETS[r['workload']] else 'NOT met'}")
        if r.get("speedup") is not None and r["workload"] in SPEEDUP_TARGETS:
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
    parser.add_argument("--workloads", nargs="+", default=[*WINDOWS, *CSRBENCH],
                        choices=[*WINDOWS, *CSRBENCH])
    parser.add_argument("--windows", nargs="+", type=int,
                        help="override the windows of every generic workload (not CSRBench's)")
    parser.add_argument("--csrbench-triples", type=lambda text: int(float(text)), default=10**6,
                        help="length of the replayed CSRBench stream (default 1e6)")
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
