"""Durations and time units (SPEC section 2): whole ticks or an error, never a rounding."""

from __future__ import annotations

import pytest

from lars.errors import InputError, ParseError
from translate.durations import parse_duration, parse_unit, to_ticks, unit_text


@pytest.mark.parametrize(("text", "unit", "ticks"), [
    pytest.param("10s", "1s", 10, id="10s-in-1s"),
    pytest.param("10 s", "1s", 10, id="10-space-s"),
    pytest.param("30m", "1m", 30, id="30m-in-1m"),
    pytest.param("30m", "1s", 1800, id="30m-in-1s"),
    pytest.param("500ms", "100ms", 5, id="500ms-in-100ms"),
    pytest.param("2h", "1m", 120, id="2h-in-1m"),
    pytest.param("1d", "1h", 24, id="1d-in-1h"),
    pytest.param("0s", "1s", 0, id="zero"),
    pytest.param("10S", "1s", 10, id="upper-case-suffix"),
])
def test_duration_in_ticks(text: str, unit: str, ticks: int) -> None:
    assert to_ticks(parse_duration(text), parse_unit(unit)) == ticks


@pytest.mark.parametrize(("text", "unit"), [
    pytest.param("500ms", "1s", id="500ms-in-1s"),
    pytest.param("90s", "1m", id="90s-in-1m"),
    pytest.param("1s", "300ms", id="1s-in-300ms"),
])
def test_non_integral_conversion_is_an_error(text: str, unit: str) -> None:
    with pytest.raises(InputError, match="not a whole number of ticks") as error:
        to_ticks(parse_duration(text), parse_unit(unit))
    assert "smaller time unit" in str(error.value)


@pytest.mark.parametrize(("text", "message"), [
    pytest.param("10", "expected a time unit", id="no-suffix"),
    pytest.param("10sec", "did you mean", id="bad-suffix"),
    pytest.param("1.5s", "expected a duration", id="fraction"),
    pytest.param("s", "expected a duration", id="no-number"),
    pytest.param("-3s", "cannot be negative", id="negative"),
])
def test_bad_durations(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_duration(text)


def test_zero_unit_is_refused() -> None:
    with pytest.raises(InputError, match="longer than zero"):
        parse_unit("0s")


@pytest.mark.parametrize(("ms", "text"), [(1, "1ms"), (1000, "1s"), (60_000, "1m"),
                                           (90_000, "90s"), (86_400_000, "1d")])
def test_unit_text(ms: int, text: str) -> None:
    assert unit_text(ms) == text
