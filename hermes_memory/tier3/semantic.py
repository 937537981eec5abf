"""SemanticIndex: keeps the LanceDB table in step with SQLite truth.

It drains the ``embed_queue`` outbox (inline after API writes, or in batches for
bulk imports and the embed job), rebuilds the table from tier 2 on demand or when
the embedder changed, and records its health in ``derived_state['tier3']``. Any
LanceDB or model failure marks the tier ``needs_repair``; it never touches truth.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hermes_memory.clock import Clock
from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2 import health, journal
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import ann_index
from hermes_memory.tier3.chunks import chunk_text
from hermes_memory.tier3.embedder import Embedder, Vectors
from hermes_memory.tier3.segments import Embedded, embed_with_segments
from hermes_memory.tier3.vector_store import VectorHit, VectorStore

# Rows per model call on the bulk paths: enough runs to keep both cores busy to the
# end of the call (a call of 256 left one idle for its last run: 275 vs 384 texts/s).
CALL_ROWS = 1024

STATE = "tier3"
_CACHE_MAX = 2048
MAX_ATTEMPTS = 5
VANISHED = "the vector table was missing"

_ITEM_SQL = {
    "fact": "SELECT uuid, content AS text, source_id, created_at, platform, agent, user_id, "
    "session_key FROM facts WHERE uuid IN ({}) AND deleted_at IS NULL AND is_archived = 0",
    # A turn is read with what it shared: "Ana: Look at this! [an image of a red kite]".
    "episode": "SELECT uuid, speaker || ': ' || text || CASE WHEN attachments = '' THEN '' "
    "ELSE ' [' || attachments || ']' END AS text, message_id AS source_id, "
    "timestamp AS created_at, platform, agent, user_id, session_key FROM episodes "
    "WHERE uuid IN ({}) AND deleted_at IS NULL AND unindexed_at IS NULL",
    "entity": "SELECT uuid, name || ' (' || entity_type || ') ' || COALESCE(description, '') "
    "AS text, NULL AS source_id, first_seen AS created_at, platform, agent, user_id, "
    "session_key FROM entities WHERE uuid IN ({}) AND deleted_at IS NULL",
    "timeline": "SELECT uuid, title || '. ' || COALESCE(description, '') AS text, session_id "
    "AS source_id, timestamp AS created_at, platform, agent, user_id, session_key "
    "FROM timeline WHERE uuid IN ({}) AND deleted_at IS NULL AND event_type != 'mentioned_date'",
}
_ALL_SQL = {
    "fact": "SELECT uuid FROM facts WHERE deleted_at IS NULL AND is_archived = 0",
    "episode": "SELECT uuid FROM episodes WHERE deleted_at IS NULL AND unindexed_at IS NULL",
    "entity": "SELECT uuid FROM entities WHERE deleted_at IS NULL",
    # Dates the linker found in a fact or turn: that text is indexed already.
    "timeline": "SELECT uuid FROM timeline WHERE deleted_at IS NULL "
    "AND event_type != 'mentioned_date'",
}


@dataclass
class DrainReport:
    indexed: int = 0
    deleted: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


class SemanticIndex:
    def __init__(
        self,
        db: Database,
        store: VectorStore,
        embedder: Embedder,
        *,
        clock: Clock,
        chunk_size: int = 512,
        chunk_overlap: int = 64,
        batch_size: int = 32,
        segments: int = 3,
    ) -> None:
        self.db = db
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.batch_size = batch_size
        self.segments = segments  # sentence vectors per chunk (segments.py)
        self.max_attempts = MAX_ATTEMPTS
        self._vectors: dict[str, np.ndarray] = {}
        self._precomputed: dict[str, Embedded] | None = None
        self._new_items = False
        # Whether the table holds another model's vectors (None: not read yet). Until a
        # rebuild, nothing is searched or added: two models' vectors never mix.
        self._other_model: bool | None = None
        store.expects_table = self._had_table

    def warm(self) -> None:
        """Load the model (when it loads lazily) and open the table now."""
        load = getattr(self.embedder, "load", None)
        if load is not None:
            load()
        self.store.open()

    # -- health ---------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        return health.derived_status(self.db).get(STATE, {"status": "empty"})

    def mark(self, status: str, **detail: Any) -> None:
        """Record the tier's health, with the embedder it was built by (``detail`` may
        name another: the one whose vectors the table still holds)."""
        recorded = {
            "embedder": self.embedder.name,
            "dim": self.embedder.dim,
            "degraded": self.embedder.degraded,
            "segments": self.segments,
            "chunking": [self.chunk_size, self.chunk_overlap],
            **detail,
        }
        if "embedder" not in detail and self.other_model:
            # The table still holds the other model's vectors: keep saying whose, so no
            # process takes them for this model's.
            held = self.status()
            recorded.update(embedder=held.get("embedder"), dim=held.get("dim"))
        health.set_derived_status(self.db, STATE, status, self.clock(), **recorded)

    def layout_changed(self) -> bool:
        """Whether the table was built with another number of sentence vectors per
        chunk than configured (or before they existed), or with other chunks (a table
        from before chunking was recorded is taken to have today's): a rebuild brings
        it in line."""
        state = self.status()
        if state.get("status") in ("empty", None):
            return False
        chunking = state.get("chunking", [self.chunk_size, self.chunk_overlap])
        return state.get("segments") != self.segments or list(chunking) != [
            self.chunk_size,
            self.chunk_overlap,
        ]

    def embedder_changed(self) -> bool:
        state = self.status()
        if state.get("status") == "empty":
            return False
        return state.get("embedder") != self.embedder.name or state.get("dim") != self.embedder.dim

    @property
    def other_model(self) -> bool:
        """The table holds vectors of another embedder than this one (read once)."""
        if self._other_model is None:
            self._other_model = self.embedder_changed()
        return self._other_model

    def _require_this_model(self) -> None:
        if self.other_model:
            state = self.status()
            raise DerivedTierError(
                f"the vectors are from {state.get('embedder')} and the model is now "
                f"{self.embedder.name}: `hermes-memory rebuild` re-embeds every memory",
                tier="tier3",
            )

    # -- writes ------------------------------------------------------------------------
    def drain(self, *, limit: int = 1000, items: list[str] | None = None) -> DrainReport:
        """Index the pending outbox rows (all due ones, or only ``items``); none while
        the table holds another model's vectors (they wait for the rebuild)."""
        report = DrainReport()
        if self.other_model:
            return report
        now = self.clock()
        if items is not None:
            if not items:
                return report
            rows = self._queued(items)
        else:
            rows = journal.due(self.db, now, limit)
        for start in range(0, len(rows), CALL_ROWS):
            self._drain_batch(rows[start : start + CALL_ROWS], report)
        if report.failed:
            self.mark("needs_repair", last_error=report.errors[-1])
        elif self.status().get("status") == "empty" or (
            (report.indexed or report.deleted) and self.status().get("status") != "needs_repair"
        ):
            self.mark("ok")
        return report

    def _drain_batch(self, rows: list[Any], report: DrainReport) -> None:
        deletes = [r for r in rows if r["op"] == "delete"]
        upserts = [r for r in rows if r["op"] == "upsert"]
        try:
            self.store.delete([r["item_uuid"] for r in deletes])
            by_kind: dict[str, list[str]] = {}
            for r in upserts:
                by_kind.setdefault(r["item_kind"], []).append(r["item_uuid"])
            indexed = self._index(by_kind)
        except DerivedTierError as exc:
            if len(rows) > 1 and str(exc).startswith("embedding failed"):
                # Find the item(s) the model chokes on instead of parking the batch.
                for row in rows:
                    self._drain_batch([row], report)
                return
            self._retry_later(rows, str(exc))
            report.failed += len(rows)
            report.errors.append(str(exc))
            return
        journal.done(self.db, rows)
        report.deleted += len(deletes)
        report.indexed += indexed

    def retry_poison(self) -> int:
        """Give parked (poison) items another round of attempts."""
        return journal.retry_poison(self.db)

    def _retry_later(self, rows: list[Any], error: str) -> None:
        journal.retry_later(self.db, rows, error, now=self.clock(), max_attempts=self.max_attempts)

    def _index(self, by_kind: dict[str, list[str]]) -> int:
        rows = self._chunk_rows(by_kind)
        if not rows:
            return 0
        texts = [r["text"] for r in rows]
        ready = self._precomputed
        try:
            if ready is not None and all(t in ready for t in texts):
                embedded = [ready[t] for t in texts]
            else:
                embedded = embed_with_segments(self.embedder, texts, self.segments)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"embedding failed: {exc}") from None
        rows, vectors = _with_segments(rows, embedded)
        self.store.upsert(rows, vectors, new_items=self._new_items)
        return len({r["item_uuid"] for r in rows})

    def embed_chunks(self, texts: list[str]) -> dict[str, Embedded]:
        """The vectors ``drain`` needs for these chunk texts (``pending_texts``), to be
        handed back through ``precomputed``."""
        return dict(
            zip(texts, embed_with_segments(self.embedder, texts, self.segments), strict=True)
        )

    def _chunk_rows(self, by_kind: dict[str, list[str]]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for kind, uuids in by_kind.items():
            for item in self._load(kind, uuids):
                for i, piece in enumerate(
                    chunk_text(item["text"], self.chunk_size, self.chunk_overlap)
                ):
                    rows.append(
                        {
                            "id": f"{item['uuid']}#{i}",
                            "kind": kind,
                            "item_uuid": item["uuid"],
                            "chunk": i,
                            "platform": item["platform"],
                            "agent": item["agent"],
                            "user_id": item["user_id"],
                            "session_key": item["session_key"],
                            "text": piece,
                            "source_id": item["source_id"] or "",
                            "created_at": float(item["created_at"]),
                        }
                    )
        return rows

    def due_items(self, limit: int) -> list[str]:
        """The items a ``drain(limit=...)`` now would embed (its deletes left out)."""
        rows = journal.due(self.db, self.clock(), limit)
        return [r["item_uuid"] for r in rows if r["op"] == "upsert"]

    def pending_texts(self, items: list[str]) -> list[str]:
        """The texts ``drain(items=...)`` will embed for these queued items."""
        by_kind: dict[str, list[str]] = {}
        for r in self._queued(items):
            if r["op"] == "upsert":
                by_kind.setdefault(r["item_kind"], []).append(r["item_uuid"])
        return [r["text"] for r in self._chunk_rows(by_kind)]

    def _queued(self, items: list[str]) -> list[Any]:
        """The pending outbox rows of ``items``."""
        return journal.pending_for(self.db, items)

    @contextlib.contextmanager
    def precomputed(self, vectors: dict[str, Embedded], *, new_items: bool) -> Iterator[None]:
        """Within the block, drains take the vectors of these texts from ``vectors``
        (``embed_chunks``, run ahead off the database lock) instead of running the model;
        ``new_items``: the items drained were just created, so they have no rows to
        replace (past the exact-copy size, LanceDB's delete scans the table)."""
        self._precomputed, self._new_items = vectors, new_items
        try:
            yield
        finally:
            self._precomputed, self._new_items = None, False

    def _load(self, kind: str, uuids: list[str]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for start in range(0, len(uuids), 500):
            part = uuids[start : start + 500]
            sql = _ITEM_SQL[kind].format(",".join("?" * len(part)))
            out.extend(dict(r) for r in self.db.query(sql, part))
        return out

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Drop the vector table and re-derive it from every live tier-2 item;
        ``progress(done, total)`` is told after each batch."""
        self._other_model = False  # what it writes from here on is this model's
        self.mark("rebuilding")
        try:
            self.store.reset()
            batches = list(self._all_items())
            items = sum(len(b) for _, b in batches)
            done = total = 0
            for kind, batch in batches:
                total += self._index({kind: batch})
                done += len(batch)
                if progress is not None:
                    progress(done, items)
            ann_index.ensure(self.store)  # a large table gets its index (measured) again
        except DerivedTierError as exc:
            self.mark("needs_repair", last_error=str(exc))
            raise
        journal.clear(self.db)
        self.mark("ok", rebuilt_at=self.clock())
        return {"items": total, "vectors": self.store.count()}

    def _all_items(self) -> Iterator[tuple[str, list[str]]]:
        for kind, sql in _ALL_SQL.items():
            uuids = [r[0] for r in self.db.query(sql)]
            step = CALL_ROWS
            for start in range(0, len(uuids), step):
                yield kind, uuids[start : start + step]

    def _had_table(self) -> bool:
        """Whether tier 2 holds a memory that was indexed already: one the index should
        hold and that no outbox row still waits to add (asked when the table has to be
        created; the rows a first write is adding are still queued then)."""
        waiting = "SELECT 1 FROM embed_queue q WHERE q.item_kind = '{}' AND q.item_uuid = t.uuid"
        return any(
            self.db.scalar(
                f"SELECT EXISTS (SELECT 1 FROM ({sql}) t WHERE NOT EXISTS ({waiting.format(kind)}))"
            )
            for kind, sql in _ALL_SQL.items()
        )

    # -- reads ---------------------------------------------------------------------------
    def is_cached(self, text: str) -> bool:
        """Whether ``text``'s vector is remembered (embed_cached costs no model run)."""
        return text in self._vectors

    def embed_cached(self, texts: list[str]) -> Vectors:
        """Vectors of ``texts``, remembered by text: curated entries and repeated queries
        are embedded once, not on every recall (keys are contents, so live edits of the
        curated files are still seen)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            if len(self._vectors) + len(missing) > _CACHE_MAX:
                self._vectors.clear()
            for text, vector in zip(missing, self.embedder.embed_batch(missing), strict=True):
                self._vectors[text] = vector
        return (
            np.stack([self._vectors[t] for t in texts])
            if texts
            else np.zeros((0, self.embedder.dim), dtype=np.float32)
        )

    def search(self, query: str, owner: Owner, *, limit: int) -> list[VectorHit]:
        return self.search_vector(self.embed_cached([query])[0], owner, limit=limit)

    def search_vector(
        self, vector: np.ndarray, owner: Owner, *, limit: int, kinds: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        self._require_this_model()
        hits = self.store.search(vector, owner, limit=limit, kinds=kinds)
        if self.store.created:
            self.store.created = False
            if self.status().get("status") not in ("empty", "rebuilding", "needs_repair"):
                self.mark("needs_repair", last_error=VANISHED)
        return hits

    def counts(self, *, quick: bool = False) -> dict[str, Any]:
        """Truth vs vectors: items missing from the index, orphans (vectors of items
        that are gone or archived), duplicated chunk rows (``quick``: as the saved
        exact-search copy has them, without opening the table)."""
        truth_ids: set[str] = set()
        for sql in _ALL_SQL.values():
            truth_ids.update(r[0] for r in self.db.query(sql))
        truth = len(truth_ids)
        try:
            keys = self.store.row_keys(from_copy=quick)
            vectors: int | None = len(keys)
            indexed = {item for _, item in keys}
            items = len(indexed)
            missing = len(truth_ids - indexed)
            orphans = len(indexed - truth_ids)
            duplicates = len(keys) - len({row_id for row_id, _ in keys})
        except DerivedTierError:
            vectors, items, missing, orphans, duplicates = None, 0, truth, 0, 0
        return {
            "truth_items": truth,
            "vector_rows": vectors,
            "indexed_items": items,
            "missing": missing,
            "orphans": orphans,
            "duplicates": duplicates,
            "status": self.status().get("status"),
            "embedder": self.embedder.name,
            "degraded": self.embedder.degraded,
            "detail": json.dumps(
                {k: v for k, v in self.status().items() if k not in ("status",)}, default=str
            ),
        }


def _with_segments(
    rows: list[dict[str, Any]], embedded: list[Embedded]
) -> tuple[list[dict[str, Any]], Vectors]:
    """The chunk rows followed by a row per segment vector. Each item's segments are
    numbered on after its chunks; a segment row's text is its sentences."""
    chunks: dict[str, int] = {}
    for r in rows:
        chunks[r["item_uuid"]] = chunks.get(r["item_uuid"], 0) + 1
    out = list(rows)
    vectors = [np.asarray([e.vector for e in embedded], dtype=np.float32)]
    for r, e in zip(rows, embedded, strict=True):
        for (a, b), vector in zip(e.spans, e.segments, strict=True):
            number = chunks[r["item_uuid"]]
            chunks[r["item_uuid"]] = number + 1
            out.append(
                {**r, "id": f"{r['item_uuid']}#{number}", "chunk": number, "text": r["text"][a:b]}
            )
            vectors.append(vector[None, :])
    return out, np.concatenate(vectors).astype(np.float32, copy=False)
