"""The passage of a long memory that a query matched, to show in its place.

An agent's memories include long turns (a request with its logs and code, an answer
with steps): shown from their start, one of them fills a prompt's memory block and the
sentence that answers the question may not be in it. A recall result longer than the
excerpt's size therefore also carries the passage around what matched: the sentence
with the most of the query's words inside the passage the vector search matched best
or the window where the query's words stand closest, whichever holds more of them
(without either, inside the text's start), widened to the size on sentence and word
boundaries, with an ellipsis where text was left out.
"""

from __future__ import annotations

from collections.abc import Callable

from hermes_memory.text.sentences import sentence_spans

ELLIPSIS = "…"
# Without a matched passage or span, the sentence is looked for in this much of the
# start (the words of a 250,000-character log are not all read for one result).
SCAN_CHARS = 20_000


def clip(text: str, chars: int) -> str:
    """``text`` if it fits in ``chars`` characters, else cut there at a word, with " ..."
    where it was cut."""
    if len(text) <= chars:
        return text
    return text[:chars].rsplit(" ", 1)[0] + " ..."


def excerpt(
    text: str,
    size: int,
    *,
    matches: Callable[[str], int],
    passage: str | None = None,
    span: tuple[int, int] | None = None,
) -> str:
    """``text`` itself if it fits in ``size`` characters, else about ``size`` of it
    around what matched. ``matches`` counts the query's words in a sentence;
    ``passage``: the part of ``text`` the vector search matched best, if known;
    ``span``: where the query's words stand closest (tier2/passages.py), if known. Of
    the two, the one whose best sentence holds more of the query's words is shown (the
    passage on a tie)."""
    if len(text) <= size:
        return text
    needle = passage.strip() if passage else ""
    at = text.find(needle[:80]) if needle else -1
    regions = [(at, at + len(needle))] if at >= 0 else []
    if span is not None:
        regions.append(span)
    # Sentences are looked for near a region only: a long log is not split to its end.
    found = [_best_sentence(text, region, size, matches) for region in regions]
    if found:
        best, anchor = max(found, key=lambda x: x[0])  # the first of equals
    else:
        best, anchor = _best_sentence(text, (0, min(len(text), SCAN_CHARS)), size, matches)
        if best == 0:
            anchor = (0, 0)  # nothing to point at: the start, as the text would be shown
    start, end = _window(text, anchor, size)
    cut = text[start:end].strip()
    return (ELLIPSIS if start > 0 else "") + cut + (ELLIPSIS if end < len(text) else "")


def _best_sentence(
    text: str, region: tuple[int, int], size: int, matches: Callable[[str], int]
) -> tuple[int, tuple[int, int]]:
    """The sentence touching ``region`` with the most of the query's words, and how
    many (the region's first sentence unless another holds more)."""
    lo, hi = max(0, region[0] - size), min(len(text), region[1] + size)
    spans = [
        (a + lo, b + lo)
        for a, b in sentence_spans(text[lo:hi])
        if b + lo > region[0] and a + lo < region[1]
    ]
    scored = [(matches(text[a:b]), (a, b)) for a, b in spans]
    return max(scored, key=lambda x: x[0], default=(0, (region[0], region[0])))


def _window(text: str, anchor: tuple[int, int], size: int) -> tuple[int, int]:
    """``size`` characters from the anchor sentence's start (earlier if the text ends
    first), the anchor cut at a word when it is longer than that."""
    start = max(0, min(anchor[0], len(text) - size))
    if start > 0 and text[start - 1].isalnum():  # moved back into a word: past it
        space = text.find(" ", start, anchor[0] + 1)
        start = space + 1 if space >= 0 else start
    end = min(len(text), start + size)
    if end < len(text):
        space = text.rfind(" ", start + size // 2, end)
        end = space if space > start else end
    return start, end
