"""Engine profiles as data and in TOML files (translate/profiles.py, translate/profilefile.py)."""

from __future__ import annotations

import pytest

from lars.errors import InputError, ParseError
from translate.profilefile import load_profile, resolve_profile
from translate.profiles import PROFILES, Profile, profile


@pytest.mark.parametrize("name, r2s, empty, bounds", [
    pytest.param("csparql", "rstream", "emit", "right-open", id="csparql"),
    pytest.param("sparqlstream", "rstream", "drop", "right-open", id="sparqlstream"),
    pytest.param("cqels", "istream", "drop", "right-open", id="cqels"),
    pytest.param("rsp4j", "rstream", "emit", "right-open", id="rsp4j"),
    pytest.param("paper-pull", "rstream", "emit", "closed", id="paper-pull"),
    pytest.param("paper-push", "rstream", "emit", "closed", id="paper-push"),
])
def test_builtin_profiles_follow_the_csrbench_configurations(name, r2s, empty, bounds):
    found = profile(name)
    assert (found.r2s, found.empty, found.bounds) == (r2s, empty, bounds)


def test_report_policies_of_the_csrbench_properties_files():
    assert profile("csparql").report == {"window-close", "non-empty"}
    assert profile("sparqlstream").report == {"window-close", "non-empty"}
    assert profile("cqels").report == {"content-change", "non-empty"}
    assert profile("csparql").t0 is None and profile("rsp4j").t0 == 0
    assert profile("paper-pull").mode == "pull" and profile("paper-push").mode == "push"


def test_unknown_profile_suggests_a_name():
    with pytest.raises(InputError, match="did you mean 'csparql'"):
        profile("csparq")


def test_invalid_values_are_refused():
    with pytest.raises(InputError, match="r2s must be one of"):
        Profile("x", "cqels", "closed", 0, frozenset({"input"}), r2s="xstream")
    with pytest.raises(InputError, match="report must be"):
        Profile("x", "cqels", "closed", 0, frozenset({"sometimes"}))


def test_toml_profile_based_on_a_builtin(tmp_path):
    path = tmp_path / "closed-csparql.toml"
    path.write_text('based-on = "csparql"\nbounds = "closed"\nt0 = 2\n'
                    'report = ["window-close"]\n')
    found = load_profile(path)
    assert found.name == "closed-csparql" and found.bounds == "closed" and found.t0 == 2
    assert found.report == {"window-close"} and found.r2s == "rstream"
    assert resolve_profile(str(path)) == found


def test_toml_profile_sets_the_empty_group(tmp_path):
    path = tmp_path / "no-empty-row.toml"
    path.write_text('based-on = "csparql"\nempty-group = "none"\n')
    assert load_profile(path).empty_group == "none"
    path.write_text('based-on = "csparql"\nempty-group = "zero"\n')
    with pytest.raises(InputError, match="empty-group must be one of row, null, none"):
        load_profile(path)


def test_toml_profile_from_scratch(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ntranslation = "cqels"\nbounds = "right-open"\nt0 = "any"\n'
                    'report = ["content-change"]\nr2s = "istream"\nlabel-ms = 1000\n')
    found = load_profile(path)
    assert found.t0 is None and found.label_ms == 1000 and found.translation == "cqels"


@pytest.mark.parametrize("text, message, line", [
    pytest.param('bounds = "closed"\nr2s = \n', "not TOML", 2, id="syntax"),
    pytest.param('based-on = "csparql"\n\nbound = "closed"\n', "unknown key 'bound'", 3, id="unknown-key"),
    pytest.param('based-on = "csparql"\nt0 = "soon"\n', "t0 must be an integer", 2, id="t0"),
    pytest.param('based-on = "csparql"\nreport = "window-close"\n', "report must be list", 2,
                 id="report-type"),
    pytest.param('based-on = "csparql"\nr2s = "xstream"\n', "r2s must be one of", None, id="value"),
    pytest.param('bounds = "closed"\n', "missing key", None, id="missing"),
])
def test_toml_errors_name_the_file_and_line(tmp_path, text, message, line):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises((InputError, ParseError), match=message) as error:
        load_profile(path)
    assert error.value.position.source == str(path)
    if line is not None:
        assert error.value.position.line == line


def test_every_builtin_is_listed():
    assert set(PROFILES) == {"paper-pull", "paper-push", "csparql", "sparqlstream", "cqels", "rsp4j",
                             "yasper", "csparql2", "rdfox"}
