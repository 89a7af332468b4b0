"""Time order per stream (issue 26 item 5): a file holding several streams, each in time order,
is read without ``--order sort``; a line going back in time within its own stream is refused
with its file and line; ``--order sort`` still sorts; a partitioned run never cuts such a file
silently wrong.

The independent reading is a stable sort of the lines by time (arrival order within a time
point), which is what ``--order sort`` documents.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement.cli import main
from ingest.policy import ReadPolicy, ReadReport
from ingest.rdffiles import read_timestamped_ntriples
from lars.errors import InputError

EX = "http://ex.org/"
QUERY = ("PREFIX : <http://ex.org/>\nSELECT ?s ?t WHERE { STREAM :s1 [RANGE 1s] { ?s :p ?o } "
         "STREAM :s2 [RANGE 1s] { ?t :p ?u } }\n")


def line(subject: str, stream: str, time: int) -> str:
    return f"<{EX}{subject}> <{EX}p> <{EX}o> <{EX}{stream}> {time}\n"


def write(tmp_path, records) -> str:
    path = tmp_path / "s.nt"
    path.write_text("".join(line(*r) for r in records), encoding="utf-8")
    return str(path)


def read(path, order="strict"):
    report = ReadReport()
    elements = read_timestamped_ntriples(path, policy=ReadPolicy(order=order), report=report)
    return [(str(e.triple[0])[len(EX):], e.time) for e in elements], report


def test_two_interleaved_streams_are_merged_in_time_order(tmp_path) -> None:
    path = write(tmp_path, [("a", "s1", 1), ("b", "s2", 0), ("c", "s1", 3), ("d", "s2", 2),
                            ("e", "s2", 3), ("f", "s1", 4)])
    found, report = read(path)
    assert found == [("b", 0), ("a", 1), ("d", 2), ("c", 3), ("e", 3), ("f", 4)]
    assert not report.summary()  # no warning: nothing was out of order within a stream


def test_a_line_going_back_within_its_stream_is_refused_with_its_line(tmp_path) -> None:
    path = write(tmp_path, [("a", "s1", 1), ("b", "s2", 0), ("c", "s1", 3), ("d", "s1", 2)])
    with pytest.raises(InputError) as error:
        read(path)
    assert str(error.value) == (f"{path}:4:74: error: timestamp 2 goes back in time (line 3 had 3 "
                                f"on stream <{EX}s1>)")


def test_a_single_stream_going_back_keeps_its_message(tmp_path) -> None:
    path = write(tmp_path, [("a", "s1", 1), ("b", "s1", 3), ("c", "s1", 2)])
    with pytest.raises(InputError, match=r":3:74: error: timestamp 2 goes back in time \(line 2 "
                                         r"had 3\)$"):
        read(path)


def test_a_stream_starting_behind_what_was_read_is_refused(tmp_path) -> None:
    # s1 is read to time 5 before s2 appears at 0: merging would need the whole file first
    path = write(tmp_path, [("a", "s1", 1), ("b", "s1", 5), ("c", "s1", 6), ("d", "s2", 0)])
    with pytest.raises(InputError, match=r":4:74: error: timestamp 0 of a stream first seen here "
                                         r"goes back in time"):
        read(path)
    found, report = read(path, order="sort")
    assert [t for _, t in found] == [0, 1, 5, 6] and report.reordered == 1


def test_order_sort_still_sorts_and_warns(tmp_path) -> None:
    path = write(tmp_path, [("a", "s1", 2), ("b", "s1", 1)])
    found, report = read(path, order="sort")
    assert found == [("b", 1), ("a", 2)] and "out of time order" in report.summary()[0]


streams = st.lists(st.tuples(st.sampled_from(["s1", "s2", "s3"]), st.integers(0, 6)),
                   max_size=12)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(records=streams)
def test_a_file_is_merged_exactly_or_refused(tmp_path_factory, records) -> None:
    # the per-stream order is made to hold by sorting each stream's times in place
    times: dict[str, list[int]] = {}
    for stream, time in records:
        times.setdefault(stream, []).append(time)
    ordered = {s: iter(sorted(ts)) for s, ts in times.items()}
    lines = [(f"x{k}", stream, next(ordered[stream])) for k, (stream, _) in enumerate(records)]
    path = write(tmp_path_factory.mktemp("order"), lines)
    try:
        found, _ = read(path)
    except InputError as error:
        assert "of a stream first seen here goes back in time" in str(error)
        return
    assert found == sorted(((s, t) for s, _, t in lines), key=lambda item: item[1])


def run(tmp_path, capsys, records, *options) -> tuple[int, str, str]:
    query = tmp_path / "q.rq"
    query.write_text(QUERY, encoding="utf-8")
    code = main(["run", str(query), "--stream", write(tmp_path, records), *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


INTERLEAVED = [("a", "s1", 1), ("b", "s2", 0), ("c", "s1", 3), ("d", "s2", 2), ("e", "s2", 4),
               ("f", "s1", 5), ("g", "s2", 6)]


def test_lars_run_reads_interleaved_streams_as_sorted(tmp_path, capsys) -> None:
    code, strict, _ = run(tmp_path, capsys, INTERLEAVED)
    assert code == 0
    assert (0, strict) == run(tmp_path, capsys, INTERLEAVED, "--order", "sort")[:2]
    assert "<http://ex.org/c>  <http://ex.org/d>" in strict  # s1@3 meets s2@2 in [2, 3]


def test_lars_run_refuses_a_file_whose_last_line_is_not_its_latest(tmp_path, capsys) -> None:
    records = [("a", "s1", 1), ("b", "s2", 0), ("c", "s1", 5), ("d", "s2", 2)]
    code, _, err = run(tmp_path, capsys, records)
    assert code == 2 and "time point 5 comes after the stream's last line" in err


def test_a_partitioned_run_refuses_an_interleaved_file_and_sorting_reads_it(tmp_path, capsys):
    # workers read byte ranges, which must ascend in time across streams: the worker that meets
    # the line going back refuses the file (never a range cut wrong); --order sort reads it
    code, _, err = run(tmp_path, capsys, INTERLEAVED, "--partitions", "2")
    assert code == 2 and ":2:74: error: timestamp 0 goes back in time (line 1 had 1)" in err
    code, out, _ = run(tmp_path, capsys, INTERLEAVED, "--partitions", "2", "--order", "sort")
    assert code == 0 and out == run(tmp_path, capsys, INTERLEAVED)[1]
