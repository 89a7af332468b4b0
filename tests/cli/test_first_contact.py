"""What a newcomer's first contact tripped on (issue 25/26 first-contact round), each pinned.

* a C-SPARQL query run under a profile of τ2 answered nothing, silently (every pattern read
  static data): now refused in one line;
* a query reading a stream run without ``--stream`` answered nothing, silently: now warned;
* ``REGISTER ISTREAM`` without a profile was ignored, silently: now noted;
* the translation header of an RSP-QL query said "the None variant".
"""

from __future__ import annotations

from pathlib import Path

from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
WALK = ROOT / "examples" / "walkthrough"
RSPQL = """PREFIX : <http://ex.org/>
REGISTER {r2s} <http://ex.org/out> AS SELECT ?s
FROM NAMED WINDOW :w ON :temps [RANGE PT10S STEP PT5S]
WHERE {{ WINDOW :w {{ ?s :value ?v FILTER (?v > 20) }} }}
"""


def test_a_csparql_query_under_a_tau2_profile_is_refused(capsys):
    for profile in ("cqels", "paper-push"):
        status = main(["run", str(WALK / "hot-rooms.rq"), "--stream", str(WALK / "readings.nt"),
                       "--static", str(WALK / "building.ttl"), "--profile", profile])
        err = capsys.readouterr().err
        assert status == 2
        assert f"profile {profile} reads the query's STREAM patterns" in err
    assert main(["run", str(WALK / "hot-rooms.rq"), "--stream", str(WALK / "readings.nt"),
                 "--static", str(WALK / "building.ttl"), "--profile", "csparql"]) == 0


def test_a_query_run_without_its_stream_is_warned(tmp_path, capsys):
    query = tmp_path / "q.rq"
    query.write_text(RSPQL.format(r2s="RSTREAM"), encoding="utf-8")
    assert main(["run", str(query)]) == 0
    err = capsys.readouterr().err
    assert "reads <http://ex.org/temps> but no --stream was given" in err
    assert "registers" not in err


def test_a_registered_istream_without_a_profile_is_noted(tmp_path, capsys):
    query = tmp_path / "q.rq"
    query.write_text(RSPQL.format(r2s="ISTREAM"), encoding="utf-8")
    stream = tmp_path / "s.nt"
    stream.write_text('<http://ex.org/a> <http://ex.org/value> "25"^^'
                      '<http://www.w3.org/2001/XMLSchema#integer> <http://ex.org/temps> 1\n',
                      encoding="utf-8")
    assert main(["run", str(query), "--stream", str(stream)]) == 0
    assert "the query registers ISTREAM; without --profile" in capsys.readouterr().err
    assert main(["run", str(query), "--stream", str(stream), "--profile", "rsp4j"]) == 0
    assert "registers" not in capsys.readouterr().err


def test_the_header_of_an_rspql_translation_names_no_variant(tmp_path, capsys):
    query = tmp_path / "q.rq"
    query.write_text(RSPQL.format(r2s="RSTREAM"), encoding="utf-8")
    assert main(["translate", str(query)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "None" not in header and "WINDOW blocks" in header
