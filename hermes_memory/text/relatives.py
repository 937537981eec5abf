"""Who a named person is to the speaker ("my brother Tomas", "Elena is my manager"):
the words "my <role>" that may stand for the name later ("where does my brother
live?"). Pure functions over one sentence."""

from __future__ import annotations

import re

from hermes_memory.text.reading import Mention

# Roles spoken of one at a time, each with the words that name the same one ("my mum",
# "my mom"). Friends, colleagues, cousins and the like are many: "my friend" names none.
_SAME = (
    ("mother", "mum", "mom"),
    ("father", "dad"),
    ("grandmother", "grandma"),
    ("grandfather", "grandpa"),
    ("stepmother", "stepmom"),
    ("stepfather", "stepdad"),
    ("wife",),
    ("husband",),
    ("partner",),
    ("spouse",),
    ("girlfriend",),
    ("boyfriend",),
    ("fiancée", "fiancee", "fiancé", "fiance"),
    ("sister",),
    ("brother",),
    ("son",),
    ("daughter",),
    ("twin",),
    ("manager", "boss", "supervisor", "line manager"),
    ("team lead", "tech lead"),
)
_ALIASES = {word: tuple(f"my {w}" for w in same) for same in _SAME for word in same}
_ROLE = "|".join(sorted((re.escape(w) for w in _ALIASES), key=len, reverse=True))
# Which one, still now: not "my former manager", "my old boss".
_WHICH = r"(?:(?:older|younger|little|big|baby|new|current)\s+)?"
_BEFORE = re.compile(rf"\bmy\s+{_WHICH}({_ROLE})\s*(?:,\s*|\s+is\s+|\s+)$", re.I)
_AFTER = re.compile(rf"\s*(?:,\s*|\s+is\s+)my\s+{_WHICH}({_ROLE})\b", re.I)
_MY = re.compile(r"\bmy\b", re.I)
# How far before a name "my <role>" is read ("my older half brother" fits).
_REACH = 48


def roles(sentence: str, mentions: list[Mention]) -> dict[str, tuple[str, ...]]:
    """The people of ``sentence`` named as the speaker's relative or boss, each with
    the words that may stand for them: {"Tomas": ("my brother",)}."""
    if _MY.search(sentence) is None:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for m in mentions:
        if m.type != "person":
            continue
        said = _BEFORE.search(sentence, max(0, m.start - _REACH), m.start) or _AFTER.match(
            sentence, m.end
        )
        if said is not None:
            out.setdefault(m.name, _ALIASES[said.group(1).lower()])
    return out
