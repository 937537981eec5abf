"""Standing instructions found by the occasion they name.

A person's standing instruction usually says when it applies ("Always state every base
case when I ask about strong induction proofs"). A request on that occasion ("help me
prove that every integer is a product of primes using strong induction") shares few
words with the instruction, and the instruction's own words dilute its cosine, so it
ranked far below the turns about the topic (BEAM instruction following). Its occasion
is embedded on its own (``text.statements.applies_to``; vectors cached by text) and
compared with the query: the one instruction or preference whose occasion is nearest,
if near enough, joins the candidates and is ranked beside the best matches, as an agent
must see an instruction that applies to what it is asked.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from hermes_memory.api.adjust import STANDING
from hermes_memory.api.candidates import Candidate, load_candidates
from hermes_memory.text.statements import applies_to
from hermes_memory.tier3.snapshot import normalised

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

# The newest standing facts looked at by a recall: a person keeps dozens; the bound
# keeps a store with thousands of formed facts from embedding them all.
SCAN = 200
# Occasions embedded for the first time by one recall (the newest first; the rest on
# later recalls): 32 short texts are one model batch, ~50 ms, where 200 were ~1 s.
NEW_PER_RECALL = 32

_occasion = functools.lru_cache(maxsize=4096)(applies_to)

# A question about what was said or done before ("What deadline did I mention?", "How
# many problems have I solved?") asks for a memory, not for help that an instruction
# shapes; the instruction would only take its place.
_LOOKS_BACK = re.compile(
    r"\b(?:did|had|have) (?:i|we|you)\b|\b(?:i|we|you)(?:'ve| have)? (?:said|mentioned|"
    r"told|asked|described|gave|set|noted|shared|listed|planned|chose|decided|"
    r"recommended|suggested)\b",
    re.IGNORECASE,
)


def applicable(
    api: MemoryAPI,
    query: str,
    query_vector: Any,
    pool: dict[str, Candidate],
    min_cosine: float,
) -> str | None:
    """The key of the standing fact whose occasion is nearest the query, if its
    cosine reaches ``min_cosine`` (added to ``pool`` when not there); None when none
    is near enough or the query looks back at what was said."""
    sem = api.semantic
    if sem is None or query_vector is None or _LOOKS_BACK.search(query):
        return None
    named = [
        (uuid, occasion)
        for uuid, content in api.facts.newest_in(api.owner, sorted(STANDING), limit=SCAN)
        if (occasion := _occasion(content)) is not None
    ]
    fresh = [i for i, (_, occasion) in enumerate(named) if not sem.is_cached(occasion)]
    if len(fresh) > NEW_PER_RECALL:
        later = set(fresh[NEW_PER_RECALL:])
        named = [n for i, n in enumerate(named) if i not in later]
    if not named:
        return None
    q = np.asarray(query_vector, dtype=np.float32)
    # An embedder need not return unit vectors (the protocol does not ask it to).
    rows = normalised(sem.embed_cached([occasion for _, occasion in named]))
    cosines = rows @ (q / (np.linalg.norm(q) or 1.0))
    best = int(np.argmax(cosines))
    if float(cosines[best]) < min_cosine:
        return None
    key = f"fact:{named[best][0]}"
    if key not in pool:
        pool.update(load_candidates(api, [key]))
    return key if key in pool else None


def lift(key: str, pool: dict[str, Candidate], fused: dict[str, float], share: float) -> float:
    """Raise the applicable fact to ``share`` of the best similarity (the standing gain
    then applies as to any); returns its similarity now."""
    fused[key] = max(fused[key], share * max(fused.values()))
    pool[key].extra.append("applies")
    return fused[key]
