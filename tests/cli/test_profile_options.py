"""``--profile`` for ``lars translate`` and ``lars run`` (SPEC section 12)."""

from __future__ import annotations

from pathlib import Path

from agreement.cli import main

ROOT = Path(__file__).resolve().parents[2]
Q1 = str(ROOT / "examples" / "csrbench" / "queries" / "q1-cqels.rq")


def lars(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_translate_prints_the_engines_program(capsys):
    status, out, _ = lars(capsys, "translate", Q1, "--profile", "cqels", "--syntax", "ascii")
    assert status == 0 and "profile cqels, t0 = 0" in out
    assert "istream_1(_A1,_A2,_A3,_A4) :- ans_1(_A1,_A2,_A3,_A4), not ans_1_prev(" in out
    assert "report :- istream_1(" in out


def test_translate_with_a_paper_profile_is_the_papers_program(capsys):
    _, by_profile, _ = lars(capsys, "translate", Q1, "--profile", "paper-push", "--syntax", "ascii")
    _, by_mode, _ = lars(capsys, "translate", Q1, "--mode", "push", "--syntax", "ascii")
    strip = lambda text: [line for line in text.splitlines() if not line.startswith("# τ2")]
    assert strip(by_profile) == strip(by_mode)


def test_translate_t0_moves_the_windows(capsys):
    _, out, _ = lars(capsys, "translate", Q1, "--profile", "csparql", "--t0", "3", "--syntax", "ascii")
    assert "_N >= 13, (_N - 13) % 10 = 0" in out


def test_run_with_a_toml_profile(capsys, tmp_path):
    (tmp_path / "q.rq").write_text("PREFIX : <http://ex.org/>\nSELECT ?s WHERE "
                                   "{ STREAM :s [RANGE 2s SLIDE 2s] { ?s :p :o } }\n")
    (tmp_path / "s.nt").write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> "
                                   "<http://ex.org/s> 1\n<http://ex.org/b> <http://ex.org/p> "
                                   "<http://ex.org/o> <http://ex.org/s> 2\n")
    (tmp_path / "closed.toml").write_text('based-on = "rsp4j"\nbounds = "closed"\n')
    status, out, _ = lars(capsys, "run", str(tmp_path / "q.rq"), "--stream", str(tmp_path / "s.nt"),
                          "--profile", str(tmp_path / "closed.toml"), "--to", "4",
                          "--format", "intervals", "--quiet")
    # closed windows [c-2, c]: a and b at the close at 2; b again at 4
    assert status == 0
    assert "(<http://ex.org/a>)  2\n" in out and "(<http://ex.org/b>)  2 4\n" in out


def test_unknown_profile_is_bad_input(capsys):
    status, _, err = lars(capsys, "translate", Q1, "--profile", "cqles")
    assert status == 2 and "did you mean 'cqels'" in err
