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
from typing import NamedTuple

from hermes_memory.tier2.fts import word_starts

# FTS5's BM25 constants (fts5_aux.c), so a window's score is on the index's scale.
K1 = 1.2
B = 0.75
# A text's first this many characters are read for every query term. Past them (a
# pasted log of 100k+ characters, whose one line of interest can sit anywhere) only the
# query's rarest terms are looked for, rarest first, until so many of their words are
# found: what finds the line is a rare word, and reading every term's every occurrence
# in 500,000 characters of log costs 12 ms a text.
HEAD_CHARS = 20_000
TAIL_TERMS = 8
TAIL_OCCURRENCES = 2_000


class Passage(NamedTuple):
    """A text's best window: its BM25 and where it starts (0 with no match)."""

    score: float
    start: int


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
) -> Passage:
    """BM25 of the best ``window``-character span of ``text`` for the query terms whose
    stem_prefix forms are ``stems``, weighted by ``weights`` (a term matches any word
    starting with its stem, as elsewhere), and where the span starts. Spans start every
    half window, so each is two half-window blocks; a text no longer than a window is
    one span of its length. Past :data:`HEAD_CHARS` only the :data:`TAIL_TERMS` rarest
    terms count, up to :data:`TAIL_OCCURRENCES` of their words in all (so a span there
    may score under its whole due)."""
    folded = text.casefold()
    step = max(1, window // 2)
    last = max(0, -(-len(folded) // step) - 2)  # the last span's index
    head = min(len(folded), HEAD_CHARS)
    # Occurrences per (term, half-window block): a few dozen in a long turn, so plain
    # Python beats array set-up here (and one substring search per term beats one
    # regex pass for all of them: 51 against 108 us a turn for 12 terms).
    blocks: list[dict[int, int]] = [{} for _ in stems]
    for stem, weight, found in zip(stems, weights, blocks, strict=True):
        if weight > 0:
            for o in word_starts(folded, stem, end=head):
                found[o // step] = found.get(o // step, 0) + 1
    if len(folded) > head:
        budget = TAIL_OCCURRENCES
        for i in sorted(range(len(stems)), key=lambda i: -weights[i])[:TAIL_TERMS]:
            if weights[i] <= 0 or budget <= 0:
                break
            for o in word_starts(folded, stems[i], start=head):
                blocks[i][o // step] = blocks[i].get(o // step, 0) + 1
                budget -= 1
                if budget == 0:
                    break
    per_term = [(w, b) for w, b in zip(weights, blocks, strict=True) if b]
    if not per_term:
        return Passage(0.0, 0)
    size = min(window, len(folded))
    norm = K1 * (1 - B + B * size / max(avg_chars, 1.0))
    # Span k covers blocks k and k + 1: each term adds to the spans its occurrences
    # touch, in query order (so every span's sum is the same as term by term over all
    # spans, which cost 12 terms x every span of a long turn).
    scores: dict[int, float] = {}
    for weight, counts in per_term:
        for k in {k for b in counts for k in (b - 1, b) if 0 <= k <= last}:
            tf = counts.get(k, 0) + counts.get(k + 1, 0)
            scores[k] = scores.get(k, 0.0) + weight * tf * (K1 + 1) / (tf + norm)
    # Every occurrence touches a span (block b is in spans b - 1 and b, and the last
    # block's b - 1 is the last span), so ``scores`` is not empty here.
    best = max(sorted(scores), key=scores.__getitem__)  # the earliest of equal spans
    return Passage(scores[best], best * step)
