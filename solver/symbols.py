"""LARS constants and ground atoms ↔ clingo symbols (the only place that knows the mapping).

``Number`` ↔ a clingo number, ``Name`` ↔ a constant, ``String`` ↔ a string and ``Iri`` ↔ the
term ``iri("...")``. clingo orders numbers < constants < strings < compound terms, which is
:func:`lars.terms.order_key`, so comparisons mean the same on both sides.

Toward clingo the mapping is text (:func:`constant_text`, :func:`atom_text`), written without
making clingo symbols, as clingo keeps every symbol for the life of its process; back from
clingo's models it reads symbols (:func:`constant_of`, :func:`atom_of`).

>>> from lars.terms import Iri
>>> constant_text(Iri("http://ex.org/a"))
'iri("http://ex.org/a")'
"""

from __future__ import annotations

from functools import lru_cache

import clingo

from lars.atoms import Atom
from lars.errors import LarsError, UnsupportedError
from lars.externals import call, external, lookup
from lars.terms import BinaryOp, Constant, Iri, Name, Number, String, evaluate

IRI_FUNCTION = "iri"

ARITHMETIC = "lars_arith"
"""The external function through which clingo computes a rule's arithmetic (the encoding of
:mod:`solver.encode`): clingo's own arithmetic wraps around at 32 bits without a word
(``2147483647+1`` is ``-2147483648``). Registered here, beside :class:`Context`, so that every
process that grounds has it."""


@external(ARITHMETIC)
def _arithmetic(op: String, left: Constant, right: Constant) -> Constant | None:
    """``left op right`` as :func:`lars.terms.evaluate` computes it for the Python strategies:
    undefined (no value) on a non-number or a division by zero, refused past 32 bits (issue 28)."""
    return evaluate(BinaryOp(op.value, left, right), {})


def constant_of(symbol: clingo.Symbol) -> Constant:
    """The LARS constant of a clingo symbol read from :func:`constant_text`."""
    if symbol.type == clingo.SymbolType.Number:
        return Number(symbol.number)
    if symbol.type == clingo.SymbolType.String:
        return String(symbol.string)
    if symbol.name == IRI_FUNCTION and len(symbol.arguments) == 1:
        return Iri(symbol.arguments[0].string)
    return Name(symbol.name)


def symbol_of(constant: Constant) -> clingo.Symbol:
    """The clingo symbol of a LARS constant (the inverse of :func:`constant_of`)."""
    if isinstance(constant, Number):
        return clingo.Number(constant.value)
    if isinstance(constant, String):
        return clingo.String(constant.value)
    if isinstance(constant, Iri):
        return clingo.Function(IRI_FUNCTION, [clingo.String(constant.value)])
    return clingo.Function(constant.value)


class Context:
    """clingo's grounding context: clingo calls ``@name(...)`` as ``context.name(...)``, which
    runs the external function ``name`` (:mod:`lars.externals`) on the arguments' constants.

    The function's value becomes a symbol (which clingo keeps for the life of its process); an
    undefined value (``None``) is no symbol, so the literal with the call is false, as
    :func:`lars.terms.evaluate` makes it for the Python strategies.

    External functions are pure, so each distinct call is made once per grounding and its
    symbols kept: clingo calls Python for every ground instance, and in the time-indexed program
    of ``lars witness`` the same bindings recur at every reference time (the running example's
    FILTER: 182,784 calls for about 6,000 bindings, most of its 19 s search).
    """

    def __init__(self) -> None:
        self._cache: dict[tuple[str, tuple[clingo.Symbol, ...]], list[clingo.Symbol]] = {}

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_cache":
            raise AttributeError(name)
        lookup(name)  # an unknown function is refused here, before clingo calls it
        cache = self._cache

        def called(*symbols: clingo.Symbol) -> list[clingo.Symbol]:
            key = (name, symbols)
            found = cache.get(key)
            if found is None:
                value = call(name, tuple(constant_of(symbol) for symbol in symbols))
                found = cache[key] = [] if value is None else [symbol_of(value)]
            return found
        # kept as an attribute: clingo looks the function up at every call, and __getattr__
        # (with its lookup and a new closure) ran 182,784 times in the running example's search
        self.__dict__[name] = called
        return called


def ground(control: clingo.Control) -> None:
    """Ground the ``base`` part of ``control`` with the external functions of :class:`Context`.

    A function that refuses (a :class:`~lars.errors.LarsError`, e.g. a regular expression past
    its time budget) reaches the caller as itself: clingo re-raises a callback's exception as
    ``type(error)(error)``, which would print the message twice over ("error: error: ...").
    """
    try:
        control.ground([("base", [])], context=Context())
    except LarsError as error:
        raise (error.args[0] if error.args and isinstance(error.args[0], LarsError) else error) from None


def quoted(text: str) -> str:
    """A clingo string literal, as clingo prints ``String(text)``: ``\\``, ``"`` and line feeds
    escaped.

    Raises:
        UnsupportedError: the text holds a NUL character: clingo keeps C strings and would cut
            it there, so two different strings could silently become one.
    """
    if "\0" in text:
        raise UnsupportedError(f"a string with a NUL character cannot be passed to clingo: {text!r}",
                               hint="use --strategy stratified, which does not call clingo")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def constant_text(constant: Constant) -> str:
    """The clingo text of a LARS constant, as clingo prints its symbol, made without clingo:
    every symbol clingo makes stays in its process for good, and a stream of fresh IRIs would
    grow that without bound."""
    if isinstance(constant, Number):
        return str(constant.value)
    if isinstance(constant, Name):
        return constant.value
    if isinstance(constant, String):
        return quoted(constant.value)
    return f"{IRI_FUNCTION}({quoted(constant.value)})"


@lru_cache(maxsize=1 << 16)
def atom_text(atom: Atom) -> str:
    """The clingo text of a ground atom, e.g. ``offer(a,"mbt",30)``, made without clingo
    (cached: streams repeat atoms)."""
    if not atom.args:
        return atom.predicate
    return f"{atom.predicate}({','.join(map(constant_text, atom.args))})"


def atom_of(symbol: clingo.Symbol) -> Atom:
    """The LARS atom of a clingo term read from :func:`atom_text`."""
    return Atom(symbol.name, tuple(constant_of(arg) for arg in symbol.arguments))
