"""Memory held by a gateway's sessions in one process: shared memory vs one each.

    python benchmarks/sessions.py                     # 15k items, 1 and 8 sessions
    python benchmarks/sessions.py --items 5000 --sessions 4

Builds a store of ``--items`` turns from eight users (deterministic hashing embedder,
so no model download and the same vectors every run), then, in fresh child
processes, opens ``--sessions`` Hermes provider sessions of different users and
chats, each answering one prefetch, and reports the resident memory the sessions add
to the process (VmRSS after they answered, less VmRSS after the imports; the median
of ``--repeat`` runs): once with the process-wide shared memory (the default) and
once with a memory per session (the old behaviour, through ``api_factory``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import gc, json, sys
from hermes_memory.api.memory_api import MemoryAPI
from hermes_memory.hermes.provider import HermesMemoryProvider
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
home, n, own = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "own"
base = rss()
providers = []
for i in range(n):
    p = HermesMemoryProvider(api_factory=MemoryAPI if own else None)
    p.initialize(f"s{i}", hermes_home=home, platform="telegram", user_id=f"u{i}",
                 chat_id=str(i))
    p._ready.wait(60)
    p.prefetch("which database does the billing service use?")
    providers.append(p)
gc.collect()
held = rss() - base
for p in providers:
    p.shutdown()
print(json.dumps({"sessions_mb": round(held, 1), "after_imports_mb": round(base, 1)}))
"""


def build(home: Path, items: int) -> None:
    from hermes_memory import MemoryAPI, load_config
    from hermes_memory.tier2.records import Owner

    with MemoryAPI(load_config(home, env={})) as api:
        for u in range(8):
            view = api.as_owner(Owner("telegram", "default", f"u{u}", ""))
            turns = [
                {
                    "speaker": "user",
                    "text": f"Note {i} of user {u}: service-{i % 97} talks to db-{i % 13}.",
                    "session_id": f"chat-{u}",
                    "message_id": f"m{i}",
                }
                for i in range(u, items, 8)
            ]
            for start in range(0, len(turns), 500):
                view.ingest_turns(turns[start : start + 500])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=15_000)
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3, help="child runs per setting (median)")
    args = ap.parse_args()
    env = {
        **os.environ,
        "HERMES_MEMORY_TIER3__EMBEDDING_MODEL": "hashing-256",
        "HERMES_MEMORY_TIER3__EMBEDDING_DIM": "256",
    }
    os.environ.update(env)
    out: dict[str, object] = {"items": args.items}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "hermes"
        build(home, args.items)
        for mode in ("shared", "own"):
            for n in (1, args.sessions):
                runs = []
                for _ in range(args.repeat):
                    got = subprocess.run(
                        [sys.executable, "-c", CHILD, str(home), str(n), mode],
                        capture_output=True, text=True, env=env, check=True,
                    )  # fmt: skip
                    runs.append(json.loads(got.stdout.strip().splitlines()[-1])["sessions_mb"])
                out[f"{mode}_{n}_sessions_mb_median"] = statistics.median(runs)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
