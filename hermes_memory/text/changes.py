"""Changes of a value: "We moved the billing database to CockroachDB" ends "The billing
database runs PostgreSQL 14". A service uses many things at once, so a new use ends an
old one only within one facet of the subject: the head noun it was named with ("billing
*database*", "orders *queue*", "the docs site *repo*") or, without one, the kind of use
its verb names ("written in": language, "stores ... in": storage, "runs on": hosting,
"built with": framework). Every such use is claimed with its facet; a statement that the
value changed (a change verb or "now", not hedged, asked or added "also") claims the
facet's new value, which ends its other values (``supersession.ended_by``). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from hermes_memory.text.clauses import listed_after
from hermes_memory.text.components import PROJECT_HEADS
from hermes_memory.text.gazetteer import KNOWN
from hermes_memory.text.kinds import LEFT_WORK
from hermes_memory.text.lexicon import STACK_FACET_WORDS, STACK_FACETS
from hermes_memory.text.reading import Mention
from hermes_memory.text.triggers import STOPPED_BEFORE

USE = "uses@"  # + facet: a use of one facet of the subject
CHANGED = "changed@"  # + facet: its value changed to the object

# Head nouns that name a facet of what they follow ("the billing database").
FACET_HEADS = PROJECT_HEADS | frozenset(
    "cache queue bus index store cluster broker storage backend frontend host hosting "
    "runtime language framework ci".split()
)
_VERB_FACETS = [
    (re.compile(pattern), facet)
    for pattern, facet in [
        (
            r"\b(written|rewr(ote|itten)|ported|implemented|coded)\b.*\bin\s*$|\bported to\s*$",
            "language",
        ),
        (r"\b(stores?|stored|storing|keeps?|kept|persists?|saves?)\b.*\b(in|on)\s*$", "storage"),
        (r"\b(runs?|running|hosted|deployed|lives?)\s+(on|in|to)\s*$", "hosting"),
        (r"\bbuilt\s+(with|on|in)\s*$", "framework"),
    ]
]
_CHANGE = re.compile(
    r"\b(moved|moving|migrated|migrating|switched|switching|changed|ported|porting|"
    r"rewrote|rewritten|rebuilt|replaced|replacing|swapped|now)\b"
)
# Hedged, asked, conditional or additive: no value changed.
_TENTATIVE = re.compile(
    r"\b(might|may|could|should|would|will|shall|if|maybe|perhaps|consider\w*|thinking|"
    r"plan\w*|want\w*|going to|next|someday|also|add|added|adding|as well|too)\b|['’]ll\b|\?\s*$"
)
_USES = frozenset({"uses", "depends_on", "migrated_to"})


def facet_claims(
    sentence: str, mentions: list[Mention], relations: Iterable[tuple[str, str, str]]
) -> list[tuple[str, str, str]]:
    """The faceted use claims of ``relations`` (head, type, tail) stated in
    ``sentence``, and the change claims among them, as (subject, predicate, object)."""
    low = sentence.lower()
    tentative = _TENTATIVE.search(low) is not None
    by_name = {m.name: m for m in mentions}
    out: list[tuple[str, str, str]] = []
    for head_name, rel, tail_name in relations:
        head, tail = by_name.get(head_name), by_name.get(tail_name)
        if rel not in _USES or head is None or tail is None or head.type not in ("project", "tech"):
            continue
        facet = facet_of(low, head, tail)
        if facet is None:
            continue
        out.append((head.name, USE + facet, tail.name))
        if not tentative and _CHANGE.search(low[: tail.start]):
            out.append((head.name, CHANGED + facet, tail.name))
    return out


def facet_of(low: str, head: Mention, tail: Mention) -> str | None:
    """Which facet of ``head`` its use of ``tail`` is about (``low``: the sentence in
    lower case), if the sentence says."""
    after = low[head.end :].split(maxsplit=1)
    if after and after[0] in FACET_HEADS:
        return after[0]  # "the docs site repo": the repo, not the site
    named = head.surface.lower().split()
    if len(named) > 1 and named[-1] in FACET_HEADS:
        return named[-1]
    before = low[: tail.start]
    for pattern, facet in _VERB_FACETS:
        if pattern.search(before):
            return facet
    return None


# "..., the warehouse is " or "our CI runs on " before a tool: the speaker's stack has
# it (not "the warehouse was", nor "the warehouse of ... is").
_STACK_IS = re.compile(
    rf"(?:^|[,;:(]|\band\b|\bso\b)\s*(?:(?:the|our|my)\s+)?(?:[a-z]+\s+)?(?P<facet>{STACK_FACET_WORDS})"
    r"\s+(?:(?:is|are|['’]s)(?:\s+(?:now|still|currently))?"
    r"(?:\s+(?:hosted|built|deployed|running)\s+(?:on|with))?|(?:now\s+|still\s+)?"
    r"(?:runs?\s+on|uses?))\s+$"
)
# "we're switching orchestration to ", "moving the warehouse from Snowflake to ".
_STACK_CHANGE = re.compile(
    r"\b(?:switch|mov|migrat|port|chang)\w*\s+(?:(?:the|our|my)\s+)?(?:[a-z]+\s+)?"
    rf"(?P<facet>{STACK_FACET_WORDS})\s+(?:(?:over|back)\s+)?(?:from\s+\S+(?:\s+\S+){{0,2}}?\s+)?(?:to|onto)\s+$"
)
# "My stack is FastAPI, Postgres and React": each tool listed is the speaker's.
_OWN_STACK = re.compile(
    r"\b(?:our|my)\s+(?:[\w-]+\s+)?(?:tech\s+)?stack\s+(?:is|includes|consists of)\s+"
    r"(?:(?:now|still|currently)\s+)?$"
)
# Asked or supposed: "if the warehouse is Snowflake, ...", "is the queue SQS?".
_SUPPOSED = re.compile(r"\b(?:if|whether|unless|should|could|would|might|maybe|perhaps)\b|\?\s*$")
_OPENING_ALSO = re.compile(r"^\W*(?:and\s+|oh\s+)?also\b,?")
_REACH = 80  # characters read back from a tool for the words before it


def stack_claims(sentence: str, mentions: list[Mention]) -> list[tuple[None, str, str]]:
    """The speaker's side's claims about its own stack in ``sentence``, as (None,
    predicate, tool): "the warehouse is Snowflake" uses it (and its facet), "we're
    moving the warehouse from Snowflake to BigQuery" changes the facet's value (which
    ends the facet's other values, ``supersession.ended_by``)."""
    said: list[tuple[None, str, str]] = []
    changed: list[tuple[None, str, str]] = []
    for m in mentions:
        if m.type != "tech":
            continue
        before = sentence[max(0, m.start - _REACH) : m.start].lower()
        if _OWN_STACK.search(before):
            for tool in (m, *listed_after(sentence, mentions, m)):
                if (None, "uses", tool.name) not in said:
                    said.append((None, "uses", tool.name))
        elif (found := _STACK_IS.search(before)) is not None:
            facet = STACK_FACETS[found.group("facet")]
            said += [(None, "uses", m.name), (None, USE + facet, m.name)]
        elif (found := _STACK_CHANGE.search(before)) is not None:
            facet = STACK_FACETS[found.group("facet")]
            changed += [(None, "uses", m.name), (None, USE + facet, m.name)]
            changed.append((None, CHANGED + facet, m.name))
    if not said and not changed:
        return []  # most sentences: the whole sentence is never scanned
    low = sentence.lower()
    if _SUPPOSED.search(low):
        return []
    # an opening "Also, ..." adds a point to the chat, not a tool to the stack
    if changed and _TENTATIVE.search(_OPENING_ALSO.sub("", low)):
        changed = []  # "we'll switch the queue to SQS": not yet
    return said + changed


# Words after a verb of moving that name no thing moved ("we moved back from London").
MOVE_PARTICLES = frozenset("back away over out all here there home again just".split())


def moves_a_thing(said: str) -> bool:
    """Whether a move ("moved the notebooks from", "switching everything off") names
    a thing moved between its verb and "from"/"off", rather than the mover moving."""
    words = said.split()[1:-1]
    return any(w.lower() not in MOVE_PARTICLES for w in words)


def run_on(m: Mention, retyped: dict[str, str], *, places: bool) -> Mention:
    """``m`` as a tool when the words around it only guessed it a person or a concept,
    or (``places``: a service or a project is what moved) took it for a place the
    gazetteer does not know ("we moved the servers from Frankfurt" keeps a place)."""
    known = KNOWN.get(m.name.lower(), ("", ""))[1]
    retype = ("person", "place", "concept") if places else ("person", "concept")
    if known or m.type not in retype or (m.type != "place" and not m.guessed):
        return m
    retyped[m.name] = "tech"
    return replace(m, type="tech", guessed=False)


def after_leaving(
    sentence: str, before: Iterable[Mention], tail: Mention, retyped: dict[str, str]
) -> Mention | None:
    """What a person's move to ``tail`` (typed a place) is onto when the sentence left
    something before it, or None for a home. After a use stopped, whether of a tool or
    of a body's product ("I no longer use VS Code; I moved to Zed", "I stopped using
    Twitter and moved to Mastodon"), it is a tool. After leaving a body ("I quit Twitter
    and moved to Mastodon", "I left Acme and moved to Globex") a name the gazetteer does
    not know as a place may as well be the next employer or platform as a town: ``tail``
    comes back unchanged, and the caller claims nothing, since a home claimed ends the
    home held. A known place stays a home ("I left Google and moved to Zurich")."""
    if tail.type != "place" or KNOWN.get(tail.name.lower(), ("", ""))[1] == "place":
        return None
    earlier = [m for m in before if m.end <= tail.start]
    stopped = STOPPED_BEFORE.search(sentence, 0, tail.start)
    if stopped and any(m.type in ("tech", "org") and m.start >= stopped.end() for m in earlier):
        return run_on(tail, retyped, places=True)
    for m in earlier:
        if m.type == "org" and LEFT_WORK.search(sentence[max(0, m.start - 40) : m.start]):
            return tail
    return None


def migration_subject(before: list[Mention]) -> Mention | None:
    """What moved, of the names before a migration: the last service or tool, else the
    first name."""
    for m in reversed(before):
        if m.type in ("project", "tech"):
            return m
    return before[0] if before else None


_FOR = re.compile(r"\b(?:for|on|in)\s+(?:the\s+|our\s+)?$")


def beneficiary(sentence: str, after: list[Mention]) -> Mention | None:
    """What a subject-less migration was for: "We replaced Memcached with Redis for the
    session cache"."""
    for m in after:
        if m.type == "project" and _FOR.search(sentence, max(0, m.start - 16), m.start):
            return m
    return None
