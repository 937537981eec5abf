"""Versioned schema migrations: ordered, named functions, each in one transaction.

Opening a :class:`~hermes_memory.tier2.db.Database` applies every migration not
yet recorded in ``schema_migrations``. Two processes opening a fresh file at once
are safe: each migration re-checks its version inside ``BEGIN IMMEDIATE``.
Statements are executed one by one (``executescript`` would commit early).

Isolation keys: every owned row carries ``platform``, ``agent``, ``user_id`` (who
owns it) and ``session_key`` ('' for durable rows shared across the owner's
sessions, else the local chat/thread/session it belongs to).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from hermes_memory.tier2 import core_schema

if TYPE_CHECKING:
    from hermes_memory.tier2.db import Database


def _v2_graph_links(conn: sqlite3.Connection) -> None:
    """Which facts and turns mention which entities (the graph's bridge back to text),
    and the turn a relation was extracted from."""
    for statement in (
        """CREATE TABLE mentions (
            entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            item_kind TEXT NOT NULL CHECK (item_kind IN ('fact', 'episode')),
            item_id INTEGER NOT NULL,
            PRIMARY KEY (entity_id, item_kind, item_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX idx_mentions_item ON mentions(item_kind, item_id)",
        "ALTER TABLE relations ADD COLUMN evidence_episode TEXT",
        "CREATE INDEX idx_facts_superseded ON facts(superseded_by)",
    ):
        conn.execute(statement)


def _v3_graph_seq(conn: sqlite3.Connection) -> None:
    """A change sequence on entities and relations, so the derived NetworkX graph can
    pull just what changed since it last looked (in any process)."""
    conn.execute("CREATE TABLE graph_seq (n INTEGER NOT NULL)")
    conn.execute("INSERT INTO graph_seq VALUES (0)")
    conn.execute(
        "CREATE TABLE graph_tombstones (seq INTEGER NOT NULL, kind TEXT NOT NULL, "
        "uuid TEXT NOT NULL)"
    )
    conn.execute("CREATE INDEX idx_graph_tombstones_seq ON graph_tombstones(seq)")
    watched = {
        "entities": "name, entity_type, aliases, description, last_seen, deleted_at",
        "relations": "relation_type, strength, valid_at, invalid_at, expired_at, deleted_at, "
        "evidence_fact, evidence_episode",
    }
    for table, columns in watched.items():
        conn.execute(f"ALTER TABLE {table} ADD COLUMN graph_seq INTEGER NOT NULL DEFAULT 0")
        conn.execute(f"UPDATE {table} SET graph_seq = 1")
        conn.execute(f"CREATE INDEX idx_{table}_graph_seq ON {table}(graph_seq)")
        stamp = (
            "UPDATE graph_seq SET n = n + 1; "
            f"UPDATE {table} SET graph_seq = (SELECT n FROM graph_seq) WHERE id = new.id;"
        )
        conn.execute(f"CREATE TRIGGER {table}_seq_ai AFTER INSERT ON {table} BEGIN {stamp} END")
        conn.execute(
            f"CREATE TRIGGER {table}_seq_au AFTER UPDATE OF {columns} ON {table} BEGIN {stamp} END"
        )
        # A hard delete leaves no row to stamp: a tombstone tells readers what went.
        conn.execute(
            f"CREATE TRIGGER {table}_seq_ad AFTER DELETE ON {table} BEGIN "
            "UPDATE graph_seq SET n = n + 1; INSERT INTO graph_tombstones "
            f"VALUES ((SELECT n FROM graph_seq), '{table}', old.uuid); END"
        )
    conn.execute("UPDATE graph_seq SET n = 1")


def _v4_maintenance(conn: sqlite3.Connection) -> None:
    """What the maintenance jobs need: a run ledger and leases, merge and archive
    markers, the access count already folded into importance, and graph stamps
    when a merge re-points a relation's ends."""
    for statement in (
        """CREATE TABLE job_runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            job TEXT NOT NULL,
            trigger TEXT NOT NULL,
            holder TEXT NOT NULL,
            started_at REAL NOT NULL,
            finished_at REAL,
            status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'interrupted')),
            report TEXT,
            error TEXT
        )""",
        "CREATE INDEX idx_job_runs_job ON job_runs(job, started_at DESC)",
        # One row per job while it runs; a lease past expires_at (or whose holder
        # process is gone) may be taken over.
        """CREATE TABLE job_leases (
            job TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            run_id INTEGER,
            acquired_at REAL NOT NULL,
            expires_at REAL NOT NULL
        )""",
        "ALTER TABLE facts ADD COLUMN merged_into TEXT",
        "ALTER TABLE facts ADD COLUMN archived_at REAL",
        "ALTER TABLE facts ADD COLUMN access_counted INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX idx_facts_expires ON facts(expires_at) WHERE expires_at IS NOT NULL",
        "ALTER TABLE entities ADD COLUMN merged_into TEXT",
        # Turns dropped from the vector index by prune (the row itself stays).
        "ALTER TABLE episodes ADD COLUMN unindexed_at REAL",
        "CREATE INDEX idx_episodes_created ON episodes(created_at)",
        "DROP TRIGGER relations_seq_au",
        """CREATE TRIGGER relations_seq_au AFTER UPDATE OF from_entity, to_entity,
            relation_type, strength, valid_at, invalid_at, expired_at, deleted_at,
            evidence_fact, evidence_episode ON relations BEGIN
            UPDATE graph_seq SET n = n + 1;
            UPDATE relations SET graph_seq = (SELECT n FROM graph_seq) WHERE id = new.id; END""",
    ):
        conn.execute(statement)


def _v5_imports(conn: sqlite3.Connection) -> None:
    """Bulk-import checkpoints: how far each source file got, committed with its rows."""
    conn.execute(
        """CREATE TABLE imports (
            source TEXT PRIMARY KEY,
            fingerprint TEXT NOT NULL,
            lines_done INTEGER NOT NULL DEFAULT 0,
            items INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL)"""
    )


def _v6_write_path_indexes(conn: sqlite3.Connection) -> None:
    """Indexes for the lookups every write makes; without them the relation upsert
    scanned every relation of its type and ending a fact's relations scanned them all,
    so the cost of one write grew with the store (2 ms a memory at 20k)."""
    conn.execute(
        "CREATE INDEX idx_relations_pair ON relations(from_entity, to_entity, relation_type)"
    )
    conn.execute("CREATE INDEX idx_relations_evidence ON relations(evidence_fact)")


def _v7_fact_claims(conn: sqlite3.Connection) -> None:
    """The claims each fact makes (tier2/claims.py), so supersession is a lookup.
    Facts stored before keep ``claims_read`` 0 until consolidate reads them."""
    conn.execute(
        """CREATE TABLE fact_claims (
            fact_id INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
            subject TEXT,
            predicate TEXT NOT NULL,
            object TEXT NOT NULL)"""
    )
    conn.execute("CREATE INDEX idx_claims_key ON fact_claims(predicate, subject, object)")
    conn.execute("CREATE INDEX idx_claims_fact ON fact_claims(fact_id)")
    conn.execute("ALTER TABLE facts ADD COLUMN claims_read INTEGER NOT NULL DEFAULT 0")


def _reread_claims(conn: sqlite3.Connection) -> None:
    """Every fact's claims are read again by the next consolidate, after an extractor
    change to what they are. Migration 8: likings and dislikings are recorded (either
    ends the other), and who stopped using something ("Priya stopped using Vim" was
    stored as the user's own stop). Migration 9: "prefers X over Y" also claims that
    Y ranks below, and a preference's object stops before "now", "a lot" ..."""
    conn.execute("UPDATE facts SET claims_read = 0 WHERE claims_read = 1")


def _v10_turn_attachments(conn: sqlite3.Connection) -> None:
    """What a turn shares besides its words (an image's caption, a file's name) is
    kept in its metadata and, for search, as text in ``attachments``: keyword search
    matches it and the vector index reads it with the turn, while the turn's text stays
    what was said."""
    conn.execute("ALTER TABLE episodes ADD COLUMN attachments TEXT NOT NULL DEFAULT ''")
    for trigger in ("ai", "ad", "au"):
        conn.execute(f"DROP TRIGGER episodes_fts_{trigger}")
    conn.execute("DROP TABLE episodes_fts")
    for sql in (
        """CREATE VIRTUAL TABLE episodes_fts USING fts5(
            speaker, text, attachments, content='episodes', content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER episodes_fts_ai AFTER INSERT ON episodes BEGIN
            INSERT INTO episodes_fts(rowid, speaker, text, attachments)
            VALUES (new.id, new.speaker, new.text, new.attachments); END""",
        """CREATE TRIGGER episodes_fts_ad AFTER DELETE ON episodes BEGIN
            INSERT INTO episodes_fts(episodes_fts, rowid, speaker, text, attachments)
            VALUES ('delete', old.id, old.speaker, old.text, old.attachments); END""",
        """CREATE TRIGGER episodes_fts_au AFTER UPDATE OF speaker, text, attachments
            ON episodes BEGIN
            INSERT INTO episodes_fts(episodes_fts, rowid, speaker, text, attachments)
            VALUES ('delete', old.id, old.speaker, old.text, old.attachments);
            INSERT INTO episodes_fts(rowid, speaker, text, attachments)
            VALUES (new.id, new.speaker, new.text, new.attachments); END""",
        "INSERT INTO episodes_fts(episodes_fts) VALUES ('rebuild')",
    ):
        conn.execute(sql)


def _v11_owner_counts(conn: sqlite3.Connection) -> None:
    """Live facts and entities counted per owner (platform, agent, user), by triggers:
    the capacity limits are each owner's, so one tenant filling the store cannot
    block everyone else's writes."""
    conn.execute(
        """CREATE TABLE owner_counts (
            name TEXT NOT NULL, platform TEXT NOT NULL, agent TEXT NOT NULL,
            user_id TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (name, platform, agent, user_id)) WITHOUT ROWID"""
    )
    for table in ("facts", "entities"):
        conn.execute(
            f"""INSERT INTO owner_counts SELECT '{table}', platform, agent, user_id, COUNT(*)
                FROM {table} WHERE deleted_at IS NULL GROUP BY platform, agent, user_id"""
        )
        for statement in _owner_counter_triggers(table):
            conn.execute(statement)


def _owner_counter_triggers(table: str) -> list[str]:
    def bump(row: str, delta: str) -> str:
        return (
            f"INSERT INTO owner_counts VALUES ('{table}', {row}.platform, {row}.agent, "
            f"{row}.user_id, {delta}) ON CONFLICT DO UPDATE SET n = n + ({delta})"
        )

    return [
        f"""CREATE TRIGGER {table}_owner_ai AFTER INSERT ON {table}
            WHEN new.deleted_at IS NULL BEGIN {bump("new", "1")}; END""",
        f"""CREATE TRIGGER {table}_owner_ad AFTER DELETE ON {table}
            WHEN old.deleted_at IS NULL BEGIN {bump("old", "-1")}; END""",
        f"""CREATE TRIGGER {table}_owner_soft AFTER UPDATE OF deleted_at ON {table}
            WHEN (old.deleted_at IS NULL) != (new.deleted_at IS NULL)
            BEGIN {bump("new", "CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END")}; END""",
    ]


def _v12_timeline_flags(conn: sqlite3.Connection) -> None:
    """The guard's flags on a timeline event, as facts and turns have them: a flagged
    title stays flagged wherever the event is shown."""
    conn.execute("ALTER TABLE timeline ADD COLUMN flags TEXT NOT NULL DEFAULT '[]'")


def _v13_relation_derivation(conn: sqlite3.Connection) -> None:
    """Which extractor version last read a relation from text (NULL: stated through
    ``entity_link``), so a changed extractor can read the text again and drop what it
    no longer finds. Older rows with a fact or turn as evidence came from text as far
    as the store can tell (version 0: read again by the next consolidate)."""
    conn.execute("ALTER TABLE relations ADD COLUMN derived_by INTEGER")
    conn.execute(
        "UPDATE relations SET derived_by = 0 "
        "WHERE evidence_fact IS NOT NULL OR evidence_episode IS NOT NULL"
    )


Migration = tuple[int, str, Callable[[sqlite3.Connection], None]]


def _v14_turn_neighbours(conn: sqlite3.Connection) -> None:
    """A turn's previous and next turn in its session are one index step each (recall
    reads them for every turn it ranks: 7.9 ms for 80 turns at 100k, 0.2 with it)."""
    conn.execute("CREATE INDEX idx_episodes_session_id ON episodes(session_id, id)")


def _v15_entity_derivation(conn: sqlite3.Connection) -> None:
    """Which extractor version last found an entity in text (NULL: added through
    ``entity_add`` or ``entity_link``, which it then stays), so reading the text again
    can drop the names no text yields any more. Older entities some text mentions came
    from text as far as the store can tell (version 0)."""
    conn.execute("ALTER TABLE entities ADD COLUMN derived_by INTEGER")
    conn.execute("UPDATE entities SET derived_by = 0 WHERE id IN (SELECT entity_id FROM mentions)")


def _v16_mention_types(conn: sqlite3.Connection) -> None:
    """The type each text read its name as, so an entity read from text takes the type
    most of its texts give (NULL: recorded before, which votes for nothing until the
    text is read again)."""
    conn.execute("ALTER TABLE mentions ADD COLUMN entity_type TEXT")


def _v20_mention_guesses(conn: sqlite3.Connection) -> None:
    """Whether a text only guessed the type it read a name as (a capitalised word with
    nothing around it to say what it is): a guess weighs less in the entity's vote
    (entities.mention). Rows recorded before count as read for sure until their text
    is read again."""
    conn.execute("ALTER TABLE mentions ADD COLUMN guessed INTEGER NOT NULL DEFAULT 0")


def _v17_screen_attachments(conn: sqlite3.Connection) -> None:
    """What a turn shares (an attachment's caption or file name) passes the turn's guard
    since this version: the turns stored before have theirs screened now, secrets
    redacted and injection-looking text flagged, and a changed turn is queued to be
    embedded again (its vectors read the caption)."""
    import json

    from hermes_memory import guard
    from hermes_memory.tier2.episodes import attachment_text, screened_attachments
    from hermes_memory.tier2.journal import enqueue_embedding

    def screen(said: str, key: str) -> tuple[str, list[str]]:
        return guard.screen(said, field=key, secrets="redact", injection="flag")

    now = time.time()
    rows = conn.execute(
        "SELECT id, uuid, metadata, flags FROM episodes WHERE attachments != ''"
    ).fetchall()
    for rowid, uuid, metadata_json, flags_json in rows:
        metadata = json.loads(metadata_json)
        flags = json.loads(flags_json)
        screened, found = screened_attachments(metadata, screen)
        new = [f for f in dict.fromkeys(f"attachment:{x}" for x in found) if f not in flags]
        if screened != metadata or new:
            conn.execute(
                "UPDATE episodes SET metadata = ?, flags = ?, attachments = ? WHERE id = ?",
                (json.dumps(screened), json.dumps(flags + new), attachment_text(screened), rowid),
            )
            enqueue_embedding(conn, now=now, kind="episode", item_uuid=uuid)


def _v18_ended_statements(conn: sqlite3.Connection) -> None:
    """What a turn stated that holds no more, found by the turn: recall marks such a
    turn "since changed" (a few rows; only ended relations are indexed)."""
    conn.execute(
        "CREATE INDEX idx_relations_ended_episode ON relations(evidence_episode) "
        "WHERE invalid_at IS NOT NULL"
    )


def _v19_timeline_sources(conn: sqlite3.Connection) -> None:
    """The dates a text names, found by the text: reading a store again replaces
    them (api/rederive.py)."""
    conn.execute(
        "CREATE INDEX idx_timeline_source ON timeline(json_extract(metadata, '$.source_uuid')) "
        "WHERE event_type = 'mentioned_date'"
    )


MIGRATIONS: tuple[Migration, ...] = (
    (1, "core_schema", core_schema.create),
    (2, "graph_links", _v2_graph_links),
    (3, "graph_seq", _v3_graph_seq),
    (4, "maintenance", _v4_maintenance),
    (5, "imports", _v5_imports),
    (6, "write_path_indexes", _v6_write_path_indexes),
    (7, "fact_claims", _v7_fact_claims),
    (8, "reread_claims", _reread_claims),
    (9, "reread_preference_claims", _reread_claims),
    (10, "turn_attachments", _v10_turn_attachments),
    (11, "owner_counts", _v11_owner_counts),
    (12, "timeline_flags", _v12_timeline_flags),
    (13, "relation_derivation", _v13_relation_derivation),
    (14, "turn_neighbours", _v14_turn_neighbours),
    (15, "entity_derivation", _v15_entity_derivation),
    (16, "mention_types", _v16_mention_types),
    (17, "screen_attachments", _v17_screen_attachments),
    (18, "ended_statements", _v18_ended_statements),
    (19, "timeline_sources", _v19_timeline_sources),
    (20, "mention_guesses", _v20_mention_guesses),
)

LATEST_VERSION = MIGRATIONS[-1][0]


_LEDGER = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at REAL NOT NULL)"""


def schema_objects(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """Every table, index, trigger and view of a database, with its SQL (spaces folded)."""
    rows = conn.execute(
        "SELECT type, name, COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return {(r[0], r[1]): " ".join(r[2].split()) for r in rows}


def expected_schema(version: int) -> dict[tuple[str, str], str]:
    """The objects a database migrated to ``version`` has, and nothing else: what a
    database from elsewhere (a backup) is checked against before it is trusted."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(_LEDGER)
        for number, _, apply in MIGRATIONS:
            if number <= version:
                apply(conn)
        return schema_objects(conn)
    finally:
        conn.close()


def applied_at(db: Database, name: str) -> float | None:
    """When the migration called ``name`` was applied, or None."""
    value = db.scalar("SELECT applied_at FROM schema_migrations WHERE name = ?", (name,))
    return None if value is None else float(value)


def current_version(db: Database) -> int:
    row = db.query_one(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    )
    if row is None:
        return 0
    return int(db.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


def migrate(db: Database) -> list[str]:
    """Apply pending migrations; return the names applied."""
    applied: list[str] = []
    with db.transaction() as conn:
        conn.execute(_LEDGER)
    for version, name, apply in MIGRATIONS:
        with db.transaction() as conn:
            done = conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (version,)
            ).fetchone()
            if done:
                continue
            apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                (version, name, time.time()),
            )
            applied.append(name)
    newest = int(db.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
    if newest > LATEST_VERSION:
        from hermes_memory.errors import StorageError

        raise StorageError(
            f"{db.path} has schema version {newest}, newer than this hermes-memory "
            f"understands ({LATEST_VERSION}); upgrade hermes-memory",
            path=str(db.path),
        )
    return applied
