"""Facts: the durable statements of tier 2, with dedupe, soft delete and audit."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hermes_memory.errors import AmbiguousMatchError, CapacityError, NotFoundError, ValidationError
from hermes_memory.tier2 import claims, journal
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.fts import (
    doc_count,
    filtered_match,
    more_than,
    planned_search,
    query_terms,
)
from hermes_memory.tier2.records import Fact, Owner, content_hash, new_uuid, owner_count

# Categories whose facts stay local to the session they were stored in.
LOCAL_CATEGORIES = frozenset({"scratch"})

UPDATABLE = frozenset(
    {
        "content",
        "category",
        "scope",
        "importance",
        "confidence",
        "expires_at",
        "metadata",
        "valid_at",
        "invalid_at",
    }
)


def mark_superseded(
    conn: sqlite3.Connection,
    old: sqlite3.Row,
    *,
    by: str,
    since: float,
    now: float,
    actor: str,
    reason: str,
    end_relations: bool = True,
    only: Sequence[str] = (),
) -> None:
    """End ``old`` at ``since`` because the fact ``by`` replaces it (never a delete);
    the relations it was evidence for end with it, unless ``end_relations`` is False
    (a plan moved to another day: "my sister Maya" is still so). ``only``: just its
    relations of these types end (a new manager ends "under Dana", not "at Northwind",
    said in the same sentence)."""
    conn.execute(
        "UPDATE facts SET invalid_at = ?, superseded_by = ?, updated_at = ? WHERE id = ?",
        (since, by, now, old["id"]),
    )
    if end_relations:
        types = f" AND relation_type IN ({','.join('?' * len(only))})" if only else ""
        conn.execute(
            "UPDATE relations SET invalid_at = ? WHERE evidence_fact = ? AND invalid_at IS NULL"
            + types,
            (since, old["uuid"], *only),
        )
    journal.audit(
        conn,
        now=now,
        action="fact_supersede",
        actor=actor,
        target_uuid=old["uuid"],
        diff={
            "old": {"invalid_at": None},
            "new": {"invalid_at": since, "superseded_by": by},
            "reason": reason,
        },
    )


def latest_formed(
    conn: sqlite3.Connection, owner: Owner, *, kind: str, category: str, exclude: int, limit: int
) -> list[sqlite3.Row]:
    """The owner's live facts formed from statements of ``kind`` ("plan"), newest
    first, inside the caller's transaction."""
    clause, params = owner.visible_clause()
    return conn.execute(
        f"SELECT * FROM facts WHERE category = ? AND source_type = 'formation' AND id != ? "
        "AND invalid_at IS NULL AND deleted_at IS NULL "
        f"AND json_extract(metadata, '$.formed') = ? AND {clause} ORDER BY id DESC LIMIT ?",
        (category, exclude, kind, *params, limit),
    ).fetchall()


def began_at(conn: sqlite3.Connection, fact_id: int) -> tuple[float, str, float]:
    """When the fact became true (its ``valid_at``, else when it was written), its
    words, and when it was written."""
    row = conn.execute(
        "SELECT valid_at, created_at, content FROM facts WHERE id = ?", (fact_id,)
    ).fetchone()
    began = row["valid_at"] if row["valid_at"] is not None else row["created_at"]
    return float(began), row["content"], float(row["created_at"])


def kept_to_one_chat(conn: sqlite3.Connection, fact_id: int) -> bool:
    """Whether the fact belongs to one chat only (category scratch: a session key)."""
    row = conn.execute("SELECT session_key FROM facts WHERE id = ?", (fact_id,)).fetchone()
    return bool(row is not None and row["session_key"])


def formed_from_a_turn(conn: sqlite3.Connection, fact_id: int) -> bool:
    """Whether the fact was formed from a turn (``source_type = 'formation'``): its
    dates are on the timeline through that turn."""
    row = conn.execute("SELECT source_type FROM facts WHERE id = ?", (fact_id,)).fetchone()
    return bool(row is not None and row["source_type"] == "formation")


@dataclass(frozen=True)
class FactHit:
    fact: Fact
    bm25: float  # FTS5 rank: more negative is better; 0.0 when not a text match


class FactStore:
    def __init__(self, db: Database, *, max_facts: int = 100_000) -> None:
        self.db = db
        self.max_facts = max_facts
        # newest_in's last answers, with the database generation they were read at.
        self._newest: dict[tuple[Any, ...], tuple[tuple[int, int], list[tuple[str, str]]]] = {}

    # -- writes -----------------------------------------------------------------
    def store(
        self,
        owner: Owner,
        *,
        content: str,
        category: str,
        scope: str,
        importance: float,
        confidence: float,
        source_type: str,
        source_id: str | None,
        now: float,
        actor: str,
        expires_at: float | None = None,
        valid_at: float | None = None,
        flags: Sequence[str] = (),
        metadata: dict[str, Any] | None = None,
        evidence_episodes: Sequence[str] = (),
    ) -> tuple[Fact, bool]:
        """Insert a fact; return it and whether it was new (False: exact duplicate)."""
        local = category in LOCAL_CATEGORIES
        cols = owner.columns(local=local)
        digest = content_hash(content)
        with self.db.transaction() as conn:
            existing = conn.execute(
                "SELECT * FROM facts WHERE content_hash = ? AND platform = ? AND agent = ? "
                "AND user_id = ? AND session_key = ? AND deleted_at IS NULL",
                (digest, *cols.values()),
            ).fetchone()
            if existing is not None:
                self._link_evidence(conn, existing["id"], owner, evidence_episodes)
                conn.execute(
                    "UPDATE facts SET importance = MAX(importance, ?), updated_at = ? WHERE id = ?",
                    (importance, now, existing["id"]),
                )
                journal.audit(
                    conn,
                    now=now,
                    action="fact_dedupe",
                    actor=actor,
                    target_uuid=existing["uuid"],
                    diff=None,
                )
                row = conn.execute("SELECT * FROM facts WHERE id = ?", (existing["id"],)).fetchone()
                return self._hydrate(conn, row), False
            live = owner_count(conn, "facts", owner)
            if live >= self.max_facts:
                raise CapacityError(
                    f"this owner holds {live:,} facts, the configured maximum per owner "
                    "(tier2.max_facts); consolidate or prune first",
                    limit=self.max_facts,
                )
            uid = new_uuid()
            cur = conn.execute(
                """INSERT INTO facts(uuid, content, content_hash, category, scope, importance,
                       confidence, source_type, source_id, platform, agent, user_id, session_key,
                       created_at, updated_at, expires_at, valid_at, flags, metadata)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    uid,
                    content,
                    digest,
                    category,
                    scope,
                    importance,
                    confidence,
                    source_type,
                    source_id,
                    *cols.values(),
                    now,
                    now,
                    expires_at,
                    valid_at if valid_at is not None else now,
                    json.dumps(list(flags)),
                    json.dumps(metadata or {}),
                ),
            )
            fact_id = cur.lastrowid
            self._link_evidence(conn, fact_id, owner, evidence_episodes)
            journal.audit(
                conn,
                now=now,
                action="fact_store",
                actor=actor,
                target_uuid=uid,
                diff={
                    "new": {
                        "content": content,
                        "category": category,
                        "scope": scope,
                        "importance": importance,
                    }
                },
            )
            journal.enqueue_embedding(conn, now=now, kind="fact", item_uuid=uid)
            row = conn.execute("SELECT * FROM facts WHERE id = ?", (fact_id,)).fetchone()
            if not evidence_episodes:  # a new fact's evidence is what it was given
                return Fact.from_row(row, []), True
            return self._hydrate(conn, row), True

    def update(
        self,
        owner: Owner,
        fact_uuid: str,
        changes: dict[str, Any],
        *,
        now: float,
        actor: str,
        flags: list[str] | None = None,
    ) -> Fact:
        """Apply ``changes``; ``flags`` (the guard's, for new content) replace the old."""
        unknown = set(changes) - UPDATABLE
        if unknown:
            raise ValidationError(
                f"cannot update {', '.join(sorted(unknown))} (updatable: "
                f"{', '.join(sorted(UPDATABLE))})",
                field="fields",
            )
        if not changes:
            raise ValidationError("nothing to update", field="fields")
        with self.db.transaction() as conn:
            row = self._visible_row(conn, owner, fact_uuid)
            if row["deleted_at"] is not None:
                raise NotFoundError("fact", fact_uuid)
            values = dict(changes)
            if "metadata" in values:
                values["metadata"] = json.dumps(values["metadata"])
            if flags is not None:
                values["flags"] = json.dumps(flags)
            if "category" in values:
                # Moving into or out of a local category moves the fact with it: a
                # scratch note belongs to this chat only, any other fact to the owner.
                values["session_key"] = owner.columns(local=values["category"] in LOCAL_CATEGORIES)[
                    "session_key"
                ]
            if "content" in values:
                digest = content_hash(values["content"])
                clash = conn.execute(
                    "SELECT uuid FROM facts WHERE content_hash = ? AND id != ? AND platform = ? "
                    "AND agent = ? AND user_id = ? AND session_key = ? AND deleted_at IS NULL",
                    (
                        digest,
                        row["id"],
                        row["platform"],
                        row["agent"],
                        row["user_id"],
                        row["session_key"],
                    ),
                ).fetchone()
                if clash:
                    raise ValidationError(
                        f"another fact already says this ({clash['uuid']})", field="content"
                    )
                claims.forget(conn, row["id"])  # read again from the new text
                values["content_hash"] = digest
            assignments = ", ".join(f"{k} = ?" for k in values)
            conn.execute(
                f"UPDATE facts SET {assignments}, updated_at = ? WHERE id = ?",
                (*values.values(), now, row["id"]),
            )
            old = {k: row[k] for k in changes}
            journal.audit(
                conn,
                now=now,
                action="fact_update",
                actor=actor,
                target_uuid=fact_uuid,
                diff={"old": old, "new": changes},
            )
            if "content" in changes or "category" in changes:  # the vector row's keys too
                journal.enqueue_embedding(conn, now=now, kind="fact", item_uuid=fact_uuid)
            fresh = conn.execute("SELECT * FROM facts WHERE id = ?", (row["id"],)).fetchone()
            return self._hydrate(conn, fresh)

    def delete(self, owner: Owner, fact_uuid: str, *, soft: bool, now: float, actor: str) -> Fact:
        with self.db.transaction() as conn:
            row = self._visible_row(conn, owner, fact_uuid)
            fact = self._hydrate(conn, row)
            if soft:
                if row["deleted_at"] is not None:
                    raise NotFoundError("fact", fact_uuid)
                conn.execute(
                    "UPDATE facts SET deleted_at = ?, updated_at = ? WHERE id = ?",
                    (now, now, row["id"]),
                )
            else:
                conn.execute("DELETE FROM facts WHERE id = ?", (row["id"],))
            journal.audit(
                conn,
                now=now,
                action="fact_delete" if soft else "fact_purge",
                actor=actor,
                target_uuid=fact_uuid,
                diff={"old": {"content": row["content"]}, "new": None},
            )
            journal.enqueue_embedding(conn, now=now, kind="fact", item_uuid=fact_uuid, op="delete")
            return fact

    def touch(self, rowids: Sequence[int], *, now: float) -> None:
        """Count an access (recall statistics feed importance in consolidation)."""
        if not rowids:
            return
        marks = ",".join("?" * len(rowids))
        with self.db.transaction() as conn:
            before = conn.total_changes
            conn.execute(
                f"UPDATE facts SET access_count = access_count + 1, last_accessed = ? "
                f"WHERE id IN ({marks})",
                (now, *rowids),
            )
            # Every recall counts its accesses: no cached read should wait on that.
            self.db.uncounted(conn.total_changes - before)

    # -- reads --------------------------------------------------------------------
    def get(self, owner: Owner, fact_uuid: str, *, include_deleted: bool = False) -> Fact:
        with self.db.snapshot() as conn:
            row = self._visible_row(conn, owner, fact_uuid)
            if row["deleted_at"] is not None and not include_deleted:
                raise NotFoundError("fact", fact_uuid)
            return self._hydrate(conn, row)

    def get_many(self, owner: Owner, uuids: Sequence[str]) -> dict[str, Fact]:
        if not uuids:
            return {}
        clause, params = owner.visible_clause(by_id=True)
        marks = ",".join("?" * len(uuids))
        with self.db.snapshot() as conn:
            rows = conn.execute(
                f"SELECT * FROM facts WHERE uuid IN ({marks}) AND deleted_at IS NULL AND {clause}",
                (*uuids, *params),
            ).fetchall()
            return {r["uuid"]: self._hydrate(conn, r) for r in rows}

    def search(
        self,
        owner: Owner,
        text: str,
        *,
        limit: int = 10,
        category: str | None = None,
        scope_prefix: str | None = None,
        min_confidence: float = 0.0,
        include_archived: bool = False,
        include_invalid: bool = True,
        source_type: str | None = None,
    ) -> list[FactHit]:
        """Facts matching ``text`` by BM25 (or, for empty text, the most important)."""
        filters, params = self._filters(
            owner, category, scope_prefix, min_confidence, include_archived, include_invalid
        )
        if source_type:
            filters += " AND f.source_type = ?"
            params.append(source_type)
        with self.db.snapshot() as conn:
            if not query_terms(text):
                rows = conn.execute(
                    f"SELECT f.*, 0.0 AS bm25 FROM facts f WHERE {filters} "
                    "ORDER BY f.importance DESC, f.created_at DESC LIMIT ?",
                    (*params, limit),
                ).fetchall()
                return [FactHit(self._hydrate(conn, r), 0.0) for r in rows]
            ranked = self._ranked(conn, text, filters, params, limit)
            return [FactHit(self._hydrate(conn, r), score) for r, score in ranked]

    def supersede(self, owner: Owner, old_uuid: str, *, by: str, now: float, actor: str) -> bool:
        """End the owner's fact ``old_uuid`` because ``by`` replaces it (as of when
        ``by`` holds); False when either is not this owner's live fact."""
        clause, params = owner.visible_clause(by_id=True)
        with self.db.transaction() as conn:
            old, new = (
                conn.execute(
                    f"SELECT * FROM facts WHERE uuid = ? AND {clause} AND deleted_at IS NULL",
                    (u, *params),
                ).fetchone()
                for u in (old_uuid, by)
            )
            if old is None or new is None or old["invalid_at"] is not None:
                return False
            since = new["valid_at"] if new["valid_at"] is not None else new["created_at"]
            mark_superseded(conn, old, by=by, since=since, now=now, actor=actor, reason="imported")
            return True

    def between(self, owner: Owner, start: float, end: float, *, limit: int) -> list[str]:
        """Uuids of the live facts recorded between ``start`` and ``end``, newest first."""
        clause, params = owner.visible_clause(by_id=True)  # stay on the time index
        rows = self.db.query(
            "SELECT uuid FROM facts WHERE created_at BETWEEN ? AND ? AND deleted_at IS NULL "
            f"AND is_archived = 0 AND {clause} ORDER BY created_at DESC LIMIT ?",
            (start, end, *params, limit),
        )
        return [r["uuid"] for r in rows]

    def superseded_statements(
        self, owner: Owner, episodes: Sequence[str], at: float
    ) -> dict[str, list[str]]:
        """For each turn of ``episodes`` (uuids) that a fact was formed from and a later
        fact had superseded by ``at``, what superseded it ("Change of plan: the beta
        moves to January 10th." for "The beta launch is planned for December 14th.").
        Turns with none are left out."""
        out: dict[str, list[str]] = {}
        for r in self._supersessions(owner, episodes, at):
            out.setdefault(r["episode"], []).append(r["content"])
        return out

    def successors(
        self, owner: Owner, episodes: Sequence[str], at: float
    ) -> list[tuple[str, str, str, list[str]]]:
        """(turn, what a fact formed from it said, the fact that superseded that one by
        ``at``, the turns that fact was formed from) for each of ``episodes`` (uuids)
        whose facts a later fact superseded."""
        return [
            (r["episode"], r["said"], r["new"], r["turns"].split(",") if r["turns"] else [])
            for r in self._supersessions(owner, episodes, at)
        ]

    def _supersessions(self, owner: Owner, episodes: Sequence[str], at: float) -> list[sqlite3.Row]:
        """The facts formed from ``episodes`` (uuids) that a later fact superseded by
        ``at``, in order: the turn, what it said, the superseding fact's uuid, content
        and the turns it was formed from (comma-joined)."""
        if not episodes:
            return []
        clause, params = owner.visible_clause("f")
        marks = ",".join("?" * len(episodes))
        return self.db.query(
            # CROSS JOIN keeps the turns outermost: without statistics the planner
            # would walk every one of the owner's facts instead (1.3 ms at 7,000).
            f"""SELECT e.uuid AS episode, f.content AS said, n.uuid AS new, n.content,
                       (SELECT group_concat(e2.uuid) FROM fact_evidence fe2
                        JOIN episodes e2 ON e2.id = fe2.episode_id
                        WHERE fe2.fact_id = n.id) AS turns
                FROM episodes e
                CROSS JOIN fact_evidence fe ON fe.episode_id = e.id
                CROSS JOIN facts f ON f.id = fe.fact_id
                JOIN facts n ON n.uuid = f.superseded_by AND n.deleted_at IS NULL
                WHERE e.uuid IN ({marks})
                  AND f.invalid_at <= ? AND f.deleted_at IS NULL AND {clause}
                ORDER BY f.id""",
            (*episodes, at, *params),
        )

    def newest_in(
        self, owner: Owner, categories: Sequence[str], *, limit: int
    ) -> list[tuple[str, str]]:
        """(uuid, content) of this owner's live, valid facts of ``categories``,
        newest first; read again only once the database has changed (every recall
        asks: ~5 ms at 25k facts)."""
        key = (owner, tuple(categories), limit)
        generation = self.db.generation()
        known = self._newest.get(key)
        if known is not None and known[0] == generation:
            return list(known[1])
        clause, params = owner.visible_clause(by_id=True)
        marks = ",".join("?" * len(categories))
        rows = self.db.query(
            f"SELECT uuid, content FROM facts WHERE category IN ({marks}) "
            "AND deleted_at IS NULL AND invalid_at IS NULL AND is_archived = 0 "
            f"AND {clause} ORDER BY id DESC LIMIT ?",
            (*categories, *params, limit),
        )
        found = [(r["uuid"], r["content"]) for r in rows]
        if len(self._newest) > 16:
            self._newest.clear()
        self._newest[key] = (generation, found)
        return list(found)

    def count(self, *, live_only: bool = True) -> int:
        if live_only:
            return int(self.db.scalar("SELECT n FROM live_counts WHERE name = 'facts'"))
        return int(self.db.scalar("SELECT COUNT(*) FROM facts"))

    # -- internals ------------------------------------------------------------------
    def _ranked(
        self, conn: sqlite3.Connection, text: str, filters: str, params: list[Any], limit: int
    ) -> list[tuple[sqlite3.Row, float]]:
        return planned_search(
            query_terms(text),
            self.count(),
            limit,
            more_than=lambda expr, n: more_than(conn, "facts_fts", expr, n),
            doc_count=lambda term: doc_count(conn, "facts_fts", term),
            match=lambda expr, n: filtered_match(conn, "facts", "f", filters, params, expr, n),
            content=lambda row: str(row["content"]),
        )

    @staticmethod
    def _filters(
        owner: Owner,
        category: str | None,
        scope_prefix: str | None,
        min_confidence: float,
        include_archived: bool,
        include_invalid: bool,
    ) -> tuple[str, list[Any]]:
        clause, params = owner.visible_clause("f")
        parts = [clause, "f.deleted_at IS NULL", "f.confidence >= ?"]
        values: list[Any] = [*params, min_confidence]
        if not include_archived:
            parts.append("f.is_archived = 0")
        if not include_invalid:
            parts.append("f.invalid_at IS NULL")
        if category:
            parts.append("f.category = ?")
            values.append(category)
        if scope_prefix and scope_prefix != "/":
            parts.append("(f.scope = ? OR f.scope LIKE ? ESCAPE '\\')")
            escaped = scope_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            values.extend([scope_prefix, escaped + "/%"])
        return " AND ".join(parts), values

    def resolve(self, owner: Owner, id_or_prefix: str) -> str:
        """The full id of this owner's fact that ``id_or_prefix`` names: the id itself,
        or a unique prefix of it (the CLI shows 8 characters). Several matches are an
        ``AmbiguousMatchError`` listing them; none is left to the lookup to report."""
        if len(id_or_prefix) >= 36 or len(id_or_prefix) < 4:
            return id_or_prefix
        clause, params = owner.visible_clause(by_id=True)
        rows = self.db.query(
            f"SELECT uuid, content FROM facts WHERE uuid >= ? AND uuid < ? AND {clause} LIMIT 6",
            (id_or_prefix, id_or_prefix + "\uffff", *params),
        )
        if len(rows) > 1:
            raise AmbiguousMatchError(id_or_prefix, [f"{r['uuid']} {r['content']}" for r in rows])
        return str(rows[0]["uuid"]) if rows else id_or_prefix

    @staticmethod
    def _visible_row(conn: sqlite3.Connection, owner: Owner, fact_uuid: str) -> sqlite3.Row:
        clause, params = owner.visible_clause(by_id=True)
        row = conn.execute(
            f"SELECT * FROM facts WHERE uuid = ? AND {clause}", (fact_uuid, *params)
        ).fetchone()
        if row is None:
            raise NotFoundError("fact", fact_uuid)
        return row

    @staticmethod
    def _link_evidence(
        conn: sqlite3.Connection, fact_id: int | None, owner: Owner, episode_uuids: Sequence[str]
    ) -> None:
        if not episode_uuids or fact_id is None:
            return
        clause, params = owner.visible_clause(by_id=True)
        for ep in episode_uuids:
            hit = conn.execute(
                f"SELECT id FROM episodes WHERE uuid = ? AND {clause}", (ep, *params)
            ).fetchone()
            if hit is None:
                raise NotFoundError("episode", ep)
            conn.execute(
                "INSERT OR IGNORE INTO fact_evidence(fact_id, episode_id) VALUES (?, ?)",
                (fact_id, hit["id"]),
            )

    @staticmethod
    def _hydrate(conn: sqlite3.Connection, row: sqlite3.Row) -> Fact:
        evidence = [
            r[0]
            for r in conn.execute(
                "SELECT e.message_id FROM fact_evidence fe JOIN episodes e ON e.id = fe.episode_id "
                "WHERE fe.fact_id = ? ORDER BY e.timestamp",
                (row["id"],),
            )
        ]
        return Fact.from_row(row, evidence)
