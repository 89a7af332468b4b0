"""``lars run``: the formats on the bundled example, and every error path (message and status)."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "answers.schema.json").read_text())
RUN_COUPONS = ["run", str(COUPONS / "program.lars"), "--stream", str(COUPONS / "stream.txt"),
               "--background", str(COUPONS / "background.lars")]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_table_shows_the_coupon_from_18_to_23(capsys):
    status, out, err = run(capsys, *RUN_COUPONS)
    assert status == 0 and err == ""
    lines = [line.split() for line in out.splitlines() if not line.startswith("#")][1:]
    assert lines == [[str(t), "1/1", 'ans(b,"rayban",25)'] for t in range(18, 24)]
    assert "# timeline [0,50]" in out and "stratified" in out


def test_intervals_format_is_the_compact_view(capsys):
    status, out, _ = run(capsys, *RUN_COUPONS, "--format", "intervals")
    assert status == 0
    assert 'ans(b,"rayban",25)  [18,23]' in out.splitlines()


def test_json_format_follows_the_schema_and_lists_every_time_point(capsys):
    status, out, _ = run(capsys, *RUN_COUPONS, "--format", "json")
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert [point["time"] for point in document["time_points"]] == list(range(51))
    at18 = document["time_points"][18]["answer_streams"]
    assert at18 == [[{"atom": 'ans(b,"rayban",25)', "predicate": "ans", "time": 18, "args": [
        {"type": "name", "value": "b"}, {"type": "string", "value": "rayban"},
        {"type": "number", "value": 25}]}]]


def test_from_and_to_set_the_timeline(capsys):
    status, out, _ = run(capsys, *RUN_COUPONS, "--from", "5", "--to", "30", "--format", "json")
    assert status == 0
    assert [p["time"] for p in json.loads(out)["time_points"]] == list(range(5, 31))


def test_input_before_from_is_left_out_with_a_warning(capsys):
    status, out, err = run(capsys, *RUN_COUPONS, "--from", "12", "--format", "intervals")
    assert status == 0
    assert 'ans(b,"rayban",25)  [18,23]' in out.splitlines()
    assert err == "warning: left out 1 atom before the timeline [12,50] (from time point 10)\n"


def test_input_after_to_is_read_and_noted(capsys):
    status, out, err = run(capsys, *RUN_COUPONS, "--to", "16", "--format", "json")
    assert status == 0
    assert [p["time"] for p in json.loads(out)["time_points"]] == list(range(17))
    assert err == "note: read 2 atoms after the timeline [0,16] (from time point 18) but did not evaluate them\n"


def test_several_answer_streams_are_numbered(tmp_path, capsys):
    program = tmp_path / "choice.lars"
    program.write_text("x :- not y.\ny :- not x.\n")
    status, out, _ = run(capsys, "run", str(program), "--to", "1")
    assert status == 0
    assert "not stratified" in out
    rows = [line.split() for line in out.splitlines() if not line.startswith("#")][1:]
    assert rows == [["0", "1/2", "x"], ["0", "2/2", "y"], ["1", "1/2", "x"], ["1", "2/2", "y"]]


def test_atoms_at_other_time_points_show_their_time(tmp_path, capsys):
    program = tmp_path / "ahead.lars"
    program.write_text("@U y :- [0] @T p, U = T + 2.\n")
    stream = tmp_path / "s.txt"
    stream.write_text("1: p\n5:\n")
    status, out, _ = run(capsys, "run", str(program), "--stream", str(stream))
    assert status == 0
    assert "     1  1/1     y @3" in out


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("program, stream, expected", [
    pytest.param("x :- [3] <> p(X)\n", "0: p(1)\n", "x.lars:2:1: error: expected", id="missing-dot"),
    pytest.param("x(Y) :- p(X).\n", "0: p(1)\n", "x.lars:1:1: error: unsafe rule: variable(s) Y",
                 id="unsafe-rule"),
    pytest.param("x :- p.\n", "0: p\nzz\n", "s.txt:2:", id="bad-stream-line"),
    pytest.param("x :- p.\n", "5: p\n3: p\n", "s.txt:2:1: error: timestamp 3 goes back in time (line 1 had 5)",
                 id="backwards-timestamps"),
    pytest.param("x :- not x < 3.\n", "0: p\n", "x.lars:1:1: error: unsupported: negated comparison",
                 id="negated-comparison"),
])
def test_bad_input_is_one_line_with_position_and_status_2(tmp_path, capsys, program, stream, expected):
    status, out, err = run(capsys, "run", write(tmp_path, "x.lars", program),
                           "--stream", write(tmp_path, "s.txt", stream))
    assert status == 2 and out == ""
    assert err.replace(str(tmp_path) + "/", "").startswith(expected), err
    assert len(err.strip().splitlines()) == 1


def test_missing_program_file(capsys):
    status, _, err = run(capsys, "run", "no/such/program.lars")
    assert status == 2 and "no/such/program.lars" in err and "error" in err


def test_empty_timeline_is_refused(capsys):
    status, _, err = run(capsys, *RUN_COUPONS, "--from", "9", "--to", "3")
    assert status == 2 and "--from is after --to" in err


def test_skip_mode_reports_bad_lines_and_goes_on(tmp_path, capsys):
    status, out, err = run(capsys, "run", write(tmp_path, "x.lars", "x :- p.\n"), "--stream",
                           write(tmp_path, "s.txt", "0: p\noops\n2: p\n"), "--on-error", "skip")
    assert status == 0
    assert "skipped 1 bad record" in err and "s.txt:2" in err
    assert [line.split()[0] for line in out.splitlines() if not line.startswith("#")][1:] == ["0", "2"]


def test_console_script_runs_the_example():
    lars = Path(sys.executable).with_name("lars")
    result = subprocess.run([str(lars), *RUN_COUPONS, "--format", "intervals"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert 'ans(b,"rayban",25)  [18,23]' in result.stdout


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_output_to_a_file_writes_every_time_point(tmp_path, capsys, fmt):
    target = tmp_path / f"answers.{fmt}"
    status, out, _ = run(capsys, *RUN_COUPONS, "--output", str(target), "--output-format", fmt)
    assert status == 0 and out == ""
    lines = target.read_text().splitlines()
    if fmt == "jsonl":
        points = [json.loads(line) for line in lines]
        assert [p["time"] for p in points] == list(range(51))
        assert points[18]["answer_streams"][0][0]["atom"] == 'ans(b,"rayban",25)'
    else:
        assert lines[0].split(",")[:3] == ["time", "stream", "atom"]
        assert sum('ans(b,""rayban"",25)' in line for line in lines) == 6
