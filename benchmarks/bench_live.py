"""Peak memory of ``lars agree --follow`` over a long live run against a short one (issue 31:
"a 2-hour replay at high speed (10^6 triples) keeps peak memory within 1.2× of the 10-minute
one").

For each ``--minutes`` it writes a synthetic recording of that much stream time: a stream of
``--per-second`` triples a second (timestamped N-Triples; 139 a second makes 10^6 triples in
two hours), C-SPARQL relations at every pull of ``U = 10 s`` and CQELS relations every second
(some answers shifted, so that intervals disagree), then ``lars replay`` serves the three files
on a loopback WebSocket as fast as it can send (``--rate``) while ``lars agree --follow`` reads
them, each in its own process. It prints per run: the lines replayed, the wall seconds, the
intervals judged, the late answers and the peak resident memory of ``lars agree`` (the
operating system's accounting of the finished child), and the ratio of the last run's peak to
the first's. Run:

    .venv/bin/python benchmarks/bench_live.py --minutes 10 120
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LARS = [sys.executable, "-c", "import sys; from agreement.cli import main; sys.exit(main(sys.argv[1:]))"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PERIOD = 10


def relation(ms: int, values: list[int]) -> str:
    bindings = [{"binding": {"x": {"type": "uri", "value": f"http://e/s{v}"}}} for v in values]
    return json.dumps({"head": {"vars": ["x"]}, "timestamp": ms, "results": {"bindings": bindings}})


def write_recording(folder: Path, seconds: int, per_second: int) -> list[Path]:
    """The stream and both sides' answers of ``seconds`` of stream time."""
    stream, csparql, cqels = folder / "stream.nt", folder / "csparql.jsonl", folder / "cqels.jsonl"
    with stream.open("w") as out:
        for t in range(seconds):
            out.write("".join(f"<http://e/s{i % 50}> <http://e/value> \"{(t * i) % 97}\" {t}\n"
                              for i in range(per_second)))
    with csparql.open("w") as out:
        out.write("".join(relation(e * 1000, [e % 7, e % 11]) + "\n"
                          for e in range(PERIOD, seconds + 1, PERIOD)))
    with cqels.open("w") as out:  # at each pull's time, or a second late every third interval
        out.write("".join(relation(t * 1000 + 37, [t % 7, t % 11] if t % PERIOD == 0 else [t % 5])
                          + "\n" for t in range(1, seconds + 1)
                          if t % PERIOD == 0 or t % 3 == 0))
    return [stream, csparql, cqels]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(minutes: float, per_second: int, rate: float) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        files = write_recording(Path(folder), int(minutes * 60), per_second)
        lines = sum(1 for path in files for _ in path.open())
        port = free_port()
        start = time.monotonic()
        replay = subprocess.Popen([*LARS, "replay", *map(str, files), "--rate", str(rate), "--to",
                                   f"ws://127.0.0.1:{port}"], env=ENV, stderr=subprocess.PIPE)
        time.sleep(1.5)  # the server listens
        base = f"ws://127.0.0.1:{port}/"
        agree = subprocess.Popen([*LARS, "agree", "--follow", "--format", "jsonl", "--period",
                                  f"{PERIOD}s", "--max-delay", "30s", "--stream", base + "stream.nt",
                                  "--recorded-csparql", base + "csparql.jsonl",
                                  "--recorded-cqels", base + "cqels.jsonl"],
                                 env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = agree.stdout.read(), agree.stderr.read()
        _, status, usage = os.wait4(agree.pid, 0)
        agree.returncode = os.waitstatus_to_exitcode(status)
        replay.wait(30)
        summary = json.loads(out.splitlines()[-1]) if out else {"summary": err}
        return {"minutes": minutes, "lines": lines, "seconds": round(time.monotonic() - start, 1),
                "intervals": summary.get("intervals"), "late": summary.get("late"),
                "exit": agree.returncode, "peak_mb": round(usage.ru_maxrss / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, nargs="+", default=[10, 120])
    parser.add_argument("--per-second", type=int, default=139)
    parser.add_argument("--rate", type=float, default=10_000)
    args = parser.parse_args()
    results = [run(minutes, args.per_second, args.rate) for minutes in args.minutes]
    for result in results:
        print(json.dumps(result))
    if len(results) > 1:
        print(f"peak memory ratio, {results[-1]['minutes']:g} min / {results[0]['minutes']:g} min: "
              f"{results[-1]['peak_mb'] / results[0]['peak_mb']:.2f}")


if __name__ == "__main__":
    main()
