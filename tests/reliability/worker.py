"""One process of the concurrency test: ``python worker.py HOME ROLE SEED SECONDS``.

Roles: ``writer`` (facts and turns, like an agent), ``reader`` (recall, search and
by-id reads, like the CLI and prefetch), ``cron`` (consolidate and the embed job in
a loop). Prints one JSON line: operations done, errors, what it wrote.
"""

from __future__ import annotations

import json
import random
import sys
import time

from hermes_memory import MemoryAPI, load_config
from hermes_memory.cron.scheduler import run_job
from hermes_memory.tier3.embedder import HashingEmbedder


def main() -> None:
    home, role, seed, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    rng = random.Random(seed)
    api = MemoryAPI(load_config(home), embedder=HashingEmbedder(256), actor=f"{role}-{seed}")
    ops, errors, written, jobs = 0, [], [], {"ok": 0, "busy": 0}
    if api.semantic is not None:
        api.semantic.store.open()  # importing LanceDB is start-up, not load
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    sys.stdin.readline()  # everyone starts together
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        if role == "writer":
            if n % 3:
                env = api.fact_store(
                    f"Writer {seed} note {n}: the pump {rng.randint(1, 9)} needs oil",
                    category=rng.choice(["ops", "project"]),
                )
                if env["success"]:
                    written.append(["fact", env["data"]["uuid"]])
            else:
                env = api.ingest_turns(
                    [
                        {
                            "speaker": "Lee",
                            "text": f"Writer {seed} says {n}: pump check done",
                            "session_id": f"w{seed}",
                            "message_id": f"{seed}-{n}",
                        }
                    ],
                    embed=False,
                )
                if env["success"]:
                    written.append(["turn", f"{seed}-{n}"])
            results = [env]
        elif role == "reader":
            results = [
                api.recall(f"which pump needs oil {rng.randint(1, 9)}", limit=5),
                api.fact_query("pump", limit=5),
            ]
            for r in results[0]["data"] or []:
                if r["kind"] == "fact":
                    got = api.fact_get(r["id"])  # merged meanwhile: its survivor
                    results.append(got)
        else:
            for job in ("consolidate", "embed_queue"):
                out = run_job(api, job, trigger="test")
                jobs[out.status] = jobs.get(out.status, 0) + 1
                if out.status == "failed":
                    errors.append(f"{job}: {out.error}")
            results = []
        for env in results:
            ops += 1
            if not env["success"]:
                errors.append(env["error"])
    api.close()
    print(
        json.dumps(
            {
                "role": role,
                "ops": ops,
                "errors": errors[:20],
                "n_errors": len(errors),
                "written": written,
                "jobs": jobs,
            }
        )
    )


if __name__ == "__main__":
    main()
