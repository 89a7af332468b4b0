"""Every documented format has a schema, and what claims to follow it does (issue 25).

``docs/formats.md`` lists the formats; each JSON format has a schema in ``docs/schemas/``. This
file validates the schemas themselves, the bundled recordings, every example of the page that a
``<!-- schema: NAME -->`` comment announces, and the tool's own outputs, against them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
           for path in sorted((ROOT / "docs" / "schemas").glob("*.schema.json"))}
REGISTRY = Registry().with_resources(
    (schema["$id"], Resource.from_contents(schema)) for schema in SCHEMAS.values())
FORMATS_PAGE = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
CSRBENCH = ROOT / "examples" / "csrbench"
WALK = ROOT / "examples" / "walkthrough"


def validate(document: object, name: str) -> None:
    jsonschema.Draft202012Validator(SCHEMAS[name], registry=REGISTRY).validate(document)


def errors(document: object, name: str) -> list[str]:
    validator = jsonschema.Draft202012Validator(SCHEMAS[name], registry=REGISTRY)
    return [error.message for error in validator.iter_errors(document)]


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_each_schema_is_a_schema_and_is_listed_on_the_formats_page(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[name])
    assert f"schemas/{name}.schema.json" in FORMATS_PAGE


def page_examples() -> list[tuple[str, str]]:
    return re.findall(r"<!-- schema: ([\w-]+) -->\n```json\n(.*?)```", FORMATS_PAGE, re.S)


def test_the_page_has_examples() -> None:
    assert {name for name, _ in page_examples()} >= {"recorded-answers", "sparql-results-lines",
                                                      "check", "agreement-lines"}


@pytest.mark.parametrize("name, text", page_examples(), ids=[n for n, _ in page_examples()])
def test_each_example_on_the_page_follows_its_schema(name: str, text: str) -> None:
    try:
        documents = [json.loads(text)]
    except json.JSONDecodeError:  # JSON lines
        documents = [json.loads(line) for line in text.splitlines() if line.strip()]
    for document in documents:
        validate(document, name)


def recordings() -> list[Path]:
    found = sorted((CSRBENCH / "engine-answers").glob("*.json"))
    found += sorted((ROOT / "examples").glob("csrbench-2023/answers/*.json"))
    return found


@pytest.mark.parametrize("path", recordings(), ids=lambda p: p.name)
def test_bundled_recordings_follow_the_recorded_answers_schema(path: Path) -> None:
    validate(json.loads(path.read_text(encoding="utf-8")), "recorded-answers")


@pytest.mark.parametrize("document, complaint", [
    ({"relations": [{"head": {"vars": ["x"]}, "timestamp": -5, "results": {"bindings": []}}]},
     "minimum"),
    ({"relations": [{"head": {"vars": "xy"}, "timestamp": 0, "results": {"bindings": []}}]},
     "not of type 'array'"),
    ({"relations": [{"head": {"vars": ["x"]}, "timestamp": 0, "results": {"bindings": [
        {"binding": {"x": {"type": "literal", "value": "a", "xml:lang": "en",
                           "datatype": "http://www.w3.org/2001/XMLSchema#string"}}}]}}]},
     "is not valid under any of the given schemas"),
    ({"relations": [{"head": {"vars": ["x"]}, "timestamp": 1.5, "results": {"bindings": []}}]},
     "not of type 'integer'"),
])
def test_the_recorded_answers_schema_refuses_what_the_reader_refuses(document, complaint) -> None:
    assert any(complaint in message for message in errors(document, "recorded-answers"))


def run_lines(capsys, argv: list[str]) -> tuple[int, str]:
    status = main(argv)
    return status, capsys.readouterr().out


def test_lars_run_outputs_follow_their_schemas(capsys) -> None:
    query = [str(WALK / "hot-rooms.rq"), "--stream", str(WALK / "readings.nt"),
             "--static", str(WALK / "building.ttl")]
    status, out = run_lines(capsys, ["run", *query, "--format", "sparql-json"])
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines
    for line in lines:
        validate(line, "sparql-results-lines")
    status, out = run_lines(capsys, ["run", *query, "--format", "json"])
    validate(json.loads(out), "solutions")
    program = ROOT / "examples" / "coupons"
    status, out = run_lines(capsys, ["run", str(program / "program.lars"), "--stream",
                                     str(program / "stream.txt"), "--background",
                                     str(program / "background.lars"), "--format", "json"])
    assert status == 0
    validate(json.loads(out), "answers")


def test_lars_agree_and_check_outputs_follow_their_schemas(capsys, tmp_path: Path) -> None:
    rdf = ROOT / "examples" / "coupons" / "rdf"
    agree = ["agree", str(rdf / "cqels.rq"), "--stream", str(rdf / "stream.nt"), "--static",
             str(rdf / "static.ttl"), "--unit", "1m", "--period", "30m"]
    status, out = run_lines(capsys, [*agree, "--format", "json"])
    assert status == 1
    validate(json.loads(out), "agreement")
    status, out = run_lines(capsys, [*agree, "--format", "jsonl"])
    for line in out.splitlines():
        validate(json.loads(line), "agreement-lines")
    status, out = run_lines(capsys, [
        "check", str(CSRBENCH / "queries" / "q1-csparql.rq"), "--stream",
        str(CSRBENCH / "stream"), "--answers",
        str(CSRBENCH / "engine-answers" / "csparql-answer-1.json"), "--profile", "csparql",
        "--format", "json"])
    assert status == 0
    validate(json.loads(out), "check")
    wrong = {"relations": [{"head": {"vars": ["shop", "product", "percent"]}, "timestamp": 1800000,
                            "results": {"bindings": [{"binding": {
                                "shop": {"type": "uri", "value": "http://ex.org/a"},
                                "product": {"type": "uri", "value": "http://ex.org/mbt"},
                                "percent": {"type": "literal", "value": "30"}}}]}}]}
    (tmp_path / "wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
    status, out = run_lines(capsys, [
        "check", str(rdf / "cqels.rq"), "--stream", str(rdf / "stream.nt"), "--static",
        str(rdf / "static.ttl"), "--unit", "1m", "--answers", str(tmp_path / "wrong.json"),
        "--profile", "cqels", "--format", "json"])
    assert status == 1
    validate(json.loads(out), "check")
