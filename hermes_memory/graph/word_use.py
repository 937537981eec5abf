"""How the memory writes a word: in lower case or capitalised inside a sentence.

Extraction asks this of a capitalised word that opens a sentence (text/casing.py): the
turns and facts already stored say whether it is a name ("Max") or a common word
("Dance"). Counted in a sample of the newest rows holding the word, found through the
full-text indexes, before the write transaction that links what a text says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from hermes_memory.text.casing import Counts, counts_in, lookup_in, word_counts
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.fts import newest_with_word
from hermes_memory.tier2.records import Owner

# Rows read per word and table: enough to outvote a stray use, few enough that a word
# in every turn of a large store costs a millisecond or two.
SAMPLE = 40
# Words read from the store per batch: a message of a thousand sentences, each opening
# with a different capitalised word, must not cost a thousand searches; past the
# budget a word is counted in the batch alone.
LOOKUPS = 64
# (row table, its FTS table, the text column)
_SOURCES = (("episodes", "episodes_fts", "text"), ("facts", "facts_fts", "content"))


class WordUse:
    """A lookup of a word's counts in ``owner``'s turns and facts, plus ``pending``
    texts not yet stored (a batch being written); each word is read once, and at most
    ``LOOKUPS`` words from the store."""

    def __init__(self, db: Database, owner: Owner, pending: Iterable[str] = ()) -> None:
        self._db = db
        self._owner = owner
        table: Counter[str] = Counter()
        for text in pending:
            table.update(counts_in(text))
        self._pending = lookup_in(table)
        self._seen: dict[str, Counts] = {}

    def __call__(self, word: str) -> Counts:
        key = word.lower()
        if key not in self._seen:
            lower, cap = self._pending(key)
            asked = len(self._seen) < LOOKUPS
            for text in self._sample(key) if asked else ():
                a, b = word_counts(text, key)
                lower += a
                cap += b
            self._seen[key] = (lower, cap)
        return self._seen[key]

    def _sample(self, word: str) -> list[str]:
        clause, params = self._owner.visible_clause("r")
        with self._db.snapshot() as conn:
            return [
                text
                for table, fts, column in _SOURCES
                for text in newest_with_word(conn, table, fts, column, word, clause, params, SAMPLE)
            ]
