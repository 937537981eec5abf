"""The tense of a clause (pure functions): whether a day it names is to come, is past,
or neither. ``temporal`` reads a day without a year ("January 15th") and "on Friday" by
it; formation reads by it whether a plan is told as done."""

from __future__ import annotations

import re
from collections.abc import Iterator

# Said of what is still to come: "on Friday" in such a sentence is the next one. Each
# pattern below is made from its words, so that the words a clause must hold for it to
# be searched (``_words_needed``) cannot fall out of step with it.
_FUTURE_PHRASES = (
    "will", "won't", "shall", "going to", "gonna", "plan to", "plans to", "planned to",
    "planning to", "let's", "let us", "scheduled", "due", "upcoming",
)  # fmt: skip


def _either(phrases: tuple[str, ...]) -> str:
    """A group matching any of ``phrases``, an apostrophe either straight or curly."""
    return "(?:" + "|".join(re.escape(p).replace("'", "['’]") for p in phrases) + ")"


_FUTURE = re.compile(rf"\b{_either(_FUTURE_PHRASES)}\b|['’]ll\b", re.IGNORECASE)
TENSE_CHARS = 200  # how far either side of a day its tense is read
# A plan moved to a day ("moved the trip to", "postponed until"): the day is to come,
# whatever the tense of the verb.
RESCHEDULED = re.compile(
    r"\b(?:moved|pushed|postponed|rescheduled|delayed|shifted|bumped|changed|extended)\b"
    r"[^.!?\n]{0,40}?\b(?:to|until|till)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
# Said of what is done: a past form, or a verb in -ed after its subject or "have" ("we
# need" is no past).
_PAST_FORMS = (
    "was", "were", "had", "did", "went", "came", "saw", "met", "made", "took", "gave",
    "told", "said", "left", "ran", "bought", "ate", "drove", "flew", "found", "felt",
    "spent", "won", "lost", "began", "wrote", "sent", "heard", "brought", "kept", "sat",
    "slept", "caught", "taught", "paid", "read about",
)  # fmt: skip
_ED_SUBJECTS = ("i", "we", "he", "she", "they", "you", "it", "have", "has", "just")
_NOT_PAST_ED = (
    "need", "feed", "seed", "speed", "proceed", "succeed", "exceed", "embed", "bleed",
    "breed", "heed", "shred",
)  # fmt: skip
_PAST = re.compile(
    rf"\b{_either(_PAST_FORMS)}\b|"
    # "I've got a review on Friday" has it now; "Got it, ..." acknowledges
    r"(?<!['’]ve )(?<!\bhave )\bgot\b(?!\s+it\s*[,.!:;-])|"
    rf"\b{_either(_ED_SUBJECTS)}\s+(?!{_either(_NOT_PAST_ED)}\b)\w{{2,}}ed\b",
    re.IGNORECASE,
)
# A commitment made, to what lies ahead of it ("I signed up for the half marathon on
# December 6th", "I decided to do the 10k on December 13th", "we booked the cabin for
# March 3rd"): its past tense is the commitment's, not the day's, so the day is the
# nearer of its last and its next (a booking on November 3rd told on the 10th is past).
_COMMITMENTS = (
    "signed up", "registered", "enrolled", "booked", "reserved", "decided", "agreed",
    "promised", "committed", "arranged", "entered",
)  # fmt: skip
_COMMITTED = re.compile(rf"\b{_either(_COMMITMENTS)}\b", re.IGNORECASE)
# Said of what holds now, or is arranged: "I have a review on ...", "the demo is on ...",
# "we're launching on ...".
_PRESENT = re.compile(
    r"\b(?:am|is|are|have|has|need|needs|want|wants|hope)\b|['’](?:m|re)\b|['’]ve got\b|"
    r"\b(?:it|that|he|she|there)['’]s\b",
    re.IGNORECASE,
)


def _words_needed(phrases: tuple[str, ...]) -> frozenset[str]:
    """The first word of each phrase, in lower case: a clause holding none of them
    cannot match a pattern made of them (each search of a 400-character clause cost
    ~0.3 ms on a slow machine, for every date of a long message)."""
    return frozenset(re.split(r"\W", p, maxsplit=1)[0].lower() for p in phrases)


_FUTURE_WORDS = _words_needed(_FUTURE_PHRASES) | {"ll"}
_COMMITTED_WORDS = _words_needed(_COMMITMENTS)
# The words a past form starts on: it is tried only where one of them stands.
_PAST_STARTS = _words_needed(_PAST_FORMS + _ED_SUBJECTS) | {"got"}
_WORD = re.compile(r"\w+")


def tense_at(text: str, at: int) -> bool | None:
    """Whether the sentence around ``at`` speaks of what is to come (True): a word of
    the future ("we'll meet on ..."), or the present tense with no past form ("I have a
    review on ...", but "I have worked on ...", "the one I saw on ..." point back); of
    what is past (False); or neither (None)."""
    # The sentence, or the clause's reach in one without an end (a hostile 20,000
    # characters of "I am on Friday" read whole for each date took 0.3 s).
    low, high = max(0, at - TENSE_CHARS), min(len(text), at + TENSE_CHARS)
    # A colon or a semicolon ends a clause of its own tense ("we moved the trip: it's now
    # on March 10th").
    start = max(text.rfind(c, low, at) for c in ".!?\n:;") + 1 or low
    ends = [i for i in (text.find(c, at, high) for c in ".!?\n:;") if i >= 0]
    end = min(ends, default=high)
    # An ASCII clause's words, with where each starts; a case-blind pattern matches a
    # few letters beyond ASCII ("ſ" for "s"), so any other clause is searched whole.
    words = (
        [(m.group().lower(), m.start()) for m in _WORD.finditer(text, start, end)]
        if text[start:end].isascii()
        else None
    )
    said = None if words is None else {w for w, _ in words}
    if (said is None or not said.isdisjoint(_FUTURE_WORDS)) and _FUTURE.search(
        text, start, end
    ) is not None:
        return True
    committed = (
        [m.span() for m in _COMMITTED.finditer(text, start, end)]
        if said is None or not said.isdisjoint(_COMMITTED_WORDS)
        else []
    )
    for m in _past_forms(text, start, end, words):
        if not any(a < m.end() <= b for a, b in committed):
            return False
    if committed:
        return None  # "I signed up for the half marathon on December 6th": the nearer
    return True if _PRESENT.search(text, start, end) is not None else None


def _past_forms(
    text: str, start: int, end: int, words: list[tuple[str, int]] | None
) -> Iterator[re.Match[str]]:
    """The past forms between ``start`` and ``end``, as ``_PAST.finditer`` finds them:
    every match begins on a whole word of ``_PAST_STARTS``, so only those are tried."""
    if words is None:
        yield from _PAST.finditer(text, start, end)
        return
    after = start
    for word, at in words:
        if at < after or word not in _PAST_STARTS:
            continue
        if (m := _PAST.match(text, at, end)) is not None:
            yield m
            after = m.end()


def told_as_past(text: str, at: int) -> bool:
    """Whether the clause around ``at`` reports what is done ("the talk was on
    Tuesday"), not what is to come; a plan moved to a day ("postponed to June 3") is
    to come whatever the tense of its verb."""
    if RESCHEDULED.search(text, max(0, at - 60), at):
        return False
    return tense_at(text, at) is False


# Who a clause after "considering" is about, when "considering" means "given that".
_GIVEN = r"i|i['’]m|i['’]ve|i['’]d|my|we|we['’]re|we['’]ve|our|it|it['’]s|this|these|the fact"
# Words that only consider what the clause goes on to say, a state none of it is yet:
# "I'm thinking of moving to Berlin", "we might switch to Neovim", "should we use Redis".
# ("could you" and "can you" ask for help, and consider nothing.)
_CONSIDERING = re.compile(
    r"\b(?:might|maybe|perhaps|possibly|thinking (?:of|about)|contemplat(?:e|es|ed|ing)|"
    r"debating|not sure|unsure|plan(?:s|ned|ning)? to|should we|shall we|could we|"
    r"(?:we|i) could)\b|"
    # not a request ("I was wondering if you could help"), nor "given that" ("considering
    # I'm using React", "considering my mom's advice")
    r"\bwonder(?:s|ed|ing)?\b(?! (?:if |whether )?you\b)|\b(?:if|whether)\b(?! you\b)|"
    rf"\bconsider(?:s|ed|ing)?\b(?! (?:that|how|what|{_GIVEN})\b)|"
    r"\bmay\b(?! \d)",
    re.IGNORECASE,
)
# "May" in capitals is the month as often as not; "may" in lower case a hedge.
_MONTH_MAY = re.compile(r"\bMay\b")
# Where a clause ends, read backwards: a sentence mark, a comma, a dash, "but", and an
# "and" before a new subject and its verb ("I'm considering a new phone and Jamie
# recommended ...", not "planning to use MongoDB and Mongoose for ...").
_CLAUSE_BREAK = re.compile(
    r"[.;:!?,()\n—–]|\s-\s|\b[Bb]ut\b|"
    r"\band(?=\s+(?:I|we|he|she|they|[A-Z][a-z]+)\s+(?:[a-z]+ed|[a-z]{2,}s|is|was|has|had)\b)"
)
_CLAUSE_REACH = 120  # characters read back for the clause a name is said in


def considered(sentence: str, at: int) -> bool:
    """Whether the clause around ``sentence[at]``, up to it, only considers what it
    says ("I'm thinking of moving to Berlin": no move yet). Reads at most
    ``_CLAUSE_REACH`` characters back, so a long sentence stays linear in its names."""
    start = max(0, at - _CLAUSE_REACH)
    clause = sentence[start:at]
    breaks = list(_CLAUSE_BREAK.finditer(clause))
    if breaks:
        clause = clause[breaks[-1].end() :]
    # Every hedge counts, not only the first: "In May we might move ..." hedges.
    return any(not _MONTH_MAY.fullmatch(m.group(0)) for m in _CONSIDERING.finditer(clause))
