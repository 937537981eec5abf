"""Cross-tier recall: gather candidates from every tier, fuse, score, explain."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hermes_memory import guard
from hermes_memory.api import adjust, changed, feedback, graph_recall, scoring, standing
from hermes_memory.api.candidates import (
    Candidate,
    PassageScorer,
    excerpt_of,
    fact_candidate,
    fold_restatements,
    known_at,
    load_candidates,
    search_tier2,
    visible,
)
from hermes_memory.api.voice import blend, voice_of
from hermes_memory.clock import DAY, to_iso
from hermes_memory.errors import CuratedFileError
from hermes_memory.text.temporal import query_window
from hermes_memory.tier2.fts import presence_counter, query_terms, terms_missing, words_present

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI
    from hermes_memory.tier3.snapshot import VectorHit

TIERS = ("tier1", "tier2", "tier3", "graph")
LOW_CONFIDENCE = 0.35
# Memories of the period a query names that are compared with it by cosine (newest
# first); bounded so a query about a busy year stays a few milliseconds.
WINDOW_ROWS = 2000
# Candidates each search brings, per result asked of a tier (limit_per_tier): BM25's
# best facts and turns, each, and the nearest vectors. Whitened cosine
# (tier3/whitening.py) ranks the vector search's deeper hits well enough that a
# deeper pool pays: 4 / 4 -> 6 / 8 raised LoCoMo R@10 on both halves (0-2 0.8329
# -> 0.8482, 3-4 0.7660 -> 0.7764; docs/retrieval.md) for ~1 ms at 100k memories.
LEXICAL_POOL = 6
VECTOR_POOL = 8


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
    cfg = api.config.recall
    if api.semantic is not None and ("tier3" in tiers or "tier1" in tiers):
        voice = voice_of(query, api.episodes.speakers(api.owner)) if cfg.speaker_voice else None
        # One query embedding serves tier 3 and the curated entries. It and the vector
        # search run on a worker while SQLite answers the lexical search (all three
        # release the GIL), so tier 3 costs what it takes beyond tier 2.
        semantic = _embedding_worker().submit(
            _embed_and_search, api, query, voice, per_tier if "tier3" in tiers else 0, embed_wait
        )
    if "tier2" in tiers:
        with stage("tier2"):
            lexical_hits = search_tier2(api, query, per_tier * LEXICAL_POOL, scope)
            pool.update((c.key, c) for c in lexical_hits)
    words = cfg.long_turn_words if "tier2" in tiers else 0
    passages = PassageScorer(api, query, words, cfg.passage_chars)
    with stage("passages"):  # while the worker embeds the query and searches
        passages.score(pool)
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
    # "What did we do last week?" asks what was said then, not what was told of it later.
    time_only = adjust.asks_only_time(query)
    window = query_window(query, now if as_of is None else as_of, told_later=not time_only)
    if window is not None and query_vector is not None and "tier2" in tiers:
        with stage("time"):
            _from_window(api, window, query_vector, per_tier, pool)
            if window[0] + DAY > (now if as_of is None else as_of):  # a time still ahead
                _naming_window(api, window, query_vector, per_tier, pool)
    if "tier1" in tiers:
        with stage("tier1"):
            degraded.extend(_from_tier1(api, query, query_vector, pool))
    if scope is not None or as_of is not None:
        pool = {k: c for k, c in pool.items() if visible(c, scope, as_of)}
    _add_successors(api, pool, as_of)
    applies = None
    if cfg.applies_share > 0 and "tier2" in tiers:
        try:
            with stage("applies"):
                applies = standing.applicable(
                    api, query, query_vector, pool, cfg.applies_min_cosine
                )
        except Exception as exc:  # the model failing must not fail recall
            degraded.append(f"applies: {exc}")
        if applies is not None and not visible(pool[applies], scope, as_of):
            del pool[applies]  # outside the scope or time asked about
            applies = None
    with stage("passages"):  # what the vector search and the successors added
        passages.score(pool)
    lexical, fused, gate = _fused(pool)
    # Similarities raised above what the candidates' own signals give (kept to be
    # raised again when feedback ranks a second time).
    lifted: dict[str, float] = {}
    if applies is not None:
        lifted[applies] = standing.lift(applies, pool, fused, cfg.applies_share)
    if "graph" in tiers and cfg.graph_depth > 0 and api.config.graph.enabled:
        try:
            with stage("graph"):
                alone = not set(tiers) & {"tier1", "tier2", "tier3"}
                lifted.update(
                    graph_recall.from_graph(api, query, pool, fused, per_tier, scope, as_of, alone)
                )
                lifted.update(
                    graph_recall.from_chains(api, query, pool, fused, query_vector, scope, as_of)
                )
        except Exception as exc:  # derived tier: recall goes on without it
            degraded.append(f"graph: {exc}")
    rank_started = time.perf_counter()
    when = now if as_of is None else as_of
    neighbours: dict[int, tuple[int, int]] = {}
    wants_feedback = cfg.feedback_terms > 0 and query_vector is not None and "tier2" in tiers
    # The ranking's tags, to start the second ranking from (feedback, below).
    tags = {key: list(c.extra) for key, c in pool.items()} if wants_feedback else {}
    # Room for the restatements folded away below.
    room = 2 * limit
    first = max(room, feedback.FEEDBACK_POOL) if wants_feedback else room
    order = _ranked(
        api, query, pool, fused, gate, window, now, when, first, neighbours, timings,
        time_only=time_only,
    )  # fmt: skip
    if wants_feedback:
        with stage("feedback"):
            added = feedback.add_candidates(
                api,
                query,
                pool,
                order[: feedback.FEEDBACK_POOL],
                query_vector,
                per_tier=per_tier,
                terms=cfg.feedback_terms,
                scope=scope,
                as_of=as_of,
            )
        if added:  # rank again from the unadjusted similarities, the new ones included
            for key, extra in tags.items():
                pool[key].extra = extra
            lexical, fused, gate = _fused(pool)
            for key, value in lifted.items():
                fused[key] = max(fused[key], value)
            order = _ranked(
                api, query, pool, fused, gate, window, now, when, room, neighbours, timings,
                time_only=time_only,
            )  # fmt: skip
    if cfg.fold_restatements:
        order = fold_restatements(order, pool)
    order = order[:limit]
    changed.mark_changed(api, pool, order, when)
    # A boosted similarity may pass 1 in the ranking, so that two boosted matches keep
    # their order instead of tying (and going by recency); what is shown is capped at 1.
    shown = {
        key: scoring.score(
            min(fused[key], 1.0), pool[key].created_at, pool[key].importance, now, cfg
        )
        for key in order
    }
    results = [(shown[key], pool[key], lexical.get(key, 0.0)) for key in order]
    out = [_render(comp, cand, lex) for comp, cand, lex in results]
    if cfg.excerpt_chars:
        matches = presence_counter(query_terms(query))
        for item, (_, cand, _) in zip(out, results, strict=True):
            if len(cand.content) > cfg.excerpt_chars:
                item["excerpt"] = excerpt_of(cand, cfg.excerpt_chars, matches)
    gaps = evidence_gaps(query, out)
    for item in out:
        item["evidence_gaps"] = gaps
    timings["rank"] = (time.perf_counter() - rank_started) * 1000
    return out, {"degraded": degraded, "candidates": len(pool), "timings_ms": timings}


def _fused(
    pool: dict[str, Candidate],
) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Each candidate's normalised lexical score, its fused similarity, and the share of
    the similarity floor it must reach (scoring.floor_share)."""
    lexical = scoring.normalise_bm25({k: c.lexical_raw for k, c in pool.items()})
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
    gate = {
        key: scoring.floor_share(
            lexical[key], cand.semantic, has_lexical=has_lexical, has_semantic=has_semantic
        )
        for key, cand in pool.items()
    }
    return lexical, fused, gate


def _ranked(
    api: MemoryAPI,
    query: str,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    gate: dict[str, float],
    window: tuple[float, float] | None,
    now: float,
    when: float,
    limit: int,
    neighbours: dict[int, tuple[int, int]],
    timings: dict[str, float],
    *,
    time_only: bool = False,
) -> list[str]:
    """Adjust ``fused`` (in place) and rank: the keys of at most ``limit`` results, each
    at least ``gate`` of the similarity floor (``neighbours``: adjust.share_context's
    cache; each stage's wall time is added to ``timings`` as ``stage:<name>``;
    ``time_only``: the query names nothing but its time, adjust.asks_only_time)."""
    cfg = api.config.recall
    # The adjustment stages in order, each a named function of the candidates and its
    # own settings (a setting at its neutral value turns a stage off: an ablation is a
    # config change). What each does to a candidate is kept in its trace. The assistant's
    # turns are weighed before context is shared, so that a long answer lends its
    # neighbours only what it is worth (BEAM R@10 0.321 -> 0.335, LoCoMo unchanged).
    stages: tuple[tuple[str, Callable[[], None]], ...] = (
        ("assistant", lambda: adjust.weigh_assistant_turns(
            query, pool, fused, cfg.assistant_factor)),
        ("context", lambda: adjust.share_context(
            api, pool, fused, cfg.context_weight, neighbours, cfg.long_turn_words)),
        ("validity", lambda: adjust.prefer_valid(pool, fused, when, cfg.invalid_factor)),
        ("question", lambda: adjust.discount_questions(
            pool, fused, cfg.question_factor, cfg.long_turn_words)),
        ("short_turn", lambda: adjust.discount_short_turns(
            pool, fused, cfg.short_turn_words, cfg.min_similarity, cfg.min_word_share, gate)),
        ("successor", lambda: adjust.lift_successors(
            api, query, pool, fused, when, cfg.successor_lift)),
        ("standing", lambda: adjust.favour_standing(pool, fused, cfg.standing_boost)),
        ("speaker", lambda: adjust.favour_named_speaker(query, pool, fused, cfg.speaker_boost)),
        ("time", lambda: adjust.favour_window(window, pool, fused, cfg.time_boost,
            cfg.min_similarity if time_only else 0.0)),
        ("order", lambda: adjust.favour_order(query, window, pool, fused, cfg.order_boost)),
    )  # fmt: skip
    for key, cand in pool.items():
        cand.trace = [("fused", fused[key])]
    for name, stage in stages:
        before = dict(fused)
        started = time.perf_counter()
        stage()
        spent = (time.perf_counter() - started) * 1000
        timings[f"stage:{name}"] = timings.get(f"stage:{name}", 0.0) + spent
        for key, value in fused.items():
            if value != before[key]:
                pool[key].trace.append((name, value))
    # Never surface an unrelated match, nor a clearly weaker one above a stronger one,
    # on recency or importance alone (scoring.rank_in_bands).
    scores = {
        key: scoring.score(sim, pool[key].created_at, pool[key].importance, now, cfg).score
        for key, sim in fused.items()
        if sim >= cfg.min_similarity * gate.get(key, 1.0)
    }
    # An exact tie (turns capped at the same similarity, written the same day) goes to
    # the closer in meaning, then the newer: the same order in every build of a store.
    ties = {key: (pool[key].semantic, pool[key].created_at) for key in scores}
    return scoring.rank_in_bands(
        ((key, fused[key], score) for key, score in scores.items()),
        0.0,  # the floor is passed above
        cfg.relative_gate,
        limit,
        ties,
    )


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


def _add_successors(api: MemoryAPI, pool: dict[str, Candidate], as_of: float | None) -> None:
    """A superseded fact brings the fact that replaced it: the answer about the old
    state is the new state (unless asked as of a time before it)."""
    wanted = {c.superseded_by for c in pool.values() if c.superseded_by}
    wanted -= {k.split(":", 1)[1] for k in pool if k.startswith("fact:")}
    for f in api.facts.get_many(api.owner, sorted(w for w in wanted if w)).values():
        cand = fact_candidate(f)
        if as_of is None or known_at(cand, as_of):
            pool[cand.key] = cand


def _from_window(
    api: MemoryAPI,
    window: tuple[float, float],
    query_vector: Any,
    per_tier: int,
    pool: dict[str, Candidate],
) -> None:
    """A question about a time ("in July 2023") also draws on what was recorded then:
    the memories of that period closest to the query by cosine join the candidates."""
    kinds = {u: "fact" for u in api.facts.between(api.owner, *window, limit=WINDOW_ROWS)}
    kinds.update(
        {u: "episode" for u in api.episodes.between(api.owner, *window, limit=WINDOW_ROWS)}
    )
    _join_nearest(api, kinds, query_vector, per_tier, pool)


def _naming_window(
    api: MemoryAPI,
    window: tuple[float, float],
    query_vector: Any,
    per_tier: int,
    pool: dict[str, Candidate],
) -> None:
    """A question about a time still ahead ("what's due in January?", "what do I have
    next week?") draws on what names a day of it: nothing was recorded then yet. The
    facts and turns naming such a day (the timeline's ``mentioned_date`` events)
    closest to the query by cosine join the candidates, each with the day it names (one
    not embedded yet still may, after those that are)."""
    kinds: dict[str, str] = {}
    days: dict[str, float] = {}
    for kind, uuid, day in api.timeline.named_between(api.owner, *window, limit=WINDOW_ROWS):
        kinds.setdefault(uuid, kind)
        days.setdefault(uuid, day)
    for cand in _join_nearest(api, kinds, query_vector, per_tier, pool, unembedded=True):
        cand.named_date = days[cand.key.split(":", 1)[1]]


def _join_nearest(
    api: MemoryAPI,
    kinds: dict[str, str],
    query_vector: Any,
    per_tier: int,
    pool: dict[str, Candidate],
    *,
    unembedded: bool = False,
) -> list[Candidate]:
    """The ``2 * per_tier`` of ``kinds`` (uuid -> "fact" or "episode") closest to the
    query by cosine join the candidates, with that cosine as their semantic match
    (``unembedded``: those without a vector too, at 0, in ``kinds``' order); the ones
    joined, nearest first."""
    assert api.semantic is not None
    sims = api.semantic.store.similarities(query_vector, list(kinds))
    ranked = list(kinds) if unembedded else list(sims)
    nearest = sorted(ranked, key=lambda u: -sims.get(u, 0.0))[: per_tier * 2]
    keys = [f"{kinds[u]}:{u}" for u in nearest]
    pool.update(load_candidates(api, [k for k in keys if k not in pool]))
    joined = []
    for uuid, key in zip(nearest, keys, strict=True):
        cand = pool.get(key)
        if cand is not None:
            cand.semantic = max(cand.semantic, sims.get(uuid, 0.0))
            joined.append(cand)
    return joined


def split_query(text: str, deep_chars: int) -> list[str]:
    """Adaptive depth: a short query is itself; a long one becomes its sentences and
    clauses (deterministic), each a targeted sub-query, plus the whole (``deep_chars``
    0: never split)."""
    if deep_chars <= 0 or len(text) < deep_chars:
        return [text]

    parts = [p.strip() for p in re.split(r"(?<=[.?!;])\s+|\n+", text) if len(p.strip()) > 12]
    subs = list(dict.fromkeys(parts))[:6]
    # One sentence is the query itself: searching it twice would only cost twice.
    return subs + [text] if len(subs) > 1 else [text]


# How a question hedges ("What might ...?") is not something it asks about. ("may" is
# also a month, so it stays a word a memory can be missing.)
_HEDGES = frozenset("might must maybe perhaps likely probably possibly shall".split())


def evidence_gaps(query: str, results: list[dict[str, Any]]) -> list[str]:
    """What the query asks about that nothing returned mentions, or low confidence."""
    gaps = []
    # A relation the graph followed mentions what it states ("-lives_in->" answers
    # "where do I live?" for a memory saying "I moved to Berlin").
    paths = ((r.get("graph_path") or "").replace("_", " ") for r in results)
    text = " ".join([*(r["content"] for r in results), *paths])
    asked = [t for t in query_terms(query) if len(t) > 2 and t not in _HEDGES]
    missing = terms_missing(asked, text)
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
        # The similarity as fusion gave it, then after each stage that changed it.
        "trace": [{"stage": name, "similarity": round(v, 4)} for name, v in cand.trace],
        "evidence_gaps": [],
        "created_at": to_iso(cand.created_at),
        **cand.provenance,
        **({"recorded_at": to_iso(cand.created_at)} if cand.kind == "fact" else {}),
        **({"valid_at": to_iso(cand.valid_at)} if cand.valid_at is not None else {}),
        **({"invalid_at": to_iso(cand.invalid_at)} if cand.invalid_at is not None else {}),
    }


@dataclass
class _Semantic:
    """The worker's part of a recall: the query's vector and its nearest rows (None:
    not searched, ``error`` says why)."""

    vector: Any
    hits: list[VectorHit] | None = None
    search_ms: float = 0.0
    error: str = ""


def _embed_and_search(
    api: MemoryAPI, query: str, voice: str | None, per_tier: int, embed_wait: float | None
) -> _Semantic:
    """The query's vector (blended with ``voice``, the query in its named speaker's
    own voice, when there is one: voice.py) and its nearest rows."""
    sem = api.semantic
    assert sem is not None
    if voice is None:
        found = _Semantic(sem.embed_cached([query])[0])
    else:
        asked, voiced = sem.embed_cached([query, voice])
        found = _Semantic(blend(asked, voiced, api.config.recall.speaker_voice))
    if per_tier <= 0:
        return found
    if embed_wait is not None and not sem.store.is_open:
        # A bounded caller (prefetch at start-up) does not wait for LanceDB.
        found.error = "vector index still opening"
        return found
    started = time.perf_counter()
    try:
        found.hits = sem.search_vector(
            found.vector, api.owner, limit=per_tier * VECTOR_POOL, kinds=("fact", "episode")
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
    passages: dict[str, str] = {}
    for h in hits:
        if h.similarity > best.get(h.item_uuid, -1.0):
            best[h.item_uuid] = h.similarity
            passages[h.item_uuid] = h.text
    keys = (f"{h.kind}:{h.item_uuid}" for h in hits)
    pool.update(load_candidates(api, [k for k in keys if k not in pool]))
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
            cand.passage = passages.get(cand.provenance["id"], cand.passage)


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


def _injection_flag(text: str) -> list[str]:
    """Curated files are edited by hand: screen what recall hands on."""
    hit = guard.find_injection(text)
    return [f"injection:{hit.name}"] if hit else []
