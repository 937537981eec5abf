"""Wall time of one CLI command, process start to exit, as scripts call it in loops.

    python benchmarks/cli_startup.py              # 5 runs of each command, medians
    python benchmarks/cli_startup.py --runs 9

A fresh home with a few memories and the real model (its ONNX export already cached);
each command runs as its own ``hermes-memory`` process, after one untimed run of it.
``remember`` writes to the outbox (the next ``recall`` embeds what waits), so only the
commands that search load the model and the vector table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = {
    "remember": ["remember", "The billing service runs PostgreSQL 14"],
    "facts": ["facts", "billing"],
    "forget (an unknown id)": ["forget", "0000aaaa"],
    "timeline add": ["timeline", "add", "Chose PostgreSQL", "--type", "decision"],
    "stats": ["stats"],
    "recall": ["recall", "what database does billing use?"],
}


def timed(home: Path, args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "hermes_memory.cli", "--home", str(home), *args],
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "hermes"
        for name, argv in COMMANDS.items():
            timed(home, argv)  # untimed: creates the home, warms the OS cache
            out[name] = round(statistics.median(timed(home, argv) for _ in range(args.runs)), 2)
    print(json.dumps({"runs": args.runs, "median_seconds": out}, indent=2))


if __name__ == "__main__":
    main()
