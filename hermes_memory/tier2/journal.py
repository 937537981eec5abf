"""Side records written inside every write transaction: audit log and embed outbox."""

from __future__ import annotations

import json
import sqlite3
from typing import Any


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
