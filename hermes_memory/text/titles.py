"""Titles: a title written in quotes ("Charlotte's Web", "Little Women", "The Lord of the
Rings"), and a heading written in title case.

English quotes the titles of books, films, songs and talks; read as prose, their
capitalised words became people ("Charlotte" who knows "Web"). A quoted span is a title
when every word in it is capitalised or one of the small words a title keeps in lower
case, and it closes within a few words; quoted speech ('"Sarah," she said', '"come
here"') has punctuation or lower-case words inside and is no title.
"""

from __future__ import annotations

import re

from hermes_memory.text.lexicon import IMPERATIVES, NOMINAL, STARTERS

# What opens a quoted title; text/inert.py skips no token of these.
OPEN_QUOTES = frozenset({'"', "“"})
_CLOSE = frozenset({'"', "”"})
_SMALL = frozenset(
    "of the a an and or in on to for with at by from as is are my your our his her their "
    "vs & - – :".split()
)
MAX_WORDS = 9


def quoted_title(toks: list[tuple[str, int, int]], i: int) -> tuple[int, int, int] | None:
    """Where the title opened by the quote at ``toks[i]`` starts and ends in the
    sentence, and the index after its closing quote; None when it is no title."""
    if toks[i][0] not in OPEN_QUOTES or i + 1 >= len(toks):
        return None
    j = i + 1
    words = 0
    while j < len(toks) and j - i <= MAX_WORDS + 1:
        w = toks[j][0]
        if w in _CLOSE:
            break
        first = j == i + 1
        if w[:1].isupper() or w.isdigit():
            words += 1
        elif first or (w.lower() not in _SMALL and w not in ("'s", "’", "s")):
            return None  # speech or a phrase, not a title
        j += 1
    if j >= len(toks) or toks[j][0] not in _CLOSE or words == 0:
        return None
    if toks[j - 1][0].lower() in _SMALL:
        return None  # a title does not end on "of", "the" ...
    if j == i + 2 and toks[i + 1][0].lower() in STARTERS:
        return None  # '"That"', '"Yes"': a word quoted, not a title
    return toks[i + 1][1], toks[j - 1][2], j + 1


# A line in title case without markup is a heading too, when its shape says so: no
# comma, no closing stop, every longer word capitalised, and an instruction's verb first,
# an abstract noun last, or a small word inside ("Join a Writing Community").
_LINE_WORD = re.compile(r"[A-Za-z][\w'-]*")
_TITLE_CHARS = 120
_TITLE_SMALL = frozenset("a an the of for to with".split())


def title_line(sentence: str, start: int) -> bool:
    """Whether the line holding ``start`` is a heading written in title case."""
    # A heading is short: only a window around the name is searched for its line's ends,
    # which keeps a long line of many names linear.
    lo = max(0, start - _TITLE_CHARS)
    a = sentence.rfind("\n", lo, start) + 1
    b = sentence.find("\n", start, start + _TITLE_CHARS)
    if (a == 0 and lo > 0) or (b < 0 and len(sentence) > start + _TITLE_CHARS):
        return False
    line = sentence[a : b if b >= 0 else len(sentence)].strip(" \t*#>-_:")
    if "," in line or line.endswith((".", "!", "?")):
        return False
    words = _LINE_WORD.findall(line)
    if len(words) < 3 or any(len(w) >= 4 and not w[:1].isupper() for w in words):
        return False
    return (
        words[0].lower() in IMPERATIVES
        or NOMINAL.fullmatch(words[-1]) is not None
        or any(w in _TITLE_SMALL for w in words[1:])
    )
