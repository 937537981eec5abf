"""Recall scoring as pure functions (recall-action-spec.md).

``score = semantic_weight * similarity + recency_weight * 0.5 ** (age_days /
half_life) + importance_weight * importance``, where ``similarity`` in [0, 1]
fuses lexical (BM25) and semantic (cosine) evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

from hermes_memory.clock import DAY
from hermes_memory.config import RecallConfig

LEXICAL_SHARE = 0.45  # of similarity; the rest is semantic


def fuse_similarity(lexical: float, semantic: float) -> float:
    """One similarity in [0, 1] from a normalised BM25 score and a cosine."""
    lex = min(max(lexical, 0.0), 1.0)
    sem = min(max(semantic, 0.0), 1.0)
    return LEXICAL_SHARE * lex + (1 - LEXICAL_SHARE) * sem


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
    if c.similarity >= 0.3:
        reasons.append("semantic" if semantic >= lexical else "lexical")
    if c.recency >= 0.5:
        reasons.append("recency")
    if c.importance >= 0.7:
        reasons.append("importance")
    for tag in (["lexical"] if lexical > 0 else []) + (["semantic"] if semantic >= 0.3 else []):
        if tag not in reasons:
            reasons.append(tag)
    reasons.extend(t for t in extra if t not in reasons)
    return reasons
