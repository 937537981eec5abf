"""An owner's rows in the order an export writes them (``api/export.py`` shapes them
into import lines): what they can see, live, oldest first."""

from __future__ import annotations

import sqlite3

from hermes_memory.tier2.db import Database
from hermes_memory.tier2.records import Owner


def turns(db: Database, owner: Owner) -> list[sqlite3.Row]:
    clause, params = owner.visible_clause()
    return db.query(
        f"SELECT * FROM episodes WHERE {clause} AND deleted_at IS NULL ORDER BY timestamp, id",
        params,
    )


def facts(db: Database, owner: Owner) -> list[sqlite3.Row]:
    """Live facts not merged into another, in the order they were recorded."""
    clause, params = owner.visible_clause("f")
    return db.query(
        f"SELECT f.* FROM facts f WHERE {clause} AND f.deleted_at IS NULL "
        "AND f.merged_into IS NULL ORDER BY f.created_at, f.id",
        params,
    )


def evidence_messages(db: Database, owner: Owner) -> dict[int, list[str]]:
    """Fact row id -> the message ids of the turns it was drawn from, by time."""
    clause, params = owner.visible_clause("f")
    out: dict[int, list[str]] = {}
    for e in db.query(
        f"SELECT fe.fact_id, e.message_id FROM fact_evidence fe "
        f"JOIN episodes e ON e.id = fe.episode_id JOIN facts f ON f.id = fe.fact_id "
        f"WHERE {clause} ORDER BY e.timestamp",
        params,
    ):
        out.setdefault(e["fact_id"], []).append(e["message_id"])
    return out


def entities(db: Database, owner: Owner) -> list[sqlite3.Row]:
    """Live entities added directly (through ``entity_add`` or ``entity_link``, not
    read from a fact or turn) and not merged into another, first seen first."""
    clause, params = owner.durable_clause()
    return db.query(
        f"SELECT * FROM entities WHERE {clause} AND deleted_at IS NULL "
        "AND merged_into IS NULL AND derived_by IS NULL ORDER BY first_seen, id",
        params,
    )


def stated_relations(db: Database, owner: Owner) -> list[sqlite3.Row]:
    """Valid relations stated directly (through ``entity_link``, not read from a fact
    or turn), with the names of both ends: ``head``, ``relation_type``, ``tail``,
    ``strength``."""
    clause, params = owner.durable_clause("r")
    return db.query(
        f"""SELECT a.name AS head, r.relation_type, b.name AS tail, r.strength
            FROM relations r JOIN entities a ON a.uuid = r.from_entity
            JOIN entities b ON b.uuid = r.to_entity
            WHERE {clause} AND r.deleted_at IS NULL AND r.invalid_at IS NULL
              AND r.derived_by IS NULL
            ORDER BY r.created_at, r.id""",
        params,
    )


def events(db: Database, owner: Owner, *, except_type: str) -> list[sqlite3.Row]:
    """Live timeline events but those of ``except_type``, by time."""
    clause, params = owner.visible_clause()
    return db.query(
        f"SELECT * FROM timeline WHERE {clause} AND deleted_at IS NULL "
        "AND event_type != ? ORDER BY timestamp, id",
        (*params, except_type),
    )
