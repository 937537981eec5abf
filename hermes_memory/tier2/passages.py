"""A long text's lexical score: the BM25 of its best passage (pure functions).

FTS5 ranks whole rows, and BM25's length normalisation makes a 2,000-word turn that
answers a question in one paragraph score below a 40-word turn sharing one of its
words: the answer is diluted by the logs and code around it. Scoring a long text by
its best window ("MaxP" in the passage-retrieval literature) keeps the answer's own
density: every window is as long as the others, and the text counts as its best one.
The terms' weights are the turn index's own (IDF from its document frequencies), and
length is normalised against the index's average turn, so a window scores on the
scale of a whole short turn's BM25 and the two can be fused together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hermes_memory.tier2.fts import word_starts

# FTS5's BM25 constants (fts5_aux.c), so a window's score is on the index's scale.
K1 = 1.2
B = 0.75
# Only this much of a text is read: logs of 100k+ characters are memories too, and the
# excerpt shown of them is looked for in the same span (text/excerpt.py).
SCAN_CHARS = 20_000


@dataclass(frozen=True)
class TermStats:
    """What BM25 needs from the index: its size, each query term's document
    frequency (in query order) and the average length of a document, in characters."""

    n_docs: int
    dfs: tuple[int, ...]
    avg_chars: float

    def weights(self) -> list[float]:
        """Each term's IDF, as FTS5 computes it (a term in no document weighs 0)."""
        n = max(self.n_docs, 1)
        return [math.log(1 + (n - df + 0.5) / (df + 0.5)) if df else 0.0 for df in self.dfs]


def best_passage(
    text: str, stems: Sequence[str], weights: Sequence[float], window: int, avg_chars: float
) -> float:
    """BM25 of the best ``window``-character span of ``text`` for the query terms whose
    stem_prefix forms are ``stems``, weighted by ``weights`` (a term matches any word
    starting with its stem, as elsewhere). Spans start every half window, so each is
    two half-window blocks; a text no longer than a window is one span of its length."""
    folded = text[:SCAN_CHARS].casefold()
    step = max(1, window // 2)
    last = max(0, -(-len(folded) // step) - 2)  # the last span's index
    # Occurrences per (term, half-window block): a few dozen in a long turn, so plain
    # Python beats array set-up here (and one substring search per term beats one
    # regex pass for all of them: 51 against 108 us a turn for 12 terms).
    per_term: list[tuple[float, dict[int, int]]] = []
    for stem, weight in zip(stems, weights, strict=True):
        if weight <= 0 or stem not in folded:
            continue
        blocks: dict[int, int] = {}
        for o in word_starts(folded, stem):
            blocks[o // step] = blocks.get(o // step, 0) + 1
        if blocks:
            per_term.append((weight, blocks))
    if not per_term:
        return 0.0
    size = min(window, len(folded))
    norm = K1 * (1 - B + B * size / max(avg_chars, 1.0))
    # Span k covers blocks k and k + 1: each term adds to the spans its occurrences
    # touch, in query order (so every span's sum is the same as term by term over all
    # spans, which cost 12 terms x every span of a long turn).
    scores: dict[int, float] = {}
    for weight, blocks in per_term:
        for k in {k for b in blocks for k in (b - 1, b) if 0 <= k <= last}:
            tf = blocks.get(k, 0) + blocks.get(k + 1, 0)
            scores[k] = scores.get(k, 0.0) + weight * tf * (K1 + 1) / (tf + norm)
    return max(scores.values(), default=0.0)
