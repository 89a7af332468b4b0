"""Names of generated predicates and variables, built in one place so they never clash.

* ``ans_i`` — the predicate of SPARQL node ``i`` (root 1, children ``2i`` and ``2i+1``);
  ``ans_i_prime`` — Polleres' helper ``ans'_i`` for OPTIONAL and MINUS; ``ans_i_<role>`` —
  the helpers of an aggregate (:mod:`translate.aggregates`) and of EXISTS;
* ``triple``/``striple`` — static and stream triples (:mod:`translate.rdf`);
* ``named_graph`` — the named graphs of the data, for ``GRAPH ?g`` over a pattern that reads
  no triple of the graph it names; ``trigger`` — push and pull (:mod:`translate.triggers`);
* ``path_k`` and ``rdf_graph`` — property paths (:mod:`translate.paths`); ``window_triple`` —
  a window's content as a graph ``window_i`` (the STREAM block of node ``i``), which property
  paths inside the block read (:mod:`translate.tau`).
* ``report``, ``report_at``, ``later_report``, ``prev_report``, ``istream_1``, ``dstream_1`` and
  the ``_prev`` copies of derived predicates — engine profiles (:mod:`translate.reports`).

A SPARQL variable becomes a LARS variable with an upper-case initial: ``?shop`` is ``Shop``.
Capitalising already uses up every name with an upper-case initial, so names that do not start
with a lower-case letter get ``_U`` in front (``?Shop`` is ``_UShop``, ``?_x`` is ``_U_x``,
``?0`` is ``_U0``): the mapping is one-to-one and reversible. Variables the translation makes up
itself start with ``_`` followed by another letter (``_B1``, ``_T1``, ``_N``, ``_G``), so they never
meet a user's.

>>> [lars_variable(n).name for n in ("shop", "Shop", "vx", "Vx", "_x", "0")]
['Shop', '_UShop', 'Vx', '_UVx', '_U_x', '_U0']
>>> [sparql_name(n) for n in ("Shop", "_UShop", "Vx", "_UVx", "_U_x", "_U0")]
['shop', 'Shop', 'vx', 'Vx', '_x', '0']
"""

from __future__ import annotations

import re

from lars.errors import UnsupportedError
from lars.terms import Name, Variable

NAMED_GRAPH = "named_graph"
TRIGGER = "trigger"
RDF_GRAPH = "rdf_graph"
"""``rdf_graph(G)``: the graphs of the dataset (``default`` and the named ones), where a
zero-length property path from a constant holds (:mod:`translate.paths`)."""
WINDOW_TRIPLE = "window_triple"
"""``window_triple(S, P, O, window_i)``: the triples in the window of the STREAM block of node
``i`` at the current time point (read by property paths inside the block)."""
REPORT = "report"
REPORT_AT = "report_at"
LATER_REPORT = "later_report"
PREVIOUS_REPORT = "prev_report"

_SPARQL_NAME = re.compile(r"[A-Za-z0-9_]+\Z")
_ESCAPE = "_U"


def answer_predicate(index: int) -> str:
    """``ans_i``."""
    return f"ans_{index}"


def helper_predicate(index: int) -> str:
    """``ans_i_prime``: Polleres' ``ans'_i``."""
    return f"ans_{index}_prime"


def window_graph(index: int) -> Name:
    """``window_i``: the active graph inside the STREAM block of node ``i`` (a name, which no
    IRI or literal encodes to)."""
    return Name(f"window_{index}")


def path_predicate(index: int) -> str:
    """``path_k``: the pairs a property path connects (:mod:`translate.paths`)."""
    return f"path_{index}"


def previous_predicate(name: str) -> str:
    """``p_prev``: the copy of derived predicate ``p`` evaluated at the previous report."""
    return f"{name}_prev"


def stream_predicate(r2s: str) -> str:
    """``istream_1`` or ``dstream_1``: the answers an Istream or Dstream reports."""
    return f"{r2s}_1"
def role_predicate(index: int, role: str) -> str:
    """``ans_i_<role>``: a helper of node ``i`` (``role`` lower-case, e.g. ``acc1``, ``ex0``)."""
    return f"ans_{index}_{role}"


def lars_variable(name: str) -> Variable:
    """The LARS variable for the SPARQL variable ``?name`` (see the module doc)."""
    if not _SPARQL_NAME.match(name):
        raise UnsupportedError(f"variable name ?{name} (only ASCII letters, digits and _)")
    if "a" <= name[0] <= "z":
        return Variable(name[0].upper() + name[1:])
    return Variable(_ESCAPE + name)


def sparql_name(name: str) -> str:
    """The inverse of :func:`lars_variable`."""
    if name.startswith(_ESCAPE):
        return name[len(_ESCAPE):]
    return name[0].lower() + name[1:]


def internal_variable(stem: str, index: int | None = None) -> Variable:
    """A variable of the translation's own, e.g. ``_B1`` for a blank node (``stem`` upper-case,
    not starting with ``U``)."""
    assert not stem.startswith("U")
    return Variable(f"_{stem}" if index is None else f"_{stem}{index}")
