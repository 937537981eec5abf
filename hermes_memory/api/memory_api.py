"""MemoryAPI: one facade over every tier (docs/design.md, "The facade").

Collaborators (config, database, curated store, clock, owner) are constructor
arguments, so tests and embedders can pass their own. Every public method
returns the result envelope of section 8.2 and never leaks a sqlite exception.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hermes_memory import guard
from hermes_memory.api import (
    entity_ops,
    fact_ops,
    formation,
    graph_ops,
    ingest,
    rederive,
    semantic_ops,
)
from hermes_memory.api import health as api_health
from hermes_memory.api.envelope import Envelope, run
from hermes_memory.api.formation import Proposer
from hermes_memory.clock import Clock, system_clock
from hermes_memory.config import MemoryConfig, load_config
from hermes_memory.errors import NotFoundError
from hermes_memory.graph.knowledge_graph import KnowledgeGraph
from hermes_memory.graph.linker import Linker, LinkReport, Reading, read
from hermes_memory.graph.word_use import WordUse
from hermes_memory.tier1 import CuratedStore
from hermes_memory.tier2 import (
    Database,
    EntityStore,
    EpisodeStore,
    FactStore,
    Owner,
    TimelineStore,
)
from hermes_memory.tier3.embedder import Embedder
from hermes_memory.tier3.semantic import SemanticIndex
from hermes_memory.validation import (
    require_choice,
    require_id,
    require_limit,
    require_scope_path,
    require_text,
    require_unit,
)


def default_owner(config: MemoryConfig) -> Owner:
    """Who the caller is when nobody says: the ``owner`` section of the config."""
    o = config.owner
    return Owner(o.platform, config.owner_agent, o.user_id, o.session)


class MemoryAPI:
    """The memory of one profile: curated files, SQLite truth and derived tiers."""

    def __init__(
        self,
        config: MemoryConfig | None = None,
        *,
        home: str | Path | None = None,
        profile: str | None = None,
        owner: Owner | None = None,
        clock: Clock = system_clock,
        db: Database | None = None,
        curated: CuratedStore | None = None,
        embedder: Embedder | None = None,
        actor: str = "api",
        record_access: bool = True,
        proposer: Proposer | None = None,
    ) -> None:
        self.config = config or load_config(home, profile)
        self.clock = clock
        self.owner = owner or default_owner(self.config)
        self.actor = actor
        # Whether reads count as accesses (which feed importance): not for read-only
        # agents (cron, subagents, flush), whose reads must change nothing.
        self.record_access = record_access
        # An optional statement proposer for memory formation (an LLM hook); the
        # built-in rules run with or without it.
        self.proposer = proposer
        self.db = db or Database(
            self.config.db_path,
            busy_timeout_ms=self.config.tier2.busy_timeout_ms,
            wal=self.config.tier2.wal_mode,
        )
        self.curated = curated or CuratedStore(
            self.config.curated_dir,
            memory_char_limit=self.config.tier1.memory_char_limit,
            user_char_limit=self.config.tier1.user_char_limit,
            secrets_policy=self.config.security.secrets,
        )
        self.facts = FactStore(self.db, max_facts=self.config.tier2.max_facts)
        self.episodes = EpisodeStore(self.db)
        self.entities = EntityStore(self.db, max_entities=self.config.tier2.max_entities)
        self.timeline = TimelineStore(self.db)
        self.linker = Linker(self.db, self.entities) if self.config.graph.extract_on_write else None
        self.knowledge_graph: KnowledgeGraph | None = None  # derived; loaded on first graph use
        fact_ops.adopt_claims_version(self)
        rederive.adopt_version(self)
        self.semantic: SemanticIndex | None = semantic_ops.open_index(
            self.config, self.db, embedder, clock
        )

    def as_owner(self, owner: Owner) -> MemoryAPI:
        """The same memory (files, connection, model) seen as another owner; close
        only the original."""
        view = copy.copy(self)
        view.owner = owner
        view.knowledge_graph = None  # graphs are per owner
        return view

    # -- lifecycle ------------------------------------------------------------------
    def save_graph(self) -> None:
        """Keep this owner's graph projection for the next process (if it changed)."""
        if self.knowledge_graph is not None and self.knowledge_graph.dirty:
            # Derived state: a failed save only means the next load re-syncs from SQLite.
            with contextlib.suppress(OSError):
                self.knowledge_graph.save()

    def close(self) -> None:
        self.save_graph()
        if self.semantic is not None:
            self.semantic.store.close()  # the exact-search copy, for the next process
        self.db.close()

    def __enter__(self) -> MemoryAPI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tier 1: curated --------------------------------------------------------------
    def curated_get(self, store: str = "memory") -> Envelope:
        def work() -> tuple[Any, dict[str, Any]]:
            entries = self.curated.entries(store)
            used, limit = self.curated.usage(store)
            return entries, {"usage": f"{used:,}/{limit:,}", "store": store}

        return run("tier1", ["tier1"], work)

    def curated_add(self, content: str, store: str = "memory") -> Envelope:
        return run("tier1", ["tier1"], lambda: self.curated.add(content, store).to_dict())

    def curated_replace(self, old: str, new: str, store: str = "memory") -> Envelope:
        return run("tier1", ["tier1"], lambda: self.curated.replace(old, new, store).to_dict())

    def curated_remove(self, substring: str, store: str = "memory") -> Envelope:
        return run("tier1", ["tier1"], lambda: self.curated.remove(substring, store).to_dict())

    # -- tier 2: facts --------------------------------------------------------------------
    def fact_store(
        self,
        content: str,
        category: str = "general",
        confidence: float = 1.0,
        source: str = "user",
        *,
        importance: float = 0.5,
        scope: str = "/",
        source_id: str | None = None,
        expires_at: float | str | None = None,
        valid_at: float | str | None = None,
        metadata: dict[str, Any] | None = None,
        evidence_ids: Sequence[str] = (),
    ) -> Envelope:
        """Store a fact. An exact duplicate returns the existing fact (``meta.created`` False)."""

        return run(
            "tier2",
            ["tier2"],
            lambda: fact_ops.store(
                self, content, category, confidence, source, importance=importance,
                scope=scope, source_id=source_id, expires_at=expires_at, valid_at=valid_at,
                metadata=metadata, evidence_ids=evidence_ids,
            ),
        )  # fmt: skip

    def fact_query(
        self,
        query: str = "",
        category: str | None = None,
        limit: int = 10,
        min_confidence: float = 0.0,
        *,
        scope: str | None = None,
        include_archived: bool = False,
        formed: bool = False,
    ) -> Envelope:
        """Full-text search (BM25) over facts; an empty query lists the most important.
        ``formed``: only the facts memory formation made from what the person said."""

        def work() -> list[dict[str, Any]]:
            text = require_text(
                query, "query", max_chars=self.config.tier2.max_content_chars, allow_empty=True
            )
            hits = self.facts.search(
                self.owner,
                text,
                limit=require_limit(limit),
                category=require_choice(category, "category", self.config.tier2.categories)
                if category
                else None,
                scope_prefix=require_scope_path(scope) if scope else None,
                min_confidence=require_unit(min_confidence, "min_confidence"),
                include_archived=include_archived,
                source_type=formation.SOURCE if formed else None,
            )
            return [{**h.fact.to_dict(), "bm25": round(h.bm25, 4)} for h in hits]

        return run("tier2", ["tier2"], work)

    def fact_get(self, uuid: str) -> Envelope:
        """A fact by id; a fact merged into another returns the one it became
        (``meta.merged_from``)."""

        return run("tier2", ["tier2"], lambda: self._fact_as_now(require_id(uuid, "uuid")))

    def memory_get(self, uuid: str) -> Envelope:
        """A fact or a turn, whole, by the id recall gave it (recall shows a long one by
        the passage that matched); ``data.kind`` says which."""

        def work() -> tuple[Any, dict[str, Any]]:
            wanted = require_id(uuid, "uuid")
            turn = self.episodes.get_many(self.owner, [wanted]).get(wanted)
            if turn is not None:
                return {"kind": "episode", **turn.to_dict()}, {}
            try:
                fact, meta = self._fact_as_now(wanted)
            except NotFoundError:
                raise NotFoundError("fact or turn", wanted) from None
            return {"kind": "fact", **fact}, meta

        return run("tier2", ["tier2"], work)

    def _fact_as_now(self, uuid: str) -> tuple[dict[str, Any], dict[str, Any]]:
        wanted = self.facts.resolve(self.owner, uuid)
        fact = self.facts.get(self.owner, wanted, include_deleted=True)
        for _ in range(8):  # merges chain when a survivor is merged again later
            if fact.deleted_at is None or not fact.merged_into:
                break
            fact = self.facts.get(self.owner, fact.merged_into, include_deleted=True)
        if fact.deleted_at is not None:
            raise NotFoundError("fact", wanted)
        return fact.to_dict(), ({"merged_from": wanted} if fact.uuid != wanted else {})

    def fact_update(self, uuid: str, **fields: Any) -> Envelope:
        """Change a fact's fields (content, importance, confidence, category, scope,
        expires_at, valid_at, invalid_at, metadata); each is checked like at store."""
        return run("tier2", ["tier2"], lambda: fact_ops.update(self, uuid, fields))

    def fact_delete(self, uuid: str, soft: bool = True) -> Envelope:
        return run(
            "tier2",
            ["tier2"],
            lambda: self._deleted(
                self.facts.delete(
                    self.owner,
                    self.facts.resolve(self.owner, require_id(uuid, "uuid")),
                    soft=soft,
                    now=self.clock(),
                    actor=self.actor,
                )
            ),
        )

    def _deleted(self, fact: Any) -> tuple[Any, dict[str, Any]]:
        return fact.to_dict(), self.index_now([fact.uuid])

    # -- tier 2: episodes -----------------------------------------------------------------------
    def ingest_turn(
        self,
        speaker: str,
        text: str,
        *,
        session_id: str,
        message_id: str,
        timestamp: float | str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Envelope:
        """Store one conversation turn losslessly (idempotent per session + message id)."""
        turn = {
            "speaker": speaker,
            "text": text,
            "session_id": session_id,
            "message_id": message_id,
            "timestamp": timestamp,
            "metadata": metadata,
        }

        def work() -> tuple[Any, dict[str, Any]]:
            ((episode, created),), formed = ingest.store_turns(self, [turn])
            # entities: the embed job (fact_store)
            extra = self.index_now([episode.uuid, *formed])
            return episode.to_dict(), {"created": created, "formed": formed, **extra}

        return run("tier2", ["tier2"], work)

    def ingest_turns(self, turns: Sequence[dict[str, Any]], *, embed: bool = True) -> Envelope:
        """Store many turns in one transaction (all or nothing), then embed them in
        batches; ``embed=False`` leaves them in the outbox for the embed job."""

        def work() -> tuple[Any, dict[str, Any]]:
            stored, formed = ingest.store_turns(self, list(turns))
            created = sum(1 for _, c in stored if c)
            uuids = [e.uuid for e, _ in stored]
            # entities: the embed job
            extra = self.index_now([*uuids, *formed]) if embed else {}
            return uuids, {
                "created": created,
                "skipped": len(stored) - created,
                "formed": formed,
                **extra,
            }

        return run("tier2", ["tier2"], work)

    def message_ids(self, prefix: str) -> set[str]:
        """Every stored message id that starts with ``prefix`` (any owner): what an
        importer that names its ids so has already brought in."""
        return self.episodes.message_ids_starting(prefix)

    def episodes_page(self, session_id: str, *, after: int = 0, limit: int = 50) -> Envelope:
        """Turns of a session in order, a page at a time; pass ``meta.next_after`` on."""

        def work() -> tuple[Any, dict[str, Any]]:
            page = self.episodes.page(
                self.owner,
                require_id(session_id, "session_id"),
                after_id=after,
                limit=require_limit(limit),
            )
            next_after = page[-1].rowid if len(page) == limit else None
            return [e.to_dict() for e in page], {"next_after": next_after}

        return run("tier2", ["tier2"], work)

    def screen_name(self, value: Any, field: str) -> str:
        """An entity name or alias: shown wherever the graph is, so it passes the guard."""
        return self.screen(value, field, max_chars=200)[0]

    def reading(
        self, text: str, at: float, *, speaker: str | None = None, casing: WordUse | None = None
    ) -> Reading | None:
        """What ``text`` says for the graph (None: the graph is off); it only reads,
        so callers do it before their write transaction. ``casing``: a batch's
        ``WordUse``, shared by its texts."""
        if self.linker is None:
            return None
        # The speakers formation reads as the person are the ones whose "I" is the user.
        persons = self.config.formation.speakers
        use = casing or WordUse(self.db, self.owner)
        return read(text, at, speaker=speaker, persons=persons, casing=use)

    def link(
        self, kind: str, row_id: int, uuid: str, text: str, reading: Reading | None
    ) -> LinkReport | None:
        if self.linker is None or reading is None:
            return None
        return self.linker.link(
            self.owner,
            kind=kind,
            row_id=row_id,
            item_uuid=uuid,
            text=text,
            reading=reading,
            now=self.clock(),
            actor=self.actor,
        )

    # -- tier 2: entities, relations and timeline (api/entity_ops.py) ---------------------
    def entity_ensure(
        self,
        name: str,
        entity_type: str = "concept",
        aliases: Sequence[str] | None = None,
        description: str | None = None,
    ) -> Envelope:
        """An entity by name (created, or given the new aliases and description)."""
        return run(
            "tier2",
            ["tier2"],
            lambda: entity_ops.ensure(self, name, entity_type, aliases, description),
        )

    def entity_link(
        self,
        from_name: str,
        to_name: str,
        relation: str,
        strength: float = 1.0,
        *,
        evidence_fact: str | None = None,
    ) -> Envelope:
        """A relation between two entities (created as needed), kept once per type."""
        return run(
            "tier2",
            ["tier2"],
            lambda: entity_ops.link(self, from_name, to_name, relation, strength, evidence_fact),
        )

    def entity_query(
        self, name: str | None = None, entity_type: str | None = None, limit: int = 10
    ) -> Envelope:
        """Entities by name, alias or description words, with their relations."""
        return run("tier2", ["tier2"], lambda: entity_ops.query(self, name, entity_type, limit))

    def timeline_add(
        self,
        event_type: str,
        title: str,
        description: str | None = None,
        importance: float = 0.5,
        related_entities: Sequence[str] | None = None,
        *,
        timestamp: float | str | None = None,
        related_facts: Sequence[str] | None = None,
        session_id: str | None = None,
    ) -> Envelope:
        """An event on the timeline (now, unless ``timestamp`` says when)."""
        return run(
            "tier2",
            ["tier2"],
            lambda: entity_ops.add_event(
                self, event_type, title, description, importance, related_entities,
                timestamp=timestamp, related_facts=related_facts, session_id=session_id,
            ),
        )  # fmt: skip

    def timeline_query(
        self,
        start: float | str | None = None,
        end: float | str | None = None,
        event_type: str | None = None,
        limit: int = 20,
        *,
        query: str | None = None,
    ) -> Envelope:
        """Events between ``start`` and ``end``, of a type, matching words."""
        return run(
            "tier2",
            ["tier2"],
            lambda: entity_ops.query_events(self, start, end, event_type, limit, query),
        )

    # -- graph (derived from entities and relations) --------------------------------------
    def graph_traverse(
        self,
        start_entity: str,
        depth: int = 2,
        relation_filter: str | Sequence[str] | None = None,
        *,
        include_invalid: bool = False,
    ) -> Envelope:
        """Entities within ``depth`` hops of ``start_entity`` (name, alias or uuid),
        relations followed in either direction, each with the path that reached it."""
        return graph_ops.traverse(self, start_entity, depth, relation_filter, include_invalid)

    def graph_shortest_path(self, from_entity: str, to_entity: str) -> Envelope:
        """The entities linking two entities over valid relations ([] if unconnected)."""
        return graph_ops.shortest_path(self, from_entity, to_entity)

    def graph_central_entities(self, limit: int = 10, algorithm: str | None = None) -> Envelope:
        """Most central entities by betweenness, pagerank or degree."""
        return graph_ops.central(self, limit, algorithm)

    def graph_communities(self, min_size: int = 2) -> Envelope:
        """Louvain communities of entities, largest first."""
        return graph_ops.communities(self, min_size)

    def graph_rebuild(self) -> Envelope:
        """Re-derive the NetworkX graph from SQLite and persist it (its JSON cache)."""
        return graph_ops.rebuild(self)

    def graph_export(self, format: str = "graphml", path: str | Path | None = None) -> Envelope:
        """Write the graph as graphml, json (node-link) or html (an interactive page)."""
        return graph_ops.export(self, format, path)

    # -- cross-tier: stats and health ----------------------------------------------------------
    def stats(self, *, owner_only: bool = False) -> Envelope:
        """Counts per tier, queue depth, derived-tier status (and degraded mode), for the
        operator; ``owner_only``: this owner's counts and the tiers' health alone (what
        an agent's tool shows)."""
        return api_health.owner_stats(self) if owner_only else api_health.stats(self)

    def doctor(self, *, repair: bool = False) -> Envelope:
        """Schema, integrity, FTS, queue and derived-tier health; optionally repair."""
        return api_health.doctor(self, repair=repair)

    # -- tier 3 and cross-tier recall ------------------------------------------------------
    def recall(
        self,
        query: str,
        tiers: Sequence[str] | None = None,
        limit_per_tier: int = 5,
        *,
        limit: int | None = None,
        scope: str | None = None,
        now: float | str | None = None,
        as_of: float | str | None = None,
        embed_wait: float | None = None,
    ) -> Envelope:
        """Memories relevant to ``query`` from every tier, ranked by the composite score;
        ``as_of`` answers from what was recorded and true at that time. ``embed_wait``
        (seconds) bounds the wait for a model still loading: past it, recall answers
        without tier 3 and says so in ``meta.degraded``."""
        return semantic_ops.recall(
            self, query, tiers, limit_per_tier, limit, scope, now, as_of, embed_wait
        )

    def semantic_search(
        self, query: str, limit: int = 10, min_score: float | None = None
    ) -> Envelope:
        """Nearest memories by vector only (cosine similarity), none below
        ``min_score`` (default ``tier3.min_score``)."""
        floor = self.config.tier3.min_score if min_score is None else min_score
        return semantic_ops.search(self, query, limit, floor)

    def semantic_hybrid(self, query: str, limit: int = 10) -> Envelope:
        """Lexical + semantic fusion over tiers 2 and 3, relevance only (no recency)."""
        return self.recall(query, ["tier2", "tier3"], limit_per_tier=limit, limit=limit)

    def semantic_index(
        self,
        text: str,
        source_type: str = "session",
        *,
        session_id: str = "default",
        message_id: str | None = None,
    ) -> Envelope:
        """Index a piece of text (stored as an episode, so it stays rebuildable)."""
        mid = message_id or semantic_ops.text_id(source_type, text)
        return self.ingest_turn(source_type, text, session_id=session_id, message_id=mid)

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> Envelope:
        """Drop the vector table and re-derive it from SQLite truth (``progress(done,
        total)`` after each batch of items)."""
        return run("tier3", ["tier2", "tier3"], lambda: semantic_ops.index(self).rebuild(progress))

    def embed_pending(self, limit: int = 1000) -> Envelope:
        """Embed up to ``limit`` items waiting in the outbox (what the embed job does):
        for callers that write without inline embedding, before they search."""
        return semantic_ops.embed_pending(self, limit)

    def repair(self) -> Envelope:
        """Bring tier 3 back in step: drain the outbox, rebuild if anything is missing."""
        return semantic_ops.repair(self)

    def warm(self) -> None:
        """Load the embedding model and open the vector table now (a start-up thread's
        work), so that the first recall does not wait for them."""
        if self.semantic is not None:
            self.semantic.warm()

    def embed_queue_items(self, limit: int) -> list[str]:
        """The stored items waiting for their vectors, oldest first: what to hand
        ``embedding_of`` to drain the outbox with the model off a caller's lock."""
        return self.semantic.due_items(limit) if self.semantic is not None else []

    def embedding_of(self, uuids: list[str]) -> Callable[[], dict[str, Any]]:
        """The model's work for ``embed_now(uuids)``, its texts read now. It touches no
        database, so a caller that serialises its use of this API runs it outside its
        lock, and hands the result to ``embed_now`` (empty if the model failed)."""
        return semantic_ops.embedding_of(self.semantic, uuids)

    def embed_now(self, uuids: list[str], *, vectors: dict[str, Any] | None = None) -> int:
        """Embed these stored items now, whatever ``tier3.embed_inline`` says (for a
        caller embedding off the agent's thread), taking ``embedding_of``'s vectors for
        the texts they cover; how many were indexed."""
        return semantic_ops.embed_now(self.semantic, uuids, vectors or {})

    def index_now(self, uuids: list[str]) -> dict[str, Any]:
        """Embed just-written items inline; a failure marks tier 3, never the write."""
        return semantic_ops.index_now(self, uuids)

    # -- internals -------------------------------------------------------------------------
    def screen(
        self,
        value: Any,
        field: str,
        *,
        injection: str | None = None,
        secrets: str | None = None,
        max_chars: int | None = None,
    ) -> tuple[str, list[str]]:
        limit = max_chars or self.config.tier2.max_content_chars
        text = require_text(value, field, max_chars=limit)
        return guard.screen(
            text,
            field=field,
            secrets=secrets or self.config.security.secrets,
            injection=injection or self.config.security.injection,
        )
