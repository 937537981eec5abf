"""Turn arbitrary user text into a safe FTS5 query (a pure function).

User text is never passed to MATCH as-is: FTS5 syntax (quotes, ``*``, ``:``,
``-``, ``NEAR``, parentheses, column filters) would raise or change meaning.
Words are extracted, stop words dropped, and each word is quoted, so every
operator becomes a literal term; terms are OR-ed and BM25 ranks by overlap.
"""

from __future__ import annotations

import math
import re

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_MAX_TERMS = 32

STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "let",
        "lets",
        "us",
        "s",
        "t",
        "don",
        "doesn",
        "didn",
    ]
)


def query_terms(text: str) -> list[str]:
    """Lower-cased content words of ``text``, stop words removed (kept if nothing else)."""
    words = [w.casefold() for w in _WORD.findall(text)]
    content = [w for w in words if w not in STOP_WORDS]
    chosen = content or words
    seen: dict[str, None] = {}
    for w in chosen:
        seen.setdefault(w, None)
    return list(seen)[:_MAX_TERMS]


def match_expression(text: str) -> str | None:
    """An FTS5 MATCH expression for ``text``, or None when it has no words."""
    terms = query_terms(text)
    if not terms:
        return None
    return " OR ".join(f'"{t}"' for t in terms)


def quote(terms: list[str], op: str = "OR") -> str:
    return f" {op} ".join(f'"{t}"' for t in terms)


def common_term_threshold(n_docs: int) -> int:
    """Terms in more documents than this are 'common' (dynamic stop words)."""
    return max(1000, n_docs // 50)


def term_bonus(n_docs: int, threshold: int) -> float:
    """The most a common term can add to BM25: its IDF at the threshold (small)."""
    return math.log(1 + (n_docs - threshold + 0.5) / (threshold + 0.5))


def words_present(terms: list[str], text: str) -> int:
    """How many ``terms`` occur in ``text`` (prefix match absorbs plural/tense endings)."""
    words = {w.casefold() for w in _WORD.findall(text)}
    count = 0
    for term in terms:
        stem = term[: max(4, len(term) - 2)]
        if any(w.startswith(stem) for w in words):
            count += 1
    return count
