"""Entity and relation extraction without a model: gazetteer, patterns, co-mention.

Pure functions over one text. Entities come from the gazetteer (technologies,
organisations, places with their aliases), from ``<name> service|team|pipeline...``
phrases (projects), from the objects of preference verbs (concepts) and from
capitalised names (people, or organisations and places by their context), read by
text/mentions.py; what each sentence states of them, by text/relations.py. This module
walks a text's sentences within bounds, carries what one sentence tells the next (the
name an "it" stands for) and gathers the reading.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import islice
from typing import TypeVar

from hermes_memory.text.acted_on import acted_on_me
from hermes_memory.text.anaphora import antecedent, spoken_out
from hermes_memory.text.bounds import MAX_SENTENCES, header_rows, opening, sentences_of
from hermes_memory.text.casing import Lookup, counts_in, is_common, lookup_in
from hermes_memory.text.changes import stack_claims
from hermes_memory.text.employment import ended_ties
from hermes_memory.text.kinds import pet_named
from hermes_memory.text.mentions import find_mentions
from hermes_memory.text.reading import Claim, Extraction, Mention, Relation
from hermes_memory.text.relations import SELF, SentenceReading, claim_of, sentence_relations
from hermes_memory.text.relatives import roles
from hermes_memory.text.senses import (
    settle_appositions,
    settle_lists,
    settle_people,
    settle_regions,
    settle_types,
)
from hermes_memory.text.triggers import BOSS, KIN, KIN_ADJECTIVES, TRIGGERS

# What in a sentence is the speaker: "I", "my sister", "our son", "we live in".
_FIRST_PERSON = re.compile(
    rf"\bI\b(?!\.)|\b[Mm]y\s+(?=(?:(?:{KIN_ADJECTIVES})\s+)?"
    rf"(?i:{KIN}|{BOSS}|team|company|employer)\b)|"
    # whom a household has: "Our accountant, Sofie Claes", "our son Daniel"
    rf"\b[Oo]ur\s+(?=(?:(?:{KIN_ADJECTIVES})\s+)?(?i:{KIN}|{BOSS})\b)|"
    # a household's home is the speaker's: "We live in Rotterdam", "we moved to Lyon"
    r"\b[Ww]e(?=(?:\s+(?:just|now|still|all|both|recently|finally))?\s+"
    r"(?:live|lived|(?:moved|relocated)(?:\s+(?:back|away|here|there))?\s+(?:to|from)\b))"
)

# Bounds that keep extraction linear in the text: a message is linked to at most
# MAX_ENTITIES distinct names, its reading stops at MAX_MENTIONS mentions (the most
# any of BEAM's and LoCoMo's 15,000 messages holds is 88), and relations are read among
# the first MAX_RELATED_MENTIONS names of a sentence (a sentence naming more is a list,
# whose pairs state nothing; without the cap a 150-name message took ~60 s).
MAX_ENTITIES = 48
MAX_MENTIONS = 128
MAX_RELATED_MENTIONS = 12


def extract(text: str, *, me: str | None = SELF, casing: Lookup | None = None) -> Extraction:
    """Entities, relations and claims of ``text`` (one or more sentences). ``me`` is who
    "I" and "my" are: the user (the default), a named speaker, or None (an assistant's
    "I" states nothing about anyone in the memory). ``casing`` counts how the rest of
    the memory writes a word (text/casing.py); ``text`` itself is always counted. Only
    its opening (``READ_CHARS``) is read."""
    text = opening(text)
    out = Extraction()
    own: list[Lookup] = []

    def common(word: str) -> bool:
        if not own:  # counted once, and only when a sentence opens with a guess
            own.append(lookup_in(counts_in(text)))
        found = [own[0](word)]
        if casing is not None:
            found.append(casing(word))
        return is_common(found)

    names: set[str] = set()
    seen_rels: set[Relation] = set()
    seen_claims: set[Claim] = set()
    headers = header_rows(text)
    # The names of each sentence already read: answers and logs repeat their lines.
    read_before: dict[str, list[Mention]] = {}
    related_before: dict[tuple[object, ...], SentenceReading] = {}
    # the last sentence, its names, and those a person in it acted on
    before: tuple[str, list[Mention], frozenset[str]] = ("", [], frozenset())
    looked_at = 0  # names found, kept or not: what bounds the reading's work
    for sentence in sentences_of(text)[:MAX_SENTENCES]:
        room = MAX_MENTIONS - looked_at
        if room <= 0:
            break
        kept = []
        header = sentence.strip() in headers
        sentence = spoken_out(sentence)
        if (found := read_before.get(sentence)) is None:
            found = read_before[sentence] = find_mentions(sentence, limit=room, common=common)
        found = found[:room]  # room only shrinks: what was read with more holds
        looked_at += len(found)
        if before[0] and found and pet_named(before[0], sentence[: found[0].start]):
            # "I adopted a cat. Her name is Mochi.": no person
            found = [m for m in found if not (m.type in ("person", "concept") and m.guessed)]
        listed = settle_regions(sentence, settle_people(sentence, settle_lists(sentence, found)))
        for m in settle_appositions(sentence, listed):
            if header and m.guessed:
                continue  # a column's name, not someone's ("| Owner | Status |")
            if m.name in names or len(names) < MAX_ENTITIES:
                names.add(m.name)
                kept.append(m)
        selves = [
            Mention(SELF, "person", m.start(), m.end(), SELF)  # "I" is no alias
            for m in islice(_FIRST_PERSON.finditer(sentence) if me else (), 4)
        ]
        # "It depends on ...": the name the sentence before was about, over the pronoun
        lead = antecedent(sentence, *before) if before[1] else None
        if not kept and not selves and lead is None:
            before = (sentence, [], frozenset())  # it names nothing an "it" could be
            continue  # nothing to relate (most lines of a log or a table)
        named = [m for m in kept if m.name != SELF] + ([lead] if lead else [])
        related = kept[:MAX_RELATED_MENTIONS] + selves + ([lead] if lead else [])
        key = (sentence, lead is not None, tuple((m, m.guessed) for m in related))
        if key not in related_before:
            related_before[key] = sentence_relations(sentence, related, resolved=lead is not None)
        rels, claims, retyped = related_before[key]
        rels, claims = list(rels), list(claims)  # the memo's own stay as read
        ended = ended_ties(sentence, related, SELF)
        if ended.claims or ended.replaced:  # "left Google for Meta": no co-mention
            rels = [r for r in rels if frozenset((r.head, r.tail)) not in ended.replaced]
            claims = [c for c in claims if frozenset((c.subject, c.object)) not in ended.replaced]
            rels += [r for r in ended.relations if r not in rels]
            claims += [c for c in ended.claims if c not in claims]
            retyped = {n: t for n, t in retyped.items() if n not in ended.people}
        toward, said_me = acted_on_me(sentence, kept, SELF) if me else ([], None)
        if said_me is not None:  # "Priya manages me", "Nikhil mentors me"
            rels += [r for r in toward if r not in rels]
            claims += [c for c in map(claim_of, toward) if c not in claims]
            selves = selves or [said_me]
        if me:  # a speaker's own stack ("the warehouse is Snowflake"), the speaker's side
            claims += [
                c for c in (Claim(*t) for t in stack_claims(sentence, kept)) if c not in claims
            ]
        if lead is not None and all(m.name != lead.name for m in kept):
            # a pronoun's name is a guess: it gets what the sentence states, no co-mention
            rels = [r for r in rels if r.stated or lead.name not in (r.head, r.tail)]
        people = {m.name for m in related if m.type == "person"}
        acted_on = frozenset(r.tail for r in rels if r.stated and r.head in people)
        before = (sentence, named, acted_on)
        if retyped:
            kept = [replace(m, type=retyped[m.name]) if m.name in retyped else m for m in kept]
        if me and me != SELF:
            rels = [_as_speaker(r, me) for r in rels]
            claims = [replace(c, subject=me) if c.subject is None else c for c in claims]
            claims = [replace(c, object=me) if c.object == SELF else c for c in claims]
        mine = any(me in (r.head, r.tail) for r in rels) or any(
            c.subject is None for c in ended.claims
        )
        if me and selves and mine:
            # the user is in the graph only by what they state
            kept.insert(0, replace(selves[0], name=me, surface=me))
        if me == SELF:  # "my brother Tomas": the user's; a named speaker's are theirs
            for name, words in roles(sentence, kept).items():
                out.roles.setdefault(name, words)
        out.mentions.extend(kept)
        _append_new(out.relations, rels, seen_rels)
        _append_new(out.claims, claims, seen_claims)
    settle_types(out.mentions)
    return out


# Triggers too common to name a relation on their own in a question's clause.
_VAGUE = frozenset({"related_to", "knows", "located_in", "part_of"})


def relations_named(text: str) -> list[tuple[str, int, int]]:
    """The relation types a clause's verb names, with where the verb starts and ends
    ("that payments-api depends on" -> [("depends_on", 16, 26)]); vague ones are left
    out."""
    out: dict[str, tuple[int, int]] = {}
    low = text.lower()
    for pattern, rel, _ in TRIGGERS:
        if rel in _VAGUE or rel in out:
            continue
        for found in re.finditer(pattern, low):
            if len(found.group().strip()) > 2:  # "in", "on", "to", "is" say nothing alone
                out[rel] = (found.start(), found.end())
                break
    return sorted(((rel, a, b) for rel, (a, b) in out.items()), key=lambda t: t[1])


def _as_speaker(r: Relation, me: str) -> Relation:
    if SELF not in (r.head, r.tail):
        return r
    return replace(r, head=me if r.head == SELF else r.head, tail=me if r.tail == SELF else r.tail)


T = TypeVar("T")


def _append_new(out: list[T], items: list[T], seen: set[T]) -> None:
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
