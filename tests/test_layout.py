"""The house of rooms (STYLE section 2): import arrows point down only, and no module is in a circle.

Floors, each importing only the ones below it (and itself):

    agreement  →  ingest  →  translate, solver  →  lars

``translate`` and ``solver`` never import each other. Inside a package, modules may import each
other but never in a circle, and a sub-room (``solver.incremental``, ``agreement.cli``,
``agreement.notebook``) is not imported by the modules of its parent room except through the
parent's entry points named below. The test reads imports with ``ast``: it sees imports inside
functions too, so a circle cannot hide there.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("lars", "translate", "solver", "ingest", "agreement")
ALLOWED = {
    "lars": {"lars"},
    "translate": {"lars", "translate"},
    "solver": {"lars", "solver"},
    "ingest": {"lars", "translate", "solver", "ingest"},
    "agreement": {"lars", "translate", "solver", "ingest", "agreement"},
}
SUB_ROOM_ENTRIES = {
    # sub-room → the modules outside it that may import it
    "solver.incremental": {"solver.strategies", "solver.partition"},
    "agreement.cli": set(),
    "agreement.notebook": {"agreement.facade", "agreement.runplan", "agreement.agree.plan"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES
            for path in sorted((ROOT / package).rglob("*.py"))}


def imported(path: Path, names: set[str]) -> set[str]:
    """The project modules ``path`` imports (``from a.b import c`` counts ``a.b.c`` if it is one)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name in names}


def import_graph() -> nx.DiGraph:
    found = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(found)
    for name, path in found.items():
        graph.add_edges_from((name, target) for target in imported(path, set(found))
                             if target != name)
    return graph


def upward_arrows(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """Imports of a floor above (or beside) the importing module's own."""
    return sorted((s, t) for s, t in graph.edges if t.split(".")[0] not in ALLOWED[s.split(".")[0]])


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """Import circles, leaving out a package's ``__init__`` re-exporting its own modules (its
    front door, not a circle)."""
    kept = nx.DiGraph((s, t) for s, t in graph.edges
                      if not (ROOT.joinpath(*s.split("."), "__init__.py").exists()
                              and t.startswith(s + ".")))
    return list(nx.simple_cycles(kept))


def side_doors(graph: nx.DiGraph, room: str, entries: set[str]) -> list[tuple[str, str]]:
    """Imports into sub-room ``room`` from modules outside it other than its ``entries``."""
    return sorted((s, t) for s, t in graph.edges
                  if t.startswith(room + ".") and not s.startswith(room + ".") and s != room
                  and s not in entries)


GRAPH = import_graph()

SHARED = {"agreement", "agreement.facade", "agreement.answers", "agreement.compare",
          "agreement.defaults", "agreement.optiondefaults", "agreement.options", "agreement.recorded",
          "agreement.runplan", "agreement.sources", "agreement.spans"}
"""The modules directly in ``agreement/``: what every command shares (issue 25). A command's own
module lives in its room."""
COMMAND_ROOMS = {"agree": {"check"}, "check": set(), "witness": {"agree"}, "events": set()}
"""Each command room of ``agreement/`` → the other command rooms it may import: ``lars agree
--profiles`` reads the relations a profile reports (``check.expected``), ``lars witness`` judges
a guessed stream with the agreement check."""


def agreement_room(name: str) -> str | None:
    """The room of ``agreement`` a module is in (``None`` for a module at the top)."""
    parts = name.split(".")
    return parts[1] if parts[0] == "agreement" and len(parts) > 2 else None


def flat_modules(names) -> list[str]:
    """Modules directly in ``agreement/`` that are not shared by every command."""
    return sorted(n for n in names if n.startswith("agreement") and agreement_room(n) is None
                  and n not in SHARED and n.count(".") == 1
                  and not ROOT.joinpath(*n.split(".")).is_dir())


def crossings(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """Imports between command rooms that :data:`COMMAND_ROOMS` does not allow, and imports of a
    command room by a shared module other than the façade."""
    found = []
    for s, t in graph.edges:
        source, target = agreement_room(s), agreement_room(t)
        if target not in COMMAND_ROOMS or source == target:
            continue
        if source in COMMAND_ROOMS and target not in COMMAND_ROOMS[source]:
            found.append((s, t))
        elif source is None and s.startswith("agreement") and s != "agreement.facade":
            found.append((s, t))
    return sorted(found)


def test_agreement_keeps_one_room_per_command() -> None:
    assert flat_modules(GRAPH.nodes) == []
    assert crossings(GRAPH) == []
    assert set(COMMAND_ROOMS) <= {agreement_room(n) for n in GRAPH.nodes}


def test_imports_point_down_only() -> None:
    assert upward_arrows(GRAPH) == []


@pytest.mark.parametrize("room, entries", sorted(SUB_ROOM_ENTRIES.items()),
                         ids=lambda value: value if isinstance(value, str) else ",".join(sorted(value)))
def test_sub_rooms_are_entered_through_their_doors(room: str, entries: set[str]) -> None:
    assert side_doors(GRAPH, room, entries) == []


def test_no_import_circle() -> None:
    assert circles(GRAPH) == []


def test_the_guards_can_fail(tmp_path: Path) -> None:
    """Made-up modules: an upward arrow, a circle, a side door, each found."""
    module = tmp_path / "a.py"
    module.write_text("from agreement.facade import run\nimport solver.answers\n")
    assert imported(module, {"agreement.facade", "solver.answers"}) == {"agreement.facade",
                                                                        "solver.answers"}
    made_up = nx.DiGraph([("solver.x", "agreement.facade"), ("solver.x", "solver.y"),
                          ("solver.y", "solver.x"), ("agreement.agree.modes", "agreement.cli.app")])
    assert upward_arrows(made_up) == [("solver.x", "agreement.facade")]
    assert [sorted(c) for c in circles(made_up)] == [["solver.x", "solver.y"]]
    assert side_doors(made_up, "agreement.cli", set()) == [("agreement.agree.modes", "agreement.cli.app")]


def test_import_translate_does_not_load_solver_or_spark() -> None:
    code = ("import sys, translate; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('solver', 'ingest', 'agreement', 'pyspark', 'clingo')))")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout
    assert output.strip() == "[]"


def test_import_solver_does_not_load_spark() -> None:
    code = "import sys, solver, ingest; print(sorted(m for m in sys.modules if m.startswith('pyspark')))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout
    assert output.strip() == "[]"


def test_the_clingo_child_starts_without_loading_the_engine() -> None:
    """``solver``'s façade is lazy: the child process module runs as ``__main__`` without having
    been imported first (runpy warns then) and without the engine's modules."""
    code = ("import sys, solver.incremental.clingoprocess; "
            "print(sorted(m for m in sys.modules if m.startswith('solver')))")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout
    assert output.strip() == "['solver', 'solver.incremental', 'solver.incremental.clingoprocess']"
    child = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-m",
                            "solver.incremental.clingoprocess"], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, cwd=ROOT)
    assert (child.returncode, child.stderr) == (0, "")
