"""Which statements a new one supersedes (pure rules over claims): "we migrated from
X" ends "we use X", leaving a workplace or a manager ends the tie, a new home ends the old
one, a new holder ends another's hold, a disliking ends a preference. ``contradicts``
decides whether a new statement invalidates an old one; ``ended_by`` and
``ends_holders`` say which stored claims a new one ends; ``recorded`` picks the claims
stored for it (``fact_claims``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from hermes_memory.text import changes
from hermes_memory.text.reading import Claim, Extraction
from hermes_memory.text.relations import TOOK_OVER
from hermes_memory.text.temporal import DateMention
from hermes_memory.text.tense import tense_at

# A subject holds one value at a time for these (a new one replaces the old).
FUNCTIONAL = frozenset({"lives_in", "works_at", "reports_to"})
# Statements that end an earlier "uses X".
ENDS_USE = frozenset({"migrated_from", "stopped_using"})
USE = frozenset({"uses", "migrated_to", "depends_on"})
# Statements that end an earlier tie of the same subject to the same object: "I left X"
# ends working there, "X is no longer my manager" reporting to X, "Bob no longer owns X"
# Bob's hold on X (text/employment.py).
ENDS_TIE: dict[str, frozenset[str]] = {
    "left": frozenset({"works_at"}),
    "stopped_reporting_to": frozenset({"reports_to"}),
    "stopped_holding": frozenset({"owns", "manages", "works_on", TOOK_OVER}),
}
TIED = frozenset().union(*ENDS_TIE.values())
# Likings of one thing by one subject, and what each ends when it comes later: a
# disliking or a "prefers X over <it>" ends a preference for it, a preference ends
# either. (Two likings of different things both hold: "prefers tea" does not end
# "prefers Vim"; "ranks_below" is a claim only, never a graph relation.)
OPPOSITE: dict[str, frozenset[str]] = {
    "prefers": frozenset({"dislikes", "ranks_below"}),
    "dislikes": frozenset({"prefers"}),
    "ranks_below": frozenset({"prefers"}),
}


# A change of who holds something ("Bob now owns the billing-service", "took over"): a
# thing has one owner at a time, so the new holder ends the others' claims to it.
HELD_ONCE = frozenset({"owns", TOOK_OVER})
# A date that bounds what holds until then, not when a change begins ("until March",
# "by Friday", "before the end of June"), in its phrase or just before it.
_BOUNDS = r"until|till|til|through|thru|by|before|up to"
_BOUND = re.compile(rf"(?:{_BOUNDS})\b", re.I)
_BOUND_BEFORE = re.compile(rf"\b(?:{_BOUNDS})\s+$", re.I)
# A date belongs to the new value's clause: within this many characters of it, with no
# clause's end between ("Gary from Best Buy says they'll have a sale on July 4").
_NEAR = 16
_CLAUSE_BREAK = re.compile(r"[,;.!?:\n]|\b(?:and|so|but|because|while)\b", re.I)
# The claims stored for supersession (``fact_claims``).
RECORDED = FUNCTIONAL | ENDS_USE | frozenset(ENDS_TIE) | USE | frozenset(OPPOSITE) | HELD_ONCE


def recorded(claims: Iterable[Claim]) -> list[tuple[str | None, str, str]]:
    """The claims supersession reads, as ``fact_claims`` stores them."""
    return [
        (c.subject, c.predicate, c.object)
        for c in claims
        if c.predicate in RECORDED or c.predicate.startswith((changes.USE, changes.CHANGED))
    ]


def ends_holders(new: Claim) -> frozenset[str] | None:
    """The predicates of other subjects' claims to the same object that ``new`` ends
    (a new holder taking something over), or None."""
    return HELD_ONCE if new.predicate == TOOK_OVER else None


def ended_by(new: Claim) -> tuple[frozenset[str], bool] | None:
    """Which earlier claims of the same subject ``new`` ends: their predicates, and
    whether they must have the same object (True) or another one (False); None if
    it ends nothing. "We migrated from X" or "we stopped using X" ends "we use X"; a
    new value of a functional predicate ("moved to Berlin") ends the old one; disliking
    what one preferred, or preferring something over it, ends the preference, and
    preferring it ends the disliking or the ranking below."""
    if new.predicate in ENDS_USE:
        return USE, True
    if new.predicate in ENDS_TIE:
        return ENDS_TIE[new.predicate], True
    if new.predicate in OPPOSITE:
        return OPPOSITE[new.predicate], True
    if new.predicate in FUNCTIONAL:
        return frozenset({new.predicate}), False
    if new.predicate.startswith(changes.CHANGED):  # text/changes.py
        facet = new.predicate.removeprefix(changes.CHANGED)
        return frozenset({changes.USE + facet, changes.CHANGED + facet}), False
    return None


def contradicts(new: list[Claim], old: list[Claim]) -> Claim | None:
    """The claim of ``old`` that ``new`` invalidates, if any (the rule of
    :func:`ended_by`, or :func:`ends_holders` for another subject's hold on the same
    object). A subject of None ("we", "I") matches only None."""
    for n in new:
        held = ends_holders(n)
        if held is not None:
            for o in old:
                if o.object == n.object and o.subject != n.subject and o.predicate in held:
                    return o
        rule = ended_by(n)
        if rule is None:
            continue
        predicates, same_object = rule
        for o in old:
            if (
                o.subject == n.subject
                and o.predicate in predicates
                and (o.object == n.object) == same_object
            ):
                return o
    return None


def takes_effect(
    text: str, found: Extraction, dates: Iterable[DateMention], written_at: float
) -> float | None:
    """When a new home, workplace or manager that ``text`` says is to come takes effect:
    a date ahead of ``written_at`` next to the new value in its clause and spoken of as
    to come ("I'm moving to Berlin in March", "I start at Stripe on January 5th"), so
    that it ends the one held then, not now. None for a change of nothing held one at a
    time, for a bound on what holds until then ("I live in Lisbon until March"), for a
    date of another clause ("Gary from Best Buy says they'll have a sale on July 4"), or
    for a weekday only guessed ahead."""
    values = {c.object for c in found.claims if c.predicate in FUNCTIONAL}
    spans = [(m.start, m.end) for m in found.mentions if m.name in values]
    if not spans:  # read() asks this of every text: most change nothing held once
        return None
    for d in dates:
        if d.timestamp <= written_at or d.guessed or _BOUND.match(d.phrase):
            continue
        if _BOUND_BEFORE.search(text, max(0, d.start - 12), d.start):
            continue
        end = d.start + len(d.phrase)
        near = any(
            not _CLAUSE_BREAK.search(text[min(e, end) : max(s, d.start)])
            and max(s, d.start) - min(e, end) <= _NEAR
            for s, e in spans
        )
        if near and tense_at(text, d.start) is True:
            return d.timestamp
    return None
