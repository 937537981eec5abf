"""Chained questions: "what storage does the service that payments-api depends on use?",
"where does the person who owns billing-service work?". A relative clause names a known
entity (the seed) and a relation; the entity across that relation (the bridge) is what
the question asks about, so the memories stating the bridge's other relations answer
it, and the memory stating the link supports them. Pure over a KnowledgeGraph."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_memory.graph.expand import holds, spans
from hermes_memory.graph.knowledge_graph import KnowledgeGraph, Step
from hermes_memory.text.extract import relations_named

# "the <noun> that|which|who <clause>", up to the end of the clause.
_CLAUSE = re.compile(
    r"\b(?:the|a|an|which|what)\s+(?:[\w-]+\s+){0,2}?(?:that|which|who|whom)\s+"
    r"(?P<clause>[^?.!;,]+)",
    re.I,
)
# A question chains through few bridges; a hub seed must not fan out into all of them.
MAX_BRIDGES = 3


@dataclass(frozen=True)
class Hop:
    """A memory a chain reached: the fact or turn stating ``step``, and the path
    through the graph that makes it relevant ("payments-api -depends_on->
    ledger-service -uses-> CockroachDB")."""

    evidence: str
    path: str
    answer: bool  # False for the link between the seed and the bridge


def chains(graph: KnowledgeGraph, query: str, *, at: float | None = None) -> list[Hop]:
    """The memories that answer ``query``'s chained clauses, answers before links."""
    names: dict[str, str] = {}  # filled on the first clause: most queries have none
    answers: list[Hop] = []
    links: list[Hop] = []
    for clause in (m.group("clause") for m in _CLAUSE.finditer(query)):
        named = relations_named(clause)
        if not named:
            continue
        names = names or graph.names()
        for seed, start, end in _seeds(graph, clause):
            if start < named[0][1]:  # "that payments-api depends on": the seed acts
                after = [(rel, where) for rel, where, _ in named if where > start]
                if not after or not _adjacent(clause[end : after[0][1]]):
                    continue
                rel, outward = after[0][0], True
            else:  # "who owns billing-service": the seed is acted on
                rel, outward = named[0][0], False
                if not _adjacent(clause[named[0][2] : start]):
                    continue
            bridges = [
                (other, step)
                for other, step in graph.steps(seed, relation_filter=[rel], include_invalid=True)
                if (step.source == seed) == outward and holds(step, at)
            ][:MAX_BRIDGES]
            for bridge, link in bridges:
                path = _edge(names, link, seed)
                if link.evidence:
                    links.append(Hop(link.evidence, path, answer=False))
                for other, step in graph.steps(bridge, include_invalid=True):
                    if other == seed or not step.evidence or not holds(step, at):
                        continue
                    answers.append(Hop(step.evidence, _join(path, names, bridge, step), True))
    return answers + links


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
