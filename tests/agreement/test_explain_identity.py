"""The explanations of ``lars agree`` go by identity where they used to go by value, and cache
what they compute (:mod:`agreement.agree.history`, :mod:`agreement.agree.conditions`,
:mod:`agreement.agree.derivation`): differentially, on generated streams with repeated triples
(Turtle files give equal elements: no line in their positions), each fast path gives what the
plain reading by value gives."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Literal, URIRef

from agreement.agree.conditions import content, members, snapshot
from agreement.agree.derivation import Derivations, Reach, connected, shrink
from agreement.agree.history import StreamHistory
from ingest.rdffiles import StreamTriple
from lars.errors import Position
from lars.streams import Timeline
from translate.rsp import RangeWindow, StreamSpec, TriplesWindow

STREAMS = (URIRef("http://ex.org/s1"), URIRef("http://ex.org/s2"))
TERMS = [URIRef(f"http://ex.org/n{i}") for i in range(4)] + [Literal(1), Literal("a")]
SUBJECTS = TERMS[:4]


@st.composite
def histories(draw) -> tuple[StreamHistory, dict[int, list[StreamTriple]]]:
    """A history and, by time point, the elements added (fresh objects, some equal: the same
    triple, stream and position, as a Turtle file's repeated triple)."""
    turtle = draw(st.booleans())
    history, added = StreamHistory(), {}
    for t in sorted(draw(st.sets(st.integers(0, 12), max_size=6))):
        rows = draw(st.lists(st.tuples(st.sampled_from(STREAMS), st.sampled_from(SUBJECTS),
                                       st.sampled_from(TERMS[:2]), st.sampled_from(TERMS)),
                             min_size=1, max_size=6))
        elements = [StreamTriple(t, stream, (s, p, o),
                                 Position("f.ttl") if turtle else Position("f.nt", 100 * t + i))
                    for i, (stream, s, p, o) in enumerate(rows)]
        history.add(t, elements)
        added[t] = elements
    return history, added


windows = st.one_of(st.builds(RangeWindow, st.integers(1, 6), st.integers(1, 3)),
                    st.builds(TriplesWindow, st.integers(1, 5)))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(histories(), st.lists(st.tuples(st.sampled_from(STREAMS), windows), min_size=1, max_size=3),
       st.integers(0, 12), st.sampled_from(["closed", "left-open", "right-open"]))
def test_contents_and_members_by_identity_are_those_by_value(case, specs, t, reading):
    history, added = case
    line = Timeline(0, 12)
    for slice_ in added.values():  # one object per value in each slice, equal to what was added
        kept = history.between(slice_[0].time, slice_[0].time)
        assert kept == slice_
        assert all((a is b) == (a == b) for a in kept for b in kept)
    for stream in STREAMS:
        for lo, hi in [(0, 12), (t - 3, t), (t, t)]:
            assert history.on(stream, lo, hi) == [e for e in history.between(lo, hi) if e.stream == stream]
    snaps = [snapshot(StreamSpec(stream, window), history, t, line, reading) for stream, window in specs]
    by_value = sorted(dict.fromkeys(e for snap in snaps for e in snap.triples), key=lambda e: e.time)
    found = content(snaps)
    assert found == by_value and len(found) == len(set(found))
    held = members(snaps)
    everything = [e for slice_ in added.values() for e in slice_] + found
    for element in everything:
        in_history = next((e for e in history.between(element.time, element.time) if e == element), None)
        if in_history is not None:  # an element of the history: by identity as by value
            assert (id(in_history) in held) == any(in_history in snap.triples for snap in snaps)


def fresh_witnesses(rows_on, side, row, t, content_):
    """Witnesses with nothing remembered: a new :class:`Derivations` for each question."""
    return Derivations(rows_on).witnesses(side, row, t, content_)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(histories(), st.lists(st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(TERMS)),
                             min_size=1, max_size=6),
       st.lists(st.integers(0, 12), min_size=1, max_size=6))
def test_remembered_witnesses_and_indexes_are_those_found_afresh(case, rows, times):
    """One :class:`Derivations` asked about many rows, time points and contents (equal ones,
    the same ones, other ones, in any order) answers each as a fresh one does."""
    history, _ = case

    def rows_on(side, elements, t):
        """A toy program: ``(s, o)`` when ``s`` has a triple with object ``o`` and another
        triple at all (two triples of one subject), on the ``cqels`` side only at even times."""
        by_subject: dict = {}
        for e in elements:
            by_subject.setdefault(e.triple[0], []).append(e.triple[2])
        if side == "cqels" and t % 2:
            return frozenset()
        return frozenset((s, o) for s, objects in by_subject.items() if len(objects) > 1 for o in objects)

    remembered = Derivations(rows_on)
    for t in times:
        for side in ("cqels", "csparql"):
            window = history.between(max(0, t - 4), t)
            reread = [copy.copy(e) for e in window]  # equal triples, other objects (a re-read)
            for contents in (window, list(window), window[1:], reread):
                for row in rows:
                    found = remembered.witnesses(side, row, t, contents)
                    assert found == fresh_witnesses(rows_on, side, row, t, contents)
                    held = {id(e) for e in contents}  # callers test membership by identity
                    assert found is None or all(id(e) in held for e in found)
                    for from_objects in (False, True):
                        assert [contents[i] for i in Reach(list(contents)).connected(row, from_objects)] \
                            == connected(contents, row, from_objects)


def test_a_remembered_witness_set_is_not_given_for_another_content():
    """The memory is keyed by side, row and time point and checked against the content: the
    same question over other triples is answered from those triples."""
    a = [StreamTriple(1, STREAMS[0], (SUBJECTS[0], TERMS[0], TERMS[1]), Position("f.nt", 1))]
    b = [StreamTriple(1, STREAMS[0], (SUBJECTS[1], TERMS[0], TERMS[1]), Position("f.nt", 2))]
    derivations = Derivations(lambda side, elements, t: frozenset((e.triple[0],) for e in elements))
    assert derivations.witnesses("cqels", (SUBJECTS[0],), 1, a) == a
    assert derivations.witnesses("cqels", (SUBJECTS[0],), 1, b) is None
    assert shrink(b, lambda kept: False) is None


def test_a_remembered_witness_set_is_made_of_the_triples_asked_about():
    """An equal content read again (a worker re-reading a window from the file) is other
    objects; the set given is made of them, since the explanations test membership by identity
    (the edge of a window, the pushes holding a witness set). Found by the differential test of
    partitioned checks (tests/agreement/test_agree_remote.py), whose window-boundary cause was
    lost when a remembered set named the triples of an earlier reading."""
    first = [StreamTriple(t, STREAMS[0], (SUBJECTS[0], TERMS[0], TERMS[t]), Position("f.nt", t + 1))
             for t in range(2)]
    again = [copy.copy(e) for e in first]
    derivations = Derivations(lambda side, elements, t: frozenset((e.triple[0],) for e in elements))
    def made_of(found, content_):
        return found and all(any(e is held for held in content_) for e in found)
    before = derivations.witnesses("cqels", (SUBJECTS[0],), 1, first)
    assert made_of(before, first)
    found = derivations.witnesses("cqels", (SUBJECTS[0],), 1, again)
    assert found == before and made_of(found, again)
    other_side = derivations.witnesses("csparql", (SUBJECTS[0],), 1, again)  # the index is reused
    assert made_of(other_side, again)
