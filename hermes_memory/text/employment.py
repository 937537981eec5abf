"""Ties at work that end (pure): a workplace left ("I left Acme", "Priya resigned from
Initech", "I used to work at Globex"), a manager one no longer has ("Ana is no longer
my manager"), a service one holds no more ("Bob no longer owns the billing-service") or
hands to someone ("Kenji handed the search-api over to Lena", "Lena replaced Tom as the
lead for the checkout-service"). Each ending is a claim, never a graph edge, that ends
the same tie stated before (``supersession.ended_by``): working there, reporting to
them, owning, leading or working on it. "Left Google for Meta" also states where the
leaver works now, and a handover who holds the service."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hermes_memory.text.clauses import between, slashed
from hermes_memory.text.reading import Claim, Mention, Relation
from hermes_memory.text.triggers import BOSS

# The words just before a workplace left, the leaving done (not "I'm leaving", "I
# might quit"): a bounded look back, anchored at the name.
_LEFT = re.compile(
    r"\b(?:left|quit|resigned from|stepped down from|(?:laid off|let go|fired) (?:from|by)|"
    r"(?:left|quit|lost) (?:my|his|her|their|a) (?:job|position|role) (?:at|with)|"
    r"(?:no longer|stopped|used to) work(?:s|ed|ing)? (?:at|for)|"
    # a past job, not "I've worked at Acme since 2019"
    r"(?<!['’]ve )(?<!\bhave )(?<!\bhas )worked (?:at|for))\s+$",
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


# A service handed to someone: "Kenji handed the search-api over to Lena", "I'm handing
# off the billing-service to Omar".
_HANDED = re.compile(
    r"\b(?:hand(?:s|ed|ing)?(?:\s+(?:over|off))?|transferr?(?:s|ed|ing)?(?:\s+ownership\s+of)?)"
    r"\s+(?:the\s+|our\s+|my\s+|his\s+|her\s+|their\s+)?$",
    re.I,
)
_HANDED_TO = re.compile(r"\s+(?:(?:over|off)\s+)?to\s+", re.I)
# Said of what is not done yet, around the verb: "if I quit", "I'm handing it off next
# week", "we'll transfer it".
_NOT_YET = re.compile(
    r"\b(?:if|will|shall|going to|gonna|plan\w*|want\w*|might|may|could|should|would|maybe"
    r"|next|tomorrow|soon|about to)\b|['’]ll\b|\?",
    re.I,
)


# Someone replaced in a role on a service: "Lena replaced Tom as the on-call lead for the
# checkout-service" (the role's last word says the hold: owner, lead, maintainer).
_REPLACED_AS = re.compile(r"\s+(?:has\s+|just\s+)?replaced\s+", re.I)
_AS_ROLE = re.compile(
    r"\s+as\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,3}?(owner|lead|manager|maintainer|engineer"
    r"|developer)\s+(?:of|for|on)\s+(?:the\s+)?",
    re.I,
)
_ROLE_HOLDS = {"owner": "owns", "lead": "manages", "manager": "manages"}


@dataclass
class EndedTies:
    """What ``ended_ties`` reads: its claims and relations, the pairs of names whose
    other reading they replace, and the names they show to be people."""

    claims: list[Claim] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    replaced: set[frozenset[str | None]] = field(default_factory=set)
    people: set[str] = field(default_factory=set)


def ended_ties(sentence: str, mentions: list[Mention], self_name: str) -> EndedTies:
    """The claims of ``sentence`` that end a tie at work ("left", "stopped_reporting_to",
    "stopped_holding", a handover's "took_over"; subject None for ``self_name``, the
    user), the ties that begin with them ("left Google for Meta": works_at Meta; "handed
    the search-api over to Lena": Lena owns it), and what they replace."""
    out = EndedTies()
    ms = sorted(mentions, key=lambda m: m.start)
    for k, m in enumerate(ms):
        if k and _handover(sentence, ms, k, self_name, out):
            continue
        if k > 1 and _replacement(sentence, ms, k, out):
            continue
        if k and _new_manager(sentence, ms, k, self_name, out):
            continue
        if m.type == "person" and m.name != self_name:
            if _NO_LONGER_MINE.match(sentence, m.end):  # "Ana is no longer my manager"
                out.claims.append(Claim(None, "stopped_reporting_to", m.name))
            held = ms[k + 1] if k + 1 < len(ms) else None
            if (
                held is not None
                and held.type in ("project", "tech")
                and _NO_LONGER_HOLDS.fullmatch(sentence, m.end, held.start)
            ):
                out.claims.append(Claim(m.name, "stopped_holding", held.name))
        elif m.type == "org":
            _left_workplace(sentence, ms, k, self_name, out)
    return out


def _handover(sentence: str, ms: list[Mention], k: int, self_name: str, out: EndedTies) -> bool:
    """Read "Kenji handed the search-api over to Lena" at ``ms[k]``, the receiver (read
    as a tool, the service's use, before): whether it is one."""
    thing, to = ms[k - 1], ms[k]
    verb = _handed(sentence, thing, to)
    if verb is None:
        return False
    out.replaced.add(frozenset((thing.name, to.name)))
    out.people.add(to.name)
    if _NOT_YET.search(sentence, max(0, verb.start() - 40), to.end + 24):
        return True  # "I'm handing it off to Omar next week": no hold yet
    out.relations.append(Relation(to.name, "owns", thing.name, True))
    out.claims += [Claim(to.name, "owns", thing.name), Claim(to.name, "took_over", thing.name)]
    giver = _leaver(sentence, ms[: k - 1], verb.start())
    if giver is not None:
        subject = None if giver.name == self_name else giver.name
        out.claims.append(Claim(subject, "stopped_holding", thing.name))
    return True


def _replacement(sentence: str, ms: list[Mention], k: int, out: EndedTies) -> bool:
    """Read "Lena replaced Tom as the lead for the checkout-service" ending at ``ms[k]``,
    the service: whether it is one."""
    new, old, thing = ms[k - 2], ms[k - 1], ms[k]
    role = _replaced_as(sentence, new, old, thing)
    if role is None:
        return False
    out.replaced |= {frozenset((new.name, old.name)), frozenset((old.name, thing.name))}
    if not _NOT_YET.search(sentence, max(0, new.start - 40), thing.end + 24):
        hold = _ROLE_HOLDS.get(role.lower(), "works_on")
        out.relations.append(Relation(new.name, hold, thing.name, True))
        out.claims.append(Claim(new.name, hold, thing.name))
        out.claims.append(Claim(old.name, "stopped_holding", thing.name))
    return True


# A manager replaced, said after the one replaced: "Elena replaced Marcus as my manager".
_AS_MY_BOSS = re.compile(rf"\s+as\s+my\s+(?:new\s+)?(?:{BOSS})\b", re.I)


def _new_manager(sentence: str, ms: list[Mention], k: int, self_name: str, out: EndedTies) -> bool:
    """Read "Elena replaced Marcus as my manager" at ``ms[k]``, the one replaced:
    whether it is so."""
    new, old = ms[k - 1], ms[k]
    if (
        new.type != "person"
        or old.type != "person"
        or not _REPLACED_AS.fullmatch(sentence, new.end, old.start)
        or not _AS_MY_BOSS.match(sentence, old.end)
    ):
        return False
    out.replaced.add(frozenset((new.name, old.name)))
    out.people |= {new.name, old.name}
    if not _NOT_YET.search(sentence, max(0, new.start - 40), old.end + 40):
        out.relations.append(Relation(self_name, "reports_to", new.name, True))
        out.claims.append(Claim(None, "reports_to", new.name))
        out.claims.append(Claim(None, "stopped_reporting_to", old.name))
    return True


def _left_workplace(
    sentence: str, ms: list[Mention], k: int, self_name: str, out: EndedTies
) -> None:
    """Read "I left Acme", "Priya resigned from Initech", "left Google for Meta" at
    ``ms[k]``, the workplace left."""
    place = ms[k]
    verb = _LEFT.search(sentence, max(0, place.start - _REACH), place.start)
    if verb is None:
        return
    leaver = _leaver(sentence, ms[:k], verb.start())
    if leaver is None or _NOT_YET.search(sentence, max(0, verb.start() - 40), verb.start()):
        return  # "If I quit Initech, ..."
    subject = None if leaver.name == self_name else leaver.name
    last = slashed(sentence, ms, k)[1]  # "I left IBM/Shopify": both
    for left in ms[k : last + 1]:
        out.claims.append(Claim(subject, "left", left.name))
        # "I left my job at Acme": no work there ("job at" states it otherwise)
        out.replaced |= {frozenset((leaver.name, left.name)), frozenset((subject, left.name))}
    place = ms[last]
    nxt = ms[last + 1] if last + 1 < len(ms) else None
    if nxt is not None and nxt.type == "org" and between(sentence, place, nxt) == "for":
        out.relations.append(Relation(leaver.name, "works_at", nxt.name, True))
        out.claims.append(Claim(subject, "works_at", nxt.name))
        out.replaced.add(frozenset((place.name, nxt.name)))


def _replaced_as(sentence: str, new: Mention, old: Mention, thing: Mention) -> str | None:
    """The role in which ``new`` replaced ``old`` on ``thing``, a service, or None."""
    if new.type != "person" or old.type != "person" or thing.type not in ("project", "tech"):
        return None
    if not _REPLACED_AS.fullmatch(sentence, new.end, old.start):
        return None
    role = _AS_ROLE.fullmatch(sentence, old.end, thing.start)
    return role.group(1) if role else None


def _handed(sentence: str, thing: Mention, to: Mention) -> re.Match[str] | None:
    """The verb that hands ``thing``, a service, to ``to``, a person or a guessed name."""
    if thing.type not in ("project", "tech") or not (to.type == "person" or to.guessed):
        return None
    if not _HANDED_TO.fullmatch(sentence, thing.end, to.start):
        return None
    return _HANDED.search(sentence, max(0, thing.start - 40), thing.start)


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
