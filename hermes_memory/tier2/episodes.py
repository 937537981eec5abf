"""Episodes: raw conversation turns, stored losslessly and paged back in order."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hermes_memory.tier2 import journal
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.fts import (
    common_term_threshold,
    doc_count,
    filtered_match,
    more_than,
    planned_search,
    query_terms,
)
from hermes_memory.tier2.passages import TermStats
from hermes_memory.tier2.records import Episode, Owner, content_hash, new_uuid
from hermes_memory.validation import clean_text


@dataclass(frozen=True)
class EpisodeHit:
    episode: Episode
    bm25: float


@dataclass(frozen=True)
class TurnInput:
    speaker: str
    text: str
    session_id: str
    message_id: str
    timestamp: float
    metadata: dict[str, Any]
    flags: tuple[str, ...] = ()


def attachment_text(metadata: dict[str, Any]) -> str:
    """The searchable text of a turn's attachments: their captions (or names), in
    order. ``metadata["attachments"]`` is a list of mappings, checked at the API."""
    parts = []
    for item in metadata.get("attachments") or ():
        for key in ("caption", "name"):
            if isinstance(item.get(key), str) and item[key].strip():
                parts.append(item[key].strip())
                break
    return "; ".join(parts)


def screened_attachments(
    metadata: dict[str, Any], screen: Callable[[str, str], tuple[str, list[str]]]
) -> tuple[dict[str, Any], list[str]]:
    """``metadata`` with each attachment's caption and name passed through
    ``screen(text, key)`` (the turn's guard: they are searched and shown beside its
    words), and the flags that raised; blank ones are left as they are."""
    items = metadata.get("attachments")
    if not items:
        return metadata, []
    flags: list[str] = []
    screened = []
    for item in items:
        item = dict(item)
        for key in ("caption", "name"):
            said = clean_text(item.get(key))
            if isinstance(said, str) and said.strip():
                item[key], found = screen(said, key)
                flags += found
        screened.append(item)
    return {**metadata, "attachments": screened}, flags


class EpisodeStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        # Per user: the newest row id looked at, and the speakers seen up to it (read
        # and updated under the snapshot's database lock).
        self._speakers: dict[tuple[str, ...], tuple[int, frozenset[str]]] = {}
        # The turns' average length and the newest row id it was measured at.
        self._avg_chars: tuple[int, float] = (0, 0.0)

    def add_many(
        self, owner: Owner, turns: list[TurnInput], *, now: float, actor: str
    ) -> list[tuple[Episode, bool]]:
        """Store turns in one transaction; a turn already stored (same session and
        message id) is returned unchanged with ``False``."""
        out: list[tuple[Episode, bool]] = []
        # Turns are always local: session_key carries the owner's session.
        cols = owner.columns(local=True)
        with self.db.transaction() as conn:
            for t in turns:
                existing = conn.execute(
                    "SELECT * FROM episodes WHERE platform = ? AND agent = ? AND user_id = ? "
                    "AND session_id = ? AND message_id = ?",
                    (owner.platform, owner.agent, owner.user_id, t.session_id, t.message_id),
                ).fetchone()
                if existing is not None:
                    out.append((Episode.from_row(existing), False))
                    continue
                uid = new_uuid()
                cur = conn.execute(
                    """INSERT INTO episodes(uuid, session_id, message_id, speaker, text,
                           content_hash, timestamp, platform, agent, user_id, session_key,
                           created_at, flags, metadata, attachments)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    (
                        uid,
                        t.session_id,
                        t.message_id,
                        t.speaker,
                        t.text,
                        content_hash(t.text),
                        t.timestamp,
                        *cols.values(),
                        now,
                        json.dumps(list(t.flags)),
                        json.dumps(t.metadata),
                        attachment_text(t.metadata),
                    ),
                )
                journal.audit(
                    conn,
                    now=now,
                    action="episode_add",
                    actor=actor,
                    target_uuid=uid,
                    diff={
                        "new": {
                            "session_id": t.session_id,
                            "message_id": t.message_id,
                            "speaker": t.speaker,
                        }
                    },
                )
                journal.enqueue_embedding(conn, now=now, kind="episode", item_uuid=uid)
                row = conn.execute(
                    "SELECT * FROM episodes WHERE id = ?", (cur.lastrowid,)
                ).fetchone()
                out.append((Episode.from_row(row), True))
        return out

    def page(
        self, owner: Owner, session_id: str, *, after_id: int = 0, limit: int = 50
    ) -> list[Episode]:
        """Turns of one session in order, ``limit`` at a time after row ``after_id``."""
        clause, params = owner.visible_clause()
        rows = self.db.query(
            f"SELECT * FROM episodes WHERE session_id = ? AND id > ? AND deleted_at IS NULL "
            f"AND {clause} ORDER BY timestamp, id LIMIT ?",
            (session_id, after_id, *params, limit),
        )
        return [Episode.from_row(r) for r in rows]

    def neighbours(self, owner: Owner, rowids: list[int]) -> dict[int, tuple[int, int]]:
        """The previous and next turn (row ids, 0 if none) of each turn in its session."""
        if not rowids:
            return {}
        clause, params = owner.visible_clause("n")
        side = (
            "SELECT {agg}(n.id) FROM episodes n WHERE n.session_id = e.session_id "
            f"AND n.id {{op}} e.id AND n.deleted_at IS NULL AND {clause}"
        )
        marks = ",".join("?" * len(rowids))
        rows = self.db.query(
            f"SELECT e.id, ({side.format(agg='MAX', op='<')}) AS prev, "
            f"({side.format(agg='MIN', op='>')}) AS next "
            f"FROM episodes e WHERE e.id IN ({marks})",
            (*params, *params, *rowids),
        )
        return {r["id"]: (r["prev"] or 0, r["next"] or 0) for r in rows}

    def raised_before(self, owner: Owner, turn: Episode) -> Episode | None:
        """The turn of ``turn``'s speaker two before it in its session when someone else
        spoke between (the exchange ``turn`` answers: asked, replied, settled), or None."""
        clause, params = owner.visible_clause("n")
        rows = self.db.query(
            f"""SELECT n.* FROM episodes n
                WHERE n.session_id = ? AND n.id < ? AND n.deleted_at IS NULL AND {clause}
                ORDER BY n.id DESC LIMIT 2""",
            (turn.session_id, turn.rowid, *params),
        )
        if len(rows) < 2 or rows[0]["speaker"] == turn.speaker:
            return None
        return Episode.from_row(rows[1]) if rows[1]["speaker"] == turn.speaker else None

    def get_many(self, owner: Owner, uuids: list[str]) -> dict[str, Episode]:
        if not uuids:
            return {}
        clause, params = owner.visible_clause(by_id=True)
        marks = ",".join("?" * len(uuids))
        rows = self.db.query(
            f"SELECT * FROM episodes WHERE uuid IN ({marks}) AND deleted_at IS NULL AND {clause}",
            (*uuids, *params),
        )
        return {r["uuid"]: Episode.from_row(r) for r in rows}

    def term_stats(self, terms: list[str]) -> TermStats:
        """The turn index's statistics for BM25 over passages (tier2/passages.py).
        Counts stop at the common-word threshold, past which a word weighs almost
        nothing (fts.planned_search), so a common word costs no walk of its doclist;
        the average length is that of the newest 500 turns."""
        with self.db.snapshot() as conn:
            n_docs = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM episodes").fetchone()[0])
            cap = common_term_threshold(n_docs)
            dfs = tuple(doc_count(conn, "episodes_fts", t, at_most=cap) for t in terms)
            seen, avg = self._avg_chars
            # Measured again once the store has grown by 2%.
            if n_docs != seen and abs(n_docs - seen) >= seen // 50:
                row = conn.execute(
                    "SELECT AVG(length(text)) FROM "
                    "(SELECT text FROM episodes ORDER BY id DESC LIMIT 500)"
                ).fetchone()
                avg = float(row[0] or 0.0)
                self._avg_chars = (n_docs, avg)
        return TermStats(n_docs, dfs, avg)

    def search(self, owner: Owner, text: str, *, limit: int = 10) -> list[EpisodeHit]:
        """Turns matching ``text`` by BM25 (common words planned as for facts)."""
        terms = query_terms(text)
        if not terms:
            return []
        clause, params = owner.visible_clause("e")

        filters = f"e.deleted_at IS NULL AND {clause}"

        with self.db.snapshot() as conn:
            # The newest id stands in for the count (deleted turns are rare): O(1).
            n_docs = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM episodes").fetchone()[0])
            ranked = planned_search(
                terms,
                n_docs,
                limit,
                more_than=lambda expr, n: more_than(conn, "episodes_fts", expr, n),
                doc_count=lambda term: doc_count(conn, "episodes_fts", term),
                match=lambda expr, n: filtered_match(
                    conn, "episodes", "e", filters, params, expr, n
                ),
                content=lambda row: f"{row['speaker']} {row['text']}",
            )
        return [EpisodeHit(Episode.from_row(r), score) for r, score in ranked]

    def between(self, owner: Owner, start: float, end: float, *, limit: int) -> list[str]:
        """Uuids of the turns said between ``start`` and ``end``, newest first."""
        clause, params = owner.visible_clause(by_id=True)  # stay on the time index
        rows = self.db.query(
            "SELECT uuid FROM episodes WHERE timestamp BETWEEN ? AND ? AND deleted_at IS NULL "
            f"AND {clause} ORDER BY timestamp DESC LIMIT ?",
            (start, end, *params, limit),
        )
        return [r["uuid"] for r in rows]

    def with_message_ids(self, owner: Owner, message_ids: list[str]) -> list[str]:
        """Uuids of the live turns this owner can see that carry these message ids."""
        if not message_ids:
            return []
        clause, params = owner.visible_clause()
        marks = ",".join("?" * len(message_ids))
        rows = self.db.query(
            f"SELECT uuid FROM episodes WHERE message_id IN ({marks}) AND {clause} "
            "AND deleted_at IS NULL",
            (*message_ids, *params),
        )
        return [r["uuid"] for r in rows]

    def message_ids_starting(self, prefix: str) -> set[str]:
        """Every stored message id (any owner, deleted included) that starts with
        ``prefix``: what an importer naming its ids so has already brought in."""
        rows = self.db.query(
            "SELECT message_id FROM episodes WHERE substr(message_id, 1, ?) = ?",
            (len(prefix), prefix),
        )
        return {str(r[0]) for r in rows}

    def speakers(self, owner: Owner) -> frozenset[str]:
        """The speakers of the user's turns, in any of their sessions (who can be named
        in a question). Kept per user and topped up from the rows added since the last
        call, so a recall pays one index seek and a process reads the table once; a
        speaker whose turns were all deleted stays until the store is reopened."""
        key = (owner.platform, owner.agent, owner.user_id)
        with self.db.snapshot() as conn:
            seen, known = self._speakers.get(key, (0, frozenset()))
            newest = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM episodes").fetchone()[0])
            if newest > seen:
                # Unary + keeps SQLite on the id range rather than an owner index.
                rows = conn.execute(
                    "SELECT DISTINCT speaker FROM episodes WHERE id > ? AND deleted_at IS NULL "
                    "AND +platform = ? AND +agent = ? AND +user_id = ?",
                    (seen, *key),
                ).fetchall()
                known = known | {str(r[0]) for r in rows}
                self._speakers[key] = (newest, known)
        return known

    def count(self) -> int:
        return int(self.db.scalar("SELECT COUNT(*) FROM episodes WHERE deleted_at IS NULL"))
