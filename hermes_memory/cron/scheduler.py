"""Which maintenance jobs exist, when each is due, and running them one at a time.

A job is due when its cron schedule (croniter, in ``cron.timezone``) has fired
since its last run started, or, for a job that never ran, since the ledger was
created. After downtime a job that missed several firings is due once, not once
per firing: its next due time is computed from the run that just happened.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from croniter import croniter

from hermes_memory.api.maintenance import Maintenance
from hermes_memory.clock import to_iso
from hermes_memory.config import MemoryConfig
from hermes_memory.cron import consolidate, embed_queue, graph_refresh, ledger, prune, verify
from hermes_memory.cron.progress import QUIET, JobInterrupted, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.errors import HermesMemoryError, JobError

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

log = logging.getLogger("hermes_memory.cron")

JobFunc = Callable[[Maintenance, float, Progress], JobReport]


@dataclass(frozen=True)
class JobSpec:
    name: str
    run: JobFunc
    schedule_key: str  # the CronConfig field holding its schedule
    description: str


JOBS: dict[str, JobSpec] = {
    spec.name: spec
    for spec in (
        JobSpec(
            "embed_queue",
            embed_queue.run,
            "embed_schedule",
            "embed what the outbox holds (retries, poison after 5 tries)",
        ),
        JobSpec(
            "consolidate",
            consolidate.run,
            "consolidate_schedule",
            "merge near-duplicate facts and entities, resolve conflicts, reinforce importance",
        ),
        JobSpec(
            "graph_refresh",
            graph_refresh.run,
            "graph_rebuild_schedule",
            "sync or rebuild the graph, check it against SQLite, centrality and communities",
        ),
        JobSpec(
            "prune",
            prune.run,
            "prune_schedule",
            "archive expired facts, thin the session index, compact and vacuum",
        ),
        JobSpec(
            "verify",
            verify.run,
            "verify_schedule",
            "count truth against vectors and graph, check FTS; report drift",
        ),
    )
}


def spec(name: str) -> JobSpec:
    if name not in JOBS:
        raise JobError(f"unknown job {name!r} (one of {', '.join(JOBS)})", job=name)
    return JOBS[name]


def schedule_of(config: MemoryConfig, name: str) -> str:
    return str(getattr(config.cron, spec(name).schedule_key))


def _zone(config: MemoryConfig) -> tzinfo:
    if config.cron.timezone == "local":
        zone = datetime.now().astimezone().tzinfo
        assert zone is not None
        return zone
    from zoneinfo import ZoneInfo

    return ZoneInfo(config.cron.timezone)


def next_fire(config: MemoryConfig, name: str, after: float) -> float:
    """The first time the job's schedule fires strictly after ``after``."""
    start = datetime.fromtimestamp(after, tz=_zone(config))
    return float(croniter(schedule_of(config, name), start).get_next(float))


@dataclass(frozen=True)
class Outcome:
    job: str
    ran: bool
    status: str  # ok | failed | interrupted | busy
    report: dict[str, Any] | None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.job,
            "ran": self.ran,
            "status": self.status,
            "report": self.report,
            "error": self.error,
        }


def status(api: MemoryAPI, now: float) -> list[dict[str, Any]]:
    """Each job: schedule, last run, next run, whether it is due or running now."""
    last = ledger.last_runs(api.db)
    held = ledger.leases(api.db)
    # A clock behind the ledger's creation (a frozen test clock, a fixed skew)
    # must not push every first run into the future.
    since = min(ledger.since(api.db), now)
    out = []
    for name, job in JOBS.items():
        run = last.get(name)
        base = run["started_at"] if run is not None else since
        due_at = next_fire(api.config, name, base)
        running = name in held and held[name]["expires_at"] > now
        out.append(
            {
                "job": name,
                "schedule": schedule_of(api.config, name),
                "description": job.description,
                "last_run": to_iso(run["started_at"]) if run is not None else None,
                "last_status": run["status"] if run is not None else None,
                "last_error": run["error"] if run is not None else None,
                "next_run": to_iso(due_at if due_at > now else next_fire(api.config, name, now)),
                "due": due_at <= now and not running,
                "running": running,
            }
        )
    return out


def due_jobs(api: MemoryAPI, now: float) -> list[str]:
    return [s["job"] for s in status(api, now) if s["due"]]


def run_job(
    api: MemoryAPI,
    name: str,
    *,
    now: float | None = None,
    trigger: str = "manual",
    progress: Progress = QUIET,
) -> Outcome:
    """Run one job under its lease; ``busy`` (nothing done) if another holder runs it."""
    job = spec(name)
    ttl = api.config.cron.lease_seconds
    clock = api.clock if now is None else (lambda: now)
    lease = ledger.acquire(api.db, name, trigger=trigger, clock=clock, ttl=ttl)
    if lease is None:
        return Outcome(name, False, "busy", None, "another process is running this job")
    guarded = Progress(
        progress.mode,
        stop=progress.stop,
        heartbeat=lambda: ledger.renew(api.db, lease, now=api.clock(), ttl=ttl),
    )
    log.info("%s: started (%s)", name, trigger)
    try:
        report = job.run(Maintenance(api), lease.started_at, guarded)
    except JobInterrupted:
        ledger.finish(api.db, lease, now=api.clock(), status="interrupted", report=None,
                      error="stopped on request")  # fmt: skip
        log.info("%s: stopped on request", name)
        return Outcome(name, True, "interrupted", None, "stopped on request")
    except Exception as exc:
        message = str(exc) if isinstance(exc, HermesMemoryError) else repr(exc)
        ledger.finish(api.db, lease, now=api.clock(), status="failed", report=None,
                      error=message[:2000])  # fmt: skip
        log.error("%s: failed: %s\n%s", name, message, traceback.format_exc())
        return Outcome(name, True, "failed", None, message)
    data = report.to_dict()
    ledger.finish(api.db, lease, now=api.clock(), status="ok", report=data, error=None)
    log.info("%s", report.summary())
    return Outcome(name, True, "ok", data)


def run_due(
    api: MemoryAPI, *, now: float | None = None, progress: Progress = QUIET
) -> list[Outcome]:
    """Run every job that is due at ``now`` (once each), in registry order."""
    at = api.clock() if now is None else now
    outcomes = []
    for name in due_jobs(api, at):
        if progress.stop.is_set():
            break
        outcomes.append(run_job(api, name, now=now, trigger="schedule", progress=progress))
    return outcomes


def daemon(
    api: MemoryAPI,
    stop: threading.Event,
    *,
    progress: Progress | None = None,
    max_sleep: float = 60.0,
) -> int:
    """Run due jobs until ``stop`` is set; returns how many runs it made."""
    bar = progress or Progress("log", stop=stop)
    runs = 0
    log.info("daemon: started, jobs %s", ", ".join(JOBS))
    while not stop.is_set():
        runs += sum(1 for o in run_due(api, progress=bar) if o.ran)
        now = api.clock()
        upcoming = min(next_fire(api.config, name, now) for name in JOBS)
        stop.wait(max(1.0, min(max_sleep, upcoming - now)))
    log.info("daemon: stopped after %d run(s)", runs)
    return runs
