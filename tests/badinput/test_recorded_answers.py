"""Hostile recorded answers (issue 28): ``lars check --answers`` and ``lars agree --recorded-*``.

Each case of the table once gave an internal error or a silently wrong answer; now it is
refused in one line that names the file and the JSON path of the bad value (or, for a file
that is not one, why), with exit 2. The fuzzer feeds generated documents to the reader
directly and checks the outcome against the JSON Schema in ``docs/schemas/``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from ingest.recordedjson import read_recorded_document
from lars.errors import LarsError
from tests.badinput.clirun import ROOT, assert_refused, lars, lars_within

EX = "http://ex.org/"
RECORDED = ROOT / "examples" / "csrbench" / "engine-answers"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "recorded-answers.schema.json").read_text())
URI = {"type": "uri", "value": f"{EX}a"}


def document(timestamp: object = 1000, variables: object = ("x",), bindings: object = None,
             binding: object = None) -> str:
    """One relation's recorded answers, with the given parts (``binding``: one result's terms)."""
    if bindings is None:
        bindings = [{"timestamp": 1000, "binding": {"x": URI} if binding is None else binding}]
    head = list(variables) if isinstance(variables, tuple) else variables
    text = json.dumps({"relations": [{"head": {"vars": head}, "timestamp": 0, "results": {"bindings": bindings}}]})
    return text.replace('"timestamp": 0', f'"timestamp": {timestamp}')


def literal(**keys) -> dict:
    return {"x": {"type": "literal", "value": "a", **keys}}


CASES = [
    pytest.param(document("Infinity"), "relations[0].timestamp: must be a whole number of milliseconds from 0 "
                 "to 9223372036854775807, not Infinity", id="timestamp-infinity"),
    pytest.param(document("-Infinity"), "relations[0].timestamp: must be a whole number", id="timestamp-minus-infinity"),
    pytest.param(document("NaN"), "not NaN", id="timestamp-nan"),
    pytest.param(document("9" * 5000), "not an integer of 5000 digits", id="timestamp-5000-digits"),
    pytest.param(document(str(2**63)), "relations[0].timestamp: must be a whole number", id="timestamp-past-2^63"),
    pytest.param(document("1.5"), "not 1.5", id="timestamp-fraction"),
    pytest.param(document("1e30"), "not 1e+30", id="timestamp-1e30"),
    pytest.param(document('"1000"'), "not '1000'", id="timestamp-string"),
    pytest.param(document("-5000"), "relations[0].timestamp: must be a whole number of milliseconds from 0 "
                 "to 9223372036854775807, not -5000", id="timestamp-negative"),
    pytest.param(document(variables={"x": 1}), "relations[0].head.vars: must be a list, not {'x': 1}",
                 id="head-vars-object"),
    pytest.param(document(variables="xy"), "relations[0].head.vars: must be a list, not 'xy'", id="head-vars-string"),
    pytest.param(document(variables=("x", "x")), "relations[0].head.vars: a variable is named twice",
                 id="head-vars-twice"),
    pytest.param(document(variables=("?x",)), "relations[0].head.vars[0]: '?x' is not a variable name",
                 id="head-vars-not-a-name"),
    pytest.param(document(bindings=None).replace('[{"timestamp": 1000, "binding": {"x": {"type": "uri", '
                                                 f'"value": "{EX}a"}}}}}}]', "null"),
                 "relations[0].results.bindings: must be a list, not None", id="bindings-null"),
    pytest.param(document(binding={"x": URI, "y": URI}),
                 "relations[0].results.bindings[0].binding: binds 'y', which head.vars does not declare",
                 id="binding-undeclared-variable"),
    pytest.param(document(binding=literal(**{"xml:lang": "en", "datatype": f"{EX}d"})),
                 "relations[0].results.bindings[0].binding.x: a literal has either xml:lang or datatype, not both",
                 id="literal-lang-and-datatype"),
    pytest.param(document(binding=literal(**{"xml:lang": "en us"})),
                 "binding.x.xml:lang: 'en us' is not a language tag", id="literal-bad-language"),
    pytest.param(document(binding=literal(**{"xml:lang": 12})),
                 "binding.x.xml:lang: xml:lang must be a string, not 12", id="literal-numeric-language"),
    pytest.param(document(binding=literal(datatype=3)),
                 "binding.x.datatype: datatype must be a string, not 3", id="literal-numeric-datatype"),
    pytest.param(document(binding=literal(datatype="not an iri")),
                 "binding.x.datatype: 'not an iri' is not an IRI", id="literal-datatype-not-iri"),
    pytest.param(document(binding=literal()).replace('"value": "a"', '"value": "\\ud800"'),
                 "binding.x.value: a value holds a lone surrogate \\ud800 at character 1", id="literal-lone-surrogate"),
    pytest.param(document(binding={"x": {"type": "uri"}}), "binding.x.value: a value must be a string, not None",
                 id="term-no-value"),
    pytest.param(document(binding={"x": {"type": "bnode", "value": ""}}), "a blank node needs a label",
                 id="bnode-empty"),
    pytest.param(document(bindings=[{"timestamp": -1, "binding": {}}]),
                 "relations[0].results.bindings[0].timestamp: must be a whole number", id="binding-timestamp-negative"),
    pytest.param(document().encode("utf-16"), "1:1: error: the file is UTF-16 text, not UTF-8 (save it as UTF-8)",
                 id="utf-16"),
    pytest.param(document().encode("utf-16-le"), "a.json:1:2: error: the file holds a NUL character", id="utf-16-no-mark"),
    pytest.param(document(binding=literal()).replace('"a"', '"caf\u00e9"').encode("latin-1"),
                 "error: the file is not UTF-8 text (byte 0xe9)", id="latin-1"),
    pytest.param("[" * 100_000, "the JSON is nested too deeply", id="nested-too-deeply"),
]


def command(tool: str, path: Path) -> list[str]:
    if tool == "agree":
        return ["agree", "--recorded-csparql", str(path), "--recorded-cqels", str(path), "--period", "1s"]
    query = ROOT / "examples" / "csrbench" / "queries" / "q1-csparql.rq"
    stream = ROOT / "examples" / "csrbench" / "stream"
    return ["check", str(query), "--stream", str(stream), "--answers", str(path), "--profile", "csparql"]


@pytest.mark.parametrize("tool", ["agree", "check"])
@pytest.mark.parametrize("content, expected", CASES)
def test_bad_recorded_answers_are_refused_in_one_line(tmp_path, tool, content, expected):
    path = tmp_path / "a.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    status, out, err = lars(*command(tool, path))
    line = assert_refused(status, err, f"{path}:")
    assert expected in line and len(err.strip().splitlines()) == 1, err
    assert out == ""
    if isinstance(content, bytes):  # the content is never shown: not even part of it
        assert "x\x00" not in err and "\\x00" not in err and "http" not in err


@pytest.mark.parametrize("make, expected", [
    pytest.param(lambda folder: "/dev/zero", "must be a regular file, not a character device", id="dev-zero"),
    pytest.param(lambda folder: folder, "must be a regular file, not a folder", id="folder"),
    pytest.param(lambda folder: os.mkfifo(folder / "fifo") or folder / "fifo",
                 "must be a regular file, not a pipe", id="fifo"),
])
def test_only_regular_files_are_read(tmp_path, make, expected):
    path = make(tmp_path)
    status, _, err = lars_within(60, *command("agree", path))
    assert expected in assert_refused(status, err, f"{path}:")


def test_a_file_over_the_size_limit_is_refused_naming_the_variable(tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    path.write_text(document())
    monkeypatch.setenv("LARS_MAX_DOCUMENT_BYTES", "100")
    line = assert_refused(*lars(*command("agree", path))[::2], f"{path}:")
    assert "larger than the limit of 100 bytes (raise it with LARS_MAX_DOCUMENT_BYTES=N)" in line
    monkeypatch.setenv("LARS_MAX_DOCUMENT_BYTES", str(len(document())))
    assert lars(*command("agree", path))[0] == 0


@pytest.mark.parametrize("path", sorted(RECORDED.glob("*.json")), ids=lambda p: p.stem)
def test_the_bundled_recordings_meet_the_schema_and_the_reader(path):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    VALIDATOR.validate(json.loads(path.read_text()))
    assert read_recorded_document(path).relations


def test_a_profile_that_moves_an_answer_before_time_0_is_refused(tmp_path):
    """A ``label-ms`` larger than a timestamp would put the relation at a negative time point,
    compared with no pull at all (issue 28: the verdict was AGREE with nothing compared)."""
    answers, profile = tmp_path / "a.json", tmp_path / "late.toml"
    answers.write_text(document(timestamp=1000))
    profile.write_text('based-on = "csparql"\nlabel-ms = 2000\n')
    status, _, err = lars("agree", "--recorded-csparql", answers, "--recorded-cqels", answers,
                          "--period", "1s", "--profiles", f"{profile},cqels")
    assert "relations[0].timestamp: 1000 ms less the profile's label-ms 2000 lies before the timeline's " \
           "start 0" in assert_refused(status, err, f"{answers}:")


# the fuzzer: generated documents near the format, read directly

def mostly(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """``good`` seven times in eight, else ``bad``: documents near the format, not only far off."""
    return st.integers(0, 7).flatmap(lambda draw: bad if draw == 7 else good)


NAMES = mostly(st.just("x"), st.sampled_from(["?x", "", "x y", "\u00e9", "z"]))
STRINGS = mostly(st.sampled_from([f"{EX}a", "a", "en", "en-US", "http://www.w3.org/2001/XMLSchema#integer"]),
                 st.sampled_from(["http://ex.org/a b", "<x>", "", "1", "\ud800"]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**64, 2**64), st.floats(allow_nan=False), STRINGS)
TIMESTAMPS = mostly(st.integers(0, 10**6), SCALARS)
TERMS = mostly(
    st.fixed_dictionaries({"type": mostly(st.sampled_from(["uri", "bnode", "literal", "typed-literal"]),
                                          st.sampled_from(["x", 1])),
                           "value": mostly(STRINGS, SCALARS)},
                          optional={"xml:lang": mostly(STRINGS, SCALARS), "datatype": mostly(STRINGS, SCALARS)}),
    SCALARS,
)
RESULTS = mostly(st.fixed_dictionaries({"binding": mostly(st.dictionaries(NAMES, TERMS, max_size=2), SCALARS)},
                                       optional={"timestamp": TIMESTAMPS}),
                 st.one_of(SCALARS, st.fixed_dictionaries({}, optional={"timestamp": TIMESTAMPS})))
HEADS = mostly(st.fixed_dictionaries({"vars": mostly(st.lists(NAMES, max_size=2, unique=True), SCALARS)}),
               st.one_of(SCALARS, st.fixed_dictionaries({})))
RELATIONS = mostly(
    st.fixed_dictionaries({"head": HEADS, "timestamp": TIMESTAMPS,
                           "results": mostly(st.fixed_dictionaries({"bindings": mostly(
                               st.lists(RESULTS, max_size=3), SCALARS)}), SCALARS)}),
    st.one_of(SCALARS, st.fixed_dictionaries({}, optional={"head": HEADS, "timestamp": TIMESTAMPS})))
DOCUMENTS = mostly(st.fixed_dictionaries({"relations": mostly(st.lists(RELATIONS, max_size=3), SCALARS)}),
                   st.one_of(SCALARS, st.fixed_dictionaries({})))


VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_valid(value: object) -> bool:
    return VALIDATOR.is_valid(value)


def consistent(value: dict) -> bool:
    """What the schema cannot say: one set of variables, bindings of declared ones, no surrogates."""
    text = json.dumps(value)
    if "\\ud800" in text:
        return False
    relations = value["relations"]
    heads = [frozenset(r["head"]["vars"]) for r in relations]
    return (len(set(heads)) <= 1 and all(set(b["binding"]) <= head for r, head in zip(relations, heads)
                                         for b in r["results"]["bindings"]))


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory):
    """One folder for every example (a file rewritten each time, not a folder per example)."""
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=int(os.environ.get("LARS_FUZZ_EXAMPLES", 100)), deadline=None, derandomize=True)
@given(DOCUMENTS)
@example({"relations": [{"head": {"vars": ["x"]}, "timestamp": 1, "results": {"bindings": [
    {"binding": {"x": {"type": "literal", "value": "a", "xml:lang": "en", "datatype": f"{EX}d"}}}]}}]})
@example({"relations": [{"head": {"vars": "x"}, "timestamp": 1, "results": {"bindings": []}}]})
def test_fuzzed_recorded_documents_are_read_exactly_when_the_schema_and_the_rest_allow(fuzz_folder, value):
    """Either a clean error naming the file, or a document read; read exactly when the schema
    accepts it and it meets what the schema cannot say (a differential test of the reader against
    the documented schema, an independent statement of the format)."""
    path = fuzz_folder / "a.json"
    path.write_text(json.dumps(value), encoding="utf-8", errors="surrogatepass")
    try:
        read = read_recorded_document(path)
    except LarsError as error:
        assert str(error).startswith(f"{path}: error: ") and "\n" not in str(error)
        assert not (schema_valid(value) and consistent(value)), str(error)
        event("refused: " + str(error).split(": error: ")[1][:40])
        return
    event("read")
    assert schema_valid(value) and consistent(value)
    assert len(read.relations) == len(value["relations"])
