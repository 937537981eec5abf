"""Benchmark: reading a large LanceDB table into the search copies: the sign copy's
build (the index job's step) or the exact copy's load (a process searching a table
another process wrote).

    python benchmarks/sign_build.py                          # 1,000,000 rows, 384-d
    python benchmarks/sign_build.py --rows 200000 --keep /tmp/signs-table
    python benchmarks/sign_build.py --keep /tmp/signs-table --scan stream   # LanceDB's stream
    python benchmarks/sign_build.py --rows 200000 --copy exact              # the exact copy
    python benchmarks/sign_build.py --rows 200000 --copy exact --scan whole # one to_arrow

Writes a table of ``--rows`` random unit vectors with the tier's schema and ~300
characters of text a row (as an agent's chunks have), then builds the copy in a fresh
process (``sign_build.build``), three times, and reports the median build time and
peak RSS: the process's high-water mark before the build (interpreter, LanceDB,
NumPy, the open table) and during it. ``--scan stream`` reads the table through
LanceDB's own stream instead of pages (tier3/lance_table.scan_pages), for comparison.
``--copy exact`` loads the exact copy instead (``Snapshot.from_pages`` over a pinned
version, as ``VectorStore`` does); ``--scan whole`` reads it with one ``to_arrow`` of the
table, as before pages.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lancedb
import numpy as np

from hermes_memory.tier3 import lance_table, sign_build
from hermes_memory.tier3.snapshot import COLUMNS, Snapshot, normalised, vectors_of

DIM = 384
WORDS = (
    "the payments webhook retry budget service ledger deploy error stack trace config "
    "value migration schema index query cache latency test fixture branch review"
).split()


def write_table(path: Path, rows: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    db = lancedb.connect(str(path))
    table = None
    for start in range(0, rows, 50_000):
        n = min(50_000, rows - start)
        vectors = rng.standard_normal((n, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        data = lance_table.arrow(
            [
                {
                    "id": f"{start + i:032x}#{(start + i) % 10}",
                    "kind": "episode",
                    "item_uuid": f"{(start + i) // 10:036x}",
                    "chunk": (start + i) % 10,
                    "platform": "cli",
                    "agent": "default",
                    "user_id": "",
                    "session_key": "",
                    "text": " ".join(rng.choice(WORDS, 45)),
                    "source_id": str(start + i),
                    "created_at": float(start + i),
                }
                for i in range(n)
            ],
            vectors,
            DIM,
        )
        if table is None:
            table = db.create_table("memories", data, schema=lance_table.schema(DIM))
        else:
            table.add(data)


def _high_water_mb() -> float:
    # VmHWM, not getrusage's ru_maxrss: that survives fork and exec, so a child would
    # report the peak of the parent that has just written the table.
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) / 1024
    return 0.0


def _streamed(table: Any, columns: list[str], rows: int, page: int = 0) -> Iterator[Any]:
    """The table through LanceDB's own stream (what the build read before pages)."""
    yield from table.search().select(columns).limit(None).to_batches()


def load_exact(table: Any, rows: int, scan: str) -> Snapshot | None:
    """The exact copy, as ``VectorStore`` reads it (``whole``: as it did before pages)."""
    if scan == "whole":
        data = table.to_arrow()
        cols = {c: data.column(c).to_numpy(zero_copy_only=False) for c in COLUMNS}
        return Snapshot("bench", normalised(vectors_of(data, DIM)), cols)
    pages = lance_table.scan_pages(table, [*COLUMNS, "vector"], rows)
    return Snapshot.from_pages("bench", pages, rows, DIM)


def build_signs(table: Any, rows: int) -> float:
    """Seconds the sign copy's build took (in a scratch directory, dropped after)."""
    work = Path(tempfile.mkdtemp(prefix="signs-"))
    try:
        started = time.perf_counter()
        built = sign_build.build(table, work, "bench", DIM, rows)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if built is None:
        raise SystemExit("the table changed while building")
    return seconds


def measure_once(path: Path, scan: str, copy: str) -> dict[str, Any]:
    """One build in this process (run as a child: its own high-water mark)."""
    if scan == "stream":
        sign_build.scan_pages = _streamed
    table = lancedb.connect(str(path)).open_table("memories")
    if copy == "exact":
        table.checkout(table.version)  # as VectorStore reads it: one version
    rows = int(table.count_rows())
    before = _high_water_mb()
    if copy == "exact":
        started = time.perf_counter()
        snap = load_exact(table, rows, scan)
        seconds = time.perf_counter() - started
        if snap is None or len(snap) != rows:
            raise SystemExit("the copy does not hold the table's rows")
    else:
        seconds = build_signs(table, rows)
    return {
        "rows": rows,
        "build_s": round(seconds, 2),
        "rss_before_mb": round(before),
        "peak_rss_mb": round(_high_water_mb()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scan", choices=["pages", "stream", "whole"], default="pages")
    parser.add_argument("--copy", choices=["signs", "exact"], default="signs")
    parser.add_argument("--keep", type=Path, help="write the table here once and reuse it")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if (args.copy, args.scan) in (("signs", "whole"), ("exact", "stream")):
        parser.error(f"--scan {args.scan} is not a way to read the {args.copy} copy")
    if args.child is not None:
        print(json.dumps(measure_once(args.child, args.scan, args.copy)))
        return
    home = args.keep or Path(tempfile.mkdtemp(prefix="sign-build-"))
    try:
        if not (home / "memories.lance").exists():
            write_table(home, args.rows)
        runs = []
        for _ in range(args.runs):
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(home), "--scan", args.scan]
                + ["--copy", args.copy],
                check=True,
                capture_output=True,
                text=True,
            )
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        report = {
            "copy": args.copy,
            "scan": args.scan,
            "rows": runs[0]["rows"],
            "runs": len(runs),
            "build_s_median": statistics.median(r["build_s"] for r in runs),
            "rss_before_mb_median": statistics.median(r["rss_before_mb"] for r in runs),
            "peak_rss_mb_median": statistics.median(r["peak_rss_mb"] for r in runs),
            "peak_rss_mb_each": [r["peak_rss_mb"] for r in runs],
        }
        print(json.dumps(report, indent=2))
    finally:
        if args.keep is None:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
