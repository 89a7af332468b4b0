"""The stream triples behind one answer, found and checked by evaluating the side's own program.

An explanation that cites stream triples for an answer (``snapshot-differs``,
``window-boundary``) must cite triples that *produce* it: a reading a FILTER removes, or one of
another group, is no witness (issue 27). So the witnesses of an answer are not picked by matching
triple patterns; they are cut down from the window content at the time point where the engine
gave it, by evaluating that engine's LARS program (the same translation the check runs, with the
static data) on candidate subsets and keeping a subset only while the program still gives the
answer at that time point (:func:`shrink`, a deterministic delta debugging). The result

* produces the answer (it is the last subset the program was run on and gave the answer for, or
  the whole window content): a witness set that does not is never returned;
* for an aggregate answer, is the answer's group in that window: dropping a triple of the group
  changes the aggregate, dropping any other triple does not;
* for a plain answer, is one match (no triple of it can be dropped).

Shrinking runs the program once per subset tried, each over what the subset holds, so it starts
from the triples :func:`connected` to the answer's terms when those alone give the answer (a
window of a dense stream holds thousands of triples, of which an answer rests on a handful):
first those reached from the answer's terms as subjects, then also as objects, and the whole
window content otherwise. Which start was taken changes the cost, never what is guaranteed
above.

>>> shrink(list(range(10)), lambda kept: {2, 7} <= set(kept))
[2, 7]
>>> shrink([1, 2], lambda kept: False) is None
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from agreement.compare import Row
from ingest.rdffiles import StreamTriple

T = TypeVar("T")

RowsOn = Callable[[str, Sequence[StreamTriple], int], frozenset[Row]]
"""``(side, stream triples, t) → rows``: the rows a side's program gives at ``t`` when its input
is those triples alone (``side`` is ``csparql`` or ``cqels``)."""


SINGLES = 6
"""Up to this many candidates, :func:`shrink` tries single items at once: halving first pays
only when most of the candidates can go, and the starts narrowed to what a program reads
(:meth:`Derivations.starts`) hold little else than the witness (Q1's answers: 4 of 4)."""


def shrink(candidates: Sequence[T], keeps: Callable[[list[T]], bool]) -> list[T] | None:
    """A subset of ``candidates`` (in their order) for which ``keeps`` holds, from which no chunk
    tried could be dropped (chunks of halving size, down to single items; single items at once
    for at most :data:`SINGLES` candidates); ``None`` when ``keeps`` fails on all of
    ``candidates``. Every subset returned was tested with ``keeps``.

    >>> calls = []
    >>> shrink([1, 2, 3, 4], lambda kept: calls.append(kept) or len(kept) == 4), len(calls)
    ([1, 2, 3, 4], 5)
    """
    kept = list(candidates)
    if not keeps(kept):
        return None
    size = 1 if len(kept) <= SINGLES else max(len(kept) // 2, 1)
    while True:
        i = 0
        while i < len(kept) and len(kept) > 1:
            trial = kept[:i] + kept[i + size:]
            if trial and keeps(trial):
                kept = trial
            else:
                i += size
        if size == 1:
            return kept
        size = max(size // 2, 1)


def connected(content: Sequence[StreamTriple], row: Row, from_objects: bool = True
              ) -> list[StreamTriple]:
    """The triples of ``content`` (in its order) reachable from the terms of ``row``.

    A triple is reached when its subject is a reached term (or, ``from_objects``, its object);
    reaching it reaches its subject, and its object if that is the subject of some triple of
    ``content`` (a node with properties, such as an observation's result; a class or a value
    shared by many triples stays a leaf). Without ``from_objects`` an answer's sensor does not
    reach every observation naming it: only what its observation says is reached.

    >>> from rdflib import URIRef as U
    >>> from ingest.rdffiles import StreamTriple
    >>> from lars.errors import Position
    >>> def e(s, p, o): return StreamTriple(0, None, (U(s), U(p), U(o)), Position("s.nt"))
    >>> content = [e("o1", "by", "s1"), e("o1", "result", "r1"), e("r1", "value", "v"),
    ...            e("o2", "by", "s1"), e("o1", "kind", "Temp"), e("o2", "kind", "Temp")]
    >>> [str(t.triple[0]) + " " + str(t.triple[1]) for t in connected(content, (U("s1"), U("o1")))]
    ['o1 by', 'o1 result', 'r1 value', 'o2 by', 'o1 kind', 'o2 kind']
    >>> [str(t.triple[0]) + " " + str(t.triple[1])
    ...  for t in connected(content, (U("s1"), U("o1")), from_objects=False)]
    ['o1 by', 'o1 result', 'r1 value', 'o1 kind']
    """
    return [content[index] for index in Reach(content).connected(row, from_objects)]


class Reach:
    """The triples of one window content indexed by subject (and, when first asked, by
    object): :func:`connected` for many answers over the same content, indexed once."""

    def __init__(self, content: Sequence[StreamTriple]) -> None:
        self.content = content
        self.by_subject: dict = defaultdict(list)
        for index, element in enumerate(content):
            self.by_subject[element.triple[0]].append(index)
        self._by_object: dict | None = None

    def by_object(self) -> dict:
        if self._by_object is None:
            self._by_object = defaultdict(list)
            for index, element in enumerate(self.content):
                self._by_object[element.triple[2]].append(index)
        return self._by_object

    def connected(self, row: Row, from_objects: bool = True) -> list[int]:
        """The positions in this content of :func:`connected`'s triples, ascending."""
        content, by_subject = self.content, self.by_subject
        by_object = self.by_object() if from_objects else {}
        reached = {term for term in row if term is not None}
        waiting, chosen = list(reached), set()
        while waiting:
            term = waiting.pop()
            for index in by_subject.get(term, []) + by_object.get(term, []):
                if index in chosen:
                    continue
                chosen.add(index)
                subject, _, value = content[index].triple
                for new in (subject, value) if value in by_subject else (subject,):
                    if new not in reached:
                        reached.add(new)
                        waiting.append(new)
        return sorted(chosen)


Readable = Callable[[str, Sequence[StreamTriple]], list[bool]]
"""``(side, stream triples) → flags``: for each triple, whether the side's program can read it
at all (:func:`lars.analysis.reads_atom`); a triple it cannot read never changes its answers."""


class Derivations:
    """Witness sets of answers, each checked by evaluation (see the module doc).

    Args:
        rows_on: evaluates a side's program on given stream triples (:data:`RowsOn`).
        readable: which triples a side's program can read (:data:`Readable`); shrinking starts
            from those of each candidate set first. ``None``: every triple.
    """

    def __init__(self, rows_on: RowsOn, readable: Readable | None = None) -> None:
        self.rows_on = rows_on
        self.readable = readable
        self.found: dict[tuple, tuple[list[StreamTriple], list[int] | None]] = {}
        self.reach: Reach | None = None  # the index of the content asked last

    def produces(self, side: str, elements: Sequence[StreamTriple], t: int, row: Row) -> bool:
        """Whether ``side``'s program gives ``row`` at ``t`` from ``elements`` and the static data."""
        return row in self.rows_on(side, elements, t)

    def witnesses(self, side: str, row: Row, t: int, content: Sequence[StreamTriple]
                  ) -> list[StreamTriple] | None:
        """The stream triples of ``content`` (the windows' content at ``t``, in time and arrival
        order) that give ``row`` at ``t`` on ``side``, or ``None`` when ``content`` does not.

        Remembered by side, row and time point with the content they were found in, so asking
        again with an equal content (compared element by element, the same objects at once)
        gives the same set without evaluating. What is remembered is the positions of the set
        in its content, and an answer is made of the elements of the content asked: equal
        contents read twice (a worker's window re-read from the file,
        :class:`~agreement.agree.arrivals.WindowReader`) are other objects, and the callers
        test membership by identity (:class:`~agreement.agree.conditions.Snapshot`)."""
        key = (side, row, t)
        known = self.found.get(key)
        if known is not None and known[0] == content:
            return None if known[1] is None else [content[index] for index in known[1]]
        content = content if type(content) is list else list(content)
        if self.reach is None or (self.reach.content is not content and self.reach.content != content):
            self.reach = Reach(content)
        else:  # an equal content: its index holds, its elements are those asked about
            self.reach.content = content

        def keeps(kept: list[int]) -> bool:
            return self.produces(side, [content[index] for index in kept], t, row)
        found = None
        for start in self.starts(side, row, content):
            found = shrink(start, keeps)
            if found is not None:
                break
        self.found[key] = (content, found)
        return None if found is None else [content[index] for index in found]

    def starts(self, side: str, row: Row, content: list[StreamTriple]) -> Iterator[list[int]]:
        """The positions shrinking starts from, each tried when the one before does not give
        the answer: the triples :func:`connected` to ``row`` from subjects, then also from
        objects, then the whole content; each first narrowed to the triples the side's program
        can read, when that leaves some out. A start no larger than the one tried before is
        skipped (which only saves evaluations: the whole content, always tried last, even when
        empty, holds them all)."""
        tried = 0
        for from_objects in (False, True, None):
            whole = from_objects is None
            near = list(range(len(content))) if whole else self.reach.connected(row, from_objects)
            if self.readable is not None:
                flags = self.readable(side, [content[index] for index in near])
                narrowed = [index for index, flag in zip(near, flags) if flag]
                if tried < len(narrowed) < len(near):
                    tried = len(narrowed)
                    yield narrowed
            if whole or tried < len(near) < len(content):
                tried = len(near)
                yield near
