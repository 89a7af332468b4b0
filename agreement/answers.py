"""One answer model for every output of a query: ``lars run``, ``lars agree`` and the notebooks.

An answer of a query is a *solution mapping* at a time point: the result variables in SELECT
order, each bound to an RDF term or unbound (:class:`Solution`). Every output shows it the same
way:

* RDF terms in Turtle form (:func:`term_text`): ``<http://ex.org/b>``, ``25``, ``"x"@en``; on a
  terminal IRIs are shortened with the query's prefixes (``:b``), in machine formats (JSON, CSV,
  Parquet) and with ``--no-prefixes`` they are written in full;
* one row per answer with its time point (or, in the ``intervals`` view, its time points);
* no rows for time points without answers unless asked (``all_points``).

The raw LARS view (``ans_1(25,<…>,default)``) stays available as ``lars run --format atoms``.

>>> from rdflib import Literal, URIRef
>>> s = Solution(18, (URIRef("http://ex.org/b"), Literal(25), None))
>>> solution_json(("shop", "percent", "user"), s)
{'time': 18, 'binding': {'shop': '<http://ex.org/b>', 'percent': '25'}}
>>> values_text(s.values, (("", "http://ex.org/"),))
'(:b, 25, UNDEF)'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

from rdflib import BNode, Literal, URIRef

from agreement.spans import interval_text, point_ranges
from lars.atoms import Atom
from lars.errors import SolverError
from solver.answers import TimePointAnswer
from solver.formats import RunInfo, first_computed, header_line
from solver.sinks import CsvRows, check_format, opened_output, pyarrow_modules
from translate.sparqltext import Names

Prefixes = Sequence[tuple[str, str]]
Values = tuple[Hashable, ...]
UNBOUND = "UNDEF"
"""How an unbound variable reads in text (SPARQL's ``VALUES`` keyword for it)."""


@dataclass(frozen=True)
class Solution:
    """One answer: the values of the result variables (SELECT order) at time point ``time``;
    ``values`` is ``None`` for a time point without answers (only when they are asked for)."""

    time: int
    values: Values | None


# --- RDF terms ----------------------------------------------------------------------------------

SHORT_DATATYPES = {URIRef(f"http://www.w3.org/2001/XMLSchema#{name}")
                   for name in ("integer", "decimal", "double", "boolean")}


def term_text(term: Hashable, prefixes: Prefixes = ()) -> str:
    """An RDF term in Turtle form; IRIs as ``prefix:local`` where one of ``prefixes`` fits.

    Integers, decimals, doubles and booleans whose lexical form Turtle writes bare are bare
    (``25``, ``2.5``, ``true``); any other literal keeps its quotes, language or datatype, so the
    lexical form is never changed (``"97.0"^^xsd:double`` stays as it is).

    >>> from rdflib.namespace import XSD
    >>> term_text(Literal("25", datatype=XSD.integer)), term_text(Literal("97.0", datatype=XSD.double))
    ('25', '"97.0"^^<http://www.w3.org/2001/XMLSchema#double>')
    >>> term_text(URIRef("http://ex.org/a"), (("ex", "http://ex.org/"),)), term_text(Literal("x", lang="en"))
    ('ex:a', '"x"@en')
    """
    if term is None:
        return UNBOUND
    names = Names(tuple(prefixes))
    if isinstance(term, URIRef):
        return names.iri(str(term)) if prefixes else f"<{term}>"
    if isinstance(term, Literal):
        if term.datatype in SHORT_DATATYPES and term.value is not None \
                and term._literal_n3(use_plain=True) == str(term):
            return str(term)
        if term.datatype is not None and prefixes:
            return f'{Literal(str(term)).n3()}^^{names.iri(str(term.datatype))}'
        return term.n3()
    if isinstance(term, BNode):
        return term.n3()
    return str(term)


def values_text(values: Values, prefixes: Prefixes = ()) -> str:
    """An answer's values as ``(v1, v2, …)`` in Turtle form."""
    return "(" + ", ".join(term_text(v, prefixes) for v in values) + ")"


IRI_IN_TEXT = re.compile(r"<([^<>\s]*)>")


def shorten_iris(text: str, prefixes: Prefixes) -> str:
    """Every ``<iri>`` in ``text`` as ``prefix:local`` where one of ``prefixes`` fits."""
    if not prefixes:
        return text
    names = Names(tuple(prefixes))
    return IRI_IN_TEXT.sub(lambda match: names.iri(match.group(1)), text)


def binding_json(variables: Sequence[str], values: Values) -> dict[str, str]:
    """``{variable: term in Turtle form, full IRIs}``; unbound variables are left out."""
    return {name: term_text(value) for name, value in zip(variables, values) if value is not None}


def solution_json(variables: Sequence[str], solution: Solution) -> dict:
    """One answer as JSON: ``{"time": t, "binding": {...}}`` (no ``binding``: no answers at ``t``)."""
    if solution.values is None:
        return {"time": solution.time}
    return {"time": solution.time, "binding": binding_json(variables, solution.values)}


# --- from answer streams --------------------------------------------------------------------------

def solutions(answers: Iterable[TimePointAnswer], row_of: Callable[[Atom], Values], *,
              all_points: bool = False) -> Iterator[Solution]:
    """The answers of a translated query, time point by time point, each time point's sorted by
    their text; ``all_points`` adds a :class:`Solution` without values where there are none.

    Raises:
        SolverError: a time point with other than one answer stream (a translated query has
            exactly one; ``--format atoms`` shows the raw answer streams).
    """
    for answer in answers:
        if len(answer.streams) != 1:
            raise SolverError(f"the query's program has {len(answer.streams)} answer streams at "
                              f"{answer.time}; a translated query has exactly one",
                              hint="--format atoms shows them")
        rows = sorted({row_of(atom) for atom, time in answer.streams[0] if time == answer.time},
                      key=values_text)
        if not rows and all_points:
            yield Solution(answer.time, None)
        for row in rows:
            yield Solution(answer.time, row)


# --- writers ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AnswerFormat:
    """What every writer of solutions needs besides the solutions."""

    variables: tuple[str, ...]
    info: RunInfo
    prefixes: Prefixes = ()
    """Shorten IRIs with these (text on a terminal only; machine formats never shorten)."""


TABLE_SAMPLE = 20
"""Rows read before the columns of the text table are sized (the table is written as it comes)."""


def write_table(rows: Iterable[Solution], out: TextIO, form: AnswerFormat) -> None:
    """A text table: ``time`` and one column per variable, one row per answer (the columns are
    sized by the first :data:`TABLE_SAMPLE` rows, then rows are written as they come)."""
    header = ["time", *(f"?{v}" for v in form.variables)]
    rows = iter(rows)
    sample: list[list[str]] = []
    count = 0

    def cells(solution: Solution) -> list[str]:
        if solution.values is None:
            return [str(solution.time), *([""] * len(form.variables))]
        return [str(solution.time), *(term_text(v, form.prefixes) for v in solution.values)]

    for solution in rows:
        sample.append(cells(solution))
        if len(sample) == TABLE_SAMPLE:
            break
    widths = [max(len(c) for c in column) for column in zip(header, *sample)]
    out.write(header_line(form.info))  # once the first rows are computed: none before an error

    def line(texts: list[str]) -> str:
        first = texts[0].rjust(widths[0])
        return "  ".join([first, *(t.ljust(w) for t, w in zip(texts[1:], widths[1:]))]).rstrip() + "\n"

    out.write(line(header))
    for texts in sample:
        out.write(line(texts))
        count += 1
    for solution in rows:
        out.write(line(cells(solution)))
        count += 1
    if not count:
        out.write("# no answers\n")


def write_json(rows: Iterable[Solution], out: TextIO, form: AnswerFormat) -> None:
    """One JSON document (format ``lars-solutions``), written one answer at a time."""
    info = form.info
    header = {"format": "lars-solutions", "version": 1, "variables": list(form.variables),
              "timeline": {"start": info.timeline[0], "end": info.timeline[1]}, "unit": info.unit}
    rows = first_computed(rows)
    out.write(json.dumps(header)[:-1] + ', "answers": [')
    for index, solution in enumerate(rows):
        out.write(("," if index else "") + "\n  " + json.dumps(
            solution_json(form.variables, solution), ensure_ascii=False))
    out.write("\n]}\n")


def csv_row(solution: Solution, width: int) -> list:
    """``time`` then the values in Turtle form (empty: unbound, or no answer at that time)."""
    values = solution.values if solution.values is not None else (None,) * width
    return [solution.time, *("" if v is None else term_text(v) for v in values)]


def write_csv(rows: Iterable[Solution], out: TextIO, form: AnswerFormat) -> None:
    """CSV: a header ``time,var1,…``, one row per answer, full IRIs."""
    rows, writer = first_computed(rows), CsvRows(out)
    writer.writerow(["time", *form.variables])
    for solution in rows:
        writer.writerow(csv_row(solution, len(form.variables)))


def write_intervals(rows: Iterable[Solution], out: TextIO, form: AnswerFormat) -> None:
    """Each answer with the maximal intervals of time points at which it is given."""
    times: dict[Values, list[int]] = {}
    for solution in rows:
        if solution.values is not None:
            times.setdefault(solution.values, []).append(solution.time)
    out.write(header_line(form.info))
    names = "(" + ", ".join(f"?{v}" for v in form.variables) + ")"
    out.write(f"# {names}  time points\n")
    for values in sorted(times, key=values_text):
        spans = " ".join(interval_text(a, b) for a, b in point_ranges(times[values]))
        out.write(f"{values_text(values, form.prefixes)}  {spans}\n")
    if not times:
        out.write("# no answers\n")


ANSWER_FORMATS: dict[str, Callable[[Iterable[Solution], TextIO, AnswerFormat], None]] = {
    "table": write_table, "json": write_json, "csv": write_csv, "intervals": write_intervals,
}


@contextmanager
def open_answer_sink(target: str | Path, format: str, variables: Sequence[str],
                     row_group_size: int = 10_000) -> Iterator[Callable[[Solution], None]]:
    """A function writing one answer at a time to ``target`` (``-``: stdout) as ``jsonl`` (one
    :func:`solution_json` per line), ``csv`` (as :func:`write_csv`) or ``parquet`` (column
    ``time`` int64, one string column per variable, nulls for unbound; row groups of
    ``row_group_size`` rows)."""
    check_format(format)
    variables = tuple(variables)
    if format == "parquet":
        pa, parquet = pyarrow_modules()
        schema = pa.schema([("time", pa.int64()), *((v, pa.string()) for v in variables)])
        with opened_output(target, True) as out:
            writer, rows = parquet.ParquetWriter(out, schema), []

            def flush() -> None:
                columns = {"time": [r[0] for r in rows]}
                columns.update({v: [r[i + 1] or None for r in rows] for i, v in enumerate(variables)})
                writer.write_table(pa.table(columns, schema=schema), row_group_size=row_group_size)
                rows.clear()

            def write(solution: Solution) -> None:
                rows.append(csv_row(solution, len(variables)))
                if len(rows) >= row_group_size:
                    flush()
            try:
                yield write
            finally:
                if rows:
                    flush()
                writer.close()
        return
    with opened_output(target, False) as out:
        if format == "csv":
            table = CsvRows(out)
            table.writerow(["time", *variables])
            yield lambda solution: table.writerow(csv_row(solution, len(variables)))
        else:
            yield lambda solution: out.write(
                json.dumps(solution_json(variables, solution), ensure_ascii=False) + "\n")


def shorten_on(out: IO[str], no_prefixes: bool) -> bool:
    """Whether text written to ``out`` shortens IRIs: on a terminal, unless ``--no-prefixes``."""
    isatty = getattr(out, "isatty", None)
    return not no_prefixes and callable(isatty) and isatty()


def shown_prefixes(out: IO[str], prefixes: Prefixes, no_prefixes: bool) -> Prefixes:
    """The prefixes text output may use: the query's on a terminal, none when piped or asked."""
    return tuple(prefixes) if shorten_on(out, no_prefixes) else ()
