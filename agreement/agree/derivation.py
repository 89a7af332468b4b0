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

>>> shrink(list(range(10)), lambda kept: {2, 7} <= set(kept))
[2, 7]
>>> shrink([1, 2], lambda kept: False) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from agreement.compare import Row
from ingest.rdffiles import StreamTriple

T = TypeVar("T")

RowsOn = Callable[[str, Sequence[StreamTriple], int], frozenset[Row]]
"""``(side, stream triples, t) → rows``: the rows a side's program gives at ``t`` when its input
is those triples alone (``side`` is ``csparql`` or ``cqels``)."""


def shrink(candidates: Sequence[T], keeps: Callable[[list[T]], bool]) -> list[T] | None:
    """A subset of ``candidates`` (in their order) for which ``keeps`` holds, from which no chunk
    tried could be dropped (chunks of halving size, down to single items); ``None`` when
    ``keeps`` fails on all of ``candidates``. Every subset returned was tested with ``keeps``."""
    kept = list(candidates)
    if not keeps(kept):
        return None
    size = max(len(kept) // 2, 1)
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


class Derivations:
    """Witness sets of answers, each checked by evaluation (see the module doc).

    Args:
        rows_on: evaluates a side's program on given stream triples (:data:`RowsOn`).
    """

    def __init__(self, rows_on: RowsOn) -> None:
        self.rows_on = rows_on
        self.found: dict[tuple, list[StreamTriple] | None] = {}

    def produces(self, side: str, elements: Sequence[StreamTriple], t: int, row: Row) -> bool:
        """Whether ``side``'s program gives ``row`` at ``t`` from ``elements`` and the static data."""
        return row in self.rows_on(side, elements, t)

    def witnesses(self, side: str, row: Row, t: int, content: Sequence[StreamTriple]
                  ) -> list[StreamTriple] | None:
        """The stream triples of ``content`` (the windows' content at ``t``, in time and arrival
        order) that give ``row`` at ``t`` on ``side``, or ``None`` when ``content`` does not."""
        key = (side, row, t, tuple(content))
        if key not in self.found:
            self.found[key] = shrink(list(content), lambda kept: self.produces(side, kept, t, row))
        return self.found[key]
