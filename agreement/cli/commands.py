"""What each ``lars`` subcommand does, given parsed options; :mod:`agreement.cli.app` parses and exits.

The work is done by the façade (:mod:`agreement.facade`), the same calls a notebook makes; a
command only maps its options onto a call and prints the result. Commands return an exit status
and write results to ``out`` (stdout); warnings and reading reports go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from agreement.analyze import render_analysis
from agreement.facade import analyze_query, check_variants, prepare_run, translate_variants
from lars.errors import InputError
from solver.formats import FORMATS
from solver.progress import progress
from solver.sinks import open_sink


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
            "spark": args.spark, "master": args.master}


def command_translate(args: argparse.Namespace, out: TextIO) -> int:
    """``lars translate QUERY``: print the LARS program of a C-SPARQL or CQELS query."""
    views = translate_variants(Path(args.query), mode=args.mode, period=args.period, **query_options(args))
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
    reading reported (skipped lines, input outside the timeline) is printed at the end.
    """
    plan = prepare_run(Path(args.program), background=args.background and Path(args.background),
                       mode=args.mode, period=args.period, max_facts=args.max_facts,
                       strategy=args.strategy, partitions=args.partitions,
                       **query_options(args), **data_options(args))
    first, last = plan.info.evaluated
    with progress(plan.answers(), total=last - first + 1, quiet=args.quiet) as answers:
        if args.output is None:
            FORMATS[args.format](answers, out, plan.info)
        else:
            with open_sink(args.output, args.output_format) as sink:
                for answer in answers:
                    sink.write(answer)
    print_warnings(plan.warnings)
    return 0


def command_analyze(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree --analyze QUERY``: the sufficient conditions, without a stream; 0 if agreement
    is expected, 1 if not (or if it depends on the data)."""
    findings, verdict = analyze_query(Path(args.cqels or args.query), period=args.period,
                                      static=args.static, unit=args.unit)
    if args.format == "json":
        out.write(json.dumps({"verdict": verdict, "conditions": [vars(f) for f in findings]},
                             indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(render_analysis(findings, verdict))
    return 0 if verdict == "expected" else 1


def command_agree(args: argparse.Namespace, out: TextIO) -> int:
    """``lars agree``: do C-SPARQL and CQELS agree? 0 if they do, 1 if not."""
    if args.analyze:
        return command_analyze(args, out)
    if args.period is None:
        raise InputError("give the pulling period with --period (e.g. --period 10s)")
    query = args.cqels or args.query
    options = query_options(args)
    del options["engine"]
    views = check_variants(
        query and Path(query), period=args.period, csparql=args.csparql and Path(args.csparql),
        recorded_csparql=args.recorded_csparql, recorded_cqels=args.recorded_cqels,
        **options, **data_options(args))
    print_warnings(list(dict.fromkeys(w for view in views for w in view.warnings)))
    if args.format == "json":
        documents = [view.to_json() for view in views]
        out.write(json.dumps(documents[0] if len(documents) == 1 else documents, indent=1,
                             ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(view.text() for view in views))
    return 0 if all(view.agree for view in views) else 1
