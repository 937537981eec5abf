"""Entities with aliases, and the typed relations between them."""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from typing import Any

from hermes_memory.errors import CapacityError, NotFoundError
from hermes_memory.tier2 import journal, reread
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.fts import match_expression
from hermes_memory.tier2.records import Entity, Owner, Relation, new_uuid, owner_count

ENTITY_TYPES = (
    "person", "project", "service", "tech", "org", "place", "concept", "event", "other",
)  # fmt: skip
# Types a text gives when it cannot tell: they vote for no type of an entity's.
_NO_VOTE = frozenset({"concept", "other"})
# What a guessed reading weighs in that vote against one read for sure: a capitalised
# word whose kind nothing around it says is a guess (a person where the words around it
# say one is, text/people.py, else a concept, which votes for nothing), so an unknown
# tool named bare three times ("Expo") is still the tool one sure reading says it is
# ("we use Expo"). The same weight as text/reading.GUESS_WEIGHT within a text.
GUESS_VOTE = 1 / 3

# A relation's name: the extractor's types (text/triggers.py) or any other snake_case.
RELATION_NAME = re.compile(r"^[a-z][a-z0-9_]{0,40}$")

_SPACE = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    return _SPACE.sub(" ", name).strip().casefold()


def only_named(
    conn: sqlite3.Connection, owner: Owner, first_name: str, entity_type: str = "person"
) -> str | None:
    """The name of the one entity of ``entity_type`` this owner knows whose full name
    starts with the word ``first_name`` ("Alice" -> "Alice Chen", "Northwind" ->
    "Northwind Logistics" as an org); None when there is none or several."""
    clause, params = owner.visible_clause("e")
    first = normalize_name(first_name) + " "
    # A range on the name index: "first name, a space, anything" (LIKE cannot use the
    # index, being case-insensitive; "!" sorts right after the space).
    rows = conn.execute(
        f"SELECT name FROM entities e WHERE e.entity_type = ? AND e.name_norm >= ? "
        f"AND e.name_norm < ? AND e.deleted_at IS NULL AND {clause} LIMIT 2",
        (entity_type, first, first[:-1] + "!", *params),
    ).fetchall()
    return str(rows[0]["name"]) if len(rows) == 1 else None


RELATION_SELECT = """
    SELECT r.*, a.name AS from_name, b.name AS to_name FROM relations r
    JOIN entities a ON a.uuid = r.from_entity JOIN entities b ON b.uuid = r.to_entity"""


class EntityStore:
    def __init__(self, db: Database, *, max_entities: int = 10_000) -> None:
        self.db = db
        self.max_entities = max_entities

    # -- entities -------------------------------------------------------------------
    def ensure(
        self,
        owner: Owner,
        *,
        name: str,
        entity_type: str,
        aliases: list[str],
        description: str | None,
        now: float,
        actor: str,
        local: bool = False,
        seen: bool = True,
        derived: int | None = None,
    ) -> tuple[Entity, bool]:
        """Find the entity by name or alias, or create it. Idempotent. ``local``: it is
        named by something kept to this chat (a turn, a scratch fact), so a new entity
        stays this chat's too; named by something durable, a chat's own entity becomes
        the owner's. ``seen``: this is a new mention (False: old text read again, which
        leaves the entity's last sighting and count as they were). ``derived``: the
        extractor version that found the name in text (None: stated, which the entity
        then stays; see ``reread.drop_unread``)."""
        with self.db.transaction() as conn:
            row = self._resolve(conn, owner, [name, *aliases])
            if row is None:
                return self._create(
                    conn, owner, name, entity_type, aliases, description, now, actor, local,
                    derived=derived,
                ), True  # fmt: skip
            if row["session_key"] and not local:
                row = self._make_durable(conn, row, now)
            known = json.loads(row["aliases"])
            names = {normalize_name(a) for a in [row["name"], *known]}
            added = [a for a in [name, *aliases] if normalize_name(a) not in names]
            merged = known + list(dict.fromkeys(added))
            new_type = (
                entity_type if row["entity_type"] in ("concept", "other") else row["entity_type"]
            )
            new_desc = description or row["description"]
            changed = added or new_type != row["entity_type"] or new_desc != row["description"]
            was = row["derived_by"]
            derived_by = None if was is None or derived is None else derived
            if seen:
                conn.execute(
                    "UPDATE entities SET last_seen = ?, occurrence_count = occurrence_count + 1, "
                    "derived_by = ? WHERE id = ?",
                    (now, derived_by, row["id"]),
                )
            elif derived_by != was:
                conn.execute(
                    "UPDATE entities SET derived_by = ? WHERE id = ?", (derived_by, row["id"])
                )
            if changed:  # only then: the update re-indexes the entity's FTS row
                conn.execute(
                    "UPDATE entities SET aliases = ?, entity_type = ?, description = ? "
                    "WHERE id = ?",
                    (json.dumps(merged), new_type, new_desc, row["id"]),
                )
            for alias in added:
                conn.execute(
                    "INSERT OR IGNORE INTO entity_aliases VALUES (?, ?)",
                    (normalize_name(alias), row["id"]),
                )
            if changed:
                journal.audit(
                    conn,
                    now=now,
                    action="entity_update",
                    actor=actor,
                    target_uuid=row["uuid"],
                    diff={
                        "old": {"aliases": known, "entity_type": row["entity_type"]},
                        "new": {"aliases": merged, "entity_type": new_type},
                    },
                )
            # What the row now holds, without reading it back.
            found = Entity.from_row(row)
            return dataclasses.replace(
                found,
                aliases=merged,
                entity_type=new_type,
                description=new_desc,
                last_seen=now if seen else found.last_seen,
                occurrence_count=found.occurrence_count + int(seen),
            ), False

    @staticmethod
    def _make_durable(conn: sqlite3.Connection, row: sqlite3.Row, now: float) -> sqlite3.Row:
        """A chat's own entity that something durable names joins the owner's entities
        (its vector is made again, to be found from every chat)."""
        try:
            conn.execute("UPDATE entities SET session_key = '' WHERE id = ?", (row["id"],))
        except sqlite3.IntegrityError:
            return row  # the owner already has one of that name: this one stays local
        journal.enqueue_embedding(conn, now=now, kind="entity", item_uuid=row["uuid"])
        promoted: sqlite3.Row = conn.execute(
            "SELECT * FROM entities WHERE id = ?", (row["id"],)
        ).fetchone()
        return promoted

    def find(self, owner: Owner, name: str) -> Entity | None:
        with self.db.snapshot() as conn:
            row = self._resolve(conn, owner, [name])
            return Entity.from_row(row) if row else None

    def search(
        self, owner: Owner, *, name: str | None, entity_type: str | None, limit: int
    ) -> list[Entity]:
        clause, params = owner.visible_clause("e")
        where = [clause, "e.deleted_at IS NULL"]
        values: list[Any] = list(params)
        if entity_type:
            where.append("e.entity_type = ?")
            values.append(entity_type)
        with self.db.snapshot() as conn:
            exact = self._resolve(conn, owner, [name]) if name else None
            expr = match_expression(name) if name else None
            if expr:
                rows = conn.execute(
                    f"""SELECT e.* FROM entities_fts JOIN entities e ON e.id = entities_fts.rowid
                        WHERE entities_fts MATCH ? AND {" AND ".join(where)}
                        ORDER BY entities_fts.rank LIMIT ?""",
                    (expr, *values, limit),
                ).fetchall()
            elif name:
                rows = []
            else:
                rows = conn.execute(
                    f"SELECT e.* FROM entities e WHERE {' AND '.join(where)} "
                    "ORDER BY e.occurrence_count DESC, e.last_seen DESC LIMIT ?",
                    (*values, limit),
                ).fetchall()
        entities = [Entity.from_row(r) for r in rows]
        if exact is not None and (not entity_type or exact["entity_type"] == entity_type):
            entities = [Entity.from_row(exact)] + [e for e in entities if e.uuid != exact["uuid"]]
        return entities[:limit]

    # -- relations --------------------------------------------------------------------
    def link(
        self,
        owner: Owner,
        *,
        from_name: str,
        to_name: str,
        relation: str,
        strength: float,
        evidence_fact: str | None,
        now: float,
        actor: str,
        local: bool = False,
    ) -> tuple[Relation, list[str]]:
        """Create or strengthen ``from -relation-> to``; unknown names become
        ``concept`` entities (returned in the second element). A ``local`` relation
        (one a session's own turn states) stays in that session."""
        created: list[str] = []
        with self.db.transaction() as conn:
            ends = []
            for name in (from_name, to_name):
                row = self._resolve(conn, owner, [name])
                if row is None:
                    ent = self._create(conn, owner, name, "concept", [], None, now, actor)
                    created.append(ent.name)
                    ends.append(ent.uuid)
                else:
                    ends.append(row["uuid"])
            if evidence_fact is not None:
                clause, params = owner.visible_clause(by_id=True)
                if (
                    conn.execute(
                        f"SELECT 1 FROM facts WHERE uuid = ? AND {clause}", (evidence_fact, *params)
                    ).fetchone()
                    is None
                ):
                    raise NotFoundError("fact", evidence_fact)
            uid = self.relate(
                conn,
                owner,
                (ends[0], ends[1]),
                relation=relation,
                strength=strength,
                evidence_fact=evidence_fact,
                now=now,
                actor=actor,
                local=local,
                names=(from_name, to_name),
            )
            row = conn.execute(f"{RELATION_SELECT} WHERE r.uuid = ?", (uid,)).fetchone()
            return Relation.from_row(row), created

    @staticmethod
    def mention(
        conn: sqlite3.Connection,
        entity: Entity,
        kind: str,
        row_id: int,
        *,
        read_as: str | None = None,
        guessed: bool = False,
        now: float = 0.0,
        actor: str = "",
    ) -> Entity:
        """Record that the fact or turn ``row_id`` (``kind``) names ``entity``, read as
        type ``read_as`` (``guessed``: nothing around the name said so). An entity read
        from text takes the specific type its texts give most weight (a guess weighs
        GUESS_VOTE; the type it has wins a tie), so a first misreading ("Fargate" a
        person) gives way to what later texts say; a concept reading votes for nothing,
        and a type stated by hand is never changed. The entity, retyped or not."""
        conn.execute(
            "INSERT OR IGNORE INTO mentions(entity_id, item_kind, item_id, entity_type, "
            "guessed) VALUES (?, ?, ?, ?, ?)",
            (entity.rowid, kind, row_id, read_as, int(guessed)),
        )
        if read_as in (None, entity.entity_type) or read_as in _NO_VOTE:
            return entity
        row = conn.execute(
            "SELECT derived_by FROM entities WHERE id = ?", (entity.rowid,)
        ).fetchone()
        if row is None or row["derived_by"] is None:
            return entity
        votes = dict(
            conn.execute(
                "SELECT entity_type, total(CASE WHEN guessed THEN ? ELSE 1 END) FROM mentions "
                "WHERE entity_id = ? AND entity_type IS NOT NULL GROUP BY entity_type",
                (GUESS_VOTE, entity.rowid),
            ).fetchall()
        )
        if votes.get(read_as, 0) <= votes.get(entity.entity_type, 0) + 1e-9:
            return entity
        weight, held = votes[read_as], votes.get(entity.entity_type, 0)
        reason = f"texts read it as {read_as} ({weight:.2g} against {held:.2g})"
        reread.retype(conn, entity.rowid, entity.uuid, entity.entity_type, read_as, reason,
                now=now, actor=actor)  # fmt: skip
        return dataclasses.replace(entity, entity_type=read_as)

    @staticmethod
    def forget_mentions(conn: sqlite3.Connection, kind: str, row_id: int) -> None:
        """Drop what the fact or turn ``row_id`` was recorded to mention (before its
        text is read again)."""
        conn.execute("DELETE FROM mentions WHERE item_kind = ? AND item_id = ?", (kind, row_id))

    @staticmethod
    def attest(conn: sqlite3.Connection, owner: Owner, relation: str, *, episode: str) -> None:
        """A turn states the relation: it is its evidence, unless an earlier turn already
        is (a chat's own turn replaces another chat's)."""
        conn.execute(
            "UPDATE relations SET evidence_episode = ? "
            "WHERE uuid = ? AND (evidence_episode IS NULL OR session_key = ?)",
            (episode, relation, owner.session),
        )

    @staticmethod
    def relate(
        conn: sqlite3.Connection,
        owner: Owner,
        ends: tuple[str, str],
        *,
        relation: str,
        strength: float,
        evidence_fact: str | None,
        now: float,
        actor: str,
        local: bool,
        names: tuple[str, str],
        derived: int | None = None,
        episode: str | None = None,
    ) -> str:
        """``link`` for a caller in a transaction that has resolved both ends (entity
        uuids) and knows its evidence exists (the linker, for the fact it just
        stored): create or strengthen the relation; its uuid. ``derived``: the
        extractor version that read it from text (None: stated, which it then stays).
        ``episode``: the turn stating it; read again, a turn finds the relation it
        stated before even when a later turn ended it (kept ended, not made anew)."""
        clause, params = owner.visible_clause()
        # A valid one first; else (``episode`` given) one that turn stated, since ended.
        existing = conn.execute(
            f"SELECT id, uuid FROM relations WHERE from_entity = ? AND to_entity = ? "
            f"AND relation_type = ? AND deleted_at IS NULL "
            f"AND (invalid_at IS NULL OR evidence_episode = ?) AND {clause} "
            f"ORDER BY invalid_at IS NOT NULL, id LIMIT 1",
            (ends[0], ends[1], relation, episode, *params),
        ).fetchone()
        if existing is not None:
            conn.execute(
                "UPDATE relations SET strength = MAX(strength, ?), updated_at = ?, "
                "evidence_fact = COALESCE(?, evidence_fact), "
                "derived_by = CASE WHEN derived_by IS NULL OR ? IS NULL THEN NULL ELSE ? END "
                "WHERE id = ?",
                (strength, now, evidence_fact, derived, derived, existing["id"]),
            )
            return str(existing["uuid"])
        uid = new_uuid()
        cols = owner.columns(local=local)
        conn.execute(
            """INSERT INTO relations(uuid, from_entity, to_entity, relation_type, strength,
                   evidence_fact, platform, agent, user_id, session_key, created_at,
                   updated_at, valid_at, derived_by)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (uid, *ends, relation, strength, evidence_fact, *cols.values(), now, now, now, derived),
        )
        journal.audit(
            conn,
            now=now,
            action="entity_link",
            actor=actor,
            target_uuid=uid,
            diff={
                "new": {
                    "from": names[0],
                    "to": names[1],
                    "relation": relation,
                    "strength": strength,
                }
            },
        )
        return uid

    def relations_of(
        self, owner: Owner, entity_uuids: list[str], *, limit: int = 50
    ) -> list[Relation]:
        if not entity_uuids:
            return []
        clause, params = owner.visible_clause("r")
        marks = ",".join("?" * len(entity_uuids))
        rows = self.db.query(
            f"""{RELATION_SELECT} WHERE (r.from_entity IN ({marks}) OR r.to_entity IN ({marks}))
                AND r.deleted_at IS NULL AND {clause} ORDER BY r.strength DESC, r.updated_at DESC
                LIMIT ?""",
            (*entity_uuids, *entity_uuids, *params, limit),
        )
        return [Relation.from_row(r) for r in rows]

    def count(self) -> int:
        return int(self.db.scalar("SELECT n FROM live_counts WHERE name = 'entities'"))

    def relation_count(self) -> int:
        return int(self.db.scalar("SELECT COUNT(*) FROM relations WHERE deleted_at IS NULL"))

    # -- internals ----------------------------------------------------------------------
    @staticmethod
    def _resolve(conn: sqlite3.Connection, owner: Owner, names: list[str]) -> sqlite3.Row | None:
        clause, params = owner.visible_clause("e")
        for name in names:
            row = conn.execute(
                f"""SELECT e.* FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
                    WHERE a.alias_norm = ? AND e.deleted_at IS NULL AND {clause}
                    ORDER BY e.session_key = '' DESC, e.occurrence_count DESC LIMIT 1""",
                (normalize_name(name), *params),
            ).fetchone()
            if row is not None:
                return row
        return None

    def _create(
        self,
        conn: sqlite3.Connection,
        owner: Owner,
        name: str,
        entity_type: str,
        aliases: list[str],
        description: str | None,
        now: float,
        actor: str,
        local: bool = False,
        *,
        derived: int | None = None,
    ) -> Entity:
        live = owner_count(conn, "entities", owner)
        if live >= self.max_entities:
            raise CapacityError(
                f"this owner holds {live:,} entities, the configured maximum per owner "
                "(tier2.max_entities)",
                limit=self.max_entities,
            )
        uid = new_uuid()
        cols = owner.columns(local=local)
        unique_aliases = [
            a for a in dict.fromkeys(aliases) if normalize_name(a) != normalize_name(name)
        ]
        cur = conn.execute(
            """INSERT INTO entities(uuid, name, name_norm, entity_type, aliases, description,
                   platform, agent, user_id, session_key, first_seen, last_seen, derived_by)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                uid,
                name,
                normalize_name(name),
                entity_type,
                json.dumps(unique_aliases),
                description,
                *cols.values(),
                now,
                now,
                derived,
            ),
        )
        for alias in [name, *unique_aliases]:
            conn.execute(
                "INSERT OR IGNORE INTO entity_aliases VALUES (?, ?)",
                (normalize_name(alias), cur.lastrowid),
            )
        journal.audit(
            conn,
            now=now,
            action="entity_create",
            actor=actor,
            target_uuid=uid,
            diff={"new": {"name": name, "entity_type": entity_type, "aliases": unique_aliases}},
        )
        journal.enqueue_embedding(conn, now=now, kind="entity", item_uuid=uid)
        row = conn.execute("SELECT * FROM entities WHERE id = ?", (cur.lastrowid,)).fetchone()
        return Entity.from_row(row)
