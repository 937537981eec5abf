"""Import Hermes' own session history (``$HERMES_HOME/state.db``) as episodes.

Every user and assistant message with text becomes a turn of its session, owned
as the provider would have owned it live (platform, user, chat or gateway key),
with message id ``hermes:<row id>``. Turns already imported are skipped, so the
import is idempotent, and it commits a batch at a time, so an interrupted run
resumes where it stopped. State.db is opened read-only and never changed.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_memory.api.envelope import unwrap
from hermes_memory.api.memory_api import MemoryAPI
from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.errors import StorageError
from hermes_memory.hermes.scope import owner_from_hermes

_BATCH = 200
PREFIX = "hermes:"


@dataclass
class ImportReport:
    sessions: int = 0
    messages: int = 0
    imported: int = 0
    skipped: int = 0
    embedded: int = 0
    owners: set[str] = field(default_factory=set)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "messages": self.messages,
            "imported": self.imported,
            "skipped": self.skipped,
            "embedded": self.embedded,
            "owners": len(self.owners),
        }


def _open(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise StorageError(f"no Hermes session database at {path}", path=str(path))
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        conn.execute("SELECT 1 FROM sessions LIMIT 1")
        conn.execute("SELECT 1 FROM messages LIMIT 1")
    except sqlite3.Error as exc:
        raise StorageError(f"{path} is not a Hermes state.db: {exc}", path=str(path)) from None
    return conn


def import_sessions(
    api: MemoryAPI,
    state_db: Path,
    *,
    session: str | None = None,
    embed: bool = True,
    progress: Progress = QUIET,
) -> ImportReport:
    """Import every session (or just ``session``) of ``state_db``."""
    conn = _open(state_db)
    report = ImportReport()
    try:
        where, params = ("WHERE id = ?", [session]) if session else ("", [])
        sessions = conn.execute(
            f"SELECT id, source, user_id, session_key, chat_id, thread_id FROM sessions "
            f"{where} ORDER BY started_at",
            params,
        ).fetchall()
        known = api.message_ids(PREFIX)
        total = conn.execute(
            f"SELECT COUNT(*) FROM messages WHERE role IN ('user', 'assistant') "
            f"AND session_id IN (SELECT id FROM sessions {where})",
            params,
        ).fetchone()[0]
        with progress.stage("sessions", total) as advance:
            for s in sessions:
                report.sessions += 1
                view = api.as_owner(
                    owner_from_hermes(
                        {
                            "platform": s["source"],
                            "user_id": s["user_id"],
                            "gateway_session_key": s["session_key"],
                            "chat_id": s["chat_id"],
                            "thread_id": s["thread_id"],
                        },
                        api.config,
                    )
                )
                report.owners.add(repr(view.owner))
                _import_one(conn, view, s["id"], known, report, embed, advance)
    finally:
        conn.close()
    return report


def _import_one(
    conn: sqlite3.Connection,
    api: MemoryAPI,
    session_id: str,
    known: set[str],
    report: ImportReport,
    embed: bool,
    advance: Any,
) -> None:
    rows = conn.execute(
        "SELECT id, role, content, timestamp FROM messages WHERE session_id = ? "
        "AND role IN ('user', 'assistant') ORDER BY id",
        (session_id,),
    )
    batch: list[dict[str, Any]] = []
    seen = 0

    def flush() -> None:
        nonlocal seen
        if batch:
            stored = unwrap(api.ingest_turns(batch, embed=False))
            report.imported += len(stored)
            if embed:
                report.embedded += api.embed_now(list(stored))
            batch.clear()
        advance(seen)
        seen = 0

    for row in rows:
        report.messages += 1
        seen += 1
        message_id = f"{PREFIX}{row['id']}"
        text = _text_of(row["content"])
        if message_id in known or not text.strip():
            report.skipped += 1
            continue
        batch.append(
            {
                "speaker": row["role"],  # the query keeps user and assistant only
                "text": text,
                "session_id": session_id,
                "message_id": message_id,
                "timestamp": float(row["timestamp"]),
                "metadata": {"imported_from": "hermes"},
            }
        )
        if len(batch) >= _BATCH:
            flush()
    flush()


def _text_of(content: Any) -> str:
    """A message's text; multimodal content is a JSON list of parts."""
    if not isinstance(content, str):
        return ""
    if content.startswith("[{"):
        try:
            parts = json.loads(content)
        except ValueError:
            return content
        if isinstance(parts, list):
            return "\n".join(
                str(p.get("text", "")) for p in parts if isinstance(p, dict) and p.get("text")
            )
    return content
