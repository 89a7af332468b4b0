"""Output targets, signals and exit status (issue 28): nothing is lost, and a status is a verdict.

``--output`` over an input (same inode: the stream, the query, static data, witness's query)
replaced the input with the answers; a device was replaced by a regular file; disk full was an
internal error; SIGTERM left the hidden ``.part`` file; ``lars agree … | head -1`` exited 0
(AGREE) where the verdict was DISAGREE. Each case now: one line naming the file, the input
untouched, the previous output intact, no ``.part`` left; exit 141 for a verdict command whose
pipe closed early.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import time

import pytest

from tests.badinput.clirun import COMMAND, ROOT, assert_refused, child, lars

EX = "http://ex.org/"
QUERY = f"SELECT ?x WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} }}\n"


def stream(times) -> str:
    return "".join(f"<{EX}a{t}> <{EX}p> <{EX}b> <{EX}s> {t}\n" for t in times)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text(stream(range(5)))
    (tmp_path / "d.ttl").write_text(f"<{EX}a> <{EX}q> <{EX}b> .\n")
    return tmp_path


RUN = ["run", "{dir}/q.rq", "--stream", "{dir}/s.nt", "--static", "{dir}/d.ttl"]


@pytest.mark.parametrize("argv, target, expected", [
    pytest.param(RUN, "{dir}/s.nt", "s.nt: error: the output is the input {dir}/s.nt: writing would replace it",
                 id="output-is-the-stream"),
    pytest.param(RUN, "{dir}/q.rq", "q.rq: error: the output is the input {dir}/q.rq", id="output-is-the-query"),
    pytest.param(RUN, "{dir}/link.nt", "link.nt: error: the output is the input {dir}/s.nt", id="output-is-a-hard-link"),
    pytest.param([*RUN[:-1], f"{EX}g={{dir}}/d.ttl"], "{dir}/d.ttl", "the output is the input {dir}/d.ttl",
                 id="output-is-named-static"),
    pytest.param(["witness", "{dir}/q.rq", "--period", "2s"], "{dir}/q.rq", "q.rq: error: the output is the input",
                 id="witness-output-is-its-query"),
    pytest.param(RUN, "", "error: --output names no file (an empty name); use - for standard output",
                 id="output-empty-name"),
    pytest.param(RUN, "{dir}", "error: the output must be a regular file, not a folder", id="output-folder"),
    pytest.param(RUN, "/dev/full", "/dev/full: error: the output must be a regular file, not a character device "
                 "(to write to a pipe or a device, use --output - and redirect standard output)", id="output-device"),
    pytest.param(RUN, "{dir}/fifo", "fifo: error: the output must be a regular file, not a pipe", id="output-fifo"),
])
def test_an_output_target_that_cannot_be_replaced_safely_is_refused(files, argv, target, expected):
    os.link(files / "s.nt", files / "link.nt")
    os.mkfifo(files / "fifo")
    before = {p.name: p.read_bytes() for p in files.iterdir() if p.is_file()}
    status, out, err = lars(*(a.replace("{dir}", str(files)) for a in argv), "--output",
                            target.replace("{dir}", str(files)))
    assert expected.replace("{dir}", str(files)) in assert_refused(status, err), err
    assert {p.name: p.read_bytes() for p in files.iterdir() if p.is_file()} == before
    assert not [p for p in files.iterdir() if p.name.endswith(".part")]


class FullDisk:
    """A file whose every write fails as on a full disk."""

    def __init__(self, file):
        self.file = file

    def write(self, _data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.file.close()


@pytest.mark.parametrize("format", ["jsonl", "csv"])
def test_a_full_disk_under_output_is_one_line_naming_the_file(files, monkeypatch, format):
    output = files / "out.txt"
    output.write_text("old\n")
    real = os.fdopen
    monkeypatch.setattr("solver.sinks.os.fdopen", lambda *a, **k: FullDisk(real(*a, **k)))
    status, _, err = lars(*(a.replace("{dir}", str(files)) for a in RUN), "--output", output,
                          "--output-format", format)
    line = assert_refused(status, err, output)
    assert line == f"{output}: error: cannot write the file: No space left on device", err
    assert err.strip().splitlines()[1:] == [f"note: {output}: left as it was"]
    assert output.read_text() == "old\n" and not list(files.glob(".*.part"))


def test_a_full_disk_on_stdout_is_one_line(files):
    with open("/dev/full", "w") as full:
        process = subprocess.run([*COMMAND, *(a.replace("{dir}", str(files)) for a in RUN)], stdout=full,
                                 stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                 timeout=60)
    assert process.returncode == 2
    assert process.stderr.strip() == "<stdout>: error: cannot write the standard output: No space left on device"


def long_run(tmp_path):
    program = tmp_path / "p.lars"
    program.write_text("x(T) :- [0] @T true, T >= 0.\n")
    return ["run", program, "--to", "9000000", "--quiet"]


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_clean_up_like_ctrl_c(tmp_path, number):
    output = tmp_path / "answers.jsonl"
    output.write_text("old answers\n")
    process = child(*long_run(tmp_path), "--output", output)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".answers.jsonl.*.part")) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(number)
    _, err = process.communicate(timeout=60)
    name = signal.Signals(number).name
    assert process.returncode == 128 + number, err
    assert err.strip().splitlines() == [f"stopped by {name} ({output}: left as it was)"]
    assert output.read_text() == "old answers\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers.jsonl", "p.lars"]


def test_a_closed_pipe_is_not_agree(tmp_path):
    """``lars agree … | head -1`` on a stream where they disagree: 141, never 0 (issue 28)."""
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text(stream(range(3000)))
    argv = ["agree", tmp_path / "q.rq", "--stream", tmp_path / "s.nt", "--period", "5s"]
    assert lars(*argv)[0] == 1
    process = child(*argv)
    assert process.stdout.readline().startswith("DISAGREE")
    process.stdout.close()
    process.wait(timeout=60)
    err = process.stderr.read()
    assert process.returncode == 141 and err == "", err


def test_a_stop_signal_raised_inside_a_clingo_callback_stays_itself():
    """clingo re-raises a callback's exception as ``type(error)(error)``: SIGTERM during a witness
    search's solving was an internal error ("Stopped('SIGTERM') is not a valid Signals")."""
    import signal

    from agreement.cli.app import Stopped
    again = Stopped(Stopped(signal.SIGTERM))
    assert again.number == signal.SIGTERM and str(again) == "SIGTERM"
