"""Where a text's sentences are: one rule for the vector index's sentence segments and
for the excerpt a long memory is shown by."""

from __future__ import annotations

import re

from hermes_memory.text.bounds import NOT_AN_END

Span = tuple[int, int]

# A sentence ends at . ! ? (a run of them, then closing quotes or brackets) before
# whitespace, or at a line break; not at a title's point ("Dr. Okafor": a segment of
# "Dr." alone matched every query about nothing) nor inside "e.g.".
_SENTENCE_END = re.compile(rf"[.!?]+{NOT_AN_END}[\"')\]]*(?=\s)|\n+")


def sentence_spans(text: str) -> list[Span]:
    """Character spans of ``text``'s sentences that hold a word, without the
    whitespace around them."""
    spans: list[Span] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        _add(text, start, m.end(), spans)
        start = m.end()
    _add(text, start, len(text), spans)
    return spans


def _add(text: str, start: int, end: int, spans: list[Span]) -> None:
    piece = text[start:end]
    if not any(c.isalnum() for c in piece):
        return
    lead = len(piece) - len(piece.lstrip())
    spans.append((start + lead, start + len(piece.rstrip())))
