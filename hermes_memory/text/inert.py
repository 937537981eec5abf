"""Which tokens of a sentence can open no name (pure functions): extraction skips them
before asking its readers (text/mentions.py) whether a name starts there."""

from __future__ import annotations

import re

from hermes_memory.text.components import COMPONENTS, HEADS
from hermes_memory.text.gazetteer import LONGEST
from hermes_memory.text.lexicon import ROLES, STARTERS

# Tokens no reader of mentions.py can open a name on: a lower-case word, a number ("15",
# "2024-01-01", "10:30"), common punctuation, and a capitalised sentence opener ("The",
# "I"). Skipping them up front reads a long message about three times faster; each
# reader still decides every other token.
_PLAIN_TOKEN = re.compile(r"[a-z]+|\d+(?:[-.:/]\d+)*|[.,;:!?()]")
_OPENER_WORD = re.compile(r"[A-Z][a-z]*")
# Tokens are judged a block at a time: what a long sentence holds past the names
# extraction keeps of it (256) is not judged at all.
INERT_BLOCK = 256


def inert_tokens(
    toks: list[tuple[str, int, int]], objects_at: set[int], start: int = 0, stop: int | None = None
) -> list[bool]:
    """For each token from ``start`` to ``stop``, whether it opens no mention: no quote,
    known name, preference object, identifier, component (no head noun in reach) or
    capitalised name."""
    if start == 0 and (stop is None or stop >= len(toks)):
        part = ahead = toks
    else:
        end = len(toks) if stop is None else stop
        part, ahead = toks[start:end], toks[start : end + 2]  # a head noun's reach: 2
    lows = [w.lower() for w, _, _ in ahead]
    headed = {start + j - k for j, low in enumerate(lows) if low in HEADS for k in (1, 2)}
    return [
        (
            _PLAIN_TOKEN.fullmatch(w) is not None
            or ((low in STARTERS or low in ROLES) and _OPENER_WORD.fullmatch(w) is not None)
        )
        and low not in LONGEST
        and low not in COMPONENTS
        and j not in headed
        and at not in objects_at
        for j, ((w, at, _), low) in enumerate(zip(part, lows, strict=False), start)
    ]
