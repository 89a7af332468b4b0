"""Mutation testing of the semantic core: does the test suite notice small deliberate slips?

Not run in CI (it runs the chosen tests once per mutant). A small AST mutator of our own:
mutmut and cosmic-ray both rewrite the whole tree and run the whole suite per mutant, which on
a shared 2-core machine is hours; here each module is paired with the tests that concern it.

Each mutant changes one spot of one module of :data:`TARGETS`:

* a comparison operator (``<`` ↔ ``<=``, ``>`` ↔ ``>=``, ``==`` ↔ ``!=``, ``in`` ↔ ``not in``,
  ``is`` ↔ ``is not``);
* an arithmetic operator (``+`` ↔ ``-``, ``*`` → ``//``, ``//`` → ``*``, ``%`` → ``//``);
* ``and`` ↔ ``or``; ``not x`` → ``x``;
* an integer constant ``n`` → ``n + 1``; ``True`` ↔ ``False``;
* ``min`` ↔ ``max``.

The mutant is written into a copy of the packages in a temporary folder and the module's
tests run there (``pytest -x``); a failing test, an error or a timeout kills it. Docstrings
and type annotations are never mutated.

Usage::

    .venv/bin/python scripts/mutation.py                       # every target, 40 mutants each
    .venv/bin/python scripts/mutation.py --per-module 0        # every mutant (hours)
    .venv/bin/python scripts/mutation.py --modules lars/windows.py --list

Prints one line per mutant (killed / SURVIVED / equivalent), then the raw kill rate, the rate
over the mutants not judged equivalent (:data:`EQUIVALENT`, each with its reason), and the
survivors. The sample of each module depends only on ``--seed`` and the module.
"""

from __future__ import annotations

import argparse
import ast
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("lars", "translate", "solver", "ingest", "agreement", "tests", "examples", "docs")

TARGETS = {
    "lars/windows.py": ["tests/lars/test_windows.py", "tests/solver/test_examples.py",
                        "tests/solver/test_semantic_corners.py"],
    "lars/analysis.py": ["tests/lars/test_analysis.py", "tests/solver/test_strategies.py",
                         "tests/translate/test_triggers.py"],
    "translate/rspwindows.py": ["tests/translate/test_windows.py", "tests/translate/test_tau.py"],
    "translate/sparqlfunctions.py": ["tests/translate/test_expressions.py",
                                     "tests/translate/test_sparqlfunctions_spec.py",
                                     "tests/translate/test_filter_boundaries.py",
                                     "tests/translate/test_prop2_values.py"],
    "translate/triggers.py": ["tests/translate/test_triggers.py", "tests/translate/test_prop1.py"],
    "translate/tau.py": ["tests/translate/test_tau.py", "tests/translate/test_tau_corners.py",
                         "tests/translate/test_expressions.py", "tests/translate/test_sparql11.py",
                         "tests/translate/test_prop2.py"],
    "solver/encode.py": ["tests/solver/test_examples.py", "tests/solver/test_semantic_corners.py"],
    "solver/incremental/joins.py": ["tests/solver/incremental/test_joins.py",
                                    "tests/solver/incremental/test_table.py",
                                    "tests/solver/incremental/test_relations.py",
                                    "tests/solver/test_semantic_corners.py"],
    "agreement/compare.py": ["tests/agreement/test_computed.py", "tests/agreement/test_recorded.py",
                             "tests/agreement/test_compare_intervals.py",
                             "tests/agreement/test_pull_times.py"],
}
"""Module of the semantic core → the tests that concern it."""

SWAPS = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.And: ast.Or, ast.Or: ast.And,
}


@dataclass(frozen=True)
class Equivalent:
    """A mutant judged equivalent: no input can tell it from the original, so no test can kill it.

    Found by its module, the text of its source line (stripped) and the change as the report
    prints it; a change of that line makes the judgement stale, and the mutant counts again.
    """

    module: str
    line: str
    change: str
    reason: str


ROLE_LINE = """role = ", ".join(f"EXISTS {k + 1} {'holds' if holds else 'fails'}\""""

EQUIVALENT: tuple[Equivalent, ...] = (
    Equivalent("translate/tau.py", "MAX_CASES = 243", "243  ->  244",
               "join_cases counts 2^a * 3^b cases, and no such number lies in (243, 244]"),
    Equivalent("translate/tau.py", "made = False", "False  ->  True",
               "with no helper rule made, 'not ans'_2i' negates a predicate no rule derives: always "
               "true, as if left out"),
    Equivalent("translate/tau.py", ROLE_LINE,
               "k + 1  ->  k - 1", "the text of a provenance comment"),
    Equivalent("translate/tau.py", ROLE_LINE,
               "1  ->  2", "the text of a provenance comment"),
    Equivalent("solver/encode.py", "needs_domain: bool = False", "False  ->  True",
               "the default is taken by ordinary and @ atoms only, whose interval ([t,t], the "
               "timeline) is never empty, and the domain is used only over an empty interval"),
    Equivalent("solver/encode.py",
               "needs_domain = isinstance(formula.modality, Box) and bool(formula.atom.variables())",
               "isinstance(formula.modality, Box) and bool(formula.atom.vari  ->  "
               "isinstance(formula.modality, Box) or bool(formula.atom.varia",
               "the domain serves only the box encoders (a diamond over an empty window is false "
               "whatever the domain, tested), and a ground box over the domain path is the same"),
    Equivalent("solver/incremental/joins.py", "SMALL_BUCKET = 8", "8  ->  9",
               "where buckets turn from tuples into sets: every reader treats both alike"),
    Equivalent("solver/incremental/joins.py",
               "self.negation_getters = [(index, itemgetter(*columns) if len(columns) > 1 else None, columns)",
               "1  ->  2", "for two columns the fallback builds the same key tuple as itemgetter"),
)
"""The surviving mutants judged equivalent, each with its reason (reported apart from the others)."""


@dataclass(frozen=True)
class Mutant:
    """One change: the ``index``-th mutation point of ``module``, where it is and what it does."""

    module: str
    index: int
    line: int
    text: str
    change: str

    def equivalent(self) -> Equivalent | None:
        """The judgement of this mutant as equivalent, if there is one."""
        return next((e for e in EQUIVALENT if (e.module, e.line, e.change) == (self.module, self.text, self.change)),
                    None)

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.change}    [{self.text}]"


def skipped_nodes(tree: ast.AST) -> set[int]:
    """Ids of the nodes never mutated: docstrings and annotations."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations = [node.returns, *(a.annotation for a in ast.walk(node.args) if isinstance(a, ast.arg))]
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            annotations.append(body[0])
        for annotation in annotations:
            if annotation is not None:
                skip.update(id(n) for n in ast.walk(annotation))
    return skip


def points(tree: ast.AST) -> list[tuple[ast.AST, str, object]]:
    """Every mutation point: ``(node, field, new value)`` in a fixed order."""
    skip, found = skipped_nodes(tree), []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in SWAPS:
                    found.append((node, f"ops[{k}]", SWAPS[type(op)]()))
        elif isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in SWAPS:
            found.append((node, "op", SWAPS[type(node.op)]()))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append((node, "drop-not", None))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            found.append((node, "value", not node.value))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            found.append((node, "value", node.value + 1))
        elif isinstance(node, ast.Name) and node.id in ("min", "max"):
            found.append((node, "id", "max" if node.id == "min" else "min"))
    return found


class _DropNot(ast.NodeTransformer):
    def __init__(self, target: ast.AST):
        self.target = target

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        return node.operand if node is self.target else self.generic_visit(node)


def mutate(module: str, source: str, index: int) -> tuple[str, Mutant]:
    """``source`` with its ``index``-th point mutated: the new text and the mutant."""
    tree = ast.parse(source)
    node, field, value = points(tree)[index]
    line = node.lineno
    before = ast.unparse(node)
    if field == "drop-not":
        tree = _DropNot(node).visit(tree)
        after = ast.unparse(node.operand)
    elif field.startswith("ops["):
        node.ops[int(field[4:-1])] = value
        after = ast.unparse(node)
    else:
        setattr(node, field, value)
        after = ast.unparse(node)
    text = source.splitlines()[line - 1].strip()
    return ast.unparse(tree), Mutant(module, index, line, text, f"{before[:60]}  ->  {after[:60]}")


def run_tests(folder: Path, tests: list[str], timeout: float) -> bool:
    """Whether the tests pass in ``folder`` (a timeout counts as a failure)."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "-m", "not slow and not spark", *tests]
    try:
        done = subprocess.run(command, cwd=folder, capture_output=True, timeout=timeout,
                              env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin",
                                   "HYPOTHESIS_STORAGE_DIRECTORY": str(folder / ".hypothesis")})
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", nargs="*", default=list(TARGETS))
    parser.add_argument("--per-module", type=int, default=40, help="mutants per module (0: all)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--timeout", type=float, default=300, help="seconds per test run")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mutation-") as folder:
        work = Path(folder)
        for name in (*PACKAGES, "pyproject.toml"):
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy)(source, work / name)
        killed, survivors, equivalent, total, started = 0, [], [], 0, time.monotonic()
        for module in args.modules:
            original = (ROOT / module).read_text()
            count = len(points(ast.parse(original)))
            rng = random.Random(f"{args.seed}:{module}")  # the same sample with or without other modules
            chosen = sorted(rng.sample(range(count), min(count, args.per_module))) if args.per_module else range(count)
            if not args.list and not run_tests(work, TARGETS[module], args.timeout):
                print(f"{module}: its tests fail without any mutation; skipped", flush=True)
                continue
            for index in chosen:
                text, mutant = mutate(module, original, index)
                judged = mutant.equivalent()
                if args.list:
                    print(f"{'equivalent ' if judged else ''}{mutant}")
                    continue
                (work / module).write_text(text)
                dead = not run_tests(work, TARGETS[module], args.timeout)
                (work / module).write_text(original)
                total += 1
                killed += dead
                if dead:
                    verdict = "killed (listed as equivalent: remove it from EQUIVALENT)" if judged else "killed"
                elif judged:
                    verdict = "equivalent"
                    equivalent.append(f"{mutant}: {judged.reason}")
                else:
                    verdict = "SURVIVED"
                    survivors.append(str(mutant))
                print(f"{verdict:10} {mutant}", flush=True)
        if total:
            counted = total - len(equivalent)
            print(f"\n{killed}/{total} mutants killed ({100 * killed / total:.1f}%) in "
                  f"{time.monotonic() - started:.0f} s; {len(equivalent)} judged equivalent; "
                  f"{killed}/{counted} of the others killed ({100 * killed / max(counted, 1):.1f}%)")
            print("equivalent:\n" + ("\n".join(f"  {e}" for e in equivalent) or "  none"))
            print("survivors:\n" + ("\n".join(f"  {s}" for s in survivors) or "  none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
