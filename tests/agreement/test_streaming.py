"""``lars agree`` interval by interval: the pruned history gives the snapshots of the whole
stream, the streamed verdicts are those of :func:`agreement.compare.compare` over the collected
answers, and explanations are capped."""

import json
from pathlib import Path
from types import SimpleNamespace

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from agreement.cli.app import main
from agreement.compare import compare, pull_times
from agreement.agree.conditions import snapshot
from agreement.facade import check_agreement
from agreement.agree.history import StreamHistory, keep_from
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from lars.streams import Timeline
from translate.rsp import AllWindow, NowWindow, RangeWindow, StreamSpec, TriplesWindow

ROOT = Path(__file__).resolve().parents[2]
CSRBENCH = ROOT / "examples" / "csrbench"
COUPONS = ROOT / "examples" / "coupons" / "rdf"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "agreement.schema.json").read_text())
STREAMS = (URIRef("http://ex.org/s1"), URIRef("http://ex.org/s2"))

windows = st.one_of(
    st.builds(RangeWindow, st.integers(0, 6), st.integers(1, 4)),
    st.builds(TriplesWindow, st.integers(1, 5)),
    st.just(NowWindow()), st.just(AllWindow()))
slices = st.dictionaries(st.integers(0, 30), st.lists(st.tuples(st.sampled_from(STREAMS),
                                                                st.integers(0, 3)), min_size=1, max_size=4))


def element(t: int, stream: URIRef, value: int, line: int) -> StreamTriple:
    triple = (URIRef("http://ex.org/a"), URIRef("http://ex.org/p"), URIRef(f"http://ex.org/v{value}"))
    return StreamTriple(t, stream, triple, Position("s.nt", line))


@settings(max_examples=150, deadline=None)
@given(slices, st.lists(st.tuples(st.sampled_from(STREAMS), windows), min_size=1, max_size=2),
       st.integers(1, 7), st.sampled_from(["closed", "left-open", "right-open"]))
def test_pruned_history_gives_the_snapshots_of_the_whole_stream(contents, specs, period, reading):
    """What :mod:`agreement.agree.streaming` keeps (pruned at each interval's start, read one interval
    ahead) selects the same window snapshots as the whole stream, for every interval."""
    specs = [StreamSpec(stream, window) for stream, window in specs
             if not (reading != "closed" and isinstance(window, RangeWindow) and window.length == 0)]
    query = SimpleNamespace(streams=specs)
    line = Timeline(0, 31)
    items, line_number = [], 0
    for t in sorted(contents):
        items.append((t, [element(t, s, v, line_number := line_number + 1) for s, v in contents[t]]))
    whole, kept = StreamHistory(), StreamHistory()
    for t, elements in items:
        whole.add(t, elements)
    fed = iter(items)
    pending = next(fed, None)
    for end in pull_times(period, (line.start, line.end)):
        start = end - period
        while pending is not None and pending[0] <= end + period + 1:
            kept.add(*pending)
            pending = next(fed, None)
        kept.prune(keep_from(query, kept, start, line, reading))
        for spec in specs:
            for t in range(start + 1, end + 1):
                assert snapshot(spec, kept, t, line, reading) == snapshot(spec, whole, t, line, reading)
        assert kept.times_between(start + 1, end) == whole.times_between(start + 1, end)


def test_streamed_verdicts_are_those_of_the_collected_answers():
    """The verdicts made as each interval closed equal :func:`compare` over all the answers."""
    view = check_agreement(CSRBENCH / "queries" / "q1-cqels.rq", stream=CSRBENCH / "stream", period="5s",
                 csparql=CSRBENCH / "queries" / "q1-csparql.rq")
    line = view.report.timeline
    assert view.verdicts == compare(view.csparql, view.cqels, 5, line)
    assert not view.agree


def test_explanations_are_capped_and_the_cap_is_noted(tmp_path, capsys):
    """The running example twice (the second 30 minutes later): two disagreeing intervals."""
    lines = [line for line in (COUPONS / "stream.nt").read_text().splitlines() if line.startswith("<")]
    later = [line.rsplit(" ", 1)[0] + f" {int(line.rsplit(' ', 1)[1]) + 30}" for line in lines]
    stream = tmp_path / "twice.nt"
    stream.write_text("\n".join(lines + later) + "\n")
    argv = ["agree", str(COUPONS / "cqels.rq"), "--stream", str(stream), "--static",
            str(COUPONS / "static.ttl"), "--unit", "1m", "--to", "60", "--period", "30m", "--format", "json"]
    assert main([*argv, "--max-explanations", "1"]) == 1
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, SCHEMA)
    explained = [i for i in report["intervals"] if i["explanations"] or any(
        a["explanations"] for a in i["only_cqels"] + i["only_csparql"])]
    assert len(explained) == 1 and report["disagreeing"] > 1
    assert f"explained the first 1 of {report['disagreeing']} disagreeing intervals" in " ".join(report["notes"])
    assert main([*argv, "--max-explanations", "-1"]) == 2
    assert "--max-explanations must be 0 or more" in capsys.readouterr().err
