"""Near-duplicate statements (pure functions).

Two facts are near-duplicates when their content words overlap by at least the
Jaccard threshold *and* every word only one of them has is harmless: a number,
a negation or a name that differs makes them different statements ("port 8080"
vs "port 8081", "we deploy on Fridays" vs "we never deploy on Fridays", "Alice
Chen" vs "Alice Wong"), however similar the rest is.

Candidate pairs come from prefix filtering (Bayardo et al., "Scaling up all
pairs similarity search"): with each word set ordered rarest first, two sets
whose Jaccard similarity reaches t must share a word among the first
``|x| - ceil(t*|x|) + 1`` of each. That finds every qualifying pair without
comparing all pairs.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# Words that carry no meaning of their own in a short statement. Prepositions stay:
# "moved to Berlin" and "moved from Berlin" differ.
_STOP = frozenset(
    "a an the is are was were be been being am this that these those it its there "
    "really very also just quite so and user's user users i i'm we we're our us my me "
    "you your they their he she his her".split()
)
_NEGATIONS = frozenset(
    "not no never none nothing nobody nowhere neither nor without cannot can't don't "
    "doesn't didn't won't wouldn't shouldn't isn't aren't wasn't weren't haven't "
    "hasn't hadn't stop stopped stops".split()
)


@dataclass(frozen=True)
class Signature:
    words: frozenset[str]  # normalized content words
    protected: frozenset[str]  # numbers, negations, names: must not differ


def _norm(word: str) -> str:
    word = unicodedata.normalize("NFKD", word.replace("’", "'"))
    word = "".join(c for c in word if not unicodedata.combining(c)).casefold()
    if word.endswith("'s"):
        word = word[:-2]
    # Plural and third person only: tense changes meaning ("we used X" vs "we use X").
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def signature(text: str) -> Signature:
    words: set[str] = set()
    protected: set[str] = set()
    for match in _WORD.finditer(text):
        raw = match.group(0)
        lowered = raw.casefold().replace("’", "'")
        if lowered in _NEGATIONS or lowered.endswith("n't"):
            protected.add(lowered)
            words.add(lowered)
            continue
        if lowered in _STOP:
            continue
        word = _norm(raw)
        words.add(word)
        # A capitalised word is taken for a name (a sentence's first word too: if
        # two statements differ there, that is what they are about).
        if any(c.isdigit() for c in raw) or raw[:1].isupper():
            protected.add(word)
    return Signature(frozenset(words), frozenset(protected))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def near_duplicate(a: Signature, b: Signature, threshold: float) -> bool:
    if len(a.words) < 2 or len(b.words) < 2:
        return False
    differing = a.words ^ b.words
    if differing & (a.protected | b.protected):
        return False
    return jaccard(a.words, b.words) >= threshold


def candidate_pairs(sets: Sequence[frozenset[str]], threshold: float) -> Iterator[tuple[int, int]]:
    """Index pairs (i < j) that may reach ``threshold`` Jaccard similarity."""
    df = Counter(w for s in sets for w in s)
    index: dict[str, list[int]] = {}
    order = sorted(range(len(sets)), key=lambda i: len(sets[i]))
    for i in order:
        words = sorted(sets[i], key=lambda w: (df[w], w))
        if not words:
            continue
        size = len(words)
        prefix = size - math.ceil(threshold * size) + 1
        seen: set[int] = set()
        for w in words[:prefix]:
            for j in index.get(w, ()):
                # Sets are visited smallest first: j is never larger than i.
                if j not in seen and len(sets[j]) >= threshold * size:
                    seen.add(j)
                    yield (min(i, j), max(i, j))
            index.setdefault(w, []).append(i)


def duplicate_groups(signatures: Sequence[Signature], threshold: float) -> list[list[int]]:
    """Groups of near-duplicate indexes (each group's members are linked by a chain
    of near-duplicate pairs); singletons are left out.

    Two near-duplicates hold each other's protected words, so they agree on their
    *key*: the protected words that are protected wherever they occur (a name, a
    number, a negation; not a word capitalised in one statement and lower-case in
    another). Statements are grouped by key and pairs are sought within each group
    by prefix filtering. Keys split a templated corpus into small groups, where a
    name or number alone would make one long candidate list per statement: the
    search stays near-linear at a million facts instead of quadratic.
    """
    parent = list(range(len(signatures)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    protected_somewhere: set[str] = set()
    plain_somewhere: set[str] = set()
    for sig in signatures:
        protected_somewhere |= sig.protected
        plain_somewhere |= sig.words - sig.protected
    mixed = protected_somewhere & plain_somewhere
    by_key: dict[frozenset[str], list[int]] = {}
    for i, sig in enumerate(signatures):
        if len(sig.words) >= 2:  # a single word is never a near-duplicate
            by_key.setdefault(sig.protected - mixed, []).append(i)
    for members in by_key.values():
        if len(members) < 2:
            continue
        for a, b in candidate_pairs([signatures[k].words for k in members], threshold):
            i, j = members[a], members[b]
            if near_duplicate(signatures[i], signatures[j], threshold):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(signatures)):
        groups.setdefault(find(i), []).append(i)
    return [sorted(g) for g in groups.values() if len(g) > 1]
