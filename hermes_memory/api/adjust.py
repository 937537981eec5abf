"""Adjustments of the fused similarities before ranking: each raises or lowers
candidates for one reason, and tags the ones it raised (``match_reasons``)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from hermes_memory.api.candidates import Candidate
from hermes_memory.api.voice import named_speaker
from hermes_memory.graph.expand import query_names
from hermes_memory.text.lexicon import is_role
from hermes_memory.text.prose import word_share
from hermes_memory.tier2 import endings
from hermes_memory.tier2.entities import normalize_name
from hermes_memory.tier2.fts import STOP_WORDS, content_words, query_terms, words_of

if TYPE_CHECKING:
    from collections.abc import Mapping

    from hermes_memory.api.memory_api import MemoryAPI

# How steeply a short turn loses similarity (RecallConfig.short_turn_words): 0.3 keeps
# a 5-word turn at 81% and a 1-word one at 50% (chosen with it on LoCoMo 0-2).
SHORT_TURN_EXPONENT = 0.3


def share_context(
    api: MemoryAPI,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    weight: float,
    known: dict[int, tuple[int, int]],
    enough_words: int = 0,
) -> None:
    """Raise each turn toward its best-matching neighbour in the same session: the
    turns next to it share ``weight``, the ones two away half of that (an answer is
    often the reply to the matching line, or the line after that reply). A long turn
    says enough to stand on its own: past ``enough_words`` words it borrows
    ``sqrt(enough_words / words)`` of that (0: every turn borrows fully). ``known``
    caches the turns' neighbours across the rankings of one recall."""
    by_row = {c.provenance["rowid"]: k for k, c in pool.items() if c.kind == "episode"}
    if weight <= 0 or not by_row:
        return
    near = _neighbours(api, list(by_row), known)
    beyond = _neighbours(api, [n for pair in near.values() for n in pair if n], known)
    base = dict(fused)
    for rowid, (prev, nxt) in near.items():
        key = by_row[rowid]
        own = weight * _borrowing(pool[key].words, enough_words)
        reach = [(prev, own), (nxt, own)]
        reach += [
            (beyond.get(prev, (0, 0))[0], own / 2),
            (beyond.get(nxt, (0, 0))[1], own / 2),
        ]
        lifted = max(
            ((1 - w) * base[key] + w * base[by_row[n]] for n, w in reach if n in by_row),
            default=0.0,
        )
        if lifted > base[key]:
            fused[key] = lifted
            pool[key].extra.append("context")


def _borrowing(words: int, enough_words: int) -> float:
    if enough_words <= 0 or words <= enough_words:
        return 1.0
    return math.sqrt(enough_words / words)


def _neighbours(
    api: MemoryAPI, rowids: list[int], known: dict[int, tuple[int, int]]
) -> dict[int, tuple[int, int]]:
    missing = [r for r in rowids if r not in known]
    if missing:
        known.update(api.episodes.neighbours(api.owner, missing))
    return {r: known[r] for r in rowids if r in known}


def prefer_valid(
    pool: dict[str, Candidate], fused: dict[str, float], when: float, factor: float
) -> None:
    """Superseded facts lose weight; their successors inherit their relevance."""
    for key, cand in pool.items():
        if cand.invalid_at is None or cand.invalid_at > when:
            continue
        successor = f"fact:{cand.superseded_by}"
        if successor in pool and fused[key] > fused[successor]:
            fused[successor] = fused[key]
            pool[successor].extra.append("supersedes")
        fused[key] *= factor
        cand.extra.append("superseded")


def lift_successors(
    api: MemoryAPI,
    query: str,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    when: float,
    lift: float,
) -> None:
    """A turn among the candidates that ended what another stated (by ``when``), of a
    thing the query names, rises to ``lift`` of that one's similarity: "we're moving the
    inventory-api to Postgres" answers "what database does inventory-api use?" wherever
    "inventory-api stores everything in CockroachDB" does (not "who owns the
    pricing-engine?", which that turn also answers). So does the fact that superseded a
    fact formed from a candidate turn, and the turns it was formed from, when the query
    shares a word with the superseded fact ("when is the beta due?": "Marcus moved the
    beta deadline to December 4th" where "Deadline for the beta is November 20th" was
    said). Only candidates move."""
    if lift <= 0:
        return
    turns = [key.split(":", 1)[1] for key in pool if key.startswith("episode:")]
    asked: set[str] | None = None  # read only when some turn was ended (rarely)
    for old, new, names in endings.successor_turns(api.db, api.owner, turns, when):
        if asked is None:  # as the graph reads a query's names (graph/expand.py)
            asked = {normalize_name(n) for n in query_names(query)}
        if asked.isdisjoint(normalize_name(n) for n in names):
            continue
        _lift(pool, fused, f"episode:{new}", lift * fused[f"episode:{old}"])
    words: set[str] | None = None
    for old, said, fact, formed_from in api.facts.successors(api.owner, turns, when):
        if words is None:
            words = set(query_terms(query))
        if words.isdisjoint(query_terms(said)):
            continue
        floor = lift * fused[f"episode:{old}"]
        for key in (f"fact:{fact}", *(f"episode:{t}" for t in formed_from)):
            _lift(pool, fused, key, floor)


def _lift(pool: dict[str, Candidate], fused: dict[str, float], key: str, floor: float) -> None:
    if key in pool and fused[key] < floor:
        fused[key] = floor
        pool[key].extra.append("supersedes")


def discount_questions(
    pool: dict[str, Candidate], fused: dict[str, float], factor: float, long_words: int = 0
) -> None:
    """A turn that ends asking something repeats the question's words without holding
    the answer: it keeps ``factor`` of its similarity (its reply has already shared its
    context). A long turn (over ``long_words`` words; 0: none is) that states its
    context and ends "can you help?" is discounted only in the measure the question
    is the turn."""
    if factor >= 1:
        return
    for key, cand in pool.items():
        if cand.speaker is not None and cand.said.rstrip().endswith("?"):
            share = question_share(cand.said, long_words, cand.words)
            if share > 0:
                fused[key] *= 1 - (1 - factor) * share


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_TAIL_CHARS = 2_000


def question_share(text: str, long_words: int = 0, words: int | None = None) -> float:
    """How much of ``text`` is the question it ends with: 0 when it ends otherwise,
    1 for a turn of up to ``long_words`` words (0: any length), else the share of its
    words in that last sentence (``words``: its word count, when known)."""
    text = text.rstrip()
    if not text.endswith("?"):
        return 0.0
    total = len(text.split()) if words is None else words
    if total <= long_words or long_words <= 0:
        return 1.0
    # The last sentence is read from the turn's tail (a long message is not split
    # whole), unless the tail holds no sentence end.
    parts = _SENTENCE_END.split(text[-_TAIL_CHARS:])
    if len(parts) == 1 and len(text) > _TAIL_CHARS:
        parts = _SENTENCE_END.split(text)
    asked = len(parts[-1].split())
    return min(asked / total, 1.0)


def discount_short_turns(
    pool: dict[str, Candidate],
    fused: dict[str, float],
    enough: int,
    floor: float,
    min_share: float = 0.0,
    gate: Mapping[str, float] | None = None,
) -> None:
    """A turn of few content words ("Wow, love it!") is near many questions and the
    answer to none: under ``enough`` words it keeps ``(words / enough) ** 0.3``. A
    dump pasted as a turn (less than ``min_share`` of its opening in words: base64,
    a hex dump, numbers) says nothing either, and counts as no words. Turns already
    under the similarity ``floor`` (times their ``gate``, scoring.floor_share) are left
    as they are (not counted), and so are those a chained question reached through the
    graph: a short "The ledger-service stores its data in CockroachDB." states the asked
    relation, it does not merely sound near."""
    if enough <= 0:
        return
    for key, cand in pool.items():
        below = fused[key] < floor * (1.0 if gate is None else gate.get(key, 1.0))
        if cand.speaker is None or below or "graph_path" in cand.provenance:
            continue
        words = content_words(cand.said, enough)
        if words and min_share > 0 and word_share(cand.said) < min_share:
            words = 0
        if words < enough:
            fused[key] *= (max(words, 1) / enough) ** SHORT_TURN_EXPONENT


STANDING = frozenset({"instruction", "preference"})


def favour_standing(pool: dict[str, Candidate], fused: dict[str, float], boost: float) -> None:
    """A standing instruction or preference of the person ("Always include the
    endpoint path when I ask about endpoints") bears on every request on its topic,
    however the request is worded: such facts gain ``boost`` of their similarity."""
    if boost <= 0:
        return
    for key, cand in pool.items():
        if cand.kind == "fact" and cand.category in STANDING:
            fused[key] *= 1 + boost
            cand.extra.append("standing")


def favour_named_speaker(
    query: str, pool: dict[str, Candidate], fused: dict[str, float], boost: float
) -> None:
    """A question about one person ("what has John done?") is answered by what that
    person said more often than by what was said to them: when the query names
    exactly one of the candidates' speakers, that speaker's turns gain ``boost``.
    Chat roles are not people the query can name: "add a user table" is about no
    one's turns."""
    if boost <= 0:
        return
    people = {c.speaker for c in pool.values() if c.speaker and not is_role(c.speaker)}
    named = named_speaker(query, people)
    if named is None:
        return
    for key, cand in pool.items():
        if cand.speaker == named:
            fused[key] *= 1 + boost
            cand.extra.append("speaker")


# A question about what the assistant said earlier ("what did you recommend?"), as
# opposed to one asking it for something now ("what would you suggest?").
_ASKS_ASSISTANT = re.compile(
    r"\b(?:did|had|have) you\b|\byou(?:'ve)? (?:said|told|recommended|suggested|"
    r"mentioned|proposed|advised|gave|showed|explained|wrote|described|outlined)\b|"
    r"\byour (?:suggestion|recommendation|advice|answer|explanation|example)s?\b",
    re.IGNORECASE,
)
ASSISTANT_ROLES = frozenset({"assistant", "ai", "bot", "agent"})


def weigh_assistant_turns(
    query: str, pool: dict[str, Candidate], fused: dict[str, float], factor: float
) -> None:
    """In a conversation with an assistant, the memory of the person is what they
    said: their requests, facts, instructions and decisions. The assistant's long
    answers elaborate on them in the topic's own words, so they match many
    questions; they keep ``factor`` of their similarity, unless the question asks
    what the assistant said ("how did you recommend ...?"). Stores of people talking
    by name have no assistant turns, and nothing changes there."""
    if factor >= 1 or _ASKS_ASSISTANT.search(query):
        return
    for key, cand in pool.items():
        if cand.speaker is not None and cand.speaker.casefold() in ASSISTANT_ROLES:
            fused[key] *= factor


def favour_window(
    window: tuple[float, float] | None,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    boost: float,
    floor: float = 0.0,
) -> None:
    """Memories of the time the query names (recorded then, or, for a time ahead,
    naming a day of it: ``Candidate.named_date``) gain ``boost`` of their similarity. A
    query asking only about the time (``floor`` > 0: "what did we do last week?")
    matches each of them at least at ``floor``, and the rest, near it only in words
    like "do" and "work", lose as much: what was said then is the answer."""
    if window is None or boost <= 0:
        return
    for key, cand in pool.items():
        when = cand.valid_at if cand.valid_at is not None else cand.created_at
        named = cand.named_date is not None and window[0] <= cand.named_date <= window[1]
        if cand.tier != "tier1" and (named or window[0] <= when <= window[1]):
            fused[key] = max(fused[key], floor) * (1 + boost)
            cand.extra.append("time")
        elif floor > 0:
            fused[key] /= 1 + boost


# Words of a question about a time that say nothing of what happened in it.
_TIME_WORDS = frozenset(
    """last next this past previous coming week weeks weekend month months year years day
    days yesterday today tonight tomorrow ago morning afternoon evening night monday tuesday
    wednesday thursday friday saturday sunday january february march april may june july
    august september october november december first second third fourth half one two three
    four five six seven eight nine ten few couple do did done doing does work worked working
    happen happened happening go went going get got up discuss discussed talk talked chat
    chatted say said tell told mention mentioned cover covered anything everything something
    stuff else new us me you remind recap summary summarise summarize since""".split()
)
_NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?")


def asks_only_time(query: str) -> bool:
    """Whether ``query`` asks what happened in a time and names nothing else: "what
    did we do last week?", "anything new since Monday?"; not "what did Priya say last
    week?" nor "which bugs did we fix in March?". (One pass over the words: a query may
    be 20,000 characters.)"""
    words = set(words_of(query))
    return all(
        w in STOP_WORDS or w in _TIME_WORDS or _NUMBER.fullmatch(w) is not None for w in words
    )


# A question about how things started, or about how they are now. "First" counts only
# as time ("when I first ...", "first described"), not as an ordinal of things ("the
# first 15 terms", "the first n odd numbers").
_EARLIEST = re.compile(
    r"\b(?:initial(?:ly)?|original(?:ly)?|at (?:the )?(?:start|beginning|outset)|"
    r"to (?:start|begin) (?:with|my|our|the)|(?:when|where) (?:i|we) (?:started|began)|"
    r"earliest|in the beginning|back then|"
    r"(?:i|we|you) first\b|first (?:mentioned|described|said|told|asked|set|chose|used|"
    r"started|met|decided|planned|wanted|tried)|at first)\b",
    re.IGNORECASE,
)
_LATEST = re.compile(
    r"\b(?:now|currently|current|latest|final|most recent(?:ly)?|these days|nowadays|"
    r"at the moment|right now|(?:i|we) (?:finally|ended up))\b",
    re.IGNORECASE,
)

_SPAN = re.compile(r"\b(?:how long|since when|for how many)\b", re.IGNORECASE)


def asks_order(query: str) -> str | None:
    """``"earliest"``, ``"latest"`` or None: which end of the history the query asks
    about (neither when it names both)."""
    if _SPAN.search(query):  # "how long has ...": from the start up to now
        return None
    early, late = bool(_EARLIEST.search(query)), bool(_LATEST.search(query))
    if early == late:
        return None
    return "earliest" if early else "latest"


def favour_order(
    query: str,
    window: tuple[float, float] | None,
    pool: dict[str, Candidate],
    fused: dict[str, float],
    boost: float,
) -> None:
    """A query about how something started raises each candidate by how early it is
    among the candidates (the earliest gains ``boost`` of its similarity, the latest
    nothing); one about how things are now, by how late. A query naming its own
    time ("at the beginning of November") is the time stage's; curated notes have no
    time and are left alone."""
    direction = asks_order(query) if boost > 0 and window is None else None
    if direction is None:
        return
    timed = {
        k: (c.valid_at if c.valid_at is not None else c.created_at)
        for k, c in pool.items()
        if c.tier != "tier1"
    }
    if len(timed) < 2:
        return
    lo, hi = min(timed.values()), max(timed.values())
    if hi <= lo:
        return
    for key, when in timed.items():
        place = (when - lo) / (hi - lo)  # 0: earliest, 1: latest
        gain = boost * ((1 - place) if direction == "earliest" else place)
        if gain > 0:
            fused[key] *= 1 + gain
