"""The notebooks in ``notebooks/`` run top to bottom on a fresh kernel without an error, and
without a traceback on stderr (the clingo helper process, :mod:`solver.incremental.clingoprocess`,
once printed a KeyboardInterrupt when the kernel stopped).

Each is executed with nbclient on the ``python3`` kernel of the interpreter running the tests
(ipykernel's own kernel spec: nothing is registered globally), from the ``notebooks/`` folder,
as Jupyter would run it. Committed notebooks carry no outputs.
"""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("pandas")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
TIMEOUT = 600
"""Seconds a cell may take before the run fails (a notebook should take under two minutes)."""


def test_there_are_notebooks():
    assert [p.name for p in PATHS] == ["01_running_example.ipynb", "02_csrbench.ipynb",
                                       "03_write_your_own_lars.ipynb", "04_event_patterns.ipynb"]


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_is_committed_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs_top_to_bottom(path, monkeypatch, capfd):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, naming the cell, if a cell fails
    errors = [output for cell in notebook.cells if cell.cell_type == "code"
              for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    # the kernel and its children (the clingo helper process) are stopped by now:
    assert "Traceback" not in capfd.readouterr().err  # e.g. clingo's helper process interrupted
