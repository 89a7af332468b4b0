"""The notebook API of event queries: events as intervals, pandas, the plot, comparisons."""

from __future__ import annotations

from pathlib import Path

from agreement import compare_events, run_events, translate_event_query

EVENTS = Path(__file__).resolve().parents[2] / "examples" / "events"
QUERY, STREAM = EVENTS / "figure1.rq", EVENTS / "figure1.nt"


def test_run_events_gives_intervals_pandas_and_a_plot():
    view = run_events(QUERY, stream=STREAM, profile="epsparql-unrestricted", at="8,10")
    assert [(e.time, e.start, e.end) for e in view.intervals()] == [
        (8, 2, 6), (8, 4, 6), (8, 4, 8), (10, 2, 10)]
    frame = view.to_pandas()
    assert list(frame.columns) == ["time", "x", "y", "z", "t1", "t2"] and len(frame) == 4
    figure = view.plot()
    assert len(figure.axes[0].patches) == 4
    assert "<table" in view._repr_html_()


def test_translate_view_renders():
    view = translate_event_query(QUERY, profile="csparql-seq")
    assert "SEQ^n" in view.header() and "equation (9)" in view.text()
    assert view._repr_markdown_().startswith("**RSEP-QL")


def test_comparison_explains_each_difference():
    report = compare_events(QUERY, stream=STREAM, at="8,10",
                            profiles=("epsparql-unrestricted", "epsparql-chronological"))
    [at_8, at_10] = report.differences
    assert (at_8.time, at_8.side, at_8.event.start, at_8.event.end) == (8, "epsparql-unrestricted", 4, 8)
    assert "reads SEQ as SEQ^c (equation (10))" in at_8.reasons[0]
    assert at_10.reasons == ("epsparql-chronological consumed :a1 :p :b1 (at 2, window :w1) "
                             "when it evaluated at 8",)
    assert report.to_json()["agree"] is False


def test_comparison_names_evaluation_times_and_reporting():
    report = compare_events(QUERY, stream=STREAM,
                            profiles=("epsparql-unrestricted", "csparql-seq"))
    reasons = {r for d in report.differences for r in d.reasons}
    assert any("does not evaluate at" in r for r in reasons) or any(
        "reports only events completed after" in r for r in reasons)
