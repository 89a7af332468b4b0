"""One answer model (issue 16): every command prints the same answer the same way."""

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, strategies as st
from rdflib import BNode, Graph, Literal, URIRef

XSD = "http://www.w3.org/2001/XMLSchema#"

from agreement.answers import term_text, values_text
from agreement.cli.app import main
from agreement.facade import check_agreement, run
from agreement.spans import interval_text, point_ranges, points_text

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
SOLUTIONS = json.loads((ROOT / "docs" / "schemas" / "solutions.schema.json").read_text())
DATA = ["--stream", str(COUPONS / "stream.nt"), "--static", str(COUPONS / "static.ttl"), "--unit", "1m"]
B = {"shop": "<http://ex.org/b>", "product": "<http://ex.org/rayban>", "percent": "25"}


def cli(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status in (0, 1), err
    return out


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_one_query_through_run_agree_and_the_notebook_api_gives_the_same_answers(capsys):
    """CQELS's answers of the running example (push mode: at the time points with input), from
    ``lars run --format json``, ``lars run --format csv``, ``lars agree --format json`` and
    ``agreement.run``: the same solution mappings at the same time points."""
    ran = json.loads(cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--mode", "push", "--format", "json"))
    jsonschema.validate(ran, SOLUTIONS)
    table = list(csv.DictReader(io.StringIO(cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--mode",
                                                  "push", "--format", "csv"))))
    agreed = json.loads(cli(capsys, "agree", COUPONS / "cqels.rq", *DATA, "--period", "30m",
                            "--format", "json"))
    notebook = run(COUPONS / "cqels.rq", stream=COUPONS / "stream.nt",
                   static=[str(COUPONS / "static.ttl")], unit="1m", mode="push")
    assert ran["answers"] == [{"time": 18, "binding": B}]
    assert notebook.to_json() == ran["answers"]
    assert agreed["answers"]["cqels"] == ran["answers"]
    assert [{"time": int(r.pop("time")), "binding": r} for r in table] == ran["answers"]
    assert ran["variables"] == agreed["variables"] == list(notebook.variables) == list(B)
    assert agreed["intervals"][0]["only_cqels"][0]["binding"] == B


def test_csparql_answers_are_the_same_from_run_and_agree(capsys):
    ran = json.loads(cli(capsys, "run", COUPONS / "csparql.rq", *DATA, "--to", "30", "--mode", "pull",
                         "--period", "10m", "--format", "json"))
    agreed = check_agreement(COUPONS / "csparql.rq", stream=COUPONS / "stream.nt",
                   static=[str(COUPONS / "static.ttl")], unit="1m", period="10m").to_json()
    assert agreed["answers"]["csparql"] == ran["answers"] == [{"time": 20, "binding": B}]


def test_text_output_shortens_iris_with_the_query_prefixes_on_a_terminal_only(capsys):
    from agreement.cli.commands import command_run
    from agreement.cli.app import build_parser
    args = build_parser().parse_args(["run", str(COUPONS / "cqels.rq"), *DATA, "--quiet"])
    out = Terminal()
    command_run(args, out)
    assert out.getvalue().splitlines()[1:] == ["time  ?shop  ?product  ?percent", "  18  :b     :rayban   25"]
    args = build_parser().parse_args(["run", str(COUPONS / "cqels.rq"), *DATA, "--quiet", "--no-prefixes"])
    out = Terminal()
    command_run(args, out)
    assert "<http://ex.org/rayban>" in out.getvalue()
    piped = cli(capsys, "run", COUPONS / "cqels.rq", *DATA)
    assert "<http://ex.org/rayban>" in piped and ":rayban" not in piped


def test_agree_text_shortens_on_a_terminal(capsys):
    from agreement.cli.commands import command_agree
    from agreement.cli.app import build_parser
    args = build_parser().parse_args(["agree", str(COUPONS / "cqels.rq"), *DATA, "--period", "30m"])
    out = Terminal()
    assert command_agree(args, out) == 1
    assert "  only CQELS     (:b, :rayban, 25)  at 18" in out.getvalue().splitlines()
    capsys.readouterr()


def test_empty_time_points_have_rows_only_when_asked(capsys):
    rows = cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--format", "csv").splitlines()
    assert rows == ["time,shop,product,percent", "18,<http://ex.org/b>,<http://ex.org/rayban>,25"]
    every = cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--format", "csv", "--all-points").splitlines()
    assert len(every) == 1 + 19 and every[1] == "0,,," and every[-1] == rows[1]


def test_the_raw_atom_view_stays(capsys):
    out = cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--format", "atoms")
    assert "ans_1(25,<http://ex.org/rayban>,<http://ex.org/b>,default)" in out


def test_output_files_hold_one_row_per_answer(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    target = tmp_path / "answers.parquet"
    cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--output", target, "--output-format", "parquet")
    assert pq.read_table(target).to_pylist() == [{"time": 18, **B}]
    lines = cli(capsys, "run", COUPONS / "cqels.rq", *DATA, "--output", "-").splitlines()
    assert [json.loads(line) for line in lines] == [{"time": 18, "binding": B}]


def test_a_program_has_no_csv_of_answers(tmp_path, capsys):
    status = main(["run", str(ROOT / "examples" / "coupons" / "program.lars"), "--format", "csv"])
    assert status == 2 and "a LARS program has atoms" in capsys.readouterr().err


# --- terms and time points --------------------------------------------------------------------------

@pytest.mark.parametrize("term, text", [
    (URIRef("http://ex.org/a"), "<http://ex.org/a>"),
    (Literal(25), "25"),
    (Literal("2.5", datatype=XSD + "decimal"), "2.5"),
    (Literal("97.0", datatype=XSD + "double"), '"97.0"^^<http://www.w3.org/2001/XMLSchema#double>'),
    (Literal(True), "true"),
    (Literal("x"), '"x"'),
    (Literal("x", lang="en"), '"x"@en'),
    (Literal("2024-01-01", datatype=XSD + "date"), '"2024-01-01"^^<http://www.w3.org/2001/XMLSchema#date>'),
    (BNode("b1"), "_:b1"),
    (None, "UNDEF"),
])
def test_terms_in_turtle_form(term, text):
    assert term_text(term) == text


@given(st.one_of(st.integers(), st.decimals(allow_nan=False, allow_infinity=False, places=3),
                 st.text(), st.booleans()))
def test_turtle_form_reads_back_as_the_same_term(value):
    """Differential: rdflib's Turtle parser reads each printed term back as the term printed."""
    term = Literal(value)
    graph = Graph().parse(data=f"<http://ex.org/s> <http://ex.org/p> {term_text(term)} .", format="turtle")
    [(_, _, back)] = list(graph)
    assert back == term


def test_values_text_shortens_with_prefixes():
    assert values_text((URIRef("http://ex.org/b"), Literal(25)), (("", "http://ex.org/"),)) == "(:b, 25)"


@given(st.sets(st.integers(-50, 50)))
def test_point_ranges_cover_exactly_the_points(points):
    runs = point_ranges(points)
    assert {p for a, b in runs for p in range(a, b + 1)} == points
    assert all(b1 + 1 < a2 for (_, b1), (a2, _) in zip(runs, runs[1:]))


def test_intervals_print_with_their_bounds():
    assert interval_text(20, 30, "left-open") == "(20,30]"
    assert interval_text(20, 30, "right-open") == "[20,30)"
    assert interval_text(20, 30) == "[20,30]" and interval_text(18, 18) == "18"
    assert points_text([21, 22, 23, 29]) == "21–23, 29"


def test_verbose_shows_every_witness(capsys):
    csrbench = ROOT / "examples" / "csrbench"
    argv = ["agree", str(csrbench / "queries" / "q1-cqels.rq"), "--stream", str(csrbench / "stream"),
            "--period", "10s", "--to", "30"]
    short = cli(capsys, *argv)
    full = cli(capsys, *argv, "--verbose")
    assert "… 1 more (--verbose shows them)" in short and "more (--verbose" not in full
    # the fourth witness of each match (its result triple; witnesses are listed in order) only
    # with --verbose
    assert short.count("owl#result>") == 0 and full.count("owl#result>") == 5
    # each answer only one engine gave is listed once
    lines = [line for line in short.splitlines() if line.startswith("  only CQELS")]
    assert len(lines) == len(set(lines)) == 5
    assert all(line.endswith("at 21–29") for line in lines)
