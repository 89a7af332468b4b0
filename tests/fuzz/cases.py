"""One fuzzed case end to end: the tool's report against the oracle, and what a mismatch says.

:func:`differences` is the whole differential check of one case; the tests call it on
generated cases (:mod:`tests.fuzz.test_fuzz`), on pinned ones (:mod:`tests.fuzz.test_pinned`)
and with a deliberately wrong oracle (:mod:`tests.fuzz.test_oracle_catches`).

Routes — which text the tool is given for the abstract query:

* ``hand``: the CQELS query, with ``--csparql`` the C-SPARQL query (oracles (a), (b));
* ``derived``: the C-SPARQL query alone, the CQELS side derived by ``lars agree`` (oracle (c):
  its answers must be those of the hand-written CQELS query);
* ``rspql``: the RSP-QL query (read through τ2 like CQELS), with ``--csparql``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tests.fuzz import drive, model, oracle
from tests.fuzz.model import Bind, Block, Filter, Optional_, Query, Static, Union_
from tests.fuzz.oracle import Item, Triple

ROUTES = ("hand", "derived", "rspql")


@dataclass(frozen=True)
class Case:
    """A query, the route it is given by, a stream, static data and the pulling period; the
    timeline runs to the end of the pulling interval holding the last input, and ``tail``
    intervals more (evaluations after the last input)."""

    query: Query
    route: str
    items: tuple[Item, ...]
    static: tuple[Triple, ...]
    period: int
    tail: int = 0
    end: int = field(init=False)

    def __post_init__(self) -> None:
        last = max((i.time for i in self.items), default=0)
        object.__setattr__(self, "end", (-(-max(last, 1) // self.period) + self.tail) * self.period)

    def text(self) -> str:
        """The query text the tool is given."""
        return {"hand": model.cqels, "derived": model.csparql, "rspql": model.rspql}[self.route](self.query)

    def describe(self) -> str:
        """The case as a reader reproduces it: query, stream lines, static triples."""
        lines = [f"route {self.route}, period {self.period}, timeline [0,{self.end}]", self.text()]
        lines += [f"  {i.time} s{i.stream + 1}: " + " ".join(t.n3() for t in i.triple) for i in self.items]
        lines += ["  static: " + " ".join(t.n3() for t in triple) for triple in self.static]
        return "\n".join(lines)


def features(query: Query) -> frozenset[str]:
    """The feature families a query uses (for counting refusals per family)."""
    found = {"two-streams"} if len(query.windows) > 1 else set()
    found |= {"distinct"} if query.distinct else set()
    found |= {"aggregate"} if any(s.startswith("(") for s in query.select) else set()
    found |= {"having"} if query.having else set()
    found |= {"tuple-window"} if any(w.triples is not None for w in query.windows) else set()
    found |= {"ungrouped"} if oracle.invalid(query) else set()

    def walk(elements) -> None:
        for e in elements:
            kind = {Block: "block-filter" if isinstance(e, Block) and e.filter else None,
                    Static: "static", Optional_: "optional", Union_: "union", Filter: "filter",
                    Bind: "bind"}[type(e)]
            if kind:
                found.add(kind)
            if isinstance(e, Optional_):
                walk(e.group)
            elif isinstance(e, Union_):
                walk(e.left)
                walk(e.right)
    walk(query.where)
    return frozenset(found)


def _nonempty(answers: oracle.Answers) -> oracle.Answers:
    return {t: rows for t, rows in answers.items() if rows}


def expected(case: Case, shift: int = 0) -> tuple[oracle.Answers, oracle.Answers, list[oracle.Verdict]]:
    """The oracle's pull answers, push answers and verdicts (``shift``: a wrong oracle)."""
    pull = oracle.paper_pull(case.query, case.items, case.static, case.period, case.end, shift)
    push = oracle.paper_push(case.query, case.items, case.static, case.end, shift)
    return pull, push, oracle.verdicts(pull, push, case.period, case.end)


def differences(case: Case, shift: int = 0) -> list[str] | drive.Refused:
    """What the tool's report gets wrong against the oracle (empty: nothing), or its refusal."""
    names = oracle.variables(case.query)
    csparql = None if case.route == "derived" else model.csparql(case.query)
    got = drive.agree(case.text(), case.items, case.query.streams, case.static, case.period,
                      case.end, names, csparql)
    if isinstance(got, drive.Refused):
        return got
    rejected = oracle.invalid(case.query)
    if rejected:
        return [f"the tool answers a query SPARQL 1.1 rejects ({rejected})"]
    pull, push, verdicts = expected(case, shift)
    found = []
    if got.csparql != _nonempty(pull):
        found.append(f"(a) C-SPARQL answers {got.csparql} != oracle {_nonempty(pull)}")
    if got.cqels != _nonempty(push):
        label = "(c) derived CQELS" if case.route == "derived" else "(a) CQELS"
        found.append(f"{label} answers {got.cqels} != oracle {_nonempty(push)}")
    ours = [(i.start, i.end, i.agree, i.only_cqels, i.only_csparql) for i in got.intervals]
    theirs = [(v.start, v.end, v.agree, v.only_push, v.only_pull) for v in verdicts]
    if ours != theirs:
        found.append(f"(b) intervals {ours} != oracle {theirs}")
    if got.agree != all(v.agree for v in verdicts):
        found.append(f"(b) verdict {got.agree} != oracle {all(v.agree for v in verdicts)}")
    if case.route != "derived" and any("do not describe the same abstract query" in n for n in got.notes):
        found.append("the tool warns that the C-SPARQL and CQELS spellings differ")
    return found


def known_defect(case: Case) -> str | None:
    """The reason a case meets a defect already pinned as a strict xfail in
    :mod:`tests.fuzz.test_pinned` (so the fuzzer stays green until it is fixed), else ``None``.
    Remove a line here when its pinned test starts passing."""
    return None


def summary(counts: dict[str, int], families: dict[str, Sequence[int]]) -> str:
    """A one-paragraph account of a fuzz run: outcomes, and refusals per feature family."""
    parts = [f"{k}: {v}" for k, v in sorted(counts.items())]
    parts += [f"{f}: {r}/{n} refused" for f, (n, r) in sorted(families.items())]
    return "; ".join(parts)
