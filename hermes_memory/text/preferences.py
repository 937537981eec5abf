"""Where a sentence states a preference: just past the verb of a liking ("I prefer X",
"I'm into X", not "equations like x²") and past what is preferred over ("tabs over
spaces"), and the object that starts there when no name does ("I love hiking"). Pure;
``mentions`` reads them."""

from __future__ import annotations

import re

from hermes_memory.text.components import PLAIN
from hermes_memory.text.gazetteer import KNOWN
from hermes_memory.text.lexicon import LIGHT_GERUNDS, NP_STOP
from hermes_memory.text.name_extent import of_end
from hermes_memory.text.reading import Mention

# Where a preference's object can start: just past one of these verbs and its spaces.
_PREF_VERBS = re.compile(
    r"\b(prefers?|likes?|loves?|enjoys?|dislikes?|hates?|learning|allergic to|"
    r"interested in|into)\s+",
    re.I,
)
# What comes before "like" and "into" when they are a liking ("I really like X", "I'm
# into X"), not a preposition ("equations like x²", "divided into parts").
LIKING = (
    r"(?:\b(?:i|we|you|they|he|she|really|also|still|do|don't|dont|didn't|did|would|to|"
    r"definitely|actually|totally|genuinely|always|never|kinda|sorta|truly|so)|['’]d)\s+"
)
_LIKE_AFTER = re.compile(LIKING + "$", re.I)
_INTO_AFTER = re.compile(
    r"(?:\b(?:am|are|is|was|were|really|so|totally|very|also|big|still|more)|'m|'re|'s)\s+$",
    re.I,
)
# The words between a preference and what it is preferred over ("tabs over spaces"),
# and where that other object starts.
RANKED_BELOW = frozenset({"over", "rather than", "instead of", "more than"})
_COMPARED = re.compile(
    r"\b(?:prefers?|likes?|loves?|enjoys?)\s+(?:\S+\s+){1,3}?"
    rf"(?:{'|'.join(sorted(RANKED_BELOW))})\s+",
    re.I,
)


def object_starts(sentence: str) -> set[int]:
    """Where the objects of the sentence's preferences start: after a liking's verb,
    and after what a preference ranks its object over."""
    found = list(_PREF_VERBS.finditer(sentence))
    if not found:  # no liking's verb, so nothing ranked either (most sentences)
        return set()
    liked = [m for m in found if _a_verb(sentence, m)]
    starts = {m.end() for m in liked}
    # what is being learned lists no likings ("my learning style and availability")
    listing = {m.end() for m in liked if m.group(1).lower() != "learning"}
    return starts | {m.end() for m in _COMPARED.finditer(sentence)} | _listed(sentence, listing)


# The further items of a list of liked things ("I enjoy reading, watching movies, and
# exploring nature", "Melanie likes pottery, camping and swimming"): phrases of one to
# three plain lower-case words, joined by commas and closed by "and" or "or" before the
# last; after a gerund only gerunds ("I enjoy cooking and eat well" lists nothing). A
# name in the list is read as a name ("I love Python, Rust and Go").
_ITEM = re.compile(r"([a-z][\w'-]*)(?:\s+[a-z][\w'-]*){0,2}?(?=\s*,|\s+(?:and|or)\s)")
_JOINER = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
_LAST_ITEM = re.compile(r"([a-z][\w'-]*)")
_MOST_ITEMS = 6
# What follows a verb, not a thing liked: its object's determiner ("and admire the
# players"), or a word that opens a clause or a verb phrase after "and".
_DETERMINERS = frozenset("the a an my your his her our their its this that these those".split())
_VERB_AHEAD = re.compile(rf"\s+(?:{'|'.join(sorted(_DETERMINERS))})\b")
_NOT_ITEMS = frozenset("to maybe such get make made want need try also even it".split())


def _listed(sentence: str, starts: set[int]) -> set[int]:
    """Where the items listed after the objects starting at ``starts`` begin."""
    out: set[int] = set()
    for at in starts:
        first = _ITEM.match(sentence, at)
        if first is None or not _an_item(first.group(1)):
            continue
        gerunds = first.group(1).endswith("ing")
        items: list[int] = []
        item: re.Match[str] | None = first
        for _ in range(_MOST_ITEMS):
            joiner = _JOINER.match(sentence, item.end()) if item else None
            if joiner is None:
                break
            nxt = _ITEM.match(sentence, joiner.end()) or _LAST_ITEM.match(sentence, joiner.end())
            if nxt is None or not _an_item(nxt.group(1)):
                break
            word = nxt.group(1)
            if (gerunds and not word.endswith("ing")) or (
                not word.endswith("ing") and _VERB_AHEAD.match(sentence, nxt.start() + len(word))
            ):
                break  # "love sports and admire the players": a verb and its object
            items.append(joiner.end())
            if joiner.group().strip(" ,") in ("and", "or"):
                out.update(items)  # a list closes with "and" or "or" before its last
                break
            item = _ITEM.match(sentence, joiner.end())
    return out


def _an_item(word: str) -> bool:
    """Whether a list item may open with ``word``."""
    return word not in _OBJECT_END and word not in _NO_OBJECT and word not in _NOT_ITEMS


def _a_verb(sentence: str, m: re.Match[str]) -> bool:
    """Whether a match of ``_PREF_VERBS`` is a liking rather than a preposition."""
    word = m.group(1).lower()
    before = sentence[max(0, m.start() - 12) : m.start()]
    if word == "like":
        return _LIKE_AFTER.search(before) is not None
    if word == "into":
        return _INTO_AFTER.search(before) is not None
    return True


# Words that end a preference's object ("I prefer spaces now", "I like tea best";
# "these days" and "a lot" end at their first word).
_OBJECT_END = NP_STOP | frozenset(
    "now nowadays today tonight tomorrow yesterday anymore lately recently again instead "
    "still though anyway more less better best then also either such".split()
)
_WHOSE = frozenset("my your his her our their its them him me us it".split())
# A negation or a verb just past the liking: it is cut short, or it closed a clause
# ("the things I love makes writing more fun"); what follows is no object.
_NO_OBJECT = frozenset(
    "not never is are was were has have had makes made keeps kept helps helped gives gave gets got "
    "can could will would should does did seems feels".split()
)


def preference_object(toks: list[tuple[str, int, int]], i: int) -> tuple[Mention, int] | None:
    """The object of a preference verb that ends just before token ``i``."""
    words: list[tuple[str, int, int]] = []
    j = i
    while j < len(toks) and len(words) < 3:
        w = toks[j][0]
        if not PLAIN.fullmatch(w) or w.lower() in _OBJECT_END:
            break
        if w.lower() in KNOWN:
            return None
        words.append(toks[j])
        j += 1
    if not words or words[0][0].lower() in _NO_OBJECT:
        return None  # "I hate not being ...": cut short
    if (k := _complement_end(toks, words, j)) > j:
        words += toks[j:k]  # "getting lost in fantasy worlds", "helping the community"
        j = k
    elif len(words) == 1 and words[0][0].lower() in LIGHT_GERUNDS:
        return None  # "I love going": nothing liked yet
    elif words[0][0].endswith("ing") and j < len(toks) and toks[j][0].lower() in _WHOSE:
        return None  # "I love running it": cut short
    if words[0][0][:1].isupper() and (k := of_end(toks, j)) > j:
        words += toks[j:k]  # "I love Lord of the Rings"
        j = k
    name = " ".join(w for w, _, _ in words)
    return Mention(name, "concept", words[0][1], words[-1][2], name), j


# A gerund whose meaning is in what follows it runs on through one phrase of plain words:
# a light one and its phrase ("getting lost in fantasy worlds", "curling up with a good
# book", "spending time with friends"), any with its object ("helping the community",
# "running my own studio"). Not into a name, nor past a preposition after an activity
# ("hiking in the mountains" is hiking).
_PARTICLES = frozenset("up out off down back away around over lost time".split())
_LINKS = frozenset("in into on onto to with about for at from through among".split())
# Prepositions that carry a gerund's meaning rather than say where or with whom.
_ARGUMENT_LINKS = frozenset({"into", "about"})
_REFLEXIVES = frozenset("myself yourself himself herself ourselves themselves".split())


def _complement_end(
    toks: list[tuple[str, int, int]], words: list[tuple[str, int, int]], j: int
) -> int:
    """Where the complement of a gerund object ``words`` (ending before ``j``) ends, or
    ``j`` when it has none to take."""
    if not words[0][0].endswith("ing") or len(words) > 2:
        return j
    if len(words) == 2 and words[1][0].lower() not in _PARTICLES:
        return j
    k = j
    if k < len(toks) and toks[k][0].lower() in _REFLEXIVES:
        return k + 1  # "pushing myself"
    light = len(words) == 2 or words[0][0].lower() in LIGHT_GERUNDS
    if k < len(toks) and toks[k][0].lower() in _ARGUMENT_LINKS:
        light = True  # "sinking into magical worlds", "learning about cultures"
    if light and k < len(toks) and toks[k][0].lower() in _LINKS:
        k += 1
    if k < len(toks) and toks[k][0].lower() in _DETERMINERS:
        k += 1
    elif not light:
        return j  # "hiking in the mountains" is hiking
    start = k
    while k < len(toks) and k - start < 3:
        w = toks[k][0]
        if not PLAIN.fullmatch(w) or not w.islower() or w in _OBJECT_END or w in KNOWN:
            break
        k += 1
    return k if k > start else j
