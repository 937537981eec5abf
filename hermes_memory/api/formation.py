"""Memory formation: what a person states durably in a turn becomes a fact of theirs.

``text/statements.py`` finds the statements (pure); this module decides whose turns
are read, screens each statement with the guard, and stores it as a fact in the
owner's durable scope (so it follows them into their other chats) with the turn as
its evidence, ``source_type = "formation"`` and an audit row. Exact repeats are
deduplicated by the fact store (the turn is added as more evidence); near repeats
are left to the consolidate job, like any fact. A correction ("I switched from Vim
to Helix") supersedes what it corrects through the linker's claims, as any fact does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hermes_memory import guard
from hermes_memory.text.schedules import moves_plan, planned_thing, replaced_plan
from hermes_memory.text.statements import (
    KINDS,
    Statement,
    find_statements,
    sentences,
    settles,
    with_antecedent,
    with_topic,
)
from hermes_memory.tier2 import journal
from hermes_memory.tier2.facts import latest_formed, mark_superseded

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI
    from hermes_memory.graph.linker import Reading
    from hermes_memory.graph.word_use import WordUse
    from hermes_memory.tier2.records import Fact

SOURCE = "formation"

# An optional hook (an LLM, a rules file) proposes statements for a turn's text; what it
# proposes goes through the same guard and store as the built-in rules' statements.
Proposer = Callable[[str], Sequence[Statement]]


@dataclass(frozen=True)
class Planned:
    """A statement to form from the turn at ``index``, read before the write lock."""

    index: int
    statement: Statement
    reading: Reading | None


def plan(
    api: MemoryAPI,
    turns: Sequence[Any],
    owners: Sequence[bool] = (),
    *,
    casing: WordUse | None = None,
) -> list[Planned]:
    """The statements to form from ``turns`` (``TurnInput``s); no writes. ``owners``
    marks the turns known to be the person's own whatever their speaker's name;
    ``casing`` is the batch's ``WordUse``."""
    cfg = api.config.formation
    if not cfg.enabled:
        return []
    speakers = {s.casefold() for s in cfg.speakers}
    out: list[Planned] = []
    for i, turn in enumerate(turns):
        own = i < len(owners) and owners[i]
        if not own and turn.speaker.casefold() not in speakers:
            continue
        found = list(find_statements(turn.text))
        if api.proposer is not None:
            found += [s for s in api.proposer(turn.text) if s not in found]
        out.extend(
            Planned(i, st, api.reading(st.text, turn.timestamp, casing=casing))
            for st in found
            if promotable(st)
        )
    return out


def promotable(statement: Statement) -> bool:
    """A statement carrying a secret or an instruction aimed at the model is not
    promoted, whatever the turn's own policy did with it."""
    text = statement.text
    if "[REDACTED:" in text or guard.find_secrets(text):
        return False
    return guard.find_injection(text) is None


def form(api: MemoryAPI, planned: Sequence[Planned], stored: Sequence[Any]) -> list[str]:
    """Store the planned statements of the turns just stored (inside the caller's
    transaction); the uuids of the facts created."""
    created_uuids: list[str] = []
    categories = api.config.tier2.categories
    now = api.clock()
    for p in planned:
        episode, created = stored[p.index]
        if not created:  # a turn seen before formed its facts then
            continue
        st = p.statement
        category = st.category if st.category in categories else "general"
        content = st.text
        if st.kind == "decision" and _settles(api, episode):
            raised = api.episodes.raised_before(api.owner, episode)
            if raised is not None and settles(st.text, raised.text):
                content = with_topic(st.text, raised.text)
        elif st.kind == "correction":
            content = with_antecedent(st.text, episode.text)
        fact, new = api.facts.store(
            api.owner,
            content=content,
            category=category,
            scope="/",
            importance=st.importance,
            confidence=api.config.formation.confidence,
            source_type=SOURCE,
            source_id=episode.message_id,
            now=now,
            actor=api.actor,
            # "I'm moving to Berlin in March" ends the home held in March, not now
            valid_at=(p.reading.starts if p.reading else None) or episode.timestamp,
            metadata={"formed": st.kind, "session_id": episode.session_id},
            evidence_episodes=[episode.uuid],
        )
        with api.db.transaction() as conn:  # joins the caller's transaction
            journal.audit(
                conn,
                now=now,
                action="fact_formed",
                actor=api.actor,
                target_uuid=fact.uuid,
                diff={"kind": st.kind, "episode": episode.uuid, "created": new},
            )
        if new:
            api.link("fact", fact.rowid, fact.uuid, st.text, p.reading)
            created_uuids.append(fact.uuid)
            if st.kind == "plan" and moves_plan(st.text):
                thing = planned_thing(fact.content)
                _reschedule(api, fact, thing, since=episode.timestamp, now=now)
            elif st.kind in ("plan", "decision", "correction"):
                dropped = replaced_plan(st.text)  # "drop X and do Y instead"
                _reschedule(api, fact, dropped, since=episode.timestamp, now=now)
    return created_uuids


def _settles(api: MemoryAPI, episode: Any) -> bool:
    """Whether ``episode`` is a decision settling an exchange: one short sentence ("OK
    we'll use Zustand"), not a turn raising its own topic."""
    limit = api.config.formation.decision_topic_words
    return 0 < len(episode.text.split()) <= limit and len(sentences(episode.text)) == 1


# How many of the owner's latest formed plans a moved plan is matched against.
RECENT_PLANS = 200


def _reschedule(
    api: MemoryAPI, fact: Fact, thing: frozenset[str], *, since: float, now: float
) -> None:
    """A plan moved to another time ("the beta moves to January 10th"), or one dropped
    for another ("drop the Valencia half and do the Rotterdam 10k instead"), supersedes
    the latest live plan of that ``thing`` ("the beta launch is planned for December
    14th"): the one sharing most of the words naming it (text/schedules.py), inside the
    caller's transaction."""
    if not thing:
        return  # "It moved to Friday": which plan is the chat's, not the words'
    with api.db.transaction() as conn:
        rows = latest_formed(
            conn, api.owner, kind="plan", category=KINDS["plan"][0], exclude=fact.rowid,
            limit=RECENT_PLANS,
        )  # fmt: skip
        best, shared = None, 0
        for row in rows:  # newest first: a tie goes to the latest
            n = len(thing & planned_thing(row["content"]))
            if n > shared and (row["valid_at"] or row["created_at"]) <= since:
                best, shared = row, n
        if best is not None:
            mark_superseded(
                conn, best, by=fact.uuid, since=since, now=now, actor=api.actor, reason="moved",
                end_relations=False,  # the day moved; who and what it was about did not
            )  # fmt: skip
