"""Ties at work that end (pure): a workplace left ("I left Acme", "Priya resigned from
Initech", "I used to work at Globex") and a manager one no longer has ("Ana is no
longer my manager"), a service one holds no more ("Bob no longer owns the
billing-service"). Each is a claim, never a graph edge, that ends the same tie stated
before (``supersession.ended_by``): working there, reporting to them, owning, leading or
working on it. "Left Google for Meta" also states where the leaver works now."""

from __future__ import annotations

import re

from hermes_memory.text.clauses import between
from hermes_memory.text.reading import Claim, Mention, Relation
from hermes_memory.text.triggers import BOSS

# The words just before a workplace left, the leaving done (not "I'm leaving", "I
# might quit"): a bounded look back, anchored at the name.
_LEFT = re.compile(
    r"\b(?:left|quit|resigned from|stepped down from|(?:laid off|let go|fired) (?:from|by)|"
    r"(?:left|quit) (?:my|his|her|their|a) (?:job|position|role) (?:at|with)|"
    r"(?:no longer|stopped|used to) work(?:s|ed|ing)? (?:at|for))\s+$",
    re.I,
)
_REACH = 48
# What may stand between the leaver and the verb: auxiliaries and adverbs of time, not
# a hedge, a negation or another verb ("I finally quit X", not "I want to quit X").
_AUXILIARY = re.compile(
    r"(?:\s*(?:['’]ve|['’]d|has|have|had|was|were|got|been|just|recently|finally|already|"
    r"officially|eventually|then|also|actually)\b)*\s*",
    re.I,
)


# A manager one has no more, said after their name: "Ana is no longer my manager".
_NO_LONGER_MINE = re.compile(
    rf"\s+(?:is|was)\s+no longer\s+my\s+(?:{BOSS})\b"
    rf"|\s+(?:isn['’]t|is not)\s+my\s+(?:{BOSS})\s+any\s?more\b",
    re.I,
)


# A hold on a service given up, said after the holder's name: "Bob no longer owns the
# billing-service", "Ana no longer maintains it".
_NO_LONGER_HOLDS = re.compile(
    r"\s+no longer\s+(?:owns|maintains|manages|leads|runs|works on|is responsible for)\s+"
    r"(?:the |our |their |his |her )?$",
    re.I,
)


def ended_ties(
    sentence: str, mentions: list[Mention], self_name: str
) -> tuple[list[Claim], list[Relation], set[frozenset[str]]]:
    """The claims of ``sentence`` that end a tie at work ("left", "stopped_reporting_to";
    subject None for ``self_name``, the user), the new workplace each leaver went to
    ("left Google for Meta": works_at Meta), and the pairs of names whose co-mention
    that reading replaces."""
    claims: list[Claim] = []
    rels: list[Relation] = []
    replaced: set[frozenset[str]] = set()
    ms = sorted(mentions, key=lambda m: m.start)
    for k, place in enumerate(ms):
        if place.type == "person" and place.name != self_name:
            if _NO_LONGER_MINE.match(sentence, place.end):
                claims.append(Claim(None, "stopped_reporting_to", place.name))
            held = ms[k + 1] if k + 1 < len(ms) else None
            if (
                held is not None
                and held.type in ("project", "tech")
                and _NO_LONGER_HOLDS.fullmatch(sentence, place.end, held.start)
            ):
                claims.append(Claim(place.name, "stopped_holding", held.name))
            continue
        if place.type != "org":
            continue
        verb = _LEFT.search(sentence, max(0, place.start - _REACH), place.start)
        if verb is None:
            continue
        leaver = _leaver(sentence, ms[:k], verb.start())
        if leaver is None:
            continue
        claims.append(Claim(None if leaver.name == self_name else leaver.name, "left", place.name))
        nxt = ms[k + 1] if k + 1 < len(ms) else None
        if nxt is not None and nxt.type == "org" and between(sentence, place, nxt) == "for":
            rels.append(Relation(leaver.name, "works_at", nxt.name, True))
            claims.append(Claim(claims[-1].subject, "works_at", nxt.name))
            replaced.add(frozenset((place.name, nxt.name)))
    return claims, rels, replaced


def _leaver(sentence: str, before: list[Mention], verb: int) -> Mention | None:
    """The person just before the verb of leaving, with nothing but auxiliaries between
    ("I", "Priya has", "I've finally"); not the user's "my" ("my sister left")."""
    for m in reversed(before):
        if m.end > verb:
            continue
        if m.type != "person" or sentence[m.start : m.start + 2].lower() == "my":
            return None
        return m if _AUXILIARY.fullmatch(sentence, m.end, verb) else None
    return None
