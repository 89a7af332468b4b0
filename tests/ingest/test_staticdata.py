"""Static N-Triples and N-Quads files read by Oxigraph (ingest/staticdata.py, issue 29 item 5).

The judge is the path it replaces: rdflib's graph of the same file (:func:`load_static`) and
:func:`translate.rdf.dataset_atoms`. Both must give the same background atoms on generated
files (a differential test), the same errors, and a bad line of a large file must be reported
at its line and column without rdflib reading the file.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.errors import InputError, ParseError
from lars.terms import Iri
from ingest import staticdata
from ingest.rdffiles import load_static
from ingest.staticdata import FilePart, read_static
from translate.rdf import DEFAULT_GRAPH, TRIPLE, RdfTermEncoder, dataset_atoms, to_constant
from rdflib import URIRef

EX = "http://ex.org/"
XSD = "http://www.w3.org/2001/XMLSchema#"
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:rdflib.term")  # ill-typed literals


def old_atoms(path: Path) -> frozenset[Atom]:
    """Today's background: the file in an rdflib Dataset, every triple encoded."""
    return frozenset(dataset_atoms(load_static([str(path)]), RdfTermEncoder()))


def new_atoms(path: Path) -> frozenset[Atom]:
    """The same from :func:`read_static`, straight to constants."""
    atoms = set()
    for key, graph in read_static([str(path)]).items():
        name = DEFAULT_GRAPH if key is None else to_constant(URIRef(key))
        atoms.update(Atom(TRIPLE, (*triple, name)) for triple in graph.encoded_triples(None))
    return frozenset(atoms)


def oxigraph_read(path: Path) -> bool:
    """Whether the file went to Oxigraph (not back to rdflib)."""
    return all(isinstance(part, FilePart) for graph in read_static([str(path)]).values()
               for part in graph.parts)


# --- generated documents --------------------------------------------------------------------

iris = st.sampled_from([f"<{EX}a>", f"<{EX}b>", f"<{EX}p>", f"<{EX}é>", "<urn:x:1>", f"<{EX}a\\u0062>"])
lexical = st.text(alphabet=string.ascii_letters[:4] + ' "\\\t\né1-+.0', max_size=6)


def escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


literals = st.one_of(
    lexical.map(lambda t: f'"{escaped(t)}"'),
    st.tuples(lexical, st.sampled_from(["en", "EN", "fr-BE", "de-ch"])).map(lambda x: f'"{escaped(x[0])}"@{x[1]}'),
    st.tuples(st.sampled_from(["0", "01", "-0", "7", "2147483648", "x", "+3"]),
              st.sampled_from(["integer", "decimal", "double", "boolean", "string", "date"]))
      .map(lambda x: f'"{x[0]}"^^<{XSD}{x[1]}>'),
    st.sampled_from(['"true"^^<' + XSD + 'boolean>', '"\\"q"^^<' + XSD + 'string>', '"\\"q"', '"\\u00e9"']),
)
triples = st.tuples(iris, iris, st.one_of(iris, literals))


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(triples, max_size=8), st.sampled_from(["", "# a comment\n", "\n"]))
@example([(f"<{EX}a>", f"<{EX}p>", '"\\"q"^^<' + XSD + 'string>')], "")
@example([(f"<{EX}a>", f"<{EX}p>", '"Chat"@EN'), (f"<{EX}a>", f"<{EX}p>", '"Chat"@en')], "")
def test_same_background_as_the_rdflib_graph(tmp_path, lines, extra):
    path = tmp_path / "d.nt"
    path.write_text(extra + "".join(f"{s} {p} {o} .\n" for s, p, o in lines), encoding="utf-8")
    assert new_atoms(path) == old_atoms(path)


@settings(max_examples=30, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(triples, st.sampled_from(["", f"<{EX}g1>", f"<{EX}g2>"])), max_size=8))
def test_same_background_as_the_rdflib_dataset_for_nquads(tmp_path, quads):
    path = tmp_path / "d.nq"
    path.write_text("".join(f"{s} {p} {o} {g} .\n" for (s, p, o), g in quads), encoding="utf-8")
    assert new_atoms(path) == old_atoms(path)


def test_plain_files_go_to_oxigraph_and_unsure_ones_to_rdflib(tmp_path):
    plain, unsure = tmp_path / "plain.nt", tmp_path / "unsure.nt"
    plain.write_text(f'<{EX}a> <{EX}p> "x"@en .\n<{EX}a> <{EX}p> "3"^^<{XSD}integer> .\n')
    unsure.write_text(f'<{EX}a> <{EX}p> "\\"q"^^<{XSD}string> .\n')
    assert oxigraph_read(plain) and not oxigraph_read(unsure)
    assert new_atoms(unsure) == old_atoms(unsure)  # the ^^xsd:string is kept, as rdflib does


def test_blank_nodes_are_one_per_label_and_file(tmp_path):
    first, second = tmp_path / "a.nt", tmp_path / "b.nt"
    first.write_text(f"_:b <{EX}p> _:b .\n")
    second.write_text(f"_:b <{EX}p> _:c .\n")
    graph = read_static([str(first), str(second)])[None]
    (s1, _, o1), (s2, _, o2) = sorted(graph.encoded_triples(None), key=lambda t: t[0] != t[2])
    assert s1 == o1 and isinstance(s1, Iri) and s1.value.startswith("_:")
    assert len({s1, s2, o2}) == 3  # two files' _:b stay apart
    assert list(graph.encoded_triples(None)) == list(graph.encoded_triples(None))  # stable labels


def test_kept_triples_are_the_ones_read_again(tmp_path):
    path = tmp_path / "d.nt"
    path.write_text("".join(f"<{EX}s{i}> <{EX}p{i % 3}> _:b{i % 2} .\n" for i in range(30)))
    wanted = frozenset({f"{EX}p1"})
    kept = read_static([str(path)], wanted)[None]
    again = read_static([str(path)])[None]
    assert kept.parts[0].kept  # from the checking pass
    assert len(list(kept.encoded_triples(wanted))) == len(list(again.encoded_triples(wanted))) == 10
    assert {t[1] for t in kept.encoded_triples(wanted)} == {Iri(f"{EX}p1")}
    assert len(list(kept.encoded_triples(None))) == 30  # other predicates: read again


def test_rdflib_view_of_the_graph(tmp_path):
    """What the agreement explanations read: rdflib terms, distinct, found by pattern."""
    path = tmp_path / "d.nt"
    path.write_text(f'<{EX}a> <{EX}p> "x" .\n<{EX}a> <{EX}p> "x" .\n<{EX}b> <{EX}q> <{EX}a> .\n')
    graph = read_static([str(path)])[None]
    assert sorted(graph) == sorted(load_static([str(path)]).default_graph)
    assert list(graph.triples((None, URIRef(f"{EX}q"), None))) == [
        (URIRef(f"{EX}b"), URIRef(f"{EX}q"), URIRef(f"{EX}a"))]


def test_iri_named_file_and_empty_files(tmp_path):
    empty, named = tmp_path / "e.nt", tmp_path / "n.nt"
    empty.write_text("# nothing\n")
    named.write_text(f"<{EX}a> <{EX}p> <{EX}b> .\n")
    graphs = read_static([str(empty), f"{EX}g={named}", f"{EX}h={empty}"])
    assert set(graphs) == {URIRef(f"{EX}g"), URIRef(f"{EX}h")}  # an empty default graph is dropped


# --- errors ---------------------------------------------------------------------------------

def test_a_bad_line_of_a_large_file_is_placed_without_rdflib(tmp_path, monkeypatch):
    path = tmp_path / "big.nt"
    lines = [f"<{EX}s{i}> <{EX}p> <{EX}o{i}> .\n" for i in range(50_000)]
    lines[41_234] = f"<{EX}s> <{EX}p> .\n"
    path.write_text("".join(lines))
    monkeypatch.setattr(staticdata, "load_static", lambda specs: pytest.fail("rdflib read the file"))
    with pytest.raises(ParseError) as caught:
        read_static([str(path)])
    assert str(caught.value).startswith(f"{path}:41235:")
    assert "error: syntax error: not a valid N-Triples line" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_line_only_oxigraph_refuses_is_judged_by_rdflib(tmp_path):
    """A lone surrogate escape: Oxigraph refuses the line, rdflib reads it and the IRI check
    refuses the file as before (tests/badinput/test_text.py pins the message)."""
    path = tmp_path / "d.nt"
    path.write_text(f'<{EX}a> <{EX}q> "x\\uD800" .\n')
    with pytest.raises(ParseError) as caught:
        read_static([str(path)])
    with pytest.raises(ParseError) as before:
        load_static([str(path)])
    assert str(caught.value) == str(before.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(InputError) as caught:
        read_static([str(tmp_path / "none.nt")])
    assert str(caught.value) == f"{tmp_path / 'none.nt'}: error: cannot read the file: No such file or directory"
