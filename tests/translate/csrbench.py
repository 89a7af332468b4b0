"""The seven CSRBench queries of ``data/csrbench/QUERIES.md`` in C-SPARQL and CQELS syntax."""

from __future__ import annotations

PREFIXES = """PREFIX om-owl: <http://knoesis.wright.edu/ssw/ont/sensor-observation.owl#>
PREFIX weather: <http://knoesis.wright.edu/ssw/ont/weather.owl#>
PREFIX sens-obs: <http://knoesis.wright.edu/ssw/>
"""
STREAM = "http://ex.org/streams/test"

_AIR = """?obs om-owl:observedProperty weather:_AirTemperature ;
             om-owl:procedure ?sensor ;
             om-owl:result ?res .
        ?res om-owl:floatValue ?value ."""
_HUMIDITY = _AIR.replace("_AirTemperature", "_RelativeHumidity")
_Q6 = """?ob1 om-owl:procedure ?sensor ;
             om-owl:observedProperty weather:_AirTemperature ;
             om-owl:result [om-owl:floatValue ?value1] .
        ?obs om-owl:procedure ?sensor ;
             om-owl:observedProperty weather:_AirTemperature ;
             om-owl:result [om-owl:floatValue ?value] ."""
_Q7 = """?ob om-owl:procedure sens-obs:System_C1190 ;
            om-owl:observedProperty weather:_AirTemperature ;
            om-owl:result [om-owl:floatValue ?value] .
        ?ob1 om-owl:procedure ?sensor ;
             om-owl:observedProperty weather:_AirTemperature ;
             om-owl:result [om-owl:floatValue ?value1] ."""

# number: (SELECT clause, window (C-SPARQL), window (CQELS), stream pattern, filters)
QUERIES = {
    1: ("?sensor ?obs", "[RANGE 10s STEP 10s]", "[RANGE 10s SLIDE 10s]", _AIR, "FILTER(?value > 80)"),
    2: ("?sensor ?obs", "[RANGE 1s STEP 1s]", "[RANGE 1s SLIDE 1s]", _AIR, "FILTER(?value > 80)"),
    3: ("?sensor ?obs ?value", "[RANGE 4s STEP 4s]", "[RANGE 4s SLIDE 4s]", _HUMIDITY,
        "FILTER(?value < 49) FILTER(?value > 24)"),
    4: ("(AVG(?value) AS ?avg)", "[RANGE 4s STEP 4s]", "[RANGE 4s SLIDE 4s]", _AIR,
        "FILTER(?value > 80)"),
    5: ("?sensor ?obs", "[RANGE 5s STEP 1s]", "[RANGE 5s SLIDE 1s]", _AIR, "FILTER(?value > 80)"),
    6: ("?sensor ?ob1 ?value1 ?obs", "[RANGE 5s STEP 5s]", "[RANGE 5s SLIDE 5s]", _Q6,
        "FILTER(?value1 > ?value) FILTER(?value > 75)"),
    7: ("?sensor ?ob1", "[RANGE 5s STEP 5s]", "[RANGE 5s SLIDE 5s]", _Q7, "FILTER(?value1 > ?value)"),
}


def csparql(number: int) -> str:
    select, window, _, pattern, filters = QUERIES[number]
    return (f"REGISTER QUERY test AS\n{PREFIXES}SELECT {select}\n"
            f"FROM STREAM <{STREAM}> {window}\n"
            f"WHERE {{ {pattern}\n        {filters} }}")


def cqels(number: int) -> str:
    select, _, window, pattern, filters = QUERIES[number]
    return (f"{PREFIXES}SELECT {select}\n"
            f"WHERE {{ STREAM <{STREAM}> {window} {{\n          {pattern} }}\n"
            f"        {filters} }}")
