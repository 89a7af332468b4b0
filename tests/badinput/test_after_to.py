"""``--to T`` reads the whole input all the same (issue 18: no input goes unread).

The input after ``T`` is read and checked as without ``--to`` (syntax, time order), so a bad
line there is refused with its file and line; the answers end at ``T``; one note says how many
triples or atoms after ``T`` were read but not evaluated. Before, reading stopped at the first
time point after ``T`` with a warning, and whatever came later was never looked at. Every
reader: timestamped N-Triples (lazy: run, agree, partitions; eager: check), Turtle folders, LARS
atom streams.
"""

from __future__ import annotations

import re

import pytest

from tests.badinput.clirun import ROOT, assert_refused, lars

EX = "http://ex.org/"
FOLDER_STREAM = "http://ex.org/streams/test"  # the default stream of Turtle folders
QUERY = f"SELECT ?x WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} }}\n"
FOLDER_QUERY = QUERY.replace(f"<{EX}s>", f"<{FOLDER_STREAM}>")
RECORDED = ROOT / "examples" / "csrbench" / "engine-answers" / "cqels-answer-1.json"
INCOMPLETE = re.compile(r"; output stopped at time \d+: incomplete$")
"""What an error line adds when answers were written before it (agreement/cli/incomplete.py)."""


def triple(time: int, name: str = "b") -> str:
    return f"<{EX}a> <{EX}p> <{EX}{name}> <{EX}s> {time}\n"


GOOD = triple(1) + triple(5) + triple(9) + triple(9, "c")
"""Two time points inside ``--to 6``, then two triples at 9."""

READERS = {
    "ntriples": ({"q.rq": QUERY}, "q.rq", "s.nt"),
    "turtle-folder": ({"q.rq": FOLDER_QUERY}, "q.rq", "folder"),
    "atoms": ({"p.lars": "x :- [2] <> p.\n"}, "p.lars", "s.txt"),
}


def stream_files(reader: str, tail: str) -> dict[str, str]:
    """The stream of ``reader`` with times 1, 5, 9 and ``tail`` after them: ``"good"`` (more
    well-formed input at 9), ``"syntax"`` (input at 10, then a bad line at 12) or ``"back"``
    (input at 10, then a line at 7). The bad line is not the next after the first time point
    past ``--to``: the reader looks one line ahead to close a time point."""
    if reader == "turtle-folder":
        body = f"<{EX}a> <{EX}p> <{EX}b> .\n"
        files = {f"folder/data_{t:02}.ttl": body for t in (1, 5, 9, *([10] if tail == "syntax" else []))}
        if tail == "syntax":
            files["folder/data_12.ttl"] = "<a> <b> .\n"
        return files
    if reader == "atoms":
        lines = {"good": "1: p\n5: p\n9: p\n9: q\n", "syntax": "1: p\n5: p\n9: p\n10: p\n12: p(\n",
                 "back": "1: p\n5: p\n9: p\n10: p\n7: p\n"}
        return {"s.txt": lines[tail]}
    lines = {"good": GOOD, "syntax": GOOD + triple(10) + "not a triple 12\n", "back": GOOD + triple(10) + triple(7)}
    return {"s.nt": lines[tail]}


def write(folder, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def run_argv(tmp_path, reader: str, *extra: str) -> list[str]:
    program, stream = READERS[reader][1:]
    return ["run", str(tmp_path / program), "--stream", str(tmp_path / stream), *extra]


@pytest.mark.parametrize("reader", list(READERS))
def test_a_bad_line_after_to_is_refused_as_without_to(tmp_path, reader):
    write(tmp_path, READERS[reader][0] | stream_files(reader, "syntax"))
    without = lars(*run_argv(tmp_path, reader))
    status, out, err = lars(*run_argv(tmp_path, reader, "--to", "6"))
    where = {"ntriples": "s.nt:6:", "turtle-folder": "data_12.ttl", "atoms": "s.txt:5:"}[reader]
    assert where in assert_refused(status, err)
    # the same refusal; where the output stopped before it differs (the answers end at --to)
    assert INCOMPLETE.sub("", assert_refused(*without[::2])) == INCOMPLETE.sub("", assert_refused(status, err))


@pytest.mark.parametrize("reader", ["ntriples", "atoms"])
def test_a_line_going_back_after_to_is_refused(tmp_path, reader):
    write(tmp_path, READERS[reader][0] | stream_files(reader, "back"))
    status, _, err = lars(*run_argv(tmp_path, reader, "--to", "6"))
    where = {"ntriples": "s.nt:6:", "atoms": "s.txt:5:"}[reader]
    assert "goes back in time" in assert_refused(status, err, f"{tmp_path / where}")


@pytest.mark.parametrize("argv", [
    pytest.param(["run", "{dir}/q.rq", "--strategy", "reference"], id="run-reference"),
    pytest.param(["run", "{dir}/q.rq", "--partitions", "2", "--spark", "never"], id="run-partitions"),
    pytest.param(["agree", "{dir}/q.rq", "--period", "2s"], id="agree"),
    pytest.param(["check", "{dir}/q.rq", "--answers", str(RECORDED), "--profile", "cqels"], id="check"),
])
def test_every_command_reads_past_to(tmp_path, argv):
    write(tmp_path, READERS["ntriples"][0] | stream_files("ntriples", "syntax"))
    status, _, err = lars(*(a.replace("{dir}", str(tmp_path)) for a in argv),
                          "--stream", str(tmp_path / "s.nt"), "--to", "6")
    assert_refused(status, err, f"{tmp_path / 's.nt'}:6:")


@pytest.mark.parametrize("reader", list(READERS))
def test_the_answers_end_at_to_and_a_note_counts_what_was_not_evaluated(tmp_path, reader):
    """The answers are those of the input cut at ``--to`` (the same run on the first two time
    points only); one note counts the input after ``--to``."""
    write(tmp_path, READERS[reader][0] | stream_files(reader, "good"))
    status, out, err = lars(*run_argv(tmp_path, reader, "--to", "6", "--format", "intervals"))
    assert status == 0, err
    noun, count = ("atom", 2) if reader == "atoms" else ("triple", 1 if reader == "turtle-folder" else 2)
    plural = f"{count} {noun}{'s' if count > 1 else ''}"
    assert [line for line in err.splitlines() if "timeline" in line] == [f"note: read {plural} after the timeline [0,6] (from time point 9) "
                                f"but did not evaluate {'them' if count > 1 else 'it'}"]
    cut = tmp_path / "cut"
    files = {name: text for name, text in (READERS[reader][0] | stream_files(reader, "good")).items()
             if "_09" not in name}
    files = {name: "".join(line for line in text.splitlines(keepends=True) if not line.startswith("9:")
                           and not line.rstrip().endswith(" 9"))
             for name, text in files.items()}
    write(cut, files)
    assert lars(*run_argv(cut, reader, "--to", "6", "--format", "intervals"))[1] == out
    assert "stopped reading" not in err

