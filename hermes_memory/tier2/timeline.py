"""Timeline events: dated milestones, decisions, errors, insights and changes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hermes_memory.tier2 import journal
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.fts import match_expression
from hermes_memory.tier2.records import Owner, TimelineEvent, new_uuid

EVENT_TYPES = ("milestone", "decision", "error", "insight", "change", "event", "meeting", "plan")


class TimelineStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(
        self,
        owner: Owner,
        *,
        event_type: str,
        title: str,
        description: str | None,
        importance: float,
        timestamp: float,
        related_entities: list[str],
        related_facts: list[str],
        session_id: str | None,
        now: float,
        actor: str,
        flags: list[str] | None = None,
    ) -> TimelineEvent:
        uid = new_uuid()
        cols = owner.columns(local=False)
        with self.db.transaction() as conn:
            cur = conn.execute(
                """INSERT INTO timeline(uuid, event_type, title, description, related_entities,
                       related_facts, session_id, timestamp, importance, platform, agent,
                       user_id, session_key, created_at, flags)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    uid,
                    event_type,
                    title,
                    description,
                    json.dumps(related_entities),
                    json.dumps(related_facts),
                    session_id,
                    timestamp,
                    importance,
                    *cols.values(),
                    now,
                    json.dumps(flags or []),
                ),
            )
            journal.audit(
                conn,
                now=now,
                action="timeline_add",
                actor=actor,
                target_uuid=uid,
                diff={"new": {"event_type": event_type, "title": title, "timestamp": timestamp}},
            )
            journal.enqueue_embedding(conn, now=now, kind="timeline", item_uuid=uid)
            row = conn.execute("SELECT * FROM timeline WHERE id = ?", (cur.lastrowid,)).fetchone()
            return TimelineEvent.from_row(row)

    def query(
        self,
        owner: Owner,
        *,
        start: float | None,
        end: float | None,
        event_type: str | None,
        text: str | None,
        limit: int,
    ) -> list[TimelineEvent]:
        clause, params = owner.visible_clause("t")
        where = [clause, "t.deleted_at IS NULL"]
        values: list[Any] = list(params)
        if start is not None:
            where.append("t.timestamp >= ?")
            values.append(start)
        if end is not None:
            where.append("t.timestamp <= ?")
            values.append(end)
        if event_type:
            where.append("t.event_type = ?")
            values.append(event_type)
        expr = match_expression(text) if text else None
        if expr:
            sql = (
                f"SELECT t.* FROM timeline_fts JOIN timeline t ON t.id = timeline_fts.rowid "
                f"WHERE timeline_fts MATCH ? AND {' AND '.join(where)} "
                "ORDER BY timeline_fts.rank LIMIT ?"
            )
            rows = self.db.query(sql, (expr, *values, limit))
        else:
            sql = (
                f"SELECT t.* FROM timeline t WHERE {' AND '.join(where)} "
                "ORDER BY t.timestamp DESC LIMIT ?"
            )
            rows = self.db.query(sql, (*values, limit))
        return [TimelineEvent.from_row(r) for r in rows]

    def named_between(
        self, owner: Owner, start: float, end: float, *, limit: int
    ) -> list[tuple[str, str, float]]:
        """The facts and turns that name a date between ``start`` and ``end``: (kind,
        uuid, the date), soonest first (``mentioned_date`` events)."""
        clause, params = owner.visible_clause()
        rows = self.db.query(
            "SELECT metadata, timestamp FROM timeline WHERE event_type = 'mentioned_date' "
            f"AND timestamp BETWEEN ? AND ? AND deleted_at IS NULL AND {clause} "
            "ORDER BY timestamp LIMIT ?",
            (start, end, *params, limit),
        )
        out = []
        for r in rows:
            meta = json.loads(r["metadata"] or "{}")
            if meta.get("source_kind") in ("fact", "episode") and meta.get("source_uuid"):
                out.append((meta["source_kind"], meta["source_uuid"], float(r["timestamp"])))
        return out

    def echoes(self, owner: Owner, turns: list[str], voices: Sequence[str]) -> dict[str, str]:
        """For each of ``turns`` (uuids) said in one of ``voices`` (an assistant's roles,
        lower-cased), the turn before it in its chat when that one named a date it
        repeats ("Got it: ... beta due November 20th" after "Deadline for the beta is
        November 20th"): {turn: the turn before}."""
        if not turns or not voices:
            return {}
        clause, params = owner.visible_clause("e")
        marks, roles = ",".join("?" * len(turns)), ",".join("?" * len(voices))
        rows = self.db.query(
            f"""SELECT e.uuid AS turn, p.uuid AS prev FROM episodes e
                JOIN episodes p ON p.id = (
                    SELECT max(q.id) FROM episodes q
                    WHERE q.session_id = e.session_id AND q.id < e.id
                      AND q.platform = e.platform AND q.agent = e.agent
                      AND q.user_id = e.user_id AND q.session_key = e.session_key)
                WHERE e.uuid IN ({marks}) AND lower(e.speaker) IN ({roles}) AND {clause}
                  AND EXISTS (
                    SELECT 1 FROM timeline a JOIN timeline b ON b.timestamp = a.timestamp
                    WHERE a.event_type = 'mentioned_date' AND b.event_type = 'mentioned_date'
                      AND json_extract(a.metadata, '$.source_uuid') = e.uuid
                      AND json_extract(b.metadata, '$.source_uuid') = p.uuid)""",
            (*turns, *voices, *params),
        )
        return {r["turn"]: r["prev"] for r in rows}

    def count(self) -> int:
        return int(self.db.scalar("SELECT COUNT(*) FROM timeline WHERE deleted_at IS NULL"))


@dataclass(frozen=True)
class DateSource:
    """The fact or turn a ``mentioned_date`` event comes from: its opening is the
    event's title; the entities it names and the fact (if it is one) are related; a
    turn's or a scratch fact's dates stay its chat's (``local``)."""

    kind: str
    uuid: str
    text: str
    entities: list[str]
    local: bool

    @classmethod
    def of(cls, kind: str, uuid: str, text: str, entities: list[str], local: bool) -> DateSource:
        return cls(kind, uuid, text[:200], entities, local)


def mention_date(
    conn: sqlite3.Connection,
    owner: Owner,
    *,
    phrase: str,
    when: float,
    source: DateSource,
    now: float,
    precision: str | None = None,
) -> None:
    """A date a fact or turn names, as a ``mentioned_date`` event, inside the caller's
    transaction (the linker's, with the item itself); ``precision``: how precisely it
    was said ("day", "month", "quarter", ...), kept in its metadata for showing it."""
    meta = {"source_kind": source.kind, "source_uuid": source.uuid}
    if precision is not None:
        meta["precision"] = precision
    cols = owner.columns(local=source.local)
    conn.execute(
        """INSERT INTO timeline(uuid, event_type, title, description, related_entities,
               related_facts, timestamp, importance, platform, agent, user_id, session_key,
               created_at, metadata)
           VALUES (?, 'mentioned_date', ?, ?, ?, ?, ?, 0.5, ?, ?, ?, ?, ?, ?)""",
        (
            new_uuid(),
            source.text,
            f'"{phrase}"',
            json.dumps(source.entities),
            json.dumps([source.uuid] if source.kind == "fact" else []),
            when,
            *cols.values(),
            now,
            json.dumps(meta),
        ),
    )


def redate(
    conn: sqlite3.Connection,
    owner: Owner,
    *,
    dates: list[tuple[str, float, str]],
    source: DateSource,
    now: float,
) -> list[str]:
    """Make a text's ``mentioned_date`` events the ``dates`` (phrase, when, precision) it names as
    read now, inside the caller's transaction: the new ones added, the ones no longer
    found removed (they are derived), and one a person deleted left deleted. The
    phrases added."""
    rows = conn.execute(
        "SELECT id, description, timestamp, deleted_at FROM timeline "
        "WHERE event_type = 'mentioned_date' AND json_extract(metadata, '$.source_uuid') = ?",
        (source.uuid,),
    ).fetchall()
    had = {(r["description"], r["timestamp"]): r for r in rows}
    wanted = {(f'"{phrase}"', when): (phrase, precision) for phrase, when, precision in dates}
    for key, r in had.items():
        if key not in wanted and r["deleted_at"] is None:
            conn.execute("DELETE FROM timeline WHERE id = ?", (r["id"],))
    added = []
    for (quoted, when), (phrase, precision) in wanted.items():
        if (quoted, when) not in had:
            mention_date(
                conn, owner, phrase=phrase, when=when, source=source, now=now,
                precision=precision,
            )  # fmt: skip
            added.append(phrase)
    return added
