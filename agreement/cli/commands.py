"""What each ``lars`` subcommand does, given parsed options; :mod:`agreement.cli.app` parses and exits.

The work is done by the façade (:mod:`agreement.facade`), the same calls a notebook makes; a
command only maps its options onto a call and prints the result. Commands return an exit status
and write results to ``out`` (stdout); warnings and reading reports go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from agreement.analyze import SUFFICIENT_NOTE, render_analysis
from agreement.facade import analyze_query, check_variants, prepare_run, translate_variants
from agreement.answers import (
    ANSWER_FORMATS, AnswerFormat, open_answer_sink, shorten_on, shown_prefixes,
    solutions,
)
from agreement.runplan import RowOf, RunPlan
from agreement.cli.events import (
    command_agree_events, command_run_events, command_translate_events, refuse_event_options,
)
from agreement.events import is_event_source
from lars.errors import InputError
from solver.answers import TimePointAnswer
from solver.formats import FORMATS
from solver.progress import progress
from solver.sinks import open_sink
from translate.results import FORMATS as RESULT_FORMATS
from translate.results import construct_triples, document, ntriples, stream_line, stream_rows


def print_warnings(lines: tuple[str, ...] | list[str]) -> None:
    for line in lines:
        print(line, file=sys.stderr)


def query_options(args: argparse.Namespace) -> dict:
    """The options every query-translating command shares, as the façade's keyword arguments."""
    return {"engine": args.engine, "variant": args.variant, "unit": args.unit,
            "window_bounds": args.window_bounds}


def data_options(args: argparse.Namespace) -> dict:
    """The options every stream-reading command shares, as the façade's keyword arguments."""
    return {"stream": args.stream, "stream_iri": args.stream_iri, "static": args.static,
            "start": args.start, "end": args.end, "on_error": args.on_error, "order": args.order,
            "spark": args.spark, "master": args.master, "max_time_points": args.max_time_points}


def command_translate(args: argparse.Namespace, out: TextIO) -> int:
    """``lars translate QUERY``: print the LARS program of a C-SPARQL or CQELS query."""
    if is_event_source(args.query):
        return command_translate_events(args, out)
    refuse_event_options(args)
    views = translate_variants(Path(args.query), mode=args.mode, period=args.period,
                               profile=args.profile, t0=args.t0, **query_options(args))
    if args.syntax == "json":
        documents = [view.to_json() for view in views]
        out.write(json.dumps(documents if len(views) > 1 else documents[0], indent=1,
                             ensure_ascii=False) + "\n")
        return 0
    out.write("\n".join(f"# {view.header()}\n{view.text(args.syntax)}\n" for view in views))
    return 0


def command_run(args: argparse.Namespace, out: TextIO) -> int:
    """``lars run FILE``: a LARS program, or a query (by suffix or first keyword).

    The answers are written as they are computed (:meth:`agreement.runplan.RunPlan.answers`); what
    reading reported (skipped lines, input outside the timeline) is printed at the end. A query's
    answers are solution mappings (:mod:`agreement.answers`); ``--format atoms`` and a LARS
    program show the answer atoms.
    """
    if is_event_source(args.program):
        return command_run_events(args, out)
    refuse_event_options(args)
    plan = prepare_run(Path(args.program), background=args.background and Path(args.background),
                       mode=args.mode, period=args.period, max_facts=args.max_facts,
                       strategy=args.strategy, partitions=args.partitions,
                       bags=args.format in RESULT_FORMATS, profile=args.profile, t0=args.t0,
                       **query_options(args),
                       **data_options(args))
    atoms = plan.translation is None or args.format == "atoms"
    if atoms and args.format == "csv":
        raise InputError("--format csv writes a query's answers; a LARS program has atoms, not "
                         "variables", hint="use --format json, or --output FILE --output-format csv")
    first, last = plan.info.evaluated
    results = args.format in RESULT_FORMATS  # the rows themselves take OFFSET and LIMIT
    with progress(plan.answers(sliced=not results), total=last - first + 1,
                  quiet=args.quiet) as answers:
        if results:
            write_results(plan, answers, out, args.format)
        elif atoms:
            write_atoms(answers, out, plan, args)
        else:
            rows = solutions(answers, RowOf(plan.translation, plan.encoder), all_points=args.all_points)
            variables = plan.translation.answer.select_order
            if args.output is None:
                form = AnswerFormat(variables, plan.info,
                                    shown_prefixes(out, plan.translation.query.prefixes, args.no_prefixes))
                ANSWER_FORMATS[args.format](rows, out, form)
            else:
                with open_answer_sink(args.output, args.output_format, variables) as write:
                    for row in rows:
                        write(row)
    print_warnings(plan.warnings)
    return 0


def write_atoms(answers: Iterable[TimePointAnswer], out: TextIO, plan: RunPlan,
                args: argparse.Namespace) -> None:
    """The raw answer atoms: ``--format atoms`` (the table), or a LARS program's ``--format``."""
    if args.output is None:
        FORMATS["table" if args.format == "atoms" else args.format](answers, out, plan.info)
        return
    with open_sink(args.output, args.output_format) as sink:
        for answer in answers:
            sink.write(answer)


def write_results(plan, answers, out: TextIO, format: str) -> None:
    """The answers of a query in a SPARQL 1.1 results format: one document when the query reads
    no stream (evaluated once), else one per time point (:mod:`translate.results`). A CONSTRUCT
    query writes N-Triples; over a stream each line ends with its time point, the stream format
    ``lars run`` reads."""
    t = plan.translation
    if t is None:
        raise InputError(f"--format {format} writes the answers of a query, not of a LARS program")
    variables, form = t.answer.select_order, t.query.form
    for index, answer in enumerate(answers):
        atoms = [atom for stream in answer.streams[:1] for atom, _ in stream]
        rows = t.rows(atoms, plan.encoder, chopped=True)
        if not t.query.streams:
            out.write(document(rows, variables, form, format, t.query.template))
            return
        if form == "construct":
            out.write(ntriples(construct_triples(rows, t.query.template, f"t{answer.time}"),
                               answer.time))
        elif format == "sparql-json":
            out.write(stream_line(answer.time, rows, variables, form))
        else:
            out.write(stream_rows(answer.time, rows, variables, form, format, index == 0))


def command_analyze(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree --analyze QUERY``: the sufficient conditions, without a stream. Exit 0: the
    conditions are sufficient, not necessary, so failing one proves no disagreement."""
    findings, verdict = analyze_query(Path(args.cqels or args.query), period=args.period,
                                      static=args.static, unit=args.unit)
    if args.format == "json":
        out.write(json.dumps({"verdict": verdict, "note": SUFFICIENT_NOTE,
                              "conditions": [vars(f) for f in findings]},
                             indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(render_analysis(findings, verdict))
    return 0


def command_agree(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree``: do C-SPARQL and CQELS agree? 0 if they do, 1 if not."""
    if is_event_source(args.cqels or args.query):
        return command_agree_events(args, out)
    refuse_event_options(args)
    if args.analyze:
        return command_analyze(args, out)
    query = args.cqels or args.query
    options = query_options(args)
    del options["engine"]
    views = check_variants(
        query and Path(query), period=args.period, csparql=args.csparql and Path(args.csparql),
        recorded_csparql=args.recorded_csparql, recorded_cqels=args.recorded_cqels,
        profiles=args.profiles, max_explanations=args.max_explanations, **options,
        **data_options(args))
    print_warnings(list(dict.fromkeys(w for view in views for w in view.warnings)))
    if args.format == "json":
        documents = [view.to_json() for view in views]
        out.write(json.dumps(documents[0] if len(documents) == 1 else documents, indent=1,
                             ensure_ascii=False) + "\n")
    else:
        shorten = shorten_on(out, args.no_prefixes)
        out.write("\n".join(view.text(shorten, args.verbose) for view in views))
    return 0 if all(view.agree for view in views) else 1
