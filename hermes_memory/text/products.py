"""Product names by their model numbers ("Pixel 6 Pro", "Tensor G2"), and the HTTP
status whose reason phrase ("401 Unauthorized") names nobody: where such a name ends,
read over a sentence's tokens ``(word, start, end)``."""

from __future__ import annotations

import re

from hermes_memory.text.letters import CAPITALISED
from hermes_memory.text.lexicon import STARTERS

Token = tuple[str, int, int]

# After a name, a model's number ("Pixel 6 Pro", "Tensor G2", "Snapdragon 8 Gen 1"): a
# product. Years are not model numbers, and a bare number needs a capitalised word after
# it ("gave Bob 5 dollars"). Three digits from 100 to 599 after nothing capitalised are
# an HTTP status, whose reason phrase ("401 Unauthorized") names nobody.
# Not a time, an ordinal, a unit, a quarter or a priority ("5pm", "3rd", "10x", "Q3", "P1").
_LETTER_CODE = re.compile(
    r"(?!(?:Q[1-4]|H[12]|P[0-4]|FY\d+)$)[A-Z]{1,2}\d{1,4}[a-z]?|\d{1,3}(?:\.\d+)*[abceg-jl-qt-wyz]"
)
_NUMBER_CODE = re.compile(r"(?!(?:19|20)\d\d$)\d{1,4}(?:\.\d+)*")
_STATUS = re.compile(r"[1-5]\d\d")
# What may stand before a bare model number without naming a product: the sentence
# openers (months among them) and months cut short ("On May 5 Alice", "Oct 3 Bob").
_NO_PRODUCT = STARTERS | frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())


def model_end(toks: list[Token], j: int) -> int:
    """Where a product name ends that continues with a model number at ``j``, or ``j``."""
    if j >= len(toks):
        return j
    code = toks[j][0]
    nxt = toks[j + 1][0] if j + 1 < len(toks) else ""
    if not (
        _LETTER_CODE.fullmatch(code)
        or (
            _NUMBER_CODE.fullmatch(code)
            and CAPITALISED.fullmatch(nxt)
            and nxt.lower() not in STARTERS
        )
    ):
        return j
    k = j + 1
    while k < len(toks) and k - j < 4:
        w = toks[k][0]
        if not (_LETTER_CODE.fullmatch(w) or _NUMBER_CODE.fullmatch(w) or CAPITALISED.fullmatch(w)):
            break
        if w.lower() in STARTERS:
            break
        k += 1
    return k


def after_status(toks: list[Token], i: int) -> bool:
    """Whether an HTTP status's number comes just before ``i`` ("404 Not Found")."""
    k = i - 1
    if k < 0 or not _STATUS.fullmatch(toks[k][0]):
        return False
    return k == 0 or not (
        CAPITALISED.fullmatch(toks[k - 1][0]) and toks[k - 1][0].lower() not in STARTERS
    )


def after_model(toks: list[Token], i: int) -> bool:
    """Whether the name at ``i`` follows a model number ("A16 Bionic", "iPhone 14 Pro")."""
    if i == 0:
        return False
    prev = toks[i - 1][0]
    if _LETTER_CODE.fullmatch(prev):
        return True
    if i < 2 or not _NUMBER_CODE.fullmatch(prev):
        return False
    line = toks[i - 2][0]
    return any(c.isupper() for c in line) and line.lower() not in _NO_PRODUCT
