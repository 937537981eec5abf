"""How much of a text is written in words (a pure function): a dump pasted into a chat
(base64, a hex dump, a column of numbers, a list of ids) says nothing a question can
match, however its vector happens to fall."""

from __future__ import annotations

import re

# What is read: a turn's opening says what kind of text it is (and recall reads it for
# every candidate: 200 characters take ~6 us).
READ_CHARS = 200

# A run of letters (any script) that is a whole token: no digit or letter joined to it.
_WORD = re.compile(r"(?<![^\W_])[^\W\d_]+(?![^\W_])")


def word_share(text: str, read: int = READ_CHARS) -> float:
    """The share of the non-space characters of ``text``'s opening that are in words
    (tokens of letters only, any script): prose 0.8-0.95, code, maths, JSON or a log
    0.35-0.6, base64, a hex dump, ids or numbers under 0.05. A text of no characters
    is all words (it is not a dump)."""
    head = text[:read]
    total = len(head) - head.count(" ") - head.count("\n") - head.count("\t")
    if total <= 0:
        return 1.0
    return len("".join(_WORD.findall(head))) / total
