"""The rows maintenance works on, and its writes: what the consolidate and prune jobs
read and change in tier 2, so that no job writes SQL of its own.

Every write re-checks, inside its transaction, that a row is still as it was read
(live, unchanged, still due), so the jobs can run beside the agent's writes, be
killed at any point and run again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from hermes_memory.tier2 import journal
from hermes_memory.tier2.db import Database

OWNER_COLUMNS = ("platform", "agent", "user_id", "session_key")
_LIVE_VALID = "deleted_at IS NULL AND is_archived = 0 AND invalid_at IS NULL"

# -- consolidate --------------------------------------------------------------------------


def facts_to_compare(db: Database) -> list[sqlite3.Row]:
    """Every live, valid fact with what near-duplicate merging ranks it by."""
    return db.query(
        f"SELECT id, content, scope, importance, confidence, access_count, created_at, "
        f"platform, agent, user_id, session_key FROM facts WHERE {_LIVE_VALID}"
    )


def claims_of_valid_facts(db: Database) -> list[sqlite3.Row]:
    """The stored claims of live, valid facts, oldest statement first (``t``: when the
    fact became true, else when it was written)."""
    return db.query(
        """SELECT f.id, f.uuid, COALESCE(f.valid_at, f.created_at) AS t, f.platform,
                   f.agent, f.user_id, f.session_key, c.subject, c.predicate, c.object
            FROM fact_claims c JOIN facts f ON f.id = c.fact_id
            WHERE f.deleted_at IS NULL AND f.is_archived = 0 AND f.invalid_at IS NULL
            ORDER BY t, f.id"""
    )


def live_entities(db: Database) -> list[dict[str, Any]]:
    """Every live entity with its aliases decoded, for duplicate merging."""
    rows = db.query(
        "SELECT id, name, entity_type, aliases, occurrence_count, first_seen, platform, "
        "agent, user_id, session_key FROM entities WHERE deleted_at IS NULL"
    )
    out = []
    for r in rows:
        item = dict(r)
        item["aliases"] = json.loads(r["aliases"] or "[]")
        out.append(item)
    return out


def guessed_people(db: Database, limit: int, after: int = 0) -> tuple[list[sqlite3.Row], int]:
    """Live people of one word read from text (a sentence's capitalised first word may
    have been one), with whose they are: half of ``limit`` the most recently seen, the
    rest the next by id after ``after``, wrapping round to the first, so that every one
    is checked in turn however many there are. Returns them and where the next turn
    starts."""
    cols = "id, uuid, name, platform, agent, user_id, session_key"
    where = (
        "deleted_at IS NULL AND derived_by IS NOT NULL AND entity_type = 'person' "
        "AND instr(name, ' ') = 0"
    )
    recent = db.query(
        f"SELECT {cols} FROM entities WHERE {where} ORDER BY last_seen DESC, id DESC LIMIT ?",
        (limit - limit // 2,),
    )
    turn = db.query(
        f"SELECT {cols} FROM entities WHERE {where} AND id > ? ORDER BY id LIMIT ?",
        (after, limit // 2),
    )
    nxt = turn[-1]["id"] if turn else 0
    if len(turn) < limit // 2:  # the end reached: the next run starts from the first
        turn += db.query(
            f"SELECT {cols} FROM entities WHERE {where} AND id <= ? ORDER BY id LIMIT ?",
            (after, limit // 2 - len(turn)),
        )
        nxt = 0 if not turn or turn[-1]["id"] >= after else turn[-1]["id"]
    out: dict[int, sqlite3.Row] = {}
    for r in [*recent, *turn]:
        out.setdefault(r["id"], r)
    return list(out.values()), nxt


def texts_mentioning(db: Database, entity_id: int, limit: int) -> list[sqlite3.Row]:
    """The live facts and turns recorded to mention the entity (at most ``limit``): kind,
    id, uuid, text, speaker and time, as ``texts_to_reread`` names them."""
    return db.query(
        "SELECT * FROM (SELECT 'fact' AS kind, f.id, f.uuid, f.content AS text, "
        "NULL AS speaker, f.created_at AS t FROM mentions m JOIN facts f "
        "ON m.item_kind = 'fact' AND f.id = m.item_id WHERE m.entity_id = ? "
        "AND f.deleted_at IS NULL AND f.invalid_at IS NULL "
        "UNION ALL SELECT 'episode', e.id, e.uuid, e.text, e.speaker, e.timestamp "
        "FROM mentions m JOIN episodes e ON m.item_kind = 'episode' AND e.id = m.item_id "
        "WHERE m.entity_id = ? AND e.deleted_at IS NULL) LIMIT ?",
        (entity_id, entity_id, limit),
    )


_TEXT_OF = {
    "fact": "SELECT id, uuid, content AS text, NULL AS speaker, created_at AS t, platform, "
    "agent, user_id, session_key FROM facts "
    "WHERE deleted_at IS NULL AND invalid_at IS NULL AND id > ? ORDER BY id LIMIT ?",
    "episode": "SELECT id, uuid, text, speaker, timestamp AS t, platform, agent, user_id, "
    "session_key FROM episodes WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?",
}


def texts_to_reread(db: Database, kind: str, *, after: int, limit: int) -> list[sqlite3.Row]:
    """The next ``limit`` live facts (still valid) or turns after row ``after``, with
    the text the graph was read from and whose it is."""
    return db.query(_TEXT_OF[kind], (after, limit))


def any_text(db: Database) -> bool:
    """Whether the store holds any fact or turn, deleted or not."""
    return bool(db.scalar("SELECT EXISTS (SELECT 1 FROM facts) OR EXISTS (SELECT 1 FROM episodes)"))


def count_texts(db: Database) -> int:
    """How many facts and turns ``texts_to_reread`` goes through."""
    return int(
        db.scalar(
            "SELECT (SELECT COUNT(*) FROM facts WHERE deleted_at IS NULL AND invalid_at IS NULL)"
            " + (SELECT COUNT(*) FROM episodes WHERE deleted_at IS NULL)"
        )
    )


def reinforce_importance(db: Database, reinforced: Callable[[float, int], float]) -> int:
    """Fold the uses counted since the last run into each fact's importance
    (``reinforced(importance, new_uses)``); the number of facts changed."""
    rows = db.query(
        "SELECT id, importance, access_count, access_counted FROM facts "
        "WHERE access_count > access_counted AND deleted_at IS NULL"
    )
    updates = [
        (
            round(reinforced(r["importance"], r["access_count"] - r["access_counted"]), 6),
            r["access_count"],
            r["id"],
            r["access_counted"],
        )
        for r in rows
    ]
    with db.transaction() as conn:
        # Only rows whose counter is still as read: a concurrent use is folded in by
        # the next run instead of being lost.
        cur = conn.executemany(
            "UPDATE facts SET importance = ?, access_counted = ? "
            "WHERE id = ? AND access_counted = ?",
            updates,
        )
        return cur.rowcount if cur.rowcount > 0 else 0


# -- prune --------------------------------------------------------------------------------

# Parameters: now, importance_below, stale_before.
_DUE = """((expires_at IS NOT NULL AND expires_at <= ?)
           OR (importance < ? AND invalid_at IS NULL
               AND MAX(created_at, updated_at, COALESCE(last_accessed, 0)) <= ?))"""


def facts_due_for_archive(
    db: Database, *, now: float, importance_below: float, stale_before: float
) -> list[sqlite3.Row]:
    """Live facts past ``expires_at``, or below ``importance_below`` and unused and
    unchanged since ``stale_before``."""
    return db.query(
        f"SELECT id, uuid, expires_at FROM facts "
        f"WHERE deleted_at IS NULL AND is_archived = 0 AND {_DUE}",
        (now, importance_below, stale_before),
    )


def archive_facts(
    db: Database,
    rows: Sequence[sqlite3.Row],
    *,
    now: float,
    importance_below: float,
    stale_before: float,
    actor: str,
    reason: Callable[[sqlite3.Row], str],
) -> list[str]:
    """Archive ``rows`` (from :func:`facts_due_for_archive`) in one transaction: out
    of search and the vector index, still readable by id. A fact used or changed
    since it was read stays. The uuids archived."""
    done: list[str] = []
    with db.transaction() as conn:
        for r in rows:
            cur = conn.execute(
                f"UPDATE facts SET is_archived = 1, archived_at = ? "
                f"WHERE id = ? AND deleted_at IS NULL AND is_archived = 0 AND {_DUE}",
                (now, r["id"], now, importance_below, stale_before),
            )
            if cur.rowcount != 1:
                continue
            journal.audit(
                conn,
                now=now,
                action="fact_archive",
                actor=actor,
                target_uuid=r["uuid"],
                diff={"old": {"is_archived": False}, "new": {"is_archived": True},
                      "reason": reason(r)},
            )  # fmt: skip
            journal.enqueue_embedding(conn, now=now, kind="fact", item_uuid=r["uuid"], op="delete")
            done.append(r["uuid"])
    return done


def turns_to_unindex(db: Database, *, stored_before: float) -> list[sqlite3.Row]:
    """Live turns stored before ``stored_before`` that are still in the vector index."""
    return db.query(
        "SELECT id, uuid FROM episodes WHERE created_at <= ? AND unindexed_at IS NULL "
        "AND deleted_at IS NULL",
        (stored_before,),
    )


def unindex_turns(db: Database, rows: Sequence[sqlite3.Row], *, now: float) -> list[str]:
    """Take ``rows`` out of the vector index (the turn, its full-text search and its
    evidence stay); the uuids taken out."""
    done: list[str] = []
    with db.transaction() as conn:
        for r in rows:
            cur = conn.execute(
                "UPDATE episodes SET unindexed_at = ? WHERE id = ? AND unindexed_at IS NULL",
                (now, r["id"]),
            )
            if cur.rowcount != 1:
                continue
            journal.enqueue_embedding(
                conn, now=now, kind="episode", item_uuid=r["uuid"], op="delete"
            )
            done.append(r["uuid"])
    return done


def free_space(db: Database) -> tuple[int, int, int]:
    """(pages, free pages, page size) of the database file."""
    pages = int(db.scalar("PRAGMA page_count") or 0)
    free = int(db.scalar("PRAGMA freelist_count") or 0)
    size = int(db.scalar("PRAGMA page_size") or 4096)
    return pages, free, size
