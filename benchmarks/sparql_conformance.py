"""The tool as a SPARQL engine on the W3C SPARQL 1.1 query-evaluation tests, next to rdflib.

Every ``mf:QueryEvaluationTest`` of the suite whose result is a SELECT or ASK result
(``.srx``, ``.srj``, ``.csv``, ``.tsv``, or the RDF result-set vocabulary) or a CONSTRUCT graph
(``.ttl``, ``.rdf``, compared up to blank node renaming) and that needs no entailment regime is
run twice over
its static data (``qt:data`` into the default graph, ``qt:graphData`` as named graphs named by
their file IRI): through ``lars run`` (:func:`agreement.prepare_run` with SPARQL's
multisets, ``bags=True``, as ``lars run --format sparql-json`` does; one time point, the rows of
``ans_1``) and through rdflib's own engine. Both are compared with the expected result,
read with rdflib's result parsers: rows as multisets, blank nodes up to renaming (an rdflib
graph isomorphism), order only where the query has ORDER BY (the ORDER BY variables, row by
row). Terms compare exactly as written (rdflib's literal normalisation is off, as in the tool:
``"01"^^xsd:integer`` is not ``"1"^^xsd:integer``), except for the two spellings RDF 1.1 makes
one term (``"a"^^xsd:string`` and ``"a"``; a language tag in any case). The suite itself is not
part of this repository; fetch it and give its folder:

    git clone --depth 1 https://github.com/w3c/rdf-tests /tmp/rdf-tests
    .venv/bin/python benchmarks/sparql_conformance.py /tmp/rdf-tests/sparql/sparql11

For each category (folder) it prints how many cases we pass, answer with the right values but
a number or boolean written in another lexical form than the expected result (``value``: the
form of a computed number is not fixed by SPARQL, and the suite's own files are not consistent,
e.g. ``"2100"^^xsd:double`` next to ``"3.21E4"^^xsd:double``; a data term we rewrote would land
here too), refuse with a message (an error of ours: unsupported construct, data the encoding
cannot hold), answer WRONG, answer with the right rows but other multiplicities (``dup``), or
fail with an internal error; and how many rdflib passes, and answers by ``value`` (rdflib run
as its users run it, normalising literals). The SPARQL 1.0 suite (``sparql/sparql10``, results
in ``.srx`` or in the RDF result-set vocabulary) runs the same way. ``--verbose`` lists every
case that is not a pass, with the first line of its message.
"""

from __future__ import annotations

import argparse
import collections
import logging
import signal
import sys
import traceback
import warnings
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import rdflib
import rdflib.plugins.sparql
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, XSD
from rdflib.query import Result

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agreement import prepare_run  # noqa: E402
from lars.errors import LarsError  # noqa: E402
from translate.results import construct_triples  # noqa: E402
from translate.xsdvalues import canonical, numeric  # noqa: E402

MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
QT = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-query#")
SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
ENT = Namespace("http://www.w3.org/ns/entailment/")
RESULT_FORMATS = {".srx": "xml", ".srj": "json", ".csv": "csv", ".tsv": "tsv", ".ttl": "rs",
                  ".rdf": "rs"}
RS = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/result-set#")
TIMEOUT = 20
OUTCOMES = ("pass", "value", "refused", "WRONG", "dup", "error")


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def cases(suite: Path):
    """``(category, name, query, data files, graph files, result file)`` of each case."""
    for manifest in sorted(suite.glob("*/manifest.ttl")):
        graph = Graph()
        graph.parse(manifest, format="turtle", publicID=manifest.resolve().as_uri())
        entries = graph.value(predicate=RDF.type, object=MF.Manifest)
        listed = graph.value(entries, MF.entries)
        for test in Collection(graph, listed) if listed is not None else []:
            if (test, RDF.type, MF.QueryEvaluationTest) not in graph:
                continue
            action, result = graph.value(test, MF.action), graph.value(test, MF.result)
            if result is None or Path(_path(result)).suffix not in RESULT_FORMATS:
                continue
            if graph.value(action, SD.entailmentRegime) is not None or \
                    graph.value(action, URIRef(SD + "EntailmentRegime")) is not None:
                continue
            query = graph.value(action, QT.query)
            data = [_path(d) for d in graph.objects(action, QT.data)]
            named = [_path(d) for d in graph.objects(action, QT.graphData)]
            name = str(graph.value(test, MF.name) or test)
            yield manifest.parent.name, name, _path(query), data, named, _path(result)


def _path(iri) -> str:
    return url2pathname(urlparse(str(iri)).path) if str(iri).startswith("file:") else str(iri)


def expected(result_file: str) -> tuple[str, object]:
    """``("ask", bool)`` or ``("select", rows)`` of an expected result file."""
    fmt = RESULT_FORMATS[Path(result_file).suffix]
    if fmt == "rs" and "ResultSet" not in Path(result_file).read_text(encoding="utf-8",
                                                                         errors="replace"):
        graph = Graph()
        graph.parse(result_file, format="turtle" if result_file.endswith(".ttl") else "xml")
        return "construct", graph
    if fmt == "rs":
        return result_set_rows(result_file)
    with open(result_file, "rb") as handle:
        return as_rows(Result.parse(handle, format=fmt))


def result_set_rows(result_file: str) -> tuple[str, object]:
    """A result set written in RDF with the DAWG result-set vocabulary (SPARQL 1.0 tests);
    solutions with ``rs:index`` come in that order."""
    graph = Graph()
    graph.parse(result_file, format="turtle" if result_file.endswith(".ttl") else "xml")
    results = graph.value(predicate=RDF.type, object=RS.ResultSet)
    boolean = graph.value(results, RS.boolean)
    if boolean is not None:
        return "ask", bool(boolean.toPython())
    solutions = sorted(graph.objects(results, RS.solution),
                       key=lambda s: int(graph.value(s, RS["index"]) or 0))
    rows = [_bound({str(graph.value(b, RS.variable)): graph.value(b, RS.value)
                    for b in graph.objects(solution, RS.binding)}) for solution in solutions]
    return "select", rows


def rows_graph(rows: list[dict]) -> Graph:
    """Rows as a graph (one blank node per row), so isomorphism compares them up to blank
    node renaming, as multisets."""
    graph = Graph()
    for row in rows:
        node = BNode()
        graph.add((node, RDF.type, URIRef("urn:row")))
        for name, value in row.items():
            if value is not None:
                graph.add((node, URIRef(f"urn:var:{name}"), value))
    return graph


def same(ours: list[dict], wanted: list[dict], order: list[str]) -> bool:
    if len(ours) != len(wanted) or not isomorphic(rows_graph(ours), rows_graph(wanted)):
        return False
    for mine, theirs in zip(ours, wanted):
        for name in order:
            a, b = mine.get(name), theirs.get(name)
            if not (isinstance(a, BNode) and isinstance(b, BNode)) and a != b:
                return False
    return True


def as_rows(result: Result) -> tuple[str, object]:
    if result.type == "CONSTRUCT":
        return "construct", result.graph
    if result.type == "ASK":
        return "ask", bool(result.askAnswer)
    return "select", [_bound({str(k): v for k, v in binding.items()})
                      for binding in result.bindings]


def judge(kind: str, got, want_kind: str, want, order: list[str], reduced: bool = False) -> str:
    if kind != want_kind:
        return "WRONG"
    if kind == "construct":
        return "pass" if isomorphic(got, want) else "WRONG"
    if kind == "ask":
        return "pass" if got == want else "WRONG"
    for outcome, view in (("pass", list), ("value", _by_value)):
        mine, theirs = view(got), view(want)
        if same(mine, theirs, order):
            return outcome
        if same(_distinct(mine), _distinct(theirs), []):
            return outcome if reduced else "dup"  # REDUCED may drop any duplicates
    return "WRONG"


def _by_value(rows: list[dict]) -> list[dict]:
    """The rows with each valid number and boolean in the canonical form of its datatype, so
    that rows differing only in how a number is written compare equal (outcome ``value``)."""
    return [{k: _canonical_term(v) for k, v in row.items()} for row in rows]


def _canonical_term(term):
    if isinstance(term, Literal) and term.datatype == XSD.boolean and not term.ill_typed:
        return Literal(bool(term.value))
    value = numeric(term)
    return term if value is None else canonical(value, term.datatype)


def _distinct(rows: list[dict]) -> list[dict]:
    return [dict(r) for r in {frozenset(_bound(row).items()) for row in rows}]


def _bound(row: dict) -> dict:
    """The bound variables of a row, each term in the one spelling RDF 1.1 gives it:
    ``"a"^^xsd:string`` is ``"a"``, and a language tag is in lower case (RDF 1.1 Concepts 3.3
    permits converting tags to lower case; the suite itself treats ``"a"@EN`` and ``"a"@en`` as
    one term, ``dawg-lang-3``). Every other difference of lexical form counts."""
    return {k: _term(v) for k, v in row.items() if v is not None}


def _term(term):
    if not isinstance(term, Literal):
        return term
    if term.datatype == XSD.string:
        return Literal(str(term))
    if term.language is not None:
        return Literal(str(term), lang=term.language.lower())
    return term


def ours(query: str, data: list[str], named: list[str]) -> tuple[str, object, list[str]]:
    specs = list(data) + [f"{Path(f).resolve().as_uri()}={f}" for f in named]
    plan = prepare_run(Path(query), static=specs, engine="sparql", bags=True)
    t = plan.translation
    # unsliced: the rows below take ORDER BY, OFFSET and LIMIT, as `lars run --format` does
    answer = next(iter(plan.answers(sliced=False)))
    atoms = [atom for stream in answer.streams[:1] for atom, _ in stream]
    rows = t.rows(atoms, plan.encoder, chopped=True)
    order = [key.variable.name for key in t.query.order]
    if t.query.form == "ask":
        return "ask", bool(rows), order
    if t.query.form == "construct":
        graph = Graph()
        for triple in construct_triples(rows, t.query.template):
            graph.add(triple)
        return "construct", graph, order
    return "select", [_bound(r) for r in rows], order


def theirs(query: str, data: list[str], named: list[str]) -> tuple[str, object]:
    dataset = rdflib.Dataset()
    for f in data:
        dataset.default_graph.parse(f, format=rdflib.util.guess_format(f) or "turtle")
    for f in named:
        dataset.graph(URIRef(Path(f).resolve().as_uri())).parse(
            f, format=rdflib.util.guess_format(f) or "turtle")
    text = Path(query).read_text(encoding="utf-8")
    result = dataset.query(text, base=Path(query).resolve().as_uri())
    return as_rows(result)


def is_reduced(query: str) -> bool:
    """Whether the query is SELECT REDUCED (the token after SELECT)."""
    words = Path(query).read_text(encoding="utf-8").upper().split()
    return any(a == "SELECT" and b == "REDUCED" for a, b in zip(words, words[1:]))


def timed(function, *args):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        return function(*args)
    finally:
        signal.alarm(0)


def main(argv=None) -> int:
    logging.disable(logging.CRITICAL)  # rdflib logs every ill-typed literal of the suite
    warnings.simplefilter("ignore")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", type=Path, help="the sparql/sparql11 folder of w3c/rdf-tests")
    parser.add_argument("--verbose", action="store_true", help="list every case not passed")
    parser.add_argument("--only", help="run only categories whose name contains this")
    args = parser.parse_args(argv)
    table: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    lines = []
    for category, name, query, data, named, result in cases(args.suite):
        if args.only and args.only not in category:
            continue
        want_kind, want = expected(result)
        message = ""
        try:
            kind, got, order = timed(ours, query, data, named)
            outcome = judge(kind, got, want_kind, want, order, is_reduced(query))
            if outcome != "pass":
                message = f"got {got!r:.300} want {want!r:.300}"
        except LarsError as error:
            outcome, message = "refused", str(error).splitlines()[0]
        except Timeout:
            outcome, message = "error", f"timeout after {TIMEOUT}s"
        except Exception as error:  # noqa: BLE001 - a case's crash is a finding
            outcome = "error"
            message = f"{error!r}: {traceback.format_exc().splitlines()[-3].strip()}"
        table[category][outcome] += 1
        try:
            rdflib.plugins.sparql.SPARQL_LOAD_GRAPHS = True
            rdflib.NORMALIZE_LITERALS = True  # rdflib as its users run it
            kind, got = timed(theirs, query, data, named)
            rdflib_outcome = judge(kind, got, want_kind, want, [])
        except Exception:  # noqa: BLE001
            rdflib_outcome = "error"
        finally:
            rdflib.plugins.sparql.SPARQL_LOAD_GRAPHS = False
            rdflib.NORMALIZE_LITERALS = False
        table[category]["rdflib"] += rdflib_outcome == "pass"
        table[category]["rdflib_value"] += rdflib_outcome == "value"
        table[category]["cases"] += 1
        if outcome != "pass":
            lines.append(f"{outcome:8} {category}/{Path(query).name} ({name}): {message}")
    if args.verbose:
        print("\n".join(lines))
    columns = OUTCOMES + ("rdflib", "rdflib_value")
    print(f"{'category':22} {'cases':>5} " + " ".join(f"{o:>7}" for o in columns))
    total: collections.Counter = collections.Counter()
    for category in sorted(table):
        counts = table[category]
        total.update(counts)
        print(f"{category:22} {counts['cases']:>5} " + " ".join(
            f"{counts[o]:>7}" for o in columns))
    print(f"{'total':22} {total['cases']:>5} " + " ".join(f"{total[o]:>7}" for o in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
