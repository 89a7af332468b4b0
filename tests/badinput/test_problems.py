"""The six problems of issue 18, each as the case that showed it (they failed before the fix).

Each test fails on the code before issue 18 (commit 494bf1a): a hang as a failure too, since the
cases that hung there run as a child process with a time limit.

1. a last line going back in time was not refused (the run was cut short, exit 0), and one at
   -5 was blamed on --from/--to; 2. one outlier timestamp made the run hang; 3. a query of 100
   triple patterns hit Python's recursion limit; 4. "billion laughs" RDF/XML hung; 5. --output
   was truncated at the start and left partial after Ctrl-C; 6. Ctrl-C exited 2.
"""

from __future__ import annotations

import signal
import time

import pytest

from tests.badinput.clirun import assert_refused, child, lars, lars_within

EX = "http://ex.org/"
QUERY = f"PREFIX : <{EX}>\nSELECT ?x WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x :p ?y }} }}\n"


def triples(*times: int) -> str:
    return "".join(f"<{EX}a> <{EX}p> <{EX}t{i}> <{EX}s> {t}\n" for i, t in enumerate(times))


@pytest.fixture
def query(tmp_path):
    path = tmp_path / "q.rq"
    path.write_text(QUERY)
    return path


@pytest.mark.parametrize("command", ["run", "agree"])
@pytest.mark.parametrize("times, line", [
    pytest.param((3, 15, 18, 12), 4, id="last-line-back"),
    pytest.param((3, 15, 18, -5), 4, id="last-line-negative"),
])
def test_1_a_last_line_going_back_is_refused_with_file_and_line(tmp_path, query, command, times, line):
    stream = tmp_path / "s.nt"
    stream.write_text(triples(*times))
    extra = ["--period", "5s"] if command == "agree" else []
    status, _, err = lars(command, query, "--stream", stream, *extra)
    message = assert_refused(status, err, f"{stream}:{line}:")
    assert "goes back in time" in message and "--from" not in err


def test_1_sort_mode_sorts_a_last_line_going_back(tmp_path, query):
    stream = tmp_path / "s.nt"
    stream.write_text(triples(3, 15, 18, 12))
    status, out, err = lars("run", query, "--stream", stream, "--order", "sort", "--format", "intervals")
    assert status == 0 and "timeline [0,18]" in out and "sorted" in err


@pytest.mark.parametrize("option", [[], ["--to", str(10**18)]], ids=["outlier-line", "outlier-to"])
def test_2_an_outlier_timestamp_is_refused_at_once(tmp_path, query, option):
    stream = tmp_path / "s.nt"
    stream.write_text(triples(3, *([] if option else [10**18])))
    status, _, err = lars_within(30, "run", query, "--stream", stream, *option)
    message = assert_refused(status, err)
    assert "more than the limit of 10000000" in message and "--max-time-points" in message


def test_2_the_bound_can_be_raised_and_lowered(tmp_path, query, monkeypatch):
    stream = tmp_path / "s.nt"
    stream.write_text(triples(3, 40))
    assert lars("run", query, "--stream", stream, "--max-time-points", "41")[0] == 0
    assert_refused(*lars("run", query, "--stream", stream, "--max-time-points", "40")[::2])
    monkeypatch.setenv("LARS_MAX_TIME_POINTS", "40")
    assert_refused(*lars("run", query, "--stream", stream)[::2])
    monkeypatch.setenv("LARS_MAX_TIME_POINTS", "many")
    assert "LARS_MAX_TIME_POINTS must be a whole number" in lars("run", query, "--stream", stream)[2]


@pytest.mark.parametrize("size", [100, 1000])
def test_3_a_query_of_many_triple_patterns_translates(tmp_path, size):
    path = tmp_path / "q.rq"
    patterns = " . ".join(f"?s{i} <{EX}p> ?o{i}" for i in range(size))
    path.write_text(f"SELECT * WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ {patterns} }} }}")
    status, out, err = lars("translate", path, "--syntax", "ascii")
    assert status == 0, err
    assert f"striple(S{size - 1},<{EX}p>,O{size - 1},<{EX}s>)" in out


@pytest.mark.parametrize("shape", ["nested", "union"])
def test_3_deeply_nested_groups_and_long_unions_translate(tmp_path, shape):
    path = tmp_path / "q.rq"
    body = ("{ " * 300 + f"?s <{EX}p> ?o" + " }" * 300 if shape == "nested"
            else " UNION ".join(f"{{ ?s <{EX}p{i}> ?o }}" for i in range(400)))
    path.write_text(f"SELECT * WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?s <{EX}q> ?o }} {body} }}")
    status, _, err = lars("translate", path)
    assert status == 0, err


BILLION_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY lol0 "lol">\n'
                  + "".join(f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">\n' for i in range(1, 10))
                  + ']>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                    f'xmlns:ex="{EX}">\n<rdf:Description rdf:about="{EX}a"><ex:p>&lol9;</ex:p>'
                    '</rdf:Description>\n</rdf:RDF>\n')


def xml_with(declaration: str, use: str) -> str:
    return ('<?xml version="1.0"?>\n' + (f"<!DOCTYPE rdf:RDF [ {declaration} ]>\n" if declaration else "")
            + f'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="{EX}">\n'
            f'<rdf:Description rdf:about="{EX}a"><ex:p>{use}</ex:p></rdf:Description>\n</rdf:RDF>\n')


@pytest.mark.parametrize("text, message", [
    pytest.param(BILLION_LAUGHS, "refers to other entities", id="billion-laughs"),
    pytest.param(xml_with('<!ENTITY e "' + "x" * 500 + '">', "&e;" * 3000), "expand to more than",
                 id="quadratic-blowup"),
    pytest.param(xml_with('<!ENTITY x SYSTEM "file:///etc/passwd">', "&x;"), "external XML entity",
                 id="xxe"),
    pytest.param(xml_with('<!ENTITY % p SYSTEM "http://ex.org/evil.dtd"> %p;', "a"), "external XML entity",
                 id="parameter-entity"),
])
def test_4_xml_entities_that_expand_or_reach_out_are_refused_quickly(tmp_path, query, text, message):
    static, stream = tmp_path / "static.rdf", tmp_path / "s.nt"
    static.write_text(text)
    stream.write_text(triples(1))
    status, _, err = lars_within(30, "run", query, "--stream", stream, "--static", static)
    assert message in assert_refused(status, err, static)


def test_4_entities_that_abbreviate_iris_pass(tmp_path, query):
    static, stream = tmp_path / "static.rdf", tmp_path / "s.nt"
    static.write_text(xml_with(f'<!ENTITY ex "{EX}">', "&ex;b"))
    stream.write_text(triples(1))
    assert lars("run", query, "--stream", stream, "--static", static)[0] == 0


def long_run(tmp_path):
    """A run that writes answers for a long time: a program true at every time point."""
    program = tmp_path / "p.lars"
    program.write_text("x(T) :- [0] @T true, T >= 0.\n")
    return ["run", program, "--to", "9000000", "--quiet"]  # within the default --max-time-points


@pytest.mark.parametrize("format", ["jsonl", "csv"])
def test_5_and_6_ctrl_c_exits_130_and_leaves_the_old_output_as_it_was(tmp_path, format):
    output = tmp_path / f"answers.{format}"
    output.write_text("old answers\n")
    process = child(*long_run(tmp_path), "--output", output, "--output-format", format)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(f".answers.{format}.*.part")) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # some answers are written to the temporary file
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert output.read_text() == "old answers\n"  # problem 5 (before issue 18: truncated, then partial)
    assert process.returncode == 130, err  # problem 6
    assert err.strip().splitlines() == [f"interrupted ({output}: left as it was)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"answers.{format}", "p.lars"]


def test_6_ctrl_c_while_printing_exits_130_in_one_line(tmp_path):
    process = child(*long_run(tmp_path), "--format", "table")
    assert process.stdout.readline().startswith("# timeline")  # the run has started
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err.strip() == "interrupted"


def test_5_an_error_during_the_run_leaves_the_old_output_as_it_was(tmp_path, query):
    stream, output = tmp_path / "s.nt", tmp_path / "out.jsonl"
    stream.write_text(triples(1, 2, 3) + "not a triple 4\n" + triples(5))
    output.write_text("old\n")
    status, _, err = lars("run", query, "--stream", stream, "--output", output)
    assert_refused(status, err, f"{stream}:4:")
    assert output.read_text() == "old\n"
    assert f"note: {output}: left as it was" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "q.rq", "s.nt"]
