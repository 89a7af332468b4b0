"""``lars agree`` reads each stream line once (``ingest.encoded.EncodedTriples``: stream triples
carrying their atoms) against the reading it replaces (``parse_ntriples_line``, the atoms
encoded afterwards, again for every witness set tried), on generated stream files: the same
report, byte for byte, with the same exit status and warnings, in text and JSON.

The files mix what the two readings could treat differently: two streams interleaved, lines
naming no stream (given the query's stream, or ``--stream-iri``), equal lines at one time
point, literals of several kinds, blank nodes, escapes (the general route), a bad line
(refused, or skipped with ``--on-error skip``) and a term that cannot be encoded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from agreement import facade
from tests.badinput.clirun import lars

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")

TWO_STREAMS = """PREFIX : <http://ex.org/>
SELECT ?x ?v ?w
WHERE { STREAM :s1 [RANGE 3s SLIDE 1s] { ?x :p ?v }
        STREAM :s2 [RANGE 2s SLIDE 1s] { ?x :q ?w } }
"""
ONE_STREAM = """PREFIX : <http://ex.org/>
SELECT ?x ?v
WHERE { STREAM :s1 [RANGE 3s SLIDE 2s] { ?x :p ?v . FILTER(isLiteral(?v)) } }
"""
OBJECTS = ['"1"^^<http://www.w3.org/2001/XMLSchema#integer>', '"2.5"^^<http://www.w3.org/2001/XMLSchema#double>',
           '"x"', '"x"@en', '"caf\\u00e9"', "_:b", "<http://ex.org/o>", '"true"^^<http://www.w3.org/2001/XMLSchema#boolean>']
S1, S2 = " <http://ex.org/s1>", " <http://ex.org/s2>"
LINE = st.tuples(st.integers(0, 2), st.sampled_from(["<http://ex.org/a>", "<http://ex.org/b>", "_:n"]),
                 st.sampled_from(["p", "q"]), st.sampled_from(OBJECTS), st.sampled_from([S1, S2]))
ODD = st.sampled_from([
    [], [], [],
    [(3, '<http://ex.org/a> <http://ex.org/p> "x" <http://ex.org/s1> 1.5')],  # a bad line
    [(5, '<_:x> <http://ex.org/p> "y" <http://ex.org/s1> 1')],  # an IRI that cannot be encoded
])


def stream_file(folder: Path, lines: list, odd: list[tuple[int, str]], unnamed: str | None = None) -> Path:
    """Lines ``(time step, subject, predicate, object, stream)``, times ascending per stream
    (the streams interleaved as drawn), a last line at the largest time point (where the default
    timeline ends), the odd lines inserted; the lines of stream ``unnamed`` name none."""
    streams = sorted({line[4] for line in lines})
    clock: dict[str, int] = dict.fromkeys(streams, 0)
    text = [f'<http://ex.org/z> <http://ex.org/p> "start"{stream} 0' for stream in streams]
    for step, subject, predicate, obj, stream in lines:
        clock[stream] = clock.get(stream, 0) + step
        text.append(f"{subject} <http://ex.org/{predicate}> {obj}{stream} {clock[stream]}")
    last = max(clock, key=clock.__getitem__)
    text.append(f'<http://ex.org/z> <http://ex.org/q> "end"{last} {clock[last] + 2}')
    for at, line in odd:
        text.insert(min(at, len(text) - 1), line)
    if unnamed is not None:  # its lines name no stream: --stream-iri or the query's one stream gives it
        text = [line.replace(unnamed, "") for line in text]
    path = folder / "stream.nt"
    path.write_text("\n".join(text) + "\n")
    return path


def both_readings(*argv) -> tuple[tuple, tuple]:
    """``lars agree ARGV`` reading lines once, then as before (no encoding reader)."""
    once = lars("agree", *argv)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(facade, "EncodedTriples", lambda *args: None)
        before = lars("agree", *argv)
    return once, before


@settings(max_examples=30, derandomize=True, deadline=None)
@given(st.lists(LINE, min_size=4, max_size=16), ODD,
       st.sampled_from([[], ["--on-error", "skip"], ["--stream-iri", "http://ex.org/s2"], ["--order", "sort"]]),
       st.sampled_from(["text", "json"]))
@example([(1, "<http://ex.org/a>", "p", '"x"', S1)] * 3 + [(0, "<http://ex.org/a>", "q", '"x"', S2)] * 2,
         [], [], "text")  # equal lines
def test_agree_reads_lines_once_with_the_same_report(tmp_path_factory, lines, odd, options, form):
    folder = tmp_path_factory.mktemp("agree")
    unnamed = S2 if "--stream-iri" in options else None
    stream = stream_file(folder, lines, odd, unnamed)
    query = folder / "q.rq"
    query.write_text(TWO_STREAMS)
    argv = [query, "--stream", stream, "--period", "2s", "--format", form, *options]
    once, before = both_readings(*argv)
    event(f"exit {once[0]} " + (once[2].split(":")[-1][:50] if once[0] == 2 else ""))
    assert once == before


@settings(max_examples=15, derandomize=True, deadline=None)
@given(st.lists(LINE, min_size=4, max_size=16))
def test_one_stream_and_lines_naming_none(tmp_path_factory, lines):
    """A query reading one stream gives it to the lines that name none (here those of s2)."""
    folder = tmp_path_factory.mktemp("agree")
    stream = stream_file(folder, lines, [], unnamed=S2)
    query = folder / "q.rq"
    query.write_text(ONE_STREAM)
    once, before = both_readings(query, "--stream", stream, "--period", "2s", "--verbose")
    assert once == before


def test_the_csrbench_stream_folder():
    """A folder of Turtle files is read by another reader; its triples are encoded as they come."""
    root = Path(__file__).parents[2] / "examples" / "csrbench"
    once, before = both_readings(root / "queries" / "q1-cqels.rq", "--csparql",
                                 root / "queries" / "q1-csparql.rq", "--stream", root / "stream",
                                 "--period", "10s")
    assert once == before
    assert once[0] == 1  # they disagree: the explanations were compared too
