"""The options model (issue 25): ``docs/options.md`` lists every option the parsers declare, each
option with a ``dest`` either sets a field of :mod:`agreement.options` or only shapes what a
command prints, and the façade's functions take a few option objects, not long keyword lists."""

import inspect
import os
import re
from pathlib import Path

import pytest

import agreement
from agreement import facade
from agreement.cli.optionstable import COMMANDS, subparsers, table
from agreement.cli.app import build_parser
from agreement.cli.model import options_of
from agreement.options import GROUPS, Options, option_names

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "options.md"
PRINTING = {"format", "output", "output_format", "no_prefixes", "all_points", "verbose", "quiet",
            "syntax", "analyze", "cqels", "query", "program", "csrbench", "help", "handler", "command",
            "debug"}
"""Destinations that only shape what a command prints or which input is the query (not fields)."""


def test_the_page_holds_the_table_the_parsers_make():
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(r"<!-- options table:[^\n]*-->\n(.*?)<!-- end of options table -->", text, re.S)
    assert found is not None, "docs/options.md lost its table markers"
    assert found.group(1) == table(), "regenerate with: python -m agreement.cli.optionstable"


def test_every_option_sets_a_field_or_only_printing():
    fields = option_names()
    for name, parser in subparsers(build_parser()).items():
        for action in parser._actions:
            assert action.dest in fields or action.dest in PRINTING, (name, action.dest)


def test_field_names_are_unique_across_groups():
    names = [f for kind in GROUPS.values() for f in inspect.signature(kind).parameters]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("command", COMMANDS)
def test_the_command_line_defaults_are_the_facade_s(command):
    """An option left out on the command line means what the field's default means."""
    parser = build_parser()
    argv = {"translate": ["q.rq"], "run": ["q.rq"], "agree": ["q.rq"], "witness": ["q.rq"],
            "check": ["q.rq", "--stream", "s", "--answers", "a.json", "--profile", "csparql"],
            "replay": ["s.nt"]}[command]
    built = options_of(parser.parse_args([command, *argv]))
    given = {"check": {"stream": "s", "answers": "a.json", "profile": "csparql"},
             "replay": {"replayed": ("s.nt",)}}.get(command, {})
    differ = {f"{group}.{name}" for group in GROUPS for name, value in vars(getattr(built, group)).items()
              if value != getattr(getattr(Options.of(**given), group), name)}
    allowed = {"witness": {"evaluation.profiles"}}.get(command, set())  # the paper's pair, spelt out
    assert differ <= allowed


def test_the_widest_facade_function_takes_at_most_eight_parameters():
    widths = {name: len(inspect.signature(getattr(facade, name)).parameters)
              for name in agreement.__all__ if inspect.isfunction(getattr(facade, name, None))}
    widths |= {name: len(inspect.signature(function).parameters)
               for name, function in vars(facade).items()
               if inspect.isfunction(function) and function.__module__ == facade.__name__}
    assert max(widths.values()) <= 8, sorted(widths.items(), key=lambda item: -item[1])[:3]


def test_a_misspelt_field_is_refused_with_the_closest_name():
    with pytest.raises(TypeError, match="did you mean 'window_bounds'"):
        facade.translate_query("SELECT * WHERE { ?s ?p ?o }", window_bound="closed")


def test_the_page_s_example_runs():
    code = re.search(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S).group(1)
    scope: dict = {}
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(code, scope)  # noqa: S102 - the page's own example
    finally:
        os.chdir(here)
    pulled = {a.time for a in scope["pulled"] if any(map(len, a.streams))}
    assert pulled and all(t % 10 == 0 for t in pulled)  # pulled every 10m: the unit is 1m
