"""Keys of constants, and slices of input atoms kept as keys (what the incremental engine reads).

A *key* stands for a constant where values are hashed and compared many times: a number is a
Python ``int``, a name its text, a string or IRI its text behind ``"`` or ``<``. Keys hash and
compare in C, which the frozen dataclasses of :mod:`lars.terms` do not; they are decoded only
for comparisons and output (:func:`key_constant`).

A :class:`KeyedSlice` holds the input atoms of one signature at one time point as the keys of
their arguments. A reader that can key atoms straight from their text (the common shape of a
LARS atom stream line, :func:`ingest.larsfile.keyed_stream_line`) hands the solver the keys and
no atoms: at a thousand atoms a time point, making the atoms costs more than everything else
the engine does with them. The slice still reads as the sequence of its atoms, made when first
asked for, so any other reader of a slice sees what it always saw.

>>> keyed = KeyedSlice.from_keys(("p", 2), [(1, "a"), (2, "b")])
>>> keyed.having(1, "b"), len(keyed)
([(2, 'b')], 2)
>>> keyed[0], keyed == (Atom("p", (Number(1), Name("a"))), Atom("p", (Number(2), Name("b"))))
(Atom(predicate='p', args=(Number(value=1), Name(value='a'))), True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lars.atoms import Atom
from lars.terms import Constant, Iri, Name, Number, String

Key = int | str
Tuple = tuple[Key, ...]
Signature = tuple[str, int]

_NUMBERS: dict[int, Number] = {}


def number(value: int) -> Number:
    """``Number(value)``, shared (time points become constants of ``@_T`` tuples very often)."""
    found = _NUMBERS.get(value)
    if found is None:
        if len(_NUMBERS) > 1 << 12:
            _NUMBERS.clear()
        found = _NUMBERS[value] = Number(value)
    return found


def key_of(constant: Constant) -> Key:
    """The key of a constant (see the module docstring); distinct constants get distinct keys."""
    kind = type(constant)
    if kind is Number or kind is Name:
        return constant.value
    return ('"' if kind is String else "<") + constant.value


_CONSTANTS: dict[str, Constant] = {}


def key_constant(key: Key) -> Constant:
    """The constant of a key (inverse of :func:`key_of`), shared while it is recent: a head
    that copies stream atoms (C-SPARQL's ``triple``) rebuilds the same constants at every
    pull, and an ``Iri`` checks its text when made."""
    if type(key) is int:
        return number(key)
    found = _CONSTANTS.get(key)
    if found is None:
        if len(key) > LONG_KEY:
            return fresh_constant(key)
        if len(_CONSTANTS) > 1 << 14:
            _CONSTANTS.clear()
        found = _CONSTANTS[key] = fresh_constant(key)
    return found


LONG_KEY = 1 << 12
"""Keys longer than this are not remembered by :func:`key_constant` (its memory counts entries;
a GROUP_CONCAT over 10^4 literals of 1 KB is a new 10 MB string at each time point)."""


def fresh_constant(key: Key) -> Constant:
    """The constant of a key, made anew (:func:`key_constant` without its memory)."""
    if type(key) is int:
        return Number(key)
    mark = key[:1]
    return String(key[1:]) if mark == '"' else Iri(key[1:]) if mark == "<" else Name(key)


def keys_of(atom: Atom) -> Tuple:
    """The keys of an atom's arguments."""
    return tuple([key_of(arg) for arg in atom.args])


class KeyedSlice(Sequence[Atom]):
    """The input atoms of one signature at one time point, keyed once and indexed on demand for
    every body atom that reads them (:meth:`solver.incremental.relations.Pattern.matches`): a
    slice of 450 triples read by five ``striple`` patterns with constant predicates is keyed
    once, and each pattern looks at the triples with its predicate only.

    Made from atoms (:class:`KeyedSlice`), it keys them when asked; made from keys
    (:meth:`from_keys`), it makes its atoms when asked. Either way it is the sequence of its
    atoms in arrival order, equal to the tuple of them.

    >>> from lars.parser import parse_atom
    >>> keyed = KeyedSlice([parse_atom("p(1,a)"), parse_atom("p(2,b)")])
    >>> keyed.keys(), keyed.having(1, "b")
    ([(1, 'a'), (2, 'b')], [(2, 'b')])
    """

    __slots__ = ("signature", "_atoms", "_keys", "_indexes", "_keyed")

    def __init__(self, atoms: Sequence[Atom]):
        """The slice of ``atoms``, all of one signature (at least one atom)."""
        self.signature: Signature = atoms[0].signature
        self._atoms: Sequence[Atom] | None = atoms
        self._keys: list[Tuple] | None = None
        self._indexes: dict[int, tuple[bool, dict[Key, list]]] = {}
        self._keyed: dict[tuple[int, Key], list[Tuple]] = {}

    @classmethod
    def from_keys(cls, signature: Signature, keys: list[Tuple]) -> KeyedSlice:
        """The slice of the atoms of ``signature`` whose arguments have these keys."""
        keyed = cls.__new__(cls)
        keyed.signature, keyed._atoms, keyed._keys = signature, None, keys
        keyed._indexes, keyed._keyed = {}, {}
        return keyed

    def keys(self) -> list[Tuple]:
        """The keys of each atom's arguments, in arrival order (shared: not to be changed)."""
        if self._keys is None:
            self._keys = [tuple([key_of(arg) for arg in atom.args]) for atom in self._atoms]
        return self._keys

    @property
    def atoms(self) -> Sequence[Atom]:
        """The atoms, in arrival order (made from the keys at the first call)."""
        if self._atoms is None:
            predicate = self.signature[0]
            self._atoms = [Atom(predicate, tuple(map(key_constant, keys))) for keys in self._keys]
        return self._atoms

    def having(self, position: int, key: Key) -> list[Tuple]:
        """The keyed atoms with ``key`` at argument ``position``, in arrival order. Atoms not
        keyed yet are indexed by that argument's key alone and keyed whole only in the groups
        asked for (a query reads a few of a stream's predicates: CSRBench Q1 half of its triples)."""
        found = self._keyed.get((position, key))
        if found is None:
            keyed, index = self._indexes.get(position) or self._index(position)
            group = index.get(key, [])
            found = self._keyed[position, key] = group if keyed else \
                [tuple([key_of(arg) for arg in atom.args]) for atom in group]
        return found

    def _index(self, position: int) -> tuple[bool, dict[Key, list]]:
        """The keys (or, if the atoms are not keyed yet, the atoms) by their argument at
        ``position``; ``True`` for keys."""
        index: dict[Key, list] = {}
        if self._keys is not None:
            for keys in self._keys:
                index.setdefault(keys[position], []).append(keys)
        else:
            for atom in self._atoms:
                index.setdefault(key_of(atom.args[position]), []).append(atom)
        self._indexes[position] = found = (self._keys is not None, index)
        return found

    def __len__(self) -> int:
        return len(self._keys if self._keys is not None else self._atoms)

    def __iter__(self) -> Iterator[Atom]:
        return iter(self.atoms)

    def __getitem__(self, index):
        return self.atoms[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KeyedSlice):
            return self.signature == other.signature and self.keys() == other.keys()
        if isinstance(other, tuple):
            return tuple(self.atoms) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self.atoms))

    def __repr__(self) -> str:
        return repr(tuple(self.atoms))

    def __reduce__(self):
        return KeyedSlice.from_keys, (self.signature, self.keys())
