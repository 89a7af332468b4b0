"""``lars check --answers`` given another output of ``lars run`` (brief mend3, item 3): a newcomer
gave the ``--format json`` document, the ``--output`` JSON lines and a CSV table and was told
"'relations' is missing" or "not JSON"; the refusal now names what the file is, what
``--answers`` reads and how ``lars run`` writes that."""

from __future__ import annotations

from pathlib import Path

import pytest

from agreement.recorded import ACCEPTED
from tests.badinput.clirun import assert_refused, lars

QUERY = """PREFIX v: <http://sensors.example/v#>
SELECT ?o ?c
FROM STREAM <http://sensors.example/stream/temp> [RANGE 4s STEP 2s]
WHERE { ?o v:temp ?c }
"""
STREAM = "".join(f'<http://sensors.example/obs/a{t}> <http://sensors.example/v#temp> "1{t}" '
                 f'<http://sensors.example/stream/temp> {t}\n' for t in range(0, 6))


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "q.rq").write_text(QUERY, encoding="utf-8")
    (tmp_path / "s.nt").write_text(STREAM, encoding="utf-8")
    return tmp_path


def check(files: Path, answers: Path) -> tuple[int, str, str]:
    return lars("check", files / "q.rq", "--stream", files / "s.nt", "--answers", answers,
                "--profile", "csparql")


def recorded(files: Path, name: str, *how: str) -> Path:
    """The answers of ``lars run`` of the query, written as ``how`` says, in ``name``."""
    target = files / name
    status, out, err = lars("run", files / "q.rq", "--stream", files / "s.nt", *how)
    assert status == 0, err
    if "--output" not in how:
        target.write_text(out, encoding="utf-8")
    return target


@pytest.mark.parametrize(("name", "how", "said"), [
    pytest.param("a.json", ("--format", "json"), "lars run --format json output", id="run-json"),
    pytest.param("a.jsonl", ("--output", "{dir}/a.jsonl"), "JSON lines of lars run --output",
                 id="run-output-jsonl"),
    pytest.param("a.csv", ("--format", "csv"), "a CSV or TSV table (lars run --format csv, "
                 "sparql-csv or sparql-tsv)", id="run-csv"),
    pytest.param("a.tsv", ("--format", "sparql-tsv"), "a CSV or TSV table (lars run --format "
                 "csv, sparql-csv or sparql-tsv)", id="run-sparql-tsv"),
])
def test_another_output_of_lars_run_is_named_and_the_way_to_record_said(files, name, how, said):
    answers = recorded(files, name, *(part.format(dir=files) for part in how))
    status, _, err = check(files, answers)
    line = assert_refused(status, err, answers)
    assert f"this is {said}, not recorded answers" in line
    assert ACCEPTED in line


def test_the_recording_the_message_advises_is_read(files):
    """The advice works as written: ``--profile csparql --format sparql-json`` output is
    judged CORRECT under that profile."""
    answers = recorded(files, "a.jsonl", "--profile", "csparql", "--format", "sparql-json")
    status, out, err = check(files, answers)
    assert status == 0 and out.startswith("CORRECT"), out + err


def test_a_file_in_no_format_says_which_are_read(files):
    answers = files / "a.txt"
    answers.write_text("hello\n", encoding="utf-8")
    line = assert_refused(*check(files, answers)[::2], answers)
    assert "not JSON" in line and ACCEPTED in line


def test_an_error_inside_a_recording_gets_no_format_advice(files):
    """A sparql-json recording with one bad line is in the right format: its error stays its own."""
    answers = recorded(files, "a.jsonl", "--format", "sparql-json")
    answers.write_text(answers.read_text(encoding="utf-8") + '{"time": 9, "results": 3}\n',
                       encoding="utf-8")
    line = assert_refused(*check(files, answers)[::2], answers)
    assert ACCEPTED not in line
