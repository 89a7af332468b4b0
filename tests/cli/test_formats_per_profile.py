"""Every output format of ``lars run`` writes the evaluations the profile or mode reports
(issue 26 item 4): the same time points and bindings as the table, one result per report time,
and an empty result only where the profile emits empty relations.

Each format is parsed back with an independent reader (``csv``, ``json``, a split on white
space) and compared with the table. The reported time points come from
:func:`agreement.check.expected.reports`, which reads the profile's ``report`` (or push's and pull's
``trigger``) atom: the evaluations ``lars check`` judges against.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from rdflib import Graph, URIRef

from agreement.cli import main
from agreement.check.expected import reports
from ingest.eager import query_data
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from lars.streams import Timeline
from translate.api import parse_query, translate
from translate.profiles import PROFILES, profile
from translate.reports import compile_profile

EX = "http://ex.org/"
QUERY = """PREFIX : <http://ex.org/>
SELECT ?s ?o WHERE { STREAM :s [RANGE 2s STEP 2s] { ?s :p ?o } }
"""
ITEMS = [("a", "p", "b", 1), ("c", "p", "d", 3), ("e", "q", "f", 5), ("g", "p", "h", 8)]
STREAM = "".join(f"<http://ex.org/{s}> <http://ex.org/{p}> <http://ex.org/{o}> {t}\n"
                 for s, p, o, t in ITEMS)
END = 9
FORMATS = ("csv", "json", "sparql-json", "sparql-csv", "sparql-tsv")
SETTINGS = [pytest.param(["--mode", mode] + (["--period", "2s"] if mode == "pull" else []),
                         id=f"mode-{mode}") for mode in ("none", "push", "pull")] + [
    pytest.param(["--profile", name, "--period", "2s"], id=name) for name in PROFILES]


def run(tmp_path, capsys, options: list[str], format: str) -> str:
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(QUERY, encoding="utf-8")
    stream.write_text(STREAM, encoding="utf-8")
    assert main(["run", str(query), "--stream", str(stream), "--to", str(END), "--format",
                 format, *options]) == 0
    return capsys.readouterr().out


def iri(text: str) -> str:
    return text if text.startswith("<") else f"<{text}>"


def table_rows(text: str) -> set[tuple]:
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines[0].split() == ["time", "?s", "?o"]
    return {(int(t), s, o) for t, s, o in (line.split() for line in lines[1:])}


def parsed(format: str, text: str) -> tuple[set[tuple], list[tuple[int, int]]]:
    """The rows ``(time, s, o)`` of one format's output and, for the SPARQL results formats
    that write one result per evaluation, ``(time, number of rows)`` per result."""
    if format == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        return {(int(r["time"]), r["s"], r["o"]) for r in rows}, []
    if format == "json":
        answers = json.loads(text)["answers"]
        return {(a["time"], a["binding"]["s"], a["binding"]["o"]) for a in answers}, []
    if format == "sparql-json":
        documents = [json.loads(line) for line in text.splitlines()]
        rows = {(d["time"], iri(b["s"]["value"]), iri(b["o"]["value"]))
                for d in documents for b in d["results"]["results"]["bindings"]}
        return rows, [(d["time"], len(d["results"]["results"]["bindings"])) for d in documents]
    delimiter = "," if format == "sparql-csv" else "\t"
    lines = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    assert [re.sub(r"^\?", "", c) for c in lines[0]] == ["time", "s", "o"]
    return {(int(t), iri(s), iri(o)) for t, s, o in lines[1:]}, []


def reported_times(options: list[str]) -> tuple[list[int], bool]:
    """The time points at which the setting evaluates and reports, and whether it emits empty
    relations (read from the compiled program's report atoms, not from ``lars run``)."""
    query = parse_query(QUERY)
    if options[0] == "--profile":
        chosen = profile(options[1])
        translation = compile_profile(query, chosen, period=2)
        emits = chosen.empty == "emit"
    elif options[1] == "none":
        return list(range(0, END + 1)), True
    else:
        translation = translate(query, "cqels", mode=options[1],
                                period_ticks=2 if options[1] == "pull" else None)
        emits = True
    elements = [StreamTriple(t, query.streams[0].stream, tuple(URIRef(EX + n) for n in spo),
                             Position()) for *spo, t in ITEMS]
    data = query_data([translation], elements, {None: Graph()}, Timeline(0, END))
    return [r.time for r in reports(translation, data)], emits


@pytest.mark.parametrize("options", SETTINGS)
def test_every_format_writes_the_reported_evaluations(options, tmp_path, capsys) -> None:
    expected = table_rows(run(tmp_path, capsys, options, "table"))
    times, emits = reported_times(options)
    assert {t for t, *_ in expected} <= set(times)
    for format in FORMATS:
        rows, results = parsed(format, run(tmp_path, capsys, options, format))
        assert rows == expected, format
        if format == "sparql-json":
            written = [t for t, _ in results]
            assert written == (times if emits else sorted({t for t, *_ in expected})), format
            assert all(n > 0 for _, n in results) or emits
