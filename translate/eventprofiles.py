"""Engine profiles for event queries, as data (paper 001, Table 1 and section 2).

| profile | SEQ read as | consumption | reports | evaluates |
|---|---|---|---|---|
| ``rsep`` | as written | ``P^u`` (none) | every event at each evaluation | given (``--at``/``--mode``) |
| ``epsparql-unrestricted`` | ``SEQ`` (7) | ``P^u`` | new events | push (input arrives) |
| ``epsparql-chronological`` | ``SEQ^c`` (10) | ``P^c`` | every event found (all new) | push |
| ``epsparql-recent`` | ``SEQ^r`` (11) | ``P^r`` | every event found (all new) | push |
| ``csparql-seq`` | ``SEQ^n`` (9) | ``P^u`` | every event at each evaluation | pull, every window step |

Profiles do not change the query's windows (write ``[LND t0]`` for EP-SPARQL's landmark,
``[RANGE α STEP β]`` for C-SPARQL's sliding window, as in Table 1). "SEQ read as" rewrites every plain ``SEQ`` of the query (EP-SPARQL's setting is a start-up
parameter, not part of the query); ``SEQ^n``/``SEQ^c``/``SEQ^r`` written in the query stay.
"New events" are those whose last input (``t2``) came after the previous evaluation: EP-SPARQL
outputs an event as soon as it is detected, once (paper §2: unrestricted returns ``e4`` only at 10).
Under consumption every event an evaluation finds is new (what an earlier one found was consumed
with its input), so a consuming profile reports them all: filtering by ``t2`` would hide an event
that selection held back at one evaluation and that the next one finds and consumes (issue 27:
``a1 p b@1, a2 p b@2, b q c1@3, b q c2@4`` at 5 and 6 under ``SEQ^c`` gives ``a2 b c2 [2,4]`` at 6).
A profile that consumes and reports "new" is therefore refused.
``P^c`` and ``P^r`` are the same function in the paper's informal definition (section 4.4: keep
the delta and the unused input); they differ through the selection they come with.

Kept as plain data so that the general profiles of ``translate/profiles.py`` can fold them in.

>>> event_profile("epsparql-recent").selection
'recent'
>>> event_profile("epsparql-recnet")
Traceback (most recent call last):
...
lars.errors.InputError: error: unknown event profile 'epsparql-recnet' (did you mean 'epsparql-recent'?)
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from lars.errors import InputError


@dataclass(frozen=True)
class EventProfile:
    """How an engine runs an event query.

    Attributes:
        name: the profile's name.
        selection: what a plain ``SEQ`` means (:data:`translate.events.SELECTIONS`), or
            ``None`` for "as written".
        consume: whether matched input is consumed (``P^c``/``P^r``) or not (``P^u``).
        report: ``all`` events at each evaluation time, or only ``new`` ones (not with
            ``consume``: then every event found is new).
        evaluation: ``push`` (every time point with input), ``pull`` (every ``period``), or
            ``given`` (the caller says).
    """

    name: str
    selection: str | None
    consume: bool
    report: str
    evaluation: str
    description: str

    def __post_init__(self) -> None:
        if self.consume and self.report == "new":
            raise ValueError(f"event profile {self.name!r}: a consuming profile reports every event "
                             "it finds (each is new); report='new' would hide consumed events")


EVENT_PROFILES = {p.name: p for p in (
    EventProfile("rsep", None, False, "all", "given",
                 "RSEP-QL as written: the query's SEQ variants, no consumption"),
    EventProfile("epsparql-unrestricted", "unrestricted", False, "new", "push",
                 "EP-SPARQL, unrestricted: W^λ + SEQ"),
    EventProfile("epsparql-chronological", "chronological", True, "all", "push",
                 "EP-SPARQL, chronological: W^λ + SEQ^c + P^c"),
    EventProfile("epsparql-recent", "recent", True, "all", "push",
                 "EP-SPARQL, recent: W^λ + SEQ^r + P^r"),
    EventProfile("csparql-seq", "naive", False, "all", "pull",
                 "C-SPARQL's timestamp() idiom: W^τ + SEQ^n"),
)}


def event_profile(name: str) -> EventProfile:
    """The profile called ``name``; an :class:`InputError` with a suggestion otherwise."""
    if name in EVENT_PROFILES:
        return EVENT_PROFILES[name]
    close = difflib.get_close_matches(name, list(EVENT_PROFILES), n=1)
    suggestion = f" (did you mean '{close[0]}'?)" if close else ""
    raise InputError(f"unknown event profile '{name}'{suggestion}",
                     hint=None if close else "use one of " + ", ".join(EVENT_PROFILES))
