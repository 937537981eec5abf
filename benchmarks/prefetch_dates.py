"""Does the prefetch block tell the date asked for? LoCoMo "when" questions.

    python benchmarks/locomo.py --profiles /tmp/locomo            # build the stores once
    python benchmarks/prefetch_dates.py --profiles /tmp/locomo
    python benchmarks/prefetch_dates.py --profiles /tmp/locomo --set agent.block_dates=false

People say when by reference to the day they speak: "I went to a support group
yesterday", "my school event last week". Shown a memory with the day it was written,
the agent must work the date out, and language models get that arithmetic wrong. For
every temporal question (category 2) whose gold answer is one plain date ("7 May 2023",
"June 2023", "2022"), the date counts as told when the block states it: the day as
ISO (2023-05-07) or in the answer's words, a month as "June 2023" or 2023-06, a year
as itself; ``in_an_evidence_line`` counts it only when the line stating it is one of
the turns the answer comes from (a year or month may be stated by any line). The
plain baseline, in the same run: the whole turns nearest by
all-MiniLM-L6-v2 cosine with their dates, rendered by the same function into the same
budget, with and without the dates worked out (``render_block(dates=...)``).
Reads ../shared/data/locomo/ (evaluation only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _baselines import Baselines  # noqa: E402  (benchmarks/ is not a package)
from _overrides import settings  # noqa: E402
from locomo import DATA, DONE, turns_of  # noqa: E402

from hermes_memory import FrozenClock, MemoryAPI, load_config  # noqa: E402
from hermes_memory.clock import to_iso  # noqa: E402
from hermes_memory.text.temporal import resolve_dates  # noqa: E402
from hermes_memory.tools.context import prefetch_block, render_block  # noqa: E402

TEMPORAL = 2


def asked_date(answer: str) -> tuple[datetime, str] | None:
    """The one date a gold answer is, with its precision (day, month or year)."""
    text = answer.strip().rstrip(".")
    if re.fullmatch(r"(?:19|20)\d\d", text):
        return datetime(int(text), 1, 1, tzinfo=UTC), "year"
    found = resolve_dates(text, 0.0)
    if len(found) != 1 or found[0].phrase.casefold() != text.casefold():
        return None
    day = datetime.fromtimestamp(found[0].timestamp, tz=UTC)
    return (day, found[0].precision) if found[0].precision in ("day", "month") else None


def told(block: str, answer: str, day: datetime, precision: str) -> bool:
    """Whether ``block`` states the date ``answer`` names."""
    folded = block.casefold()
    if precision == "year":
        return re.search(rf"\b{day.year}\b", block) is not None
    if precision == "month":
        return f"{day:%B %Y}".casefold() in folded or f"{day:%Y-%m}" in block
    return f"{day:%Y-%m-%d}" in block or answer.strip().rstrip(".").casefold() in folded


def run(args: argparse.Namespace) -> dict[str, Any]:
    samples = json.loads(Path(args.data).read_text(encoding="utf-8"))
    samples = samples[args.skip : args.skip + args.conversations]
    hits: dict[str, list[float]] = defaultdict(list)
    strict: dict[str, list[float]] = defaultdict(list)
    by_precision: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for sample in samples:
        home = Path(args.profiles) / str(sample["sample_id"])
        if not (home / DONE).exists():
            sys.exit(f"no built store at {home}: run benchmarks/locomo.py --profiles first")
        turns, last = turns_of(sample["conversation"])
        shown = {
            t["message_id"]: {
                "content": f"{t['speaker']}: {t['text']}",
                "kind": "episode",
                "score": 1.0,
                "created_at": to_iso(t["timestamp"]),
            }
            for t in turns
        }
        # A turn's words as a block line shows them (its start: a long one is cut).
        said = {t["message_id"]: " ".join(t["text"].split())[:60] for t in turns}
        cfg = load_config(home, env={}, overrides=settings(args.set))
        with MemoryAPI(cfg, clock=FrozenClock(last + 86_400), actor="prefetch-dates") as api:
            assert api.semantic is not None
            base = Baselines(turns, api.semantic.embedder, Path(args.cache))
            budget, limit = cfg.agent.prefetch_chars, cfg.agent.prefetch_limit
            for qa in sample["qa"]:
                answer = str(qa.get("answer", ""))
                wanted = asked_date(answer) if qa.get("category") == TEMPORAL else None
                if wanted is None:
                    continue
                question = str(qa["question"])
                plain = [shown[i] for i in base.rankings(question)["minilm"][:limit]]
                blocks = {
                    "hermes": prefetch_block(api, question),
                    "minilm": render_block(plain, budget, dates=False),
                    "minilm_with_dates": render_block(plain, budget, dates=True),
                }
                evidence = [said[e] for e in qa.get("evidence", []) if e in said]
                for name, block in blocks.items():
                    value = float(told(block, answer, *wanted))
                    hits[name].append(value)
                    by_precision[name][wanted[1]].append(value)
                    # Strict: stated in the line of a turn the answer comes from.
                    lines = [ln for ln in block.splitlines() if any(e in ln for e in evidence)]
                    strict[name].append(float(told("\n".join(lines), answer, *wanted)))
    report: dict[str, Any] = {"set": args.set, "questions": len(hits["hermes"]), "told": {}}
    for name, values in hits.items():
        report["told"][name] = {
            "share": round(sum(values) / len(values), 4),
            "in_an_evidence_line": round(sum(strict[name]) / len(values), 4),
            "by_precision": {
                p: [round(sum(v) / len(v), 3), len(v)] for p, v in by_precision[name].items()
            },
        }
    for key in ("share", "in_an_evidence_line"):
        plain_share = report["told"]["minilm"][key]
        report[f"ratio_to_minilm_{key}"] = round(
            report["told"]["hermes"][key] / max(plain_share, 1e-9), 3
        )
    return report


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--profiles", required=True, help="the stores (locomo.py --profiles)")
    parser.add_argument("--conversations", type=int, default=5)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument(
        "--cache",
        default=str(Path(tempfile.gettempdir()) / "locomo-cache"),
        help="baseline vectors are cached here",
    )
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    args = parser.parse_args()
    print(json.dumps(run(args), indent=2))


if __name__ == "__main__":
    main()
