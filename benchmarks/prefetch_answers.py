"""Does the prefetch block hold the answer? BEAM questions through ``prefetch_block``.

    python benchmarks/prefetch_answers.py --profiles /tmp/beam      # stores of beam.py
    python benchmarks/prefetch_answers.py --profiles /tmp/beam --set recall.excerpt_chars=0

What an agent sees before a turn is the prefetch block: the recalled memories rendered
within ``agent.prefetch_chars`` (1,500 by default). Agent-shaped memories are long
turns, so how each one is shown decides whether the answer reaches the prompt at all.
For every BEAM question asking what the person said (information extraction) or what
holds now (knowledge update) whose rubric names a short thing the answer must mention
("should mention: March 1, 2024"; six words at most), a mention counts as found when
every content word of it occurs in the block. (The other abilities' rubrics describe
the reply wanted, "recommends asynchronous message saving", not words of the memory.)
The plain baseline, in the same run: the whole messages nearest by all-MiniLM-L6-v2
cosine, rendered by the same function into the same budget. Reads
../shared/data/beam/ (evaluation only); builds a missing store as beam.py does.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _block_args import parse  # noqa: E402
from _overrides import settings  # noqa: E402
from beam import DATA, DONE, Baselines, build, conversations, messages_of, profile  # noqa: E402

from hermes_memory.tier2.fts import presence_counter, query_terms  # noqa: E402
from hermes_memory.tools.context import prefetch_block, render_block  # noqa: E402

ABILITIES = ("information_extraction", "knowledge_update")
_MENTION = re.compile(r"should mention:\s*(.+)$", re.IGNORECASE)
MAX_WORDS = 6


def mentions(question: dict[str, Any]) -> list[list[str]]:
    """The content words of each short thing the answer must mention."""
    out = []
    for line in question.get("rubric", []):
        m = _MENTION.search(line)
        if m and len(m.group(1).split()) <= MAX_WORDS and query_terms(m.group(1)):
            out.append(query_terms(m.group(1)))
    return out


def found(terms: list[str], block: str) -> bool:
    return presence_counter(terms)(block) == len(terms)


def run(args: argparse.Namespace) -> dict[str, Any]:
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    sizes: dict[str, list[int]] = defaultdict(list)
    for folder in conversations(Path(args.data))[args.skip : args.skip + args.conversations]:
        chat = json.loads((folder / "chat.json").read_text(encoding="utf-8"))
        probing = json.loads((folder / "probing_questions.json").read_text(encoding="utf-8"))
        turns = messages_of(chat)
        last = max(t["timestamp"] for t in turns)
        text_of = {t["message_id"]: f"{t['speaker']}: {t['text']}" for t in turns}
        home = Path(args.profiles) / folder.name
        with profile(home, settings(args.set), last) as api:
            if not (home / DONE).exists():
                build(api, turns)
                (home / DONE).write_text(json.dumps({"turns": len(turns)}))
            assert api.semantic is not None
            base = Baselines(turns, api.semantic.embedder, Path(args.cache))
            api.clock.set(last + 86_400)  # type: ignore[attr-defined]
            budget = api.config.agent.prefetch_chars
            for ability, questions in probing.items():
                if ability not in ABILITIES:
                    continue
                for q in questions:
                    wanted = mentions(q)
                    if not wanted:
                        continue
                    plain = base.rankings(q["question"])["minilm"][
                        : api.config.agent.prefetch_limit
                    ]
                    results = [
                        {"content": text_of[i], "kind": "episode", "score": 1.0} for i in plain
                    ]
                    blocks = {
                        "hermes": prefetch_block(api, q["question"]),
                        "minilm": render_block(results, budget),
                    }
                    for name, block in blocks.items():
                        rows[name][ability].extend(float(found(t, block)) for t in wanted)
                        sizes[name].append(
                            block.count("\n- ") + (1 if block.startswith("- ") else 0)
                        )
    report: dict[str, Any] = {"set": args.set, "mentions": {}}
    for name, by_ability in rows.items():
        every = [v for vs in by_ability.values() for v in vs]
        report["mentions"][name] = {
            "found": round(sum(every) / len(every), 4),
            "count": len(every),
            "memories_per_block": round(sum(sizes[name]) / len(sizes[name]), 2),
            "abilities": {a: round(sum(v) / len(v), 3) for a, v in by_ability.items()},
        }
    plain = report["mentions"]["minilm"]["found"]
    report["ratio_to_minilm"] = round(report["mentions"]["hermes"]["found"] / max(plain, 1e-9), 3)
    return report


def main() -> None:
    args = parse(__doc__, data=DATA, builder="beam", conversations=12)
    print(json.dumps(run(args), indent=2))


if __name__ == "__main__":
    main()
