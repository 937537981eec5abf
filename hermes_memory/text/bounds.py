"""How much of a text extraction reads, and which of its lines: its opening, cut at a
bound whatever a turn's size, its sentences and lines without fenced code, and its tables'
header rows (pure functions)."""

from __future__ import annotations

import re

# What of a text is read: its opening, up to this many characters (a turn may hold
# 500,000; read whole, a long one of short lines took ~2 s), and of those its first
# MAX_SENTENCES sentences and lines (10,000 one-word lines took 40-90 ms; long answers
# hold a few hundred).
READ_CHARS = 20_000
MAX_SENTENCES = 2_000
# Of a sentence, names are looked for in its first MAX_SENTENCE_TOKENS words and marks:
# the longest sentence of prose in BEAM's and LoCoMo's messages has 822; longer ones are
# formulas or dumps (one of BEAM's, 9,400 tokens of LaTeX, took 80-90 ms to read).
MAX_SENTENCE_TOKENS = 1_000


def opening(text: str, limit: int = READ_CHARS) -> str:
    """``text`` up to ``limit`` characters, cut after its last whole word there."""
    if len(text) <= limit:
        return text
    cut = max(text.rfind(" ", 0, limit + 1), text.rfind("\n", 0, limit + 1))
    return text[: cut if cut > limit // 2 else limit]


def ends(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else its opening and its close (half
    the room each, cut at whole words) joined by an ellipsis: a long message asks its
    question before or after what it pastes."""
    if len(text) <= limit:
        return text
    half = max(1, (limit - 3) // 2)
    head = opening(text, half)
    tail = text[len(text) - half :]
    space = min((i for i in (tail.find(" "), tail.find("\n")) if i >= 0), default=-1)
    if 0 <= space < half // 2:
        tail = tail[space + 1 :]
    return f"{head}\n…\n{tail}"


# A fenced block of code: its words are identifiers and keywords, not names said.
_FENCED = re.compile(r"```.*?(?:```|\Z)", re.S)


# A sentence or line names something only if it holds a letter ("---", "| |", "...").
_LETTER = re.compile(r"[^\W\d_]")
# A markdown table's header row: the line just above its "| --- | :-: |" rule.
_TABLE_HEADER = re.compile(
    r"^(?=[^\n]*\|)[^\n]*+(?=\n[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[^\n]*)?$)", re.M
)


# A point that ends no sentence: after a title or a place's abbreviation ("Dr. Smith",
# "Prof. Visser", "St. Mary's", "Kafka vs. Pulsar") or inside "e.g." and "i.e." (a
# look-behind's alternatives must be of one width, hence one group per width).
NOT_AN_END = (
    r"(?<!\b(?:Dr|Mr|Ms|St|Mt|Ft|vs|Jr|Sr|Lt)\.)(?<!\b(?:Mrs|Col|Gen|Rev|Sgt)\.)"
    r"(?<!\b(?:Prof|Capt)\.)(?<!\b(?:e\.g|i\.e)\.)"
)
# A sentence ends at . ! ? before whitespace, past NOT_AN_END, or at a line break.
_SENTENCE_BREAK = re.compile(rf"(?<=[.!?]){NOT_AN_END}\s+|\n+")


def sentences_of(text: str) -> list[str]:
    """The sentences and lines of ``text``, fenced code left out."""
    if "```" in text:
        text = _FENCED.sub("\n", text)
    return [s for s in _SENTENCE_BREAK.split(text) if _LETTER.search(s)]


def header_rows(text: str) -> set[str]:
    """The header rows of ``text``'s markdown tables: column names ("| Test | Status |"),
    though a comparison's columns may be products ("| Feature | Dell XPS |")."""
    if "|" not in text or "---" not in text:
        return set()
    return {m.group().strip() for m in _TABLE_HEADER.finditer(text)}
