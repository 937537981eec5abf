"""Queries about one speaker, and the same query in that speaker's own voice.

Turns are stored as their speakers said them ("Priya: I spend my weekends hiking"),
while questions about a speaker name them in the third person ("Would Priya enjoy a
trek?"). The name draws the question towards every line that carries it (the
speaker's label, a greeting); the question put as the speaker would ask it ("Would I
enjoy a trek?") leans towards what they said of themselves instead. Recall searches
with the two blended (docs/retrieval.md).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

import numpy as np

from hermes_memory.text.lexicon import is_role
from hermes_memory.tier2.fts import word_set


def named_speaker(query: str, speakers: Iterable[str]) -> str | None:
    """The one speaker the query names, or None (none, or more than one: a question
    about two people has no single voice). A speaker is named by every word of their
    name, or by their first name alone when no other speaker has that first name
    ("Priya" for "Priya Shah"), as the linker resolves a lone first name."""
    words = word_set(query)
    everyone = {s for s in speakers if word_set(s)}
    named = {s for s in everyone if words >= word_set(s)}
    if not named:
        first = {s: s.split()[0].casefold() for s in everyone}
        shared = Counter(first.values())
        named = {s for s in everyone if len(s.split()) > 1 and first[s] in words}
        named = {s for s in named if shared[first[s]] == 1}
    return named.pop() if len(named) == 1 else None


def voice_of(query: str, speakers: Iterable[str]) -> str | None:
    """``query`` in the voice of the one speaker it names, or None. Chat roles
    ("user", "assistant") are not voiced: "add a user table" names no one."""
    speaker = named_speaker(query, speakers)
    if speaker is None or is_role(speaker):
        return None
    return in_own_voice(query, speaker)


def in_own_voice(query: str, speaker: str) -> str | None:
    """``query`` with ``speaker`` put in the first person ("John's" -> "my", "John"
    and "the user" -> "I"); None when the name does not appear as written (or
    capitalised: "user" as "User"; "Will" is not "will")."""
    parts = speaker.split()
    if not parts:
        return None
    # The whole name, else the first name alone ("Priya" for "Priya Shah").
    for written in (parts, parts[:1]) if len(parts) > 1 else (parts,):
        name = r"\s+".join(f"[{re.escape(p[0] + p[0].upper())}]{re.escape(p[1:])}" for p in written)
        pattern = re.compile(rf"(?<!\w)(?:[Tt]he\s+)?{name}(?P<own>['\u2019]s)?(?!\w)")
        if pattern.search(query) is not None:
            return pattern.sub(lambda m: "my" if m.group("own") else "I", query)
    return None


def blend(question: np.ndarray, voiced: np.ndarray, weight: float) -> np.ndarray:
    """The unit vector of ``question + weight * voiced``."""
    mixed = np.asarray(question, dtype=np.float32) + weight * np.asarray(voiced, dtype=np.float32)
    norm = float(np.linalg.norm(mixed))
    return mixed / norm if norm > 0 else np.asarray(question, dtype=np.float32)
