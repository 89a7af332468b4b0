"""``lars check`` reads its stream once and holds atoms, not triples (issue 29, item 1): the
encoded reading (:func:`agreement.check.pipeline.read_encoded`) against the whole reading it
replaces (:func:`agreement.defaults.read_named_stream`, then the check's timeline and the
reach count), on generated stream files: the same timeline, notes, runs and triples read
again for explanations."""

from __future__ import annotations

import re
from itertools import groupby
from pathlib import Path

import pytest

from hypothesis import given, settings, strategies as st

from agreement.check.pipeline import RunCache, check_timeline, judge_files, read_encoded
from agreement.defaults import read_named_stream
from ingest.eager import static_graphs
from ingest.options import ReadOptions
from ingest.policy import ReadReport, within_timeline
from ingest.reach import count_reach
from lars.errors import InputError
from translate.api import parse_query
from translate.profiles import profile

QUERY = ("REGISTER QUERY q AS SELECT ?s ?o FROM STREAM <http://ex.org/s> [RANGE 3s STEP 2s] "
         "WHERE { ?s <http://ex.org/p> ?o }")
LINE = st.tuples(st.integers(0, 12), st.sampled_from(["a", "b", "c"]),
                 st.sampled_from(["<http://ex.org/p>", "<http://ex.org/q>"]),
                 st.sampled_from(["", " <http://ex.org/s>", " <http://ex.org/other>"]))


def stream_file(folder: Path, lines: list) -> Path:
    """A timestamped N-Triples file of ``lines`` (time, subject, predicate, stream or none), in
    time order."""
    path = folder / "stream.nt"
    path.write_text("".join(f"<http://ex.org/{s}> {p} \"{t}\"{stream} {t}\n"
                            for t, s, p, stream in sorted(lines, key=lambda line: line[0])))
    return path


def whole(query, path, bounds):
    """The reading :func:`read_encoded` replaces, as ``judge_files`` did it."""
    report, streams = ReadReport(), {s.stream for s in query.streams}
    elements, _ = read_named_stream(path, streams, ReadOptions(), report, bounds)
    timeline = check_timeline(query, max((e.time for e in elements), default=0), *bounds)
    slices = ((t, list(group)) for t, group in groupby(elements, key=lambda e: e.time))
    inside = [e for _, group in count_reach(within_timeline(slices, timeline.start, timeline.end,
                                                            report, "triple"), streams, report)
              for e in group]
    return inside, timeline, report.notes


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.lists(LINE, min_size=1, max_size=12), st.sampled_from([None, 2]),
       st.sampled_from([None, 7]), st.sampled_from([0, 1]), st.sampled_from([100, 3]))
def test_encoded_reading_is_the_whole_reading(tmp_path_factory, lines, start, end, t0, held):
    """Same timeline, same notes (triples outside ``--from``/``--to``, on no stream the query
    reads, naming no stream), the same triples read again, and the same run of the C-SPARQL
    profile at t0 from the atoms as from the triples, with the atoms held or (past ``held``
    triples) read again by the run."""
    path = stream_file(tmp_path_factory.mktemp("s"), lines)
    query = parse_query(QUERY)
    report, streams = ReadReport(), {s.stream for s in query.streams}
    try:
        inside, timeline, notes = whole(query, path, (start, end))
    except InputError as error:  # --from after the input: the same refusal
        with pytest.raises(InputError, match=re.escape(error.message)):
            read_encoded(query, path, streams, ReadOptions(), report, (start, end), None, held)
        return
    encoded, line = read_encoded(query, path, streams, ReadOptions(), report, (start, end), None,
                                 held)
    assert line == timeline and report.notes == notes
    assert (encoded.stream is None) == (len(inside) > held)
    again = encoded.again
    assert list(again) == inside == list(again)
    assert encoded.times == tuple(sorted({e.time for e in inside}))
    csparql = profile("csparql")
    graphs = static_graphs([], query)
    held = RunCache(query, inside, graphs, timeline)
    read_once = RunCache(query, again, graphs, timeline, encoded=encoded)
    assert read_once._reach == held._reach
    assert (tuple(next(read_once(csparql, [t0])).reports)
            == tuple(next(held(csparql, [t0])).reports))


def test_an_incorrect_recordings_explanation_reads_the_stream_again(tmp_path):
    """The mismatch names the stream triples behind the missing binding, read from the file
    again (the encoded reading held none)."""
    path = stream_file(tmp_path, [(1, "a", "<http://ex.org/p>", " <http://ex.org/s>"),
                                  (4, "b", "<http://ex.org/p>", " <http://ex.org/s>")])
    (tmp_path / "q.rq").write_text(QUERY)
    answers = tmp_path / "answers.json"
    answers.write_text('{"relations": [{"head": {"vars": ["s", "o"]}, "timestamp": 3000, '
                       '"results": {"bindings": [{"binding": {"s": {"type": "uri", "value": '
                       '"http://ex.org/a"}, "o": {"type": "literal", "value": "2"}}}]}}]}')
    judgement = judge_files(tmp_path / "q.rq", path, answers, "csparql", suggest=False)
    assert not judgement.correct
    assert (1, '<http://ex.org/a> <http://ex.org/p> "1" .') in judgement.mismatch.content
