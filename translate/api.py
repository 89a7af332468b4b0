"""The façade: one function per stage (STYLE: a thin façade, like sqlglot's ``parse``).

* :func:`parse_query` — query text → :class:`~translate.rsp.RspQuery`;
* :func:`translate` — query → :class:`Translation` (a LARS program with comments, the answer
  predicate, what the data must look like);
* :func:`background_atoms`, :func:`query_background`, :func:`input_atoms`, :func:`lars_stream` —
  RDF data → LARS atoms with the translation's encoder (with
  :func:`translate.background.background_patterns`, only the static triples a program can read); :meth:`Translation.rows` — answer atoms → result rows.

>>> q = parse_query('''PREFIX : <http://ex.org/>
... SELECT ?shop FROM STREAM :s [RANGE 30m STEP 5m] WHERE { ?shop :offers ?c }''', unit="1m")
>>> t = translate(q, "csparql", mode="pull", period_ticks=5)
>>> from lars.printer import print_program
>>> print(print_program(t.program, "ascii"))
ans_1(Shop,default,streams) :- triple(Shop,<http://ex.org/offers>,C,default), trigger.
triple(S,P,O,default) :- [30,0,5] <> striple(S,P,O,<http://ex.org/s>), trigger.
trigger :- [0] @T true, T % 5 = 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from rdflib import URIRef
from rdflib.graph import Dataset, Graph
from rdflib.term import Identifier

from lars.analysis import Signature, check_safety, is_stratified
from lars.atoms import Atom
from lars.deep import deep
from lars.errors import InputError, LarsError, placed
from lars.rules import Program
from lars.streams import Stream, Timeline
from lars.terms import Constant
from translate.documents import refuse_surrogate_escapes
from translate.durations import parse_unit
from translate.engines import engine as engine_profile
from translate.bags import witnessed
from translate.engines import guess_engine
from translate.modifiers import modify
from translate.profiles import EMPTY_GROUP_READINGS
from translate.rdf import (
    DEFAULT_GRAPH, STREAMS, STRIPLE, TRIPLE, RdfTermEncoder, dataset_atoms, graph_atoms,
    stream_atom, stream_contents,
)
from translate.background import BackgroundPatterns
from translate.rsp import RspQuery
from translate.streamrules import answer_arguments
from translate.names import TRIGGER
from translate.triggers import pull_rule, push_rules, with_trigger
from translate.rspwindows import check_reading

MODES = ("none", "push", "pull")


@dataclass(frozen=True)
class AnswerSpec:
    """The answer predicate: ``predicate(variables..., D, S)``.

    Attributes:
        predicate: ``ans_1``.
        variables: SPARQL names of its arguments, in argument order (lexicographic).
        select_order: the same names in SELECT order, for printing rows.
    """

    predicate: str
    variables: tuple[str, ...]
    select_order: tuple[str, ...]

    @property
    def arity(self) -> int:
        return len(self.variables) + 2


@dataclass(frozen=True)
class Translation:
    """A translated query and everything needed to run it and show its answers.

    Attributes:
        program: the LARS program.
        comments: one provenance comment per rule (``node 2: BGP {...}``).
        answer: the answer predicate.
        query: the query that was translated (``cs(Q)`` or a ``cq(Q)`` variant).
        engine, variant, mode, period, window_bounds: the options used.
        dataset, streams: the constants ``D`` (the default graph) and ``S`` in ``ans_i``.
        background: signatures of the background predicates (``triple/4``).
        inputs: signatures of the input predicates (``striple/4``).
        profile: the engine profile it was compiled for (:mod:`translate.reports`), if any.
        report: the predicate that holds where a relation is reported (``trigger`` for push and
            pull, ``report`` for engine profiles).
        t0: where the profile's windows start.
        empty_group: the aggregate reading of an empty group without GROUP BY (``row`` or
            ``none``, :mod:`translate.aggregates`).
    """

    program: Program
    comments: tuple[str, ...]
    answer: AnswerSpec
    query: RspQuery
    engine: str
    variant: str | None = None
    mode: str = "none"
    period: int | None = None
    window_bounds: str = "closed"
    dataset: Constant = DEFAULT_GRAPH
    streams: Constant = STREAMS
    background: frozenset[Signature] = frozenset({(TRIPLE, 4)})
    inputs: frozenset[Signature] = frozenset({(STRIPLE, 4)})
    profile: str | None = None
    report: str = TRIGGER
    t0: int = 0
    empty_group: str = "row"

    def encoder(self) -> RdfTermEncoder:
        """The encoder of the data's RDF terms (:mod:`translate.rdf`)."""
        return RdfTermEncoder()

    def comment_map(self) -> dict[int, str]:
        """The comments by rule index, as :func:`lars.printer.print_program` takes them."""
        return dict(enumerate(self.comments))

    def rows(self, atoms: Iterable[Atom], encoder: RdfTermEncoder,
             chopped: bool = False) -> list[dict[str, Identifier | None]]:
        """The result rows in ``atoms`` (answer atoms, chopped or not), keys in SELECT order,
        with the solution modifiers applied in SPARQL's order (:mod:`translate.modifiers`):
        ORDER BY (also over variables ORDER BY reads and SELECT leaves out), projection,
        DISTINCT, OFFSET and LIMIT."""
        return [row for row, _ in self.solutions(atoms, encoder, chopped)]

    def values(self, atom: Atom, encoder: RdfTermEncoder) -> tuple[Identifier | None, ...]:
        """The values of one answer atom in SELECT order (no solution modifiers: those act on
        a whole time point's answers, :meth:`rows`)."""
        row = dict(zip(self.answer.variables, map(encoder.decode, atom.args)))
        return tuple(row[v] for v in self.answer.select_order)

    def solutions(self, atoms: Iterable[Atom], encoder: RdfTermEncoder,
                  chopped: bool = False) -> list[tuple[dict[str, Identifier | None], Atom]]:
        """:meth:`rows`, each with the answer atom it comes from (so LIMIT and OFFSET can
        select the atoms of a time point too)."""
        names = self.answer.variables
        arity = len(names) + (1 if chopped else 2)
        found = {a.args[: len(names)]: a for a in atoms
                 if a.predicate == self.answer.predicate and len(a.args) == arity}
        table = sorted(((dict(zip(names, map(encoder.decode, args))), atom)
                        for args, atom in found.items()),
                       key=lambda pair: [str(pair[0][v]) for v in names])
        table = modify(table, self.query.order, row=lambda pair: pair[0])
        projected = [({v: row[v] for v in self.answer.select_order}, atom) for row, atom in table]
        if self.query.distinct and len(names) > len(set(self.answer.select_order)):
            first: dict[tuple, tuple] = {}
            for row, atom in projected:
                first.setdefault(tuple(row.items()), (row, atom))
            projected = list(first.values())
        return modify(projected, (), self.query.limit, self.query.offset)


@deep
def parse_query(text: str, source: str = "<string>", engine: str | None = None,
                unit: str = "1s") -> RspQuery:
    """Read a C-SPARQL, CQELS or plain SPARQL query (``engine=None`` guesses from the syntax).

    Runs on a thread with a large stack (:mod:`lars.deep`): rdflib's parser recurses per group.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark, as editors on Windows write it
    refuse_surrogate_escapes(text, source)
    profile = engine_profile(engine or guess_engine(text))
    return profile.read(text, source, parse_unit(unit))


@deep
def translate(query: RspQuery, engine: str | None = None, variant: str = "brave",
              mode: str = "none", period_ticks: int | None = None,
              window_bounds: str = "closed", bags: bool = False,
              empty_group: str = "row") -> Translation:
    """Translate ``query`` for ``engine`` (default: the syntax it was read from).

    Args:
        variant: for CQELS, which query of ``cq(Q)``: ``brave``, ``cautious`` or ``bc``-style.
        mode: ``none`` (the plain program), ``push`` (℘(P)) or ``pull`` (℘(P, U)).
        period_ticks: ``U`` for pull (default: the C-SPARQL ``COMPUTED EVERY``).
        window_bounds: ``closed`` (the paper), ``left-open`` or ``right-open``.
        bags: answer with SPARQL's multisets: :meth:`Translation.rows` repeats a row as often as
            SPARQL has it (``ans_1`` keeps witness variables, :mod:`translate.bags`); by default
            answers are sets, as in the paper.
        empty_group: aggregates without GROUP BY over no solution give one row (``row``:
            SPARQL 1.1, C-SPARQL) or none (``none``); see :mod:`translate.aggregates`.

    Raises:
        InputError: an unknown engine, mode, variant or reading; pull without a period.
        UnsupportedError: a pattern the strategy cannot translate (e.g. STREAM for τ).
    """
    profile = engine_profile(engine or query.engine)
    check_reading(window_bounds)
    if mode not in MODES:
        raise InputError(f"unknown mode '{mode}'", hint="use one of " + ", ".join(MODES))
    prepared = profile.prepare(query, variant)
    if empty_group not in EMPTY_GROUP_READINGS:
        raise InputError(f"unknown empty-group reading '{empty_group}'",
                         hint="use one of " + ", ".join(EMPTY_GROUP_READINGS))
    if bags:
        prepared = witnessed(prepared)
    result = profile.strategy(prepared, window_bounds, empty_group)
    period = period_ticks if period_ticks is not None else query.every
    program, comments = _with_mode(result.program, result.comments, mode, period)
    verify(program)
    select = tuple(v.name for v in query.variables)
    answer = AnswerSpec(result.answer_predicate, answer_arguments(prepared),
                        select)
    return Translation(program, comments, answer, prepared, profile.name,
                       variant if profile.name == "cqels" else None, mode,
                       period if mode == "pull" else None, window_bounds,
                       empty_group=empty_group)


def _with_mode(program: Program, comments: tuple[str, ...], mode: str,
               period: int | None) -> tuple[Program, tuple[str, ...]]:
    """``program`` as it is, ``℘(P)`` or ``℘(P, U)``, with comments for the trigger rules."""
    if mode == "none":
        return program, comments
    if mode == "push":
        extra = [(rule, f"push: input {atom.predicate}/{len(atom.args)} arrived now")
                 for rule in push_rules(program, {(TRIPLE, 4)})
                 for atom in [rule.body[0].formula.atom]]
    elif period is None:
        raise InputError("pull mode needs a period", hint="give --period")
    else:
        extra = [(pull_rule(period), f"pull: evaluate every {period} ticks")]
    triggered = Program(with_trigger(program).rules + tuple(rule for rule, _ in extra))
    return triggered, comments + tuple(comment for _, comment in extra)


def verify(program: Program) -> None:
    """Generated programs are safe and stratified; anything else is a bug of the translation."""
    try:
        check_safety(program)
    except InputError as error:
        raise AssertionError(f"the translation made an unsafe rule: {error}") from None
    if not is_stratified(program):
        raise AssertionError("the translation made a program that is not stratified")


# --- data ---------------------------------------------------------------------------------------

def background_atoms(data: Graph, encoder: RdfTermEncoder) -> frozenset[Atom]:
    """``triple(s,p,o,G)`` atoms of an rdflib Graph (all in ``default``) or Dataset."""
    if isinstance(data, Dataset):
        return frozenset(dataset_atoms(data, encoder))
    return frozenset(graph_atoms(data, encoder))


def query_background(query: RspQuery, graphs: Mapping[URIRef | None, Graph],
                     encoder: RdfTermEncoder, wanted: BackgroundPatterns | None = None) -> frozenset[Atom]:
    """The background of ``query``'s dataset from graphs keyed by IRI (``None``: default graph).

    FROM IRIs are merged into the default graph, FROM NAMED IRIs are named graphs. Without
    dataset clauses, ``graphs[None]`` is the default graph and the other entries named graphs.
    With ``wanted`` (:func:`~translate.background.background_patterns` of the programs that
    will read it), only the atoms those programs can read: the same answers from a fraction of a large graph.
    """
    dataset = query.dataset
    atoms: set[Atom] = set()
    default = dataset.default if (dataset.default or dataset.named) else (None,)
    named = dataset.named if (dataset.default or dataset.named) else tuple(
        k for k in graphs if k is not None)
    for iri in default:
        if iri not in graphs:
            raise InputError(f"no data given for FROM <{iri}>", hint="map it to a file")
        atoms.update(_graph_background(graphs[iri], DEFAULT_GRAPH, encoder, wanted))
    for iri in named:
        if iri not in graphs:
            raise InputError(f"no data given for FROM NAMED <{iri}>", hint="map it to a file")
        atoms.update(_graph_background(graphs[iri], encoder.encode(URIRef(iri)), encoder, wanted))
    return frozenset(atoms)


def _graph_background(graph: Graph, name: Constant, encoder: RdfTermEncoder,
                      wanted: BackgroundPatterns | None) -> Iterator[Atom]:
    """``triple(s,p,o,name)`` for the triples of ``graph`` that ``wanted`` admits (all for
    ``None``), a triple possibly more than once; the predicates are compared first, by IRI,
    before a triple is encoded. ``graph`` is an rdflib graph or has a method
    ``encoded_triples(predicates)`` giving the constants of its triples whose predicate IRI is
    one of ``predicates`` (all for ``None``): :class:`ingest.staticdata.StaticGraph` reads
    files as a stream, without rdflib terms."""
    if wanted is not None and not wanted.reads_graph(name):
        return
    predicates = None if wanted is None else wanted.predicates(name)
    select = getattr(graph, "encoded_triples", None)
    if select is not None:
        triples = select(predicates)
    else:
        found = iter(graph) if predicates is None else (
            t for p in sorted(predicates) for t in graph.triples((None, URIRef(p), None)))
        triples = (tuple(encoder.encode(term) for term in triple) for triple in found)
    for s, p, o in triples:
        atom = Atom(TRIPLE, (s, p, o, name))
        if wanted is None or wanted.admits(atom):
            yield atom


def input_atoms(elements: Iterable, encoder: RdfTermEncoder,
                stream: URIRef | None = None) -> dict[int, list[Atom]]:
    """``{t: striple atoms}`` from ``(triple, t, stream)`` tuples or objects with ``triple``,
    ``time`` and ``stream`` attributes; ``stream`` is used where an element names none.

    The attributes are asked first: a stream element (:class:`ingest.rdffiles.StreamTriple`)
    is a named tuple, of its own field order."""
    current = None

    def normalise(element):
        nonlocal current
        current = element
        triple = getattr(element, "triple", None)
        if triple is None:
            triple, time, name = element
        else:
            time, name = element.time, element.stream
        if name is None and stream is None:
            raise InputError(f"no stream IRI for the triple at time {time}",
                             getattr(element, "position", None),
                             hint="name it on the line, before the timestamp, or give --stream-iri")
        return triple, time, name if name is not None else stream
    try:
        return stream_contents((normalise(e) for e in elements), encoder)
    except LarsError as error:  # e.g. a number clingo cannot hold: say where the triple was read
        raise placed(error, getattr(current, "position", None)) from None


def slice_atoms(elements: Sequence, encoder: RdfTermEncoder) -> list[Atom]:
    """The ``striple`` atoms of one time point's elements (objects with ``triple`` and
    ``stream``), in arrival order: :func:`input_atoms` without its per-element bookkeeping,
    which an element naming no stream or a term that cannot be encoded takes, for its error."""
    if all(element.stream is not None for element in elements):
        try:
            return [stream_atom(element.triple, element.stream, encoder) for element in elements]
        except LarsError:
            pass
    return [atom for atoms in input_atoms(elements, encoder).values() for atom in atoms]


def lars_stream(contents: Mapping[int, Iterable[Atom]], timeline: Timeline | None = None) -> Stream:
    """A LARS stream from ``{t: atoms}``; the timeline defaults to ``[min(0, t), max t]``."""
    if timeline is None:
        points = sorted(contents) or [0]
        timeline = Timeline(min(0, points[0]), points[-1])
    return Stream.from_mapping(timeline, contents)
