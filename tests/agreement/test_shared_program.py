"""When both sides' plain programs are the same rules once copy rules are unfolded, ``lars agree``
solves one program and samples it for both (:meth:`agreement.agree.streaming.ComputedCheck.shared_program`).
The report must be the one of solving each side on its own: checked on every CSRBench query
pair over the bundled stream (all of them share), on the running example (static data: τ1's
default graph also holds static triples, so its copy rule cannot be unfolded and the sides are
solved apart), and on two sides with different windows, whose report changes if either
program is solved for both."""

from pathlib import Path

import pytest

from agreement.facade import check_agreement
from agreement.agree.streaming import ComputedCheck

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
COUPONS = ROOT / "examples" / "coupons" / "rdf"


def report(monkeypatch, share: bool, **options):
    """The agreement view, with sharing as it is or turned off; and whether it was shared."""
    made: list[ComputedCheck] = []
    original = ComputedCheck.shared_program

    def shared_program(self):
        made.append(self)
        return original(self) if share else None
    with monkeypatch.context() as patch:
        patch.setattr(ComputedCheck, "shared_program", shared_program)
        view = check_agreement(**options)
    return view, [c.common_program is not None for c in made]


def assert_same_reports(monkeypatch, **options) -> list[bool]:
    shared, used = report(monkeypatch, True, **options)
    apart, _ = report(monkeypatch, False, **options)
    assert shared.verdicts == apart.verdicts
    assert shared.report == apart.report
    assert (shared.csparql, shared.cqels) == (apart.csparql, apart.cqels)
    return used


def csrbench(number: int) -> dict:
    queries = CSRBENCH / "queries"
    return dict(query=queries / f"q{number}-cqels.rq", csparql=queries / f"q{number}-csparql.rq",
                stream=CSRBENCH / "stream", period="10s")


def test_csrbench_q1_is_solved_once_with_the_same_report(monkeypatch):
    assert assert_same_reports(monkeypatch, **csrbench(1)) == [True]


@pytest.mark.slow
@pytest.mark.parametrize("number", range(2, 8))
def test_every_csrbench_pair_has_the_report_of_the_sides_solved_apart(monkeypatch, number):
    assert_same_reports(monkeypatch, **csrbench(number))


def test_different_windows_keep_the_sides_apart(monkeypatch, tmp_path):
    options = csrbench(1)
    shorter = tmp_path / "q1-short.rq"
    shorter.write_text(options["query"].read_text().replace("[RANGE 10s SLIDE 10s]", "[RANGE 5s SLIDE 1s]"))
    options["query"] = shorter
    assert assert_same_reports(monkeypatch, **options) == [False]
    apart = check_agreement(**options)
    for side in ("csparql", "cqels"):  # one side's program solved for both changes the report
        with monkeypatch.context() as patch:
            patch.setattr(ComputedCheck, "shared_program", lambda self: getattr(self, side).program)
            assert check_agreement(**options).verdicts != apart.verdicts


def test_static_data_keeps_the_sides_apart(monkeypatch):
    used = assert_same_reports(monkeypatch, query=COUPONS / "cqels.rq", stream=COUPONS / "stream.nt",
                               static=[str(COUPONS / "static.ttl")], unit="1m", period="30m")
    assert used == [False]
