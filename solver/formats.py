"""Output formats of an answer stream: ``table`` (people), ``json`` (programs), ``intervals``.

All three write while the answers are computed, so a long run shows results as they come and
never holds the whole answer stream in memory (``intervals`` is the exception: it must see
every time point before it can print an interval).

The JSON document follows ``docs/schemas/answers.schema.json`` (format ``lars-answers``,
version 1)::

    {"format": "lars-answers", "version": 1,
     "timeline": {"start": 0, "end": 50}, "evaluated": {"from": 0, "to": 50},
     "stratified": true,
     "time_points": [
       {"time": 18, "answer_streams": [
         [{"atom": "ans(b,\\"rayban\\",25)", "predicate": "ans",
           "args": [{"type": "name", "value": "b"}, {"type": "string", "value": "rayban"},
                    {"type": "number", "value": 25}],
           "time": 18}]]}]}

Every evaluated time point is listed; ``answer_streams`` is a list of answer streams (zero, one
or many), each a list of the atoms the rules add, with the time point each atom holds at.
"""

from __future__ import annotations

import functools
import itertools
import json
from json.encoder import encode_basestring
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO, TypeVar

from lars.atoms import Atom
from lars.printer import print_atom, print_term
from lars.terms import Constant, Iri, Name, Number, String
from solver.intervals import intervals_view
from solver.answers import AnswerStream, TimePointAnswer


@dataclass(frozen=True)
class RunInfo:
    """What the header of every format says about a run."""

    timeline: tuple[int, int]
    evaluated: tuple[int, int]
    stratified: bool
    unit: str | None = None


CONSTANT_TYPES = {Number: "number", Name: "name", String: "string", Iri: "iri"}


def constant_json(constant: Constant) -> dict:
    """A constant as ``{"type": ..., "value": ...}``."""
    return {"type": CONSTANT_TYPES[type(constant)], "value": constant.value}


def atom_json(atom: Atom, time: int) -> dict:
    """One atom of an answer stream, with the time point it holds at."""
    return {"atom": print_atom(atom), "predicate": atom.predicate,
            "args": [constant_json(arg) for arg in atom.args], "time": time}


@functools.lru_cache(maxsize=1 << 14)
def atom_text(atom: Atom) -> str:
    """:func:`~lars.printer.print_atom`, remembered for the atoms seen lately (an answer repeats
    most of its atoms from one time point to the next)."""
    return print_atom(atom)


_CONSTANT_PIECES: dict[Constant, tuple[str, str]] = {}
"""Constant → (its text in an atom, its ``args`` entry as JSON text) for the constants written
lately (emptied past 2^16 constants): an atom written for the first time is put together
from its constants' pieces, not printed and dumped whole."""


def constant_pieces(constant: Constant) -> tuple[str, str]:
    """The text of ``constant`` (:func:`~lars.printer.print_term`) and :func:`constant_json` as
    JSON text, remembered (a number's are written at once: both are its digits)."""
    if type(constant) is Number:
        digits = str(constant.value)
        return digits, '{"type": "number", "value": ' + digits + "}"
    found = _CONSTANT_PIECES.get(constant)
    if found is None:
        if len(_CONSTANT_PIECES) >= 1 << 16:
            _CONSTANT_PIECES.clear()
        found = _CONSTANT_PIECES[constant] = (print_term(constant),
                                              json.dumps(constant_json(constant), ensure_ascii=False))
    return found


_PIECES: dict[Atom, tuple[str, str]] = {}
"""Atom → (:func:`atom_text`, its :func:`atom_json` as JSON text without the closing
``, "time": t}``) for the atoms written lately: one lookup per written atom, emptied past 2^16
atoms."""


def atom_pieces(atom: Atom) -> tuple[str, str]:
    """The text of ``atom`` (its sort key) and its JSON head, remembered; the head is what
    ``json.dumps(atom_json(atom, t), ensure_ascii=False)`` writes before ``, "time"``.

    >>> atom_pieces(Atom("p", (Number(1), Name("a"))))[1]
    '{"atom": "p(1,a)", "predicate": "p", "args": [{"type": "number", "value": 1}, {"type": "name", "value": "a"}]'
    """
    if len(_PIECES) >= 1 << 16:
        _PIECES.clear()
    pieces = [constant_pieces(arg) for arg in atom.args]
    text = f"{atom.predicate}({','.join([p[0] for p in pieces])})" if pieces else atom.predicate
    head = (f'{{"atom": {encode_basestring(text)}, "predicate": {encode_basestring(atom.predicate)}, '
            f'"args": [{", ".join([p[1] for p in pieces])}]')
    found = _PIECES[atom] = (text, head)
    return found


def answer_json_text(answer) -> str:
    """``json.dumps({"time": t, "answer_streams": [[atom_json(a, s), ...], ...]})`` for one time
    point, put together from remembered pieces (the per-atom cost of writing ``jsonl``), atoms in
    the order of :func:`sorted_pairs`.

    >>> from solver.answers import TimePointAnswer
    >>> answer_json_text(TimePointAnswer(3, (frozenset({(Atom("x"), 3)}),)))
    '{"time": 3, "answer_streams": [[{"atom": "x", "predicate": "x", "args": [], "time": 3}]]}'
    """
    streams = ", ".join([stream_json_text(stream) for stream in answer.streams])
    return f'{{"time": {answer.time}, "answer_streams": [{streams}]}}'


def stream_json_text(stream: AnswerStream) -> str:
    """One answer stream as a JSON list: the atoms grouped by time point, each group's texts
    sorted as plain strings (a sort of ``(time, text)`` tuples took 0.45 µs an atom, this 0.1)
    and its atoms joined with one ``"time"`` ending."""
    known = _PIECES.get
    pieces = [(known(atom) or atom_pieces(atom), time) for atom, time in stream]
    times = sorted({time for _, time in pieces})
    parts = []
    for time in times:
        group = dict([texts for texts, at in pieces] if len(times) == 1 else
                     [texts for texts, at in pieces if at == time])
        end = f', "time": {time}}}'
        parts.append((end + ", ").join([group[text] for text in sorted(group)]) + end)
    return "[" + ", ".join(parts) + "]"


Item = TypeVar("Item")


def sorted_pairs(stream: AnswerStream) -> list[tuple[Atom, int]]:
    """The pairs of an answer stream by time point, then by text."""
    return sorted(stream, key=lambda pair: (pair[1], atom_text(pair[0])))


def first_computed(answers: Iterable[Item]) -> Iterator[Item]:
    """``answers`` with the first one computed now, before a writer writes its header: a stream
    is read as it is solved, so a bad line in its first time point fails with nothing written
    (the answers of a program, or the rows of a query: :mod:`agreement.answers`).

    >>> next(first_computed(iter([1, 2]))), list(first_computed([]))
    (1, [])
    """
    answers = iter(answers)
    first = next(answers, None)
    return answers if first is None else itertools.chain((first,), answers)


def write_json(answers: Iterable[TimePointAnswer], out: TextIO, info: RunInfo) -> None:
    """One JSON document, written one time point at a time."""
    answers = first_computed(answers)
    header = {"format": "lars-answers", "version": 1,
              "timeline": {"start": info.timeline[0], "end": info.timeline[1]},
              "evaluated": {"from": info.evaluated[0], "to": info.evaluated[1]},
              "stratified": info.stratified, "unit": info.unit}
    out.write(json.dumps(header)[:-1] + ', "time_points": [')
    for index, answer in enumerate(answers):
        streams = [[atom_json(a, t) for a, t in sorted_pairs(s)] for s in answer.streams]
        out.write(("," if index else "") + "\n  " + json.dumps(
            {"time": answer.time, "answer_streams": streams}, ensure_ascii=False))
    out.write("\n]}\n")


def pair_text(atom: Atom, time: int, now: int) -> str:
    """``atom``, or ``atom @time`` when it holds at another time point than the reference time."""
    return print_atom(atom) if time == now else f"{print_atom(atom)} @{time}"


def write_table(answers: Iterable[TimePointAnswer], out: TextIO, info: RunInfo) -> None:
    """Time points whose answer is not the single empty answer stream, one line per atom."""
    answers = first_computed(answers)
    out.write(header_line(info))
    out.write(f"{'time':>6}  {'stream':<7} atoms\n")
    quiet = 0
    for answer in answers:
        if answer.streams == (frozenset(),):
            quiet += 1
            continue
        if not answer.streams:
            out.write(f"{answer.time:>6}  {'none':<7} (no answer stream)\n")
        for number, stream in enumerate(answer.streams, 1):
            label = f"{number}/{len(answer.streams)}"
            texts = [pair_text(a, t, answer.time) for a, t in sorted_pairs(stream)] or ["(nothing)"]
            for index, text in enumerate(texts):
                out.write(f"{answer.time if index == 0 else '':>6}  {label if index == 0 else '':<7} {text}\n")
    out.write(f"# {quiet} other time point(s): one answer stream that adds nothing\n")


def write_intervals(answers: Iterable[TimePointAnswer], out: TextIO, info: RunInfo) -> None:
    """Each atom with the maximal intervals in which it holds (see :mod:`solver.intervals`)."""
    view = intervals_view(answers)
    out.write(header_line(info))
    for atom in sorted(view.intervals, key=print_atom):
        spans = " ".join(f"[{a},{b}]" for a, b in view.intervals[atom])
        out.write(f"{print_atom(atom)}  {spans}\n")
    for now, atom, time in view.elsewhere:
        out.write(f"{print_atom(atom)}  @{time} (in the answer at {now})\n")
    if view.ambiguous:
        out.write(f"# several answer streams at {compact(view.ambiguous)}: atoms shown hold in all of them\n")
    if view.inconsistent:
        out.write(f"# no answer stream at {compact(view.inconsistent)}\n")


def compact(points: list[int]) -> str:
    """``[1,2,3,7]`` → ``1-3, 7``."""
    spans: list[list[int]] = []
    for p in points:
        if spans and spans[-1][1] == p - 1:
            spans[-1][1] = p
        else:
            spans.append([p, p])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def header_line(info: RunInfo) -> str:
    unit = f" (unit {info.unit})" if info.unit else ""
    kind = "stratified" if info.stratified else "not stratified: zero, one or many answer streams"
    return (f"# timeline [{info.timeline[0]},{info.timeline[1]}]{unit}, evaluated "
            f"[{info.evaluated[0]},{info.evaluated[1]}]; program {kind}\n")


FORMATS: dict[str, Callable[[Iterable[TimePointAnswer], TextIO, RunInfo], None]] = {
    "table": write_table,
    "json": write_json,
    "intervals": write_intervals,
}
