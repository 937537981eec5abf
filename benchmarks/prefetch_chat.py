"""What the prefetch block tells on LoCoMo: the answers' words, and the dates asked.

    python benchmarks/locomo.py --profiles /tmp/locomo            # build the stores once
    python benchmarks/prefetch_chat.py --profiles /tmp/locomo
    python benchmarks/prefetch_chat.py --profiles /tmp/locomo --set agent.block_dates=false

What an agent sees before a turn is the prefetch block (``agent.prefetch_chars``, 1,500).
Two measures over LoCoMo's questions (categories 1-4), each against the plain baseline
in the same run: the whole turns nearest by all-MiniLM-L6-v2 cosine, with their dates
and shared images' captions, rendered by the same function into the same budget.

- ``answers``: questions whose gold answer has at most six content words; found when
  every one of them is in the block. ``hermes_without_shared`` renders the same recall
  without what the turns shared (an image's caption): the ablation of showing it.
- ``dates``: people say when by reference to the day they speak ("I went to a support
  group yesterday"); shown the day a memory was written, the agent must work the date
  out, and language models get that arithmetic wrong. For every temporal question
  whose gold answer is one plain date ("7 May 2023", "June 2023", "2022"), the date
  counts as told when the block states it: the day as ISO (2023-05-07) or in the
  answer's words, a month as "June 2023" or 2023-06, a year as itself;
  ``in_an_evidence_line`` counts it only when the line stating it is one of the turns
  the answer comes from (a year or month may be stated by any line). ``minilm`` renders
  its turns with ``dates=False``, ``minilm_with_dates`` with the dates worked out.
- ``lines``: what a block spends, over every question: memories shown per block, and the
  share of them that are turns the answer comes from (a line is one when it holds the
  turn's opening words). LoCoMo labels few turns per answer, so the share is a floor;
  it tells a block that fills its budget with neighbours from one that stops.

Reads ../shared/data/locomo/ (evaluation only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _baselines import Baselines  # noqa: E402  (benchmarks/ is not a package)
from _block_args import parse  # noqa: E402
from _overrides import settings  # noqa: E402
from locomo import CATEGORIES, DATA, DONE, turns_of  # noqa: E402

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap  # noqa: E402
from hermes_memory.clock import to_iso  # noqa: E402
from hermes_memory.text.bounds import ends  # noqa: E402
from hermes_memory.text.temporal import resolve_dates  # noqa: E402
from hermes_memory.tier2.episodes import attachment_text  # noqa: E402
from hermes_memory.tier2.fts import presence_counter, query_terms  # noqa: E402
from hermes_memory.tools.context import prefetch_block, render_block  # noqa: E402

TEMPORAL = 2
MAX_WORDS = 6


def asked_date(answer: str) -> tuple[datetime, str] | None:
    """The one date a gold answer is, with its precision (day, month or year)."""
    text = answer.strip().rstrip(".")
    if re.fullmatch(r"(?:19|20)\d\d", text):
        return datetime(int(text), 1, 1, tzinfo=UTC), "year"
    if not re.search(r"\d{4}", text):
        return None  # "13 August": no year to check a block's date against
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
    answers: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    hits: dict[str, list[float]] = defaultdict(list)
    strict: dict[str, list[float]] = defaultdict(list)
    by_precision: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    spent: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # blocks, lines, evidence
    for sample in samples:
        home = Path(args.profiles) / str(sample["sample_id"])
        if not (home / DONE).exists():
            sys.exit(f"no built store at {home}: run benchmarks/locomo.py --profiles first")
        turns, last = turns_of(sample["conversation"])
        shown = {t["message_id"]: _as_result(t) for t in turns}
        # A turn's words as a block line shows them (its start: a long one is cut).
        said = {t["message_id"]: " ".join(t["text"].split())[:60] for t in turns}
        cfg = load_config(home, env={}, overrides=settings(args.set))
        agent = cfg.agent
        with MemoryAPI(cfg, clock=FrozenClock(last + 86_400), actor="prefetch-chat") as api:
            assert api.semantic is not None
            base = Baselines(turns, api.semantic.embedder, Path(args.cache))
            for qa in sample["qa"]:
                if qa.get("category") not in CATEGORIES:
                    continue
                question, answer = str(qa["question"]), str(qa.get("answer", ""))
                plain = [
                    shown[i] for i in base.rankings(question)["minilm"][: agent.prefetch_limit]
                ]
                hermes = prefetch_block(api, question)
                evidence = [said[e] for e in qa.get("evidence", []) if e in said]
                for name, block in (
                    ("hermes", hermes),
                    ("minilm", render_block(plain, agent.prefetch_chars)),
                ):
                    lines = [ln for ln in block.splitlines() if ln.startswith("- (")]
                    spent[name][0] += 1
                    spent[name][1] += len(lines)
                    spent[name][2] += sum(any(e in ln for e in evidence) for ln in lines)
                words = query_terms(answer)
                if 0 < len(words) <= MAX_WORDS:
                    # The same recall as the block's, rendered without what turns shared.
                    ranked = unwrap(
                        api.recall(
                            ends(question, agent.prefetch_query_chars),
                            limit_per_tier=agent.prefetch_limit,
                            limit=agent.prefetch_limit,
                        )
                    )
                    bare = [{k: v for k, v in r.items() if k != "shared"} for r in ranked]
                    blocks = {
                        "hermes": hermes,
                        "hermes_without_shared": _render(bare, agent),
                        "minilm": render_block(plain, agent.prefetch_chars),
                    }
                    count = presence_counter(words)
                    for name, block in blocks.items():
                        found = float(count(block) == len(words))
                        answers[name][CATEGORIES[qa["category"]]].append(found)
                wanted = asked_date(answer) if qa.get("category") == TEMPORAL else None
                if wanted is None:
                    continue
                blocks = {
                    "hermes": hermes,
                    "minilm": render_block(plain, agent.prefetch_chars, dates=False),
                    "minilm_with_dates": render_block(plain, agent.prefetch_chars, dates=True),
                }
                for name, block in blocks.items():
                    value = float(told(block, answer, *wanted))
                    hits[name].append(value)
                    by_precision[name][wanted[1]].append(value)
                    # Strict: stated in the line of a turn the answer comes from.
                    lines = [ln for ln in block.splitlines() if any(e in ln for e in evidence)]
                    strict[name].append(float(told("\n".join(lines), answer, *wanted)))
    report: dict[str, Any] = {"set": args.set, "answers": {}, "dates": {}}
    for name, by_cat in answers.items():
        every = [v for vs in by_cat.values() for v in vs]
        report["answers"][name] = {
            "found": round(sum(every) / len(every), 4),
            "questions": len(every),
            "categories": {c: round(sum(v) / len(v), 3) for c, v in sorted(by_cat.items())},
        }
    report["answers_ratio_to_minilm"] = round(
        report["answers"]["hermes"]["found"] / max(report["answers"]["minilm"]["found"], 1e-9), 3
    )
    report["dates"]["questions"] = len(hits["hermes"])
    for name, values in hits.items():
        report["dates"][name] = {
            "share": round(sum(values) / len(values), 4),
            "in_an_evidence_line": round(sum(strict[name]) / len(values), 4),
            "by_precision": {
                p: [round(sum(v) / len(v), 3), len(v)] for p, v in by_precision[name].items()
            },
        }
    report["lines"] = {
        name: {
            "per_block": round(lines / max(blocks, 1), 2),
            "evidence_share": round(found / max(lines, 1), 4),
        }
        for name, (blocks, lines, found) in spent.items()
    }
    for key in ("share", "in_an_evidence_line"):
        plain_share = report["dates"]["minilm"][key]
        report[f"dates_ratio_to_minilm_{key}"] = round(
            report["dates"]["hermes"][key] / max(plain_share, 1e-9), 3
        )
    return report


def _as_result(turn: dict[str, Any]) -> dict[str, Any]:
    """A turn as a recall result for the baseline's block: its words, date and caption."""
    shared = attachment_text(turn.get("metadata") or {})
    return {
        "content": f"{turn['speaker']}: {turn['text']}",
        "kind": "episode",
        "score": 1.0,
        "created_at": to_iso(turn["timestamp"]),
        **({"shared": shared} if shared else {}),
    }


def _render(results: list[dict[str, Any]], agent: Any) -> str:
    return render_block(
        results,
        agent.prefetch_chars,
        min_relative=agent.prefetch_min_relative,
        dates=agent.block_dates,
    )


def main() -> None:
    args = parse(__doc__, data=DATA, builder="locomo", conversations=5)
    print(json.dumps(run(args), indent=2))


if __name__ == "__main__":
    main()
