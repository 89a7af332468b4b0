"""The operators and functions of SPARQL 1.1 (§17) as external functions on LARS constants.

Each function here is registered with :func:`lars.externals.external`, so a translated program
can call it as ``@name(...)``: clingo calls it while grounding, the Python strategies while
joining, and both get the same value. The arguments are constants of the RDF encoding
(:mod:`translate.rdf`), decoded to rdflib terms; the work is done by rdflib's own operator
implementations (``rdflib.plugins.sparql.operators``), so numbers compare by value across xsd
types with SPARQL's promotion rules, decimals stay exact, doubles follow IEEE, language tags
compare case-insensitively, and xsd:boolean compares by value; date-times and dates compare by
XML Schema's partial order, computed numbers are written in canonical form and casts to
xsd:string follow XPath (:mod:`translate.xsdvalues`, where rdflib departs from the
specifications); ``=`` is false on literals of known, disjoint value spaces (:func:`_equal`).

Every function is total: an argument that is ``null`` (unbound) or ``error``, an ill-typed
literal, a type error, all give the constant ``error`` (SPARQL's expression error), never an
exception. Only the non-strict operators look past an error: ``||`` and ``&&`` (three-valued
logic), ``IF``, ``COALESCE``, ``BOUND``, ``IN``/``NOT IN``. Two functions close an expression:
``@ebv(e)`` is ``true``, ``false`` or ``error`` (a FILTER keeps a solution when it is ``true``) and
``@value(e)`` turns ``error`` into ``null`` (BIND and SELECT expressions leave the variable
unbound on an error).

>>> from lars.terms import Number, String
>>> from translate.rdf import to_constant
>>> from rdflib import Literal
>>> half = to_constant(Literal("0.5", datatype=XSD.decimal))
>>> sparql_gt(half, Number(0)), sparql_eq(Number(1), to_constant(Literal(1.0)))
(Name(value='true'), Name(value='true'))
>>> sparql_add(half, half)
String(value='"1.0"^^<http://www.w3.org/2001/XMLSchema#decimal>')
>>> sparql_lt(String("a"), Number(1)), sparql_or(ERROR, TRUE), sparql_and(ERROR, TRUE)
(Name(value='error'), Name(value='true'), Name(value='error'))
"""

from __future__ import annotations

import math
import operator
import os
import re
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

from rdflib import Literal, URIRef
from rdflib.namespace import XSD
from rdflib.plugins.sparql import operators
from rdflib.plugins.sparql.operators import EBV
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.plugins.sparql.sparql import Prologue, QueryContext
from rdflib.term import Identifier

from lars.errors import LimitError
from lars.externals import external
from lars.terms import Constant, Number
from translate.iris import resolve
from translate.rdf import ERROR, FALSE, NULL, TRUE, from_constant, to_constant
from translate.xsdvalues import (
    NUMERIC_TYPES,
    canonical,
    compare_temporal,
    exact,
    numeric,
    temporal,
    xpath_string,
)

if TYPE_CHECKING:
    import regex


NONDETERMINISTIC = frozenset({"NOW"})
"""Functions whose value is not a function of their arguments: refused by the translation, as
the strategies could give them different values (RAND, UUID, STRUUID and BNODE are functions of
their call site and solution instead: :mod:`translate.freshvalues`)."""
_FRESH = frozenset({"RAND", "UUID", "STRUUID", "BNODE"})

_CONTEXT = QueryContext()
_CONTEXT.prologue = Prologue()


class _Error(Exception):
    """An expression error (unbound or ``error`` argument) inside this module."""


def _term(constant: Constant) -> Identifier:
    if constant in (NULL, ERROR):
        raise _Error
    return from_constant(constant)


def _constant(make: Callable[[], object]) -> Constant:
    """The constant of what ``make()`` computes, or ``error`` when it fails in any way."""
    try:
        value = make()
        if isinstance(value, bool):
            return TRUE if value else FALSE
        if not isinstance(value, Identifier):
            return ERROR
        if isinstance(value, Literal) and value.ill_typed:
            return ERROR
        return to_constant(value)
    except LimitError:  # a bound that protects the machine is no expression error
        raise
    except Exception:  # noqa: BLE001 - every failure of an operator is SPARQL's error
        return ERROR


def _ebv(constant: Constant) -> bool | None:
    """The effective boolean value; ``None`` for an error."""
    if constant in (TRUE, FALSE):
        return constant == TRUE
    try:
        return bool(EBV(_term(constant)))
    except Exception:  # noqa: BLE001
        return None


def _boolean(value: bool | None) -> Constant:
    return ERROR if value is None else TRUE if value else FALSE


# --- closing an expression -------------------------------------------------------------------

@external("ebv")
def sparql_ebv(value: Constant) -> Constant:
    """``true``, ``false`` or ``error``: the effective boolean value (SPARQL §17.2.2)."""
    return _boolean(_ebv(value))


@external("value")
def sparql_value(value: Constant) -> Constant:
    """The value of a BIND or SELECT expression: ``null`` (unbound) on an error."""
    return NULL if value == ERROR else value


# --- the non-strict operators ----------------------------------------------------------------

@external("or")
def sparql_or(left: Constant, right: Constant) -> Constant:
    """``||``: true if either side is true, else error if either is an error (§17.2)."""
    a, b = _ebv(left), _ebv(right)
    return TRUE if True in (a, b) else ERROR if None in (a, b) else FALSE


@external("and")
def sparql_and(left: Constant, right: Constant) -> Constant:
    """``&&``: false if either side is false, else error if either is an error."""
    a, b = _ebv(left), _ebv(right)
    return FALSE if False in (a, b) else ERROR if None in (a, b) else TRUE


@external("bnot")
def sparql_not(value: Constant) -> Constant:
    """``!``."""
    result = _ebv(value)
    return ERROR if result is None else _boolean(not result)


@external("bound")
def sparql_bound(value: Constant) -> Constant:
    return _boolean(value != NULL)


@external("if")
def sparql_if(condition: Constant, then: Constant, otherwise: Constant) -> Constant:
    chosen = {True: then, False: otherwise}.get(_ebv(condition), ERROR)
    return ERROR if chosen == NULL else chosen


@external("coalesce")
def sparql_coalesce(*values: Constant) -> Constant:
    return next((v for v in values if v not in (NULL, ERROR)), ERROR)


@external("in")
def sparql_in(value: Constant, *options: Constant) -> Constant:
    """``value IN (options)``: true on an equal option, else error if a test erred (§17.4.1.9)."""
    tests = [_ebv(sparql_eq(value, option)) for option in options]
    return TRUE if True in tests else ERROR if None in tests else FALSE


@external("notin")
def sparql_not_in(value: Constant, *options: Constant) -> Constant:
    return sparql_not(sparql_in(value, *options))


# --- the strict operators: rdflib's, and XML Schema's order on date-times -------------------

_ORDERED = {XSD.string: "string", None: "string", XSD.boolean: "boolean", XSD.time: "time",
            **{datatype: "numeric" for datatype in NUMERIC_TYPES}}
_TEMPORAL = {XSD.dateTime: "dateTime", XSD.date: "date"}


def _order_kind(term: Identifier) -> str | None:
    """The operand kind for which SPARQL defines ``<`` (§17.3; xsd:date too), ``None`` for
    other terms and for ill-typed literals."""
    if not isinstance(term, Literal) or term.language is not None:
        return None
    if term.datatype in _TEMPORAL:
        return _TEMPORAL[term.datatype] if temporal(term) is not None else None
    return None if term.ill_typed else _ORDERED.get(term.datatype)


def _value_kind(term: Literal) -> str | None:
    """The value space of a literal whose value we know: an order kind, or ``lang`` for a
    literal with a language tag; ``None`` for an unknown datatype or an ill-typed literal."""
    return "lang" if term.language is not None else _order_kind(term)


def _equal(a: Identifier, b: Identifier) -> bool:
    """SPARQL's ``=`` (RDFterm-equal and the typed comparisons, §17.4.1.7). Two literals of
    value spaces we know and that do not meet (a number and a string, a dateTime and a date, a
    language-tagged literal and any other literal) are unequal, as §17.3.1 lets an
    implementation that knows both datatypes say (the tests' ``KnownTypesDefault2Neq`` and
    ``LangTagAwareness``); a literal of an unknown datatype or an ill-typed one equals only
    itself, and comparing it with another literal is an error."""
    if not (isinstance(a, Literal) and isinstance(b, Literal)) or to_constant(a) == to_constant(b):
        return a == b
    kind_a, kind_b = _value_kind(a), _value_kind(b)
    if kind_a == kind_b and kind_a in ("dateTime", "date"):
        return _temporal_order(a, b) == 0
    if kind_a == kind_b and kind_a not in (None, "lang"):
        return bool(operators.RelationalExpression(
            CompValue("RelationalExpression", expr=a, op="=", other=b), _CONTEXT))
    if "lang" in (kind_a, kind_b) or None not in (kind_a, kind_b):
        return False
    raise _Error  # RDFterm-equal: two literals whose values it does not know


def _temporal_order(a: Literal, b: Literal) -> int:
    order = compare_temporal(temporal(a), temporal(b))
    if order is None:
        raise _Error  # a zoned and an unzoned value less than 14 hours apart: indeterminate
    return order


_ORDER_TESTS = {"<": lambda o: o < 0, "<=": lambda o: o <= 0, ">": lambda o: o > 0,
                ">=": lambda o: o >= 0}


def _compare(op: str, a: Identifier, b: Identifier) -> Identifier | bool:
    if op in ("=", "!="):
        return _equal(a, b) == (op == "=")
    kind = _order_kind(a)
    if kind is None or kind != _order_kind(b):
        raise _Error  # SPARQL orders only numbers, strings, booleans and date-times
    if kind in ("dateTime", "date"):
        return _ORDER_TESTS[op](_temporal_order(a, b))
    return operators.RelationalExpression(
        CompValue("RelationalExpression", expr=a, op=op, other=b), _CONTEXT)


_INTEGER_TESTS = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                  ">": operator.gt, ">=": operator.ge}


def _relational(op: str) -> Callable[[Constant, Constant], Constant]:
    test = _INTEGER_TESTS[op]

    def compare(left: Constant, right: Constant) -> Constant:
        if type(left) is Number and type(right) is Number:  # two xsd:integers: the fast path
            return TRUE if test(left.value, right.value) else FALSE
        return _constant(lambda: _compare(op, _term(left), _term(right)))
    return compare


def _number(term: Identifier):
    value = numeric(term)
    if value is None:
        raise _Error
    return value


def _ieee(op: str, a: float, b: float) -> float:
    try:
        return _OPERATIONS[op](a, b)
    except ZeroDivisionError:
        return math.copysign(math.inf, a) * math.copysign(1.0, b) if a and not math.isnan(a) \
            else math.nan


_OPERATIONS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def _promoted(*datatypes: URIRef) -> URIRef:
    """The type XPath's numeric promotion gives an operation on these types (integer types are
    xsd:integer, decimal < float < double)."""
    for wider in (XSD.double, XSD.float, XSD.decimal):
        if wider in datatypes:
            return wider
    return XSD.integer


def _arithmetic(op: str) -> Callable[[Constant, Constant], Constant]:
    """``+ - * /`` with XPath's numeric type promotion (SPARQL §17.3): integers stay integers
    (``/`` makes a decimal), decimals are exact, floats and doubles follow IEEE 754 (floats in
    single precision); the result in its canonical form (:func:`translate.xsdvalues.canonical`)."""
    def apply(a: Identifier, b: Identifier) -> Identifier:
        x, y = _number(a), _number(b)
        datatype = _promoted(a.datatype, b.datatype)
        if datatype in (XSD.double, XSD.float):
            return canonical(_ieee(op, float(x), float(y)), datatype)
        if op == "/" or datatype == XSD.decimal:
            if op == "/" and y == 0:
                raise _Error  # division by zero is an error for integers and decimals
            return canonical(exact(_OPERATIONS[op], Decimal(x), Decimal(y)), XSD.decimal)
        return canonical(_OPERATIONS[op](int(x), int(y)), XSD.integer)

    def compute(left: Constant, right: Constant) -> Constant:
        return _constant(lambda: apply(_term(left), _term(right)))
    return compute


@external("plus")
def sparql_plus(value: Constant) -> Constant:
    """Unary ``+``: the number itself, as written."""
    return _constant(lambda: _term(value) if _number(_term(value)) is not None else None)


@external("neg")
def sparql_neg(value: Constant) -> Constant:
    """Unary ``-``: the negated value, of the operand's type (an integer type: xsd:integer),
    written as the operand with its sign changed (``-"3"^^xsd:double`` is ``"-3"``)."""
    def negate() -> Literal:
        term = _term(value)
        number, text = _number(term), str(term).strip()
        if isinstance(number, float) and math.isnan(number):
            return term
        spelled = text[1:] if text.startswith("-") else "-" + text.removeprefix("+")
        return Literal(spelled, datatype=_promoted(term.datatype))
    return _constant(negate)


sparql_eq, sparql_ne, sparql_lt, sparql_le, sparql_gt, sparql_ge = (
    external(name)(_relational(op)) for name, op in (
        ("eq", "="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")))
sparql_add, sparql_sub, sparql_mul, sparql_div = (
    external(name)(_arithmetic(op)) for name, op in (("add", "+"), ("sub", "-"), ("mul", "*"),
                                                     ("div", "/")))

COMPARISONS = {"=": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
ARITHMETIC = {"+": "add", "-": "sub", "*": "mul", "/": "div"}


@external("cast")
def sparql_cast(datatype: Constant, value: Constant) -> Constant:
    """``xsd:T(value)``: the XPath constructor functions (§17.5), numbers written in canonical
    form; rdflib's, except from booleans and numbers to numbers and booleans, which rdflib
    refuses or gets wrong (it cannot cast ``true`` or ``0.0`` to xsd:integer), and from numbers
    and booleans to strings, which XPath defines by value (``xsd:string(1.0)`` is ``"1"``)."""
    def cast():
        target, source = _term(datatype), _term(value)
        kind = _order_kind(source)
        if target == XSD.string and kind in ("numeric", "boolean"):
            return Literal(xpath_string(source))
        if target in _NUMBER_CASTS and kind in ("numeric", "boolean"):
            number = numeric(source) if kind == "numeric" else source.value
            if isinstance(number, float) and not math.isfinite(number) \
                    and target in (XSD.integer, XSD.decimal):
                raise _Error  # NaN and INF have no integer or decimal; as booleans NaN is false
            return _NUMBER_CASTS[target](number)
        if isinstance(source, Literal) and source.ill_typed:
            raise _Error
        result = operators.Function(CompValue("Function", iri=target, expr=[source]), _CONTEXT)
        if target in _NUMBER_CASTS and isinstance(result, Literal) and not result.ill_typed:
            return _NUMBER_CASTS[target](numeric(result) if target != XSD.boolean else result.value)
        return result
    return _constant(cast)


_NUMBER_CASTS = {
    XSD.integer: lambda v: canonical(int(v), XSD.integer),
    XSD.decimal: lambda v: canonical(Decimal(int(v)) if isinstance(v, bool) else Decimal(str(v)),
                                     XSD.decimal),
    XSD.double: lambda v: canonical(float(v), XSD.double),
    XSD.float: lambda v: canonical(float(v), XSD.float),
    XSD.boolean: lambda v: Literal(bool(v) and not (isinstance(v, float) and math.isnan(v))),
}


CASTS = frozenset(URIRef(XSD + name) for name in (
    "string", "dateTime", "float", "double", "decimal", "integer", "boolean"))


# --- the built-in functions of §17.4, by rdflib ---------------------------------------------

_PARAMETERS = {"SUBSTR": ("arg", "start", "length"), "REPLACE": ("arg", "pattern", "replacement", "flags"),
               "REGEX": ("text", "pattern", "flags")}
_OWN = {"BOUND", "IF", "COALESCE", "EXISTS", "REGEX", "REPLACE", "IRI"}
_SIMPLE_FIRST = {"STRDT", "STRLANG"}


def _simple(term: Identifier) -> bool:
    return isinstance(term, Literal) and term.language is None and \
        term.datatype in (None, XSD.string)
BUILTINS: dict[str, str] = {}
"""SPARQL keyword (upper case, as rdflib spells it after ``Builtin_``) → external function name."""


def _parameters(keyword: str, count: int) -> tuple[str, ...]:
    if keyword in _PARAMETERS:
        return _PARAMETERS[keyword][:count]
    return ("arg",) if count == 1 else tuple(f"arg{i}" for i in range(1, count + 1))


def _builtin(keyword: str) -> Callable[..., Constant]:
    evaluate = getattr(operators, "Builtin_" + keyword)
    name = "Builtin_" + keyword

    def compute(*values: Constant) -> Constant:
        def make():
            terms = [_term(v) for v in values]
            if keyword in _SIMPLE_FIRST and not _simple(terms[0]):
                raise _Error  # STRDT and STRLANG take a simple literal (§17.4.3.15-16)
            if keyword == "CONCAT":
                return evaluate(CompValue(name, arg=terms), _CONTEXT) if terms else Literal("")
            return evaluate(CompValue(name, **dict(zip(_parameters(keyword, len(terms)), terms))),
                            _CONTEXT)
        return _constant(make)
    return compute


for _name in dir(operators):
    if _name.startswith("Builtin_"):
        _keyword = _name[len("Builtin_"):]
        if _keyword not in _OWN | NONDETERMINISTIC | _FRESH:
            BUILTINS[_keyword.upper()] = _keyword.lower()
            external(_keyword.lower())(_builtin(_keyword))
BUILTINS.update({"BOUND": "bound", "IF": "if", "COALESCE": "coalesce", "REGEX": "regex",
                 "REPLACE": "replace", "IRI": "iri"})


# --- IRI() and URI(), resolved against the query's base -------------------------------------

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


@external("iri")
def sparql_iri(value: Constant, base: Constant | None = None) -> Constant:
    """``IRI(x)`` (§17.4.2.8): an IRI unchanged; a simple or xsd:string literal resolved
    against ``base``, the base IRI of the query (its BASE, else its file), with RFC 3986's
    reference resolution. The result must be an absolute IRI: a relative one with no base to
    resolve it against is an error, as is any other argument.

    >>> from translate.rdf import from_constant
    >>> from_constant(sparql_iri(to_constant(Literal("a/b")), to_constant(URIRef("http://e/x/y"))))
    rdflib.term.URIRef('http://e/x/a/b')
    >>> sparql_iri(to_constant(Literal("a/b"))), sparql_iri(to_constant(Literal("a", lang="en")))
    (Name(value='error'), Name(value='error'))
    """
    def make() -> URIRef:
        term = _term(value)
        if isinstance(term, URIRef):
            return term
        if not _simple(term):
            raise _Error
        resolved = resolve(str(term), str(_term(base)) if base is not None else None)
        if not _SCHEME.match(resolved):
            raise _Error
        return URIRef(resolved)
    return _constant(make)


# --- REGEX and REPLACE with all of XPath's flags (rdflib's know neither q nor x) ------------
#
# Evaluated by the ``regex`` module rather than ``re``: the same syntax (its version 0 is re's),
# but each match can be given a time budget. ``re`` backtracks without bound, so a pattern such
# as ``(a|aa)+$`` on a 60-character literal ran for hours (issue 28); past the budget the query
# is refused (LimitError), since an error value would silently drop the solution instead.

_FLAGS = {"i": "IGNORECASE", "s": "DOTALL", "m": "MULTILINE", "x": "VERBOSE"}
"""XPath's flags → the names of ``regex``'s (looked up there when a pattern is compiled)."""
DEFAULT_REGEX_SECONDS = 2.0
REGEX_SECONDS_VARIABLE = "LARS_REGEX_SECONDS"


def regex_seconds() -> float:
    """The time budget of one REGEX or REPLACE match: ``$LARS_REGEX_SECONDS``, else
    :data:`DEFAULT_REGEX_SECONDS`.

    Raises:
        LimitError: the variable is not a number of seconds above 0 (raised, unlike an
            expression error, by the functions that read it).
    """
    text = os.environ.get(REGEX_SECONDS_VARIABLE)
    if text is None:
        return DEFAULT_REGEX_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise LimitError(f"{REGEX_SECONDS_VARIABLE} must be a number of seconds above 0, not {text!r}")
    return seconds


def _budgeted(match: Callable[[float], object], pattern: regex.Pattern, text: str) -> object:
    """``match(timeout)`` within the time budget of :func:`regex_seconds`.

    Raises:
        LimitError: it took longer (catastrophic backtracking), naming the pattern.
    """
    seconds = regex_seconds()
    try:
        return match(seconds)
    except TimeoutError:
        raise LimitError(f"the regular expression \"{pattern.pattern}\" took more than {seconds:g} s "
                         f"on a string of {len(text)} characters",
                         hint=f"raise the budget with {REGEX_SECONDS_VARIABLE}=SECONDS, or write a "
                              "pattern that backtracks less") from None


def _pattern(pattern: Identifier, flags: Identifier | None) -> regex.Pattern:
    import regex  # only a query with REGEX or REPLACE needs it (issue 29: import cost)
    text = "" if flags is None else str(flags)
    if not _simple(pattern) or (flags is not None and not _simple(flags)) \
            or set(text) - set("ismxq"):
        raise _Error
    source = regex.escape(str(pattern)) if "q" in text else str(pattern)
    if "x" in text and "q" not in text:
        source = re.sub(r"\s", "", source)  # XPath's x drops white space, also in classes
    return regex.compile(source, sum(getattr(regex, _FLAGS[f]) for f in set(text) - {"q", "x"}))


def _string(term: Identifier) -> Literal:
    if not isinstance(term, Literal) or term.datatype not in (None, XSD.string):
        raise _Error  # a string literal, simple or with a language tag
    return term


@external("regex")
def sparql_regex(text: Constant, pattern: Constant, flags: Constant | None = None) -> Constant:
    def search() -> bool:
        compiled, subject = _pattern(_term(pattern), flags and _term(flags)), str(_string(_term(text)))
        return _budgeted(lambda seconds: compiled.search(subject, timeout=seconds) is not None,
                         compiled, subject)
    return _constant(search)


@external("replace")
def sparql_replace(text: Constant, pattern: Constant, replacement: Constant,
                   flags: Constant | None = None) -> Constant:
    def replace() -> Literal:
        source = _string(_term(text))
        compiled = _pattern(_term(pattern), flags and _term(flags))
        if compiled.search(""):
            raise _Error  # a pattern that matches the empty string is an error (XPath)
        by = re.sub(r"\$(\d)", r"\\g<\1>", str(_term(replacement)))
        replaced = _budgeted(lambda seconds: compiled.sub(by, str(source), timeout=seconds),
                             compiled, str(source))
        return Literal(replaced, lang=source.language, datatype=source.datatype)
    return _constant(replace)
