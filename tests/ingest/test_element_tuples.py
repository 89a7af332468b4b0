"""Stream elements and positions as named tuples (ingest/rdffiles.py ``StreamTriple``,
lars/errors.py ``Position``; issue 29: the readers build them with ``tuple.__new__``).

A named tuple also equals the plain tuple of its fields, so an equality test alone would pass
if a fast path built plain tuples (which have no ``stream`` or ``__str__``): these tests check
the classes of what every reading path gives, value semantics, and pickling (Spark ships
elements between processes).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import URIRef

from ingest.rdffiles import NTriplesLines, StreamTriple, _parse_ntriples_line_slow, parse_ntriples_line
from lars.errors import LarsError, Position
from tests.ingest.test_ntriples_fast import fast_lines, readable_lines

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals

ROOT = Path(__file__).parents[2]


def assert_classes(element) -> None:
    """``element`` is a :class:`StreamTriple` holding a :class:`Position`, equal to the one the
    two classes' own constructors make of its fields."""
    assert type(element) is StreamTriple and type(element.position) is Position
    built = StreamTriple(element.time, element.stream, element.triple,
                         Position(element.position.source, element.position.line))
    assert element == built and hash(element) == hash(built)


@settings(max_examples=200)
@given(fast_lines())
def test_each_reading_path_gives_elements_of_their_classes(line):
    parsed = [parse_ntriples_line(line, "s.nt", 7), _parse_ntriples_line_slow(line, "s.nt", 7)]
    runs = NTriplesLines().block(line, "s.nt", 7)
    assert runs is not None and len(runs.runs) == 1  # the block path read it too
    parsed.append((runs.runs[0][0], runs.runs[0][2]))
    for time, elements in parsed:
        [element] = elements
        assert_classes(element)
        assert element.position == Position("s.nt", 7) and element.time == time
    assert parsed[0] == parsed[1] == parsed[2]


@settings(max_examples=100)
@given(readable_lines())
def test_unusual_lines_give_elements_of_their_classes(line):
    try:
        parsed = parse_ntriples_line(line, "s.nt", 3, default_stream=URIRef("http://ex.org/s"))
    except LarsError:  # a bad line: test_ntriples_fast checks its error
        return
    for element in parsed[1] if parsed else ():
        assert_classes(element)


POSITIONS = st.builds(Position, st.sampled_from([None, "a.nt", "b.nt"]),
                      st.none() | st.integers(1, 3), st.none() | st.integers(1, 3))
ELEMENTS = st.builds(StreamTriple, st.integers(0, 2), st.sampled_from([None, URIRef("http://ex.org/s")]),
                     st.sampled_from([(URIRef("http://ex.org/a"),) * 3, (URIRef("http://ex.org/b"),) * 3]),
                     POSITIONS)


@settings(max_examples=200)
@given(ELEMENTS, ELEMENTS)
def test_elements_are_equal_and_hashed_by_value(one, other):
    same = (one.time, one.stream, one.triple, tuple(one.position)) == \
        (other.time, other.stream, other.triple, tuple(other.position))
    assert (one == other) is same
    if same:
        assert hash(one) == hash(other)


def test_a_changed_copy_keeps_the_class():
    _, [element] = parse_ntriples_line("<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5", "s.nt", 2)
    named = element._replace(stream=URIRef("http://ex.org/s"))
    assert type(named) is StreamTriple and named.stream == URIRef("http://ex.org/s")
    assert named.position is element.position and element.stream is None


def test_position_text_is_unchanged():
    # the form of clingo's messages (lars/errors.py)
    assert [str(p) for p in (Position("q.rq", 3, 14), Position("q.rq", 3), Position("q.rq"), Position())] \
        == ["q.rq:3:14", "q.rq:3", "q.rq", "<input>"]
    assert f"{Position('q.rq', 3)}: error" == "q.rq:3: error"


def test_pickling_keeps_the_classes():
    _, [element] = parse_ntriples_line("<http://ex.org/a> <http://ex.org/p> \"x\"@en <http://ex.org/s> 5", "s.nt", 4)
    back = pickle.loads(pickle.dumps(element, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == element and type(back) is StreamTriple and type(back.position) is Position


SHIP = """
import pickle
import pyspark.serializers  # under the variable, it patches collections.namedtuple on import
from ingest.rdffiles import StreamTriple, parse_ntriples_line
from lars.errors import LarsError, Position
_, [element] = parse_ntriples_line("<http://ex.org/a> <http://ex.org/p> <http://ex.org/o> 5", "s.nt", 3)
back = pickle.loads(pickle.dumps(element))
print(type(back) is StreamTriple, type(back.position) is Position, back.position)
"""


def test_pickling_keeps_the_classes_under_pysparks_namedtuple_patch():
    """pyspark's opt-in patch gives every named tuple class made after it a reduction that
    rebuilds a class of the same name elsewhere (without our ``Position.__str__``): the two
    classes keep the default reduction."""
    environment = dict(os.environ, PYSPARK_ENABLE_NAMEDTUPLE_PATCH="1",
                       PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", SHIP], capture_output=True, text=True, cwd=ROOT,
                          env=environment, timeout=120, check=True)
    assert done.stdout.split() == ["True", "True", "s.nt:3"]
