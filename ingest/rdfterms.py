"""rdflib terms made once: the readers' caches of IRIs and literals.

Stream readers build the same terms over and over (predicates, classes, datatypes, a sensor's
repeated values), and an rdflib literal converts its value on every construction. Both fast
readers, timestamped N-Triples (:mod:`ingest.rdffiles`) and Turtle (:mod:`ingest.turtlefast`),
take their terms from here. The terms are immutable, so sharing them is safe. The readers'
memories by text (:mod:`ingest.rdffiles`, :mod:`ingest.encoded`) keep two generations
(:func:`remembered`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any

from rdflib.term import Literal, URIRef

iri_term = functools.lru_cache(maxsize=1 << 14)(URIRef)
"""``URIRef`` by IRI, cached: predicates, streams and datatypes repeat element after element."""


@functools.lru_cache(maxsize=1 << 14)
def literal_term(text: str, lang: str | None, datatype: str | None) -> Literal:
    """``Literal`` by lexical form, language tag and datatype IRI, cached: a sensor stream
    repeats its values, and making an rdflib literal (which converts its value) costs several
    times reading the whole N-Triples line."""
    return Literal(text, lang, iri_term(datatype) if datatype else None)


def remembered(memo: dict, old: dict, key: Hashable, make: Callable[[Hashable], Any], kept: int) -> Any:
    """The value of ``key``, which ``memo`` lacks: ``old``'s (the previous generation's), else
    ``make(key)``; put in ``memo``. When ``memo`` holds ``kept`` entries it becomes the previous
    generation first: its entries move to ``old`` (whose own are dropped) and it starts empty.

    A replayed stream fills a memo with fresh subjects all the time; emptying it whole made
    the few values met on every line (predicates, classes, the stream) anew after each clear,
    equal but not the same objects, so every later dictionary look-up of them downstream (the
    encoder's, by term) compared them by rdflib's Python ``__eq__`` instead of by identity.
    With two generations, a value met in each stays the same object for as long as the
    reading goes on, and the two hold at most ``2 * kept`` entries. ``memo`` and ``old`` stay
    the same dictionaries (their contents move), so a caller's bound ``memo.get`` stays good.

    >>> memo, old = {}, {}
    >>> first = remembered(memo, old, "p", lambda key: [key], 2)
    >>> _ = remembered(memo, old, "s1", lambda key: [key], 2)
    >>> _ = remembered(memo, old, "s2", lambda key: [key], 2)      # memo was full: a new generation
    >>> sorted(memo), sorted(old)
    (['s2'], ['p', 's1'])
    >>> remembered(memo, old, "p", lambda key: [key], 2) is first  # met again: the same object
    True
    """
    value = old.get(key)
    if value is None:
        value = make(key)
    if len(memo) >= kept:
        old.clear()
        old.update(memo)
        memo.clear()
    memo[key] = value
    return value
