"""Typed rows of tier 2 and the isolation key every owned row carries."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import uuid as uuid_mod
from dataclasses import dataclass, field
from typing import Any

from hermes_memory.clock import to_iso


@dataclass(frozen=True)
class Owner:
    """Who a row belongs to. ``session`` is the local chat/thread/session key.

    Durable rows are stored with ``session_key = ''`` and are visible in every
    session of the same platform/agent/user; local rows carry the session key and
    are visible only there.
    """

    platform: str = ""
    agent: str = ""
    user_id: str = ""
    session: str = ""

    def visible_clause(self, alias: str = "", *, by_id: bool = False) -> tuple[str, list[str]]:
        """Rows this owner may see. ``by_id``: the query selects by uuid, so keep
        SQLite on the uuid index (unary ``+`` takes the owner index out of the
        running; picking it scans every row of the owner)."""
        p = ("+" if by_id else "") + (f"{alias}." if alias else "")
        sql = f"{p}platform = ? AND {p}agent = ? AND {p}user_id = ? AND {p}session_key IN ('', ?)"
        return sql, [self.platform, self.agent, self.user_id, self.session]

    def durable_clause(self, alias: str = "") -> tuple[str, list[str]]:
        """This owner's rows shared across sessions (entities, relations, ...)."""
        p = f"{alias}." if alias else ""
        sql = f"{p}platform = ? AND {p}agent = ? AND {p}user_id = ? AND {p}session_key = ''"
        return sql, [self.platform, self.agent, self.user_id]

    def columns(self, *, local: bool) -> dict[str, str]:
        return {
            "platform": self.platform,
            "agent": self.agent,
            "user_id": self.user_id,
            "session_key": self.session if local else "",
        }


def owner_count(conn: sqlite3.Connection, table: str, owner: Owner) -> int:
    """Live rows of ``table`` (facts, entities) that belong to ``owner`` (migration 11)."""
    row = conn.execute(
        "SELECT n FROM owner_counts WHERE name = ? AND platform = ? AND agent = ? AND user_id = ?",
        (table, owner.platform, owner.agent, owner.user_id),
    ).fetchone()
    return int(row[0]) if row else 0


def new_uuid() -> str:
    return str(uuid_mod.uuid4())


_SPACE = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """Case- and whitespace-insensitive form used for exact-duplicate detection."""
    return _SPACE.sub(" ", text).strip().casefold()


def content_hash(text: str) -> str:
    return hashlib.sha256(normalize_text(text).encode("utf-8")).hexdigest()


def _loads(raw: str | None, default: Any) -> Any:
    if not raw:
        return default
    if raw == "[]":  # most rows' flags, aliases and metadata: no parse
        return []
    if raw == "{}":
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return default


@dataclass(frozen=True)
class Fact:
    uuid: str
    content: str
    category: str
    scope: str
    importance: float
    confidence: float
    source_type: str
    source_id: str | None
    created_at: float
    updated_at: float
    expires_at: float | None
    valid_at: float | None
    invalid_at: float | None
    expired_at: float | None
    superseded_by: str | None
    access_count: int
    last_accessed: float | None
    is_archived: bool
    deleted_at: float | None
    session_key: str
    flags: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    evidence_ids: list[str] = field(default_factory=list)
    rowid: int = 0
    merged_into: str | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row, evidence_ids: list[str] | None = None) -> Fact:
        return cls(
            uuid=row["uuid"],
            content=row["content"],
            category=row["category"],
            scope=row["scope"],
            importance=row["importance"],
            confidence=row["confidence"],
            source_type=row["source_type"],
            source_id=row["source_id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            expires_at=row["expires_at"],
            valid_at=row["valid_at"],
            invalid_at=row["invalid_at"],
            expired_at=row["expired_at"],
            superseded_by=row["superseded_by"],
            access_count=row["access_count"],
            last_accessed=row["last_accessed"],
            is_archived=bool(row["is_archived"]),
            deleted_at=row["deleted_at"],
            session_key=row["session_key"],
            flags=_loads(row["flags"], []),
            metadata=_loads(row["metadata"], {}),
            evidence_ids=evidence_ids or [],
            rowid=row["id"],
            merged_into=row["merged_into"],
        )

    @property
    def is_current(self) -> bool:
        return self.deleted_at is None and not self.is_archived and self.invalid_at is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "content": self.content,
            "category": self.category,
            "scope": self.scope,
            "importance": self.importance,
            "confidence": self.confidence,
            "source_type": self.source_type,
            "source_id": self.source_id,
            "created_at": to_iso(self.created_at),
            "updated_at": to_iso(self.updated_at),
            "expires_at": to_iso(self.expires_at),
            "valid_at": to_iso(self.valid_at),
            "invalid_at": to_iso(self.invalid_at),
            "superseded_by": self.superseded_by,
            "access_count": self.access_count,
            "is_archived": self.is_archived,
            "deleted": self.deleted_at is not None,
            "merged_into": self.merged_into,
            "local": bool(self.session_key),
            "flags": self.flags,
            "metadata": self.metadata,
            "evidence_ids": self.evidence_ids,
        }


@dataclass(frozen=True)
class Episode:
    uuid: str
    session_id: str
    message_id: str
    speaker: str
    text: str
    timestamp: float
    created_at: float
    flags: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    rowid: int = 0

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Episode:
        return cls(
            uuid=row["uuid"],
            session_id=row["session_id"],
            message_id=row["message_id"],
            speaker=row["speaker"],
            text=row["text"],
            timestamp=row["timestamp"],
            created_at=row["created_at"],
            flags=_loads(row["flags"], []),
            metadata=_loads(row["metadata"], {}),
            rowid=row["id"],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "session_id": self.session_id,
            "message_id": self.message_id,
            "speaker": self.speaker,
            "text": self.text,
            "timestamp": to_iso(self.timestamp),
            "flags": self.flags,
            "metadata": self.metadata,
        }


@dataclass(frozen=True)
class Entity:
    uuid: str
    name: str
    entity_type: str
    aliases: list[str]
    description: str | None
    first_seen: float
    last_seen: float
    occurrence_count: int
    metadata: dict[str, Any] = field(default_factory=dict)
    rowid: int = 0

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Entity:
        return cls(
            uuid=row["uuid"],
            name=row["name"],
            entity_type=row["entity_type"],
            aliases=_loads(row["aliases"], []),
            description=row["description"],
            first_seen=row["first_seen"],
            last_seen=row["last_seen"],
            occurrence_count=row["occurrence_count"],
            metadata=_loads(row["metadata"], {}),
            rowid=row["id"],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "name": self.name,
            "entity_type": self.entity_type,
            "aliases": self.aliases,
            "description": self.description,
            "first_seen": to_iso(self.first_seen),
            "last_seen": to_iso(self.last_seen),
            "occurrence_count": self.occurrence_count,
        }


@dataclass(frozen=True)
class Relation:
    uuid: str
    from_entity: str
    to_entity: str
    relation_type: str
    strength: float
    evidence_fact: str | None
    created_at: float
    updated_at: float
    valid_at: float | None
    invalid_at: float | None
    from_name: str = ""
    to_name: str = ""

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Relation:
        keys = row.keys()
        return cls(
            uuid=row["uuid"],
            from_entity=row["from_entity"],
            to_entity=row["to_entity"],
            relation_type=row["relation_type"],
            strength=row["strength"],
            evidence_fact=row["evidence_fact"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            valid_at=row["valid_at"],
            invalid_at=row["invalid_at"],
            from_name=row["from_name"] if "from_name" in keys else "",
            to_name=row["to_name"] if "to_name" in keys else "",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "from": self.from_name or self.from_entity,
            "to": self.to_name or self.to_entity,
            "from_uuid": self.from_entity,
            "to_uuid": self.to_entity,
            "relation": self.relation_type,
            "strength": self.strength,
            "evidence_fact": self.evidence_fact,
            "valid_at": to_iso(self.valid_at),
            "invalid_at": to_iso(self.invalid_at),
        }


@dataclass(frozen=True)
class TimelineEvent:
    uuid: str
    event_type: str
    title: str
    description: str | None
    related_entities: list[str]
    related_facts: list[str]
    session_id: str | None
    timestamp: float
    importance: float
    created_at: float
    rowid: int = 0
    flags: list[str] = field(default_factory=list)
    # A ``mentioned_date`` event's text: (its kind, "fact" or "episode", and uuid).
    source: tuple[str, str] | None = None
    # How precisely that text said the date ("day", "month", "quarter", ...).
    precision: str | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> TimelineEvent:
        meta = _loads(row["metadata"], {})
        source = (meta["source_kind"], meta["source_uuid"]) if "source_uuid" in meta else None
        return cls(
            uuid=row["uuid"],
            event_type=row["event_type"],
            title=row["title"],
            description=row["description"],
            related_entities=_loads(row["related_entities"], []),
            related_facts=_loads(row["related_facts"], []),
            session_id=row["session_id"],
            timestamp=row["timestamp"],
            importance=row["importance"],
            created_at=row["created_at"],
            rowid=row["id"],
            flags=_loads(row["flags"], []),
            source=source,
            precision=meta.get("precision"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "event_type": self.event_type,
            "title": self.title,
            "description": self.description,
            "related_entities": self.related_entities,
            "related_facts": self.related_facts,
            "session_id": self.session_id,
            "timestamp": to_iso(self.timestamp),
            "importance": self.importance,
            "flags": self.flags,
            **({"source": {"kind": self.source[0], "uuid": self.source[1]}} if self.source else {}),
            **({"precision": self.precision} if self.precision else {}),
        }
