"""Hostile engine profiles (issue 28): TOML files given to ``--profile`` and ``--profiles``.

Each case of the table once gave an internal error, or was accepted and moved every recorded
answer off the timeline (the verdict AGREE with nothing compared); now each is refused in one
line naming the file (and the key's line), exit 2. The fuzzer mangles a valid profile and
reads it directly: a clean error naming the file, or a profile whose numbers are in range.
"""

from __future__ import annotations

import os
import tomllib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lars.errors import LarsError
from tests.badinput.clirun import ROOT, assert_refused, lars
from translate.profilefile import RANGES, load_profile

ANSWERS = ROOT / "examples" / "csrbench" / "engine-answers"
AGREE = ["agree", "--recorded-csparql", ANSWERS / "csparql-answer-1.json", "--recorded-cqels",
         ANSWERS / "cqels-answer-1.json", "--period", "10s", "--profiles"]
BASE = 'based-on = "csparql"\n'

CASES = [
    pytest.param(BASE + "jitter-ms = -100000\n", "p.toml:2:1: error: jitter-ms must be from 0 to 86400000, not -100000",
                 id="jitter-negative"),
    pytest.param(BASE + "label-ms = 9223372036854775807\n",
                 "p.toml:2:1: error: label-ms must be from -86400000 to 86400000, not 9223372036854775807",
                 id="label-2^63-1"),
    pytest.param(BASE + "label-ms = -100000000\n", "label-ms must be from -86400000", id="label-minus-10^8"),
    pytest.param(BASE + "t0 = 4294967296\n", "p.toml:2:1: error: t0 must be from 0 to 2147483647", id="t0-past-32-bits"),
    pytest.param(BASE + "t0 = -1\n", "t0 must be from 0", id="t0-negative"),
    pytest.param('based-on = "cqels"\nbounds = "open"\n',
                 'p.toml:2:1: error: bounds = "open" needs a window-close report policy', id="bounds-open-content-change"),
    pytest.param(BASE + 'bounds = "half"\n', "p.toml: error: profile p: bounds must be one of", id="bounds-unknown"),
    pytest.param(BASE + "t0 = " + "9" * 5000 + "\n", "p.toml: error: not TOML: a number or a nesting too large",
                 id="t0-5000-digits"),
    pytest.param(BASE + "jitter-ms = 1.5\n", "p.toml:2:1: error: jitter-ms must be int, not float", id="jitter-float"),
    pytest.param(BASE + "jitter-ms = inf\n", "jitter-ms must be int, not float", id="jitter-inf"),
    pytest.param(BASE + "jitter-ms = true\n", "jitter-ms must be int, not bool", id="jitter-bool"),
    pytest.param((BASE + 'description = "caf\u00e9"\n').encode("latin-1"),
                 "p.toml:2:19: error: the file is not UTF-8 text (byte 0xe9)", id="latin-1"),
    pytest.param(BASE.encode("utf-16"), "p.toml:1:1: error: the file is UTF-16 text, not UTF-8", id="utf-16"),
    pytest.param(BASE.encode("utf-16-le"), "p.toml:1:2: error: the file holds a NUL character", id="utf-16-no-mark"),
    pytest.param(BASE + "x = " + "[" * 100_000 + "\n", "p.toml", id="nested-arrays"),
    pytest.param(BASE + 'description = "\\uD800"\n', "p.toml:2:", id="lone-surrogate-escape"),
]


@pytest.mark.parametrize("content, expected", CASES)
def test_bad_profiles_are_refused_in_one_line(tmp_path, content, expected):
    path = tmp_path / "p.toml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    status, out, err = lars(*AGREE, f"{path},cqels")
    line = assert_refused(status, err, str(path))
    assert expected in line and len(err.strip().splitlines()) == 1, err
    assert out == ""


def test_a_profile_that_is_not_a_regular_file_is_refused(tmp_path):
    fifo = tmp_path / "p.toml"
    os.mkfifo(fifo)
    status, _, err = lars(*AGREE, f"{fifo},cqels")
    assert "the profile must be a regular file, not a pipe" in assert_refused(status, err, f"{fifo}:")


# the fuzzer

VALID = ('based-on = "csparql"\nname = "mine"\nbounds = "left-open"\nt0 = 0\nlabel-ms = 1000\n'
         'jitter-ms = 100\nreport = ["window-close", "non-empty"]\nanswers = "bag"\n')
PIECES = st.sampled_from(["-", "9" * 20, "-1", "1.5", "inf", "nan", "true", '"open"', '"any"', "[", "]",
                          '"', "=", "\n", "\xe9", "\\uD800", "0x10", "1_000", "# x", "label-ms", "t0",
                          "jitter-ms", "bounds", "report", "[[x]]", "\x00"])


@st.composite
def mangled(draw) -> str:
    text = VALID
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 6))
        text = text[:at] + draw(PIECES) + text[at + cut:]
    return text


@settings(max_examples=int(os.environ.get("LARS_FUZZ_EXAMPLES", 150)), deadline=None, derandomize=True)
@given(mangled())
@example(VALID.replace("jitter-ms = 100", "jitter-ms = -100000"))
@example(VALID.replace("bounds = \"left-open\"", "bounds = \"open\"").replace('"window-close", ', ""))
def test_fuzzed_profiles_give_a_clean_error_or_a_profile_in_range(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "p.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        found = load_profile(path)
    except LarsError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error), str(error)
        return
    tomllib.loads(text)  # an independent reading: it was TOML
    for name, (low, high) in RANGES.items():
        value = getattr(found, name)
        assert value is None or low <= value <= high
    assert found.bounds != "open" or "window-close" in found.report
