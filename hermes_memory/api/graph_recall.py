"""The candidates the graph brings to a recall: the memories stating the relations
walked from the entities a query names, and the answers to a chained question."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_memory.api import scoring
from hermes_memory.api.candidates import Candidate, load_candidates, visible
from hermes_memory.graph.chain import Hop, asked, chains
from hermes_memory.graph.expand import expand, query_entities
from hermes_memory.text.bounds import ends

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

# The graph walk stops at links lighter than this share of what a memory new to the
# candidates needs to clear the similarity floor: lighter links can still lift a memory
# the query already matches, but bring in nothing new; without
# the cut, hubs cost ~20 ms a recall at 10k memories (docs/benchmarks.md).
WALK_FLOOR_SHARE = 0.25
# A long query (a pasted document asked about) is read for names by its opening and
# close: reading all 20,000 characters' word spans took ~17 ms of a recall.
QUERY_NAME_CHARS = 4_000


def from_graph(
    api: MemoryAPI,
    query: str,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    per_tier: int,
    scope: str | None,
    as_of: float | None,
    alone: bool = False,
) -> dict[str, float]:
    """Memories about the entities the query names and their neighbours (up to
    ``recall.graph_depth`` hops), scored by path weight; returns the score the graph
    gave each memory it reached. This is what answers multi-hop questions. Beside
    other tiers they rank below the direct matches; asked ``alone``, by path weight."""
    from hermes_memory.api import graph_ops  # the api facade imports this module

    cfg = api.config.recall
    graph = graph_ops.ready(api)
    seeds = query_entities(graph, ends(query, QUERY_NAME_CHARS))
    if not seeds:
        return {}
    anchor = 1.0 if alone else max([*fused.values(), 0.5]) * cfg.graph_weight
    lightest = WALK_FLOOR_SHARE * cfg.min_similarity / anchor if anchor > 0 else float("inf")
    reach = expand(
        graph,
        seeds,
        depth=cfg.graph_depth,
        hop_decay=cfg.graph_hop_decay,
        at=as_of,
        min_weight=lightest,
    )
    # The memories stating the walked relations join the candidates: they are the
    # links of a multi-hop answer, and need not share a word with the question.
    stating: dict[str, float] = {}
    for r in reach.values():
        for ref, w in r.evidence.items():
            stating[ref] = max(stating.get(ref, 0.0), w)
    admitted = sorted(stating.items(), key=lambda kv: -kv[1])[: per_tier * 2]
    found = load_candidates(api, [k for k, _ in admitted if k not in pool])
    raised: dict[str, float] = {}
    for key, w in admitted:
        cand = pool.get(key) or found.get(key)
        if cand is None:
            continue  # not visible to this owner any more
        if key not in pool:
            if not visible(cand, scope, as_of):
                continue
            pool[key] = cand
            fused[key] = 0.0
        fused[key] = max(fused[key], anchor * w)
        cand.extra.append("graph")
        raised[key] = anchor * w
    return raised


def from_chains(
    api: MemoryAPI,
    query: str,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    query_vector: Any,
    scope: str | None,
    as_of: float | None,
) -> dict[str, float]:
    """A chained question ("the service that payments-api depends on") is answered by
    what is stated about the entity its clause leads to, a direct one ("where do I
    live?") by what is stated of the relation it names (graph/chain.py): those
    memories rank by their own similarity, the closest above the best direct match,
    and the memory stating a chain's link right below the close ones; each carries its
    path."""
    from hermes_memory.api import graph_ops  # the api facade imports this module

    boost = api.config.recall.chain_boost
    hops: list[Hop] = []
    if boost > 0:
        graph = graph_ops.ready(api)
        hops = chains(graph, query, at=as_of) + asked(graph, query, at=as_of)
    if not hops:
        return {}
    found = load_candidates(api, [h.evidence for h in hops if h.evidence not in pool])
    for key, cand in found.items():
        if visible(cand, scope, as_of):
            pool[key] = cand
            fused[key] = 0.0
    new = [k.split(":", 1)[1] for k in found if k in pool]
    if new and query_vector is not None and api.semantic is not None:
        for uuid, sim in api.semantic.store.similarities(query_vector, new).items():
            for key in (f"fact:{uuid}", f"episode:{uuid}"):
                if key in pool:
                    pool[key].semantic = max(pool[key].semantic, sim)
                    alone = scoring.fuse_similarity(0.0, sim, has_lexical=False, has_semantic=True)
                    fused[key] = max(fused[key], alone)
    top = max([*fused.values(), 0.5])
    # When the question's verb names a relation ("where does Priya's manager work?"),
    # the answers stating it are the answers, and the rest of the bridge's relations
    # are the rest.
    named = any(h.named for h in hops)
    answers = [h for h in hops if h.answer and (h.named or not named)]
    best = max([fused[h.evidence] for h in answers if h.evidence in pool] or [0.0])
    raised: dict[str, float] = {}
    for hop in sorted(hops, key=lambda h: not h.named):  # a named hop to a memory first
        if hop.evidence not in pool or hop.evidence in raised:
            continue
        # The answer closest to the question leads, and answers about as close; the
        # rest of what is stated about the bridge falls below the link.
        share = fused[hop.evidence] / best if best > 0 else 1.0
        if named and not hop.named:
            share = 0.0
        lift = top * (1 + boost) * (0.5 + 0.5 * share) if hop.answer else top
        fused[hop.evidence] = max(fused[hop.evidence], lift)
        raised[hop.evidence] = fused[hop.evidence]
        cand = pool[hop.evidence]
        cand.extra.append("graph")
        cand.provenance.setdefault("graph_path", hop.path)
    return raised
