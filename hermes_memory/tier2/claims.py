"""The claims each fact makes, stored when it is linked (migration 7, `fact_claims`).

Supersession asks "which live facts claim another value for this subject and
predicate?": with the claims stored that is one indexed query, where before every
fact naming the subject was extracted again on every write (a cost that grew with
the store) and every fact on every consolidate run. A claim is
``(subject, predicate, object)``; subject None stands for "we"/the user.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from hermes_memory.tier2.db import Database

Claim = tuple[str | None, str, str]


def record(conn: sqlite3.Connection, fact_id: int, claims: Iterable[Claim]) -> None:
    """Replace the stored claims of one fact and mark it read."""
    conn.execute("DELETE FROM fact_claims WHERE fact_id = ?", (fact_id,))
    conn.executemany(
        "INSERT INTO fact_claims(fact_id, subject, predicate, object) VALUES (?, ?, ?, ?)",
        [(fact_id, *c) for c in dict.fromkeys(claims)],
    )
    conn.execute("UPDATE facts SET claims_read = 1 WHERE id = ?", (fact_id,))


def record_read(db: Database, read: Iterable[tuple[int, str, Iterable[Claim]]]) -> None:
    """Store claims read outside the write lock: ``(fact id, the text they were read
    from, claims)``; a fact whose text changed since is left for its next read."""
    with db.transaction() as conn:
        for fact_id, content, found in read:
            now = conn.execute("SELECT content FROM facts WHERE id = ?", (fact_id,)).fetchone()
            if now is not None and now["content"] == content:
                record(conn, fact_id, found)


def any_fact(db: Database) -> bool:
    """Whether the store holds any fact at all (deleted ones included)."""
    return bool(db.scalar("SELECT EXISTS (SELECT 1 FROM facts)"))


def forget(conn: sqlite3.Connection, fact_id: int) -> None:
    """The fact's text changed: its claims are read again (by consolidate)."""
    conn.execute("DELETE FROM fact_claims WHERE fact_id = ?", (fact_id,))
    conn.execute("UPDATE facts SET claims_read = 0 WHERE id = ?", (fact_id,))


def unread(db: Database, limit: int, *, after: int = 0) -> list[sqlite3.Row]:
    """Live facts whose claims are not read (stored before migration 7, edited, or read
    by another extractor), in id order past ``after``."""
    return db.query(
        "SELECT id, content FROM facts WHERE claims_read = 0 AND deleted_at IS NULL "
        "AND id > ? ORDER BY id LIMIT ?",
        (after, limit),
    )


def count_unread(db: Database) -> int:
    """How many live facts wait for their claims to be read."""
    return int(db.scalar("SELECT COUNT(*) FROM facts WHERE claims_read = 0 AND deleted_at IS NULL"))


def reread_all(conn: sqlite3.Connection) -> None:
    """Every fact's claims are to be read again (another extractor reads them)."""
    conn.execute("UPDATE facts SET claims_read = 0 WHERE claims_read = 1")


def contradicted(
    conn: sqlite3.Connection,
    *,
    subject: str | None,
    predicates: Sequence[str],
    obj: str,
    same_object: bool,
    exclude: int,
    visible: tuple[str, list[str]],
    other_subject: bool = False,
) -> list[sqlite3.Row]:
    """Live, still-valid facts visible to the owner that claim ``predicates`` for
    ``subject`` (``other_subject``: for anyone else), with the object ``obj``
    (``same_object``) or another one; each row is the fact plus its claim's
    ``claim_predicate`` and ``claim_object``."""
    clause, params = visible
    marks = ",".join("?" * len(predicates))
    op = "=" if same_object else "!="
    who = "IS NOT" if other_subject else "IS"
    rows: list[sqlite3.Row] = conn.execute(
        f"""SELECT f.*, c.predicate AS claim_predicate, c.object AS claim_object
            FROM fact_claims c JOIN facts f ON f.id = c.fact_id
            WHERE c.predicate IN ({marks}) AND c.subject {who} ? AND c.object {op} ?
              AND f.id != ? AND f.deleted_at IS NULL AND f.invalid_at IS NULL AND {clause}
            ORDER BY f.created_at DESC LIMIT 100""",
        (*predicates, subject, obj, exclude, *params),
    ).fetchall()
    return rows
