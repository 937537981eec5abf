"""The words a person is spoken of by ("my brother", "my manager"), kept among the
person's aliases so that "where does my brother live?" finds them. One holder at a
time: the latest text to say it gives it (text/relatives.py reads them)."""

from __future__ import annotations

import json
import sqlite3

from hermes_memory.tier2 import journal
from hermes_memory.tier2.entities import normalize_name
from hermes_memory.tier2.records import Entity, Owner


def give_aliases(
    conn: sqlite3.Connection,
    owner: Owner,
    entity: Entity,
    words: tuple[str, ...],
    *,
    now: float,
    actor: str,
) -> list[str]:
    """Make each of ``words`` an alias of ``entity``, taken from whichever other entity
    of the owner held it (each change audited as ``entity_update``), inside the
    caller's transaction. The words newly given."""
    clause, params = owner.visible_clause("e")
    given = []
    for word in words:
        norm = normalize_name(word)
        holders = conn.execute(
            f"""SELECT e.id, e.uuid, e.aliases FROM entity_aliases a
                JOIN entities e ON e.id = a.entity_id
                WHERE a.alias_norm = ? AND e.deleted_at IS NULL AND {clause}""",
            (norm, *params),
        ).fetchall()
        if any(h["id"] == entity.rowid for h in holders):
            continue
        for h in holders:  # "my manager" was Elena's; now it is Bob's
            _set(conn, h["id"], h["uuid"], json.loads(h["aliases"]), word, False, now, actor)
        row = conn.execute("SELECT aliases FROM entities WHERE id = ?", (entity.rowid,)).fetchone()
        if row is None:
            continue
        _set(conn, entity.rowid, entity.uuid, json.loads(row["aliases"]), word, True, now, actor)
        given.append(word)
    return given


def _set(
    conn: sqlite3.Connection,
    rowid: int,
    uuid: str,
    known: list[str],
    word: str,
    held: bool,
    now: float,
    actor: str,
) -> None:
    norm = normalize_name(word)
    kept = [a for a in known if normalize_name(a) != norm]
    new = [*kept, word] if held else kept
    conn.execute("UPDATE entities SET aliases = ? WHERE id = ?", (json.dumps(new), rowid))
    if held:
        conn.execute("INSERT OR IGNORE INTO entity_aliases VALUES (?, ?)", (norm, rowid))
    else:
        conn.execute(
            "DELETE FROM entity_aliases WHERE alias_norm = ? AND entity_id = ?", (norm, rowid)
        )
    journal.audit(
        conn,
        now=now,
        action="entity_update",
        actor=actor,
        target_uuid=uuid,
        diff={"old": {"aliases": known}, "new": {"aliases": new}, "reason": word},
    )
