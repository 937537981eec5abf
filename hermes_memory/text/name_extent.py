"""Where a capitalised name begins and ends (pure functions over a sentence's tokens):
the words a name may be made of, and what joins them into one ("St. Louis", "St Mary's
Hospital", "Jan de Vries"). ``mentions`` reads names with these, and types them."""

from __future__ import annotations

from hermes_memory.text.gazetteer import KNOWN, LONGEST
from hermes_memory.text.kinds import ORG_NAME_HEADS, PLACE_NAME_HEADS
from hermes_memory.text.letters import CAPITALISED
from hermes_memory.text.lexicon import ROLES, SHOUTED, STARTERS


def name_goes_on(toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether a capitalised word at ``j`` that no list knows continues the name before
    it (not a sentence opener, a day or a known name such as a region)."""
    if j >= len(toks):
        return False
    word = toks[j][0]
    low = word.lower()
    return name_word(word) and not word.isupper() and low not in KNOWN and low not in LONGEST


# Abbreviations that open a place's name ("St. Louis", "Mt. Hood", "St. Mary's").
ABBREVIATED = frozenset({"St", "Mt", "Ft"})


def joined(toks: list[tuple[str, int, int]], j: int, token: str) -> bool:
    """Whether ``toks[j]`` is ``token`` written against the word before it."""
    return j < len(toks) and toks[j][0] == token and toks[j][1] == toks[j - 1][2]


def name_at(toks: list[tuple[str, int, int]], j: int) -> bool:
    return j < len(toks) and name_word(toks[j][0])


def possessed_end(toks: list[tuple[str, int, int]], j: int, most: int) -> int:
    """Where an institution's name that goes on past a possessive at ``j`` ends ("St
    Mary's Hospital": after "Hospital"), or ``j - 1`` when it does not: its words must
    close on what a place or an institution is."""
    k = j
    while k < len(toks) and k - j < most and name_word(toks[k][0]):
        k += 1
        if toks[k - 1][0].lower() in ORG_NAME_HEADS or toks[k - 1][0].lower() in PLACE_NAME_HEADS:
            return k
    return j - 1


# The small words inside a family's or a place's name, in lower case ("Jan de Vries",
# "Ursula von der Leyen", "Leonardo da Vinci"); a second may follow the first ("van der",
# "de la"). Those that are English or German words too ("Mark and Anna do Pilates") join
# a name only after a preposition of place ("the party is at Quinta do Vale").
_PARTICLES = frozenset("van von de der den da di del della du la le ter ten bin ibn".split())
_PARTICLES_AFTER_PLACE = _PARTICLES | {"do", "dos", "das"}
_SECOND_PARTICLES = frozenset("der den de la las los".split())
_PLACE_PREPOSITIONS = frozenset("at in to from near".split())


def particles_end(toks: list[tuple[str, int, int]], i: int, j: int) -> int:
    """Where the particles at ``j`` of a name opened at ``i`` end, when a further word of
    the name follows them, each a single space after the last; ``j`` when none do. The
    word after must be no known name: "Bergen op Zoom", "should Mark do React" are not
    one."""
    first = _PARTICLES
    if i > 0 and toks[i - 1][0].lower() in _PLACE_PREPOSITIONS:
        first = _PARTICLES_AFTER_PLACE
    k = j
    while k < len(toks) and k - j < 2 and toks[k][1] == toks[k - 1][2] + 1:
        if toks[k][0] not in (first if k == j else _SECOND_PARTICLES):
            break
        k += 1
    if k == j or k >= len(toks) or toks[k][1] != toks[k - 1][2] + 1:
        return j
    word = toks[k][0]
    return k if name_word(word) and word.lower() not in KNOWN else j


def name_word(word: str) -> bool:
    """Whether ``word`` may be part of a name: capitalised (or a short acronym), and
    not a sentence opener or a chat role."""
    low = word.lower()
    return CAPITALISED.fullmatch(word) is not None and low not in STARTERS and low not in ROLES


def in_shouted_run(toks: list[tuple[str, int, int]], i: int) -> bool:
    """Whether the all-capital word at ``i`` is one of a run of them, set apart by
    single spaces, that holds a word of code ("AS OF SYSTEM TIME", "ON CONFLICT DO
    NOTHING")."""
    run = [i]
    for step in (-1, 1):
        k = i
        while 0 <= k + step < len(toks) and len(run) < 8:
            a, b = (k + step, k) if step < 0 else (k, k + step)
            word = toks[k + step][0]
            if not (word.isalpha() and word.isupper() and toks[b][1] - toks[a][2] == 1):
                break
            k += step
            run.append(k)
    return len(run) >= 3 and any(toks[k][0].lower() in SHOUTED for k in run)


def of_end(toks: list[tuple[str, int, int]], j: int) -> int:
    """Where a name continued by "of (the) <Capitalised>" ends, or ``j``."""
    if j + 1 >= len(toks) or toks[j][0] != "of":
        return j
    k = j + 2 if toks[j + 1][0] == "the" else j + 1
    end = k
    while end < len(toks) and end - k < 3:
        w = toks[end][0]
        if not name_word(w):
            break
        end += 1
    return end if end > k else j
