"""What was read from text and a newer reading no longer gives: relations and entities
dropped, people made concepts, each change in the audit log (api/rederive.py runs them
after the text is read again). ``retype`` also serves the type vote
(``EntityStore.mention``)."""

from __future__ import annotations

import sqlite3
from typing import Any

from hermes_memory.tier2 import journal


def drop_underived(conn: sqlite3.Connection, version: int, *, now: float, actor: str) -> int:
    """Delete (softly, each in the audit log) the relations read from text that
    the text no longer yields: every valid one not derived again by ``version``
    after all the text was read again. Stated relations, and those that ended with
    the fact they came from (history), are left as they are. How many."""
    rows = conn.execute(
        """SELECT r.uuid, a.name AS head, r.relation_type, b.name AS tail, r.derived_by
           FROM relations r JOIN entities a ON a.uuid = r.from_entity
           JOIN entities b ON b.uuid = r.to_entity
           WHERE r.derived_by IS NOT NULL AND r.derived_by != ? AND r.deleted_at IS NULL
             AND r.invalid_at IS NULL""",
        (version,),
    ).fetchall()
    for r in rows:
        reason = f"not read from its text by extractor version {version} "
        _unlink(conn, r, reason + f"(read by {r['derived_by']})", now=now, actor=actor)
    return len(rows)


def drop_unread(conn: sqlite3.Connection, version: int, *, now: float, actor: str) -> int:
    """Delete (softly, each in the audit log, its vector with it) the entities read
    from text that no text yields any more: every live one not found again by
    ``version`` after all the text was read again, and left with no live relation
    (a stated one keeps it). Entities added or linked by hand are never touched.
    How many."""
    rows = conn.execute(
        """SELECT e.id, e.uuid, e.name, e.entity_type, e.derived_by FROM entities e
           WHERE e.derived_by IS NOT NULL AND e.derived_by != ? AND e.deleted_at IS NULL
             AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.deleted_at IS NULL
                             AND (r.from_entity = e.uuid OR r.to_entity = e.uuid))""",
        (version,),
    ).fetchall()
    for r in rows:
        reason = f"no text names it for extractor version {version} "
        _forget(conn, r, reason + f"(read by {r['derived_by']})", now=now, actor=actor)
    return len(rows)


def retype_unvouched(
    conn: sqlite3.Connection, version: int, voices: list[str], *, now: float, actor: str
) -> int:
    """Make concepts, each in the audit log, of the people ``version`` read from
    text that only the turns of ``voices`` (an assistant's roles) name: such a turn
    introduces no people (graph/linker.read), and a store read by an older version
    keeps the ones it took for people. How many."""
    if not voices:
        return 0
    marks = ", ".join("?" * len(voices))
    rows = conn.execute(
        f"""SELECT e.id, e.uuid FROM entities e
           WHERE e.entity_type = 'person' AND e.derived_by = ? AND e.deleted_at IS NULL
             AND EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)
             AND NOT EXISTS (
                 SELECT 1 FROM mentions m LEFT JOIN episodes ep
                   ON m.item_kind = 'episode' AND ep.id = m.item_id
                 WHERE m.entity_id = e.id
                   AND (ep.id IS NULL OR lower(ep.speaker) NOT IN ({marks})))""",
        (version, *[v.casefold() for v in voices]),
    ).fetchall()
    for r in rows:
        retype(conn, r["id"], r["uuid"], "person", "concept", None, now=now, actor=actor)
    return len(rows)


def drop_misread(
    conn: sqlite3.Connection, entity_id: int, *, reason: str, now: float, actor: str
) -> bool:
    """Delete (softly, each in the audit log) an entity read from text that its text,
    read again, no longer names, with the relations read with it; a stated relation
    keeps it (and stays). False when it is no longer live and read from text."""
    row = conn.execute(
        "SELECT id, uuid, name, entity_type FROM entities "
        "WHERE id = ? AND deleted_at IS NULL AND derived_by IS NOT NULL",
        (entity_id,),
    ).fetchone()
    if row is None:
        return False
    read = conn.execute(
        "SELECT r.uuid, a.name AS head, r.relation_type, b.name AS tail FROM relations r "
        "JOIN entities a ON a.uuid = r.from_entity JOIN entities b ON b.uuid = r.to_entity "
        "WHERE ? IN (r.from_entity, r.to_entity) AND r.deleted_at IS NULL "
        "AND r.derived_by IS NOT NULL",
        (row["uuid"],),
    ).fetchall()
    for r in read:
        _unlink(conn, r, reason, now=now, actor=actor)
    conn.execute("DELETE FROM mentions WHERE entity_id = ?", (entity_id,))
    stated = conn.execute(
        "SELECT 1 FROM relations WHERE ? IN (from_entity, to_entity) AND deleted_at IS NULL",
        (row["uuid"],),
    ).fetchone()
    if stated is None:
        _forget(conn, row, reason, now=now, actor=actor)
    return True


def _unlink(
    conn: sqlite3.Connection, r: sqlite3.Row, reason: str, *, now: float, actor: str
) -> None:
    """Soft-delete the relation ``r`` (its uuid, head, relation_type, tail), audited."""
    conn.execute("UPDATE relations SET deleted_at = ? WHERE uuid = ?", (now, r["uuid"]))
    old = {"from": r["head"], "to": r["tail"], "relation": r["relation_type"]}
    journal.audit(
        conn, now=now, action="entity_unlink", actor=actor, target_uuid=r["uuid"],
        diff={"old": old, "reason": reason},
    )  # fmt: skip


def retype(
    conn: sqlite3.Connection,
    entity_id: int,
    uuid: str,
    old: str,
    new: str,
    reason: str | None,
    *,
    now: float,
    actor: str,
) -> None:
    """Give the entity a new type, audited, its vector made again."""
    conn.execute("UPDATE entities SET entity_type = ? WHERE id = ?", (new, entity_id))
    diff: dict[str, Any] = {"old": {"entity_type": old}, "new": {"entity_type": new}}
    if reason is not None:
        diff["reason"] = reason
    journal.audit(conn, now=now, action="entity_update", actor=actor, target_uuid=uuid, diff=diff)
    journal.enqueue_embedding(conn, now=now, kind="entity", item_uuid=uuid)


def _forget(
    conn: sqlite3.Connection, r: sqlite3.Row, reason: str, *, now: float, actor: str
) -> None:
    """Soft-delete the entity ``r`` (its id, uuid, name, entity_type), audited, its
    vector with it."""
    conn.execute("UPDATE entities SET deleted_at = ? WHERE id = ?", (now, r["id"]))
    # Only dead text still names it: nothing resolves to it or lists it again.
    conn.execute("DELETE FROM entity_aliases WHERE entity_id = ?", (r["id"],))
    conn.execute("DELETE FROM mentions WHERE entity_id = ?", (r["id"],))
    old = {"name": r["name"], "entity_type": r["entity_type"]}
    journal.audit(
        conn, now=now, action="entity_delete", actor=actor, target_uuid=r["uuid"],
        diff={"old": old, "reason": reason},
    )  # fmt: skip
    journal.enqueue_embedding(conn, now=now, kind="entity", item_uuid=r["uuid"], op="delete")
