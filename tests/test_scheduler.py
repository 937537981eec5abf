"""The scheduler: due jobs, leases, the ledger, real processes, Hermes' cron."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config
from hermes_memory.clock import parse_time
from hermes_memory.cron import consolidate, ledger, scheduler
from hermes_memory.tier3.embedder import HashingEmbedder


def _cli(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hermes_memory.cli", "--home", str(home), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "HERMES_HOME": str(home)},
    )


def _open(home: Path, clock: FrozenClock | None = None) -> MemoryAPI:
    cfg = load_config(home, env={}, overrides={"cron": {"timezone": "UTC"}})
    if clock is None:
        return MemoryAPI(cfg, embedder=HashingEmbedder())
    return MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder())


def test_run_due_runs_exactly_the_due_jobs_once(home: Path) -> None:
    clock = FrozenClock("2030-01-06T03:00:00Z")  # a Sunday
    with _open(home, clock) as api:
        for name in scheduler.JOBS:
            scheduler.run_job(api, name)  # every job last ran at 03:00
        clock.set(parse_time("2030-01-06T03:10:00Z", "t"))
        assert scheduler.due_jobs(api, clock()) == ["embed_queue"]
        clock.set(parse_time("2030-01-07T03:45:00Z", "t"))
        ran = [o.job for o in scheduler.run_due(api)]
        assert ran == ["embed_queue", "consolidate", "graph_refresh", "verify"]
        # a day of missed firings (embed every 5 min) ran once, and nothing is due now
        assert scheduler.due_jobs(api, clock()) == []
        clock.set(parse_time("2030-02-01T02:00:00Z", "t"))
        assert set(scheduler.due_jobs(api, clock())) == {
            "embed_queue", "consolidate", "graph_refresh", "prune", "verify"
        }  # fmt: skip
        runs = api.db.query("SELECT job, status, trigger FROM job_runs")
        assert all(r["status"] == "ok" for r in runs)
        assert sum(1 for r in runs if r["job"] == "embed_queue") == 2


def test_cli_run_due_with_a_frozen_time(home: Path) -> None:
    with _open(home, FrozenClock("2030-01-06T03:00:00Z")) as api:
        for name in scheduler.JOBS:
            scheduler.run_job(api, name)
    env = {**os.environ, "HERMES_MEMORY_CRON__TIMEZONE": "UTC"}
    out = subprocess.run(
        [sys.executable, "-m", "hermes_memory.cli", "--home", str(home), "--json",
         "cron", "run", "--due", "--now", "2030-01-06T04:01:00Z"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    jobs = [o["job"] for o in json.loads(out.stdout)]
    assert jobs == ["embed_queue", "graph_refresh", "verify"]
    listing = _cli(home, "cron", "list")
    assert listing.returncode == 0 and "graph_refresh" in listing.stdout


def test_a_held_lease_blocks_a_second_runner(home: Path) -> None:
    with _open(home) as api:
        lease = ledger.acquire(api.db, "consolidate", trigger="test", clock=time.time, ttl=600)
        assert lease is not None
        busy = _cli(home, "cron", "run", "consolidate")
        assert busy.returncode == 1 and "busy" in busy.stdout
        ledger.finish(api.db, lease, now=time.time(), status="ok", report=None, error=None)
    assert _cli(home, "cron", "run", "consolidate").returncode == 0


def test_stale_leases_are_taken_over(home: Path) -> None:
    clock = FrozenClock("2030-01-01T00:00:00Z")
    with _open(home, clock) as api:
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True).stdout.strip()  # fmt: skip
        with api.db.transaction() as conn:
            conn.execute(
                "INSERT INTO job_runs(job, trigger, holder, started_at, status) "
                "VALUES ('prune', 'schedule', ?, ?, 'running')",
                (f"{ledger._HOST}:{dead}:x", clock()),
            )
            conn.execute(
                "INSERT INTO job_leases VALUES ('prune', ?, 1, ?, ?)",
                (f"{ledger._HOST}:{dead}:x", clock(), clock() + 900),
            )
            conn.execute(
                "INSERT INTO job_leases VALUES ('verify', 'elsewhere:1:y', NULL, ?, ?)",
                (clock(), clock() + 900),
            )
        assert scheduler.run_job(api, "prune").status == "ok"  # holder process is gone
        assert scheduler.run_job(api, "verify").status == "busy"  # other host, not expired
        clock.advance(901)
        assert scheduler.run_job(api, "verify").status == "ok"  # expired
        first = api.db.query_one("SELECT status, error FROM job_runs WHERE id = 1")
        assert first is not None and first["status"] == "interrupted"


_SLOW_CONSOLIDATE = """
import sys, time
from hermes_memory import MemoryAPI, load_config
from hermes_memory.cron import consolidate, scheduler
from hermes_memory.tier3.embedder import HashingEmbedder
original = consolidate.merges.merge_fact
hold = len(sys.argv) > 2  # stop inside the second batch until killed
calls = 0
def slow(*a, **k):
    global calls
    calls += 1
    time.sleep(60 if hold and calls > consolidate.BATCH else 0.002)
    return original(*a, **k)
consolidate.merges.merge_fact = slow
api = MemoryAPI(load_config(sys.argv[1], env={}), embedder=HashingEmbedder())
print(scheduler.run_job(api, "consolidate").status, flush=True)
"""


def _plant_duplicates(home: Path, n: int) -> None:
    cfg = load_config(home, env={}, overrides={"tier3": {"embed_inline": False}})
    with MemoryAPI(cfg, embedder=HashingEmbedder()) as api, api.db.transaction():
        for i in range(n):
            api.fact_store(f"Service {i} deploys from the release branch")
            api.fact_store(f"The service {i} deploys from the release branch.")


def _live(home: Path) -> set[str]:
    with _open(home) as api:
        rows = api.db.query("SELECT content FROM facts WHERE deleted_at IS NULL")
        return {r[0] for r in rows}


def test_consolidate_killed_mid_run_loses_nothing_and_completes(home: Path, tmp_path: Path) -> None:
    _plant_duplicates(home, 600)
    before = _live(home)
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_CONSOLIDATE, str(home), "hold"],
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    with _open(home) as api:
        deadline = time.time() + 60
        while time.time() < deadline:
            merged = api.db.scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'fact_merge'")
            if merged >= consolidate.BATCH:  # the first batch is committed; the second holds
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert merged == consolidate.BATCH, "the kill landed mid-run, inside the second batch"
        assert api.db.scalar("PRAGMA integrity_check") == "ok"
        run = api.db.query_one("SELECT status FROM job_runs ORDER BY id DESC LIMIT 1")
        assert run is not None and run["status"] == "running"
        outcome = scheduler.run_job(api, "consolidate")  # the dead holder's lease is stale
        assert outcome.status == "ok"
        statuses = [r[0] for r in api.db.query("SELECT status FROM job_runs ORDER BY id")]
        assert statuses == ["interrupted", "ok"]
        merged_total = api.db.scalar("SELECT COUNT(*) FROM facts WHERE merged_into IS NOT NULL")
        assert merged_total == 600
    after = _live(home)
    assert len(after) == 600 and after <= before
    # every merged-away statement still points at a live survivor
    with _open(home) as api:
        orphans = api.db.scalar(
            "SELECT COUNT(*) FROM facts f WHERE merged_into IS NOT NULL AND NOT EXISTS "
            "(SELECT 1 FROM facts s WHERE s.uuid = f.merged_into AND s.deleted_at IS NULL)"
        )
        assert orphans == 0


def test_two_concurrent_consolidate_processes_never_overlap(home: Path) -> None:
    _plant_duplicates(home, 300)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _SLOW_CONSOLIDATE, str(home)], stdout=subprocess.PIPE, text=True
        )  # fmt: skip
        for _ in range(2)
    ]
    statuses = sorted(p.communicate(timeout=120)[0].strip() for p in procs)
    assert "ok" in statuses
    with _open(home) as api:
        runs = api.db.query(
            "SELECT started_at, finished_at, status FROM job_runs WHERE job = 'consolidate' "
            "ORDER BY started_at"
        )
    assert all(r["status"] == "ok" for r in runs)
    for a, b in zip(runs, runs[1:], strict=False):
        assert a["finished_at"] <= b["started_at"]  # a second run only after the first
    if len(runs) == 1:
        assert statuses == ["busy", "ok"]


def test_daemon_stops_cleanly_on_sigterm(home: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hermes_memory.cli", "--home", str(home), "cron", "daemon",
         "--max-sleep", "0.5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HERMES_MEMORY_CRON__EMBED_SCHEDULE": "* * * * *"},
    )  # fmt: skip
    assert proc.stderr is not None
    # Signalled once its loop runs: a signal during start-up (a loaded machine's slow
    # imports) would meet Python's default handler, not the daemon's.
    started = next((line for line in proc.stderr if "daemon: started" in line), "")
    time.sleep(2)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert started, err
    assert proc.returncode == 0, err
    assert "stopped after" in out
    with _open(home) as api:
        assert api.db.scalar("SELECT COUNT(*) FROM job_runs WHERE status = 'running'") == 0
        assert api.db.scalar("SELECT COUNT(*) FROM job_leases") == 0


def _hermes_available() -> bool:
    try:
        import cron.jobs  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(
    not _hermes_available() and not os.environ.get("REQUIRE_HERMES_TESTS"),
    reason="hermes-agent is not installed",
)
def test_install_cron_registers_script_jobs_in_hermes_once(home: Path) -> None:
    for _ in range(2):
        result = _cli(home, "hermes", "install-cron")
        assert result.returncode == 0, result.stderr
    jobs = json.loads((home / "cron" / "jobs.json").read_text())["jobs"]
    ours = [j for j in jobs if j["name"].startswith("hermes-memory default ")]
    assert len(ours) == len(scheduler.JOBS)
    by_name = {j["name"].split()[-1]: j for j in ours}
    assert by_name["embed_queue"]["schedule"]["expr"] == "*/5 * * * *"
    assert all(j["no_agent"] and j["enabled"] for j in ours)
    script = home / "scripts" / by_name["verify"]["script"]
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert ran.returncode == 0 and ran.stdout == "", ran.stderr  # silent: nothing to deliver
    removed = _cli(home, "hermes", "install-cron", "--remove")
    assert removed.returncode == 0
    jobs = json.loads((home / "cron" / "jobs.json").read_text())["jobs"]
    assert not [j for j in jobs if j["name"].startswith("hermes-memory ")]
    assert not list((home / "scripts").glob("hermes_memory_*"))


def test_cli_run_all_says_each_job_once(home: Path) -> None:
    out = _cli(home, "cron", "run", "--all")
    assert out.returncode == 0, out.stderr
    said = out.stdout + out.stderr
    for job in scheduler.JOBS:
        assert said.count(f"{job}:") == 1, said  # its summary line, and no log line too
    verbose = _cli(home, "cron", "run", "--all", "--verbose")
    assert "started (manual)" in verbose.stderr
