"""Facts behind the facade's ``fact_store`` and ``fact_update``: arguments checked and
screened, the text read for the graph before the write lock, the fact and what it links
written in one transaction (``MemoryAPI`` wraps each with ``run``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hermes_memory.text.temporal import event_time
from hermes_memory.validation import (
    optional_text,
    optional_time,
    require_choice,
    require_id,
    require_id_list,
    require_metadata,
    require_scope_path,
    require_unit,
)

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

# Where a fact came from (``source``).
SOURCE_TYPES = (
    "user", "session", "memory", "tool", "cron", "import", "extraction", "formation",
)  # fmt: skip


def store(
    api: MemoryAPI,
    content: str,
    category: str,
    confidence: float,
    source: str,
    *,
    importance: float,
    scope: str,
    source_id: str | None,
    expires_at: float | str | None,
    valid_at: float | str | None,
    metadata: dict[str, Any] | None,
    evidence_ids: Sequence[str],
) -> tuple[Any, dict[str, Any]]:
    text, flags = api.screen(content, "content")
    now = api.clock()
    valid = optional_time(valid_at, "valid_at")
    reading = api.reading(text, now)  # before the write lock, not under it
    with api.db.transaction():  # the fact and what it links are one write
        fact, created = api.facts.store(
            api.owner,
            content=text,
            category=require_choice(category, "category", api.config.tier2.categories),
            scope=require_scope_path(scope),
            importance=require_unit(importance, "importance"),
            confidence=require_unit(confidence, "confidence"),
            source_type=require_choice(source, "source", SOURCE_TYPES),
            source_id=optional_text(source_id, "source_id"),
            now=now,
            actor=api.actor,
            expires_at=optional_time(expires_at, "expires_at"),
            # An undated fact reporting a past event ("last week") is valid from then.
            valid_at=valid if valid is not None else event_time(text, now),
            flags=flags,
            metadata=require_metadata(metadata),
            evidence_episodes=require_id_list(evidence_ids, "evidence_ids"),
        )
        links = api.link("fact", fact.rowid, fact.uuid, text, reading) if created else None
    return fact.to_dict(), {
        "created": created,
        "deduplicated": not created,
        "graph": links.to_dict() if links else {},
        # The entities a write introduces wait in the outbox for the embed job:
        # recall searches facts and turns, and a message naming many things
        # would otherwise pay for every name's vector on the write path.
        **api.index_now([fact.uuid]),
    }


def update(api: MemoryAPI, uuid: str, fields: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    changes: dict[str, Any] = {}
    flags: list[str] = []
    for key, value in fields.items():
        if key == "content":
            # A flagged text stays flagged: the guard's verdict goes with it.
            changes[key], flags = api.screen(value, "content")
        elif key in ("importance", "confidence"):
            changes[key] = require_unit(value, key)
        elif key == "category":
            changes[key] = require_choice(value, key, api.config.tier2.categories)
        elif key == "scope":
            changes[key] = require_scope_path(value)
        elif key in ("expires_at", "valid_at", "invalid_at"):
            changes[key] = optional_time(value, key)
        elif key == "metadata":
            changes[key] = require_metadata(value)
        else:
            changes[key] = value  # the store names unknown fields in its error
    fact = api.facts.update(
        api.owner,
        api.facts.resolve(api.owner, require_id(uuid, "uuid")),
        changes,
        now=api.clock(),
        actor=api.actor,
        flags=flags if "content" in changes else None,
    )
    return fact.to_dict(), api.index_now([fact.uuid])
