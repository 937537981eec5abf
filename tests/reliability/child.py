"""A writer that gets SIGKILLed: ``python child.py HOME MODE SEED``.

Prints ``ready`` once open, then one line per acknowledged write (``turn <id>``,
``fact <uuid>``) flushed before the next write starts; whatever it printed before
the kill was acknowledged and must survive it.
"""

from __future__ import annotations

import sys

from hermes_memory import MemoryAPI, load_config
from hermes_memory.cron.scheduler import run_job
from hermes_memory.tier3.embedder import HashingEmbedder


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    home, mode, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    api = MemoryAPI(load_config(home), embedder=HashingEmbedder(256), actor=f"crash-{seed}")
    if api.semantic is not None and api.config.tier3.embed_inline:
        api.semantic.store.open()
    say("ready")
    n = 0
    while True:
        n += 1
        if mode == "ingest":
            turns = [
                {
                    "speaker": "Ana",
                    "text": f"Seed {seed} turn {n}-{j}: the kiln reached {j}00 C",
                    "session_id": f"s{seed}",
                    "message_id": f"{seed}-{n}-{j}",
                }
                for j in range(10)
            ]
            env = api.ingest_turns(turns, embed=n % 2 == 0)
            assert env["success"], env["error"]
            for j in range(10):
                say(f"turn {seed}-{n}-{j}")
        elif mode == "facts":
            env = api.fact_store(
                f"Seed {seed} fact {n}: glaze batch {n % 7} uses cobalt", category="project"
            )
            assert env["success"], env["error"]
            say(f"fact {env['data']['uuid']}")
        elif mode == "consolidate":
            for j in range(5):  # near-duplicates for the job to merge
                env = api.fact_store(
                    f"Seed {seed} round {n}: the kiln shelf {j % 2} is cracked", category="ops"
                )
                assert env["success"], env["error"]
                say(f"fact {env['data']['uuid']}")
            run_job(api, "consolidate", trigger="test")
        elif mode == "rebuild":
            assert api.rebuild()["success"]
            assert api.graph_rebuild()["success"]
        else:
            raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
