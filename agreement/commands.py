"""What each ``lars`` subcommand does, given parsed options; :mod:`agreement.cli` parses and exits.

Commands return an exit status and write results to ``out`` (stdout); warnings and reading
reports go to stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from typing import TextIO

from agreement.check import check_query, check_recorded
from agreement.data import query_data, read_rdf_stream, static_graphs
from agreement.report import render_text, to_json
from lars.analysis import is_stratified
from lars.errors import InputError
from lars.parser import parse_facts, parse_program
from lars.printer import print_program
from lars.readpolicy import ReadPolicy, ReadReport, read_text
from lars.streamfile import read_stream
from lars.streams import Stream, Timeline
from solver.encode import annotated_encoding
from solver.evaluate import Limits, Problem, TimePointAnswer
from solver.formats import FORMATS, RunInfo
from translate.api import Translation, parse_query, translate
from translate.durations import parse_duration, parse_unit, to_ticks
from translate.rdf import chop
from translate.variants import cs, variant_ids

QUERY_SUFFIXES = (".rq", ".sparql", ".csparql", ".cqels")
QUERY_START = re.compile(r"\A(?:\s|#[^\n]*\n)*(PREFIX|BASE|SELECT|REGISTER)\b", re.IGNORECASE)


def is_query(path: str, text: str) -> bool:
    """A query file by its suffix, or, for other names, by its first keyword."""
    return path.lower().endswith(QUERY_SUFFIXES) or (
        not path.lower().endswith(".lars") and QUERY_START.match(text) is not None)


def read_policy(args: argparse.Namespace) -> tuple[ReadPolicy, ReadReport]:
    return ReadPolicy(on_error=args.on_error, order=args.order), ReadReport()


def print_report(report: ReadReport) -> None:
    for line in report.summary():
        print(line, file=sys.stderr)


def choose_timeline(stream: Stream, start: int | None, end: int | None) -> Timeline:
    """``--from``/``--to`` when given; else from 0 (or the first time point, if earlier) to the last."""
    timeline = Timeline(min(0, stream.timeline.start) if start is None else start,
                        stream.timeline.end if end is None else end)
    if timeline.start > timeline.end:
        raise InputError(f"empty timeline [{timeline.start},{timeline.end}]: --from is after --to")
    outside = [t for t in stream.time_points() if t not in timeline]
    if outside:
        raise InputError(f"the stream has atoms at time point {outside[0]}, outside the timeline "
                         f"[{timeline.start},{timeline.end}]", hint="widen --from/--to")
    return timeline


# --- lars translate ---------------------------------------------------------------------------

def period_ticks(args: argparse.Namespace) -> int | None:
    return to_ticks(parse_duration(args.period), parse_unit(args.unit)) if args.period else None


def translations(args: argparse.Namespace, text: str) -> list[Translation]:
    """The translations the options ask for (several for ``--variant all``)."""
    query = parse_query(text, args.query, args.engine, args.unit)
    engine = args.engine or query.engine
    variants = [args.variant]
    if engine == "cqels" and args.variant == "all":
        variants = list(variant_ids(len(query.streams)))
    return [translate(query, engine, variant="brave" if v == "all" else v, mode=args.mode,
                      period_ticks=period_ticks(args), window_bounds=args.window_bounds)
            for v in variants]


def header(t: Translation, unit: str) -> str:
    strategy = {"csparql": "τ1(cs(Q))", "cqels": f"τ2(Q'), Q' the {t.variant} variant of cq(Q)",
                "sparql": "τ(Q)"}[t.engine]
    mode = {"none": "", "push": ", push ℘(P)", "pull": f", pull ℘(P,{t.period})"}[t.mode]
    return f"{strategy}{mode}; unit {unit}; window bounds {t.window_bounds}; answers: {t.answer.predicate}"


def translation_json(t: Translation, unit: str) -> dict:
    return {"engine": t.engine, "variant": t.variant, "mode": t.mode, "period": t.period,
            "unit": unit, "window_bounds": t.window_bounds, "answer_predicate": t.answer.predicate,
            "answer_variables": list(t.answer.variables), "select": list(t.answer.select_order),
            "rules": [{"unicode": print_program(type(t.program)((r,)), "unicode"),
                       "ascii": print_program(type(t.program)((r,)), "ascii"), "comment": c}
                      for r, c in zip(t.program.rules, t.comments)]}


def command_translate(args: argparse.Namespace, out: TextIO) -> int:
    """``lars translate QUERY``: print the LARS program of a C-SPARQL or CQELS query."""
    found = translations(args, read_text(args.query))
    if args.syntax == "json":
        documents = [translation_json(t, args.unit) for t in found]
        out.write(json.dumps(documents if len(found) > 1 else documents[0], indent=1,
                             ensure_ascii=False) + "\n")
        return 0
    for index, t in enumerate(found):
        if index:
            out.write("\n")
        out.write(f"# {header(t, args.unit)}\n")
        if args.syntax == "asp":
            out.write(annotated_encoding(t.program, t.comment_map()) + "\n")
        else:
            out.write(print_program(t.program, args.syntax, comments=t.comment_map()) + "\n")
    return 0


# --- lars run ---------------------------------------------------------------------------------

def run_program(args: argparse.Namespace, text: str, out: TextIO) -> int:
    """A hand-written LARS program over a LARS atom stream."""
    program = parse_program(text, args.program)
    background = frozenset(parse_facts(read_text(args.background), args.background)) \
        if args.background else frozenset()
    policy, report = read_policy(args)
    stream = read_stream(args.stream, policy=policy, report=report) if args.stream \
        else Stream(Timeline(0, 0))
    print_report(report)
    stream = Stream(choose_timeline(stream, args.start, args.end), stream.items)
    problem = Problem(program, stream, background, Limits(max_facts=args.max_facts))
    line = (stream.timeline.start, stream.timeline.end)
    FORMATS[args.format](problem.run(), out, RunInfo(line, line, is_stratified(program)))
    return 0


def answers_only(answers: Iterator[TimePointAnswer], predicate: str) -> Iterator[TimePointAnswer]:
    """Keep the chopped answer atoms of each answer stream (SPEC section 5: ``chop``)."""
    for answer in answers:
        yield TimePointAnswer(answer.time, tuple(
            frozenset((atom, t) for a, t in stream for atom in chop([a]) if atom.predicate == predicate)
            for stream in answer.streams))


def run_query(args: argparse.Namespace, text: str, out: TextIO) -> int:
    """A C-SPARQL or CQELS query over an RDF stream: translate, solve, show ``ans_1`` (chopped)."""
    args.query = args.program
    found = translations(args, text)
    if len(found) > 1:
        raise InputError("lars run takes one variant", hint="choose --variant brave, cautious or an id")
    [t] = found
    policy, report = read_policy(args)
    elements = read_rdf_stream(args.stream, args.stream_iri, policy, report) if args.stream else []
    print_report(report)
    data = query_data([t], elements, static_graphs(args.static, t.query), (args.start, args.end))
    problem = Problem(t.program, data.stream, data.background, Limits(max_facts=args.max_facts))
    line = (data.stream.timeline.start, data.stream.timeline.end)
    FORMATS[args.format](answers_only(problem.run(), t.answer.predicate), out,
                         RunInfo(line, line, is_stratified(t.program), args.unit))
    return 0


def command_run(args: argparse.Namespace, out: TextIO) -> int:
    """``lars run FILE``: a LARS program, or a query (by suffix or first keyword)."""
    text = read_text(args.program)
    return run_query(args, text, out) if is_query(args.program, text) else run_program(args, text, out)


# --- lars agree -------------------------------------------------------------------------------

def command_agree(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree``: do C-SPARQL and CQELS agree? 0 if they do, 1 if not."""
    unit_ms = parse_unit(args.unit)
    period = to_ticks(parse_duration(args.period), unit_ms)
    if args.recorded_csparql or args.recorded_cqels:
        if not (args.recorded_csparql and args.recorded_cqels):
            raise InputError("give both --recorded-csparql and --recorded-cqels")
        reports = [check_recorded(args.recorded_csparql, args.recorded_cqels, period, unit_ms,
                                  (args.start, args.end))]
    else:
        reports = computed_reports(args, period)
    documents = [to_json(r) for r in reports]
    if args.format == "json":
        out.write(json.dumps(documents[0] if len(documents) == 1 else documents, indent=1,
                             ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(render_text(r) for r in reports))
    return 0 if all(r.agree for r in reports) else 1


def computed_reports(args: argparse.Namespace, period: int) -> list:
    """One report per CQELS variant, both sides computed from the query (or the two queries)."""
    cqels_file = args.cqels or args.query
    if cqels_file is None:
        raise InputError("give a CQELS query (QUERY or --cqels), or recorded answers")
    query = parse_query(read_text(cqels_file), cqels_file, "cqels", args.unit)
    csparql = parse_query(read_text(args.csparql), args.csparql, "csparql", args.unit) \
        if args.csparql else None
    if csparql is not None and cs(csparql) != cs(query):
        print("warning: the C-SPARQL and CQELS queries do not describe the same abstract query "
              "(result variables, pattern, dataset or stream windows differ)", file=sys.stderr)
    policy, report = read_policy(args)
    elements = read_rdf_stream(args.stream, args.stream_iri, policy, report) if args.stream else []
    print_report(report)
    graphs = static_graphs(args.static, query)
    variants = variant_ids(len(query.streams)) if args.variant == "all" else [args.variant]
    return [check_query(query, elements, graphs, period, v, args.window_bounds,
                        (args.start, args.end), csparql) for v in variants]
