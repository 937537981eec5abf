"""Merging duplicates in tier 2: a fact into a fact, an entity into an entity.

A merge keeps everything the loser carried (evidence, mentions, relations,
aliases, access counts) on the survivor, marks the loser deleted with
``merged_into`` pointing at the survivor (so it stays readable by id), writes the
merge to the audit log and asks tier 3 to drop the loser's vectors. Callers run
each merge inside their own transaction and re-check that both rows are still
live, so a merge racing a concurrent write either sees it or does nothing.
"""

from __future__ import annotations

import json
import sqlite3

from hermes_memory.tier2 import journal


def live_fact(conn: sqlite3.Connection, fact_id: int) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM facts WHERE id = ? AND deleted_at IS NULL AND is_archived = 0 "
        "AND invalid_at IS NULL",
        (fact_id,),
    ).fetchone()


def merge_fact(
    conn: sqlite3.Connection,
    survivor: sqlite3.Row,
    loser: sqlite3.Row,
    *,
    now: float,
    actor: str,
    reason: str,
) -> None:
    """Fold ``loser`` into ``survivor`` (both live facts of one owner)."""
    s_id, l_id = survivor["id"], loser["id"]
    expires = (
        None
        if survivor["expires_at"] is None or loser["expires_at"] is None
        else max(survivor["expires_at"], loser["expires_at"])
    )
    last = [t for t in (survivor["last_accessed"], loser["last_accessed"]) if t is not None]
    valid = [t for t in (survivor["valid_at"], loser["valid_at"]) if t is not None]
    conn.execute(
        """UPDATE facts SET importance = MAX(importance, ?), confidence = MAX(confidence, ?),
               access_count = access_count + ?, access_counted = access_counted + ?,
               last_accessed = ?, expires_at = ?, valid_at = ?, updated_at = ?
           WHERE id = ?""",
        (
            loser["importance"],
            loser["confidence"],
            loser["access_count"],
            loser["access_counted"],
            max(last) if last else None,
            expires,
            min(valid) if valid else survivor["valid_at"],
            now,
            s_id,
        ),
    )
    conn.execute(
        "INSERT OR IGNORE INTO fact_evidence(fact_id, episode_id) "
        "SELECT ?, episode_id FROM fact_evidence WHERE fact_id = ?",
        (s_id, l_id),
    )
    conn.execute(
        "INSERT OR IGNORE INTO mentions(entity_id, item_kind, item_id, entity_type, guessed) "
        "SELECT entity_id, 'fact', ?, entity_type, guessed FROM mentions "
        "WHERE item_kind = 'fact' AND item_id = ?",
        (s_id, l_id),
    )
    conn.execute("DELETE FROM mentions WHERE item_kind = 'fact' AND item_id = ?", (l_id,))
    conn.execute(
        "UPDATE relations SET evidence_fact = ? WHERE evidence_fact = ?",
        (survivor["uuid"], loser["uuid"]),
    )
    conn.execute(
        "UPDATE facts SET superseded_by = ? WHERE superseded_by = ?",
        (survivor["uuid"], loser["uuid"]),
    )
    conn.execute(
        "UPDATE facts SET deleted_at = ?, merged_into = ?, updated_at = ? WHERE id = ?",
        (now, survivor["uuid"], now, l_id),
    )
    journal.audit(
        conn,
        now=now,
        action="fact_merge",
        actor=actor,
        target_uuid=survivor["uuid"],
        diff={
            "old": {"uuid": loser["uuid"], "content": loser["content"]},
            "new": {"merged_into": survivor["uuid"]},
            "reason": reason,
        },
    )
    journal.enqueue_embedding(conn, now=now, kind="fact", item_uuid=loser["uuid"], op="delete")


def live_entity(conn: sqlite3.Connection, entity_id: int) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM entities WHERE id = ? AND deleted_at IS NULL", (entity_id,)
    ).fetchone()


def merge_entity(
    conn: sqlite3.Connection,
    survivor: sqlite3.Row,
    loser: sqlite3.Row,
    *,
    now: float,
    actor: str,
    reason: str,
) -> dict[str, int]:
    """Fold ``loser`` into ``survivor``: names, mentions and relations move over;
    relations that become duplicates or self-loops are ended (soft-deleted)."""
    s_id, l_id = survivor["id"], loser["id"]
    s_uuid, l_uuid = survivor["uuid"], loser["uuid"]
    known = json.loads(survivor["aliases"] or "[]")
    seen = {survivor["name_norm"], *(a.casefold() for a in known)}
    for alias in [loser["name"], *json.loads(loser["aliases"] or "[]")]:
        if alias.casefold() not in seen and " ".join(alias.split()).casefold() not in seen:
            known.append(alias)
            seen.add(alias.casefold())
    keep_type = survivor["entity_type"]
    if keep_type in ("concept", "other") and loser["entity_type"] not in ("concept", "other"):
        keep_type = loser["entity_type"]
    conn.execute(
        """UPDATE entities SET aliases = ?, entity_type = ?,
               description = COALESCE(description, ?), first_seen = MIN(first_seen, ?),
               last_seen = MAX(last_seen, ?), occurrence_count = occurrence_count + ?,
               derived_by = CASE WHEN derived_by IS NULL OR ? IS NULL THEN NULL
                                 ELSE MAX(derived_by, ?) END
           WHERE id = ?""",
        (
            json.dumps(known),
            keep_type,
            loser["description"],
            loser["first_seen"],
            loser["last_seen"],
            loser["occurrence_count"],
            loser["derived_by"],
            loser["derived_by"],
            s_id,
        ),
    )
    conn.execute(
        "INSERT OR IGNORE INTO entity_aliases(alias_norm, entity_id) "
        "SELECT alias_norm, ? FROM entity_aliases WHERE entity_id = ?",
        (s_id, l_id),
    )
    conn.execute("DELETE FROM entity_aliases WHERE entity_id = ?", (l_id,))
    conn.execute(
        "INSERT OR IGNORE INTO mentions(entity_id, item_kind, item_id, entity_type, guessed) "
        "SELECT ?, item_kind, item_id, entity_type, guessed FROM mentions WHERE entity_id = ?",
        (s_id, l_id),
    )
    conn.execute("DELETE FROM mentions WHERE entity_id = ?", (l_id,))
    conn.execute("UPDATE relations SET from_entity = ? WHERE from_entity = ?", (s_uuid, l_uuid))
    conn.execute("UPDATE relations SET to_entity = ? WHERE to_entity = ?", (s_uuid, l_uuid))
    ended = _end_redundant_relations(conn, s_uuid, now)
    conn.execute(
        "UPDATE entities SET deleted_at = ?, merged_into = ? WHERE id = ?", (now, s_uuid, l_id)
    )
    journal.audit(
        conn,
        now=now,
        action="entity_merge",
        actor=actor,
        target_uuid=s_uuid,
        diff={
            "old": {"uuid": l_uuid, "name": loser["name"], "entity_type": loser["entity_type"]},
            "new": {"merged_into": s_uuid, "aliases": known},
            "reason": reason,
        },
    )
    journal.enqueue_embedding(conn, now=now, kind="entity", item_uuid=l_uuid, op="delete")
    journal.enqueue_embedding(conn, now=now, kind="entity", item_uuid=s_uuid)
    return {"relations_ended": ended}


def _end_redundant_relations(conn: sqlite3.Connection, entity_uuid: str, now: float) -> int:
    rows = conn.execute(
        """SELECT * FROM relations WHERE (from_entity = ? OR to_entity = ?)
           AND deleted_at IS NULL ORDER BY strength DESC, updated_at DESC, id""",
        (entity_uuid, entity_uuid),
    ).fetchall()
    kept: set[tuple[str, str, str, bool]] = set()
    ended = 0
    for r in rows:
        key = (r["from_entity"], r["to_entity"], r["relation_type"], r["invalid_at"] is None)
        if r["from_entity"] == r["to_entity"] or key in kept:
            conn.execute(
                "UPDATE relations SET deleted_at = ?, updated_at = ? WHERE id = ?",
                (now, now, r["id"]),
            )
            ended += 1
        else:
            kept.add(key)
    return ended
