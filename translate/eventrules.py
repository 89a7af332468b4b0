"""RSEP-QL event patterns → LARS (paper 001 sections 4.2–4.4; the design is ``docs/events.md``).

Every node ``i`` of the event pattern (root 1, children ``2i`` and ``2i+1``, a lone child ``2i``)
yields ``ev_i([H,] V̄, T1, T2, E)``: the event mappings ``(μ, t1, t2)`` of the node at evaluation
time ``E``, ``V̄`` the node's variables in lexicographic order. Times are obtained through
``@`` over the window, so an atom carries its justification:

* ``EVENT w P`` (4): ``ev_i(V̄,T,T,E) ← ⊞ @_T striple(s,p,o,S), …, now(E)`` with ``⊞`` the window of
  ``w``: ``W^τ(α,β)`` is ``⊞^{α−1,0,β}`` (the paper's ``(t'−α, t']``), ``W^λ(t0)`` is
  ``⊞^∞`` with ``T ≥ t0``, ``W^id`` is ``⊞^∞``; all triples of ``P`` at the same ``T``.
* ``E1 SEQ E2`` (7): ``ev_i(…,T1,T4,E) ← ev_{2i+1}(…,T3,T4,E), ev_{2i}(…,T1,T2,E), T2 < T3`` —
  the restricted window ``W^⊔[0, t3−1] • W`` is the comparison, the substitution ``μ2(E1)``
  the shared variables.
* ``FIRST``/``LAST`` (5, 6): the events that no event of the operand precedes / follows, through
  ``not`` over a helper ``early_i``/``late_i``; ``≺`` is ``t2 < t3``.
* ``SEQ^n`` (9) is ``LAST E1`` and ``LAST E2`` joined with ``T2 < T3``; ``SEQ^c`` (10) and
  ``SEQ^r`` (11) pick, per value of the shared variables, the first (last) ``E2`` event that
  has a match of ``μ2(E1)`` before it (``cand_i``, ``beaten_i``, ``sel_i``), joined with
  ``FIRST μ2(E1)`` (``LAST μ2(E1)``).

The policies are first rewritten into a few node kinds (:mod:`translate.eventtree`).
Below a selection, the substitution ``μ2(E1)`` and the window bound ``t3−1`` change which events
are first or last, so such a node is evaluated per *context*: ``ctx_i(K̄, H, E)`` lists the
values of the substituted variables ``K̄`` and the bound ``H`` it is needed for (demand atoms
derived by its parent), and ``ev_i`` carries ``H``. Nodes without a selection below them need no
context: their events in a context are the context-free ones that agree on ``K̄`` and end by
``H``.

Consumption (``P^c``, ``P^r``, section 4.4) needs state across evaluation times, and the
project's LARS keeps none (rules fire at the reference time only). So the state is *re-derived*
at every reference time from the input history: every atom carries its evaluation time ``E``,
``eval_time(E)`` lists the evaluation times so far, ``used_i`` marks the events behind an
answer at ``E``, ``consumed(w,s,p,o,T,E)`` the input they read through window ``w``, and a
basic pattern at ``E`` skips input ``gone`` at an earlier evaluation time. The program is then
not stratified (``ev`` at ``E`` depends negatively on ``ev`` at earlier ``E0``) but locally
stratified by ``E``, so it has exactly one answer stream. Windows at earlier evaluation times
are computed from ``⊞^∞ @_T`` and arithmetic on ``E``.

>>> from translate.eventreader import read_event_query
>>> q = read_event_query('''PREFIX : <http://ex.org/> SELECT ?x ?z
... FROM NAMED :S WIN [RANGE 5] AS :w EVENT ON :w { ?x :p ?y } AS A
... EVENT ON :w { ?y :q ?z } AS B WHERE { MATCH { A SEQ B } }''')
>>> from lars.printer import print_program
>>> t = translate_events(q, evaluation=Evaluation("at", (8,)))
>>> print(print_program(t.program, "ascii"))
ev_1(X,Y,Z,_T1,_T4,_E) :- ev_3(Y,Z,_T3,_T4,_E), ev_2(X,Y,_T1,_T2,_E), _T2 < _T3.
ev_2(X,Y,_T,_T,_E) :- [4] @ _T striple(X,<http://ex.org/p>,Y,<http://ex.org/S>), now(_E).
ev_3(Y,Z,_T,_T,_E) :- [4] @ _T striple(Y,<http://ex.org/q>,Z,<http://ex.org/S>), now(_E).
eval_time(8) :- [0] @8 true.
now(_E) :- [0] @ _E true, eval_time(_E).
match(X,Z,_T1,_T2) :- ev_1(X,Y,Z,_T1,_T2,_E), now(_E).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lars.atoms import TRUE_PREDICATE, Atom, Comparison
from lars.errors import InputError
from lars.formulas import At, WindowAtom
from lars.rules import Literal, Program, Rule
from lars.terms import BinaryOp, Number, Term, Variable
from lars.windows import NOW, UNBOUNDED, TimeWindow
from translate.eventprofiles import EventProfile, event_profile
from translate.events import EventQuery, LandmarkWindow, with_selection
from translate.eventtree import Node, build
from translate.names import internal_variable, lars_variable
from translate.rdf import STRIPLE, RdfTermEncoder
from translate.rsp import RangeWindow, Var
from translate.sparqltext import Names, term_text

ANSWER = "match"
E, H, L, T = (internal_variable(s) for s in ("E", "H", "L", "T"))
T1, T2, T3, T4 = (internal_variable("T", k) for k in range(1, 5))
S1, S2, S3, S4 = (internal_variable("S", k) for k in range(1, 5))
EVALUATIONS = ("at", "push", "pull")


@dataclass(frozen=True)
class Evaluation:
    """The evaluation times ``ET``: ``at`` given ``times``, ``push`` (every time point with
    input on the query's streams) or ``pull`` (the multiples of ``period``)."""

    kind: str
    times: tuple[int, ...] = ()
    period: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in EVALUATIONS:
            raise InputError(f"unknown evaluation '{self.kind}'", hint="use at, push or pull")
        if self.kind == "pull" and (self.period is None or self.period < 1):
            raise InputError("pull evaluation needs a period of at least one tick")
        if self.kind == "at" and not self.times:
            raise InputError("give the evaluation times (--at 8,10)")

    def describe(self) -> str:
        return {"at": f"at {', '.join(map(str, self.times))}", "push": "when input arrives",
                "pull": f"every {self.period} ticks"}[self.kind]


@dataclass(frozen=True)
class EventTranslation:
    """An event query as a LARS program, with what is needed to run it and read its answers.

    Answers are ``match(v1, …, vn, T1, T2)`` at the evaluation times: the SELECT variables in
    SELECT order and the interval ``[T1, T2]`` of input that justifies the event.
    """

    program: Program
    comments: tuple[str, ...]
    query: EventQuery
    profile: EventProfile
    evaluation: Evaluation
    variables: tuple[str, ...]
    predicate: str = ANSWER

    def encoder(self) -> RdfTermEncoder:
        return RdfTermEncoder()

    def comment_map(self) -> dict[int, str]:
        return dict(enumerate(self.comments))


# --- rules ---------------------------------------------------------------------------------------

def var(name: str) -> Variable:
    return lars_variable(name)


def lit(formula, negated: bool = False) -> Literal:
    return formula if isinstance(formula, Literal) else Literal(formula, negated)


def cmp(op: str, left: Term, right: Term) -> Comparison:
    return Comparison(op, left, right)


class _Rules:
    """Collects the rules of one translation, each with a provenance comment."""

    def __init__(self, query: EventQuery, consume: bool, encoder: RdfTermEncoder):
        self.query, self.consume, self.encoder = query, consume, encoder
        self.rules: list[Rule] = []
        self.comments: list[str] = []

    def add(self, head: Atom, body: Sequence, comment: str) -> None:
        self.rules.append(Rule(head, tuple(lit(b) for b in body)))
        self.comments.append(comment)

    # atoms of a node
    def ev(self, node: Node, t1: Term, t2: Term, h: Term | None = None, name: str = "ev") -> Atom:
        head = [h] if node.materialized else []
        return Atom(f"{name}_{node.index}", tuple(head + [var(v) for v in node.variables] + [t1, t2, E]))

    def ctx(self, node: Node, h: Term) -> Atom:
        return Atom(f"ctx_{node.index}", tuple(var(v) for v in node.context) + (h, E))

    def own(self, node: Node) -> list:
        """The context atom of a materialized node's rules."""
        return [self.ctx(node, H)] if node.materialized else []

    def within(self, child: Node, parent: Node, t1: Term, t2: Term) -> list:
        """The events of ``child`` in the context of ``parent``."""
        if child.materialized:
            return [self.ev(child, t1, t2, H)]
        if parent.materialized:
            return [self.ev(child, t1, t2), cmp("<=", t2, H)]
        return [self.ev(child, t1, t2)]

    def left_of(self, child: Node, t3: Term, t1: Term, t2: Term) -> list:
        """The events of ``μ2(E1)`` in ``W^⊔[0, t3−1] • W``."""
        if child.materialized:
            return [self.ev(child, t1, t2, L), cmp("=", L, BinaryOp("-", t3, Number(1)))]
        return [self.ev(child, t1, t2), cmp("<", t2, t3)]

    # one method per node kind
    def node(self, node: Node) -> None:
        getattr(self, "node_" + node.kind)(node)
        for k, child in enumerate(node.children):
            self.node(child)
            if child.materialized:
                self.demand(node, child, left=(node.kind == "seq" and k == 0))

    def demand(self, parent: Node, child: Node, left: bool) -> None:
        if left:
            right = parent.children[1]
            body = self.own(parent) + self.within(right, parent, T3, T4) + [
                cmp("=", L, BinaryOp("-", T3, Number(1)))]
            self.add(self.ctx(child, L), body, f"node {child.index}: evaluated as μ2({child.origin}) "
                     f"before each event of node {right.index}")
        else:
            self.add(self.ctx(child, H), [self.ctx(parent, H)],
                     f"node {child.index}: evaluated in the contexts of node {parent.index}")

    def node_basic(self, node: Node) -> None:
        basic = node.basic
        spec = self.query.window(basic.window)
        stream = self.encoder.encode(spec.stream)
        atoms = [Atom(STRIPLE, tuple(self.term(x) for x in tp.terms()) + (stream,))
                 for tp in basic.pattern.triples]
        body: list = []
        window = self.window(spec.window)
        for atom in atoms:
            body.append(WindowAtom(window, At(T), atom))
        body += self.window_conditions(spec.window)
        body += [Atom("eval_time", (E,)), Atom("active")] if self.consume else [Atom("now", (E,))]
        if self.consume:
            body += [lit(Atom("gone", (self.encoder.encode(basic.window),) + a.args[:3] + (T, E)),
                         negated=True) for a in atoms]
        name = term_text(basic.window, Names(self.query.prefixes))
        self.add(self.ev(node, T, T), body, f"node {node.index}: EVENT ON {name} "
                 f"({basic.label}), equation (4)")
        if self.consume:
            used = Atom(f"used_{node.index}", tuple(var(v) for v in node.variables) + (T, T, E))
            for atom in atoms:
                self.add(Atom("consumed", (self.encoder.encode(basic.window),) + atom.args[:3] + (T, E)),
                         [used], f"node {node.index}: its input is consumed at E")

    def term(self, term) -> Term:
        return var(term.name) if isinstance(term, Var) else self.encoder.encode(term)

    def window(self, window) -> TimeWindow:
        if self.consume or not isinstance(window, RangeWindow):
            return UNBOUNDED
        return TimeWindow(window.length - 1, 0, window.step)

    def window_conditions(self, window) -> list:
        """``T`` in the window at ``E``: only what ``⊞^∞`` does not say already."""
        found = []
        if isinstance(window, LandmarkWindow):
            found.append(cmp(">=", T, Number(window.start)))
        if self.consume:
            found.append(cmp("<=", T, E))
            if isinstance(window, RangeWindow):
                pivot = E if window.step == 1 else BinaryOp(
                    "*", BinaryOp("/", E, Number(window.step)), Number(window.step))
                found += [cmp("<=", T, pivot),
                          cmp(">", T, BinaryOp("-", pivot, Number(window.length)))]
        return found

    def node_first(self, node: Node) -> None:
        self.choice(node, "early", T1, cmp("<", S2, T1), "(5)")

    def node_last(self, node: Node) -> None:
        self.choice(node, "late", T2, cmp("<", T2, S1), "(6)")

    def choice(self, node: Node, helper: str, at: Variable, beaten: Comparison, eq: str) -> None:
        """FIRST or LAST: the events of the child that no event of the child precedes (follows)
        in the same context. For FIRST over a child without context the bound ``H`` cannot
        matter (an event preceding one that ends by ``H`` ends by ``H`` too), so the test is
        made once per substitution, not once per bound."""
        [child] = node.children
        per_bound = node.materialized and (helper == "late" or child.materialized)
        group = tuple(var(v) for v in (node.context or ())) + ((H,) if per_bound else ())
        times = Atom(f"times_{node.index}", group + (T1, T2, E))
        source = (self.own(node) + self.within(child, node, T1, T2)) if per_bound else \
            [self.ev(child, T1, T2)]
        self.add(times, source, f"node {node.index}: the times of the events of node {child.index}")
        other = Atom(times.predicate, group + (S1, S2, E))
        flag = Atom(f"{helper}_{node.index}", group + (at, E))
        self.add(flag, [times, other, beaten], f"node {node.index}: an event of node "
                 f"{child.index} {'precedes' if helper == 'early' else 'follows'} this one")
        self.add(self.ev(node, T1, T2, H), self.own(node) + self.within(child, node, T1, T2)
                 + [lit(flag, negated=True)], f"node {node.index}: {node.origin}, equation {eq}")
        if self.consume:
            self.add(self.ev(child, T1, T2, H, "used"), [self.ev(node, T1, T2, H, "used")],
                     f"node {child.index}: used by node {node.index}")

    def node_before(self, node: Node) -> None:
        left, right = node.children
        body = self.own(node) + self.within(left, node, T1, T2) + self.within(right, node, T3, T4) \
            + [cmp("<", T2, T3)]
        self.add(self.ev(node, T1, T4, H), body, f"node {node.index}: {node.origin}, equation (9)")
        self.uses(node, body, T4, left, right)

    def node_seq(self, node: Node) -> None:
        left, right = node.children
        if node.choose == "all":
            source = self.within(right, node, T3, T4)
        else:
            source = [self.select(node)]
        body = self.own(node) + source + self.left_of(left, T3, T1, T2)
        eq = {"all": "(7)", "first": "(10)", "last": "(11)"}[node.choose]
        self.add(self.ev(node, T1, T4, H), body, f"node {node.index}: {node.origin}, equation {eq}")
        self.uses(node, body, T4, left, right)

    def select(self, node: Node) -> Atom:
        """``sel_i``: the events of the right operand chosen by SEQ^c (first) or SEQ^r (last)."""
        left, right = node.children
        h = [H] if node.materialized else []
        names = [var(v) for v in right.variables]
        cand = Atom(f"cand_{node.index}", tuple(h + names + [T3, T4, E]))
        self.add(cand, self.own(node) + self.within(right, node, T3, T4)
                 + self.left_of(left, T3, S1, S2),
                 f"node {node.index}: events of node {right.index} with a match of node "
                 f"{left.index} before them")
        keep = (set(node.context or ()) | (set(left.variables) & set(right.variables)))
        renamed = [n if v in keep else internal_variable("V", k)
                   for k, (v, n) in enumerate(zip(right.variables, names), start=1)]
        key = [n for v, n in zip(right.variables, names) if v in keep]
        if node.choose == "first":
            mine, other, beaten, at = (T3, S1), (S3, S4), cmp("<", S4, T3), T3
        else:
            mine, other, beaten, at = (S1, T4), (S3, S4), cmp("<", T4, S3), T4
        flag = Atom(f"beaten_{node.index}", tuple(h + key + [at, E]))
        self.add(flag, [Atom(cand.predicate, tuple(h + names + list(mine) + [E])),
                        Atom(cand.predicate, tuple(h + renamed + list(other) + [E])), beaten],
                 f"node {node.index}: another candidate with the same shared values comes "
                 f"{'before' if node.choose == 'first' else 'after'} this one")
        chosen = Atom(f"sel_{node.index}", cand.args)
        self.add(chosen, [cand, lit(flag, negated=True)],
                 f"node {node.index}: the {node.choose} candidate per shared values")
        return chosen

    def uses(self, node: Node, body: list, end: Variable, left: Node, right: Node) -> None:
        """``used`` of the children: the events behind a used event of ``node``."""
        if not self.consume:
            return
        body = [self.ev(node, T1, end, H, "used")] + body
        for child, times in ((left, (T1, T2)), (right, (T3, T4))):
            h = L if (child is left and node.kind == "seq") else H
            self.add(self.ev(child, *times, h, "used"), body,
                     f"node {child.index}: used by node {node.index}")


def evaluation_rules(rules: _Rules, evaluation: Evaluation, history: bool) -> None:
    """``eval_time(E)`` for the evaluation times up to now (only now without ``history``),
    ``now(E)`` for the current one."""
    window = UNBOUNDED if history else NOW
    comment = f"evaluation time ({evaluation.describe()})"
    if evaluation.kind == "at":
        for t in evaluation.times:
            rules.add(Atom("eval_time", (Number(t),)),
                      [WindowAtom(window, At(Number(t)), Atom(TRUE_PREDICATE))], comment)
    elif evaluation.kind == "push":
        for stream in sorted({w.stream for w in rules.query.windows}):
            atom = Atom(STRIPLE, (S1, S2, S3, rules.encoder.encode(stream)))
            rules.add(Atom("eval_time", (E,)), [WindowAtom(window, At(E), atom)], comment)
    else:
        rules.add(Atom("eval_time", (E,)), [WindowAtom(window, At(E), Atom(TRUE_PREDICATE)),
                                            cmp("=", BinaryOp("%", E, Number(evaluation.period)),
                                                Number(0))], comment)
    rules.add(Atom("now", (E,)), [WindowAtom(NOW, At(E), Atom(TRUE_PREDICATE)),
                                  Atom("eval_time", (E,))], "the current time is an evaluation time")
    if history:
        rules.add(Atom("active"), [Atom("now", (E,))],
                  "only at an evaluation time is the history of evaluations re-derived")


def answer_rules(rules: _Rules, root: Node, report: str, evaluation: Evaluation) -> None:
    """``match(V̄sel, T1, T2)`` at the current evaluation time (equation 8, times kept).

    ``report="new"`` keeps the events completed after the previous evaluation time ``P``:
    for given times, ``prev_eval(E, P)`` facts; for pull, ``P = E − U``; for push, the events
    with ``T2 = E`` (``T2`` is the time of an input item of the query's streams and ``P`` the
    latest such time before ``E``, so ``T2 > P`` iff ``T2 = E``).
    """
    query = rules.query
    head = Atom(ANSWER, tuple(var(v.name) for v in query.variables) + (T1, T2))
    body = [rules.ev(root, T1, T2), Atom("now", (E,))]
    if report == "all":
        rules.add(head, body, "answers: every event at the evaluation time")
    elif evaluation.kind == "push":
        rules.add(head, body + [cmp("=", T2, E)],
                  "answers: events completed now (after the previous input, the previous evaluation)")
    elif evaluation.kind == "pull":
        rules.add(head, body + [cmp(">", T2, BinaryOp("-", E, Number(evaluation.period)))],
                  "answers: events completed since the previous evaluation, E - U")
    else:
        times = evaluation.times
        for before, after in zip(times, times[1:]):
            rules.add(Atom("prev_eval", (Number(after), Number(before))), [],
                      "the previous evaluation time")
        rules.add(Atom("first_eval", (Number(times[0]),)), [], "the first evaluation time")
        rules.add(head, body + [Atom("prev_eval", (E, S1)), cmp(">", T2, S1)],
                  "answers: events completed since the previous evaluation")
        rules.add(head, body + [Atom("first_eval", (E,))], "answers: at the first evaluation, all")


def consumption_rules(rules: _Rules, root: Node) -> None:
    rules.add(rules.ev(root, T1, T2, None, "used"), [rules.ev(root, T1, T2)],
              "the events found at E use their input")
    w, s, p, o = (internal_variable(x) for x in ("W", "Sv", "Pv", "Ov"))
    rules.add(Atom("gone", (w, s, p, o, T, E)),
              [Atom("consumed", (w, s, p, o, T, S1)), Atom("eval_time", (E,)), cmp("<", S1, E)],
              "input consumed at an earlier evaluation time is gone (P^c, P^r)")


def translate_events(query: EventQuery, profile: str | EventProfile = "rsep",
                     evaluation: Evaluation | None = None,
                     encoder: RdfTermEncoder | None = None) -> EventTranslation:
    """The LARS program of ``query`` under ``profile``.

    Args:
        profile: an :data:`~translate.eventprofiles.EVENT_PROFILES` name (default ``rsep``).
        evaluation: the evaluation times; default the profile's (push, or pull every
            ``query.every`` ticks); required for the ``rsep`` profile.

    Raises:
        InputError: an unknown profile, or no evaluation times where the profile needs them.
    """
    profile = event_profile(profile) if isinstance(profile, str) else profile
    if evaluation is None:
        if profile.evaluation == "given":
            raise InputError(f"the {profile.name} profile needs evaluation times",
                             hint="give --at 8,10, --mode push or --mode pull --period 2")
        evaluation = Evaluation("push") if profile.evaluation == "push" else Evaluation(
            "pull", period=query.every or _step(query))
    pattern = query.pattern if profile.selection is None else with_selection(
        query.pattern, profile.selection)
    prepared = EventQuery(query.variables, query.windows, pattern, query.engine, query.every,
                          query.unit_ms, query.prefixes)
    encoder = encoder or RdfTermEncoder()
    rules = _Rules(prepared, profile.consume, encoder)
    root = build(pattern)
    rules.node(root)
    evaluation_rules(rules, evaluation, profile.consume)
    if profile.consume:
        consumption_rules(rules, root)
    answer_rules(rules, root, profile.report, evaluation)
    return EventTranslation(Program(tuple(rules.rules)), tuple(rules.comments), prepared, profile,
                            evaluation, tuple(v.name for v in query.variables))


def _step(query: EventQuery) -> int:
    steps = [w.window.step for w in query.windows if isinstance(w.window, RangeWindow)]
    return min(steps, default=1)
