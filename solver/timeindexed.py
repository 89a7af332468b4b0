"""LARS program → one ASP program over the whole timeline (the reference time as an argument).

:mod:`solver.encode` grounds a program anew at each reference time ``t``. Here the reference
time is the last argument ``R`` of every generated atom, so one grounding holds the answer
streams at every time point of the timeline at once. A search (``lars witness``, SPEC section
13) can then guess the input with a choice rule over ``__tin`` and compare answers across time
points within the same program. Several programs share one control: each is encoded under its
own ``tag`` (a lower-case name), which every generated atom carries.

Facts and generated atoms:

* ``__tin(A,T)`` input atom ``A`` at ``T`` (facts, or a choice rule); visible at ``R`` iff ``T <= R``
  (streaming reading, SPEC section 3);
* ``__tbg(A)`` background; ``__ttime(R)`` the time points; ``__ttl(Min,Max)`` the timeline;
* ``__trng(Tag,W,R,Lo,Hi)`` the interval body atom ``W`` looks at when the reference time is ``R``;
  ``__ttw(Tag,W,A,T,R)`` a tuple window's content, ``__tix(A,T,I)`` the arrival order;
* ``__td(Tag,A,T,R)`` atom ``A`` derived at ``T`` in the answer stream at ``R``.

The semantics is the per-time-point one, copy by copy: rules fire at ``R`` only (a plain head
derives ``__td(Tag,A,R,R)``), and an atom derived at ``R`` is not seen at ``R+1``, since the
copies share nothing but the input. So the answer sets of the whole program are the
combinations of one answer stream per time point; for a stratified program there is one. A
time point without any answer stream (a head ``@_T a`` off the timeline) leaves the whole
program without an answer set, not only that copy.

>>> from lars.parser import parse_program
>>> print(encode_timeindexed(parse_program("x :- [5] <> p(X)."), "s").text)
__ts0_0(R,VX) :- __trng(s,w0_0,R,Lo,Hi), T=Lo..Hi, __tin(p(VX),T), T<=R.
__ts0_0(R,VX) :- __trng(s,w0_0,R,Lo,Hi), T=Lo..Hi, __td(s,p(VX),T,R).
__ts0_0(R,VX) :- __trng(s,w0_0,R,Lo,Hi), Lo<=Hi, __tbg(p(VX)).
__td(s,x,R,R) :- __ttime(R), __ts0_0(R,VX).

Tuple windows are derived by rules (:func:`tuple_window_rules`) from the input and its arrival
order within each time point, ``__tix(A,T,I)``: facts for a fixed stream, derived from a fixed
order of the candidates in a search. Not encoded: ``□`` over an atom with variables on an empty
window (that needs the active domain, whose input part is guessed); :func:`range_facts` refuses
it (from time 0 no window is empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import clingo

from lars.atoms import Atom, Comparison
from lars.errors import UnsupportedError
from lars.folds import expand
from lars.formulas import At, Box, Diamond, Modality, WindowAtom
from lars.rules import Literal, Program, Rule
from lars.streams import Stream, Timeline
from lars.terms import Variable
from lars.windows import ANY, TupleWindow, time_window_range
from solver.encode import Scope, atom_term, encode_body, scope_and_modality, term_text
from solver.symbols import atom_of, atom_text, ground

INPUT, BACKGROUND, DERIVED, TIME, TIMELINE, RANGE, TUPLES = (
    "__tin", "__tbg", "__td", "__ttime", "__ttl", "__trng", "__ttw")


@dataclass(frozen=True)
class TimeIndexed:
    """The ASP rules of one tagged program and the scopes whose intervals :func:`range_facts` gives."""

    tag: str
    text: str
    scopes: tuple[Scope, ...]


def sources(tag: str, scope: Scope, atom: str, time: str) -> list[str]:
    """The ways ``atom`` can hold at ``time`` inside the scope: input seen so far, or derived."""
    if isinstance(scope.window, TupleWindow):
        return [f"{TUPLES}({tag},{scope.ident},{atom},{time},R)"]
    return [f"{INPUT}({atom},{time}), {time}<=R", f"{DERIVED}({tag},{atom},{time},R)"]


def encode_diamond(tag: str, scope: Scope, head: str, atom: str, modality: Diamond) -> list[str]:
    """◇a: ``a`` at some point of the interval, or ``a`` is background and the interval non-empty."""
    rng = f"{RANGE}({tag},{scope.ident},R,Lo,Hi)"
    within = "" if isinstance(scope.window, TupleWindow) else "T=Lo..Hi, "
    return [f"{head} :- {rng}, {within}{source}." for source in sources(tag, scope, atom, "T")] + [
        f"{head} :- {rng}, Lo<=Hi, {BACKGROUND}({atom})."]


def encode_at(tag: str, scope: Scope, head: str, atom: str, modality: At) -> list[str]:
    """@_s a: ``s`` in the interval and ``a`` holds at ``s`` (background holds at every ``s``)."""
    time = term_text(modality.time)
    rng = f"{RANGE}({tag},{scope.ident},R,Lo,Hi)"
    bind = f"{time}=Lo..Hi" if isinstance(modality.time, Variable) else f"Lo<={time}, {time}<=Hi"
    return [f"{head} :- {rng}, {bind}, {source}." for source in sources(tag, scope, atom, time)] + [
        f"{head} :- {rng}, {BACKGROUND}({atom}), {bind}."]


def encode_box(tag: str, scope: Scope, head: str, atom: str, modality: Box) -> list[str]:
    """□a: ``a`` at every point of the interval; vacuously true on an empty interval."""
    rng = f"{RANGE}({tag},{scope.ident},R,Lo,Hi)"
    elements = "; ".join(f"T: {source}, Lo<=T, T<=Hi" for source in sources(tag, scope, atom, "T"))
    count = f"#count{{{elements}}} >= Hi-Lo+1"
    rules = [f"{head} :- {TIME}(R), {BACKGROUND}({atom})."]
    rules += [f"{head} :- {rng}, {source}, {count}." for source in sources(tag, scope, atom, "Lo")]
    if not scope.needs_domain:
        rules.append(f"{head} :- {rng}, Lo>Hi.")
    return rules


ENCODERS: dict[type, Callable[[str, Scope, str, str, Modality], list[str]]] = {
    Diamond: encode_diamond,
    At: encode_at,
    Box: encode_box,
}
"""One encoder per modality, as in :mod:`solver.encode`; the window kind only changes :func:`sources`."""


def auxiliary_head(name: str, literal: Literal) -> str:
    """``__t<tag><r>_<j>(R,vars)``: the auxiliary atom of a body literal at reference time ``R``."""
    return f"{name}({','.join(['R'] + ['V' + v for v in sorted(literal.variables())])})"


def encode_literal(tag: str, rule_index: int, index: int,
                   literal: Literal) -> tuple[str, list[str], Scope | None]:
    """The body text of one literal, the rules defining its auxiliary atom, and its scope."""
    formula = literal.formula
    if isinstance(formula, Comparison):
        if literal.negated:
            raise UnsupportedError("negated comparison: write the complementary comparison "
                                   "(e.g. X >= Y for not X < Y)")
        return f"{term_text(formula.left)}{formula.op}{term_text(formula.right)}", [], None
    scope, modality = scope_and_modality(f"w{rule_index}_{index}", formula)
    head = auxiliary_head(f"__t{tag}{rule_index}_{index}", literal)
    rules = ENCODERS[type(modality)](tag, scope, head, atom_term(scope.atom), modality)
    return ("not " if literal.negated else "") + head, rules, scope


def encode_head(tag: str, rule: Rule, body: list[str]) -> list[str]:
    """``__td(Tag,A,T,R)``; a head ``@_s a`` with ``s`` off the timeline has no answer stream."""
    joiner = "".join(", " + part for part in body)
    if isinstance(rule.head, Atom):
        return [f"{DERIVED}({tag},{atom_term(rule.head)},R,R) :- {TIME}(R){joiner}."]
    time = term_text(rule.head.time)
    return [
        (f"{DERIVED}({tag},{atom_term(rule.head.atom)},{time},R) :- {TIME}(R), {TIMELINE}(Lo,Hi)"
         f"{joiner}, Lo<={time}, {time}<=Hi."),
        f":- {TIME}(R), {TIMELINE}(Lo,Hi){joiner}, {time}<Lo.",
        f":- {TIME}(R), {TIMELINE}(Lo,Hi){joiner}, {time}>Hi.",
    ]


def encode_rule(tag: str, rule_index: int, rule: Rule) -> tuple[list[str], list[Scope]]:
    """The ASP rules for one LARS rule and the scopes of its body atoms."""
    body, lines, scopes = encode_body(
        rule, lambda index, literal: encode_literal(tag, rule_index, index, literal))
    body, checks = hoisted_calls(tag, rule_index, rule, body)
    return lines + checks + encode_head(tag, rule, body), scopes


def hoisted_calls(tag: str, rule_index: int, rule: Rule, body: list[str]) -> tuple[list[str], list[str]]:
    """A rule's comparisons, when one calls an external function (``@``) and one positive body
    literal binds every variable they read, checked once per binding of those variables rather
    than once per ground instance of the rule: clingo calls Python for every instance (and for
    each nested ``@`` of it), and the same bindings recur at every reference time ``R`` and
    with every value of the variables the comparisons do not read (the running example's
    FILTER: 182,784 calls for 35 bindings, two thirds of its grounding).

    ``__tq<tag><r>(X)`` collects the bindings of the compared variables from that one literal
    (one small ground rule per atom of it: the join of the whole body is not ground twice, which
    made an earlier version of this cost 712 MB instead of 472 on ``examples/zones/warm.rq``);
    ``__tk<tag><r>(Y)`` holds for those passing every comparison (``Y`` adds the variables the
    comparisons assign); the rule reads ``__tk`` instead. Without such a literal the rule is
    left as it is (each distinct call is still made once, :class:`solver.symbols.Context`).

    >>> from lars.parser import parse_program
    >>> [rule] = parse_program("h(X,Y) :- p(X,Z), q(Z), Y = @value(X).")
    >>> hoisted_calls("a", 0, rule, ["__ta0_0(R,VX,VZ)", "__ta0_1(R,VZ)", "VY=@value(VX)"])
    (['__ta0_0(R,VX,VZ)', '__ta0_1(R,VZ)', '__tka0(VX,VY)'], ['__tqa0(VX) :- __ta0_0(R,VX,VZ).', '__tka0(VX,VY) :- __tqa0(VX), VY=@value(VX).'])
    """
    compared = [isinstance(literal.formula, Comparison) for literal in rule.body]
    if not any(c and "@" in text for c, text in zip(compared, body)):
        return body, []
    used = set().union(*(literal.variables() for literal, c in zip(rule.body, compared) if c))
    positive = [(literal, text) for literal, text, c in zip(rule.body, body, compared)
                if not c and not literal.negated]
    given = sorted(used & set().union(*(literal.variables() for literal, _ in positive)))
    source = next((text for literal, text in positive if set(given) <= literal.variables()), None)
    if source is None:
        return body, []

    def atom(name: str, variables: Iterable[str]) -> str:
        names = ",".join("V" + v for v in variables)
        return f"{name}{tag}{rule_index}" + (f"({names})" if names else "")
    domain, check = atom("__tq", given), atom("__tk", sorted(used))
    rules = [f"{domain} :- {source}.",
             f"{check} :- {', '.join([domain] + [t for t, c in zip(body, compared) if c])}."]
    return [t for t, c in zip(body, compared) if not c] + [check], rules


def encode_timeindexed(program: Program, tag: str) -> TimeIndexed:
    """The time-indexed encoding of a safe program under ``tag`` (see the module docstring); a
    fold is encoded as its plain rules (:func:`lars.folds.expand`)."""
    program = expand(program)
    lines: list[str] = []
    scopes: list[Scope] = []
    for rule_index, rule in enumerate(program):
        rule_lines, rule_scopes = encode_rule(tag, rule_index, rule)
        lines.extend(rule_lines)
        scopes.extend(rule_scopes)
    return TimeIndexed(tag, "\n".join(lines), tuple(scopes))


def tuple_window_rules(encoding: TimeIndexed) -> list[str]:
    """Rules that derive each tuple window's content ``__ttw`` and its interval ``__trng`` from
    the input ``__tin`` and its arrival order ``__tix(A,T,I)`` (``I`` orders the atoms of one
    time point), so that they also hold for a guessed input.

    Each distinct window gets a number ``k``; ``__tcin(k,A,T)`` is the input it counts (all of
    it, or its substream). For a window of ``n`` atoms: ``__tc(k,T,K)`` counts its atoms at
    ``T``, ``__ts(k,T,R,S)`` those in ``(T,R]``, ``__tlater(k,A,T,K)`` those after ``A`` at
    ``T``, each capped at ``n``; ``A`` at ``T`` is in the window at ``R`` when ``K + S < n``. The
    window's interval starts at its earliest atom once it holds ``n`` atoms, at the timeline's
    start before.
    """
    windows = tuple_windows(encoding)
    rules: list[str] = []
    for window, k in windows.items():
        n = window.size
        rules += [
            counted_input_rule(window, k),
            f"__tc({k},T,K) :- {TIME}(T), K = #count{{A: __tcin({k},A,T)}}, K<{n}.",
            f"__tc({k},T,{n}) :- {TIME}(T), #count{{A: __tcin({k},A,T)}} >= {n}.",
            f"__ts({k},T,T,0) :- {TIME}(T).",
            f"__ts({k},T,T,0) :- {TIMELINE}(Lo,_), T=Lo-1.",
            f"__ts({k},T,R,S+K) :- __ts({k},T,R-1,S), __tc({k},R,K), S+K<{n}.",
            f"__ts({k},T,R,{n}) :- __ts({k},T,R-1,S), __tc({k},R,K), S+K>={n}.",
            f"__tlater({k},A,T,K) :- __tcin({k},A,T), __tix(A,T,I), "
            f"K = #count{{B: __tcin({k},B,T), __tix(B,T,J), J>I}}, K<{n}.",
        ]
    for scope in encoding.scopes:
        if not isinstance(scope.window, TupleWindow):
            continue
        tag, ident, n, k = encoding.tag, scope.ident, scope.window.size, windows[scope.window]
        rules += [
            f"{TUPLES}({tag},{ident},A,T,R) :- __tlater({k},A,T,K), __ts({k},T,R,S), K+S<{n}.",
            f"__tfull({tag},{ident},R) :- __ts({k},T,R,{n}), {TIMELINE}(Lo,_), T=Lo-1.",
            f"{RANGE}({tag},{ident},R,L,R) :- __tfull({tag},{ident},R), "
            f"L = #min{{T: {TUPLES}({tag},{ident},A,T,R)}}.",
            f"{RANGE}({tag},{ident},R,Lo,R) :- {TIME}(R), {TIMELINE}(Lo,_), not __tfull({tag},{ident},R).",
        ]
    return rules


def tuple_windows(encoding: TimeIndexed) -> dict[TupleWindow, int]:
    """The distinct tuple windows of the encoding, numbered in the order they first occur."""
    windows: dict[TupleWindow, int] = {}
    for scope in encoding.scopes:
        if isinstance(scope.window, TupleWindow):
            windows.setdefault(scope.window, len(windows))
    return windows


def counted_input_rule(window: TupleWindow, k: int) -> str:
    """``__tcin(k,A,T)``: the input atoms window ``k`` counts (the wildcards of its substream
    pattern become distinct variables).

    >>> from lars.parser import parse_atom
    >>> counted_input_rule(TupleWindow(2, parse_atom("q(_,c,_)")), 1)
    '__tcin(1,q(VW0,c,VW2),T) :- __tin(q(VW0,c,VW2),T).'
    """
    if window.substream is None:
        return f"__tcin({k},A,T) :- {INPUT}(A,T)."
    pattern = window.substream
    atom = atom_term(Atom(pattern.predicate, tuple(
        Variable(f"W{i}") if arg == ANY else arg for i, arg in enumerate(pattern.args))))
    return f"__tcin({k},{atom},T) :- {INPUT}({atom},T)."


def arrival_facts(stream: Stream) -> list[str]:
    """``__tix(A,T,I)``: the arrival order of a fixed stream within each time point."""
    return [f"__tix({atom_text(a)},{t},{i})." for t, atoms in stream.items for i, a in enumerate(atoms)]


def scope_range(scope: Scope, t: int, timeline: Timeline) -> tuple[int, int]:
    """The interval ``[lo, hi]`` a time-scoped body atom looks at when the reference time is ``t``."""
    if scope.whole_timeline:
        return timeline.start, timeline.end
    if scope.window is None:
        return t, t
    return time_window_range(scope.window, t, timeline)


def range_facts(encoding: TimeIndexed, timeline: Timeline) -> list[str]:
    """``__trng`` facts of every time-scoped body atom at every time point (tuple windows get
    theirs from :func:`tuple_window_rules`).

    Raises:
        UnsupportedError: ``□`` over variables on an empty window (it needs the active domain,
            which the time-indexed encoding lacks).
    """
    facts = []
    for scope in encoding.scopes:
        if isinstance(scope.window, TupleWindow):
            continue
        for t in timeline:
            lo, hi = scope_range(scope, t, timeline)
            if lo > hi and scope.needs_domain:
                raise UnsupportedError("□ over an atom with variables on an empty window needs the "
                                       "active domain, which the time-indexed encoding does not have")
            facts.append(f"{RANGE}({encoding.tag},{scope.ident},{t},{lo},{hi}).")
    return facts


def timeline_facts(timeline: Timeline, background: Iterable[Atom]) -> list[str]:
    """``__ttime``, ``__ttl`` and ``__tbg`` facts (``true`` is background, SPEC section 6)."""
    atoms = sorted({atom_text(a) for a in background} | {"true"})
    return ([f"{TIME}({timeline.start}..{timeline.end}).", f"{TIMELINE}({timeline.start},{timeline.end})."]
            + [f"{BACKGROUND}({a})." for a in atoms])


def input_facts(stream: Stream) -> list[str]:
    """``__tin`` facts of a fixed stream."""
    return [f"{INPUT}({atom_text(a)},{t})." for t, atoms in stream.items for a in atoms]


def range_size(encoding: TimeIndexed, timeline: Timeline) -> int:
    """The summed width of every scope's interval over the timeline: how many ``(T, R)`` pairs
    its window rules may ground per input atom (the guard of ``lars witness`` multiplies it)."""
    total = 0
    for scope in encoding.scopes:
        for t in timeline:
            if isinstance(scope.window, TupleWindow):  # every earlier point, times the counts
                total += (t - timeline.start + 1) * scope.window.size ** 2
            else:
                lo, hi = scope_range(scope, t, timeline)
                total += max(0, hi - lo + 1)
    return total


def time_join_size(program: Program, timeline: Timeline, fanout: Callable[[Atom], int]) -> int:
    """How many combinations of time points the rules' ``@_T`` window atoms may join: per rule
    and reference time, the product of the widths of the windows binding a time variable, times
    the largest ``fanout`` (input atoms matching one of them). The right-open readings of RSP
    windows bind one time variable per triple pattern: three 30-point windows in one rule are
    27,000 combinations at every time point, for every data match."""
    total = 0
    for rule_index, rule in enumerate(program):
        binders = [(f"w{rule_index}_{j}", literal.formula) for j, literal in enumerate(rule.body)
                   if isinstance(literal.formula, WindowAtom) and isinstance(literal.formula.modality, At)
                   and isinstance(literal.formula.modality.time, Variable)]
        if len(binders) < 2:
            continue
        widest = max(fanout(formula.atom) for _, formula in binders)
        for t in timeline:
            product = widest
            for ident, formula in binders:
                scope, _ = scope_and_modality(ident, formula)
                lo, hi = ((timeline.start, t) if isinstance(scope.window, TupleWindow)
                          else scope_range(scope, t, timeline))
                product *= max(1, hi - lo + 1)
            total += product
    return total


def solve_fixed(program: Program, stream: Stream, background: frozenset[Atom] = frozenset(),
                max_models: int = 10_000) -> dict[int, frozenset[frozenset[tuple[Atom, int]]]]:
    """The answer streams at every time point of a fixed stream, from one grounding.

    Each answer stream is reported as :class:`solver.reference.Problem` reports it: the
    ``(atom, time point)`` pairs the rules add that are neither input seen so far nor background.
    Models are combinations of one answer stream per time point, so programs with several
    answer streams at many time points have many models: at most ``max_models`` are read.
    """
    encoding = encode_timeindexed(program, "p")
    text = "\n".join([encoding.text, *timeline_facts(stream.timeline, background),
                      *range_facts(encoding, stream.timeline), *tuple_window_rules(encoding),
                      *input_facts(stream), *arrival_facts(stream),
                      f"#show {DERIVED}/4.", f"#show {TIME}/1."])
    control = clingo.Control([str(max_models)], logger=lambda code, msg: None)
    control.add("base", [], text)
    ground(control)
    found: dict[int, set[frozenset[tuple[Atom, int]]]] = {}

    def collect(model: clingo.Model) -> None:
        streams: dict[int, set[tuple[Atom, int]]] = {t: set() for t in stream.timeline}
        for symbol in model.symbols(shown=True):
            if symbol.name != DERIVED:
                continue
            atom, time, ref = atom_of(symbol.arguments[1]), symbol.arguments[2].number, symbol.arguments[3].number
            if atom in background or (atom.predicate == "true" and not atom.args):
                continue
            if time <= ref and atom in stream.at(time):
                continue
            streams[ref].add((atom, time))
        for ref, pairs in streams.items():
            found.setdefault(ref, set()).add(frozenset(pairs))
    control.solve(on_model=collect)
    return {t: frozenset(found.get(t, ())) for t in stream.timeline}
