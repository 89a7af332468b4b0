"""The README's command blocks work as written (issue 16): each ``lars`` line of the blocks between
``<!-- tour -->`` and ``<!-- /tour -->``, ``<!-- walkthrough -->`` and ``<!-- /walkthrough -->``
runs from the folder its ``cd`` names and exits as its comment says; the files the walkthrough
shows are the files in its folder."""

import json
import re
import shlex
from pathlib import Path

import pytest


from agreement.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def block_lines(name: str) -> list[str]:
    block = re.search(rf"<!-- {name} -->\n```bash\n(.*?)```\n<!-- /{name} -->", README, re.S)
    assert block, f"the README has no {name} block"
    return block.group(1).splitlines()


@pytest.mark.parametrize("name", ["tour", "walkthrough"])
def test_block_runs_as_written(capsys, monkeypatch, name):
    lines = block_lines(name)
    assert lines[0].startswith("cd ")
    monkeypatch.chdir(ROOT / lines[0].split()[1])
    commands = [line for line in lines[1:] if line.startswith("lars ")]
    assert len(commands) >= 2
    for line in commands:
        command, _, comment = line.partition("#")
        expected = re.search(r"exit (\d)", comment)
        status = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
        assert "error" not in err, (line, err)
        if expected:
            assert status == int(expected.group(1)), (line, out, err)
        else:
            assert status in (0, 1), (line, err)
        if "--format json" in command and "agree" in command:
            assert json.loads(out)["format"] == "lars-agreement"


def test_walkthrough_files_are_the_ones_shown():
    folder = ROOT / "examples" / "walkthrough"
    query = (folder / "hot-rooms.rq").read_text()
    body = query[query.index("REGISTER"):]
    assert body.strip() in README
    assert "FILTER" in body and "FROM <" in body
    stream = (folder / "readings.nt").read_text().splitlines()
    assert len(stream) == 10 and stream[0] in README and stream[-1] in README
    assert "\n".join(line for line in (folder / "building.ttl").read_text().splitlines()
                     if not line.startswith("#")) in README


def test_spec_is_shipped_and_linked():
    assert (ROOT / "docs" / "SPEC.md").exists() and "](docs/SPEC.md)" in README


def test_notebook_extra_installs_jupyterlab():
    assert re.search(r'notebook = \[[^\]]*"jupyterlab', (ROOT / "pyproject.toml").read_text())
    assert "jupyter lab notebooks/" in README


def readme_commands() -> list[tuple[str, str]]:
    """Every ``lars`` command the README shows outside the tour and walkthrough blocks (which the
    tests above run from their folders), with the folder it runs from: bash blocks and ``$ lars``
    lines, continuation lines joined; a line eliding its arguments (``...``) is left out."""
    rest = re.sub(r"<!-- (tour|walkthrough) -->.*?<!-- /\1 -->", "", README, flags=re.S)
    commands = []
    for block in re.findall(r"^```\w*\n(.*?)^```", rest, re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("lars ") and "..." not in line:
                commands.append(" ".join(line.split()))
    return commands


def test_the_readme_shows_commands_beyond_the_blocks():
    found = readme_commands()
    assert any(c.startswith("lars check") for c in found)
    assert any(c.startswith("lars witness") for c in found)


@pytest.mark.parametrize("command", readme_commands())
def test_every_other_readme_command_runs(command, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command.partition(" #")[0])[1:]
    if "--output" in argv:  # written to a scratch folder, not into the checkout
        at = argv.index("--output") + 1
        argv[at] = str(tmp_path / argv[at])
    status = main(argv)
    out, err = capsys.readouterr()
    assert status in (0, 1), (command, err)
    assert "error" not in err, (command, err)
    assert out or "--output" in argv


def test_the_readme_shows_what_its_commands_print(capsys, monkeypatch):
    """An output block right after a command block is what that command prints first."""
    monkeypatch.chdir(ROOT)
    shown = re.search(r"```bash\n(lars check [^`]*?)```\n```\n([^`]*?)```", README)
    assert shown
    status = main(shlex.split(shown.group(1).replace("\\\n", " "))[1:])
    assert status == 0
    assert capsys.readouterr().out.splitlines()[0] == shown.group(2).splitlines()[0]


def test_links_of_the_readme_and_docs_lead_to_files():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                missing.append((page.name, target))
    assert missing == []


@pytest.mark.parametrize("page", ["README.md", "docs/python.md"])
def test_the_python_blocks_run(page, monkeypatch):
    """The Python a page shows runs as written, from the project's folder."""
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / page).read_text(encoding="utf-8"),
                        re.S | re.M)
    assert blocks
    for block in blocks:
        exec(compile(block, page, "exec"), {})  # noqa: S102 - the page's own example
