"""LARS program → ASP program for clingo, grounded anew at each time point (SPEC section 7).

The encoding reifies truth over time. At reference time ``t`` the facts are

* ``__h(A,T)``  input atom ``A`` at time point ``T`` (only the part of the stream up to ``t``);
* ``__bg(A)``   background atom ``A`` (holds at every time point; ``true`` is one of them);
* ``__now(t)``, ``__tl(Min,Max)`` the reference time and the timeline;
* ``__rng(W,Lo,Hi)`` the interval that body atom ``W`` looks at (a window, ``[t,t]`` for an
  ordinary atom, the whole timeline for ``@_s a``); ``__tw(W,A,T)`` the content of a tuple window.

Each rule head derives ``__d(A,T)`` (``T`` is ``t`` for a plain head, the time term for
``@_T a``); ``__h(A,T) :- __d(A,T)`` lets windows see derived atoms at any time point. Each body
atom becomes an auxiliary predicate ``__a<r>_<j>`` defined by one encoder per modality, reading
either ``__h`` within the interval (time windows) or ``__tw`` (tuple windows):

>>> from lars.parser import parse_program
>>> print(encode_program(parse_program("x :- [5] <> p(X).")).text)
__h(A,T) :- __d(A,T).
__bg(true).
__a0_0(VX) :- __rng(w0_0,Lo,Hi), __h(p(VX),T), Lo<=T, T<=Hi.
__a0_0(VX) :- __rng(w0_0,Lo,Hi), Lo<=Hi, __bg(p(VX)).
__d(x,N) :- __now(N), __a0_0(VX).
#show __d/2.

The auxiliary predicate of a body atom has the atom's variables (and the time variable of
``@_T``) as arguments, in alphabetical order; the generated names ``Lo``, ``Hi``, ``T``, ``N``
never clash with the rule's variables, which all start with ``V``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lars.atoms import Atom, Comparison
from lars.errors import UnsupportedError
from lars.folds import expand, expansion
from lars.formulas import At, AtAtom, Box, Diamond, Modality, WindowAtom
from lars.printer import print_rule
from lars.rules import Literal, Program, Rule
from lars.terms import Function, Iri, Name, Number, String, Term, Variable
from lars.windows import TupleWindow, Window
from solver.symbols import ARITHMETIC, constant_text

PREAMBLE = ("__h(A,T) :- __d(A,T).", "__bg(true).")
SHOW = "#show __d/2."

NOW_WINDOW = None
"""Marker for the interval of an ordinary atom: ``[t, t]``."""


@dataclass(frozen=True)
class Scope:
    """The interval one body atom looks at.

    Attributes:
        ident: the ASP constant naming it (``w<rule>_<literal>``).
        window: its window; ``None`` with ``whole_timeline`` for ``@_s a`` outside windows,
            ``None`` otherwise for an ordinary atom (``[t, t]``).
        atom: the atom it reads (for tuple windows and the empty-□ case).
        needs_domain: a ``□`` over variables, which over an empty window holds for every value.
    """

    ident: str
    window: Window | None
    whole_timeline: bool
    atom: Atom
    needs_domain: bool = False


@dataclass(frozen=True)
class Encoding:
    """The ASP text of a program and the scopes whose intervals each time point must supply."""

    text: str
    scopes: tuple[Scope, ...]


def term_text(term: Term) -> str:
    """ASP text of a term; LARS variable ``X`` becomes ``VX`` so generated names never clash.

    Arithmetic ``X+1`` becomes ``@lars_arith("+",VX,1)``: clingo's own arithmetic wraps around at
    32 bits without a word (``2147483647+1`` is ``-2147483648``), so it is computed by
    :func:`lars.terms.evaluate`, which refuses an overflow with one line (issue 28), as the
    Python strategies do.
    """
    if isinstance(term, Variable):
        return "V" + term.name
    if isinstance(term, (Number, Name, String, Iri)):
        return constant_text(term)
    if isinstance(term, Function):
        return f"@{term.name}({','.join(term_text(arg) for arg in term.args)})"
    return f'@{ARITHMETIC}("{term.op}",{term_text(term.left)},{term_text(term.right)})'


def atom_term(atom: Atom) -> str:
    """ASP text of an atom used as a term inside ``__h``/``__bg``/``__d``."""
    if not atom.args:
        return atom.predicate
    return f"{atom.predicate}({','.join(term_text(arg) for arg in atom.args)})"


def source(scope: Scope, atom: str, time: str) -> str:
    """The literal(s) saying that ``atom`` holds at ``time`` inside the scope's interval."""
    if isinstance(scope.window, TupleWindow):
        return f"__tw({scope.ident},{atom},{time})"
    return f"__h({atom},{time}), Lo<={time}, {time}<=Hi"


def encode_diamond(scope: Scope, head: str, atom: str, modality: Diamond) -> list[str]:
    """◇a: ``a`` at some point of the interval, or ``a`` is background and the interval non-empty."""
    return [
        f"{head} :- __rng({scope.ident},Lo,Hi), {source(scope, atom, 'T')}.",
        f"{head} :- __rng({scope.ident},Lo,Hi), Lo<=Hi, __bg({atom}).",
    ]


def encode_at(scope: Scope, head: str, atom: str, modality: At) -> list[str]:
    """@_s a: ``s`` in the interval and ``a`` holds at ``s`` (background holds at every ``s``)."""
    time = term_text(modality.time)
    bind = f"{time}=Lo..Hi" if isinstance(modality.time, Variable) else f"Lo<={time}, {time}<=Hi"
    return [
        f"{head} :- __rng({scope.ident},Lo,Hi), {source(scope, atom, time)}.",
        f"{head} :- __rng({scope.ident},Lo,Hi), __bg({atom}), {bind}.",
    ]


def encode_box(scope: Scope, head: str, atom: str, modality: Box) -> list[str]:
    """□a: ``a`` at every point of the interval; vacuously true on an empty interval."""
    count = f"#count{{T: {source(scope, atom, 'T')}}} >= Hi-Lo+1"
    domain = "".join(f", __dom({term_text(Variable(v))})" for v in sorted(scope.atom.variables()))
    return [
        f"{head} :- __bg({atom}).",
        f"{head} :- __rng({scope.ident},Lo,Hi), {source(scope, atom, 'Lo')}, {count}.",
        f"{head} :- __rng({scope.ident},Lo,Hi), Lo>Hi{domain}.",
    ]


ENCODERS: dict[type, Callable[[Scope, str, str, Modality], list[str]]] = {
    Diamond: encode_diamond,
    At: encode_at,
    Box: encode_box,
}
"""One encoder per modality; the window kind only changes :func:`source`."""


def scope_and_modality(ident: str, formula: Atom | AtAtom | WindowAtom) -> tuple[Scope, Modality]:
    """Where an extended atom looks and with which modality: ``a`` is ``◇`` over ``[t,t]``."""
    if isinstance(formula, Atom):
        return Scope(ident, NOW_WINDOW, False, formula), Diamond()
    if isinstance(formula, AtAtom):
        return Scope(ident, None, True, formula.atom), At(formula.time)
    needs_domain = isinstance(formula.modality, Box) and bool(formula.atom.variables())
    return Scope(ident, formula.window, False, formula.atom, needs_domain), formula.modality


def auxiliary_head(name: str, literal: Literal) -> str:
    """``__a<r>_<j>(vars)``: the auxiliary atom over the literal's variables (sorted)."""
    names = sorted(literal.variables())
    return f"{name}({','.join('V' + v for v in names)})" if names else name


def encode_literal(rule_index: int, index: int, literal: Literal) -> tuple[str, list[str], Scope | None]:
    """The body text of one literal, the rules defining its auxiliary atom, and its scope."""
    formula = literal.formula
    if isinstance(formula, Comparison):
        if literal.negated:
            raise UnsupportedError(
                "negated comparison: write the complementary comparison (e.g. X >= Y for not X < Y)"
            )
        return f"{term_text(formula.left)}{formula.op}{term_text(formula.right)}", [], None
    scope, modality = scope_and_modality(f"w{rule_index}_{index}", formula)
    head = auxiliary_head(f"__a{rule_index}_{index}", literal)
    rules = ENCODERS[type(modality)](scope, head, atom_term(scope.atom), modality)
    return ("not " if literal.negated else "") + head, rules, scope


def encode_head(rule: Rule, body: str) -> list[str]:
    """``__d(A,T)`` for the head; a head ``@_s a`` with ``s`` off the timeline is a contradiction."""
    joiner = ", " + body if body else ""
    if isinstance(rule.head, Atom):
        return [f"__d({atom_term(rule.head)},N) :- __now(N){joiner}."]
    time = term_text(rule.head.time)
    return [
        f"__d({atom_term(rule.head.atom)},{time}) :- __tl(Lo,Hi){joiner}, Lo<={time}, {time}<=Hi.",
        f":- __tl(Lo,Hi){joiner}, {time}<Lo.",
        f":- __tl(Lo,Hi){joiner}, {time}>Hi.",
    ]


def encode_body(rule: Rule, encode_one: Callable[[int, Literal], tuple[str, list[str], Scope | None]]
                ) -> tuple[list[str], list[str], list[Scope]]:
    """The body texts, auxiliary rules and scopes of ``rule``, each literal encoded by
    ``encode_one(index, literal)`` (this encoding's, or the time-indexed one's); an
    unsupported literal is reported at the rule's position."""
    body, lines, scopes = [], [], []
    for index, literal in enumerate(rule.body):
        try:
            text, aux_rules, scope = encode_one(index, literal)
        except UnsupportedError as error:
            raise UnsupportedError(error.message, rule.position) from None
        body.append(text)
        lines.extend(aux_rules)
        if scope is not None:
            scopes.append(scope)
    return body, lines, scopes


def encode_rule(rule_index: int, rule: Rule) -> tuple[list[str], list[Scope]]:
    """The ASP rules for one LARS rule and the scopes of its body atoms."""
    body, lines, scopes = encode_body(
        rule, lambda index, literal: encode_literal(rule_index, index, literal))
    return lines + encode_head(rule, ", ".join(body)), scopes


def encode_program(program: Program) -> Encoding:
    """The ASP encoding of a safe program (see the module docstring); a fold is encoded as its
    plain rules (:func:`lars.folds.expand`)."""
    program = expand(program)
    lines = list(PREAMBLE)
    scopes: list[Scope] = []
    for rule_index, rule in enumerate(program):
        rule_lines, rule_scopes = encode_rule(rule_index, rule)
        lines.extend(rule_lines)
        scopes.extend(rule_scopes)
    lines.append(SHOW)
    return Encoding("\n".join(lines), tuple(scopes))


def annotated_encoding(program: Program, comments: dict[int, str] | None = None) -> str:
    """The encoding of :func:`encode_program` with each LARS rule's ASP rules under a comment
    naming it (and ``comments[i]``, e.g. the SPARQL node it comes from): provenance for readers.
    """
    from_rules = []
    index = 0
    for rule_index, (rule, plain) in enumerate(zip(program, expansion(program))):
        lines = []
        for plain_rule in plain:
            lines += encode_rule(index, plain_rule)[0]
            index += 1
        note = f" ({comments[rule_index]})" if comments and rule_index in comments else ""
        from_rules += [f"% rule {rule_index}{note}: {print_rule(rule, 'ascii')}", *lines]
    return "\n".join([*PREAMBLE, *from_rules, SHOW])
