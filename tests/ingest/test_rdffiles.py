"""The RDF stream readers and static data (ingest/rdffiles.py): good input, and every error."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import BNode, Literal, URIRef

from lars.errors import InputError, ParseError, Position
from ingest.policy import ReadPolicy, ReadReport
from ingest.rdffiles import (
    CSRBENCH_STREAM, StreamTriple, file_time, load_static, parse_ntriples_line,
    read_timestamped_ntriples, read_turtle_folder, turtle_files,
)

CSRBENCH = Path(__file__).parents[2] / "examples" / "csrbench" / "stream"
EX = "http://ex.org/"
A, OFFERS, C1, S1 = (URIRef(EX + name) for name in ("a", "offers", "c1", "s1"))
TRIPLE = f"<{EX}a> <{EX}offers> <{EX}c1>"  # 59 characters: a timestamp after it is in column 61


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- one timestamped N-Triples line ------------------------------------------------------

@pytest.mark.parametrize("line, time, stream, obj", [
    pytest.param(f"{TRIPLE} 10", 10, None, C1, id="triple-time"),
    pytest.param(f"{TRIPLE} . 10", 10, None, C1, id="triple-dot-time"),
    pytest.param(f"{TRIPLE} <{EX}s1> 10", 10, S1, C1, id="triple-stream-time"),
    pytest.param(f"{TRIPLE} <{EX}s1> . 10", 10, S1, C1, id="nquads-line-time"),
    pytest.param(f"\t{TRIPLE}\t10\t# late", 10, None, C1, id="tabs-and-comment"),
    pytest.param(f"{TRIPLE} -3", -3, None, C1, id="negative-time"),
    pytest.param(f'<{EX}a> <{EX}offers> "hi"@en-GB 0', 0, None, Literal("hi", lang="en-GB"),
                 id="language-literal"),
    pytest.param(f'<{EX}a> <{EX}offers> "30"^^<http://www.w3.org/2001/XMLSchema#integer> 1', 1,
                 None, Literal(30), id="typed-literal"),
    pytest.param(f'<{EX}a> <{EX}offers> "a \\"q\\" \\u00e9" 2', 2, None, Literal('a "q" é'),
                 id="escapes"),
])
def test_ntriples_line(line, time, stream, obj):
    parsed = parse_ntriples_line(line, "s.nt", 4)
    assert parsed == (time, [StreamTriple(time, stream, (A, OFFERS, obj), Position("s.nt", 4))])


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "  # indented comment"])
def test_ntriples_blank_and_comment_lines(line):
    assert parse_ntriples_line(line, "s.nt", 1) is None


def test_ntriples_blank_nodes_keep_their_labels():
    first = parse_ntriples_line(f"_:b <{EX}p> _:c 1", "s.nt", 1)[1][0]
    second = parse_ntriples_line(f"_:c <{EX}p> _:b 2", "s.nt", 2)[1][0]
    assert first.triple[0] == second.triple[2] == BNode("b")


def test_ntriples_default_stream():
    parsed = parse_ntriples_line(f"{TRIPLE} 1", "s.nt", 1, default_stream=S1)
    assert parsed[1][0].stream == S1


@pytest.mark.parametrize("line, message", [
    pytest.param(f'"x" <{EX}offers> <{EX}c1> 10',
                 "s.nt:7:1: error: expected an IRI or a blank node as subject but found '\"x\"'",
                 id="literal-subject"),
    pytest.param(f"<{EX}a b> <{EX}offers> <{EX}c1> 10",
                 f"s.nt:7:1: error: expected an IRI or a blank node as subject but found '<{EX}a'",
                 id="iri-with-space"),
    pytest.param(f"<a> <{EX}offers> <{EX}c1> 10",
                 "s.nt:7:1: error: expected an IRI or a blank node as subject but found '<a>'",
                 id="relative-iri"),
    pytest.param(f"<{EX}a> _:p <{EX}c1> 10",
                 "s.nt:7:19: error: expected an IRI as predicate but found '_:p'", id="blank-predicate"),
    pytest.param(f'<{EX}a> <{EX}offers> "open 10',
                 "s.nt:7:42: error: expected an IRI, a blank node or a literal as object but found "
                 "'\"open'", id="unterminated-literal"),
    pytest.param(f"<{EX}a> <{EX}offers> 10",
                 "s.nt:7:42: error: expected an IRI, a blank node or a literal as object but found "
                 "'10'", id="missing-object"),
    pytest.param(TRIPLE, "s.nt:7:60: error: expected a timestamp (an integer) but found end of line",
                 id="missing-timestamp"),
    pytest.param(f"{TRIPLE} .", "s.nt:7:62: error: expected a timestamp (an integer) but found end of line",
                 id="missing-timestamp-after-dot"),
    pytest.param(f"{TRIPLE} 10.5", "s.nt:7:61: error: expected a timestamp (an integer) but found '10.5'",
                 id="decimal-timestamp"),
    pytest.param(f"{TRIPLE} ten", "s.nt:7:61: error: expected a timestamp (an integer) but found 'ten'",
                 id="word-timestamp"),
    pytest.param(f"{TRIPLE} 10 11", "s.nt:7:64: error: expected end of line after the timestamp but found '11'",
                 id="two-timestamps"),
    pytest.param(f"{TRIPLE} <s1> 10", "s.nt:7:61: error: expected a stream IRI but found '<s1>'",
                 id="bad-stream-iri"),
])
def test_ntriples_line_errors(line, message):
    with pytest.raises(ParseError) as caught:
        parse_ntriples_line(line, "s.nt", 7)
    assert str(caught.value) == message


# --- timestamped N-Triples files ---------------------------------------------------------

def test_read_ntriples_file_in_arrival_order(tmp_path):
    path = write(tmp_path, "s.nt", f"# offers\n{TRIPLE} 10\n\n<{EX}b> <{EX}offers> <{EX}c2> <{EX}s1> 10\r\n"
                                   f"{TRIPLE} 12\n")
    elements = list(read_timestamped_ntriples(path, default_stream=CSRBENCH_STREAM))
    assert [(e.time, e.stream, e.position.line) for e in elements] == [
        (10, CSRBENCH_STREAM, 2), (10, S1, 4), (12, CSRBENCH_STREAM, 5)]


def test_read_ntriples_backwards_timestamp_names_both_lines(tmp_path):
    path = write(tmp_path, "s.nt", f"{TRIPLE} 3\n{TRIPLE} 7\n#\n{TRIPLE} 7\n{TRIPLE} 5\n")
    with pytest.raises(InputError) as caught:
        list(read_timestamped_ntriples(path))
    assert str(caught.value) == f"{path}:5:61: error: timestamp 5 goes back in time (line 4 had 7)"


def test_read_ntriples_stops_at_first_bad_line(tmp_path):
    path = write(tmp_path, "s.nt", f"{TRIPLE} 1\n{TRIPLE}\n{TRIPLE} x\n")
    with pytest.raises(ParseError, match=rf"^{path}:2:60: error: expected a timestamp"):
        list(read_timestamped_ntriples(path))


def test_read_ntriples_skip_mode_counts_and_keeps_five_messages(tmp_path):
    lines = [f"{TRIPLE} 1"] + [f"{TRIPLE} x{i}" for i in range(7)] + [f"{TRIPLE} 0", f"{TRIPLE} 2"]
    path = write(tmp_path, "s.nt", "\n".join(lines) + "\n")
    report = ReadReport()
    elements = list(read_timestamped_ntriples(path, policy=ReadPolicy(on_error="skip"), report=report))
    assert [e.time for e in elements] == [1, 2]
    assert (report.records, report.elements, report.skipped) == (10, 2, 8)
    assert report.messages == [
        f"{path}:{n}:61: error: expected a timestamp (an integer) but found 'x{n - 2}'" for n in range(2, 7)]
    assert report.summary()[0] == "warning: skipped 8 bad records; the first 5:"


def test_read_ntriples_skip_mode_skips_backwards_lines(tmp_path):
    path = write(tmp_path, "s.nt", f"{TRIPLE} 5\n{TRIPLE} 9\n{TRIPLE} 6\n{TRIPLE} 9\n")
    report = ReadReport()
    elements = list(read_timestamped_ntriples(path, policy=ReadPolicy(on_error="skip"), report=report))
    assert [e.position.line for e in elements] == [1, 2, 4]
    assert report.messages == [f"{path}:3:61: error: timestamp 6 goes back in time (line 2 had 9)"]


def test_read_ntriples_sort_mode_sorts_stably_and_warns(tmp_path):
    path = write(tmp_path, "s.nt", f"{TRIPLE} 7\n{TRIPLE} 5\n{TRIPLE} 7\n{TRIPLE} 6\n{TRIPLE} 5\n")
    report = ReadReport()
    elements = list(read_timestamped_ntriples(path, policy=ReadPolicy(order="sort"), report=report))
    assert [(e.time, e.position.line) for e in elements] == [(5, 2), (5, 5), (6, 4), (7, 1), (7, 3)]
    assert (report.reordered, report.skipped) == (3, 0)
    assert report.summary() == [f"{path}:2:61: warning: timestamp 5 goes back in time (line 1 had 7); "
                                "3 lines out of time order were sorted"]


def test_read_ntriples_missing_file(tmp_path):
    with pytest.raises(InputError) as caught:
        list(read_timestamped_ntriples(tmp_path / "none.nt"))
    assert str(caught.value) == f"{tmp_path / 'none.nt'}: error: cannot read the file: No such file or directory"


def test_read_ntriples_line_not_utf8(tmp_path):
    path = tmp_path / "s.nt"
    path.write_bytes(f"{TRIPLE} 1\n<{EX}\xe9> <{EX}p> <{EX}o> 2\n".encode("latin-1"))
    with pytest.raises(ParseError, match=rf"^{path}:2:16: error: the line is not UTF-8 text \(byte 0xe9\)$"):
        list(read_timestamped_ntriples(path))


def test_reading_policy_without_report_is_a_bug(tmp_path):
    with pytest.raises(ValueError, match="needs a ReadReport"):
        read_timestamped_ntriples(tmp_path / "s.nt", policy=ReadPolicy(on_error="skip"))


# --- Turtle folders ----------------------------------------------------------------------

@pytest.mark.parametrize("name, time", [
    pytest.param("data_12.ttl", 12, id="prefix"), pytest.param("data_00.ttl", 0, id="leading-zeros"),
    pytest.param("12.ttl", 12, id="bare"), pytest.param("a_b_3.ttl", 3, id="underscores"),
])
def test_file_time(name, time):
    assert file_time(name) == time


@pytest.mark.parametrize("name", ["data.ttl", "data_12.nt", "data-12.ttl", "data_1a.ttl", "README.md"])
def test_file_time_refuses_other_names(name):
    with pytest.raises(InputError) as caught:
        file_time(name)
    assert str(caught.value) == (f"{name}: error: the file name is not a timestamp "
                                 "(expected <prefix>_<int>.ttl or <int>.ttl)")


def test_csrbench_folder():
    elements = list(read_turtle_folder(CSRBENCH))
    assert len(elements) == 15188
    assert sorted({e.time for e in elements}) == list(range(34))
    assert {e.stream for e in elements} == {CSRBENCH_STREAM}
    first = [e for e in elements if e.time == 0]
    assert [" ".join(t.n3() for t in e.triple) for e in first] == sorted(
        " ".join(t.n3() for t in e.triple) for e in first)
    assert first[0].position == Position(str(CSRBENCH / "data_00.ttl"))


def make_folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "stream"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


GOOD_TTL = "@prefix ex: <http://ex.org/> .\nex:a ex:offers ex:c1 .\n"
BAD_TTL = "@prefix ex: <http://ex.org/> .\nex:a ex:offers ex:c1 .\nex:a ex:offers ex:c1 ex:d .\n"


def test_folder_sorted_by_time_and_hidden_files_ignored(tmp_path):
    folder = make_folder(tmp_path, {"d_10.ttl": GOOD_TTL, "d_9.ttl": GOOD_TTL, ".hidden": "x"})
    assert turtle_files(folder) == [str(folder / "d_9.ttl"), str(folder / "d_10.ttl")]
    assert [e.time for e in read_turtle_folder(folder)] == [9, 10]


def test_folder_turtle_syntax_error(tmp_path):
    folder = make_folder(tmp_path, {"d_1.ttl": GOOD_TTL, "d_2.ttl": BAD_TTL})
    with pytest.raises(ParseError) as caught:
        list(read_turtle_folder(folder))
    assert str(caught.value) == (f"{folder / 'd_2.ttl'}:3:22: error: syntax error: "
                                 "expected '.' or '}' or ']' at end of statement")


def test_folder_file_not_named_by_timestamp(tmp_path):
    folder = make_folder(tmp_path, {"d_1.ttl": GOOD_TTL, "notes.txt": "x"})
    with pytest.raises(InputError, match=rf"^{folder / 'notes.txt'}: error: the file name is not a timestamp"):
        list(read_turtle_folder(folder))


def test_folder_skip_mode_counts_bad_files(tmp_path):
    folder = make_folder(tmp_path, {"d_1.ttl": GOOD_TTL, "d_2.ttl": BAD_TTL, "notes.txt": "x"})
    report = ReadReport()
    elements = list(read_turtle_folder(folder, policy=ReadPolicy(on_error="skip"), report=report))
    assert [e.time for e in elements] == [1]
    assert (report.records, report.skipped, len(report.messages)) == (3, 2, 2)


def test_folder_two_files_for_one_time(tmp_path):
    folder = make_folder(tmp_path, {"d_1.ttl": GOOD_TTL, "e_01.ttl": GOOD_TTL})
    with pytest.raises(InputError) as caught:
        turtle_files(folder)
    assert str(caught.value) == (f"{folder / 'e_01.ttl'}: error: two files for time point 1: "
                                 f"{folder / 'd_1.ttl'} and {folder / 'e_01.ttl'}")


def test_missing_folder(tmp_path):
    with pytest.raises(InputError) as caught:
        list(read_turtle_folder(tmp_path / "none"))
    assert str(caught.value) == f"{tmp_path / 'none'}: error: cannot read the folder: No such file or directory"


def test_folder_blank_nodes_are_deterministic_and_scoped_to_their_file(tmp_path):
    text = "@prefix ex: <http://ex.org/> .\nex:o ex:result [ ex:value 54 ] .\n"
    folder = make_folder(tmp_path, {"d_1.ttl": text, "d_2.ttl": text})
    first, second = list(read_turtle_folder(folder)), list(read_turtle_folder(folder))
    assert first == second
    nodes = {e.time: e.triple[2] for e in first if e.triple[1] == URIRef(EX + "result")}
    assert nodes[1] != nodes[2] and str(nodes[1]).startswith("t1_")


def test_custom_stream_iri():
    elements = read_turtle_folder(CSRBENCH, stream=S1)
    assert next(elements).stream == S1


# --- static data -------------------------------------------------------------------------

def test_static_default_and_named_graphs(tmp_path):
    ttl = write(tmp_path, "g.ttl", GOOD_TTL)
    trig = write(tmp_path, "q.trig", "@prefix ex: <http://ex.org/> .\nex:g { ex:a ex:b ex:c . }\n")
    dataset = load_static([ttl, f"{EX}named={ttl}", trig])
    assert (A, OFFERS, C1) in dataset.default_graph
    assert (A, OFFERS, C1) in dataset.graph(URIRef(EX + "named"))
    assert len(dataset.graph(URIRef(EX + "g"))) == 1


@pytest.mark.parametrize("name, text, message", [
    pytest.param("bad.ttl", BAD_TTL, "3:22: error: syntax error: expected '.' or '}' or ']' at end of statement",
                 id="turtle"),
    pytest.param("bad.nt", f"<{EX}a> <{EX}b> <{EX}c> .\n<{EX}a> <{EX}b> \"x .\n",
                 "2: error: syntax error: not a valid N-Triples line", id="ntriples"),
    pytest.param("bad.nq", f"<{EX}a> <{EX}b> <{EX}c> <{EX}g> .\n<{EX}a> <{EX}b> .\n",
                 "2: error: syntax error: not a valid N-Quads line", id="nquads"),
    pytest.param("bad.rdf", '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                 '\n<rdf:Description rdf:about="http://a">\n</rdf:RDF>\n', "4:3: error: syntax error: mismatched tag",
                 id="rdfxml"),
    pytest.param("bad.jsonld", '{"@id": "http://a",\n "http://b": [1,\n }\n',
                 "3:2: error: syntax error: Expecting value", id="jsonld"),
])
def test_static_syntax_errors(tmp_path, name, text, message):
    path = write(tmp_path, name, text)
    with pytest.raises(ParseError) as caught:
        load_static([path])
    assert str(caught.value) == f"{path}:{message}"


def test_static_missing_file(tmp_path):
    with pytest.raises(InputError) as caught:
        load_static([f"{EX}g={tmp_path / 'none.ttl'}"])
    assert str(caught.value) == f"{tmp_path / 'none.ttl'}: error: cannot read the file: No such file or directory"


def test_static_unknown_extension(tmp_path):
    with pytest.raises(InputError, match=r"data.csv: error: cannot tell the RDF format from the extension '.csv' "
                                         r"\(use one of .ttl,"):
        load_static([write(tmp_path, "data.csv", "a,b")])


def test_static_quads_take_no_graph_iri(tmp_path):
    path = write(tmp_path, "q.trig", "")
    with pytest.raises(InputError, match="a trig file has graphs of its own"):
        load_static([f"{EX}g={path}"])


def test_static_never_reaches_the_network(tmp_path):
    path = write(tmp_path, "remote.jsonld",
                 '{"@context": "http://example.org/ctx.jsonld", "@id": "http://a", "b": 1}')
    with pytest.raises(InputError) as caught:
        load_static([path])
    assert str(caught.value) == (f"{path}: error: refusing to reach the network (http://example.org/ctx.jsonld)"
                                 " (the project never fetches data: give local files instead)")


def test_static_relative_jsonld_context_is_a_local_file(tmp_path):
    write(tmp_path, "ctx.jsonld", '{"@context": {"b": "http://ex.org/b"}}')
    path = write(tmp_path, "data.jsonld", '{"@context": "ctx.jsonld", "@id": "http://ex.org/a", "b": 1}')
    assert len(load_static([path])) == 1


def test_csrbench_copy_is_complete():
    assert len(list(CSRBENCH.glob("data_*.ttl"))) == 34
    assert (CSRBENCH.parent / "QUERIES.md").is_file()
    assert len(list((CSRBENCH.parent / "engine-answers").glob("*-answer-*.json"))) == 21
