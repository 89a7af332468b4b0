"""Hypothesis strategies for SPARQL 1.1 queries: property paths, VALUES, subqueries, ASK and
solution modifiers, around the patterns of :mod:`tests.translate.sparql_gen` (same vocabulary).

Each strategy gives ``(ours, oracle)`` texts: the query we translate and the same query for
rdflib (they differ only where :mod:`tests.translate.sparql_gen` rewrites a FILTER for rdflib).
Negated property sets are forward only here: rdflib's parser drops the IRI of ``^:p`` inside
``!(...)`` (our reader does not; tests/translate/test_sparql11.py covers it by hand).
"""

from __future__ import annotations

from hypothesis import strategies as st

from tests.translate.sparql_gen import PREFIX, patterns, render, variables_of

NAMES = ("ex:p", "ex:q")


@st.composite
def paths(draw, depth: int = 2) -> str:
    """A property path over ``ex:p`` and ``ex:q``."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(NAMES + ("!ex:p", "!(ex:p|ex:q)", "^ex:q")))
    kind = draw(st.sampled_from(["/", "|", "^", "*", "+", "?"]))
    inner = draw(paths(depth - 1))
    if kind in ("/", "|"):
        return f"({inner}{kind}{draw(paths(depth - 1))})"
    if kind == "^":
        return f"^({inner})"
    return f"({inner}){kind}"


ENDS = st.sampled_from(["?x", "?x", "?y", "ex:a", "ex:b", "ex:zz", "1"])


@st.composite
def path_patterns(draw) -> str:
    """A path triple, maybe joined with a plain triple, maybe inside a GRAPH."""
    subject = draw(st.sampled_from(["?x", "?x", "ex:a", "ex:zz", "[]"]))
    text = f"{subject} {draw(paths())} {draw(ENDS)} ."
    if draw(st.booleans()):
        text += " ?x ex:p ?z ."
    graph = draw(st.sampled_from([None, None, "?g", "ex:g1"]))  # ex:g1 is always there
    return text if graph is None else f"GRAPH {graph} {{ {text} }}"


TERMS = ("ex:a", "ex:b", "1", '"x"', "UNDEF")


@st.composite
def values_blocks(draw) -> str:
    """``VALUES (?x ...) { (...) ... }`` over some of ``?x ?y ?z``, UNDEF included (at least one
    row: rdflib's engine fails on ``VALUES ?x { }``)."""
    names = draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=1, max_size=2, unique=True))
    rows = draw(st.lists(st.lists(st.sampled_from(TERMS), min_size=len(names),
                                  max_size=len(names)), min_size=1, max_size=4))
    heading = " ".join(f"?{n}" for n in names)
    body = " ".join("(" + " ".join(row) + ")" for row in rows)
    return f"VALUES ({heading}) {{ {body} }}"


@st.composite
def groups(draw) -> tuple[str, str, set[str]]:
    """A group pattern of sparql_gen (``ours``, ``oracle``, its variables), or a path pattern."""
    if draw(st.integers(0, 2)) == 0:
        text = draw(path_patterns())
        names = {t[1:] for t in text.replace("{", " ").replace("}", " ").split()
                 if t.startswith("?")}
        return text, text, names
    node = draw(patterns(depth=2))
    return render(node), render(node, oracle=True), variables_of(node)


@st.composite
def sparql11_queries(draw) -> tuple[str, str]:
    """A SELECT or ASK query combining a group with a path, VALUES, a subquery or MINUS."""
    ours, oracle, names = draw(groups())
    kind = draw(st.sampled_from(["path", "values", "subquery", "minus", "values-after"]))
    if kind == "path":
        extra = draw(path_patterns())
        ours, oracle = f"{{ {ours} }} {{ {extra} }}", f"{{ {oracle} }} {{ {extra} }}"
        names |= {t[1:] for t in extra.replace("{", " ").replace("}", " ").split()
                  if t.startswith("?")}
    elif kind in ("values", "minus"):
        extra = draw(values_blocks()) if kind == "values" else draw(path_patterns())
        op = "" if kind == "values" else "MINUS"
        ours, oracle = f"{{ {ours} }} {op} {{ {extra} }}", f"{{ {oracle} }} {op} {{ {extra} }}"
        if kind == "values":
            names |= {n[1:] for n in extra.split(")")[0].split() if n.startswith("?")}
    elif kind == "subquery":
        inner_ours, inner_oracle, inner = draw(groups())
        chosen = draw(st.lists(st.sampled_from(sorted(inner) + ["w"]), min_size=1, max_size=3,
                               unique=True))
        head = " ".join(f"?{n}" for n in chosen)
        ours = f"{{ {ours} }} {{ SELECT {head} WHERE {{ {inner_ours} }} }}"
        oracle = f"{{ {oracle} }} {{ SELECT {head} WHERE {{ {inner_oracle} }} }}"
        names |= set(chosen)
    after, head = "", "*"
    if kind == "values-after" and names:
        # SELECT * takes the trailing VALUES' variables too (18.2.4.3 joins them before the
        # projection); rdflib's does not, so name the pattern's variables instead
        after, head = draw(values_blocks()), " ".join(f"?{n}" for n in sorted(names))
    if draw(st.integers(0, 5)) == 0:
        return (f"{PREFIX}ASK {{ {ours} }} {after}", f"{PREFIX}ASK {{ {oracle} }} {after}")
    return (f"{PREFIX}SELECT {head} WHERE {{ {ours} }} {after}",
            f"{PREFIX}SELECT {head} WHERE {{ {oracle} }} {after}")
