"""Pseudo-relevance feedback for recall's candidates (RM3-style, lexical).

The best matches of a first ranking name things the question does not ("What does
Mel do with her kids?" -> camping, museum, pottery): those words, weighed by how
rare they are among all the candidates, search tier 2 once more, and what that finds
joins the candidates with its own cosine to the query. Feedback only finds; it never
scores: a memory it brings has no lexical evidence and ranks on its meaning alone.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Any

from hermes_memory.api.candidates import Candidate, search_tier2, visible
from hermes_memory.tier2.fts import query_terms

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

# The first ranking's top memories the expansion words come from, and how many of
# its results their rarity is counted over.
FEEDBACK_DOCS = 5
FEEDBACK_POOL = 40


def expansion_terms(
    query: str, top: list[list[str]], everything: list[list[str]], n: int
) -> list[str]:
    """Up to ``n`` words of the ``top`` texts (their content words) that the query
    lacks, by how many of them use the word times its rarity among ``everything``
    (log((N + 1) / df))."""
    asked = set(query_terms(query))
    df: Counter[str] = Counter()
    for words in everything:
        df.update(set(words))
    weight: dict[str, float] = {}
    for words in top:
        for word in set(words):
            if word not in asked and len(word) > 2:
                rarity = math.log((len(everything) + 1) / max(df[word], 1))
                weight[word] = weight.get(word, 0.0) + rarity
    ranked = sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))
    return [w for w, v in ranked[:n] if v > 0]


def add_candidates(
    api: MemoryAPI,
    query: str,
    pool: dict[str, Candidate],
    top: list[str],
    query_vector: Any,
    *,
    per_tier: int,
    terms: int,
    scope: str | None,
    as_of: float | None,
) -> int:
    """Search tier 2 with the query and the words of the best of the ``top`` keys'
    memories (ranked first to last; rarity counted over all of them); add what is
    new, with its cosine to ``query_vector``. Returns how many were added."""
    stored = [pool[k].terms for k in top if pool[k].tier == "tier2"]
    best = stored[:FEEDBACK_DOCS]
    words = expansion_terms(query, best, stored, terms)
    if not words or api.semantic is None:
        return 0
    found = search_tier2(api, f"{query} {' '.join(words)}", per_tier * 4, scope)
    new = [c for c in found if c.key not in pool and visible(c, scope, as_of)]
    sims = api.semantic.store.similarities(query_vector, [c.provenance["id"] for c in new])
    for cand in new:
        cand.lexical_raw = 0.0  # found by the expanded query, not a match of the query
        cand.semantic = sims.get(cand.provenance["id"], 0.0)
        cand.extra.append("feedback")
        pool[cand.key] = cand
    return len(new)
