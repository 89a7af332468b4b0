"""The façade (``agreement.facade``): each call gives what the ``lars`` command gives on the same
inputs, and the views show, tabulate and index the answers."""

import json
from pathlib import Path

import pytest

from agreement.facade import check_agreement, check_variants, run, translate_query, translate_variants
from agreement.cli.app import main
from lars.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
COUPONS = ROOT / "examples" / "coupons"
RDF = COUPONS / "rdf"
ANSWERS = ROOT / "examples" / "csrbench" / "engine-answers"


def cli_json(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, json.loads(out)


def cli_answers(document) -> dict[int, list[frozenset]]:
    """``{t: [answer stream as a set of (atom, time)]}`` from ``lars run --format json``."""
    return {point["time"]: [frozenset((a["atom"], a["time"]) for a in stream)
                            for stream in point["answer_streams"]]
            for point in document["time_points"]}


def api_answers(view) -> dict[int, list[frozenset]]:
    return {answer.time: view.at(answer.time) for answer in view}


def test_program_run_gives_the_cli_answers(capsys):
    _, document = cli_json(capsys, "run", COUPONS / "program.lars", "--stream", COUPONS / "stream.txt",
                           "--background", COUPONS / "background.lars", "--format", "json")
    view = run(COUPONS / "program.lars", stream=COUPONS / "stream.txt",
               background=COUPONS / "background.lars")
    assert api_answers(view) == cli_answers(document)
    assert len(view) == 51 and view.timeline == (0, 50) and view.stratified
    assert view.at(18) == [frozenset({('ans(b,"rayban",25)', 18)})]


def test_query_run_gives_the_cli_answers(capsys):
    options = ["--stream", RDF / "stream.nt", "--static", RDF / "static.ttl", "--unit", "1m", "--to", "50"]
    _, document = cli_json(capsys, "run", RDF / "cqels.rq", *options, "--format", "json")
    view = run(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")], unit="1m",
               end=50)
    assert view.to_json() == document["answers"]
    assert document["variables"] == ["shop", "product", "percent"]
    assert document["answers"][0] == {"time": 18, "binding": {
        "shop": "<http://ex.org/b>", "product": "<http://ex.org/rayban>", "percent": "25"}}
    assert view.variables == ("shop", "product", "percent")
    assert view.input_kind == "triples" and sum(view.input_counts.values()) == 8


def test_non_stratified_program_gives_the_cli_answer_streams(tmp_path, capsys):
    program = tmp_path / "choice.lars"
    program.write_text("x :- not y.\ny :- not x.\n")
    _, document = cli_json(capsys, "run", program, "--to", "2", "--format", "json")
    view = run("x :- not y.\ny :- not x.\n", end=2)
    assert api_answers(view) == cli_answers(document)
    assert not view.stratified and view.several() == [0, 1, 2]
    assert sorted(map(sorted, view.at(1))) == [[("x", 1)], [("y", 1)]]


@pytest.mark.parametrize("period", ["10m", "30m"])
def test_check_gives_the_cli_report(capsys, period):
    status, document = cli_json(capsys, "agree", RDF / "cqels.rq", "--stream", RDF / "stream.nt",
                                "--static", RDF / "static.ttl", "--unit", "1m", "--to", "50",
                                "--period", period, "--format", "json")
    view = check_agreement(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")],
                 unit="1m", end=50, period=period)
    assert view.to_json() == document
    assert view.agree == (status == 0)


def test_recorded_check_gives_the_cli_report(capsys):
    files = [ANSWERS / "csparql-answer-1.json", ANSWERS / "cqels-answer-1.json"]
    _, document = cli_json(capsys, "agree", "--recorded-csparql", files[0], "--recorded-cqels", files[1],
                           "--period", "10s", "--format", "json")
    view = check_agreement(recorded_csparql=files[0], recorded_cqels=files[1], period="10s")
    assert view.to_json() == document and not view.agree
    assert sorted(view.csparql.answers) == [10, 20, 30, 40]


def test_translate_gives_the_cli_program(capsys):
    _, document = cli_json(capsys, "translate", RDF / "csparql.rq", "--unit", "1m", "--mode", "pull",
                           "--period", "5m", "--syntax", "json")
    view = translate_query(RDF / "csparql.rq", unit="1m", mode="pull", period="5m")
    assert view.to_json() == document
    assert view.translation.period == 5 and translate_query(RDF / "csparql.rq", unit="1m", mode="pull",
                                                            period=5).to_json() == document


def test_query_text_and_query_path_are_the_same():
    text = (RDF / "cqels.rq").read_text()
    assert translate_query(text, unit="1m").to_json() == translate_query(RDF / "cqels.rq", unit="1m").to_json()
    assert translate_query(str(RDF / "cqels.rq"), unit="1m").program == translate_query(text, unit="1m").program


def test_stream_given_as_text_is_read_like_a_file():
    program = (COUPONS / "program.lars").read_text()
    background = (COUPONS / "background.lars").read_text()
    from_text = run(program, stream=(COUPONS / "stream.txt").read_text(), background=background)
    from_files = run(COUPONS / "program.lars", stream=COUPONS / "stream.txt",
                     background=COUPONS / "background.lars")
    assert from_text.answers == from_files.answers


def test_program_view_shows_the_paper_notation_with_comments():
    view = translate_query(RDF / "cqels.rq", unit="1m")
    assert "⊞^30 ◇ striple(" in view._repr_markdown_() and "# node 8: STREAM" in view._repr_markdown_()
    assert "⊞^5 ◇" in view._repr_html_() and view.header().startswith("τ2(Q')")
    assert "[30] <> striple(" in view.text("ascii")
    assert "%" in view.text("asp") or "#" in view.text("asp")


def test_one_variant_at_a_time_or_all_with_the_plural_calls():
    with pytest.raises(InputError, match="translate_variants"):
        translate_query(RDF / "cqels.rq", unit="1m", variant="all")
    assert [v.translation.variant for v in translate_variants(RDF / "cqels.rq", unit="1m", variant="all")] == [
        "bb", "bc", "cb", "cc"]
    with pytest.raises(InputError, match="check_variants"):
        check_agreement(RDF / "cqels.rq", stream=RDF / "stream.nt", period="10m", unit="1m", variant="all")
    views = check_variants(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")],
                           unit="1m", period="10m", variant="all")
    assert len(views) == 4


def test_a_time_point_not_evaluated_is_an_input_error():
    view = run("x :- p.", end=3)
    with pytest.raises(InputError, match="time point 7 was not evaluated"):
        view.at(7)


def test_answer_table_by_time_and_by_interval():
    pytest.importorskip("pandas")
    view = run(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")], unit="1m",
               end=50)
    by_time = view.to_pandas()
    assert list(by_time.columns) == ["time", "answer_stream", "streams", "atom", "holds_at", "label",
                                     "shop", "product", "percent"]
    assert list(by_time["time"]) == list(range(18, 24)) and set(by_time["percent"]) == {25}
    by_interval = view.to_pandas(by="interval")
    assert by_interval[["start", "end", "points"]].values.tolist() == [[18, 23, 6]]
    assert by_interval["label"].tolist() == ["(:b, :rayban, 25)"]


def test_agreement_table_has_one_row_per_interval():
    pytest.importorskip("pandas")
    view = check_agreement(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")], unit="1m",
                 end=50, period="10m")
    table = view.to_pandas()
    assert table[["start", "end", "agree"]].values.tolist() == [[0, 10, True], [10, 20, True],
                                                                [20, 30, True], [30, 40, True],
                                                                [40, 50, True]]
    assert table["common"].tolist() == [0, 1, 0, 0, 0]


def test_agreement_html_has_the_summary_and_the_reasons():
    view = check_agreement(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")], unit="1m",
                 end=50, period="30m")
    page = view._repr_html_()
    assert page.count("<tr>") == 2 and "DISAGREE" in page
    assert "snapshot-differs" in page and "(:b, :rayban, 25) at 18" in page


def test_answer_html_is_compact_and_says_how_many_more():
    stream = "0: " + ", ".join(f"p({i})" for i in range(60)) + "\n3:\n"
    view = run("q(X) :- [2] <> p(X).", stream=stream)
    page = view._repr_html_()
    assert page.count("<tr>") == 51 and "… 10 more" in page
    assert "[0,2]" in page and "60 atoms hold" in page
