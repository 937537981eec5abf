"""Recall scoring as pure functions (docs/design.md, "The recall action").

``score = semantic_weight * similarity + recency_weight * 0.5 ** (age_days /
half_life) + importance_weight * importance``, where ``similarity`` in [0, 1]
fuses lexical (BM25) and semantic (cosine) evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from hermes_memory.clock import DAY
from hermes_memory.config import RecallConfig

# Sentence-embedding cosines of unrelated short texts sit near 0-0.1 and of clearly
# related ones at 0.5 and above (all-MiniLM-L6-v2), so that band is mapped to [0, 1].
# The ceiling sits above the band: at 0.6 every close match read 1.0 and ties among
# them went to recency (LoCoMo 0-2: R@10 0.7953 -> 0.8004 at 0.8; docs/retrieval.md).
COS_FLOOR = 0.1
COS_CEIL = 0.8
STRONGER_SHARE = 0.6  # weight of the stronger signal; the weaker one confirms

K = TypeVar("K")


def calibrate_cosine(cosine: float) -> float:
    return min(max((cosine - COS_FLOOR) / (COS_CEIL - COS_FLOOR), 0.0), 1.0)


def fuse_similarity(
    lexical: float, cosine: float, *, has_lexical: bool = True, has_semantic: bool = True
) -> float:
    """One similarity in [0, 1] from a normalised BM25 score and a raw cosine.

    Either signal alone can make a memory relevant (a paraphrase has no shared
    words; a rare name has a weak embedding); agreement of both ranks highest. A
    signal that found nothing for the whole query (no shared word anywhere, or no
    vectors) is absent rather than negative, so the other one stands alone.
    """
    lex = min(max(lexical, 0.0), 1.0)
    sem = calibrate_cosine(cosine)
    if not has_lexical:
        return sem
    if not has_semantic:
        return lex
    return STRONGER_SHARE * max(lex, sem) + (1 - STRONGER_SHARE) * min(lex, sem)


def floor_share(
    lexical: float, cosine: float, *, has_lexical: bool = True, has_semantic: bool = True
) -> float:
    """The share of the similarity floor a memory's fused similarity must reach: what
    fusion keeps of its stronger signal. Either signal alone can make a memory relevant,
    so one that only the meaning finds ("I moved to Berlin" for "what city do I live
    in?") is not dropped because another memory shares a word with the query."""
    stronger = max(min(max(lexical, 0.0), 1.0), calibrate_cosine(cosine))
    if stronger <= 0:
        return 1.0
    fused = fuse_similarity(lexical, cosine, has_lexical=has_lexical, has_semantic=has_semantic)
    return min(fused / stronger, 1.0)


def rank_in_bands(
    scored: Iterable[tuple[K, float, float]],
    absolute: float,
    relative: float,
    limit: int,
    ties: Mapping[K, tuple[float, ...]] | None = None,
) -> list[K]:
    """Keys of ``(key, similarity, score)`` in ranking order, at most ``limit``.

    Recency and importance may only reorder comparably relevant memories: the
    candidates within ``relative`` of the best similarity left form a band ranked by
    the composite score; the rest are ranked the same way after it, band by band.
    Nothing below the ``absolute`` similarity floor is ranked at all. Equal scores are
    ordered by ``ties`` (higher first), not by the order the candidates were found in.
    """
    left = [item for item in scored if item[1] >= absolute]
    tie = ties or {}
    out: list[K] = []
    while left and len(out) < limit:
        cut = relative * max(sim for _, sim, _ in left)
        band = sorted(
            (i for i in left if i[1] >= cut), key=lambda i: (i[2], tie.get(i[0], ())), reverse=True
        )
        left = [i for i in left if i[1] < cut]
        out.extend(key for key, _, _ in band)
    return out[:limit]


def normalise_bm25(scores: dict[str, float]) -> dict[str, float]:
    """BM25 scores (FTS5: more negative is better) mapped to [0, 1] per query."""
    positive = {k: -v for k, v in scores.items() if v < 0}
    if not positive:
        return {k: 0.0 for k in scores}
    top = max(positive.values())
    return {k: positive.get(k, 0.0) / top for k in scores}


def decay(age_days: float, half_life_days: float) -> float:
    return float(0.5 ** (max(age_days, 0.0) / half_life_days))


@dataclass(frozen=True)
class Components:
    similarity: float
    recency: float
    importance: float
    score: float


def score(
    similarity: float, created_at: float, importance: float, now: float, cfg: RecallConfig
) -> Components:
    recency = decay((now - created_at) / DAY, cfg.recency_half_life_days)
    total = (
        cfg.semantic_weight * similarity
        + cfg.recency_weight * recency
        + cfg.importance_weight * importance
    )
    return Components(round(similarity, 4), round(recency, 4), importance, round(total, 4))


def match_reasons(c: Components, *, lexical: float, semantic: float, extra: list[str]) -> list[str]:
    """Which components pushed the result up, then which retrievers found it."""
    reasons = []
    sem = calibrate_cosine(semantic)
    # The signal that carried the similarity leads, if one did: a memory the graph (or
    # a neighbour's context) lifted is explained by that tag, not by a weak match.
    if c.similarity >= 0.2 and max(sem, lexical) >= 0.2:
        reasons.append("semantic" if sem >= lexical else "lexical")
    if c.recency >= 0.5:
        reasons.append("recency")
    if c.importance >= 0.7:
        reasons.append("importance")
    for tag in (["lexical"] if lexical > 0 else []) + (["semantic"] if sem >= 0.25 else []):
        if tag not in reasons:
            reasons.append(tag)
    reasons.extend(t for t in extra if t not in reasons)
    return reasons
