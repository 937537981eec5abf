"""The first schema (migration 1): the core tables, their indexes and the triggers
that keep the FTS index and the live-row counters in step. Later changes are further
migrations (``migrations.py``); this one is never edited once shipped."""

from __future__ import annotations

import sqlite3

OWNER_COLUMNS = """
    platform TEXT NOT NULL DEFAULT '',
    agent TEXT NOT NULL DEFAULT '',
    user_id TEXT NOT NULL DEFAULT '',
    session_key TEXT NOT NULL DEFAULT ''"""


def create(conn: sqlite3.Connection) -> None:
    """Every table, index and trigger of schema version 1."""
    statements = [
        f"""CREATE TABLE facts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            category TEXT NOT NULL,
            scope TEXT NOT NULL DEFAULT '/',
            importance REAL NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
            confidence REAL NOT NULL DEFAULT 1.0 CHECK (confidence BETWEEN 0 AND 1),
            source_type TEXT NOT NULL,
            source_id TEXT,
            {OWNER_COLUMNS},
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            expires_at REAL,
            valid_at REAL,
            invalid_at REAL,
            expired_at REAL,
            superseded_by TEXT,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_accessed REAL,
            is_archived INTEGER NOT NULL DEFAULT 0,
            deleted_at REAL,
            flags TEXT NOT NULL DEFAULT '[]',
            metadata TEXT NOT NULL DEFAULT '{{}}'
        )""",
        "CREATE INDEX idx_facts_owner ON facts(platform, agent, user_id, session_key)",
        "CREATE INDEX idx_facts_category ON facts(category)",
        "CREATE INDEX idx_facts_scope ON facts(scope)",
        "CREATE INDEX idx_facts_source ON facts(source_type, source_id)",
        "CREATE INDEX idx_facts_created ON facts(created_at DESC)",
        # Exact dedupe: one live fact per content per owner and session.
        """CREATE UNIQUE INDEX idx_facts_hash_live ON facts(
            content_hash, platform, agent, user_id, session_key) WHERE deleted_at IS NULL""",
        """CREATE VIRTUAL TABLE facts_fts USING fts5(
            content, content='facts', content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER facts_fts_ai AFTER INSERT ON facts BEGIN
            INSERT INTO facts_fts(rowid, content) VALUES (new.id, new.content); END""",
        """CREATE TRIGGER facts_fts_ad AFTER DELETE ON facts BEGIN
            INSERT INTO facts_fts(facts_fts, rowid, content)
            VALUES ('delete', old.id, old.content); END""",
        """CREATE TRIGGER facts_fts_au AFTER UPDATE OF content ON facts BEGIN
            INSERT INTO facts_fts(facts_fts, rowid, content)
            VALUES ('delete', old.id, old.content);
            INSERT INTO facts_fts(rowid, content) VALUES (new.id, new.content); END""",
        f"""CREATE TABLE episodes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            session_id TEXT NOT NULL,
            message_id TEXT NOT NULL,
            speaker TEXT NOT NULL,
            text TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            timestamp REAL NOT NULL,
            {OWNER_COLUMNS},
            created_at REAL NOT NULL,
            deleted_at REAL,
            flags TEXT NOT NULL DEFAULT '[]',
            metadata TEXT NOT NULL DEFAULT '{{}}'
        )""",
        # A turn is stored once: re-ingesting the same message is a no-op.
        """CREATE UNIQUE INDEX idx_episodes_message ON episodes(
            platform, agent, user_id, session_id, message_id)""",
        "CREATE INDEX idx_episodes_session ON episodes(session_id, timestamp, id)",
        "CREATE INDEX idx_episodes_time ON episodes(timestamp DESC)",
        """CREATE VIRTUAL TABLE episodes_fts USING fts5(
            speaker, text, content='episodes', content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER episodes_fts_ai AFTER INSERT ON episodes BEGIN
            INSERT INTO episodes_fts(rowid, speaker, text)
            VALUES (new.id, new.speaker, new.text); END""",
        """CREATE TRIGGER episodes_fts_ad AFTER DELETE ON episodes BEGIN
            INSERT INTO episodes_fts(episodes_fts, rowid, speaker, text)
            VALUES ('delete', old.id, old.speaker, old.text); END""",
        """CREATE TRIGGER episodes_fts_au AFTER UPDATE OF speaker, text ON episodes BEGIN
            INSERT INTO episodes_fts(episodes_fts, rowid, speaker, text)
            VALUES ('delete', old.id, old.speaker, old.text);
            INSERT INTO episodes_fts(rowid, speaker, text)
            VALUES (new.id, new.speaker, new.text); END""",
        """CREATE TABLE fact_evidence (
            fact_id INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            PRIMARY KEY (fact_id, episode_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX idx_evidence_episode ON fact_evidence(episode_id)",
        f"""CREATE TABLE entities (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            name_norm TEXT NOT NULL,
            entity_type TEXT NOT NULL,
            aliases TEXT NOT NULL DEFAULT '[]',
            description TEXT,
            {OWNER_COLUMNS},
            first_seen REAL NOT NULL,
            last_seen REAL NOT NULL,
            occurrence_count INTEGER NOT NULL DEFAULT 1,
            deleted_at REAL,
            metadata TEXT NOT NULL DEFAULT '{{}}'
        )""",
        """CREATE UNIQUE INDEX idx_entities_name ON entities(
            name_norm, platform, agent, user_id, session_key) WHERE deleted_at IS NULL""",
        "CREATE INDEX idx_entities_type ON entities(entity_type)",
        """CREATE TABLE entity_aliases (
            alias_norm TEXT NOT NULL,
            entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            PRIMARY KEY (alias_norm, entity_id)
        ) WITHOUT ROWID""",
        "CREATE INDEX idx_alias_entity ON entity_aliases(entity_id)",
        """CREATE VIRTUAL TABLE entities_fts USING fts5(
            name, aliases, description, content='entities', content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER entities_fts_ai AFTER INSERT ON entities BEGIN
            INSERT INTO entities_fts(rowid, name, aliases, description)
            VALUES (new.id, new.name, new.aliases, COALESCE(new.description, '')); END""",
        """CREATE TRIGGER entities_fts_ad AFTER DELETE ON entities BEGIN
            INSERT INTO entities_fts(entities_fts, rowid, name, aliases, description)
            VALUES ('delete', old.id, old.name, old.aliases, COALESCE(old.description, '')); END""",
        """CREATE TRIGGER entities_fts_au AFTER UPDATE OF name, aliases, description ON entities
            BEGIN
            INSERT INTO entities_fts(entities_fts, rowid, name, aliases, description)
            VALUES ('delete', old.id, old.name, old.aliases, COALESCE(old.description, ''));
            INSERT INTO entities_fts(rowid, name, aliases, description)
            VALUES (new.id, new.name, new.aliases, COALESCE(new.description, '')); END""",
        f"""CREATE TABLE relations (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            from_entity TEXT NOT NULL REFERENCES entities(uuid),
            to_entity TEXT NOT NULL REFERENCES entities(uuid),
            relation_type TEXT NOT NULL,
            strength REAL NOT NULL DEFAULT 1.0 CHECK (strength BETWEEN 0 AND 1),
            evidence_fact TEXT REFERENCES facts(uuid),
            {OWNER_COLUMNS},
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            valid_at REAL,
            invalid_at REAL,
            expired_at REAL,
            deleted_at REAL,
            metadata TEXT NOT NULL DEFAULT '{{}}'
        )""",
        "CREATE INDEX idx_relations_from ON relations(from_entity)",
        "CREATE INDEX idx_relations_to ON relations(to_entity)",
        "CREATE INDEX idx_relations_type ON relations(relation_type)",
        f"""CREATE TABLE timeline (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            event_type TEXT NOT NULL,
            title TEXT NOT NULL,
            description TEXT,
            related_entities TEXT NOT NULL DEFAULT '[]',
            related_facts TEXT NOT NULL DEFAULT '[]',
            session_id TEXT,
            timestamp REAL NOT NULL,
            importance REAL NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
            {OWNER_COLUMNS},
            created_at REAL NOT NULL,
            deleted_at REAL,
            metadata TEXT NOT NULL DEFAULT '{{}}'
        )""",
        "CREATE INDEX idx_timeline_time ON timeline(timestamp DESC)",
        "CREATE INDEX idx_timeline_type ON timeline(event_type)",
        """CREATE VIRTUAL TABLE timeline_fts USING fts5(
            title, description, content='timeline', content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER timeline_fts_ai AFTER INSERT ON timeline BEGIN
            INSERT INTO timeline_fts(rowid, title, description)
            VALUES (new.id, new.title, COALESCE(new.description, '')); END""",
        """CREATE TRIGGER timeline_fts_ad AFTER DELETE ON timeline BEGIN
            INSERT INTO timeline_fts(timeline_fts, rowid, title, description)
            VALUES ('delete', old.id, old.title, COALESCE(old.description, '')); END""",
        """CREATE TRIGGER timeline_fts_au AFTER UPDATE OF title, description ON timeline BEGIN
            INSERT INTO timeline_fts(timeline_fts, rowid, title, description)
            VALUES ('delete', old.id, old.title, COALESCE(old.description, ''));
            INSERT INTO timeline_fts(rowid, title, description)
            VALUES (new.id, new.title, COALESCE(new.description, '')); END""",
        """CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            timestamp REAL NOT NULL,
            action TEXT NOT NULL,
            tier TEXT NOT NULL,
            actor TEXT NOT NULL,
            target_uuid TEXT,
            diff TEXT,
            success INTEGER NOT NULL DEFAULT 1
        )""",
        "CREATE INDEX idx_audit_target ON audit_log(target_uuid)",
        "CREATE INDEX idx_audit_time ON audit_log(timestamp DESC)",
        # The outbox tier 3 drains: one pending row per item, newest op wins.
        """CREATE TABLE embed_queue (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            item_kind TEXT NOT NULL,
            item_uuid TEXT NOT NULL,
            op TEXT NOT NULL CHECK (op IN ('upsert', 'delete')),
            enqueued_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL DEFAULT 0,
            last_error TEXT,
            status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'poison'))
        )""",
        "CREATE UNIQUE INDEX idx_queue_item ON embed_queue(item_kind, item_uuid)",
        "CREATE INDEX idx_queue_due ON embed_queue(status, next_attempt_at, id)",
        # Live-row counters kept by triggers, so capacity checks are O(1).
        """CREATE TABLE live_counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL)""",
        "INSERT INTO live_counts VALUES ('facts', 0), ('entities', 0)",
        *counter_triggers("facts"),
        *counter_triggers("entities"),
        # Health of each derived tier (tier3, graph): ok | needs_repair | rebuilding.
        """CREATE TABLE derived_state (
            name TEXT PRIMARY KEY,
            status TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}',
            updated_at REAL NOT NULL
        )""",
    ]
    for statement in statements:
        conn.execute(statement)


def counter_triggers(table: str) -> list[str]:
    bump = f"UPDATE live_counts SET n = n + {{}} WHERE name = '{table}'"
    return [
        f"""CREATE TRIGGER {table}_count_ai AFTER INSERT ON {table}
            WHEN new.deleted_at IS NULL BEGIN {bump.format(1)}; END""",
        f"""CREATE TRIGGER {table}_count_ad AFTER DELETE ON {table}
            WHEN old.deleted_at IS NULL BEGIN {bump.format(-1)}; END""",
        f"""CREATE TRIGGER {table}_count_soft AFTER UPDATE OF deleted_at ON {table}
            WHEN (old.deleted_at IS NULL) != (new.deleted_at IS NULL)
            BEGIN UPDATE live_counts SET n = n + (CASE WHEN new.deleted_at IS NULL
                THEN 1 ELSE -1 END) WHERE name = '{table}'; END""",
    ]
