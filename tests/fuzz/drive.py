"""Driving ``lars agree`` and ``lars run`` in process, through the façade, on a fuzzed case.

The case is written to files as a user would give it (timestamped N-Triples naming each
triple's stream, a Turtle static file), the tool is called through :mod:`agreement.facade`,
and its JSON answers are read back into the oracle's rows (:func:`tests.fuzz.oracle.normal`).
A clean refusal (``UnsupportedError``, or ``InputError`` for a query the tool cannot take) is
returned as :class:`Refused`; any other exception propagates and fails the test.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph
from rdflib.util import from_n3

from agreement.facade import check_agreement, run
from lars.errors import InputError, UnsupportedError
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


def agree(query: str, items: Sequence[Item], streams: Sequence[str], static: Sequence[Triple],
          period: int, end: int, names: Sequence[str], csparql: str | None = None) -> Checked | Refused:
    """``lars agree QUERY [--csparql CSPARQL] --stream … --static … --period U --to END``."""
    with tempfile.TemporaryDirectory(prefix="lars-fuzz-") as folder:
        stream, data = write_case(Path(folder), items, streams, static)
        try:
            view = check_agreement(query, csparql=csparql, stream=str(stream), static=[str(data)],
                         period=period, start=0, end=end)
            report = view.to_json()
        except (UnsupportedError, InputError) as error:
            return Refused(str(error))
    intervals = tuple(Interval(i["start"], i["end"], i["agree"],
                               frozenset(row(a["binding"], names) for a in i["only_cqels"]),
                               frozenset(row(a["binding"], names) for a in i["only_csparql"]))
                      for i in report["intervals"])
    return Checked(report["agree"], intervals, _answers(report["answers"]["csparql"], names),
                   _answers(report["answers"]["cqels"], names), tuple(report["notes"]))


def run_profile(query: str, items: Sequence[Item], streams: Sequence[str], static: Sequence[Triple],
                profile: str, end: int, names: Sequence[str]) -> Answers | Refused:
    """``lars run QUERY --profile PROFILE --t0 0 --from 0 --to END --format json``: the
    non-empty relations reported, by time."""
    with tempfile.TemporaryDirectory(prefix="lars-fuzz-") as folder:
        stream, data = write_case(Path(folder), items, streams, static)
        try:
            view = run(query, stream=str(stream), static=[str(data)], profile=profile, t0=0,
                       start=0, end=end)
            return _answers(view.to_json(), names)
        except (UnsupportedError, InputError) as error:
            return Refused(str(error))
