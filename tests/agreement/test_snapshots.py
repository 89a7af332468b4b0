"""The push snapshots of an interval (:func:`agreement.agree.conditions.snapshots`) are the window
snapshots at each time point, shared between time points whose windows select the same range."""

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from agreement.agree.conditions import snapshot, snapshots
from agreement.agree.history import StreamHistory
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from lars.streams import Timeline
from translate.rsp import AllWindow, NowWindow, RangeWindow, StreamSpec, TriplesWindow

STREAMS = (URIRef("http://ex.org/s1"), URIRef("http://ex.org/s2"))
windows = st.one_of(st.builds(RangeWindow, st.integers(1, 6), st.integers(1, 4)),
                    st.builds(TriplesWindow, st.integers(1, 5)), st.just(NowWindow()), st.just(AllWindow()))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.integers(0, 20), st.lists(st.sampled_from(STREAMS), min_size=1, max_size=3)),
       st.sampled_from(STREAMS), windows, st.sampled_from(["closed", "left-open", "right-open"]),
       st.lists(st.integers(0, 20), unique=True))
def test_shared_snapshots_are_the_snapshots_at_each_time_point(contents, stream, window, reading, times):
    history, line = StreamHistory(), Timeline(0, 20)
    for t in sorted(contents):
        history.add(t, [StreamTriple(t, s, (URIRef("http://ex.org/a"), URIRef("http://ex.org/p"),
                                            URIRef(f"http://ex.org/v{i}")), Position("s.nt", i))
                        for i, s in enumerate(contents[t])])
    spec = StreamSpec(stream, window)
    found = snapshots(spec, history, sorted(times), line, reading)
    for t in times:
        expected = snapshot(spec, history, t, line, reading)
        assert (found[t].lo, found[t].hi, found[t].triples) == (expected.lo, expected.hi, expected.triples)
    if not isinstance(window, TriplesWindow):  # equal ranges, one snapshot
        ranges = {t: (found[t].lo, found[t].hi, min(found[t].hi, t)) for t in times}
        assert all((found[a] is found[b]) == (ranges[a] == ranges[b]) for a in times for b in times)
