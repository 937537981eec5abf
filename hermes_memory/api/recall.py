"""Cross-tier recall: gather candidates from every tier, fuse, score, explain."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hermes_memory import guard
from hermes_memory.api import scoring
from hermes_memory.clock import to_iso
from hermes_memory.errors import CuratedFileError
from hermes_memory.graph.expand import expand, query_entities
from hermes_memory.graph.temporal import query_window
from hermes_memory.tier2.fts import query_terms, word_set, words_present

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI
    from hermes_memory.tier3.snapshot import VectorHit

# The graph walk stops at links lighter than this share of what a memory new to the
# candidates needs to clear the similarity floor: lighter links can still lift a memory
# the query already matches, but bring in nothing new; without
# the cut, hubs cost ~20 ms a recall at 10k memories (docs/benchmarks.md).
WALK_FLOOR_SHARE = 0.25
TIERS = ("tier1", "tier2", "tier3", "graph")
LOW_CONFIDENCE = 0.35
# Memories of the period a query names that are compared with it by cosine (newest
# first); bounded so a query about a busy year stays a few milliseconds.
WINDOW_ROWS = 2000
_TRAILING_NOTE = re.compile(r"\s*\[[^\]]*\]\s*$")  # "[shares an image: ...]" and the like


@dataclass
class Candidate:
    key: str
    content: str
    tier: str
    kind: str
    created_at: float
    importance: float
    scope: str = "/"
    lexical_raw: float = 0.0  # FTS5 bm25 (negative is better)
    lexical_fixed: float | None = None  # already in [0, 1] (curated word overlap)
    semantic: float = 0.0
    extra: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    valid_at: float | None = None  # when it became true (facts)
    invalid_at: float | None = None  # when a later fact superseded it
    superseded_by: str | None = None
    speaker: str | None = None  # turns: who said it


def recall(
    api: MemoryAPI,
    query: str,
    tiers: tuple[str, ...],
    per_tier: int,
    limit: int,
    now: float,
    *,
    scope: str | None = None,
    as_of: float | None = None,
    embed_wait: float | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Ranked results for one query; ``scope`` keeps only that subtree, before ranking;
    ``as_of`` answers from what was recorded and valid at that time; ``embed_wait``
    bounds the wait for the query embedding (a model still loading: lexical only)."""
    pool: dict[str, Candidate] = {}
    degraded: list[str] = []
    timings: dict[str, float] = {}
    stage = _stopwatch(timings)
    semantic = None
    if api.semantic is not None and ("tier3" in tiers or "tier1" in tiers):
        # One query embedding serves tier 3 and the curated entries. It and the vector
        # search run on a worker while SQLite answers the lexical search (all three
        # release the GIL), so tier 3 costs what it takes beyond tier 2.
        semantic = _embedding_worker().submit(
            _embed_and_search, api, query, per_tier if "tier3" in tiers else 0, embed_wait
        )
    if "tier2" in tiers:
        with stage("tier2"):
            _from_tier2(api, query, per_tier, pool, scope)
    query_vector = None
    sem = api.semantic
    if "tier3" in tiers and sem is None:
        degraded.append("tier3: disabled")
    elif semantic is not None and sem is not None:
        try:
            with stage("embed"):  # what is left of the worker's time once tier 2 is done
                found = semantic.result(timeout=embed_wait)
            query_vector = found.vector
            if "tier3" in tiers and found.hits is None:
                degraded.append(f"tier3: {found.error}")
            elif "tier3" in tiers and found.hits is not None:  # (narrows the type)
                timings["tier3"] = found.search_ms
                with stage("tier3"):
                    _from_tier3(api, query_vector, found.hits, pool)
                if sem.status().get("status") == "needs_repair":
                    degraded.append("tier3: index incomplete (doctor --repair rebuilds it)")
        except TimeoutError:
            degraded.append("tier3: embedding model not ready yet")
        except Exception as exc:  # the derived tier failing must not fail recall
            if "tier3" in tiers:
                degraded.append(f"tier3: {exc}")
    window = query_window(query, now if as_of is None else as_of)
    if window is not None and query_vector is not None and "tier2" in tiers:
        with stage("time"):
            _from_window(api, window, query_vector, per_tier, pool)
    if "tier1" in tiers:
        with stage("tier1"):
            degraded.extend(_from_tier1(api, query, query_vector, pool))
    if scope is not None:
        pool = {k: c for k, c in pool.items() if in_scope(c.scope, scope)}
    if as_of is not None:
        pool = {k: c for k, c in pool.items() if _known_at(c, as_of)}
    _add_successors(api, pool, as_of)
    lexical = scoring.normalise_bm25({k: c.lexical_raw for k, c in pool.items()})
    cfg = api.config.recall
    for key, cand in pool.items():
        if cand.lexical_fixed is not None:
            lexical[key] = cand.lexical_fixed
    has_lexical = any(v > 0 for v in lexical.values())
    has_semantic = any(c.semantic > 0 for c in pool.values())
    fused = {
        key: scoring.fuse_similarity(
            lexical[key], cand.semantic, has_lexical=has_lexical, has_semantic=has_semantic
        )
        for key, cand in pool.items()
    }
    if "graph" in tiers and cfg.graph_depth > 0 and api.config.graph.enabled:
        try:
            with stage("graph"):
                _from_graph(api, query, pool, fused, per_tier, scope, as_of)
        except Exception as exc:  # derived tier: recall goes on without it
            degraded.append(f"graph: {exc}")
    rank_started = time.perf_counter()
    _share_context(api, pool, fused, cfg.context_weight)
    _prefer_valid(pool, fused, now if as_of is None else as_of, cfg.invalid_factor)
    _discount_questions(pool, fused, cfg.question_factor)
    _favour_named_speaker(query, pool, fused, cfg.speaker_boost)
    _favour_window(window, pool, fused, cfg.time_boost)
    # Never surface an unrelated match, nor a clearly weaker one above a stronger one,
    # on recency or importance alone (scoring.rank_in_bands).
    comps = {
        key: scoring.score(sim, pool[key].created_at, pool[key].importance, now, cfg)
        for key, sim in fused.items()
        if sim >= cfg.min_similarity
    }
    order = scoring.rank_in_bands(
        ((key, fused[key], c.score) for key, c in comps.items()),
        cfg.min_similarity,
        cfg.relative_gate,
        limit,
    )
    results = [(comps[key], pool[key], lexical.get(key, 0.0)) for key in order]
    out = [_render(comp, cand, lex) for comp, cand, lex in results]
    gaps = evidence_gaps(query, out)
    for item in out:
        item["evidence_gaps"] = gaps
    timings["rank"] = (time.perf_counter() - rank_started) * 1000
    return out, {"degraded": degraded, "candidates": len(pool), "timings_ms": timings}


def _stopwatch(timings: dict[str, float]) -> Any:
    """``with stage(name):`` adds the block's wall time (ms) to ``timings[name]``."""

    @contextmanager
    def stage(name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            timings[name] = timings.get(name, 0.0) + (time.perf_counter() - started) * 1000

    return stage


_WORKER: ThreadPoolExecutor | None = None


def _embedding_worker() -> ThreadPoolExecutor:
    global _WORKER
    if _WORKER is None:  # two: recalls from two threads (an MCP server) need not queue
        _WORKER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hermes-embed")
    return _WORKER


def _from_graph(
    api: MemoryAPI,
    query: str,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    per_tier: int,
    scope: str | None,
    as_of: float | None,
) -> set[str]:
    """Memories about the entities the query names and their neighbours (up to
    ``recall.graph_depth`` hops), scored by path weight; returns the keys the graph
    raised. This is what answers multi-hop questions."""
    from hermes_memory.api import graph_ops  # the api facade imports this module

    cfg = api.config.recall
    graph = graph_ops.ready(api)
    seeds = query_entities(graph, query)
    if not seeds:
        return set()
    anchor = max([*fused.values(), 0.5]) * cfg.graph_weight
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
    found = _load_candidates(api, [k for k, _ in admitted if k not in pool])
    raised: set[str] = set()
    for key, w in admitted:
        cand = pool.get(key) or found.get(key)
        if cand is None:
            continue  # not visible to this owner any more
        if key not in pool:
            if (scope is not None and not in_scope(cand.scope, scope)) or (
                as_of is not None and not _known_at(cand, as_of)
            ):
                continue
            pool[key] = cand
            fused[key] = 0.0
        fused[key] = max(fused[key], anchor * w)
        cand.extra.append("graph")
        raised.add(key)
    return raised


def _known_at(cand: Candidate, when: float) -> bool:
    """Recorded by ``when`` and, for facts, already true then."""
    if cand.tier == "tier1":
        return True
    started = cand.valid_at if cand.valid_at is not None else cand.created_at
    return cand.created_at <= when and started <= when


def _add_successors(api: MemoryAPI, pool: dict[str, Candidate], as_of: float | None) -> None:
    """A superseded fact brings the fact that replaced it: the answer about the old
    state is the new state (unless asked as of a time before it)."""
    wanted = {c.superseded_by for c in pool.values() if c.superseded_by}
    wanted -= {k.split(":", 1)[1] for k in pool if k.startswith("fact:")}
    for f in api.facts.get_many(api.owner, sorted(w for w in wanted if w)).values():
        cand = _fact_candidate(f)
        if as_of is None or _known_at(cand, as_of):
            pool[cand.key] = cand


def _prefer_valid(
    pool: dict[str, Candidate], fused: dict[str, float], when: float, factor: float
) -> None:
    """Superseded facts lose weight; their successors inherit their relevance."""
    for key, cand in pool.items():
        if cand.invalid_at is None or cand.invalid_at > when:
            continue
        successor = f"fact:{cand.superseded_by}"
        if successor in pool and fused[key] > fused[successor]:
            fused[successor] = fused[key]
            pool[successor].extra.append("supersedes")
        fused[key] *= factor
        cand.extra.append("superseded")


def _discount_questions(pool: dict[str, Candidate], fused: dict[str, float], factor: float) -> None:
    """A turn that ends asking something repeats the question's words without holding
    the answer: it keeps ``factor`` of its similarity (its reply has already shared
    its context, _share_context)."""
    if factor >= 1:
        return
    for key, cand in pool.items():
        if cand.speaker is not None and _asks(cand.content):
            fused[key] *= factor


def _asks(text: str) -> bool:
    return _TRAILING_NOTE.sub("", text).rstrip().endswith("?")


def _favour_named_speaker(
    query: str, pool: dict[str, Candidate], fused: dict[str, float], boost: float
) -> None:
    """A question about one person ("what has John done?") is answered by what that
    person said more often than by what was said to them: when the query names
    exactly one of the candidates' speakers, that speaker's turns gain ``boost``."""
    if boost <= 0:
        return
    words = word_set(query)
    speakers = {c.speaker for c in pool.values() if c.speaker}
    named = [s for s in speakers if (parts := word_set(s)) and words >= parts]
    if len(named) != 1:
        return
    for key, cand in pool.items():
        if cand.speaker == named[0]:
            fused[key] = min(1.0, fused[key] * (1 + boost))
            cand.extra.append("speaker")


def _from_window(
    api: MemoryAPI,
    window: tuple[float, float],
    query_vector: Any,
    per_tier: int,
    pool: dict[str, Candidate],
) -> None:
    """A question about a time ("in July 2023") also draws on what was recorded then:
    the memories of that period closest to the query by cosine join the candidates."""
    assert api.semantic is not None
    kinds = {u: "fact" for u in api.facts.between(api.owner, *window, limit=WINDOW_ROWS)}
    kinds.update(
        {u: "episode" for u in api.episodes.between(api.owner, *window, limit=WINDOW_ROWS)}
    )
    sims = api.semantic.store.similarities(query_vector, list(kinds))
    nearest = sorted(sims.items(), key=lambda kv: -kv[1])[: per_tier * 2]
    keys = (f"{kinds[u]}:{u}" for u, _ in nearest)
    pool.update(_load_candidates(api, [k for k in keys if k not in pool]))
    for uuid, sim in nearest:
        cand = pool.get(f"{kinds[uuid]}:{uuid}")
        if cand is not None:
            cand.semantic = max(cand.semantic, sim)


def _favour_window(
    window: tuple[float, float] | None,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    boost: float,
) -> None:
    """Memories of the time the query names gain ``boost`` of their similarity."""
    if window is None or boost <= 0:
        return
    for key, cand in pool.items():
        when = cand.valid_at if cand.valid_at is not None else cand.created_at
        if cand.tier != "tier1" and window[0] <= when <= window[1]:
            fused[key] = min(1.0, fused[key] * (1 + boost))
            cand.extra.append("time")


def in_scope(scope: str, prefix: str) -> bool:
    return scope == prefix or scope.startswith(prefix.rstrip("/") + "/")


def _share_context(
    api: MemoryAPI, pool: dict[str, Candidate], fused: dict[str, float], weight: float
) -> None:
    """Raise each turn toward its best-matching neighbour in the same session: the
    turns next to it share ``weight``, the ones two away half of that (an answer is
    often the reply to the matching line, or the line after that reply)."""
    by_row = {c.provenance["rowid"]: k for k, c in pool.items() if c.kind == "episode"}
    if weight <= 0 or not by_row:
        return
    near = api.episodes.neighbours(api.owner, list(by_row))
    beyond = api.episodes.neighbours(api.owner, [n for pair in near.values() for n in pair if n])
    base = dict(fused)
    for rowid, (prev, nxt) in near.items():
        key = by_row[rowid]
        reach = [(prev, weight), (nxt, weight)]
        reach += [
            (beyond.get(prev, (0, 0))[0], weight / 2),
            (beyond.get(nxt, (0, 0))[1], weight / 2),
        ]
        lifted = max(
            ((1 - w) * base[key] + w * base[by_row[n]] for n, w in reach if n in by_row),
            default=0.0,
        )
        if lifted > base[key]:
            fused[key] = lifted
            pool[key].extra.append("context")


def split_query(text: str, deep_chars: int) -> list[str]:
    """Adaptive depth: a short query is itself; a long one becomes its sentences and
    clauses (deterministic), each a targeted sub-query, plus the whole."""
    if len(text) < deep_chars:
        return [text]
    import re

    parts = [p.strip() for p in re.split(r"(?<=[.?!;])\s+|\n+", text) if len(p.strip()) > 12]
    subs = list(dict.fromkeys(parts))[:6]
    return subs + [text] if subs else [text]


def evidence_gaps(query: str, results: list[dict[str, Any]]) -> list[str]:
    """What the query asks about that nothing returned mentions, or low confidence."""
    gaps = []
    text = " ".join(r["content"] for r in results)
    missing = [t for t in query_terms(query) if len(t) > 2 and not words_present([t], text)]
    if missing:
        gaps.append("no memory mentions: " + ", ".join(missing[:8]))
    if not results:
        gaps.append("nothing relevant is stored")
    elif max(r["similarity"] for r in results) < LOW_CONFIDENCE:
        gaps.append(f"low confidence: best similarity {max(r['similarity'] for r in results):.2f}")
    return gaps


def _render(comp: scoring.Components, cand: Candidate, lexical: float) -> dict[str, Any]:
    return {
        "content": cand.content,
        "tier": cand.tier,
        "kind": cand.kind,
        "scope": cand.scope,
        "importance": round(cand.importance, 4),
        "score": comp.score,
        "similarity": comp.similarity,
        "recency": comp.recency,
        "match_reasons": scoring.match_reasons(
            comp, lexical=lexical, semantic=cand.semantic, extra=cand.extra
        ),
        "evidence_gaps": [],
        "created_at": to_iso(cand.created_at),
        **cand.provenance,
        **({"recorded_at": to_iso(cand.created_at)} if cand.kind == "fact" else {}),
        **({"valid_at": to_iso(cand.valid_at)} if cand.valid_at is not None else {}),
        **({"invalid_at": to_iso(cand.invalid_at)} if cand.invalid_at is not None else {}),
    }


def _from_tier2(
    api: MemoryAPI, query: str, per_tier: int, pool: dict[str, Candidate], scope: str | None
) -> None:
    n = per_tier * 4
    hits = api.facts.search(api.owner, query, limit=n, scope_prefix=scope, include_invalid=True)
    for hit in hits:
        f = hit.fact
        cand = _fact_candidate(f)
        cand.lexical_raw = hit.bm25
        pool[cand.key] = cand
    for ehit in api.episodes.search(api.owner, query, limit=n):
        cand = _episode_candidate(ehit.episode)
        cand.lexical_raw = ehit.bm25
        pool[cand.key] = cand


@dataclass
class _Semantic:
    """The worker's part of a recall: the query's vector and its nearest rows (None:
    not searched, ``error`` says why)."""

    vector: Any
    hits: list[VectorHit] | None = None
    search_ms: float = 0.0
    error: str = ""


def _embed_and_search(
    api: MemoryAPI, query: str, per_tier: int, embed_wait: float | None
) -> _Semantic:
    sem = api.semantic
    assert sem is not None
    found = _Semantic(sem.embed_cached([query])[0])
    if per_tier <= 0:
        return found
    if embed_wait is not None and not sem.store.is_open:
        # A bounded caller (prefetch at start-up) does not wait for LanceDB.
        found.error = "vector index still opening"
        return found
    started = time.perf_counter()
    try:
        found.hits = sem.search_vector(
            found.vector, api.owner, limit=per_tier * 4, kinds=("fact", "episode")
        )
    except Exception as exc:  # reported by the recall, which still has the vector
        found.error = str(exc)
    found.search_ms = (time.perf_counter() - started) * 1000
    return found


def _from_tier3(
    api: MemoryAPI, query_vector: Any, hits: list[VectorHit], pool: dict[str, Candidate]
) -> None:
    """Add the vector search's hits to the candidates, and give every fact and turn
    there its cosine to the query."""
    assert api.semantic is not None
    best: dict[str, float] = {}
    for h in hits:
        best[h.item_uuid] = max(best.get(h.item_uuid, -1.0), h.similarity)
    keys = (f"{h.kind}:{h.item_uuid}" for h in hits)
    pool.update(_load_candidates(api, [k for k in keys if k not in pool]))
    # What only the lexical search found gets its real cosine too, so fusion weighs
    # both signals for every candidate instead of reading "not in the top" as zero.
    unseen = [
        c.provenance["id"]
        for c in pool.values()
        if c.kind in ("fact", "episode") and c.provenance["id"] not in best
    ]
    best.update(api.semantic.store.similarities(query_vector, unseen))
    for cand in pool.values():
        if cand.kind in ("fact", "episode") and cand.provenance["id"] in best:
            cand.semantic = max(cand.semantic, best[cand.provenance["id"]])


def _load_candidates(api: MemoryAPI, keys: list[str]) -> dict[str, Candidate]:
    """The facts and turns named by ``keys`` ("fact:<uuid>", "episode:<uuid>") that
    this owner can see, as candidates; other keys are ignored."""
    wanted: dict[str, list[str]] = {"fact": [], "episode": []}
    for key in dict.fromkeys(keys):
        kind, _, uuid = key.partition(":")
        if kind in wanted:
            wanted[kind].append(uuid)
    found = {
        f"fact:{f.uuid}": _fact_candidate(f)
        for f in api.facts.get_many(api.owner, wanted["fact"]).values()
    }
    for e in api.episodes.get_many(api.owner, wanted["episode"]).values():
        found[f"episode:{e.uuid}"] = _episode_candidate(e)
    return found


def _from_tier1(
    api: MemoryAPI, query: str, query_vector: Any, pool: dict[str, Candidate]
) -> list[str]:
    """Curated entries as candidates; a file that cannot be read (edited by hand into
    invalid UTF-8, say) is reported as degraded instead of failing recall."""
    terms = query_terms(query)
    entries: list[tuple[str, str]] = []
    degraded: list[str] = []
    for store in ("memory", "user"):
        try:
            entries.extend((store, e) for e in api.curated.entries(store))
        except CuratedFileError as exc:
            degraded.append(f"tier1: {exc}")
    if not entries:
        return degraded
    sems = [0.0] * len(entries)
    if api.semantic is not None and query_vector is not None:
        try:
            vectors = api.semantic.embed_cached([e for _, e in entries])
            sems = [float(v) for v in vectors @ query_vector]
        except Exception:  # a failing embedder leaves the lexical signal
            pass
    for (store, entry), sem in zip(entries, sems, strict=True):
        overlap = words_present(terms, entry) / len(terms) if terms else 0.0
        key = f"curated:{store}:{entry[:80]}"
        pool[key] = Candidate(
            key=key,
            content=entry,
            tier="tier1",
            kind=f"curated_{store}",
            created_at=api.clock(),
            importance=0.8,
            lexical_fixed=overlap,
            semantic=sem,
            extra=["curated"],
            provenance={
                "flags": _injection_flag(entry),
                "source_type": "curated",
                "source_id": store,
                "session_id": None,
                "evidence_ids": [],
            },
        )
    return degraded


def _fact_candidate(f: Any) -> Candidate:
    return Candidate(
        valid_at=f.valid_at,
        invalid_at=f.invalid_at,
        superseded_by=f.superseded_by,
        key=f"fact:{f.uuid}",
        content=f.content,
        tier="tier2",
        kind="fact",
        created_at=f.created_at,
        importance=f.importance,
        scope=f.scope,
        provenance={
            "id": f.uuid,
            "rowid": f.rowid,
            "source_type": f.source_type,
            "source_id": f.source_id,
            "session_id": f.metadata.get("session_id"),
            "evidence_ids": f.evidence_ids,
            "valid": f.invalid_at is None,
            "superseded_by": f.superseded_by,
            "flags": f.flags,
        },
    )


def _episode_candidate(e: Any) -> Candidate:
    return Candidate(
        key=f"episode:{e.uuid}",
        content=f"{e.speaker}: {e.text}",
        tier="tier2",
        kind="episode",
        created_at=e.timestamp,
        importance=float(e.metadata.get("importance", 0.5)),
        speaker=e.speaker,
        provenance={
            "id": e.uuid,
            "rowid": e.rowid,
            "source_type": "session",
            "source_id": e.message_id,
            "session_id": e.session_id,
            "evidence_ids": [e.message_id],
            "flags": e.flags,
        },
    )


def _injection_flag(text: str) -> list[str]:
    """Curated files are edited by hand: screen what recall hands on."""
    hit = guard.find_injection(text)
    return [f"injection:{hit.name}"] if hit else []
