"""What a Ctrl-C interrupted, for its one line on stderr (``interrupted while reading the stream``).

A command interrupted before it wrote anything said ``interrupted`` alone (newcomer): after a
minute of ``lars agree`` or ``lars witness`` that does not say whether the stream was still
being read, the solver was grounding, or the search was under way. Where the interrupt landed
says it: the frames of its traceback, from the command down to the line Python was running.
:data:`ACTIVITIES` names the activity of the first rule some frame matches, in the table's
order (an explanation's evaluation is explaining, not computing the answers; the static data
are parsed by the same rdflib parsers as a stream).

Once a command has written output, or the interrupt carries notes (an ``--output`` file left
as it was), its line stays as it was: the output shows how far it got.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import TextIO


@dataclass(frozen=True)
class Activity:
    """A frame of module ``module`` (or a module inside it), running one of ``functions`` (any
    function when empty), means the command was ``text``."""

    module: str
    text: str
    functions: tuple[str, ...] = ()

    def matches(self, module: str, function: str) -> bool:
        inside = module == self.module or module.startswith(self.module + ".")
        return inside and (not self.functions or function in self.functions)


ACTIVITIES = (
    Activity("importlib._bootstrap", "loading the command"),
    Activity("ingest.staticdata", "reading the static data"),
    Activity("agreement.witness", "searching for a witness"),
    Activity("agreement.agree.derivation", "explaining a disagreeing interval"),
    Activity("agreement.agree.conditions", "explaining a disagreeing interval"),
    Activity("agreement.agree.explain", "explaining a disagreeing interval"),
    Activity("clingo", "grounding", ("ground",)),
    Activity("clingo", "solving", ("solve",)),
    Activity("ingest", "reading the stream"),
    Activity("translate.api", "reading the stream", ("slice_atoms",)),
    Activity("agreement.check", "judging the recording"),
    Activity("solver", "computing the answers"),
    Activity("translate", "translating the query"),
)


def activity(trace: TracebackType | None) -> str | None:
    """What the frames of ``trace`` were doing (:data:`ACTIVITIES`), if a rule says."""
    frames = []
    while trace is not None:
        frames.append((str(trace.tb_frame.f_globals.get("__name__", "")), trace.tb_frame.f_code.co_name))
        trace = trace.tb_next
    return next((rule.text for rule in ACTIVITIES
                 if any(rule.matches(module, function) for module, function in frames)), None)


def interrupted_line(interrupt: KeyboardInterrupt, wrote: bool) -> str:
    """The line for Ctrl-C: what was interrupted when nothing was written yet, else as before
    ``interrupted``, then what the command had established when it was (an ``established``
    attribute: ``lars witness``'s sizes ruled out, :func:`agreement.witness.child.interrupted`),
    with the notes the interrupt gathered on its way up."""
    notes = getattr(interrupt, "__notes__", ())
    doing = None if wrote or notes else activity(interrupt.__traceback__)
    established = getattr(interrupt, "established", None)
    return " ".join([(f"interrupted while {doing}" if doing else "interrupted")
                     + (f": {established}" if established else ""),
                     *(f"({note})" for note in notes)])


class Watched:
    """A text stream that remembers whether anything was written to it (the command's stdout)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.wrote = stream, False

    def write(self, text: str) -> int:
        self.wrote = self.wrote or bool(text)
        return self.stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)
