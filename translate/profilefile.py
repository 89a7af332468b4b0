"""User engine profiles in a small TOML file (``--profile my-engine.toml``).

Every key is optional except what ``based-on`` does not give; keys are those of
:class:`~translate.profiles.Profile` with dashes::

    based-on = "csparql"              # start from a built-in profile
    name = "csparql-closed"           # default: the file name without .toml
    translation = "csparql"           # csparql (τ1(cs(Q))) or cqels (τ2(cq(Q)))
    bounds = "closed"                 # closed, left-open, right-open (open: window-close only)
    t0 = "any"                        # a number of ticks from 0 to 2147483647, or "any"
    report = ["window-close", "non-empty"]
    tick = "time"
    r2s = "rstream"                   # rstream, istream, dstream
    empty = "emit"                    # emit or drop empty relations
    answers = "bag"                   # set or bag
    startup = "full"                  # partial or full start-up windows
    label-ms = 0                      # time label minus report time, within ±86400000 (a day)
    jitter-ms = 100                   # tolerance for recorded labels, 0 to 86400000
    empty-group = "row"               # aggregates over no solution: row, null or none
    relations = "as-recorded"         # as-recorded, or by-time (merged per tick by lars check)
    r2s-by-query = { q1 = "istream" } # R2S by the name a query registers (docs/profiles.md)
    description = "..."

Errors name the file and, where the TOML reader or a key's line tells it, the line. The file
must be a regular UTF-8 file (:func:`translate.documents.read_document`); numbers are checked
against the ranges above where they are read (issue 28: a jitter of -100000 ms or a label of
2^63-1 ms moved every recorded answer off the timeline, and nothing was compared).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "closed.toml"
>>> _ = path.write_text('based-on = "csparql"\\nbounds = "closed"\\n')
>>> p = load_profile(path)
>>> p.name, p.bounds, p.report == resolve_profile("csparql").report
('closed', 'closed', True)
"""

from __future__ import annotations

import re
from dataclasses import MISSING, fields, replace
from pathlib import Path

from lars.errors import InputError, ParseError, Position
from translate.documents import read_document
from translate.profiles import Profile, profile

_KEYS = {f.name.replace("_", "-"): f.name for f in fields(Profile)} | {"based-on": "based_on"}
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
_TYPES = {"t0": (int, str), "report": (list,), "label_ms": (int,), "jitter_ms": (int,),
          "r2s_by_query": (dict,)}
DAY_MS = 86_400_000
RANGES = {"t0": (0, 2**31 - 1), "label_ms": (-DAY_MS, DAY_MS), "jitter_ms": (0, DAY_MS)}
"""The ranges of the numeric keys: beyond them a profile moves answers off any timeline (and
t0 beyond clingo's 32-bit integers)."""


def _key_position(path: Path, text: str, key: str) -> Position:
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line):
            return Position(str(path), number, line.index(key) + 1)
    return Position(str(path))


def _value(path: Path, text: str, key: str, value: object) -> object:
    """A TOML value checked for the field ``key`` (dashed)."""
    name = _KEYS[key]
    where = _key_position(path, text, key)
    expected = _TYPES.get(name, (str,))
    if isinstance(value, bool) or not isinstance(value, expected):
        raise InputError(f"{key} must be {' or '.join(t.__name__ for t in expected)}, "
                         f"not {type(value).__name__}", where)
    if name == "t0" and isinstance(value, str):
        if value != "any":
            raise InputError(f"t0 must be an integer or \"any\", not {value!r}", where)
        return None
    if name == "report":
        if not all(isinstance(item, str) for item in value):
            raise InputError("report must be a list of strings", where)
        return frozenset(value)
    if name in RANGES and not RANGES[name][0] <= value <= RANGES[name][1]:  # type: ignore[operator]
        low, high = RANGES[name]
        raise InputError(f"{key} must be from {low} to {high}, not {value}", where)
    if name == "r2s_by_query":
        if not all(isinstance(item, str) for item in value.values()):
            raise InputError("r2s-by-query must map query names to strings", where)
        return tuple(sorted(value.items()))
    return value


def load_profile(path: str | Path) -> Profile:
    """The profile in a TOML file."""
    import tomllib  # for a .toml profile only (issue 29: not every command's import cost)
    path = Path(path)
    text = read_document(path, "profile")
    try:
        document = tomllib.loads(text)
    except (ValueError, RecursionError) as error:  # TOMLDecodeError, or an integer too long for int
        if not isinstance(error, tomllib.TOMLDecodeError):
            raise ParseError("not TOML: a number or a nesting too large to read",
                             Position(str(path))) from None
        found = _TOML_POSITION.search(str(error))
        line, column = (int(found[1]), int(found[2])) if found else (None, None)
        message = _TOML_POSITION.sub("", str(error)).strip()
        raise ParseError(f"not TOML: {message}", Position(str(path), line, column)) from None
    values: dict[str, object] = {}
    for key, value in document.items():
        if key not in _KEYS:
            raise InputError(f"unknown key '{key}'", _key_position(path, text, key),
                             hint="keys are " + ", ".join(sorted(_KEYS)))
        values[_KEYS[key]] = _value(path, text, key, value) if key != "based-on" else value
    base = values.pop("based_on", None)
    values.setdefault("name", path.stem)
    try:
        if base is not None:
            if not isinstance(base, str):
                raise InputError("based-on must name a built-in profile")
            found = replace(profile(base), **values)
        else:
            found = Profile(**values)
        if found.bounds == "open" and "window-close" not in found.report:
            raise InputError("bounds = \"open\" needs a window-close report policy",
                             _key_position(path, text, "bounds"))
        return found
    except InputError as error:
        raise InputError(error.message, error.position or Position(str(path)), error.hint) from None
    except TypeError:
        missing = [f.name.replace("_", "-") for f in fields(Profile)
                   if f.name not in values and f.default is MISSING]
        raise InputError(f"missing key(s) {', '.join(missing)} (or give based-on)",
                         Position(str(path))) from None


def resolve_profile(spec: str) -> Profile:
    """A built-in profile by name, or a TOML file by path (``*.toml`` or an existing file)."""
    if spec.endswith(".toml") or Path(spec).is_file():
        return load_profile(spec)
    return profile(spec)
