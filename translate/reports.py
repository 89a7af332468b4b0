"""Engine profiles compiled into LARS: profile + query → one program (SPEC section 12).

The paper's profiles give the paper's programs unchanged: ``paper-pull`` is ``℘(τ1(cs(Q)), U)``,
``paper-push`` is ``℘(τ2(Q'))`` (:func:`translate.api.translate`). Any other profile compiles
to a program that derives, at each time point ``t``:

* ``trigger`` — the engine evaluates at ``t``: one rule per window of the query whose body is the
  conjunction of the report policy's conditions (:func:`trigger_bodies`);
* the answers reported at ``t``: ``ans_1`` (Rstream), ``istream_1`` or ``dstream_1``;
* ``report`` — a relation is reported at ``t`` (``report ← trigger`` when empty relations are
  emitted, ``report ← out(X̄)`` when they are dropped).

**Windows.** A window instance of width ``L`` and slide ``β`` is ``[o, o+L)`` (or closed, or
left-open, per the profile's bounds) with ``o = t0 + k·β``. The scope read at reference time
``R`` is, under a *window-close* policy, the instance that closes at ``R`` (``[R-L, R)``) — or,
when the query's windows do not all close together, each window's latest instance closed by
``R``, ``c = R - (R - t0 - L) mod β``, as RSP4J shows a window's last reported content — and
under a *content-change* policy the earliest instance still open at ``R``, cut at ``R`` (the
CSRBench oracle's ``[max(t0, t0+aβ), τ]``). Each atom ``a`` of a window is read as
``⊞^L @_T a`` plus comparisons of ``T`` with ``R`` (:func:`scope_literals`); the latest instance
start at or before ``T`` is ``T - (T - t0) % β``, so "``T`` is in the earliest instance open at
``R``" is ``T - (T - t0) % β > R - L``. t0 is a parameter of these comparisons and of the
trigger rules (a LARS window ``⊞^{l,u,d}`` has no offset, so windows are read with step 1 and
positioned by arithmetic on ``T``).

**Report policies.** *window-close*: ``(R - t0 - L) % β = 0`` (and ``R ≥ t0 + L`` without partial
start-up windows; with them, some time point before ``R``); *content-change*: an input item of the window's stream arrives at ``R > t0``;
*non-empty*: some input item lies in the scope at ``R`` (implied by content change, whose
arriving item is in the scope, so left out there); *periodic*: ``R % U = 0``; *input*: some
input item arrives at ``R``.

**R2S over the previous report.** The semantics (Definition 3) do not remember atoms derived at
earlier time points, so Istream cannot look up the previous relation. It recomputes it instead:
``report_at(R)`` holds for every earlier time point ``R`` at which the trigger conditions held
(the same conditions, positioned at ``R`` with ``⊞^∞ @_R``), ``prev_report(P)`` picks the latest,
and a copy of the query's rules, with every derived predicate ``p`` renamed ``p_prev`` and every
window positioned at ``P`` (read through ``⊞^∞``), derives the previous relation. Then
``istream_1(X̄) ← ans_1(X̄), not ans_1_prev(X̄)`` and ``dstream_1(X̄) ← ans_1_prev(X̄), not
ans_1(X̄)``. The previous report is the previous *evaluation*, reported or not (CSRBench's
Istream compares with the previous relation, not the previous output). Istream and Dstream need
τ2: under τ1 the previous window's triples would be merged into the same default graph as the
background and could not be told apart.

>>> from translate.api import parse_query
>>> from translate.profiles import profile
>>> from lars.printer import print_program
>>> q = parse_query('''SELECT ?s WHERE { STREAM <http://ex.org/s> [RANGE 4s SLIDE 2s]
...                    { ?s <http://ex.org/p> ?o } }''')
>>> t = compile_profile(q, profile("rsp4j"), t0=0)
>>> print(print_program(t.program, "ascii"))
ans_1(S,default,streams) :- [0] @ _N true, [4] @ _T1 striple(S,<http://ex.org/p>,O,<http://ex.org/s>), _T1 < _N, trigger.
trigger :- [0] @ _N true, ((_N - 4) % 2 + 2) % 2 = 0, [1] @ _M true, _M < _N.
report :- trigger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from lars.analysis import derived_predicates
from lars.atoms import TRUE_PREDICATE, Atom, Comparison
from lars.errors import InputError, Position, UnsupportedError
from lars.formulas import DIAMOND, At, Fold, WindowAtom, base_atom
from lars.rules import Literal, Program, Rule
from lars.terms import BinaryOp, Number, Term, Variable
from lars.windows import NOW, UNBOUNDED, TimeWindow
from translate.api import AnswerSpec, Translation, translate, verify
from translate.names import (
    LATER_REPORT,
    PREVIOUS_REPORT,
    REPORT,
    REPORT_AT,
    TRIGGER,
    internal_variable,
    previous_predicate,
    stream_predicate,
)
from translate.profiles import Profile
from translate.rdf import STRIPLE, RdfTermEncoder
from translate.rsp import NowWindow, RangeWindow, RspQuery, RspWindow
from translate.sparqltext import window_text
from translate.streamrules import TauResult, answer_arguments, tau1, tau2
from translate.triggers import with_trigger
from translate.variants import cq_variant, cs


@dataclass(frozen=True)
class Reference:
    """The time point windows are positioned at: now (``⊞^0 @_N true``, windows of their own
    length), or an earlier candidate report ``_R`` or the previous report ``_P``, whose windows
    reach ``reach`` ticks further back than their own length (``None``: ``⊞^∞``)."""

    variable: Variable
    binding: tuple[Literal, ...]
    earlier: bool = False
    reach: int | None = None

    def scope_window(self, length: int) -> TimeWindow:
        if not self.earlier:
            return TimeWindow(length)
        return UNBOUNDED if self.reach is None else TimeWindow(self.reach + length)

    def arrival_window(self) -> TimeWindow:
        if not self.earlier:
            return NOW
        return UNBOUNDED if self.reach is None else TimeWindow(self.reach)


_N, _R, _Q, _P = (internal_variable(s) for s in ("N", "R", "Q", "P"))
_TRUE = Atom(TRUE_PREDICATE)
_NOW_BINDING = Literal(WindowAtom(NOW, At(_N), _TRUE))
NOW_REF = Reference(_N, (_NOW_BINDING,))


def candidate_ref(reach: int | None) -> Reference:
    """``_R``: an earlier time point at which the engine may have evaluated."""
    window = UNBOUNDED if reach is None else TimeWindow(reach)
    return Reference(_R, (_NOW_BINDING, Literal(WindowAtom(window, At(_R), _TRUE)),
                          Literal(Comparison("<", _R, _N))), True, reach)


def previous_ref(reach: int | None) -> Reference:
    """``_P``: the previous evaluation (``prev_report(_P)``)."""
    return Reference(_P, (Literal(Atom(PREVIOUS_REPORT, (_P,))),), True, reach)


def _minus(left: Term, value: int) -> Term:
    return left if value == 0 else BinaryOp("-", left, Number(value))


def _modulo(term: Term, step: int, nonnegative: bool) -> Term:
    """``term % step`` in ``[0, step)``: clingo's ``%`` truncates toward zero."""
    if nonnegative:
        return BinaryOp("%", term, Number(step))
    return BinaryOp("%", BinaryOp("+", BinaryOp("%", term, Number(step)), Number(step)),
                    Number(step))


def _range(window: RspWindow, profile: Profile) -> RangeWindow:
    if not isinstance(window, RangeWindow):
        raise UnsupportedError(f"window {window_text(window)} under the report policy of "
                               f"profile {profile.name} (only time-based [RANGE L STEP β] windows)")
    if window.length == 0:
        raise UnsupportedError(f"[RANGE 0] under profile {profile.name}")
    return window


def _scope(kind: str, profile: Profile, window: RangeWindow, t0: int, time: Variable,
           ref: Reference, aligned: bool = True) -> list[Comparison]:
    """Comparisons saying that ``time`` lies in the scope read at ``ref`` (see the module doc);
    ``aligned``: every evaluation is a close of this window (else its latest close is read)."""
    length, step, at = window.length, window.step, ref.variable
    full = profile.startup == "full"
    bounds = profile.bounds
    if kind == "close":
        lower = ">" if bounds in ("left-open", "open") else ">="
        upper = "<" if bounds in ("right-open", "open") else "<="
        close: Term = at
        if not aligned and step > 1:
            close = BinaryOp("-", at, _modulo(_minus(at, t0 + length), step, False))
        found = [Comparison(upper, time, close)]
        if ref.earlier or lower == ">" or close is not at:
            found.append(Comparison(lower, time, _minus(close, length)))
        return found
    # content change: the earliest instance open at R, cut at R
    if bounds == "open":
        raise UnsupportedError(f"bounds (t-L, t) under content change (profile {profile.name})")
    latest = time if bounds != "left-open" else _minus(time, 1)
    start = BinaryOp("-", latest, _modulo(_minus(latest, t0), step, full))
    found = [Comparison("<=", time, at),
             Comparison(">" if bounds == "right-open" else ">=", start, _minus(at, length))]
    if full:
        found.insert(0, Comparison(">" if bounds == "left-open" else ">=", time, Number(t0)))
    return found


def _kind(profile: Profile) -> str:
    return "change" if "content-change" in profile.report else "close"


def scope_literals(profile: Profile, window: RspWindow, atoms: Sequence[Atom], t0: int,
                   ref: Reference = NOW_REF, stem: str = "T",
                   aligned: bool = True) -> tuple[Literal, ...]:
    """Body literals saying that each atom holds in the profile's scope of ``window`` at ``ref``
    (``aligned``: see :func:`_scope`)."""
    window = _range(window, profile)
    lars_window = ref.scope_window(window.length + (0 if aligned else window.step))
    literals: list[Literal] = []
    for k, atom in enumerate(atoms, start=1):
        time = internal_variable(stem, k)
        literals.append(Literal(WindowAtom(lars_window, At(time), atom)))
        literals.extend(Literal(c) for c in _scope(_kind(profile), profile, window, t0, time, ref,
                                                   aligned))
    return (ref.binding if stem == "T" else ()) + tuple(literals)


def _arrival(ref: Reference, stream: Term) -> Literal:
    args = tuple(internal_variable("X", k) for k in range(1, 4)) + (stream,)
    return Literal(WindowAtom(ref.arrival_window(), At(ref.variable), Atom(STRIPLE, args)))


def _conditions(policy: str, profile: Profile, window: RangeWindow, stream: Term, t0: int,
                period: int | None, ref: Reference) -> tuple[Literal, ...]:
    """The body literals of one report policy for one window, at ``ref``."""
    at = ref.variable
    if policy == "periodic":
        if period is None:
            raise InputError(f"profile {profile.name} reports periodically and needs a period",
                             hint="give --period")
        return (Literal(Comparison("=", BinaryOp("%", at, Number(period)), Number(0))),)
    if policy == "input":
        return (_arrival(ref, internal_variable("X", 4)),)
    if policy == "content-change":
        return (_arrival(ref, stream), Literal(Comparison(">", at, Number(t0))))
    if policy == "non-empty":
        witness = Atom(STRIPLE, tuple(internal_variable("Y", k) for k in range(1, 4)) + (stream,))
        return scope_literals(profile, window, [witness], t0, ref, stem="E")
    # window close
    full = profile.startup == "full"
    offset = t0 + window.length
    found = [Literal(Comparison("=", _modulo(_minus(at, offset), window.step, full), Number(0)))]
    if full:
        found.insert(0, Literal(Comparison(">=", at, Number(offset))))
    else:  # a partial window must hold some time point: one before R
        earlier = internal_variable("M")
        found += [Literal(WindowAtom(ref.scope_window(1), At(earlier), _TRUE)),
                  Literal(Comparison("<", earlier, at))]
    return tuple(found)


def _aligned(query: RspQuery, profile: Profile) -> bool:
    """Whether every evaluation is a close of every window: a window-close policy and windows
    that all close together (one window, or the same width, slide and t0)."""
    return "window-close" in profile.report and len({w for _, w in _windows(query)}) == 1


def _windows(query: RspQuery) -> list[tuple[object, RspWindow]]:
    seen: dict[tuple, None] = {}
    for spec in query.streams:
        seen.setdefault((spec.stream, spec.window), None)
    return list(seen)


def trigger_bodies(query: RspQuery, profile: Profile, encoder: RdfTermEncoder, t0: int,
                   period: int | None, ref: Reference = NOW_REF) -> list[tuple[Literal, ...]]:
    """One body per window of ``query``: the conjunction of the report policy at ``ref``."""
    order = [p for p in ("window-close", "content-change", "periodic", "input", "non-empty")
             if p in profile.report and not (p == "non-empty" and "content-change" in profile.report)]
    bodies = []
    for stream, window in _windows(query):
        window = _range(window, profile)
        constant = encoder.encode(stream)
        body = list(ref.binding)
        for policy in order:
            body.extend(_conditions(policy, profile, window, constant, t0, period, ref))
        if tuple(body) not in bodies:
            bodies.append(tuple(body))
    if not bodies:
        raise UnsupportedError(f"a query without stream windows under profile {profile.name}")
    return bodies


def _rename_atom(atom: Atom, names: dict[str, str]) -> Atom:
    return Atom(names.get(atom.predicate, atom.predicate), atom.args)


def _rename(rule: Rule, names: dict[str, str]) -> Rule:
    """``rule`` with the predicates in ``names`` renamed (heads, atoms, window atoms, and the
    atom a fold reads: else an aggregate's previous relation folded the current one)."""
    def formula(f):
        if isinstance(f, Atom):
            return _rename_atom(f, names)
        if isinstance(f, WindowAtom):
            return WindowAtom(f.window, f.modality, _rename_atom(f.atom, names))
        if isinstance(f, Fold):
            return replace(f, atom=_rename_atom(f.atom, names))
        return f
    return Rule(formula(rule.head), tuple(Literal(formula(l.formula), l.negated) for l in rule.body))


def _strategy(profile: Profile):
    return tau1 if profile.translation == "csparql" else tau2


def _prepare(query: RspQuery, profile: Profile, variant: str) -> RspQuery:
    return cs(query) if profile.translation == "csparql" else cq_variant(query, variant)


def _previous(prepared: RspQuery, profile: Profile, encoder: RdfTermEncoder, t0: int,
              period: int | None, answer: Atom, reach: int | None,
              aligned: bool) -> list[tuple[Rule, str]]:
    """The rules that recompute the previous report's relation as ``ans_1_prev``."""
    if profile.translation != "cqels":
        raise UnsupportedError(f"{profile.r2s} with the C-SPARQL translation (τ1) in profile "
                               f"{profile.name}: use translation = \"cqels\"")
    copy = _strategy(profile)(prepared, encoder, literals=lambda w, atoms: scope_literals(
        profile, w, atoms, t0, previous_ref(reach), aligned=aligned),
        empty_group=profile.empty_group)
    names = {name: previous_predicate(name) for name, _ in derived_predicates(copy.program)}
    found = [(Rule(Atom(REPORT_AT, (_R,)), body),
              "an earlier evaluation at _R (the report policy positioned at _R)")
             for body in trigger_bodies(prepared, profile, encoder, t0, period,
                                         candidate_ref(reach))]
    found.append((Rule(Atom(LATER_REPORT, (_R,)), (
        Literal(Atom(REPORT_AT, (_R,))), Literal(Atom(REPORT_AT, (_Q,))),
        Literal(Comparison("<", _R, _Q)))), "an evaluation after _R and before now"))
    found.append((Rule(Atom(PREVIOUS_REPORT, (_R,)), (
        Literal(Atom(REPORT_AT, (_R,))), Literal(Atom(LATER_REPORT, (_R,)), negated=True))),
        "the previous evaluation"))
    previous = _rename_atom(answer, names)
    found += [(_gated(_rename(rule, names), previous.predicate), "previous report: " + comment)
              for rule, comment in zip(copy.program, copy.comments)]
    current, prior = (answer, previous) if profile.r2s == "istream" else (previous, answer)
    head = Atom(stream_predicate(profile.r2s), answer.args)
    found.append((Rule(head, (Literal(current), Literal(prior, negated=True))),
                  f"{profile.r2s}: answers now not in the previous relation" if profile.r2s == "istream"
                  else "dstream: answers of the previous relation no longer there"))
    return found


def _gated(rule: Rule, previous: str) -> Rule:
    """``rule`` needing ``prev_report(_P)`` if it derives the previous relation ``previous``:
    where there is no previous evaluation the previous relation is empty (SPEC section 12;
    RSP4J's Istream returns the whole first relation). Without the gate, a row of the copy
    that needs no window content would hold there: the empty group's row of an aggregate
    without GROUP BY (``COUNT`` 0 under empty-group ``row`` or ``null``), whose first report
    Istream then dropped and Dstream reported as deleted, or a UNION branch over static data."""
    gate = Literal(Atom(PREVIOUS_REPORT, (_P,)))
    if base_atom(rule.head).predicate != previous or gate in rule.body:
        return rule
    return Rule(rule.head, (*rule.body, gate), rule.position)


def report_reach(query: RspQuery, input_times: Sequence[int], period: int | None = None
                 ) -> int | None:
    """A bound on the distance between two consecutive evaluations of an engine profile over a
    stream with input at ``input_times``: the longest gap between inputs plus the widest window
    and slide, or the period if longer. ``None`` (no bound) for windows that slide further than
    they reach (``β > L``), where input between two windows is never reported."""
    times = sorted(set(input_times))
    gap = max((b - a for a, b in zip(times, times[1:])), default=0)
    windows = [spec.window for spec in query.streams if isinstance(spec.window, RangeWindow)]
    if any(w.step > w.length for w in windows):
        return None
    return max(gap + max((w.length + w.step for w in windows), default=0), period or 0)


def refuse_unread_streams(query: RspQuery, profile: Profile, source: str | None = None) -> None:
    """Refuse a C-SPARQL query under a profile of CQELS's translation τ2: τ2 reads a query's
    STREAM patterns, and a C-SPARQL query has none, so every pattern would read static data and
    nothing would be answered (``lars run`` refused it; ``lars check`` judged a correct recording
    against that empty run and blamed the recording: newcomer finding)."""
    if profile.translation == "cqels" and query.engine == "csparql":
        raise InputError(
            f"profile {profile.name} reads the query's STREAM patterns (τ2), and a C-SPARQL "
            "query has none: every pattern would read static data, and nothing would be "
            "answered", hint="give the query in CQELS or RSP-QL (lars agree prints the CQELS "
            "query it derives), or a profile of C-SPARQL's translation τ1 (csparql, "
            "sparqlstream, paper-pull)", position=None if source is None else Position(source))


def compile_profile(query: RspQuery, profile: Profile, t0: int = 0, period: int | None = None,
                    variant: str = "brave", reach: int | None = None) -> Translation:
    """The LARS program of ``query`` under ``profile`` with windows starting at ``t0``.

    Args:
        period: ``U`` in ticks, for periodic policies (default: C-SPARQL's COMPUTED EVERY).
        variant: for the CQELS translation, which query of ``cq(Q)``.
        reach: for Istream and Dstream, how far back (in ticks) the previous evaluation can
            lie; ``None`` (exact for every stream) reads the history through ``⊞^∞``. A caller
            that knows the stream passes :func:`report_reach` of it, which gives the same
            answers on that stream with windows of finite length.

    Raises:
        UnsupportedError: tuple-driven or batch ticks, windows that are not time-based under an
            engine policy, Istream/Dstream with τ1.
    """
    period = period if period is not None else query.every
    r2s = profile.r2s_for(query.name, query.r2s)
    if r2s != profile.r2s:
        profile = replace(profile, r2s=r2s)
    if profile.tick != "time":
        raise UnsupportedError(f"{profile.tick}-driven ticks (profile {profile.name}): only "
                               "time-driven evaluation compiles to LARS")
    if profile.paper:
        found = translate(query, profile.translation, variant, profile.mode, period, profile.bounds,
                          empty_group=profile.empty_group)
        return replace(found, profile=profile.name)
    encoder = RdfTermEncoder()
    prepared = _prepare(query, profile, variant)
    aligned = _aligned(prepared, profile)
    result: TauResult = _strategy(profile)(prepared, encoder, literals=lambda w, atoms: scope_literals(
        profile, w, atoms, t0, aligned=aligned), empty_group=profile.empty_group)
    arity = len(result.answer.variables) + 2
    answer = Atom(result.answer_predicate, tuple(internal_variable("A", k) for k in range(1, arity + 1)))
    rules = list(zip(result.program, result.comments))
    output = answer
    if profile.r2s != "rstream":
        rules += _previous(prepared, profile, encoder, t0, period, answer, reach, aligned)
        output = Atom(stream_predicate(profile.r2s), answer.args)
    triggered = [(rule, comment) for rule, comment in zip(
        with_trigger(Program(tuple(r for r, _ in rules))), (c for _, c in rules))]
    policy = " ∧ ".join(sorted(profile.report))
    triggered += [(Rule(Atom(TRIGGER), body), f"report policy {policy} (t0 = {t0})")
                  for body in trigger_bodies(prepared, profile, encoder, t0, period)]
    if profile.empty == "emit":
        triggered.append((Rule(Atom(REPORT), (Literal(Atom(TRIGGER)),)),
                          "every evaluation is reported, empty relations too"))
    else:
        triggered.append((Rule(Atom(REPORT), (Literal(output),)), "empty relations are dropped"))
    program = Program(tuple(rule for rule, _ in triggered))
    verify(program)
    select = tuple(v.name for v in query.variables)
    spec = AnswerSpec(output.predicate, answer_arguments(prepared), select)
    return Translation(program, tuple(c for _, c in triggered), spec, prepared,
                       profile.translation, variant if profile.translation == "cqels" else None,
                       "engine", period if "periodic" in profile.report else None, profile.bounds,
                       profile=profile.name, report=REPORT, t0=t0, empty_group=profile.empty_group)


def compile_sliding(query: RspQuery, profile: Profile, length: int,
                    variant: str = "brave") -> Translation | None:
    """The query as ``profile`` translates it (τ1 or τ2, its empty-group reading) with every
    window read as ``⊞^length ◇`` and no report policy: at every time point ``t`` its answers
    are the query over the window content ``[t - length, t]``.

    ``lars check`` reads the reports of a window-close profile off it, for every t0 at once
    (:mod:`agreement.check.sliding`). That reading needs the answers to depend on time only
    through that window, so ``None`` when the program reads time otherwise (an ``@``, the
    query's NOW(), any other window).
    """
    window = TimeWindow(length)
    prepared = _prepare(query, profile, variant)
    result = _strategy(profile)(prepared, RdfTermEncoder(), literals=lambda _, atoms: tuple(
        Literal(WindowAtom(window, DIAMOND, atom)) for atom in atoms),
        empty_group=profile.empty_group)
    if not all(_timeless(rule, window) for rule in result.program):
        return None
    select = tuple(v.name for v in query.variables)
    spec = AnswerSpec(result.answer_predicate, answer_arguments(prepared), select)
    return Translation(result.program, result.comments, spec, prepared, profile.translation,
                       variant if profile.translation == "cqels" else None, "engine",
                       window_bounds="closed", profile=profile.name,
                       empty_group=profile.empty_group)


def _timeless(rule: Rule, window: TimeWindow) -> bool:
    """Whether ``rule`` reads time only through ``window`` over stream items (``⊞ ◇ striple``):
    a plain head, and body literals that are plain atoms, comparisons, folds over plain atoms
    or that window."""
    if not isinstance(rule.head, Atom):
        return False
    for literal in rule.body:
        formula = literal.formula
        if isinstance(formula, WindowAtom):
            if (formula.window != window or formula.modality != DIAMOND
                    or formula.atom.predicate != STRIPLE):
                return False
        elif not isinstance(formula, (Atom, Comparison, Fold)):
            return False
    return True


def window_reach(queries: Sequence[RspQuery]) -> int | None:
    """How far after its time point a triple can still be in a window of ``queries``: the
    longest ``RANGE`` (``[NOW]``: 0); ``None`` when some window is not bounded in time
    (``[TRIPLES N]``, ``[ALL]``), so a late triple may change every later verdict."""
    reach = 0
    for query in queries:
        for spec in query.streams:
            if isinstance(spec.window, RangeWindow):
                reach = max(reach, spec.window.length)
            elif not isinstance(spec.window, NowWindow):
                return None
    return reach
