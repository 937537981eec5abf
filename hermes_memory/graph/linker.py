"""Write-path linking: what a stored fact or turn says, recorded in tier-2 truth.

For each new fact or turn: its entities (resolved to canonical names, aliases kept),
which entities it mentions, the relations it states (with the text as evidence),
the dates it names (on the timeline), and, for facts, the older facts it
supersedes (marked invalid since the new fact's time, never deleted).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from hermes_memory.errors import CapacityError
from hermes_memory.text.bounds import opening
from hermes_memory.text.casing import Lookup
from hermes_memory.text.extract import SELF, extract
from hermes_memory.text.lexicon import ROLES, is_role
from hermes_memory.text.reading import Extraction, Mention
from hermes_memory.text.supersession import ended_by, ends_holders, recorded, takes_effect
from hermes_memory.text.temporal import MAX_DATES, DateMention, event_span, resolve_dates
from hermes_memory.text.triggers import admits_types
from hermes_memory.text.version import EXTRACTOR_VERSION
from hermes_memory.tier2 import claims
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.endings import Ending, end_by_turn
from hermes_memory.tier2.entities import EntityStore, normalize_name, only_named
from hermes_memory.tier2.facts import (
    began_at,
    formed_from_a_turn,
    kept_to_one_chat,
    mark_superseded,
)
from hermes_memory.tier2.records import Entity, Owner
from hermes_memory.tier2.roles import give_aliases
from hermes_memory.tier2.timeline import DateSource, mention_date, redate

# Relations read from text: a verb pattern states one, co-mention only suggests it.
# Relations given through entity_link default to 1.
STATED_STRENGTH = 0.8
INFERRED_STRENGTH = 0.4
_PERSON_NAME = re.compile(r"^[A-Z][\w'-]+( [A-Z][\w'-]+){0,2}$")


@dataclass
class LinkReport:
    entities: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # names past the entity limit

    def to_dict(self) -> dict[str, Any]:
        return {
            "entities": self.entities,
            "relations": self.relations,
            "superseded": self.superseded,
            "dates": self.dates,
            **({"skipped_entities": self.skipped} if self.skipped else {}),
        }


@dataclass(frozen=True)
class Reading:
    """What a text says, worked out before the write transaction that records it: the
    extraction and the date expressions are pure and can take milliseconds on a long
    message, which must not be spent holding the database's write lock."""

    extraction: Extraction
    dates: list[DateMention]
    # When a change of home, job or manager the text says is to come takes effect
    # (supersession.takes_effect), or None: such a fact holds from then, and ends the
    # one held only once that day has come (consolidate).
    starts: float | None = None


def assistant_voices(persons: Iterable[str]) -> frozenset[str]:
    """The speakers (casefolded) whose turns are an assistant's: the chat roles that
    are not the person's (``persons``)."""
    return ROLES - {p.casefold() for p in persons}


def read(
    text: str,
    written_at: float,
    *,
    speaker: str | None = None,
    persons: Iterable[str] = ("user",),
    casing: Lookup | None = None,
) -> Reading:
    """Entities, relations, claims and dates of ``text``. A turn's speaker, when it is a
    person's name, is one of the people it mentions. The user's turns (a speaker in
    ``persons``: the roles formation reads as the person) and facts, which have no
    speaker, say "I" for the user's own entity; a named speaker's "I" is that person
    in what they state of themselves ("my team at Zalando": Priya works at Zalando),
    never in a mere co-mention (with those too, LoCoMo R@10 0.8236 -> 0.8218: their
    every sentence made them a hub; stated only, 0.8231 -> 0.8228, one question up and
    one down). An assistant's turn gives mentions and no relations. ``casing`` says how the memory
    writes a word (graph/word_use.py)."""
    named = bool(speaker and _PERSON_NAME.match(speaker) and not is_role(speaker))
    own = {p.casefold() for p in persons}
    me: str | None = None  # an assistant's "I", or a speaker's that is no name
    if speaker is None or speaker.strip().casefold() in own:
        me = SELF
    elif named and speaker:
        me = speaker.strip()
    found = extract(text, me=me, casing=casing)
    if me not in (None, SELF):
        # a named speaker is in the graph by what they state of themselves, not by
        # every name they say
        found.relations[:] = [r for r in found.relations if r.stated or me not in (r.head, r.tail)]
    if speaker is not None and speaker.casefold() in assistant_voices(persons):
        # An assistant's answer names things but states nothing of the user's world:
        # "Use Flask's error handling", "Mongoose is unable to connect" read as relations
        # were three in four wrong on BEAM's answers, where the user's own were right.
        found.relations.clear()
        # Nor does it introduce people: what its capitals seem to name are products and
        # terms ("Gorilla Glass", "True Tone", "Thunderbolt": 368 such "people" in BEAM's
        # answers against 41 in its users' turns). A term becomes a person when someone
        # names it as one (tier2 keeps the more specific type).
        found.mentions = [
            replace(m, type="concept") if m.type == "person" and m.guessed else m
            for m in found.mentions
        ]
    if named and speaker:
        who = Mention(name=speaker.strip(), type="person", start=0, end=0, surface=speaker)
        found.mentions.insert(0, who)
    head = opening(text)
    dates = resolve_dates(head, written_at, limit=MAX_DATES)
    return Reading(found, dates, takes_effect(head, found, dates, written_at))


class Linker:
    def __init__(self, db: Database, entities: EntityStore) -> None:
        self.db = db
        self.entities = entities

    def link(
        self,
        owner: Owner,
        *,
        kind: str,
        row_id: int,
        item_uuid: str,
        text: str,
        reading: Reading,
        now: float,
        actor: str,
    ) -> LinkReport:
        """Record what ``text`` (the fact or turn ``item_uuid``) says, as ``reading``
        (``read``, done before the caller's transaction) found it; one transaction."""
        found = reading.extraction
        report = LinkReport()
        with self.db.transaction() as conn:
            # What a turn or a scratch fact says stays where it was said: the entities it
            # introduces, its relations and its dates are that chat's, like the item.
            local = kind == "episode" or _local_fact(conn, kind, row_id)
            ids = self._record(
                conn, owner, kind, row_id, item_uuid, found, local, now, actor, report
            )
            if kind == "episode":
                _end_stated(conn, owner, row_id, found, ids, now, actor)
            if reading.dates and not _dated_by_its_turn(conn, kind, row_id):
                names = [e.name for e in ids.values()]
                source = DateSource.of(kind, item_uuid, text, names, local)
                for d in reading.dates:
                    mention_date(
                        conn, owner, phrase=d.phrase, when=d.timestamp, source=source, now=now,
                        precision=d.precision,
                    )  # fmt: skip
                    report.dates.append(d.phrase)
            if kind == "fact":
                report.superseded = self._supersede(
                    conn, owner, row_id, item_uuid, reading, now, actor
                )
        return report

    def rederive(
        self, items: list[tuple[Owner, str, int, str, str, Reading]], *, now: float, actor: str
    ) -> LinkReport:
        """Record again the entities, mentions and relations of ``items`` (each its
        owner, kind, row id, uuid, text and reading, read before this call) as this
        extractor finds them, in one transaction: the mentions replace the old ones, and
        the text's mentioned dates on the timeline become the ones read now
        (``timeline.redate``). Supersessions were decided when the text was written and
        are not redone."""
        report = LinkReport()
        with self.db.transaction() as conn:
            for owner, kind, row_id, item_uuid, text, reading in items:
                found = reading.extraction
                local = kind == "episode" or _local_fact(conn, kind, row_id)
                self.entities.forget_mentions(conn, kind, row_id)
                ids = self._record(
                    conn, owner, kind, row_id, item_uuid, found, local, now, actor, report,
                    again=True,
                )  # fmt: skip
                if kind == "episode":  # what an earlier turn read again states, ended again
                    _end_stated(conn, owner, row_id, found, ids, now, actor)
                source = DateSource.of(kind, item_uuid, text, [e.name for e in ids.values()], local)
                dated = not _dated_by_its_turn(conn, kind, row_id)
                said = (
                    [(d.phrase, d.timestamp, d.precision) for d in reading.dates] if dated else []
                )
                report.dates += redate(conn, owner, dates=said, source=source, now=now)
        return report

    def _record(
        self,
        conn: sqlite3.Connection,
        owner: Owner,
        kind: str,
        row_id: int,
        item_uuid: str,
        found: Extraction,
        local: bool,
        now: float,
        actor: str,
        report: LinkReport,
        *,
        again: bool = False,
    ) -> dict[str, Entity]:
        """The entities and relations of one item, inside the caller's transaction; the
        entity each mention name resolved to. ``again``: the item was recorded before
        (its entities are not sighted anew)."""
        ids: dict[str, Entity] = {}  # mention name -> the entity it resolved to
        for m in found.mentions:
            if m.name in ids:
                continue
            name = self._resolve_name(conn, owner, m)
            # A first name resolved by rule is not kept as an alias: it may become
            # ambiguous when a second person of that name appears.
            differs = normalize_name(m.surface) != normalize_name(name)
            aliases = [m.surface] if differs and name == m.name else []
            try:
                ent, _ = self.entities.ensure(
                    owner,
                    name=name,
                    entity_type=m.type,
                    aliases=aliases,
                    description=None,
                    now=now,
                    actor=actor,
                    local=local,
                    seen=not again,
                    derived=EXTRACTOR_VERSION,
                )
            except CapacityError:
                # The owner's entity limit: the graph misses this name, the fact or
                # turn being linked is still written.
                report.skipped.append(name)
                continue
            ids[m.name] = self.entities.mention(
                conn, ent, kind, row_id, read_as=m.type, guessed=m.guessed, now=now, actor=actor
            )
            if m.name in found.roles:  # "my brother Tomas": "my brother" finds Tomas
                give_aliases(conn, owner, ent, found.roles[m.name], now=now, actor=actor)
            report.entities.append(ent.name)
        for r in found.relations:
            if r.head not in ids or r.tail not in ids:
                continue
            head, tail = ids[r.head], ids[r.tail]
            if not admits_types(r.type, head.entity_type, tail.entity_type):
                continue  # a guess resolved to a known entity of another kind ("Northwind")
            rel_uuid = self.entities.relate(
                conn,
                owner,
                (head.uuid, tail.uuid),
                names=(head.name, tail.name),
                relation=r.type,
                strength=STATED_STRENGTH if r.stated else INFERRED_STRENGTH,
                evidence_fact=item_uuid if kind == "fact" else None,
                now=now,
                actor=actor,
                local=local,
                derived=EXTRACTOR_VERSION,
                episode=item_uuid if kind == "episode" else None,
            )
            if kind == "episode":
                self.entities.attest(conn, owner, rel_uuid, episode=item_uuid)
            report.relations.append(f"{r.head} {r.type} {r.tail}")
        return ids

    # -- entity resolution --------------------------------------------------------------
    @staticmethod
    def _resolve_name(conn: sqlite3.Connection, owner: Owner, m: Mention) -> str:
        """A bare first name is the one known person of that first name; with two
        ("Alice Chen", "Alice Wong") it stays a separate, unmerged "Alice". A guessed
        one-word name may also be the first word of the one body known by it ("Dana is
        leaving Northwind" after "Northwind Logistics")."""
        if " " in m.name:
            return m.name
        if m.type == "person":
            kinds: tuple[str, ...] = ("person", "org") if m.guessed else ("person",)
        elif m.guessed and m.type in ("org", "concept"):
            kinds = ("org", "person")
        else:
            kinds = ()
        for kind in kinds:
            found = only_named(conn, owner, m.name, kind)
            if found is not None:
                return found
        return m.name

    # -- supersession -----------------------------------------------------------------------
    def _supersede(
        self,
        conn: sqlite3.Connection,
        owner: Owner,
        row_id: int,
        item_uuid: str,
        reading: Reading,
        now: float,
        actor: str,
    ) -> list[str]:
        found = reading.extraction
        claims.record(conn, row_id, recorded(found.claims))
        # The facts this one ends, looked up by their stored claims (the rule is
        # supersession.ended_by): same subject, one of the predicates it ends, and the
        # same object or another one; or (supersession.ends_holders) another subject's
        # hold on the object a new holder took over.
        visible = owner.visible_clause("f", by_id=True)
        rows: list[sqlite3.Row] = []
        for c in found.claims:
            held = ends_holders(c)
            if held is not None:
                rows += claims.contradicted(
                    conn, subject=c.subject, predicates=sorted(held), obj=c.object,
                    same_object=True, other_subject=True, exclude=row_id, visible=visible,
                )  # fmt: skip
            rule = ended_by(c)
            if rule is not None:
                predicates, same_object = rule
                rows += claims.contradicted(
                    conn, subject=c.subject, predicates=sorted(predicates), obj=c.object,
                    same_object=same_object, exclude=row_id, visible=visible,
                )  # fmt: skip
        if not rows:
            return []
        since, content, written = began_at(conn, row_id)
        if reading.starts is not None and since == reading.starts:
            return []  # a change still to come ends nothing yet: consolidate, on its day
        latest = _latest_start(content, written, since)
        out = []
        done: set[int] = set()
        ended: dict[int, list[str]] = {}  # fact id -> the predicates of its that end
        for old in rows:
            ended.setdefault(old["id"], []).append(old["claim_predicate"])
        for old in rows:
            if old["id"] in done or (old["valid_at"] or old["created_at"]) > latest:
                continue  # the old fact is newer than what the new one reports
            done.add(old["id"])
            mark_superseded(
                conn,
                old,
                by=item_uuid,
                since=since,
                now=now,
                actor=actor,
                reason=f"{old['claim_predicate']} {old['claim_object']}",
                only=ended[old["id"]],
            )
            out.append(old["uuid"])
        return out


def _end_stated(
    conn: sqlite3.Connection,
    owner: Owner,
    row_id: int,
    found: Extraction,
    ids: dict[str, Entity],
    now: float,
    actor: str,
) -> None:
    """End the relations earlier turns of this chat stated that what the turn
    ``row_id`` says ends (the rule of supersession.ended_by, as for facts): "we moved the
    ledger-service off CockroachDB" ends "the ledger-service uses CockroachDB", "I moved
    to Lisbon" the user's earlier home, "Lee now owns X" another's hold on X
    (``endings.end_by_turn``)."""
    endings: list[Ending] = []
    for c in found.claims:
        rule = ended_by(c)
        held = ends_holders(c)
        subject = ids.get(SELF if c.subject is None else c.subject)
        thing = ids.get(c.object)
        if subject is None or thing is None:
            continue
        reason = f"{c.predicate} {c.object}"
        if rule is not None:
            endings.append(Ending(subject.uuid, rule[0], thing.uuid, rule[1], reason))
        if held is not None:  # "Lee now owns the ingestion-job": Sam's hold ends
            endings.append(Ending(subject.uuid, held, thing.uuid, True, reason, others=True))
    if endings:
        end_by_turn(conn, owner, row_id, endings, now=now, actor=actor)


def _latest_start(content: str, written: float, since: float) -> float:
    """The latest a fact that began ``since`` can have begun: the end of the period its
    text dates it to ("moved to Snowflake in March" may have been any day of March, so
    an older fact told on March 1st is no newer than it), or ``since`` itself for a day
    or a time given."""
    span = event_span(content, written)
    if span is None or span[0] != since:
        return since
    return min(span[1], written)


def _local_fact(conn: sqlite3.Connection, kind: str, row_id: int) -> bool:
    """Whether ``row_id`` is a fact kept to one chat (category scratch)."""
    return kind == "fact" and kept_to_one_chat(conn, row_id)


def _dated_by_its_turn(conn: sqlite3.Connection, kind: str, row_id: int) -> bool:
    """Whether ``row_id`` is a fact formed from a turn, whose dates the turn put on the
    timeline already (one event a date, not two)."""
    return kind == "fact" and formed_from_a_turn(conn, row_id)
