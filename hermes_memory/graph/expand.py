"""Bounded neighbourhood expansion: how strongly each entity near the query's
entities is connected to them. Pure over a KnowledgeGraph (no SQL, no clock)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from hermes_memory.graph.knowledge_graph import KnowledgeGraph, Step, hub_damping
from hermes_memory.text.extract import extract

_WORD = re.compile(r"[A-Za-z0-9][\w.+#-]*[\w+#]|[A-Za-z0-9]")
_QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how did does do is are was were the a an "
    "we i you our my me us it they he she his her their of to in on for with about".split()
)


@dataclass
class Reach:
    weight: float  # 1.0 for a seed, falling with every hop
    hops: int
    # facts/turns stating the path's edges, each weighted by the edge's near end: an
    # edge is about the entity it leaves, one hop closer to the query than its far end
    evidence: dict[str, float] = field(default_factory=dict)


def query_entities(graph: KnowledgeGraph, query: str) -> list[str]:
    """Known entities the query names (:func:`query_names` that are a known name or
    alias)."""
    return graph.find(query_names(query))


def query_names(query: str) -> list[str]:
    """What in the query may name an entity: extracted names plus any 1-3 word span
    (catches lowercase names like "billing")."""
    return [*extract(query).entities, *(span for _, span in spans(query))]


def spans(text: str) -> list[tuple[int, str]]:
    """Every run of 1-3 words that could be a name, longest first, with where it starts
    (single question words and words under three letters cannot)."""
    words = [(m.start(), m.group()) for m in _WORD.finditer(text)]
    out = []
    for n in (3, 2, 1):
        for i in range(len(words) - n + 1):
            span = words[i : i + n]
            if n == 1 and (span[0][1].casefold() in _QUESTION_WORDS or len(span[0][1]) < 3):
                continue
            out.append((span[0][0], " ".join(w for _, w in span)))
    return out


def expand(
    graph: KnowledgeGraph,
    seeds: Iterable[str],
    *,
    depth: int,
    hop_decay: float,
    at: float | None = None,
    min_weight: float = 0.0,
) -> dict[str, Reach]:
    """Entities within ``depth`` hops of the seeds over relations valid now (or at
    ``at``), each with its best path weight: every hop multiplies by ``hop_decay``,
    by the relation's strength (0.5 + 0.5 * strength) and by the hub damping of the
    node it leaves, so a person in every conversation does not pull in everything.
    The memory stating an edge weighs as the edge's near end times the edge's own
    factor (strength and damping), without the hop decay that its far end pays.
    Edges lighter than ``min_weight`` are not walked: weights only fall along a path,
    so nothing beyond them could weigh more (this keeps hubs from costing time)."""
    reach = {s: Reach(1.0, 0) for s in seeds if s in graph.g}
    frontier = list(reach)
    for hops in range(1, depth + 1):
        nxt: list[str] = []
        for here in frontier:
            base = reach[here]
            damp = hub_damping(graph.g.degree(here))
            if base.weight * damp < min_weight:
                continue  # even a full-strength edge from here would be too light
            for other, step in graph.steps(here, include_invalid=at is not None):
                if not holds(step, at):
                    continue
                edge = base.weight * (0.5 + 0.5 * step.strength) * damp
                if edge < min_weight:
                    continue
                w = edge * hop_decay
                known = reach.get(other)
                if known is None or w > known.weight + 1e-12:
                    evidence = dict(base.evidence)
                    if step.evidence and evidence.get(step.evidence, 0.0) < edge:
                        evidence[step.evidence] = edge
                    reach[other] = Reach(w, hops, evidence)
                    if known is None:
                        nxt.append(other)
        frontier = nxt
    return reach


def holds(step: Step, at: float | None) -> bool:
    """Whether a relation holds now (``at`` None: not ended) or as it stood at ``at``:
    begun by then and not yet ended."""
    if at is None:
        return step.valid
    started = step.valid_at is None or step.valid_at <= at
    return started and (step.invalid_at is None or step.invalid_at > at)
