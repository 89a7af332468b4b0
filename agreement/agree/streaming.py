"""The computed agreement check, interval by interval over a stream read once (SPEC section 9).

Both translations of a query — C-SPARQL's ``℘(τ1(cs(Q)), U)`` and CQELS's ``℘(τ2(Q'))`` — are
evaluated side by side over one lazy reading and encoding of the stream (:func:`itertools.tee`
of one slice iterator, so both engines take each slice at the same time point). Each side is
solved as its plain program ``P`` and sampled where its trigger holds (the pulls, the time
points with input): ``℘(P)`` adds the literal ``trigger`` to every rule of ``P``, and LARS
applies rules at the reference time only (SPEC section 3), so at a time point where the trigger
holds ``℘(P)`` and ``P`` have the same rules and the same answer. Solving ``P`` lets the solver
skip the time points whose windows did not change, which a trigger that changes at every input
prevents (a third less CPU on CSRBench Q1 replayed to 10^5 triples, the same report). When
the two plain programs are the same rules once the copy rules are unfolded
(:func:`solver.strategies.unfolded`: τ1's copy of the window into the default graph, read by the
same basic graph pattern as τ2's window atoms; CSRBench Q1 is such a query), they have the
same answer stream over the same input and background, so it is solved once and sampled by
both sides. As each pulling interval
``(e - U, e]`` closes, its verdict is made from the C-SPARQL rows at ``e`` and the CQELS rows at
the push time points inside it. :meth:`ComputedCheck.intervals` itself keeps what the engines'
windows hold, the triples the snapshots of the open intervals need
(:class:`agreement.agree.history.StreamHistory`) and the answers of three intervals; a caller that
wants every answer (the report, :func:`agreement.agree.modes.collect_check`) collects them as they come.

Explanations are computed only for intervals that disagree, at most ``max_explanations`` of
them, and one interval late: an answer one engine gave in the interval and the other in the
next (``window-boundary``, ``other-interval``: :func:`agreement.agree.explain.shifted_answers`) needs
the next interval's answers. Answers moved further than a neighbouring interval are not
explained as shifted (the whole answer history would have to be kept), and triples merged
into C-SPARQL's default graph from another stream (condition ii on the stream) are those up to
the time of the latest answers compared (one interval after the one explained), not those that
arrive later, nor those the solver happened to read ahead.
"""

from __future__ import annotations

import copy
import itertools
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from agreement.compare import AnswerSeries, IntervalVerdict, Row, interval_verdict, pull_range
from agreement.agree.arrivals import Arrivals, Merged, WindowReader
from agreement.agree.conditions import MergedTriples, shared_patterns, snapshot_explanations
from agreement.agree.derivation import Derivations
from agreement.answers import values_text
from agreement.agree.explain import Explanation, shifted_answers
from agreement.agree.history import StreamHistory, keep_from
from agreement.agree.termkeys import TermKeys
from ingest.lazy import RdfSlice
from ingest.rdffiles import StreamTriple
from lars.analysis import read_constants, reads_atom
from lars.atoms import Atom
from lars.errors import InputError, LarsError, SolverError
from lars.rules import Program
from lars.streams import Timeline
from solver.answers import TimePointAnswer
from solver.keys import KeyedSlice
from solver.strategies import Prepared, evaluate, unfolded
from translate.api import Translation, query_background, slice_atoms, translate
from translate.background import background_patterns
from translate.rdf import STRIPLE, stream_atom
from translate.rsp import RspQuery

Side = tuple[Program, set[str], frozenset | None]
"""What is solved for a side: ``(program, shown predicates, input signatures)``
(:meth:`ComputedCheck.sides`)."""

Pair = tuple[TimePointAnswer, TimePointAnswer]
"""C-SPARQL's and CQELS's answers at one time point."""

Solve = Callable[[list[Side], Arrivals | None], Iterator[Pair]]
"""``(sides, arrivals) -> pairs``: both sides' answers at every time point of the check's
timeline, in order, computed elsewhere (:func:`agreement.runplan.solve`, a side at a time, or
:mod:`agreement.agree.rangecheck`, both in each range); with ``arrivals``, the workers'
summaries of the input go there (:mod:`agreement.agree.arrivals`)."""


@dataclass(frozen=True)
class Remote:
    """A stream file the driver does not read (``lars agree --partitions``): what the workers
    send back about it, and the file re-read for the window snapshots of the intervals explained
    (:mod:`agreement.agree.arrivals`).

    Attributes:
        span: on a worker that explains the disagreeing intervals of its range
            (:mod:`agreement.agree.rangecheck`), the range: it explains those that end in it,
            with what reads the windows (:meth:`ComputedCheck.witnessed`), and leaves the others
            to their ranges; ``None`` on the driver, which takes the workers' explanations from
            :attr:`Arrivals.explained` (and explains an interval no worker did itself).
    """

    arrivals: Arrivals
    windows: WindowReader
    span: Timeline | None = None

Observer = Callable[[int, int, frozenset[Row] | None, frozenset[Row] | None], None]
"""Called at each time point with input or a pull: ``(t, triples at t, C-SPARQL rows at t (at
pulls, else None), CQELS rows at t (at time points with input, else None))``."""


@dataclass(frozen=True)
class IntervalResult:
    """One pulling interval: its verdict, and the reasons found (``None`` when it agrees or
    was left unexplained by the cap)."""

    verdict: IntervalVerdict
    explanations: list[Explanation] | None = None


@dataclass
class ComputedCheck:
    """Both sides of a query translated, ready to be checked over a stream (:meth:`intervals`).

    Args:
        query: the abstract query, read from CQELS syntax (its stream patterns give ``S``).
        graphs: static graphs by IRI (:func:`ingest.eager.static_graphs`).
        period: ``U`` in ticks.
        timeline: the timeline the slices lie in.
        csparql_query: a separately written C-SPARQL query for its side, if any.
        max_explanations: explain at most this many disagreeing intervals (``None``: all).
    """

    query: RspQuery
    graphs: dict
    period: int
    variant: str = "brave"
    window_bounds: str = "closed"
    timeline: Timeline = Timeline(0, 0)
    csparql_query: RspQuery | None = None
    max_explanations: int | None = None
    explained: int = field(default=0, init=False)
    unexplained: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.csparql = translate(self.csparql_query or self.query, "csparql",
                                 window_bounds=self.window_bounds)  # sampled at the pulls
        self.cqels = translate(self.query, "cqels", variant=self.variant,
                               window_bounds=self.window_bounds)  # sampled where input arrives
        self.prepare()
        self.shared = shared_patterns(self.query, self.graphs)
        self.merged = self.merged_triples()  # condition (ii) on the stream read so far
        self.derivations = Derivations(self.rows_on, self.readable)  # witness sets, checked by evaluation
        self.checkers: dict[str, Prepared] = {}  # by side: its program, prepared for rows_on
        self.reads: dict[str, Callable[[Atom], bool]] = {}  # by side: which input atoms it reads

    def prepare(self) -> None:
        """The encoder, the static data, the variable order and the program both sides may
        share, once both sides are translated."""
        self.encoder = self.csparql.encoder()
        self.term_keys = TermKeys(self.encoder)
        self.background = query_background(self.csparql.query, self.graphs, self.encoder,
                                           background_patterns([self.csparql.program, self.cqels.program]))
        self.variables = self.csparql.answer.select_order
        order = self.cqels.answer.select_order
        if set(order) != set(self.variables):
            raise InputError(f"the two sides have different result variables: "
                             f"{', '.join(self.variables)} and {', '.join(order)}")
        self.cqels_order = tuple(order.index(name) for name in self.variables)
        self.common_program = self.shared_program()
        self.read_predicates = self.predicates_read()

    def merged_triples(self) -> MergedTriples:
        """Condition (ii) on the stream, over the streams C-SPARQL's query reads."""
        return MergedTriples(self.query, [spec.stream for spec in (self.csparql_query or self.query).streams])

    def predicates_read(self) -> frozenset | None:
        """The predicates of the stream triples either side's program can read at all
        (:func:`lars.analysis.read_constants`), as rdflib terms; ``None``: any triple. Each
        program is read with its copy rules unfolded (the same answers, :func:`unfolded`):
        C-SPARQL's copies every stream triple into its default graph, whatever its predicate,
        and the patterns that read the graph have the predicates."""
        found = set()
        for program, shown, inputs in self.sides():
            constants = read_constants(unfolded(program, self.background, shown, inputs), (STRIPLE, 4), 1)
            if constants is None:
                return None
            found.update(self.encoder.decode(constant) for constant in constants)
        return frozenset(found)

    def engine_input(self, elements: Sequence[StreamTriple]) -> Sequence[Atom]:
        """The ``striple`` atoms the sides are solved over at one time point: those of the
        triples whose predicate a side reads (the others change no answer and are not
        encoded; at CSRBench Q1, half the stream), keyed once for both sides (a
        :class:`~solver.keys.KeyedSlice` made from the keys, :mod:`agreement.agree.termkeys`,
        whose index each side's patterns share)."""
        wanted = self.read_predicates
        if wanted is not None:
            elements = [e for e in elements if e.triple[1] in wanted]
        if not elements:
            return []
        keys = self.term_keys.slice_keys(elements)  # the atoms' keys, the atoms not made
        if keys is not None:
            return KeyedSlice.from_keys((STRIPLE, 4), keys)
        return KeyedSlice(slice_atoms(elements, self.encoder))

    def for_worker(self) -> ComputedCheck:
        """A copy to ship to the workers that explain their ranges
        (:mod:`agreement.agree.rangecheck`): nothing read, found or counted yet, and no static
        graphs (the workers evaluate the background translated from them). Its memories of
        prepared programs and of what they read are its own: shared with this check, they
        would fill with the driver's (closures, which a worker process cannot be sent)."""
        worker = copy.copy(self)
        worker.graphs = {}
        worker.checkers, worker.reads = {}, {}
        worker.merged = worker.merged_triples()
        worker.derivations = Derivations(worker.rows_on, worker.readable)
        worker.explained = worker.unexplained = 0
        return worker

    def shared_program(self) -> Program | None:
        """The program both sides solve, when their programs are the same set of rules with
        their copy rules unfolded (and the same answer predicate and input); else ``None``."""
        csparql, cqels = self.csparql, self.cqels
        if (csparql.answer.predicate != cqels.answer.predicate or csparql.inputs != cqels.inputs
                or self.shown(csparql) != self.shown(cqels)):
            return None
        programs = [unfolded(side.program, self.background, self.shown(side), side.inputs)
                    for side in (csparql, cqels)]
        same = set(programs[0].rules) == set(programs[1].rules)
        return programs[0] if same else None

    half_open = False
    """Whether an interval's pushes are those of ``[start, end)`` (SPEC section 12), not ``(start, end]``."""

    def pulls(self, answer: TimePointAnswer) -> bool:
        """Whether the pulling side reports at this answer's time point: at the multiples of ``U``."""
        return answer.time % self.period == 0

    def pushes(self, answer: TimePointAnswer, inputs: bool) -> bool:
        """Whether the pushing side reports at this answer's time point: where input arrived."""
        return inputs

    def observed(self, elements: Sequence[StreamTriple]) -> None:
        """Look at the triples of one time point as they are read (condition (ii) on the stream)."""
        self.merged.add(elements)

    def notes(self) -> list[str]:
        """What the report says about how it was computed (complete after :meth:`intervals`)."""
        return [f"CQELS variant: {self.variant}", f"window bounds: {self.window_bounds}",
                *self.cap_note()]

    def cap_note(self) -> list[str]:
        """How many disagreeing intervals were explained, if ``max_explanations`` left some out."""
        if not self.unexplained:
            return []
        total = self.explained + self.unexplained
        return [(f"explained the first {self.explained} of {total} disagreeing intervals "
                 "(--max-explanations)")]

    def rows(self, side: Translation, answer: TimePointAnswer) -> frozenset[Row]:
        """The rows of one side's answer at its time point, in C-SPARQL's variable order."""
        if len(answer.streams) != 1:
            raise SolverError(f"the {side.engine} translation has {len(answer.streams)} answer "
                              f"streams at {answer.time}; translated programs must have exactly one")
        atoms = [atom for atom, time in answer.streams[0] if time == answer.time]
        if not atoms:
            return frozenset()
        select = side.answer.select_order
        rows = (tuple(row[v] for v in select) for row in side.rows(atoms, self.encoder))
        if side is self.cqels and self.cqels_order != tuple(range(len(select))):
            rows = (tuple(row[i] for i in self.cqels_order) for row in rows)
        return frozenset(rows)

    def rows_on(self, side: str, elements: Sequence[StreamTriple], t: int) -> frozenset[Row]:
        """The rows ``side``'s program (``csparql`` or ``cqels``) gives at ``t`` when its stream
        input is ``elements`` alone (in time and arrival order), with the static data: how a
        witness set is checked (:mod:`agreement.agree.derivation`)."""
        translation = self.csparql if side == "csparql" else self.cqels
        if side not in self.checkers:  # the program analysed once for all the checks
            self.checkers[side] = Prepared(translation.program, self.background,
                                           shown=self.shown(translation), inputs=translation.inputs)
        slices = [(time, slice_atoms(list(group), self.encoder))
                  for time, group in itertools.groupby(elements, key=lambda e: e.time)]
        if t < self.timeline.start:
            return frozenset()
        return self.rows(translation, self.checkers[side].answer_at_end(slices, Timeline(self.timeline.start, t)))

    def readable(self, side: str, elements: Sequence[StreamTriple]) -> list[bool]:
        """For each of ``elements``, whether ``side``'s program (``csparql`` or ``cqels``) can
        read it at all (:func:`lars.analysis.reads_atom`): where witness sets start from
        (:mod:`agreement.agree.derivation`)."""
        if side not in self.reads:
            translation = self.csparql if side == "csparql" else self.cqels
            self.reads[side] = reads_atom(translation.program, (STRIPLE, 4), self.shown(translation))
        reads, encoder = self.reads[side], self.encoder

        def read(element: StreamTriple) -> bool:
            if element.stream is None:
                return True  # no atom to test: kept, the evaluation decides
            try:
                return reads(stream_atom(element.triple, element.stream, encoder))
            except LarsError:
                return True
        return [read(element) for element in elements]

    def sides(self) -> list[Side]:
        """What is solved, as ``(program, shown predicates, input signatures)``: the program
        both sides share (:meth:`shared_program`), or C-SPARQL's and CQELS's in that order."""
        if self.common_program is not None:
            return [(self.common_program, self.shown(self.csparql), self.csparql.inputs)]
        return [(side.program, self.shown(side), side.inputs) for side in (self.csparql, self.cqels)]

    def intervals(self, slices: Iterator[RdfSlice] | None, observe: Observer | None = None,
                  solve: Solve | None = None, remote: Remote | None = None) -> Iterator[IntervalResult]:
        """The result of every pulling interval of the timeline, in time order, computed as
        ``slices`` (``(t, stream triples)`` ascending, inside the timeline) are read.

        The sides are solved over ``slices`` here, or by ``solve`` (``lars agree --partitions``:
        range by range, in workers that read the stream themselves); ``slices`` are then read
        in step with its answers, for the history the explanations need, and the verdicts and
        explanations are those of the sides solved here. With ``remote`` (and ``solve``), no
        slice is read: the workers' summaries stand in for them, and the few triples an
        explanation needs are re-read from the file (:class:`Remote`)."""
        line, period = self.timeline, self.period
        history = StreamHistory()
        latest: dict[int, int] = {}  # remote: the triples at the latest time point with input

        def came(t: int, count: int, merged: list[Merged]) -> None:
            latest.clear()
            latest[t] = count
            for key, met, first in merged:
                self.merged.count(key, met, first)

        def triples_at(t: int) -> int:
            return latest.get(t, 0) if remote is not None else history.count_at(t)

        unseen: deque[tuple[int, Sequence[StreamTriple]]] = deque()  # read, not yet looked at

        def read(t: int, elements: Sequence[StreamTriple]) -> None:
            history.add(t, elements)
            unseen.append((t, elements))

        def seen(upto: int | None) -> None:
            """Look at the triples read up to ``upto`` (``None``: all): what condition (ii) on
            the stream knows when the answers up to ``upto`` are compared, however far ahead
            the solver read (its look-ahead over idle time points must not change a report)."""
            while unseen and (upto is None or unseen[0][0] <= upto):
                self.observed(unseen.popleft()[1])

        def fed() -> Iterator[tuple[int, list]]:
            for t, elements in slices:
                read(t, elements)
                yield t, self.engine_input(elements)

        sides = self.sides()
        if solve is None:
            answers = [evaluate(program, fed_in, line, self.background, shown=shown, inputs=inputs)
                       for (program, shown, inputs), fed_in in zip(sides, itertools.tee(fed(), len(sides)))]
            sampled = paired(answers)
        else:
            sampled = solve(sides, None if remote is None else remote.arrivals)
        if remote is not None:
            sampled = arriving(sampled, remote.arrivals, came)
        elif solve is not None:
            sampled = in_step(sampled, slices, read)
        ends = pull_range(period, (line.start, line.end))
        shift = int(self.half_open)
        pulled: dict[int, frozenset[Row]] = {}
        pushed: dict[int, frozenset[Row]] = {}
        waiting: IntervalVerdict | None = None  # closed, to be explained once the next one is
        for cs_answer, cq_answer in sampled:
            t = cs_answer.time
            seen(t)
            is_pull = self.pulls(cs_answer)
            is_push = self.pushes(cq_answer, bool(triples_at(t)))
            if is_pull:
                pulled[t] = self.rows(self.csparql, cs_answer)
            if is_push:
                pushed[t] = self.rows(self.cqels, cq_answer)
            if observe is not None and (is_pull or is_push):
                observe(t, triples_at(t), pulled.get(t) if is_pull else None,
                        pushed.get(t) if is_push else None)
            if t not in ends:
                continue
            verdict = interval_verdict(t, period, pulled.get(t, frozenset()),
                                       ((s, pushed[s]) for s in sorted(pushed)
                                        if t - period - shift < s <= t - shift), self.half_open)
            if waiting is not None:
                yield self.result(waiting, self.windows(remote, history, waiting, t), pulled, pushed,
                                  remote)
            waiting = verdict
            self.forget(waiting.start, history, pulled, pushed)
        seen(None)
        if waiting is not None:
            yield self.result(waiting, self.windows(remote, history, waiting, None), pulled, pushed,
                              remote)

    def windows(self, remote: Remote | None, history: StreamHistory, verdict: IntervalVerdict,
                upto: int | None) -> Callable[[], StreamHistory]:
        """The triples the explanation of ``verdict`` may read, once the answers up to ``upto``
        (``None``: all) are in: ``history``, or with ``remote`` those the driver that reads
        the stream would hold then, re-read from the file (from where the interval's windows
        begin, :func:`keep_from`)."""
        if remote is None:
            return lambda: history
        start = self.keep_from(history, verdict.start)
        return lambda: remote.windows.history(start, upto)

    def keep_from(self, history: StreamHistory, start: int) -> int:
        """:func:`keep_from` over the windows of both queries: the pull reads the C-SPARQL
        query's, which may reach further back than CQELS's."""
        return min(keep_from(query, history, start, self.timeline, self.window_bounds)
                   for query in (self.query, self.csparql_query) if query is not None)

    def shown(self, side: Translation) -> set[str]:
        """The predicates the solver keeps of one side's answers."""
        return {side.answer.predicate}

    def forget(self, start: int, history: StreamHistory, pulled: dict, pushed: dict) -> None:
        """Drop what the interval beginning at ``start`` and the later ones no longer need: the
        answers before the previous interval, the triples its snapshots cannot select."""
        history.prune(self.keep_from(history, start))
        oldest = start - self.period - int(self.half_open)  # the previous interval begins after it
        for answers in (pulled, pushed):
            for s in [s for s in answers if s <= oldest]:
                del answers[s]

    def result(self, verdict: IntervalVerdict, history: Callable[[], StreamHistory], pulled: dict,
               pushed: dict, remote: Remote | None = None) -> IntervalResult:
        """The interval's result, explained if it disagrees and the cap allows (``history``
        gives the triples its explanation reads); on a worker (``remote.span``), only the
        intervals of its range are explained, with what reads their windows."""
        if verdict.agree:
            return IntervalResult(verdict)
        worker = remote is not None and remote.span is not None
        if worker and verdict.end not in remote.span:
            return IntervalResult(verdict)  # a neighbouring range's
        if self.max_explanations is not None and self.explained >= self.max_explanations:
            self.unexplained += 1
            return IntervalResult(verdict)
        self.explained += 1
        if worker:
            return IntervalResult(verdict, self.witnessed(verdict, history(), pulled, pushed))
        found = None if remote is None else remote.arrivals.explained.pop(verdict.end, None)
        return IntervalResult(verdict, self.explain(verdict, history, pulled, pushed, found))

    def explain(self, verdict: IntervalVerdict, history: Callable[[], StreamHistory], pulled: dict,
                pushed: dict, found: list[Explanation] | None = None) -> list[Explanation]:
        """The reasons found for a disagreeing interval: the paper's conditions (ii) and (iii),
        and answers shifted to a neighbouring interval (``found``: what a worker found in the
        interval's windows, :meth:`witnessed`, else computed here from ``history()``)."""
        if found is None:
            found = self.witnessed(verdict, history(), pulled, pushed)
        return self.shared + self.merged.explanations() + found

    def witnessed(self, verdict: IntervalVerdict, history: StreamHistory, pulled: dict,
                  pushed: dict) -> list[Explanation]:
        """The reasons found for a disagreeing interval in its windows and answers: condition
        (iii) and answers shifted to a neighbouring interval (:meth:`explain` puts condition (ii)
        before them, static data and the stream read so far, which a worker does not know)."""
        csparql = AnswerSeries(self.variables, pulled)
        cqels = AnswerSeries(self.variables, pushed)
        self.derivations.found.clear()  # witness sets of earlier intervals' windows: not asked again
        return (snapshot_explanations(verdict, self.query, self.derivations, history,
                                      self.timeline, self.window_bounds, self.csparql_query)
                + shifted_answers(verdict, csparql, cqels, self.period, values_text))


def paired(answers: Sequence[Iterator[TimePointAnswer]]) -> Iterator[Pair]:
    """The sides' answers as pairs: two sides zipped, one (the program both share) given twice."""
    return zip(*answers) if len(answers) == 2 else ((answer, answer) for answer in answers[0])


def in_step(sampled: Iterator[tuple[TimePointAnswer, TimePointAnswer]], slices: Iterator[RdfSlice],
            read: Callable[[int, Sequence[StreamTriple]], None]
            ) -> Iterator[tuple[TimePointAnswer, TimePointAnswer]]:
    """``sampled`` (answers computed without ``slices``), each pair given once the slices up to
    its time point are ``read`` and none later: the reading the same as when the answers are
    solved over ``slices`` (:meth:`ComputedCheck.intervals`)."""
    slices = iter(slices)
    pending = next(slices, None)
    for pair in sampled:
        while pending is not None and pending[0] <= pair[0].time:
            read(*pending)
            pending = next(slices, None)
        yield pair
    while pending is not None:
        read(*pending)
        pending = next(slices, None)


def arriving(sampled: Iterator[tuple[TimePointAnswer, TimePointAnswer]], arrivals: Arrivals,
             came: Callable[[int, int, list[Merged]], None]
             ) -> Iterator[tuple[TimePointAnswer, TimePointAnswer]]:
    """``sampled``, each pair given once the workers' summaries of the time points up to its
    time (and none later) have ``came``: :func:`in_step` for a stream the driver does not read."""
    for pair in sampled:
        for arrival in arrivals.upto(pair[0].time):
            came(*arrival)
        yield pair
    for arrival in arrivals.upto(None):
        came(*arrival)
    arrivals.finish()
