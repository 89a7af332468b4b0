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


def test_lars_agree_takes_query_as_the_csparql_side_of_a_given_cqels_query(tmp_path, capsys):
    """``lars agree Q.rq --cqels C.rq`` dropped Q and derived the C-SPARQL side from C: with a
    CQELS query of another FILTER it reported AGREE (a newcomer's second round)."""
    folder = ROOT / "examples" / "zones"
    cqels = (folder / "warm-cqels.rq").read_text(encoding="utf-8")
    assert "FILTER" in cqels
    never = tmp_path / "never.rq"
    never.write_text(cqels.replace("21.5", "1000"), encoding="utf-8")
    inputs = ["--stream", str(folder / "readings.nt"), "--static", str(folder / "building.ttl")]
    status = main(["agree", str(folder / "warm.rq"), "--cqels", str(never), *inputs])
    assert status == 1  # the C-SPARQL side answers, the CQELS side never does
    capsys.readouterr()
    assert main(["agree", str(folder / "warm.rq"), "--cqels", str(folder / "warm-cqels.rq"),
                 *inputs]) == main(["agree", str(folder / "warm.rq"), *inputs])
    capsys.readouterr()
    assert main(["agree", str(folder / "warm.rq"), "--cqels", str(never), "--csparql",
                 str(folder / "warm.rq"), *inputs]) == 2
    assert "QUERY, --cqels and --csparql are all given" in capsys.readouterr().err


def test_a_timestamp_of_thousands_of_digits_is_refused_at_its_line(tmp_path, capsys):
    stream = tmp_path / "s.nt"
    stream.write_text('<http://ex.org/a> <http://ex.org/p> "1" <http://ex.org/s> 1\n'
                      f'<http://ex.org/a> <http://ex.org/p> "2" <http://ex.org/s> {"9" * 5000}\n',
                      encoding="utf-8")
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?o WHERE { STREAM :s [RANGE 2s] "
                     "{ ?a :p ?o } }\n", encoding="utf-8")
    assert main(["run", str(query), "--stream", str(stream)]) == 2
    err = capsys.readouterr().err
    assert "s.nt:2:" in err and "at most 19 digits (this one has 5000)" in err
    assert "internal error" not in err
