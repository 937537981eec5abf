"""The job run ledger and the lease that lets one process at a time run a job.

A lease row names its holder (``host:pid:nonce``). It may be taken over once it
is past ``expires_at``, or at once when the holder is a process on this host
that no longer exists (a job killed with SIGKILL leaves no one to release it).
A run whose lease was taken over is recorded as ``interrupted``.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hermes_memory.tier2 import migrations
from hermes_memory.tier2.db import Database

_HOST = socket.gethostname()


def new_holder() -> str:
    return f"{_HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def holder_alive(holder: str) -> bool:
    """False only when the holder is a process of this host that has exited."""
    host, _, rest = holder.partition(":")
    pid_text = rest.partition(":")[0]
    if host != _HOST or not pid_text.isdigit():
        return True
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Lease:
    job: str
    holder: str
    run_id: int
    started_at: float


def acquire(
    db: Database, job: str, *, trigger: str, clock: Callable[[], float], ttl: float
) -> Lease | None:
    """Start a run of ``job``: take its lease and open a ledger row, or return None
    if another live holder has it. The time is read once the write lock is held, so
    a run's recorded start never precedes the end of the run it waited for."""
    holder = new_holder()
    with db.transaction() as conn:
        now = clock()
        row = conn.execute("SELECT * FROM job_leases WHERE job = ?", (job,)).fetchone()
        if row is not None:
            if row["expires_at"] > now and holder_alive(row["holder"]):
                return None
            _close_run(conn, row["run_id"], now, "interrupted", None, "its process stopped")
        cur = conn.execute(
            "INSERT INTO job_runs(job, trigger, holder, started_at, status) "
            "VALUES (?, ?, ?, ?, 'running')",
            (job, trigger, holder, now),
        )
        run_id = int(cur.lastrowid or 0)
        conn.execute(
            "INSERT INTO job_leases(job, holder, run_id, acquired_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(job) DO UPDATE SET holder = excluded.holder, "
            "run_id = excluded.run_id, acquired_at = excluded.acquired_at, "
            "expires_at = excluded.expires_at",
            (job, holder, run_id, now, now + ttl),
        )
    return Lease(job, holder, run_id, now)


def renew(db: Database, lease: Lease, *, now: float, ttl: float) -> None:
    with db.transaction() as conn:
        conn.execute(
            "UPDATE job_leases SET expires_at = ? WHERE job = ? AND holder = ?",
            (now + ttl, lease.job, lease.holder),
        )


def finish(
    db: Database,
    lease: Lease,
    *,
    now: float,
    status: str,
    report: dict[str, Any] | None,
    error: str | None,
) -> None:
    with db.transaction() as conn:
        _close_run(conn, lease.run_id, now, status, report, error)
        conn.execute(
            "DELETE FROM job_leases WHERE job = ? AND holder = ?", (lease.job, lease.holder)
        )


def _close_run(
    conn: sqlite3.Connection,
    run_id: int | None,
    now: float,
    status: str,
    report: dict[str, Any] | None,
    error: str | None,
) -> None:
    conn.execute(
        "UPDATE job_runs SET finished_at = ?, status = ?, report = ?, error = ? "
        "WHERE id = ? AND status = 'running'",
        (now, status, json.dumps(report, default=str) if report else None, error, run_id),
    )


def last_runs(db: Database) -> dict[str, sqlite3.Row]:
    """The latest run of each job."""
    rows = db.query(
        "SELECT r.* FROM job_runs r JOIN (SELECT job, MAX(id) AS id FROM job_runs "
        "GROUP BY job) m ON m.id = r.id"
    )
    return {r["job"]: r for r in rows}


def leases(db: Database) -> dict[str, sqlite3.Row]:
    return {r["job"]: r for r in db.query("SELECT * FROM job_leases")}


def since(db: Database) -> float:
    """When scheduling began for this store (the ledger's creation): the baseline
    of a job that never ran."""
    return migrations.applied_at(db, "maintenance") or 0.0


def trim(db: Database, *, keep: int = 500) -> int:
    """Drop all but the newest ``keep`` finished runs of each job."""
    with db.transaction() as conn:
        cur = conn.execute(
            """DELETE FROM job_runs WHERE status != 'running' AND id NOT IN (
                   SELECT id FROM (SELECT id, ROW_NUMBER() OVER (
                       PARTITION BY job ORDER BY id DESC) AS n FROM job_runs) WHERE n <= ?)""",
            (keep,),
        )
        return cur.rowcount
