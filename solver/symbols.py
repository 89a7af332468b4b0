"""LARS constants and ground atoms ↔ clingo symbols (the only place that knows the mapping).

``Number`` ↔ a clingo number, ``Name`` ↔ a constant, ``String`` ↔ a string and ``Iri`` ↔ the
term ``iri("...")``. clingo orders numbers < constants < strings < compound terms, which is
:func:`lars.terms.order_key`, so comparisons mean the same on both sides.

>>> from lars.terms import Iri
>>> str(symbol_of(Iri("http://ex.org/a")))
'iri("http://ex.org/a")'
"""

from __future__ import annotations

from functools import lru_cache

import clingo

from lars.atoms import Atom
from lars.terms import Constant, Iri, Name, Number, String

IRI_FUNCTION = "iri"


def symbol_of(constant: Constant) -> clingo.Symbol:
    """The clingo symbol of a LARS constant."""
    if isinstance(constant, Number):
        return clingo.Number(constant.value)
    if isinstance(constant, Name):
        return clingo.Function(constant.value)
    if isinstance(constant, String):
        return clingo.String(constant.value)
    return clingo.Function(IRI_FUNCTION, [clingo.String(constant.value)])


def constant_of(symbol: clingo.Symbol) -> Constant:
    """The LARS constant of a clingo symbol made by :func:`symbol_of`."""
    if symbol.type == clingo.SymbolType.Number:
        return Number(symbol.number)
    if symbol.type == clingo.SymbolType.String:
        return String(symbol.string)
    if symbol.name == IRI_FUNCTION and len(symbol.arguments) == 1:
        return Iri(symbol.arguments[0].string)
    return Name(symbol.name)


def quoted(text: str) -> str:
    """A clingo string literal, as clingo prints ``String(text)``: ``\\``, ``"`` and line feeds
    escaped, and cut at the first NUL (clingo keeps C strings)."""
    text = text.split("\0", 1)[0]
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def constant_text(constant: Constant) -> str:
    """The clingo text of a LARS constant, ``str(symbol_of(constant))``, made without clingo:
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
    """The clingo text of a ground atom, e.g. ``offer(a,"mbt",30)``, ``str(atom_symbol(atom))``
    made without clingo (cached: streams repeat atoms)."""
    if not atom.args:
        return atom.predicate
    return f"{atom.predicate}({','.join(map(constant_text, atom.args))})"


def atom_symbol(atom: Atom) -> clingo.Symbol:
    """The clingo term of a ground atom."""
    return clingo.Function(atom.predicate, [symbol_of(arg) for arg in atom.args])


def atom_of(symbol: clingo.Symbol) -> Atom:
    """The LARS atom of a clingo term made by :func:`atom_symbol`."""
    return Atom(symbol.name, tuple(constant_of(arg) for arg in symbol.arguments))
