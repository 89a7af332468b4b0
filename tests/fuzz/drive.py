"""Driving ``lars agree`` and ``lars run`` on a fuzzed case, through the command line, in process.

The case is written to files as a user would give them (the query, timestamped N-Triples
naming each triple's stream, a Turtle static file), ``lars`` runs on them
(:func:`agreement.cli.app.main` with ``--format json``, the whole path a user takes, from
argument parsing to the printed answers), and its JSON answers are read back into the oracle's
rows (:func:`tests.fuzz.oracle.normal`). A clean refusal (exit 2, one line on stderr) is
returned as :class:`Refused`; an internal error, a traceback or a refusal on more than one line
fails the test.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph
from rdflib.util import from_n3

from agreement.cli.app import main
from tests.fuzz.oracle import Answers, Item, Row, Triple, normal

Binding = dict[str, str]


@dataclass(frozen=True)
class Refused:
    """The tool refused the case cleanly; ``message`` is its one line."""

    message: str


@dataclass(frozen=True)
class Interval:
    """One pulling interval of ``lars agree``'s report."""

    start: int
    end: int
    agree: bool
    only_cqels: frozenset[Row]
    only_csparql: frozenset[Row]


@dataclass(frozen=True)
class Checked:
    """``lars agree``'s report: verdict, intervals, both sides' answers, and its notices."""

    agree: bool
    intervals: tuple[Interval, ...]
    csparql: Answers
    cqels: Answers
    notes: tuple[str, ...]


def write_case(folder: Path, items: Sequence[Item], streams: Sequence[str],
               static: Sequence[Triple]) -> tuple[Path, Path]:
    """The stream file (``s p o <stream> t`` lines) and the static Turtle file of a case."""
    stream = folder / "stream.nt"
    stream.write_text("".join(f"{s.n3()} {p.n3()} {o.n3()} <{streams[i.stream]}> {i.time}\n"
                              for i in sorted(items, key=lambda i: i.time)
                              for s, p, o in [i.triple]))
    graph = Graph()
    for triple in static:
        graph.add(triple)
    data = folder / "static.ttl"
    graph.serialize(data, format="turtle")
    return stream, data


def row(binding: Binding, names: Sequence[str]) -> Row:
    """The tool's JSON binding (N-Triples-like terms) as an oracle row."""
    return tuple(normal(from_n3(binding[n])) if binding.get(n) not in (None, "") else None
                 for n in names)


def _answers(listed: list[dict], names: Sequence[str]) -> Answers:
    found: dict[int, set[Row]] = {}
    for answer in listed:
        found.setdefault(answer["time"], set()).add(row(answer["binding"], names))
    return {t: frozenset(rows) for t, rows in found.items()}


def lars(*argv: str) -> dict | Refused:
    """``lars ARGV --format json`` in process: its JSON document, or its clean refusal."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([*argv, "--format", "json"])
        except SystemExit as exit_:
            status = exit_.code
    errors = [line for line in err.getvalue().splitlines() if "error" in line]
    assert "internal error" not in err.getvalue() and "Traceback" not in err.getvalue(), \
        f"lars {' '.join(argv)} crashed:\n{err.getvalue()}"
    if status == 2:
        assert len(errors) >= 1, f"exit 2 without an error line:\n{err.getvalue()}"
        return Refused("\n".join(errors))
    assert status in (0, 1), f"lars {' '.join(argv)} exited {status}:\n{err.getvalue()}"
    return json.loads(out.getvalue())


def agree(query: str, items: Sequence[Item], streams: Sequence[str], static: Sequence[Triple],
          period: int, end: int, names: Sequence[str], csparql: str | None = None) -> Checked | Refused:
    """``lars agree QUERY [--csparql CSPARQL] --stream … --static … --period U --from 0 --to END``."""
    with tempfile.TemporaryDirectory(prefix="lars-fuzz-") as folder:
        stream, data = write_case(Path(folder), items, streams, static)
        (Path(folder) / "query.rq").write_text(query)
        argv = ["agree", str(Path(folder) / "query.rq"), "--stream", str(stream), "--static", str(data),
                "--period", f"{period}s", "--from", "0", "--to", str(end)]
        if csparql is not None:
            (Path(folder) / "csparql.rq").write_text(csparql)
            argv += ["--csparql", str(Path(folder) / "csparql.rq")]
        report = lars(*argv)
    if isinstance(report, Refused):
        return report
    intervals = tuple(Interval(i["start"], i["end"], i["agree"],
                               frozenset(row(a["binding"], names) for a in i["only_cqels"]),
                               frozenset(row(a["binding"], names) for a in i["only_csparql"]))
                      for i in report["intervals"])
    return Checked(report["agree"], intervals, _answers(report["answers"]["csparql"], names),
                   _answers(report["answers"]["cqels"], names), tuple(report["notes"]))


def run_profile(query: str, items: Sequence[Item], streams: Sequence[str], static: Sequence[Triple],
                profile: str, end: int, names: Sequence[str]) -> Answers | Refused:
    """``lars run QUERY --profile PROFILE --t0 0 --from 0 --to END``: the non-empty relations
    reported, by time."""
    with tempfile.TemporaryDirectory(prefix="lars-fuzz-") as folder:
        stream, data = write_case(Path(folder), items, streams, static)
        (Path(folder) / "query.rq").write_text(query)
        found = lars("run", str(Path(folder) / "query.rq"), "--stream", str(stream), "--static",
                     str(data), "--profile", profile, "--t0", "0", "--from", "0", "--to", str(end))
    return found if isinstance(found, Refused) else _answers(found["answers"], names)
