"""``lars agree`` names a window as the CQELS query writes it, with its unit.

The explanations and ``--analyze`` printed the windows of the CQELS side in ticks without a
unit (``[RANGE 5]`` for the paper's ``[RANGE 5m]`` under ``--unit 1m``, ``[RANGE 10 STEP 5]``
for ``[RANGE 10s SLIDE 5s]``, ``TriplesWindow`` for ``[TRIPLES 2]``), so a newcomer could not
tell a 5-minute window from a 5-second one (newcomer finding). The window names now go through
the CQELS printer's :func:`translate.cqelstext.window_text`, which the derived-query note uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from tests.badinput.clirun import lars
from translate.api import parse_query
from translate.cqelstext import window_text
from translate.durations import parse_unit
from translate.rsp import RangeWindow

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons" / "rdf"
BARE_TICKS = re.compile(r"\[RANGE \d+[\] ]|\b(Range|Triples|Now|All)Window\b")
"""A window written in ticks without a unit, or by its Python class."""


def test_explanations_name_the_papers_windows_in_minutes():
    """Paper example Q2 (coupons, unit 1 minute): ``[RANGE 30m]`` on s1 and ``[RANGE 5m]`` on s2."""
    status, out, err = lars("agree", COUPONS / "cqels.rq", "--stream", COUPONS / "stream.nt",
                            "--static", COUPONS / "static.ttl", "--unit", "1m", "--period", "30m",
                            "--no-prefixes")
    assert status == 1, err
    assert "window [RANGE 30m] of <http://ex.org/s1> at [0,18], [RANGE 5m] of <http://ex.org/s2> " \
           "at [13,18]" in out
    assert not BARE_TICKS.search(out), out


def test_explanations_name_a_hopping_window_as_the_derived_query_writes_it():
    """The walkthrough's C-SPARQL ``[RANGE 10s STEP 5s]`` becomes CQELS ``[RANGE 10s SLIDE 5s]``
    in the derived query (the note on stderr) and in the explanations of the pushes; the pull's
    window is named as C-SPARQL writes it (a newcomer read ``SLIDE`` for a C-SPARQL window)."""
    walk = ROOT / "examples" / "walkthrough"
    status, out, err = lars("agree", walk / "hot-rooms.rq", "--stream", walk / "readings.nt",
                            "--static", walk / "building.ttl", "--format", "json")
    assert status == 1, err
    assert "[RANGE 10s SLIDE 5s]" in err
    messages = [e["message"] for interval in json.loads(out)["intervals"]
                for side in ("only_cqels", "only_csparql") for answer in interval[side]
                for e in answer["explanations"]]
    windowed = [m for m in messages if "of <http://example.org/sensors>" in m]
    assert windowed and all("[RANGE 10s SLIDE 5s] of <http://example.org/sensors>" in m
                            or "[RANGE 10s STEP 5s] of <http://example.org/sensors>" in m
                            for m in windowed)
    pulls = [m for m in windowed if re.search(r"pull at \d+ \(\[RANGE 10s STEP 5s\]", m)]
    assert pulls and not any(re.search(r"pull at \d+ \(\[RANGE 10s SLIDE", m) for m in windowed)
    assert any("[RANGE 10s SLIDE 5s] of" in m for m in windowed)
    assert not any(BARE_TICKS.search(m) for m in messages), messages


def test_analyze_names_every_window_and_duration_with_its_unit(tmp_path):
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?s ?o WHERE { STREAM :s [TRIPLES 2] "
                     "{ ?s :p ?o } STREAM :r [RANGE 90s SLIDE 30s] { ?o :q ?x } "
                     "STREAM :t [RANGE 20s] { ?o :r ?y } }\n")
    status, out, err = lars("agree", query, "--analyze", "--period", "1m")
    assert status == 0, err
    assert "(iii) window [TRIPLES 2] of <http://ex.org/s>" in out
    assert "(iii) window [RANGE 90s SLIDE 30s] of <http://ex.org/r>: a hopping window (step 30s)" in out
    assert "(iii) window [RANGE 20s] of <http://ex.org/t>: shorter than the period (20s < 1m)" in out
    assert not BARE_TICKS.search(out), out


@settings(max_examples=60, derandomize=True, deadline=None)
@given(length=st.integers(1, 500), step=st.integers(1, 500),
       unit=st.sampled_from(["1ms", "250ms", "1s", "1m", "1h"]))
def test_a_window_name_reads_back_as_the_same_window(length, step, unit):
    """The name printed is CQELS syntax that reads back to the window, under the same unit."""
    window = RangeWindow(length, min(step, length))
    text = window_text(window, parse_unit(unit))
    query = parse_query(f"SELECT ?s WHERE {{ STREAM <http://e/s> {text} {{ ?s ?p ?o }} }}",
                        engine="cqels", unit=unit)
    assert query.streams[0].window == window
