"""Which tokens of a sentence can open no name (pure functions): extraction skips them
before asking its readers (text/mentions.py) whether a name starts there."""

from __future__ import annotations

import re
from functools import lru_cache

from hermes_memory.text.components import COMPONENTS, HEADS
from hermes_memory.text.gazetteer import LONGEST
from hermes_memory.text.lexicon import ROLES, STARTERS
from hermes_memory.text.titles import OPEN_QUOTES

# Tokens no reader of mentions.py can open a name on: a number ("15", "2024-01-01",
# "10:30"), a capitalised sentence opener ("The", "I"), and a token with no capital
# letter ("deploy", "café", "{", "k+1") unless it is an opening quote (a title may follow)
# or joined like an identifier ("payments-api", "auth_worker"). Skipping them up front
# reads a long message about three times faster (code and formulas, whose every bracket
# was asked, about ten times); each reader still decides every other token.
_NUMBER = re.compile(r"\d+(?:[-.:/]\d+)*")
_JOINED = re.compile(r"[a-z0-9][-_]")
_OPENER_WORD = re.compile(r"[A-Z][a-z]*")
# Tokens are judged a block at a time: what a long sentence holds past the names
# extraction keeps of it (MAX_MENTIONS) is not judged at all.
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
    headed = {
        start + j - k for j, (w, _, _) in enumerate(ahead) if w.lower() in HEADS for k in (1, 2)
    }
    return [
        (_known_inert(w) if len(w) <= _CACHED_CHARS else _inert_word(w))
        and j not in headed
        and at not in objects_at
        for j, (w, at, _) in enumerate(part, start)
    ]


# Code and formulas repeat their tokens ("{", "\\", "a_1"): each short one is judged
# once (a long one, a hash or a blob, is judged each time rather than kept).
_CACHED_CHARS = 40


def _inert_word(w: str) -> bool:
    """Whether ``w`` opens no name wherever it stands (no head noun after it, no
    preference verb before it)."""
    low = w.lower()
    return (
        (
            (low == w and w not in OPEN_QUOTES and _JOINED.search(w) is None)
            or _NUMBER.fullmatch(w) is not None
            or ((low in STARTERS or low in ROLES) and _OPENER_WORD.fullmatch(w) is not None)
        )
        and low not in LONGEST
        and low not in COMPONENTS
    )


_known_inert = lru_cache(maxsize=1 << 16)(_inert_word)
