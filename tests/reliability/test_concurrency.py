"""Agent, cron and CLI processes on one profile at once: no lock error reaches a
caller, nothing written is lost, reads never see a half-applied merge."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hermes_memory import MemoryAPI, load_config
from hermes_memory.tier3.embedder import HashingEmbedder

WORKER = Path(__file__).with_name("worker.py")
SECONDS = float(os.environ.get("RELIABILITY_LOAD_SECONDS", "15"))


def test_four_writers_four_readers_and_cron_at_once(home: Path, figures: dict[str, Any]) -> None:
    with MemoryAPI(load_config(home, env={}), embedder=HashingEmbedder(256)) as api:
        api.fact_store("Seed: pump 1 needs oil every week", category="ops")
    roles = ["writer"] * 4 + ["reader"] * 4 + ["cron"]
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(home), role, str(i), str(SECONDS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, role in enumerate(roles)
    ]
    for p in procs:
        assert p.stdout is not None
        line = p.stdout.readline().strip()
        assert line == "ready", p.stderr.read() if p.stderr else line
    started = time.monotonic()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=SECONDS + 120)
        assert p.returncode == 0, err[-3000:]
        outs.append(json.loads(out.strip().splitlines()[-1]))
    elapsed = time.monotonic() - started
    errors = [e for o in outs for e in o["errors"]]
    assert not errors, errors
    db = sqlite3.connect(load_config(home, env={}).db_path)
    turns = {r[0] for r in db.execute("SELECT message_id FROM episodes")}
    facts = {
        r[0]
        for r in db.execute(
            "SELECT uuid FROM facts WHERE deleted_at IS NULL OR merged_into IS NOT NULL"
        )
    }
    written = [w for o in outs for w in o["written"]]
    lost = [w for w in written if w[1] not in (turns if w[0] == "turn" else facts)]
    assert not lost, lost[:5]
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    ops = sum(o["ops"] for o in outs)
    by_role = {r: sum(o["ops"] for o in outs if o["role"] == r) for r in ("writer", "reader")}
    # Correctness, not speed (a busy CI machine runs this at any rate; the rate is a
    # figure below): every process got through some of its work, none starved.
    assert all(o["ops"] > 0 for o in outs if o["role"] in by_role), [o["ops"] for o in outs]
    jobs = outs[-1]["jobs"]
    figures["concurrency"] = {
        "processes": "4 writers, 4 readers, 1 cron",
        "seconds": SECONDS,
        "operations": ops,
        "ops_per_s": round(ops / SECONDS, 1),
        "writes": len(written),
        "reads": by_role["reader"],
        "cron_runs": jobs,
        "errors": 0,
        "lost": 0,
        "wall_s": round(elapsed, 1),
    }
