"""Facts behind the facade's ``fact_store`` and ``fact_update``: arguments checked and
screened, the text read for the graph before the write lock, the fact and what it links
written in one transaction (``MemoryAPI`` wraps each with ``run``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hermes_memory.text.extract import extract
from hermes_memory.text.supersession import recorded
from hermes_memory.text.temporal import event_time
from hermes_memory.text.version import EXTRACTOR_VERSION
from hermes_memory.tier2 import claims
from hermes_memory.tier2 import health as tier2_health
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
    from hermes_memory.graph.linker import Reading

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
            valid_at=valid if valid is not None else _valid_from(text, reading, now),
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


def _valid_from(text: str, reading: Reading | None, now: float) -> float | None:
    """When an undated fact holds from: the past event it reports ("last week"), or the
    day a change it announces is to take effect (``Reading.starts``: "I'm moving to
    Berlin in March")."""
    reported = event_time(text, now)
    return reported if reported is not None or reading is None else reading.starts


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


# The claims stored for supersession are derived from each fact's text by the extractor;
# its version, recorded here, says when they are stale (read again by consolidate, or
# `doctor --repair`), so an extractor change needs no schema migration.
CLAIMS_STATE = "claims"
CLAIMS_BATCH = 500


def adopt_claims_version(api: MemoryAPI) -> None:
    """A store without facts has no stale claims: it starts at this extractor version
    (a store from before versions were recorded has facts, and is read again)."""
    if CLAIMS_STATE in tier2_health.derived_status(api.db):
        return
    if not claims.any_fact(api.db):
        tier2_health.set_derived_status(
            api.db, CLAIMS_STATE, "ok", api.clock(), extractor=EXTRACTOR_VERSION
        )


def claims_stale(api: MemoryAPI) -> bool:
    """Whether the stored claims were read by another extractor version than this one."""
    state = tier2_health.derived_status(api.db).get(CLAIMS_STATE, {})
    return state.get("extractor") != EXTRACTOR_VERSION


def claims_waiting(api: MemoryAPI) -> int:
    """How many facts ``read_claims`` would read: every live one when stale."""
    if claims_stale(api):
        return api.facts.count()
    return claims.count_unread(api.db)


def read_claims(
    api: MemoryAPI,
    *,
    check: Callable[[], None] = lambda: None,
    advance: Callable[[int], None] = lambda n: None,
) -> int:
    """Read and store the claims of every fact not read yet (all of them, when the
    extractor changed), a batch at a time; extraction runs outside the write lock, and a
    fact edited meanwhile is left for its next read. How many facts were read."""
    if claims_stale(api):
        with api.db.transaction() as conn:
            claims.reread_all(conn)
    done = 0
    after = 0
    while True:
        check()
        rows = claims.unread(api.db, CLAIMS_BATCH, after=after)
        read = [(r["id"], r["content"], recorded(extract(r["content"]).claims)) for r in rows]
        claims.record_read(api.db, read)
        done += len(read)
        advance(len(read))
        if len(rows) < CLAIMS_BATCH:
            break
        after = rows[-1]["id"]
    tier2_health.set_derived_status(
        api.db, CLAIMS_STATE, "ok", api.clock(), extractor=EXTRACTOR_VERSION
    )
    return done
