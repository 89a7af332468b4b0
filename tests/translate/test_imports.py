"""The module map (STYLE section 2): ``translate`` imports ``lars`` and rdflib, nothing else of ours."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "translate"
OURS = {"lars", "translate", "solver", "agreement"}


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.stem)
def test_translate_imports_only_lars(path: Path) -> None:
    tree = ast.parse(path.read_text())
    modules = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
               for alias in node.names}
    modules |= {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert {m.split(".")[0] for m in modules} & OURS <= {"lars", "translate"}


def test_import_translate_does_not_load_solver_or_spark() -> None:
    code = "import sys, translate; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
           "('solver', 'agreement', 'pyspark', 'clingo')))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=PACKAGE.parent, check=True).stdout
    assert output.strip() == "[]"
