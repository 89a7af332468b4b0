"""What each ``lars`` subcommand does, given parsed options; :mod:`agreement.cli.app` parses and exits.

The work is done by the façade (:mod:`agreement.facade`), the same calls a notebook makes; a
command only maps its options onto a call and prints the result. Commands return an exit status
and write results to ``out`` (stdout); warnings and reading reports go to stderr.

Each command imports what only it uses inside its own functions, so that ``lars translate`` does
not load the solver and the writers of ``lars run``, nor ``lars run`` the interval check of
``lars agree`` (start-up cost, issues 17 and 29; ``tests/cli/test_import_paths.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agreement.facade import analyze_query, prepare_check, prepare_run, translate_variants
from agreement.sources import is_event_source
from agreement.cli.model import NOTES, options_of
from agreement.cli.events import (
    command_agree_events, command_run_events, command_translate_events, refuse_event_options,
)
from agreement.cli.options import input_files
from agreement.cli.incomplete import Followed, IncompleteOutput
from lars.errors import InputError, LarsError
from translate.results import FORMATS as RESULT_FORMATS

if TYPE_CHECKING:
    from agreement.agree.plan import CheckPlan
    from agreement.facade import AgreementView
    from agreement.runplan import RunPlan
    from solver.answers import TimePointAnswer


LOADS = {
    "command_translate": ("agreement.notebook.views", "translate.reports"),
    "command_run": ("agreement.notebook.views", "agreement.runplan", "ingest.eager", "ingest.encoded",
                    "ingest.lazy", "ingest.ranges", "lars.parser", "solver.progress", "translate.reports"),
    "command_agree": ("agreement.agree.plan", "agreement.agree.modes",
                      "agreement.agree.reportwriter", "ingest.eager", "ingest.lazy", "ingest.ranges"),
}
"""The machinery each command imports on its way (inside its own functions and the façade's):
imported with the command by :func:`agreement.cli.app.implementation`, the collector paused."""


def print_warnings(lines: tuple[str, ...] | list[str]) -> None:
    """Warnings on stderr, each once per run (:class:`agreement.cli.model.Notes`)."""
    NOTES.show(lines)


def command_translate(args: argparse.Namespace, out: TextIO) -> int:
    """``lars translate QUERY``: print the LARS program of a C-SPARQL or CQELS query."""
    if is_event_source(args.query):
        return command_translate_events(args, out)
    refuse_event_options(args)
    views = translate_variants(Path(args.query), options_of(args))
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
    from solver.sinks import check_target  # lars run's own writers (issue 29: not translate's)
    if args.output is not None:
        check_target(args.output, input_files(args))
    if args.output_format is not None and args.output is None:  # a newcomer's --output-format
        raise InputError("--output-format says how --output FILE is written, and no --output is "  # jsonl
                         "given: the answers are printed as --format",           # printed the table
                         hint="give --output FILE (or --output - for standard output)")
    if args.output_format is not None and args.format in RESULT_FORMATS:
        raise InputError(f"--format {args.format} is written to --output FILE as it is: "
                         "--output-format does not apply", hint="leave out one of the two")
    if is_event_source(args.program):
        return command_run_events(args, out)
    refuse_event_options(args)
    plan = prepare_run(Path(args.program),
                       options_of(args).replace(bags=args.format in RESULT_FORMATS))
    atoms = plan.translation is None or args.format == "atoms"
    if atoms and args.format == "csv":
        raise InputError("--format csv writes a query's answers; a LARS program has atoms, not "
                         "variables", hint="use --format json, or --output FILE --output-format csv")
    results = args.format in RESULT_FORMATS  # the rows themselves take OFFSET and LIMIT
    followed = Followed(plan.answers(sliced=not results, reported=results))
    try:
        write_answers(plan, followed, out, args, atoms)
    except LarsError as error:  # after answers on stdout: the line says they are not all
        to_stdout = getattr(out, "wrote", True) if args.output is None else args.output == "-"
        if followed.last is None or not to_stdout:
            raise
        raise IncompleteOutput(error, followed.last) from error
    print_warnings(plan.warnings)
    return 0


def write_answers(plan: RunPlan, answers: Iterable[TimePointAnswer], out: TextIO,
                  args: argparse.Namespace, atoms: bool) -> None:
    """``lars run``'s answers in the format and to the target its options name."""
    # lars run's own writers (issue 29: not loaded by translate and agree)
    from agreement.answers import ANSWER_FORMATS, AnswerFormat, open_answer_sink, shown_prefixes, solutions
    from agreement.runplan import RowOf
    from solver.progress import progress
    from solver.sinks import opened_output
    first, last = plan.info.evaluated
    results = args.format in RESULT_FORMATS
    with progress(answers, total=last - first + 1, quiet=args.quiet, results=out) as answers:
        if results and args.output is None:
            write_results(plan, answers, out, args.format)
        elif results:  # the SPARQL results formats have no --output-format of their own
            with opened_output(args.output, binary=False) as file:
                write_results(plan, answers, file, args.format)
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
                with open_answer_sink(args.output, args.output_format or "jsonl", variables) as write:
                    for row in rows:
                        write(row)


def write_atoms(answers: Iterable[TimePointAnswer], out: TextIO, plan: RunPlan,
                args: argparse.Namespace) -> None:
    """The raw answer atoms: ``--format atoms`` (the table), or a LARS program's ``--format``."""
    from solver.formats import FORMATS  # lars run's own writers (issue 29)
    from solver.sinks import open_sink
    if args.output is None:
        FORMATS["table" if args.format == "atoms" else args.format](answers, out, plan.info)
        return
    with open_sink(args.output, args.output_format or "jsonl") as sink:
        for answer in answers:
            sink.write(answer)


def write_results(plan, answers, out: TextIO, format: str) -> None:
    """The answers of a query in a SPARQL 1.1 results format: one document when the query reads
    no stream (evaluated once), else one per evaluation: per time point without a mode, per
    time point where the profile reports (or push or pull evaluates) otherwise, so a relation
    the profile drops is not written and an empty one only where it is reported
    (:attr:`RunPlan.evaluation_marker`; :mod:`translate.results`). A CONSTRUCT query writes
    N-Triples; over a stream each line ends with its time point, the stream format ``lars run``
    reads."""
    # the SPARQL results formats' writers, loaded when asked for (issue 29)
    from translate.rdf import is_answer_predicate
    from translate.results import construct_triples, document, ntriples, stream_line, stream_rows
    t = plan.translation
    if t is None:
        raise InputError(f"--format {format} writes the answers of a query, not of a LARS program")
    variables, form = t.answer.select_order, t.query.form
    marker, first = plan.evaluation_marker, True
    for answer in answers:
        atoms = [atom for stream in answer.streams[:1] for atom, time in stream
                 if time == answer.time]
        if marker is not None and t.query.streams and not any(
                atom.predicate == marker for atom in atoms):
            continue
        # answers_only chops ans_1, not a profile's istream_1/dstream_1 (translate.rdf.chop)
        rows = t.rows(atoms, plan.encoder, chopped=is_answer_predicate(t.answer.predicate))
        if not t.query.streams:
            out.write(document(rows, variables, form, format, t.query.template))
            return
        if form == "construct":
            out.write(ntriples(construct_triples(rows, t.query.template, f"t{answer.time}"),
                               answer.time))
        elif format == "sparql-json":
            out.write(stream_line(answer.time, rows, variables, form))
        else:
            out.write(stream_rows(answer.time, rows, variables, form, format, first))
        first = False


def command_analyze(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree --analyze QUERY``: the sufficient conditions, without a stream. Exit 0: the
    conditions are sufficient, not necessary, so failing one proves no disagreement."""
    from agreement.agree.analyze import SUFFICIENT_NOTE, render_analysis  # --analyze only (issue 17)
    findings, verdict = analyze_query(Path(args.cqels or args.query), options_of(args))
    if args.format == "json":
        out.write(json.dumps({"verdict": verdict, "note": SUFFICIENT_NOTE,
                              "conditions": [vars(f) for f in findings]},
                             indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(render_analysis(findings, verdict))
    return 0


def command_agree(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree``: do C-SPARQL and CQELS agree? 0 if they do, 1 if not."""
    events = is_event_source(args.cqels or args.query)
    if args.format == "jsonl" and (events or args.analyze):
        raise InputError("--format jsonl writes the interval check as it runs; "
                         + ("event queries" if events else "--analyze") + " write text or json",
                         hint="use --format json")
    if events:
        return command_agree_events(args, out)
    refuse_event_options(args)
    if not args.follow and (args.max_delay is not None or args.idle is not None
                            or args.kafka_time is not None):
        raise InputError("--max-delay, --idle and --kafka-time apply to --follow only")
    if args.follow:
        if args.analyze:
            raise InputError("--analyze reads no answers: it does not take --follow")
        from agreement.cli.live import command_follow
        return command_follow(args, out)
    if args.analyze:
        return command_analyze(args, out)
    if args.cqels and args.query:  # QUERY is then the C-SPARQL side (issue 27: it was dropped)
        if args.csparql:
            raise InputError("QUERY, --cqels and --csparql are all given",
                             hint="give the C-SPARQL query as QUERY with --cqels FILE, or the CQELS "
                                  "query as QUERY with --csparql FILE")
        args.csparql = args.query
    query = args.cqels or args.query
    found = prepare_check(query and Path(query), options_of(args))
    several = len(found) > 1
    agree, warnings = True, []
    if args.format == "json" and several:
        out.write("[\n")
    for index, item in enumerate(found):
        if index:
            out.write(",\n" if args.format == "json" else "\n" if args.format == "text" else "")
        if args.format == "json" and several:
            out.write(" ")
        agree &= write_agreement(item, args, out, depth=int(several))
        warnings += item.warnings
    if args.format == "json":
        out.write("\n]\n" if several else "\n")
    print_warnings(list(dict.fromkeys(warnings)))
    return 0 if agree else 1


def write_agreement(item: CheckPlan | AgreementView, args: argparse.Namespace, out: TextIO,
                    depth: int) -> bool:
    """One report of ``lars agree`` in ``--format``; a plan is checked as it is written, interval
    by interval (:mod:`agreement.agree.reportwriter`), a finished view only written. Whether they agree."""
    # lars agree's interval check and report writers (issue 29: not loaded by translate and run)
    from agreement.agree.plan import CheckPlan
    from agreement.agree.reportwriter import JsonLinesWriter, JsonWriter, TextWriter, report_head, write_collected
    from agreement.answers import shorten_on
    shorten = shorten_on(out, args.no_prefixes)
    prefixes = item.prefixes if shorten else ()
    if isinstance(item, CheckPlan):
        head = item.head()
        writer = {"text": lambda: TextWriter(out, head, prefixes, args.verbose),
                  "json": lambda: JsonWriter(out, head, depth),
                  "jsonl": lambda: JsonLinesWriter(out, head)}[args.format]()
        try:
            return item.write(writer)
        except LarsError as error:  # after lines of --format jsonl: say they are not the whole
            if writer.written is None:
                raise
            raise IncompleteOutput(error, writer.written) from error
    if args.format == "text":
        out.write(item.text(shorten, args.verbose))
    elif args.format == "json":
        out.write(json.dumps(item.to_json(), indent=1, ensure_ascii=False).replace("\n", "\n" + " " * depth))
    else:
        report = dataclasses.replace(item.report, csparql=item.csparql, cqels=item.cqels)
        write_collected(report, JsonLinesWriter(out, report_head(report)))
    return item.agree
