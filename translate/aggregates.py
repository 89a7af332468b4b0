"""τ of GROUP BY with aggregates: a fold along the group's elements (:mod:`lars.folds`).

SPARQL aggregates (SPARQL 1.1 §18.5) need the whole group, so each aggregate is a LARS fold
``R = fold{f, A, V : el_j(K̄,A,V)}``: the group's elements taken in the total order of their
constants ``A`` and folded by external functions that compute with rdflib's operators, exactly
as SPARQL says (SUM, AVG with numeric type promotion, MIN and MAX with SPARQL's ordering,
GROUP_CONCAT with its separator). ``@agg_all`` is the same fold at once, in linear time (the
stratified strategy calls it; clingo folds step by step along the plain rules of
:func:`lars.folds.expand`). For ``ans_i`` of ``P GROUP BY K̄`` with child ``ans_c`` and aggregate
``j`` (names from :func:`translate.names.aggregate_predicate`, ``D`` and ``S`` arguments left
out)::

    el_j(K̄,E,V)   ← ans_c(C̄), E = @pack(C̄), V = @value(arg), V ≠ null.   (E = V for DISTINCT)
    res_j(K̄,R)    ← R = fold{f, E, V : el_j(K̄,E,V)}.
    some_j(K̄)     ← el_j(K̄,E,V).
    res_j(K̄,e_f)  ← group(K̄), not some_j(K̄).           (e_f: 0, "" or null)
    group(K̄)      ← ans_c(C̄).                           (the fact group() if K̄ is empty)
    ans_i(R̄)      ← group(K̄), res_1(K̄,R_1), ..., res_m(K̄,R_m).

``SAMPLE`` of a grouping key (rdflib's way of bringing the keys back) is ``res_j(K̄,k) ←
group(K̄)``, without a fold.

Costs: linear in the group per time point under the stratified strategy (a sort and one pass);
under clingo the plain rules of the fold are quadratic to cubic in the size of a group. Solutions are a set in τ (answers are sets),
so an aggregate sees each distinct solution of its group pattern once; the reader refuses
group patterns whose SPARQL solutions could repeat (UNION, blank nodes).

``empty_group`` is the engine parameter for a query without GROUP BY over no solution (an
engine profile's ``empty_group``, :mod:`translate.profiles`): ``row`` (SPARQL 1.1 and C-SPARQL:
one row, ``COUNT`` 0, ``AVG`` 0, ``SUM`` 0, the others unbound), ``null`` (SQL's reading, as
SPARQLstream answers: one row, ``COUNT`` 0, all other aggregates unbound) or ``none`` (no row,
as CQELS answers).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from rdflib import XSD, Literal
from rdflib.plugins.sparql.evalutils import _val

from lars.atoms import Atom, Comparison
from lars.formulas import Fold
from lars.externals import external
from lars.rules import Literal as BodyLiteral
from lars.terms import Constant, Function, Iri, Name, Number, String, Term
from translate.expressions import value
from translate.names import internal_variable
from translate.rdf import ERROR, NULL, from_constant, to_constant
from translate.rsp import Aggregate, Group
from translate.sparqlfunctions import sparql_add, sparql_div

EMPTY_VALUES: dict[str, Constant] = {"count": Number(0), "sum": Number(0), "avg": Number(0),
                                     "group_concat": String(""), "min": NULL, "max": NULL,
                                     "sample": NULL}
"""The value of each aggregate over an empty group (SPARQL 1.1 §18.5.1)."""

_TAGS = {Number: "n", Name: "m", String: "s", Iri: "i"}
_KINDS = {tag: kind for kind, tag in _TAGS.items()}


@external("pack")
def pack(*constants: Constant) -> String:
    """One constant standing for a tuple of constants (an element of a group: a solution).

    >>> unpack(pack(Number(1), String("a")))
    (Number(value=1), String(value='a'))
    """
    return String(json.dumps([[_TAGS[type(c)], c.value] for c in constants],
                             ensure_ascii=False, separators=(",", ":")))


def unpack(packed: String) -> tuple[Constant, ...]:
    """The constants :func:`pack` packed."""
    return tuple(_KINDS[tag](value) for tag, value in json.loads(packed.value))


def spec(aggregate: Aggregate) -> String:
    """The constant naming the fold of an aggregate: its function, and GROUP_CONCAT's separator."""
    if aggregate.function == "group_concat":
        return String(f"group_concat:{aggregate.separator}")
    return String(aggregate.function)


# --- the folds ---------------------------------------------------------------------------------

def _extremum(choose: Callable) -> Callable[[Constant, Constant], Constant]:
    def step(state: Constant, value: Constant) -> Constant:
        try:
            a, b = from_constant(state), from_constant(value)
            return to_constant(choose(a, b, key=_val))
        except Exception:  # noqa: BLE001 - incomparable values: keep the first (as rdflib)
            return state
    return step


def _concat(function: String) -> str:
    return function.value.split(":", 1)[1]


_STEPS: dict[str, Callable[[Constant, Constant, String], Constant]] = {
    "count": lambda state, value, f: Number(state.value + 1),
    "sum": lambda state, value, f: sparql_add(state, value),
    "avg": lambda state, value, f: pack(Number(unpack(state)[0].value + 1),
                                        sparql_add(unpack(state)[1], value)),
    "min": lambda state, value, f: _extremum(min)(state, value),
    "max": lambda state, value, f: _extremum(max)(state, value),
    "sample": lambda state, value, f: state,
    "group_concat": lambda state, value, f: String(
        state.value + _concat(f) + str(from_constant(value))),
}


def _name(function: String) -> str:
    return function.value.split(":", 1)[0]


@external("agg_start")
def aggregate_start(function: String, value: Constant) -> Constant:
    """The fold's state after the first element."""
    name = _name(function)
    if name == "count":
        return Number(1)
    if name == "avg":
        return pack(Number(1), sparql_add(Number(0), value))
    if name == "sum":
        return sparql_add(Number(0), value)
    if name == "group_concat":
        return String(str(from_constant(value)))
    return value


@external("agg_step")
def aggregate_step(function: String, state: Constant, value: Constant) -> Constant:
    """The fold's state after one more element."""
    return _STEPS[_name(function)](state, value, function)


@external("agg_all")
def aggregate_all(function: String, *values: Constant) -> Constant:
    """The fold of ``values`` at once: :func:`aggregate_result` of the steps from
    :func:`aggregate_start`, in linear time (GROUP_CONCAT joins once instead of copying its
    growing string at each step, AVG counts and adds without packing its state)."""
    name = _name(function)
    if name == "group_concat":
        return aggregate_result(function, String(_concat(function).join(
            str(from_constant(v)) for v in values)))
    if name in ("sum", "avg") and all(type(v) is Number for v in values):
        total = _integer(sum(v.value for v in values))  # exact: the order does not matter
        return total if name == "sum" else aggregate_result(function, pack(Number(len(values)), total))
    if name == "avg":
        total = sparql_add(Number(0), values[0])
        for v in values[1:]:
            total = sparql_add(total, v)
        return aggregate_result(function, pack(Number(len(values)), total))
    if name == "count":
        return Number(len(values))
    state = aggregate_start(function, values[0])
    step = _STEPS[name]
    for v in values[1:]:
        state = step(state, v, function)
    return aggregate_result(function, state)


def _integer(value: int) -> Constant:
    """The constant of an xsd:integer, as :func:`sparql_add` makes it (a clingo integer when it
    fits, else the typed literal)."""
    if -2**31 <= value < 2**31:
        return Number(value)
    return to_constant(Literal(str(value), datatype=XSD.integer))


@external("agg_result")
def aggregate_result(function: String, state: Constant) -> Constant:
    """The aggregate's value from the final state (``null`` on an error, as BIND)."""
    name = _name(function)
    if name == "avg":
        count, total = unpack(state)
        result = sparql_div(total, count)
    elif name == "group_concat":
        result = to_constant(Literal(state.value))
    else:
        result = state
    return NULL if result == ERROR else result



# --- the rules ---------------------------------------------------------------------------------

Helper = Callable[[str, Sequence[Term]], Atom]
"""Makes the atom of a helper predicate: ``helper(role, args)``."""
RuleSpec = tuple[Atom, list, str]
"""``(head, body, role)`` of one rule."""


def group_rules(group: Group, child: Atom, child_terms: dict[str, Term], helper: Helper,
                empty_group: str = "row") -> tuple[list[RuleSpec], list]:
    """The helper rules of a GROUP node and the body of its ``ans_i`` rule.

    Args:
        child: the child's answer atom ``ans_c(C̄, D, S)``.
        child_terms: the LARS term of each child variable (by SPARQL name).
        helper: makes helper atoms (predicate names and the ``D``, ``S`` arguments).
        empty_group: ``row``, ``null`` or ``none`` (see the module doc).

    Returns:
        ``(rules, body)``: the body binds each aggregate's result variable ``_R<j>``.
    """
    keys = [child_terms[k.name] for k in group.keys]
    rules: list[RuleSpec] = []
    if keys or empty_group == "none":
        rules.append((helper("group", keys), [child], "the groups"))
    else:
        rules.append((helper("group", []), [], "the one group (also when empty)"))
    body = [helper("group", keys)]
    for j, (_, aggregate) in enumerate(group.aggregates, start=1):
        if aggregate.function == "sample" and aggregate.argument in group.keys:
            key = child_terms[aggregate.argument.name]  # rdflib's SAMPLE of a grouping key
            rules.append((helper(f"res{j}", [*keys, key]), [helper("group", keys)], "the key"))
        else:
            empty = EMPTY_VALUES[aggregate.function]
            if empty_group == "null" and aggregate.function != "count":
                empty = NULL
            rules += _fold_rules(j, aggregate, keys, child, child_terms, helper, empty)
        body.append(helper(f"res{j}", [*keys, internal_variable("R", j)]))
    return rules, body


def _fold_rules(j: int, aggregate: Aggregate, keys: list[Term], child: Atom,
                child_terms: dict[str, Term], helper: Helper, empty: Constant) -> list[RuleSpec]:
    a, v, r = (internal_variable(x) for x in ("A", "V", "R"))
    el, res, some = (f"{role}{j}" for role in ("el", "res", "some"))
    solution = Function("pack", tuple(child_terms[n] for n in sorted(child_terms)))
    if aggregate.argument is None:
        element = [Comparison("=", v, Number(1))]
    else:
        element = [Comparison("=", v, value(aggregate.argument, child_terms)),
                   Comparison("!=", v, NULL)]
    key = v if aggregate.distinct and aggregate.argument is not None else solution
    return [
        (helper(el, [*keys, a, v]), [child, *element, Comparison("=", a, key)],
         f"elements of {aggregate.function.upper()}"),
        (helper(res, [*keys, r]), [Fold(r, spec(aggregate), a, v, helper(el, [*keys, a, v]))],
         "the fold along the group"),
        (helper(some, keys), [helper(el, [*keys, a, v])], "non-empty"),
        (helper(res, [*keys, empty]),
         [helper("group", keys), BodyLiteral(helper(some, keys), negated=True)], "empty group"),
    ]
