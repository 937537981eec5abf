"""Where a sentence states a preference: just past the verb of a liking ("I prefer X",
"I'm into X", not "equations like x²") and past what is preferred over ("tabs over
spaces"). Pure; ``mentions`` reads the objects that start there."""

from __future__ import annotations

import re

# Where a preference's object can start: just past one of these verbs and its spaces.
_PREF_VERBS = re.compile(
    r"\b(prefers?|likes?|loves?|enjoys?|dislikes?|hates?|learning|allergic to|"
    r"interested in|into)\s+",
    re.I,
)
# What comes before "like" and "into" when they are a liking ("I really like X", "I'm
# into X"), not a preposition ("equations like x²", "divided into parts").
LIKING = (
    r"(?:\b(?:i|we|you|they|he|she|really|also|still|do|don't|dont|didn't|did|would|to|"
    r"definitely|actually|totally|genuinely|always|never|kinda|sorta|truly|so)|['’]d)\s+"
)
_LIKE_AFTER = re.compile(LIKING + "$", re.I)
_INTO_AFTER = re.compile(
    r"(?:\b(?:am|are|is|was|were|really|so|totally|very|also|big|still|more)|'m|'re|'s)\s+$",
    re.I,
)
# The words between a preference and what it is preferred over ("tabs over spaces"),
# and where that other object starts.
RANKED_BELOW = frozenset({"over", "rather than", "instead of", "more than"})
_COMPARED = re.compile(
    r"\b(?:prefers?|likes?|loves?|enjoys?)\s+(?:\S+\s+){1,3}?"
    rf"(?:{'|'.join(sorted(RANKED_BELOW))})\s+",
    re.I,
)


def object_starts(sentence: str) -> set[int]:
    """Where the objects of the sentence's preferences start: after a liking's verb,
    and after what a preference ranks its object over."""
    found = list(_PREF_VERBS.finditer(sentence))
    if not found:  # no liking's verb, so nothing ranked either (most sentences)
        return set()
    starts = {m.end() for m in found if _a_verb(sentence, m)}
    return starts | {m.end() for m in _COMPARED.finditer(sentence)}


def _a_verb(sentence: str, m: re.Match[str]) -> bool:
    """Whether a match of ``_PREF_VERBS`` is a liking rather than a preposition."""
    word = m.group(1).lower()
    before = sentence[max(0, m.start() - 12) : m.start()]
    if word == "like":
        return _LIKE_AFTER.search(before) is not None
    if word == "into":
        return _INTO_AFTER.search(before) is not None
    return True
