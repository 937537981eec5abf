"""What later turns end of what earlier turns stated: a turn saying "we moved the
ledger-service off CockroachDB" ends the earlier turns' "ledger-service uses
CockroachDB" (kept as history, with the turn that ended it), and recall reads back what
a recalled turn stated that has since changed and which turn changed it."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time

from hermes_memory.tier2 import journal
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.entities import RELATION_SELECT
from hermes_memory.tier2.records import Owner


def _stated(r: sqlite3.Row) -> str:
    """A relation as words: "inventory-api uses CockroachDB"."""
    return f"{r['from_name']} {r['relation_type'].replace('_', ' ')} {r['to_name']}"


def _day(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))


@dataclasses.dataclass(frozen=True)
class Ending:
    """What a turn says holds no more: ``subject``'s relations (entity uuids) of one
    of ``predicates`` to ``thing`` (``same_thing``) or to anything else; with
    ``others``, every other subject's relations of those predicates to ``thing`` (a new
    holder: "Lee now owns it")."""

    subject: str
    predicates: frozenset[str]
    thing: str
    same_thing: bool
    reason: str  # "migrated_from CockroachDB", for the audit log
    others: bool = False


def end_by_turn(
    conn: sqlite3.Connection,
    owner: Owner,
    episode_id: int,
    endings: list[Ending],
    *,
    now: float,
    actor: str,
) -> int:
    """End, when the turn ``episode_id`` was said, the relations each of
    ``endings`` names that earlier turns of the chat stated: the turn says they
    hold no more. They stay as history (``invalid_at``), each in the audit log. A
    relation a fact states is supersession's, one linked by hand the person's:
    neither is ended here. How many."""
    said = conn.execute(
        "SELECT timestamp, uuid FROM episodes WHERE id = ?", (episode_id,)
    ).fetchone()
    if said is None:
        return 0
    clause, params = owner.visible_clause("r")
    ended = 0
    for e in endings:
        marks = ", ".join("?" * len(e.predicates))
        # Each side by its own index: the thing's other holders, or the subject's.
        whose: tuple[str, tuple[object, ...]] = (
            ("r.to_entity = ? AND r.from_entity != ?", (e.thing, e.subject))
            if e.others
            else (
                "r.from_entity = ? AND (r.to_entity = ?) = ?",
                (e.subject, e.thing, e.same_thing),
            )
        )
        # A relation this turn ended before the version that keeps ``ended_by`` (read
        # again after an upgrade) is only given it.
        rows = conn.execute(
            f"""SELECT r.id, r.uuid, r.invalid_at FROM relations r
                JOIN episodes ep ON ep.uuid = r.evidence_episode
                WHERE {whose[0]} AND r.relation_type IN ({marks})
                  AND (r.invalid_at IS NULL OR (r.invalid_at = ?
                       AND json_extract(r.metadata, '$.ended_by') IS NULL))
                  AND r.deleted_at IS NULL AND r.evidence_fact IS NULL
                  AND r.derived_by IS NOT NULL AND ep.id != ?
                  AND (ep.timestamp < ? OR (ep.timestamp = ? AND ep.id < ?))
                  AND {clause}""",
            (
                *whose[1],
                *sorted(e.predicates),
                said[0],
                episode_id,
                said[0],
                said[0],
                episode_id,
                *params,
            ),
        ).fetchall()
        for r in rows:
            if r["invalid_at"] is not None:
                conn.execute(
                    """UPDATE relations SET
                         metadata = json_set(COALESCE(metadata, '{}'), '$.ended_by', ?)
                       WHERE id = ?""",
                    (said[1], r["id"]),
                )
                continue
            # Which turn ended it, so what holds instead can be shown beside it.
            conn.execute(
                """UPDATE relations SET invalid_at = ?, updated_at = ?,
                     metadata = json_set(COALESCE(metadata, '{}'), '$.ended_by', ?)
                   WHERE id = ?""",
                (said[0], now, said[1], r["id"]),
            )
            journal.audit(
                conn,
                now=now,
                action="relation_end",
                actor=actor,
                target_uuid=r["uuid"],
                diff={"old": {"invalid_at": None}, "new": {"invalid_at": said[0]},
                      "reason": e.reason},
            )  # fmt: skip
            ended += 1
    return ended


def ended_statements(
    db: Database, owner: Owner, episodes: list[str], at: float
) -> dict[str, list[str]]:
    """For each turn of ``episodes`` (uuids), what it stated that had ended by
    ``at`` ("ledger-service uses CockroachDB"): a later turn or fact said
    otherwise. Turns with none are left out."""
    if not episodes:
        return {}
    clause, params = owner.visible_clause("r")
    marks = ", ".join("?" * len(episodes))
    rows = db.query(
        f"""{RELATION_SELECT}
            WHERE r.evidence_episode IN ({marks}) AND r.invalid_at IS NOT NULL
              AND r.invalid_at <= ? AND r.deleted_at IS NULL AND {clause}
            ORDER BY r.id""",
        (*episodes, at, *params),
    )
    out: dict[str, list[str]] = {}
    for r in rows:
        said = f"{_stated(r)} until {_day(r['invalid_at'])}"
        instead = _instead(db, r, clause, tuple(params))
        if instead:  # "..., then inventory-api migrated to PostgreSQL"
            said += ", then " + " and ".join(instead)
        if said not in out.setdefault(r["evidence_episode"], []):
            out[r["evidence_episode"]].append(said)
    return out


def successor_turns(
    db: Database, owner: Owner, episodes: list[str], at: float
) -> list[tuple[str, str, list[str]]]:
    """(turn, the turn that ended a relation it stated, the names and aliases of the
    relation's two entities) for each of ``episodes`` (uuids) whose stated relations a
    later turn ended by ``at``."""
    if not episodes:
        return []
    clause, params = owner.visible_clause("r")
    marks = ", ".join("?" * len(episodes))
    rows = db.query(
        f"""SELECT r.evidence_episode AS old, json_extract(r.metadata, '$.ended_by') AS new,
                   a.name AS head, b.name AS tail, a.aliases AS head_aliases,
                   b.aliases AS tail_aliases
            FROM relations r
            JOIN entities a ON a.uuid = r.from_entity JOIN entities b ON b.uuid = r.to_entity
            WHERE r.evidence_episode IN ({marks}) AND r.invalid_at IS NOT NULL
              AND r.invalid_at <= ? AND r.deleted_at IS NULL AND {clause}""",
        (*episodes, at, *params),
    )
    return [
        (
            r["old"],
            r["new"],
            [r["head"], r["tail"], *json.loads(r["head_aliases"]), *json.loads(r["tail_aliases"])],
        )
        for r in rows
        if r["new"] and r["new"] != r["old"]
    ]


def _instead(
    db: Database, ended: sqlite3.Row, clause: str, params: tuple[object, ...]
) -> list[str]:
    """What the turn that ended ``ended`` stated of the same subject and another
    thing (or of the same thing and a new holder): at most two, as "a relation b"."""
    by = json.loads(ended["metadata"] or "{}").get("ended_by")
    if not by:
        return []
    rows = db.query(
        f"""{RELATION_SELECT}
            WHERE r.evidence_episode = ? AND r.id != ? AND r.deleted_at IS NULL
              AND r.invalid_at IS NULL AND r.relation_type != 'related_to'
              AND (r.from_entity = ?) + (r.to_entity = ?) = 1 AND {clause}
            ORDER BY r.id LIMIT 2""",
        (by, ended["id"], ended["from_entity"], ended["to_entity"], *params),
    )
    return [_stated(r) for r in rows]
