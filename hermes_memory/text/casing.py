"""Whether a capitalised word opening a sentence is a name or a common word.

A sentence's first word is capitalised whatever it is, so its case says nothing: "Dance
is my life" and "Maria is my sister" look alike. What the writer does elsewhere
tells them apart (Mikheev's document-centred approach): a word they also write in lower
case inside a sentence ("I love to dance"), more often than capitalised there ("I took
Max for a walk"), is a common word. Counts come from the text itself and, through a
caller's lookup, from the rest of the memory; nothing here reads a word list.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from hermes_memory.text.letters import CAPITALISED_WORD, LOWER

# (times in lower case, times capitalised inside a sentence)
Counts = tuple[int, int]
Lookup = Callable[[str], Counts]

_LOWER = re.compile(f"(?<![\\w'-])[{LOWER}]+(?![\\w-])")
# Capitalised inside a sentence: after a word, a comma or a closing bracket and spaces
# on the same line, never after what ends or opens a sentence ("!", ":", a newline, a
# list marker, an opening quote).
_INSIDE = r"(?<=[\w,)\]])[ \t]+"
_CAPITALISED = re.compile(_INSIDE + f"({CAPITALISED_WORD})(?![\\w-])")


def counts_in(text: str) -> Counter[str]:
    """Every word's counts in ``text``: the key ``"word"`` counts its lower-case uses,
    ``"^word"`` its capitalised uses inside a sentence."""
    out: Counter[str] = Counter(_LOWER.findall(text))
    out.update("^" + w.lower() for w in _CAPITALISED.findall(text))
    return out


def word_counts(text: str, word: str) -> Counts:
    """``word``'s counts in ``text`` alone, as ``counts_in`` would count them: for
    sampled rows, where one word is wanted and a scan for it alone is cheaper."""
    low = word.lower()
    cap = low.capitalize()
    lower = capital = 0
    for m in re.finditer(re.escape(low), text, re.IGNORECASE):
        start, end = m.span()
        if start and (_word_char(text[start - 1]) or text[start - 1] in "'-"):
            continue
        if end < len(text) and (_word_char(text[end]) or text[end] == "-"):
            continue
        if m.group() == low:
            lower += 1
        elif m.group() == cap and _inside(text, start):
            capital += 1
    return lower, capital


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _inside(text: str, start: int) -> bool:
    """What ``_INSIDE`` asks of the characters before ``start``."""
    k = start - 1
    while k >= 0 and text[k] in " \t":
        k -= 1
    return 0 <= k < start - 1 and (_word_char(text[k]) or text[k] in ",)]")


def is_common(counts: Iterable[Counts]) -> bool:
    """Whether the summed counts say a common word: written in lower case more often
    than capitalised inside a sentence. No evidence either way keeps it a name."""
    lower = cap = 0
    for a, b in counts:
        lower += a
        cap += b
    return lower > cap


def lookup_in(table: Counter[str]) -> Lookup:
    """A lookup over counts made by ``counts_in``."""

    def counts(word: str) -> Counts:
        w = word.lower()
        return table[w], table["^" + w]

    return counts
