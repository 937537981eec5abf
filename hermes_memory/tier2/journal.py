"""Side records written inside every write transaction: audit log and embed outbox,
and the outbox's bookkeeping for tier 3's drain (due rows, done, retry, poison)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from hermes_memory.tier2.db import Database


def audit(
    conn: sqlite3.Connection,
    *,
    now: float,
    action: str,
    actor: str,
    target_uuid: str | None,
    diff: dict[str, Any] | None,
    tier: str = "tier2",
) -> None:
    """Record a write; ``diff`` is ``{"old": ..., "new": ...}`` of the changed fields."""
    conn.execute(
        "INSERT INTO audit_log(timestamp, action, tier, actor, target_uuid, diff) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (now, action, tier, actor, target_uuid, json.dumps(diff, default=str) if diff else None),
    )


def enqueue_embedding(
    conn: sqlite3.Connection, *, now: float, kind: str, item_uuid: str, op: str = "upsert"
) -> None:
    """Ask tier 3 to (re)index or drop an item; the newest request for an item wins."""
    conn.execute(
        """INSERT INTO embed_queue(item_kind, item_uuid, op, enqueued_at)
           VALUES (?, ?, ?, ?)
           ON CONFLICT(item_kind, item_uuid) DO UPDATE SET
               op = excluded.op, enqueued_at = excluded.enqueued_at,
               attempts = 0, next_attempt_at = 0, last_error = NULL, status = 'pending'""",
        (kind, item_uuid, op, now),
    )


def due(db: Database, now: float, limit: int) -> list[sqlite3.Row]:
    """Pending outbox rows whose retry time has come, oldest first."""
    return db.query(
        "SELECT * FROM embed_queue WHERE status = 'pending' AND next_attempt_at <= ? "
        "ORDER BY id LIMIT ?",
        (now, limit),
    )


def pending_for(db: Database, items: Sequence[str]) -> list[sqlite3.Row]:
    """The pending outbox rows of ``items``."""
    rows: list[sqlite3.Row] = []
    for start in range(0, len(items), 500):  # under SQLite's bound-variable limit
        part = list(items[start : start + 500])
        marks = ",".join("?" * len(part))
        rows.extend(
            db.query(
                f"SELECT * FROM embed_queue WHERE status = 'pending' AND item_uuid IN ({marks})",
                part,
            )
        )
    return rows


def done(db: Database, rows: Sequence[Any]) -> None:
    """The requests in ``rows`` are carried out; a newer request for the same item that
    arrived meanwhile stays."""
    with db.transaction() as conn:
        conn.executemany(
            "DELETE FROM embed_queue WHERE id = ? AND enqueued_at = ?",
            [(r["id"], r["enqueued_at"]) for r in rows],
        )


def retry_later(
    db: Database, rows: Sequence[Any], error: str, *, now: float, max_attempts: int
) -> None:
    """Back off each row (30 s x 2^attempts); past ``max_attempts`` it is parked as poison."""
    with db.transaction() as conn:
        for r in rows:
            attempts = r["attempts"] + 1
            status = "poison" if attempts >= max_attempts else "pending"
            conn.execute(
                "UPDATE embed_queue SET attempts = ?, next_attempt_at = ?, last_error = ?, "
                "status = ? WHERE id = ? AND enqueued_at = ?",
                (attempts, now + 30 * 2**attempts, error[:500], status, r["id"], r["enqueued_at"]),
            )


def retry_poison(db: Database) -> int:
    """Give parked (poison) rows another round of attempts; how many."""
    with db.transaction() as conn:
        cur = conn.execute(
            "UPDATE embed_queue SET status = 'pending', attempts = 0, next_attempt_at = 0 "
            "WHERE status = 'poison'"
        )
        return cur.rowcount


def clear(db: Database) -> None:
    """Every request is moot (tier 3 was rebuilt from the truth)."""
    with db.transaction() as conn:
        conn.execute("DELETE FROM embed_queue")
