"""Questions the graph answers by following relations. Chained ones: "what storage
does the service that payments-api depends on use?", "where does the person who owns
billing-service work?", "the service payments-api depends on" (no pronoun), "where
does Priya's manager work?" (a possessed role): a clause names a known entity (the
seed) and a relation; the entity across that relation (the bridge) is what it asks about,
so the memories stating the bridge's other relations answer it, and the memory stating
the link supports them. Direct ones: "where do I live?", "who does Priya work for?",
"who is my manager?": one relation of one entity (the user's own for "I" and "my"),
answered by the memories stating it. Pure over a KnowledgeGraph."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from hermes_memory.graph.expand import holds, spans
from hermes_memory.graph.knowledge_graph import KnowledgeGraph, Step
from hermes_memory.text.extract import SELF, relations_named
from hermes_memory.text.triggers import BOSS

# A clause is read to its end or this far; a long query's first and last few clauses
# are read (its opening and its question): each reads the clause's verbs and names, and
# a 20,000-character query of "the the ..." read every one to its end in 17 s.
CLAUSE_CHARS = 200
MAX_CLAUSES = 6
# "the <noun> that|which|who <clause>", up to the end of the clause.
_CLAUSE = re.compile(
    r"\b(?:the|a|an|which|what)\s+(?:[\w-]+\s+){0,2}?(?:that|which|who|whom)\s+"
    rf"(?P<clause>[^?.!;,]{{1,{CLAUSE_CHARS}}})",
    re.I,
)
# "the <noun> <seed> <verb>": a relative clause without its pronoun ("the service
# payments-api depends on", "the team Alice leads"). The lookahead lets every "the" open
# one; which of them is such a clause is decided in ``_contact``.
_CONTACT = re.compile(rf"\b[Tt]he\s+(?=(?P<clause>[^?.!;,]{{1,{CLAUSE_CHARS}}}))")
_OPENING = re.compile(r"(?:[a-z][\w-]*\s+){1,2}")  # the noun the clause qualifies
_NEXT_WORD = re.compile(r"\s*([\w'-]+)")
# "where does Priya's manager work?", "what does my boss work on?": the possessed role
# is the subject of the question's own verb; "who is Priya's manager?" asks no further.
_POSSESSIVE = re.compile(
    rf"\b(?:do|does|did|is|was|has)\s+(?:(?P<who>[\w-]+(?:\s+[\w-]+)?)['’]s|my|our)\s+"
    rf"(?:new\s+|current\s+)?{BOSS}\s+(?=(?-i:[a-z]))",
    re.I,
)
_NOT_NOUNS = frozenset("the a an our my their its this that which who whom".split())
# A question chains through few bridges; a hub seed must not fan out into all of them.
MAX_BRIDGES = 3
_WHO = r"(?P<who>(?:[\w'-]+\s+){0,2}?[\w'-]+)"  # one to three words: a name, "I"
# Direct questions about the relations a person holds one at a time: where they live,
# where they work, whom they report to. ``who`` is the entity asked about ("I": the
# user). Moving *from* somewhere says where one lived, not where one lives.
_ASKED = [
    (
        re.compile(
            rf"\bwhere\s+(?:do|does|did|is|was)\s+{_WHO}\s+(?:live|living|stay"
            r"|staying|reside|residing|based|(?:move|moved|relocate|relocated)\s+to)\b",
            re.I,
        ),
        "lives_in",
    ),
    (
        re.compile(
            r"\b(?:where|who|(?:which|what)\s+(?:company|employer|firm|organi[sz]ation"
            r"|university|school|college))\s+"
            rf"(?:do|does|did|is|was|am)\s+{_WHO}\s+(?:work|working|employed|study|studying"
            r"|attend|attending)\b"
            r"(?!\s+(?:with|on|out|through|together)\b)",
            re.I,
        ),
        "works_at",
    ),
    (
        re.compile(rf"\bwho\s+(?:do|does|did)\s+{_WHO}\s+report\b", re.I),
        "reports_to",
    ),
    (
        re.compile(
            rf"\bwho\s+(?:is|was|'s)\s+{_WHO}(?:'s|\s)\s*"
            r"(?:manager|boss|supervisor|line manager)\b",
            re.I,
        ),
        "reports_to",
    ),
]
# What stands for the user in a question they ask.
_FIRST_PERSON = frozenset({"i", "me", "my", "we", "our"})
# "Where did I say I live?": the person asked about is the one after the reporting verb.
_REPORTED = re.compile(r"(?:i|we)\s+(?:say|said|tell you|told you|mention|mentioned)\s+", re.I)


@dataclass(frozen=True)
class Hop:
    """A memory a chain reached: the fact or turn stating ``step``, and the path
    through the graph that makes it relevant ("payments-api -depends_on->
    ledger-service -uses-> CockroachDB")."""

    evidence: str
    path: str
    answer: bool  # False for the link between the seed and the bridge
    # An answer whose relation the question's own verb names ("where does Priya's
    # manager *work*?": works_at); when one does, the others are the rest.
    named: bool = False


def chains(graph: KnowledgeGraph, query: str, *, at: float | None = None) -> list[Hop]:
    """The memories that answer ``query``'s chained clauses, answers before links."""
    names: dict[str, str] = {}  # filled on the first clause: most queries have none
    answers: list[Hop] = []
    links: list[Hop] = []
    asks = _asks(query)
    clauses = [(m.group("clause"), False) for m in _ends(_CLAUSE.finditer(query))]
    clauses += [(m.group("clause"), True) for m in _ends(_CONTACT.finditer(query))]
    for clause, contact in clauses:
        named = relations_named(clause)
        if not named:
            continue
        names = names or graph.names()
        for seed, start, end in _seeds(graph, clause):
            if contact:
                found = _contact(graph, clause, named, start, end)
                if found is None:
                    continue
                (rel, after), outward = found, True
            elif start < named[0][1]:  # "that payments-api depends on": the seed acts
                after_rel = [(rel, where) for rel, where, _ in named if where > start]
                if not after_rel or not _adjacent(clause[end : after_rel[0][1]]):
                    continue
                rel, outward, after = after_rel[0][0], True, ""
            else:  # "who owns billing-service": the seed is acted on
                rel, outward, after = named[0][0], False, ""
                if not _adjacent(clause[named[0][2] : start]):
                    continue
            _through(graph, names, seed, rel, outward, at, answers, links, after, asks)
    for m in _ends(_POSSESSIVE.finditer(query)):
        who = m.group("who")
        for seed in graph.find([SELF if who is None else who]):
            names = names or graph.names()
            _through(graph, names, seed, "reports_to", True, at, answers, links, "", asks)
    return list(dict.fromkeys(answers + links))  # a clause asked twice, read once


# The bare verbs a question asks with, and the relation each names ("where does X
# work?"); the relations table reads statements ("works at"), not questions.
_ASKS = {
    "work": "works_at", "works": "works_at", "working": "works_at", "employed": "works_at",
    # a student's place of study is read as their workplace ("a PhD student at TU Delft")
    "study": "works_at", "studying": "works_at", "employer": "works_at",
    "live": "lives_in", "lives": "lives_in", "living": "lives_in", "based": "lives_in",
    "use": "uses", "uses": "uses", "using": "uses", "store": "uses", "stores": "uses",
    "keep": "uses", "run": "uses", "runs": "uses", "written": "uses", "built": "uses",
    "depend": "depends_on", "depends": "depends_on", "call": "depends_on",
    "calls": "depends_on", "own": "owns", "owns": "owns", "maintain": "owns",
    "report": "reports_to", "reports": "reports_to", "manage": "manages",
    "manages": "manages", "lead": "manages", "leads": "manages",
}  # fmt: skip
_ASK_WORD = re.compile(r"[a-z]+")


def _asks(query: str) -> frozenset[str]:
    """The relations the question's verbs name, from its closing 400 characters."""
    tail = query[-400:].lower()
    return frozenset(_ASKS[w] for w in _ASK_WORD.findall(tail) if w in _ASKS)


def _ends(found: Iterator[re.Match[str]]) -> list[re.Match[str]]:
    """The first and last :data:`MAX_CLAUSES` of ``found``."""
    matches = list(found)
    if len(matches) <= 2 * MAX_CLAUSES:
        return matches
    return matches[:MAX_CLAUSES] + matches[-MAX_CLAUSES:]


def _through(
    graph: KnowledgeGraph,
    names: dict[str, str],
    seed: str,
    rel: str,
    outward: bool,
    at: float | None,
    answers: list[Hop],
    links: list[Hop],
    after: str,
    asks: frozenset[str],
) -> None:
    """The hops from ``seed`` across ``rel`` (in its direction) to each bridge, and on
    across every other relation of the bridge, added to ``answers`` and ``links``."""
    bridges = [
        (other, step)
        for other, step in graph.steps(seed, relation_filter=[rel], include_invalid=True)
        if (step.source == seed) == outward and holds(step, at)
    ][:MAX_BRIDGES]
    wanted = asks - {rel}  # the question's verb for the link itself names no answer
    if "uses" in wanted:
        wanted |= {"migrated_to"}  # what a thing moved onto is what it uses now
    for bridge, link in bridges:
        if after and _names_object(after, names[bridge]):
            continue  # "does the new payments-api depend on ledger?" names it
        path = _edge(names, link, seed)
        if link.evidence:
            links.append(Hop(link.evidence, path, answer=False))
        for other, step in graph.steps(bridge, include_invalid=True):
            if other == seed or not step.evidence or not holds(step, at):
                continue
            said = _join(path, names, bridge, step)
            answers.append(Hop(step.evidence, said, True, step.relation in wanted))


def asked(graph: KnowledgeGraph, query: str, *, at: float | None = None) -> list[Hop]:
    """The memories that answer a direct question about one relation of one entity
    ("where do I live?"): those stating that relation of it as it holds at ``at``."""
    out: list[Hop] = []
    names: dict[str, str] = {}  # read once a question asks: most do not
    for pattern, rel in _ASKED:
        for m in _ends(pattern.finditer(query)):
            who = _REPORTED.sub("", m.group("who").strip())
            name = SELF if who.casefold() in _FIRST_PERSON else who.removesuffix("'s")
            for seed in graph.find([name]):
                names = names or graph.names()
                for _, step in graph.steps(seed, relation_filter=[rel], include_invalid=True):
                    if step.source == seed and step.evidence and holds(step, at):
                        path = _edge(names, step, seed)
                        out.append(Hop(step.evidence, path, answer=True, named=True))
    return list(dict.fromkeys(out))


def _contact(
    graph: KnowledgeGraph, clause: str, named: list[tuple[str, int, int]], start: int, end: int
) -> tuple[str, str] | None:
    """The relation of a clause that is "<noun> <seed> <verb>" with the verb's object
    left open ("service payments-api depends on [use]"), and what follows the verb;
    None when the clause is not one ("new payments-api depends on the ledger")."""
    opening = _OPENING.fullmatch(clause[:start])
    if opening is None or any(w in _NOT_NOUNS for w in opening.group().split()):
        return None
    after = [(rel, where, stop) for rel, where, stop in named if where >= end]
    if not after or not _adjacent(clause[end : after[0][1]]):
        return None
    rest = clause[after[0][2] :]
    nxt = _NEXT_WORD.match(rest)
    if nxt is not None and (nxt.group(1).lower() in _GLUE or graph.find([nxt.group(1)])):
        return None  # the object is there: "depends on the ledger-service"
    return after[0][0], rest


def _names_object(after: str, bridge: str) -> bool:
    """Whether the words after a contact clause's verb begin with a word of the
    bridge's name ("depend on ledger ..." for ledger-service)."""
    nxt = _NEXT_WORD.match(after)
    return nxt is not None and nxt.group(1).casefold() in re.split(r"[\s_-]+", bridge.casefold())


def _seeds(graph: KnowledgeGraph, clause: str) -> list[tuple[str, int, int]]:
    """The known entities a clause names, each with where its name starts and ends."""
    out: dict[str, tuple[int, int]] = {}
    for start, span in spans(clause):
        for uuid in graph.find([span]):
            out.setdefault(uuid, (start, start + len(span)))
    return [(uuid, start, end) for uuid, (start, end) in out.items()]


# The seed must be the verb's own subject or object: next to it, an article or a
# particle apart at most ("that the payments-api depends on", "who owns the
# billing-service"); "an app that needs to ... without a backend" relates no backend.
_GLUE = frozenset("the a an our my their its this that".split())


def _adjacent(between: str) -> bool:
    words = [w for w in re.findall(r"[\w'-]+", between.lower()) if w not in _GLUE]
    return not words


def _edge(names: dict[str, str], step: Step, seed: str) -> str:
    """The link read from the seed: "payments-api -depends_on-> ledger-service", or
    "billing-service <-owns- Alice"."""
    if step.source == seed:
        return f"{names[step.source]} -{step.relation}-> {names[step.target]}"
    return f"{names[step.target]} <-{step.relation}- {names[step.source]}"


def _join(path: str, names: dict[str, str], bridge: str, step: Step) -> str:
    """The link's path continued by ``step`` from the bridge (in its stated direction)."""
    if step.source == bridge:
        return f"{path} -{step.relation}-> {names[step.target]}"
    return f"{path} <-{step.relation}- {names[step.source]}"
