"""The tier-3 and recall methods of MemoryAPI: cross-tier recall, vector search,
rebuild and repair of the vector index."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hermes_memory.api import recall as recall_mod
from hermes_memory.api.envelope import Envelope, run
from hermes_memory.clock import parse_time
from hermes_memory.errors import DerivedTierError, StorageError
from hermes_memory.tier3.blas import limit_blas_threads
from hermes_memory.tier3.embedder import Embedder, default_embedder
from hermes_memory.tier3.semantic import VANISHED, SemanticIndex
from hermes_memory.tier3.vector_store import VectorStore
from hermes_memory.validation import (
    require_choice,
    require_limit,
    require_scope_path,
    require_text,
)

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI
    from hermes_memory.clock import Clock
    from hermes_memory.config import MemoryConfig
    from hermes_memory.tier2.db import Database


def open_index(
    config: MemoryConfig, db: Database, embedder: Embedder | None, clock: Clock
) -> SemanticIndex | None:
    """Tier 3 of a memory (None when ``tier3.enabled`` is off). A store built with
    another model, or cut into other chunks, is marked ``needs_repair`` and said,
    never re-embedded here: ``rebuild`` (or doctor --repair, or the embed job) does
    that with progress, and until then recall answers from the other tiers."""
    t3 = config.tier3
    if not t3.enabled:
        return None
    limit_blas_threads(t3.blas_threads)
    emb = embedder or default_embedder(
        t3.embedding_model, t3.embedding_dim, t3.batch_size, t3.runtime
    )
    semantic = SemanticIndex(
        db,
        VectorStore(
            config.vector_path,
            emb.dim,
            exact_max_rows=t3.exact_search_max_rows,
            whiten_min_rows=t3.whiten_min_rows,
            sign_search=t3.sign_search,
        ),
        emb,
        clock=clock,
        chunk_size=t3.chunk_size,
        chunk_overlap=t3.chunk_overlap,
        batch_size=t3.batch_size,
        segments=t3.segments_per_chunk,
    )
    if semantic.embedder_changed():
        # Never mix vectors of two models, and never re-embed a whole store while a
        # constructor's caller waits.
        state = semantic.status()
        semantic.mark(
            "needs_repair",
            embedder=state.get("embedder"),
            dim=state.get("dim"),
            last_error=f"built with {state.get('embedder')}, the model is now "
            f"{semantic.embedder.name}: `hermes-memory rebuild` re-embeds every memory",
        )
    elif semantic.layout_changed():
        # Still right, only cut differently.
        semantic.mark(
            "needs_repair",
            last_error="built with another tier3.segments_per_chunk, chunk_size or "
            "chunk_overlap: doctor --repair rebuilds it",
        )
    return semantic


def embedding_of(sem: SemanticIndex | None, uuids: list[str]) -> Callable[[], dict[str, Any]]:
    """``MemoryAPI.embedding_of``: the texts read now, the model run when called."""
    if sem is None:
        return dict
    texts = sem.pending_texts(uuids)

    def work() -> dict[str, Any]:
        try:
            return sem.embed_chunks(texts)
        except Exception:  # embed_now runs the model again and reports the failure
            return {}

    return work


def embed_now(
    sem: SemanticIndex | None, uuids: list[str], vectors: dict[str, Any], *, new_items: bool = False
) -> int:
    """``MemoryAPI.embed_now``: drain these items, with ``vectors`` for their texts
    (``new_items``: just created, so they have no rows to replace)."""
    if sem is None:
        return 0
    with sem.precomputed(vectors, new_items=new_items):
        return sem.drain(items=uuids).indexed


def embed_pending(api: MemoryAPI, limit: int) -> Envelope:
    """``MemoryAPI.embed_pending``: drain up to ``limit`` outbox items."""

    def work() -> dict[str, Any]:
        report = index(api).drain(limit=limit)
        return {"indexed": report.indexed, "deleted": report.deleted, "failed": report.failed}

    return run("tier3", ["tier3"], work)


def index(api: MemoryAPI) -> SemanticIndex:
    if api.semantic is None:
        raise DerivedTierError("tier 3 is disabled (tier3.enabled: false)")
    return api.semantic


def recall(
    api: MemoryAPI,
    query: str,
    tiers: Sequence[str] | None,
    limit_per_tier: int,
    limit: int | None,
    scope: str | None,
    now: float | str | None,
    as_of: float | str | None,
    embed_wait: float | None = None,
) -> Envelope:
    chosen = tuple(tiers) if tiers else recall_mod.TIERS

    def work() -> tuple[Any, dict[str, Any]]:
        text = require_text(query, "query", max_chars=api.config.tier2.max_content_chars)
        for tier in chosen:
            require_choice(tier, "tiers", recall_mod.TIERS)
        per_tier = require_limit(limit_per_tier, "limit_per_tier", maximum=100)
        top = require_limit(limit, "limit") if limit is not None else per_tier
        when = api.clock() if now is None else parse_time(now, "now")
        prefix = require_scope_path(scope) if scope else None
        past = None if as_of is None else parse_time(as_of, "as_of")
        subqueries = recall_mod.split_query(text, api.config.recall.deep_query_chars)
        merged: dict[str, dict[str, Any]] = {}
        places: dict[str, int] = {}
        timings: dict[str, float] = {}  # per stage, summed over the sub-queries
        meta: dict[str, Any] = {"degraded": [], "subqueries": subqueries, "timings_ms": timings}
        for sub in subqueries:
            results, info = recall_mod.recall(
                api,
                sub,
                chosen,
                per_tier,
                top * 2,
                when,
                scope=prefix,
                as_of=past,
                embed_wait=embed_wait,
            )
            meta["degraded"] = sorted(set(meta["degraded"]) | set(info["degraded"]))
            for name, ms in info["timings_ms"].items():
                timings[name] = round(timings.get(name, 0.0) + ms, 3)
            for place, r in enumerate(results):
                key = r.get("id") or r["content"]
                if key not in merged or places[key] > place:
                    merged[key], places[key] = r, place
        # Each sub-query's order is kept (its bands, not the raw score, decide it); a
        # memory found by several ranks at its best place, ties by score.
        ranked = sorted(
            merged.values(), key=lambda r: (places[r.get("id") or r["content"]], -r["score"])
        )[:top]
        touched = [r["rowid"] for r in ranked if r["kind"] == "fact"]
        # Access counts feed importance; a read must still answer when they cannot be
        # written (a full disk, a read-only file, a busy writer).
        if api.record_access:
            with contextlib.suppress(StorageError):
                api.facts.touch(touched, now=api.clock())
        for r in ranked:
            r.pop("rowid", None)
        return ranked, meta

    return run("multi", list(chosen), work)


def search(api: MemoryAPI, query: str, limit: int, min_score: float) -> Envelope:
    def work() -> list[dict[str, Any]]:
        text = require_text(query, "query", max_chars=api.config.tier2.max_content_chars)
        hits = index(api).search(text, api.owner, limit=require_limit(limit))
        return [
            {
                "content": h.text,
                "kind": h.kind,
                "id": h.item_uuid,
                "chunk": h.chunk,
                "similarity": round(h.similarity, 4),
            }
            for h in hits
            if h.similarity >= min_score
        ]

    return run("tier3", ["tier3"], work)


def repair(api: MemoryAPI) -> Envelope:
    def work() -> dict[str, Any]:
        sem = index(api)
        sem.retry_poison()
        report = sem.drain(limit=10**9)
        counts = sem.counts()
        rebuilt = None
        drift = counts["missing"] or counts["orphans"] or counts["duplicates"]
        if not (report.failed or drift) and sem.status().get("last_error") == VANISHED:
            # Said of a table that holds every memory: a store's first table, taken for
            # a vanished one before 2026-11-25. Nothing to re-embed.
            sem.mark("ok")
            counts = sem.counts()
        if report.failed or drift or counts["status"] != "ok":
            rebuilt = sem.rebuild()
        return {
            "drained": report.indexed + report.deleted,
            "rebuilt": rebuilt,
            **{k: v for k, v in sem.counts().items() if k != "detail"},
        }

    return run("tier3", ["tier2", "tier3"], work)


def text_id(source_type: str, text: object) -> str:
    """A message id for text indexed without one: the same text gets the same id."""
    # repr() is always encodable, so a bad ``text`` still reaches validation after.
    return f"{source_type}:{hashlib.sha256(repr(text).encode('utf-8')).hexdigest()[:16]}"


def index_now(api: MemoryAPI, uuids: list[str]) -> dict[str, Any]:
    """Embed just-written items inline; a failure marks tier 3, never the write."""
    if api.semantic is None or not api.config.tier3.embed_inline:
        return {}
    report = api.semantic.drain(items=uuids)
    return {"tier3": "needs_repair" if report.failed else "ok"}
