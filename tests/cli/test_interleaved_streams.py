"""A file holding several streams, each in its own time order but interleaved (as RSP4J's
multi-stream tests feed them), read by ``lars run`` (issue 26 item 5; found by a newcomer):

- the default timeline ends at the last line, so a file whose largest time point is not on its
  last line is refused, and the refusal names the ``--to`` that reads it;
- with ``--to`` the timeline does not rest on the last line: the file is read as it is, with the
  answers ``--order sort`` gives;
- a partitioned run cannot cut such a file into byte ranges: it is refused with that reason,
  while a single stream going back in time keeps the uncut run's error, word for word.
"""

from __future__ import annotations

from tests.badinput.clirun import assert_refused, lars

QUERY = """PREFIX : <http://ex.org/>
REGISTER RSTREAM <http://ex.org/out> AS
SELECT ?x ?v
FROM NAMED WINDOW :w1 ON :s1 [RANGE PT2S STEP PT1S]
FROM NAMED WINDOW :w2 ON :s2 [RANGE PT2S STEP PT1S]
WHERE { { WINDOW :w1 { ?x :p ?v } } UNION { WINDOW :w2 { ?x :p ?v } } }
"""

INTERLEAVED = [("a", 1, "s1", 1), ("b", 2, "s2", 5), ("a", 3, "s1", 2), ("b", 4, "s2", 6),
               ("a", 5, "s1", 3)]
"""Stream s2's lines run ahead of s1's; the last line (time 3) is not the largest time (6)."""


def write(tmp_path, rows, name="s.nt"):
    path = tmp_path / name
    path.write_text("".join(f'<http://ex.org/{s}> <http://ex.org/p> "{v}" <http://ex.org/{on}> {t}\n'
                            for s, v, on, t in rows))
    query = tmp_path / "q.rspql"
    query.write_text(QUERY)
    return query, path


def test_default_timeline_refuses_and_names_the_to_that_reads_it(tmp_path):
    query, stream = write(tmp_path, INTERLEAVED)
    status, _, err = lars("run", query, "--stream", stream, "--profile", "rsp4j")
    message = assert_refused(status, err)
    assert "interleaves several streams" in message and "--to 6" in message


def test_with_to_the_interleaved_file_gives_the_sorted_answers(tmp_path):
    query, stream = write(tmp_path, INTERLEAVED)
    status, given_to, err = lars("run", query, "--stream", stream, "--profile", "rsp4j", "--to", "6")
    assert status == 0, err
    status, sorted_out, err = lars("run", query, "--stream", stream, "--profile", "rsp4j",
                                   "--order", "sort")
    assert status == 0, err
    assert given_to == sorted_out
    assert '<http://ex.org/b>  "2"' in given_to


def test_with_to_a_stream_going_back_in_its_own_order_is_still_refused(tmp_path):
    rows = INTERLEAVED + [("a", 6, "s1", 2)]
    query, stream = write(tmp_path, rows)
    status, _, err = lars("run", query, "--stream", stream, "--profile", "rsp4j", "--to", "6")
    message = assert_refused(status, err, stream)
    assert f"{stream}:6:" in message and "goes back in time" in message


def test_partitions_refuse_interleaved_streams_with_the_reason(tmp_path):
    query, stream = write(tmp_path, INTERLEAVED)
    status, _, err = lars("run", query, "--stream", stream, "--profile", "rsp4j", "--partitions", "2")
    message = assert_refused(status, err, stream)
    assert "interleaves streams" in message and "without --partitions" in message


def test_partitions_keep_the_uncut_error_of_one_stream_going_back(tmp_path):
    rows = [("a", 1, "s1", 1), ("a", 2, "s1", 5), ("a", 3, "s1", 2), ("a", 4, "s1", 6)]
    query, stream = write(tmp_path, rows)
    uncut = lars("run", query, "--stream", stream, "--profile", "rsp4j")
    cut = lars("run", query, "--stream", stream, "--profile", "rsp4j", "--partitions", "2")
    assert assert_refused(uncut[0], uncut[2], stream) == assert_refused(cut[0], cut[2], stream)
    assert "interleaves" not in cut[2]


CQELS = """PREFIX : <http://ex.org/>
SELECT ?x ?v
WHERE { { STREAM :s1 [RANGE 2s] { ?x :p ?v } } UNION { STREAM :s2 [RANGE 2s] { ?x :p ?v } } }
"""


def test_agree_and_check_read_it_with_to_too(tmp_path):
    """The refusal's ``--to`` works for ``agree`` and ``check`` as for ``run`` (newcomer: they
    kept refusing the file)."""
    query, stream = write(tmp_path, INTERLEAVED)
    cqels = tmp_path / "q.rq"
    cqels.write_text(CQELS)
    status, _, err = lars("agree", cqels, "--stream", stream, "--period", "2s")
    assert "--to 6" in assert_refused(status, err)
    status, out, err = lars("agree", cqels, "--stream", stream, "--period", "2s", "--to", "6")
    assert status in (0, 1) and "interleaves" not in err, err
    status, answers, err = lars("run", query, "--stream", stream, "--profile", "rsp4j", "--to", "6",
                                "--format", "sparql-json")
    assert status == 0, err
    recording = tmp_path / "answers.jsonl"
    recording.write_text(answers)
    status, out, err = lars("check", query, "--stream", stream, "--answers", recording,
                            "--profile", "rsp4j", "--to", "6")
    assert status == 0 and out.startswith("CORRECT"), out + err
