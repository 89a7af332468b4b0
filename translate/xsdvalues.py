"""XSD values that rdflib gets wrong or leaves open: canonical forms, date-times, casts to string.

Three jobs for :mod:`translate.sparqlfunctions`, each a direct reading of XML Schema or XPath:

* :func:`canonical` — the lexical form of a *computed* number (a sum, a cast, an average). SPARQL
  says what value an operator computes, not how it is written; we write XML Schema 1.0's
  canonical forms, which the SPARQL 1.1 tests expect: ``"2.0"`` (decimal), ``"3.21E4"``
  (double), ``"6"`` (integer). Terms read from data keep their lexical form (:mod:`translate.rdf`).
* :func:`compare_temporal` — XML Schema's order on xsd:dateTime and xsd:date (Part 2, 3.2.7.4):
  a partial order. Two values that both have a time zone, or both have none, compare by their
  instant (``24:00:00`` is midnight of the next day, fractions of a second count); a value with a
  time zone and one without compare only when they are more than 14 hours apart, else the result
  is *indeterminate*, which SPARQL's operators report as an error.
* :func:`xpath_string` — ``xsd:string(x)`` of a number or boolean, which XPath (F&O 3.1, 19.1.2.1)
  defines by value, not by lexical form: ``xsd:string("1.0"^^xsd:decimal)`` is ``"1"``,
  ``xsd:string("1E0"^^xsd:double)`` is ``"1"``, ``xsd:string("0"^^xsd:boolean)`` is ``"false"``.

>>> canonical(Decimal("6"), XSD.decimal), canonical(32100.0, XSD.double), canonical(0.4, XSD.double)
(rdflib.term.Literal('6.0', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#decimal')), rdflib.term.Literal('3.21E4', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#double')), rdflib.term.Literal('4.0E-1', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#double')))
>>> midnight = temporal(Literal("1999-12-31T24:00:00", datatype=XSD.dateTime))
>>> compare_temporal(midnight, temporal(Literal("2000-01-01T00:00:00", datatype=XSD.dateTime)))
0
>>> zoned = temporal(Literal("2002-04-02T23:00:00+06:00", datatype=XSD.dateTime))
>>> compare_temporal(temporal(Literal("2002-04-02T23:00:00", datatype=XSD.dateTime)), zoned) is None
True
>>> xpath_string(Literal("1E0", datatype=XSD.double)), xpath_string(Literal("1.0E7", datatype=XSD.double))
('1', '1.0E7')
"""

from __future__ import annotations

import math
import re
import struct
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from rdflib import Literal, URIRef
from rdflib.namespace import XSD

INTEGER_TYPES = frozenset(XSD[name] for name in (
    "integer", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger",
    "nonPositiveInteger", "negativeInteger", "unsignedLong", "unsignedInt", "unsignedShort",
    "unsignedByte"))
NUMERIC_TYPES = INTEGER_TYPES | {XSD.decimal, XSD.double, XSD.float}


# --- canonical forms of computed numbers ------------------------------------------------------

def to_float32(value: float) -> float:
    """``value`` rounded to single precision (xsd:float), keeping infinities and NaN."""
    if not math.isfinite(value):
        return value
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _shortest_digits(value: float, single: bool) -> tuple[str, int]:
    """The shortest decimal digits ``d1d2…`` and exponent ``e`` with ``value = 0.d1d2… × 10^e``
    that read back as ``value`` (in single precision for xsd:float)."""
    text = repr(abs(value))
    if single:
        text = next(t for t in (f"{abs(value):.{p}g}" for p in range(1, 10))
                    if to_float32(float(t)) == abs(value))
    _, digits, exponent = Decimal(text).normalize().as_tuple()
    string = "".join(map(str, digits))
    return string, exponent + len(string)


def _double_form(value: float, single: bool = False) -> str:
    """XML Schema 1.0's canonical double or float: ``d.ddd…E±n`` with one digit before the point
    and at least one after (``1.0E0``, ``3.21E4``, ``-4.0E-1``), ``NaN``, ``INF``, ``-INF``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "INF" if value > 0 else "-INF"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return f"{sign}0.0E0"
    digits, exponent = _shortest_digits(value, single)
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent - 1}"


def _decimal_form(value: Decimal) -> str:
    """XML Schema 1.0's canonical decimal: no exponent, no redundant zeros, at least one digit
    on each side of the point (``2.0``, ``-0.5``, ``0.0``)."""
    if value == 0:
        return "0.0"
    text = format(_stripped(value), "f")
    return text if "." in text else text + ".0"


def _stripped(value: Decimal) -> Decimal:
    """``value`` without trailing zeros, never rounded (``Decimal.normalize`` rounds to the
    context's 28 digits)."""
    return value.normalize(Context(prec=max(28, len(value.as_tuple().digits))))


def exact(operation, x: Decimal, y: Decimal) -> Decimal:
    """``operation(x, y)`` on decimals with enough digits that ``+ - *`` are exact (``/`` gets
    at least 28 significant digits)."""
    digits = len(x.as_tuple().digits) + len(y.as_tuple().digits) + \
        abs(x.adjusted() - y.adjusted()) + 2
    with localcontext(Context(prec=max(28, digits))):
        return operation(x, y)


def canonical(value, datatype: URIRef) -> Literal:
    """The literal of a computed numeric ``value`` of ``datatype`` in its canonical form (a type
    derived from xsd:integer is written as xsd:integer is)."""
    if datatype in INTEGER_TYPES:
        return Literal(str(int(value)), datatype=datatype)
    if datatype == XSD.decimal:
        return Literal(_decimal_form(Decimal(value)), datatype=datatype)
    if datatype == XSD.float:
        return Literal(_double_form(to_float32(float(value)), single=True), datatype=datatype)
    return Literal(_double_form(float(value)), datatype=XSD.double)


def numeric(literal: Literal):
    """The value of a valid numeric literal (``int``, ``Decimal`` or ``float``; an xsd:float in
    single precision), ``None`` for any other term."""
    if not isinstance(literal, Literal) or literal.datatype not in NUMERIC_TYPES \
            or literal.ill_typed:
        return None
    value = literal.value
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, float)):
        return None
    return to_float32(value) if literal.datatype == XSD.float else value


# --- xsd:dateTime and xsd:date: XML Schema's partial order ----------------------------------

class Temporal(NamedTuple):
    """A dateTime or date value: its instant in seconds (UTC when zoned, the wall clock read as
    UTC when not) and whether it has a time zone."""
    seconds: Fraction
    zoned: bool


_ZONE = r"(Z|[+-](?:(?:0\d|1[0-3]):[0-5]\d|14:00))?"
_DATE_TIME = re.compile(r"(-?(?:[1-9]\d{4,}|\d{4}))-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d(?:\.\d+)?)"
                        + _ZONE + r"\Z")
_DATE = re.compile(r"(-?(?:[1-9]\d{4,}|\d{4}))-(\d\d)-(\d\d)" + _ZONE + r"\Z")
_FOURTEEN_HOURS = 14 * 3600


def _days(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar (any year)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _month_length(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


@lru_cache(maxsize=1 << 16)
def temporal(literal: Literal) -> Temporal | None:
    """The value of a valid xsd:dateTime or xsd:date literal (a date is the instant its day
    starts), ``None`` for any other term or an invalid lexical form."""
    if not isinstance(literal, Literal) or literal.language is not None:
        return None
    text = str(literal)
    if literal.datatype == XSD.dateTime:
        found = _DATE_TIME.match(text)
    elif literal.datatype == XSD.date:
        found = _DATE.match(text)
    else:
        return None
    if found is None:
        return None
    year, month, day = int(found[1]), int(found[2]), int(found[3])
    hour, minute, second = (0, 0, Fraction(0)) if literal.datatype == XSD.date else (
        int(found[4]), int(found[5]), Fraction(found[6]))
    zone = found[7] if literal.datatype == XSD.dateTime else found[4]
    if not 1 <= month <= 12 or not 1 <= day <= _month_length(year, month) or minute > 59 \
            or second >= 60 or hour > 24 or (hour == 24 and (minute or second)):
        return None
    seconds = Fraction(_days(year, month, day) * 86400 + hour * 3600 + minute * 60) + second
    if zone and zone != "Z":
        offset = (int(zone[1:3]) * 60 + int(zone[4:6])) * 60
        seconds -= offset if zone[0] == "+" else -offset
    return Temporal(seconds, zone is not None)


def compare_temporal(a: Temporal, b: Temporal) -> int | None:
    """-1, 0 or 1 as ``a`` is before, at or after ``b``; ``None`` when XML Schema's order leaves
    it indeterminate (one has a time zone, the other not, and they are 14 hours apart or less)."""
    if a.zoned == b.zoned:
        return (a.seconds > b.seconds) - (a.seconds < b.seconds)
    zoned, plain, sign = (a, b, 1) if a.zoned else (b, a, -1)
    if zoned.seconds < plain.seconds - _FOURTEEN_HOURS:
        return -sign
    if zoned.seconds > plain.seconds + _FOURTEEN_HOURS:
        return sign
    return None


# --- casting to xsd:string ------------------------------------------------------------------

def xpath_string(literal: Literal) -> str | None:
    """The string XPath casts a valid numeric or boolean literal to; ``None`` for other terms."""
    if isinstance(literal, Literal) and literal.datatype == XSD.boolean and not literal.ill_typed:
        return "true" if literal.value else "false"
    value = numeric(literal)
    if value is None:
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return _xpath_decimal(value)
    single = literal.datatype == XSD.float
    if math.isfinite(value) and value != 0 and 1e-6 <= abs(value) < 1e6:
        digits, exponent = _shortest_digits(value, single)
        return _xpath_decimal(Decimal(f"{'-' if value < 0 else ''}0.{digits}E{exponent}"))
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    return _double_form(value, single)


def _xpath_decimal(value: Decimal) -> str:
    """XPath's string of a decimal: no exponent, no trailing zeros, no point if integral."""
    if value == 0:
        return "0"
    return format(_stripped(value), "f")
