"""``lars agree`` writes its report as the intervals close (:mod:`agreement.agree.reportwriter`): the
text and the JSON document are those of the collected report (:func:`agreement.agree.report.render_text`,
:func:`agreement.agree.report.to_json`) byte for byte, and the JSON lines hold the same intervals and
answers."""

import io
import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Literal, URIRef
from referencing import Registry, Resource

from agreement.cli.app import main
from agreement.compare import AnswerSeries, compare
from agreement.agree.explain import Explanation
from agreement.facade import check_variants
from agreement.agree.report import AgreementReport, render_text, to_json
from agreement.agree.reportwriter import (
    JsonLinesWriter, JsonWriter, Spool, TextWriter, report_head, write_collected,
)

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
CSRBENCH = ROOT / "examples" / "csrbench"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
LINES_SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement-lines.schema.json").read_text())
LINES = jsonschema.Draft202012Validator(LINES_SCHEMA, registry=Registry().with_resource(
    SCHEMA["$id"], Resource.from_contents(SCHEMA)))

CASES = {
    "running example, 30m": (
        [str(COUPONS / "cqels.rq"), "--stream", str(COUPONS / "stream.nt"), "--static",
         str(COUPONS / "static.ttl"), "--unit", "1m", "--to", "50", "--period", "30m"], {}),
    "running example, every variant": (
        [str(COUPONS / "cqels.rq"), "--stream", str(COUPONS / "stream.nt"), "--static",
         str(COUPONS / "static.ttl"), "--unit", "1m", "--period", "10m", "--variant", "all"], {}),
    "running example, agreeing": (
        [str(COUPONS / "cqels.rq"), "--stream", str(COUPONS / "stream.nt"), "--static",
         str(COUPONS / "static.ttl"), "--unit", "1m", "--to", "50", "--period", "5m"], {}),
    "CSRBench Q1, 5s, one explanation": (
        [str(CSRBENCH / "queries" / "q1-cqels.rq"), "--csparql", str(CSRBENCH / "queries" / "q1-csparql.rq"),
         "--stream", str(CSRBENCH / "stream"), "--period", "5s", "--max-explanations", "1"], {}),
}


def facade_options(argv: list[str]) -> tuple[Path, dict]:
    """The façade call ``lars agree argv`` makes (the options these cases use)."""
    names = {"--stream": "stream", "--static": "static", "--unit": "unit", "--to": "end",
             "--period": "period", "--variant": "variant", "--csparql": "csparql",
             "--max-explanations": "max_explanations"}
    options = {names[key]: value for key, value in zip(argv[1::2], argv[2::2])}
    options["static"] = [options["static"]] if "static" in options else []
    for key in ("end", "max_explanations"):
        if key in options:
            options[key] = int(options[key])
    return Path(argv[0]), options


def run(capsys, argv: list[str]) -> tuple[int, str]:
    status = main(["agree", *argv])
    return status, capsys.readouterr().out


@pytest.mark.parametrize("case", CASES)
def test_streamed_text_and_json_are_those_of_the_collected_report(capsys, case):
    argv, _ = CASES[case]
    query, options = facade_options(argv)
    views = check_variants(query, **options)
    status, text = run(capsys, argv)
    assert status == (0 if all(v.agree for v in views) else 1)
    assert text == "\n".join(view.text(False) for view in views)
    status, document = run(capsys, [*argv, "--format", "json"])
    documents = [view.to_json() for view in views]
    assert document == json.dumps(documents[0] if len(views) == 1 else documents, indent=1,
                                  ensure_ascii=False) + "\n"
    for found in documents:
        jsonschema.validate(found, SCHEMA)


@pytest.mark.parametrize("case", CASES)
def test_json_lines_hold_the_intervals_and_answers_of_the_document(capsys, case):
    argv, _ = CASES[case]
    _, document = run(capsys, [*argv, "--format", "json"])
    status, lines = run(capsys, [*argv, "--format", "jsonl"])
    documents = json.loads(document)
    documents = documents if isinstance(documents, list) else [documents]
    found = [json.loads(line) for line in lines.splitlines()]
    for line in found:
        LINES.validate(line)
    heads = [i for i, line in enumerate(found) if line["kind"] == "head"]
    assert len(heads) == len(documents)
    for start, end, expected in zip(heads, heads[1:] + [len(found)], documents):
        head, *body, summary = found[start:end]
        assert (head["variables"], head["period"], head["timeline"]) == (
            expected["variables"], expected["period"], expected["timeline"])
        assert [{k: v for k, v in line.items() if k != "kind"} for line in body
                if line["kind"] == "interval"] == expected["intervals"]
        for side in ("csparql", "cqels"):
            assert [{"time": line["time"], "binding": line["binding"]} for line in body
                    if line["kind"] == "answer" and line["side"] == side] == expected["answers"][side]
        assert (summary["agree"], summary["summary"], summary["disagreeing"], summary["notes"]) == (
            expected["agree"], expected["summary"], expected["disagreeing"], expected["notes"])
        seen = set()  # each interval's line comes after every answer it compares
        for line in body:
            if line["kind"] == "answer":
                assert line["time"] not in seen
            else:
                seen.update(range(line["start"] + 1, line["end"] + 1))
    assert status == (0 if all(d["agree"] for d in documents) else 1)


def test_recorded_answers_write_json_lines_too(capsys):
    answers = CSRBENCH / "engine-answers"
    argv = ["--recorded-csparql", str(answers / "csparql-answer-1.json"),
            "--recorded-cqels", str(answers / "cqels-answer-1.json"), "--period", "10s"]
    _, document = run(capsys, [*argv, "--format", "json"])
    _, lines = run(capsys, [*argv, "--format", "jsonl"])
    expected = json.loads(document)
    found = [json.loads(line) for line in lines.splitlines()]
    assert [{k: v for k, v in line.items() if k != "kind"} for line in found
            if line["kind"] == "interval"] == expected["intervals"]
    assert found[-1]["disagreeing"] == expected["disagreeing"]


def test_a_collected_report_goes_through_the_writer_as_a_streamed_one():
    [view] = check_variants(COUPONS / "cqels.rq", stream=COUPONS / "stream.nt",
                            static=[str(COUPONS / "static.ttl")], unit="1m", end=50, period="30m")
    out = io.StringIO()
    assert write_collected(view.report, JsonLinesWriter(out, report_head(view.report))) is False
    kinds = [json.loads(line)["kind"] for line in out.getvalue().splitlines()]
    assert kinds[0] == "head" and kinds[-1] == "summary" and kinds.count("interval") == 1


def test_jsonl_is_refused_where_nothing_runs_interval_by_interval(capsys):
    assert main(["agree", "--analyze", str(COUPONS / "cqels.rq"), "--unit", "1m", "--period", "30m",
                 "--format", "jsonl"]) == 2
    assert "--format jsonl" in capsys.readouterr().err


def test_a_spool_keeps_text_out_of_memory_until_copied():
    spool, out = Spool(), io.StringIO()
    assert spool.empty
    spool.write("a\r\n")
    spool.write("b\rc\n")
    assert not spool.empty
    spool.copy_to(out)
    assert out.getvalue() == "a\r\nb\rc\n" and spool.file.closed  # no newline translated


rows = st.tuples(st.sampled_from([URIRef("http://ex.org/a"), URIRef("http://ex.org/b"), Literal(1),
                                  Literal("x\ny", lang="en"), None]), st.sampled_from(
                                      [URIRef("http://ex.org/c"), Literal(2.5)]))
explanations = st.builds(Explanation, st.sampled_from(["other-interval", "snapshot-differs"]),
                         st.text(max_size=8), st.lists(st.text(max_size=5), max_size=4).map(tuple))


@st.composite
def reports(draw) -> AgreementReport:
    """A report of a few intervals with answers on both sides, some explained."""
    period, count = draw(st.integers(1, 4)), draw(st.integers(0, 4))
    sides = [{t: frozenset(draw(st.lists(rows, max_size=3)))
              for t in draw(st.lists(st.integers(1, period * count + 1), max_size=6, unique=True))}
             for _ in range(2)]
    csparql, cqels = (AnswerSeries(("x", "y"), side) for side in sides)
    verdicts = compare(csparql, cqels, period, (0, period * count))
    found = {(v.start, v.end): [replace(e, row=draw(st.sampled_from([None, *v.only_cqels, *v.only_csparql])))
                                for e in draw(st.lists(explanations, max_size=3))]
             for v in verdicts if not v.agree and draw(st.booleans())}
    return AgreementReport("computed", period, "1s", (0, period * count), ("x", "y"), verdicts,
                           found, draw(st.lists(st.text(max_size=6), max_size=2)),
                           csparql=csparql, cqels=cqels)


@settings(max_examples=150, deadline=None)
@given(reports(), st.integers(0, 2), st.booleans())
def test_writers_write_what_the_collected_report_renders(report, depth, verbose):
    """Any report through :class:`JsonWriter` (at any depth) and :class:`TextWriter` gives the
    text of ``json.dumps(to_json(report), indent=1)`` and of :func:`render_text`."""
    out = io.StringIO()
    agree = write_collected(report, JsonWriter(out, report_head(report), depth))
    assert agree == report.agree
    assert out.getvalue() == json.dumps(to_json(report), indent=1, ensure_ascii=False).replace(
        "\n", "\n" + " " * depth)
    out = io.StringIO()
    write_collected(report, TextWriter(out, report_head(report), (("ex", "http://ex.org/"),), verbose))
    assert out.getvalue() == render_text(report, (("ex", "http://ex.org/"),), verbose)
