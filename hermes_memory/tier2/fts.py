"""Turn arbitrary user text into a safe FTS5 query (a pure function).

User text is never passed to MATCH as-is: FTS5 syntax (quotes, ``*``, ``:``,
``-``, ``NEAR``, parentheses, column filters) would raise or change meaning.
Words are extracted, stop words dropped, and each word is quoted, so every
operator becomes a literal term; terms are OR-ed and BM25 ranks by overlap.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import Any

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


def words_of(text: str) -> list[str]:
    """The lower-cased words of ``text`` as the index reads them, in order."""
    return [w.casefold() for w in _WORD.findall(text)]


def query_terms(text: str) -> list[str]:
    """Lower-cased content words of ``text``, stop words removed (kept if nothing else)."""
    words = words_of(text)
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


# FTS5 ranks every row a query matches (BM25 reads each one's size and positions, tens
# of microseconds a row): a union of rare words past this many rows is ranked only when
# the rows holding all of them are too few (at 1M memories such unions cost 0.3-1.6 s).
MAX_RANKED = 4_000
# Rows read per row asked when common words rescore what rarer ones found (their
# presence bonus can lift a row only so far up BM25's order).
RESCORED = 4


def common_term_threshold(n_docs: int) -> int:
    """Terms in more documents than this are 'common' (dynamic stop words)."""
    return max(1000, n_docs // 50)


def term_bonus(n_docs: int, threshold: int) -> float:
    """The most a common term can add to BM25: its IDF at the threshold (small)."""
    return math.log(1 + (n_docs - threshold + 0.5) / (threshold + 0.5))


def word_set(text: str) -> set[str]:
    """The lower-cased words of ``text``."""
    return {w.casefold() for w in _WORD.findall(text)}


# Derivational endings the porter tokenizer removes before the index compares words
# ("preference" and "prefers" are both "prefer" to FTS5); longest first.
_ENDINGS = ("ences", "ances", "ments", "ions", "ence", "ance", "ment", "ness", "ion", "ing")


def stem_prefix(term: str) -> str:
    """A prefix of ``term`` that its other forms share: the term without its last two
    letters (plural, tense), or without a derivational ending when that is shorter and
    leaves at least five letters."""
    stem = term[: max(4, len(term) - 2)]
    for end in _ENDINGS:
        if term.endswith(end) and len(term) - len(end) >= 5:
            return min(stem, term[: -len(end)], key=len)
    return stem


def word_starts(folded: str, stem: str, *, start: int = 0, end: int | None = None) -> Iterator[int]:
    """Where a word of ``folded`` (casefolded text) starting with ``stem`` starts, from
    ``start`` and before ``end``, found by substring search rather than by splitting the
    text into words."""
    find = folded.find
    stop = len(folded) if end is None else end + len(stem) - 1
    i = find(stem, start, stop)
    while i != -1:
        # A word starts where the character before is not a letter or digit (_WORD's
        # [^\W_] is exactly str.isalnum, which is cheaper per character).
        if i == 0 or not folded[i - 1].isalnum():
            yield i
        i = find(stem, i + 1, stop)


def _starts_a_word(folded: str, stem: str) -> bool:
    """Whether some word of ``folded`` (casefolded text) starts with ``stem``."""
    return next(word_starts(folded, stem), -1) != -1


def terms_missing(terms: list[str], text: str) -> list[str]:
    """The ``terms`` that occur in ``text`` in no form (stem_prefix)."""
    folded = text.casefold()
    return [t for t in terms if not _starts_a_word(folded, stem_prefix(t.casefold()))]


def words_present(terms: list[str], text: str) -> int:
    """How many ``terms`` occur in ``text`` in some form (stem_prefix)."""
    return presence_counter(terms)(text)


def presence_counter(terms: list[str]) -> Callable[[str], int]:
    """``words_present(terms, ·)`` for many texts, each term's form worked out once."""
    stems = [stem_prefix(t.casefold()) for t in terms]

    def count(text: str) -> int:
        folded = text.casefold()
        return sum(1 for stem in stems if _starts_a_word(folded, stem))

    return count


def content_words(text: str, at_most: int) -> int:
    """How many distinct content words ``text`` has, counted up to ``at_most`` only
    (a long message is not read to its end to learn that it is not short)."""
    seen: set[str] = set()
    for m in _WORD.finditer(text):
        w = m.group().casefold()
        if w not in STOP_WORDS:
            seen.add(w)
            if len(seen) >= at_most:
                break
    return len(seen)


def planned_search(
    terms: list[str],
    n_docs: int,
    limit: int,
    *,
    more_than: Callable[[str, int], bool],
    doc_count: Callable[[str], int],
    match: Callable[[str, int], list[sqlite3.Row]],
    content: Callable[[sqlite3.Row], str],
) -> list[tuple[sqlite3.Row, float]]:
    """BM25 search that stays fast when query words are very common.

    Like Lucene's common-terms query: words in more than ~2% of the documents only
    order the candidates that rarer words found (their IDF, hence their BM25 share,
    is small); a query of common words only tries their intersection first, and so
    does one whose rarer words would still rank more than :data:`MAX_RANKED` rows. A
    full OR query is the fallback. ``match(expression, limit)`` runs one FTS5 query whose
    rows carry a ``bm25`` column; ``more_than(expression, n)`` says whether more than
    ``n`` documents match it, unranked (an intersection is tried ranked only then:
    ranking a query of common words costs a walk of each word's whole list, ~1 ms a
    word at 100k turns, however few rows match); ``doc_count(term)`` counts them. When
    every word is common and no intersection holds enough rows, only the union of the
    rarest words that together stay within :data:`MAX_RANKED` rows is ranked, and the
    rest count through the presence bonus (ranking the union of four words in a few
    thousand rows each cost 13 ms at 18k facts).
    """

    def df_at_least(term: str, n: int) -> bool:
        return more_than(quote([term]), n)

    def enough(group: list[str]) -> bool:
        # Unranked and unfiltered: fewer here means fewer ranked and filtered too.
        return more_than(quote(group, "AND"), limit - 1)

    threshold = common_term_threshold(n_docs)
    common = [t for t in terms if df_at_least(t, threshold)]
    rare = [t for t in terms if t not in common]
    bonus = term_bonus(n_docs, threshold)

    def rescored(
        rows: list[sqlite3.Row], bonus_words: list[str] = common
    ) -> list[tuple[sqlite3.Row, float]]:
        present = presence_counter(bonus_words)
        scored = [(r, r["bm25"] - bonus * present(content(r))) for r in rows]
        scored.sort(key=lambda pair: pair[1])
        return scored[:limit]

    if len(terms) > 1 and rare and any(df_at_least(t, MAX_RANKED // len(rare)) for t in rare):
        # The rare words' union would rank thousands of rows: the rows with every word,
        # then those with every rare word, come first when there are enough of them.
        for group in (terms, rare) if len(rare) > 1 and common else (terms,):
            if not enough(group):
                continue
            rows = match(quote(group, "AND"), max(limit * RESCORED, 64))
            if len(rows) >= limit:
                return rescored(rows)
    if rare and common:
        return rescored(match(quote(rare), max(limit * RESCORED, 64)))
    if common and len(common) > 1:
        rows = match(quote(common, "AND"), limit) if enough(common) else []
        if len(rows) >= limit:
            return [(r, r["bm25"]) for r in rows]
        # Then the rows with the rarer words: the most frequent word is dropped until
        # enough rows have all the rest, and the dropped words still count (the
        # presence bonus). Ranking the rows with any two of them instead cost 45 ms at
        # 100k turns (20k rows for four common words); counting a word's rows is ~1 ms
        # and each intersection a few.
        counts = {t: doc_count(t) for t in common}
        rarest = sorted(common, key=counts.__getitem__)
        for size in range(len(rarest) - 1, 1, -1):
            if not enough(rarest[:size]):
                continue
            rows = match(quote(rarest[:size], "AND"), max(limit * RESCORED, 64))
            if len(rows) >= limit:
                return rescored(rows)
        union: list[str] = []
        for term in rarest:
            if union and sum(counts[t] for t in union) + counts[term] > MAX_RANKED:
                break
            union.append(term)
        if len(union) < len(rarest):
            rows = match(quote(union), max(limit * RESCORED, 64))
            if len(rows) >= limit:
                return rescored(rows, [t for t in rarest if t not in union])
    return [(r, r["bm25"]) for r in match(quote(terms), limit)]


def filtered_match(
    conn: sqlite3.Connection,
    table: str,
    alias: str,
    filters: str,
    params: Sequence[Any],
    expression: str,
    limit: int,
) -> list[sqlite3.Row]:
    """The best ``limit`` rows of ``table`` (its index ``<table>_fts``) matching
    ``expression`` that pass ``filters`` (SQL on ``alias``), with their ``bm25``.

    FTS ranks a window of its best matches first (cheap, in the index's order), then
    they are joined and filtered. The first window is twice ``limit``, so a store with
    one owner fills it at once (ranking and reading eight times as many rows cost 7 ms
    against 3 for 240 turns at 100k); it widens eightfold only while filtering left
    too few and the index holds more. Rows outside a window rank below every row in
    it, so the answer is the same whatever the first window.
    """
    index = f"{table}_fts"
    sql = f"""SELECT {alias}.*, c.rank AS bm25 FROM
                (SELECT rowid, rank FROM {index} WHERE {index} MATCH ?
                 ORDER BY rank LIMIT ?) AS c
              JOIN {table} {alias} ON {alias}.id = c.rowid
              WHERE {filters} ORDER BY c.rank LIMIT ?"""
    window = max(limit * 2, 64)
    while True:
        rows: list[sqlite3.Row] = conn.execute(sql, (expression, window, *params, limit)).fetchall()
        if len(rows) >= limit or not more_than(conn, index, expression, window):
            return rows
        window *= 8


def doc_count(
    conn: sqlite3.Connection, fts_table: str, term: str, *, at_most: int | None = None
) -> int:
    """How many rows of ``fts_table`` hold ``term`` (a walk of its doclist), counted
    up to ``at_most`` when given (the walk stops there)."""
    matching = f"FROM {fts_table} WHERE {fts_table} MATCH ?"
    if at_most is None:  # a plain count: the subquery form costs ~40% more
        row = conn.execute(f"SELECT count(*) {matching}", (quote([term]),)).fetchone()
    else:
        sql = f"SELECT count(*) FROM (SELECT rowid {matching} LIMIT ?)"
        row = conn.execute(sql, (quote([term]), at_most)).fetchone()
    return int(row[0])


def more_than(conn: sqlite3.Connection, fts_table: str, expression: str, n: int) -> bool:
    """Whether more than ``n`` rows of ``fts_table`` match ``expression``; walking
    doclists without ranking costs well under 1 ms."""
    row = conn.execute(
        f"SELECT rowid FROM {fts_table} WHERE {fts_table} MATCH ? LIMIT 1 OFFSET ?",
        (expression, n),
    ).fetchone()
    return row is not None


def newest_with_word(
    conn: sqlite3.Connection,
    table: str,
    fts_table: str,
    column: str,
    word: str,
    clause: str,
    params: Sequence[Any],
    limit: int,
) -> list[str]:
    """``column`` of the newest ``limit`` live rows of ``table`` (aliased ``r`` in
    ``clause``) whose text holds ``word`` (letters only: quoted, it is one term)."""
    if not word.isalpha():
        return []
    rows = conn.execute(
        f"SELECT r.{column} FROM {fts_table} f JOIN {table} r ON r.id = f.rowid "
        f"WHERE {fts_table} MATCH ? AND r.deleted_at IS NULL AND {clause} "
        "ORDER BY f.rowid DESC LIMIT ?",
        [f'{column} : "{word}"', *params, limit],
    ).fetchall()
    return [r[0] for r in rows]
