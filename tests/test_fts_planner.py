"""The BM25 planner's bounds on what FTS5 ranks, with the index stood in by functions
(the sizes that trigger them take 100k+ rows to build for real)."""

from __future__ import annotations

import sqlite3
from typing import Any

from hermes_memory.tier2.fts import (
    MAX_RANKED,
    common_term_threshold,
    planned_search,
    presence_counter,
    stem_prefix,
    terms_missing,
    word_set,
    words_present,
)

N_DOCS = 500_000  # common above 10,000 rows


class Index:
    """Document frequencies per term; ``match`` records each expression and returns
    ``hits[expression]`` rows (or none)."""

    def __init__(self, df: dict[str, int], hits: dict[str, int]) -> None:
        self.df, self.hits = df, hits
        self.kept: dict[str, int] = {}
        self.asked: list[str] = []  # ranked
        self.counted: list[str] = []

    def more_than(self, expr: str, n: int) -> bool:
        """Rows matching ``expr`` unranked: a term's df, an intersection's hits."""
        self.counted.append(expr)
        term = expr.strip('"')
        if '"' not in term:
            return self.df.get(term, 0) > n
        return self.hits.get(expr, 0) > n

    def doc_count(self, term: str) -> int:
        return self.df.get(term, 0)

    def match(self, expr: str, limit: int) -> list[Any]:
        self.asked.append(expr)
        conn = sqlite3.connect(":memory:")
        conn.row_factory = sqlite3.Row
        # ``kept``: rows left after the owner and deletion filters, when fewer.
        found = self.kept.get(expr, self.hits.get(expr, 0))
        rows = [(f"{expr} {i}", -10.0 + i * 0.01) for i in range(min(limit, found))]
        out = [conn.execute("SELECT ? AS content, ? AS bm25", r).fetchone() for r in rows]
        conn.close()
        return out

    def search(self, terms: list[str], limit: int = 10) -> list[Any]:
        return planned_search(
            terms,
            N_DOCS,
            limit,
            more_than=self.more_than,
            doc_count=self.doc_count,
            match=self.match,
            content=lambda row: str(row["content"]),
        )


def test_rare_words_in_many_rows_try_all_words_first() -> None:
    assert common_term_threshold(N_DOCS) == 10_000
    # "rafael" and "jensen" are rare (under 10,000 rows) but their union is 14,000 rows.
    index = Index({"rafael": 8_000, "jensen": 6_000, "birthday": 50_000}, {})
    index.hits['"rafael" AND "jensen" AND "birthday"'] = 3  # too few
    index.hits['"rafael" AND "jensen"'] = 700
    found = index.search(["rafael", "jensen", "birthday"])
    # Every intersection is counted first, and only one with enough rows is ranked.
    assert '"rafael" AND "jensen" AND "birthday"' in index.counted
    assert index.asked == ['"rafael" AND "jensen"']
    assert len(found) == 10  # the union of the rare words was never ranked


def test_rare_words_in_few_rows_are_ranked_as_before() -> None:
    small = MAX_RANKED // 2 - 1  # two rare words: each under half the bound
    index = Index({"rafael": small, "jensen": small, "birthday": 50_000}, {})
    index.hits['"rafael" OR "jensen"'] = 200
    index.search(["rafael", "jensen", "birthday"])
    assert index.asked == ['"rafael" OR "jensen"']


def test_the_union_is_the_fallback_when_every_intersection_is_short() -> None:
    index = Index({"rafael": 9_000, "zurich": 20}, {'"rafael" OR "zurich"': 50})
    found = index.search(["rafael", "zurich"])
    assert '"rafael" AND "zurich"' in index.counted
    assert index.asked == ['"rafael" OR "zurich"']
    assert len(found) == 10


def test_common_words_drop_the_most_frequent_until_enough_rows_have_the_rest() -> None:
    # Four common words, their intersection too small: the most frequent goes first.
    index = Index({"move": 20_000, "payments": 30_000, "redis": 90_000, "nginx": 80_000}, {})
    index.hits['"move" AND "payments" AND "redis" AND "nginx"'] = 3
    index.hits['"move" AND "payments" AND "nginx"'] = 4
    index.hits['"move" AND "payments"'] = 400
    found = index.search(["move", "payments", "redis", "nginx"])
    assert [e for e in index.counted if " AND " in e] == [
        '"move" AND "payments" AND "redis" AND "nginx"',
        '"move" AND "payments" AND "nginx"',
        '"move" AND "payments"',
    ]
    assert index.asked == ['"move" AND "payments"']  # the only one ranked
    assert len(found) == 10


def _by_words(terms: list[str], text: str) -> int:
    """The definition: a term is present when some word of the text starts with its form."""
    words = word_set(text)
    return sum(1 for t in terms if any(w.startswith(stem_prefix(t)) for w in words))


def test_presence_is_counted_at_word_starts_only() -> None:
    count = presence_counter(["induction", "deploy", "cafe"])
    assert count("Proof by INDUCTION; then deployed.") == 2
    assert count("reinduction redeploy") == 0  # inside a word is not the word
    assert count("the user_deploy script") == 1  # "_" separates words, as in _WORD
    assert count("x" * 5000 + " induct") == 1  # found at the end of a long text
    assert count("") == 0


def test_presence_and_missing_terms_agree_with_the_word_definition() -> None:
    texts = [
        "I deployed the payments-api (v2.3) to Render.com; inductive steps followed.",
        "Café naïve Straße STRASSE déploiement user_id",
        "Preferences: minimal dependencies. Prefers tabs.\n\nWhat about deployments?",
    ]
    terms = ["deploy", "induction", "preferences", "straße", "users", "api", "naive", "tabs"]
    for text in texts:
        assert words_present(terms, text) == _by_words(terms, text)
        missing = terms_missing(terms, text)
        assert len(terms) - len(missing) == _by_words(terms, text)


def test_an_intersection_counted_enough_but_filtered_short_moves_on() -> None:
    index = Index({"move": 20_000, "payments": 30_000, "redis": 90_000}, {})
    index.hits['"move" AND "payments" AND "redis"'] = 50  # other owners' rows, mostly
    index.kept['"move" AND "payments" AND "redis"'] = 2
    index.hits['"move" AND "payments"'] = 400
    found = index.search(["move", "payments", "redis"])
    assert index.asked == ['"move" AND "payments" AND "redis"', '"move" AND "payments"']
    assert len(found) == 10


def test_common_words_without_a_full_intersection_rank_only_the_rarest_union() -> None:
    # Every pair is short: the union of the words that stay within MAX_RANKED together
    # is ranked, never the union of all four (a walk of every word's whole list).
    a, b = MAX_RANKED // 2 - 100, MAX_RANKED // 2
    index = Index({"checkout": a, "sqlite": b, "prometheus": 30_000, "move": 20_000}, {})
    index.hits['"checkout" OR "sqlite"'] = 300
    found = index.search(["move", "checkout", "prometheus", "sqlite"])
    assert index.asked == ['"checkout" OR "sqlite"']
    assert len(found) == 10


def test_the_rarest_union_short_after_filtering_falls_back_to_every_word() -> None:
    index = Index({"checkout": 20_000, "sqlite": 30_000, "move": 40_000}, {})
    index.hits['"checkout"'] = 300
    index.kept['"checkout"'] = 3  # other owners' rows, mostly
    index.hits['"checkout" OR "sqlite" OR "move"'] = 300
    found = index.search(["checkout", "sqlite", "move"])
    assert index.asked == ['"checkout"', '"checkout" OR "sqlite" OR "move"']
    assert len(found) == 10
