"""What has changed since a recalled turn: the statements that superseded the facts
formed from it and the relations it stated that have ended, shown as its
``since_changed`` so an agent does not take it for the state of things now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hermes_memory.api import adjust
from hermes_memory.api.candidates import Candidate
from hermes_memory.text.excerpt import clip
from hermes_memory.tier2 import endings

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI


def mark_changed(api: MemoryAPI, pool: dict[str, Candidate], order: list[str], at: float) -> None:
    """A turn stating what a later turn or fact changed carries it, as
    ``since_changed``: what superseded the facts formed from it ("Change of plan: the
    beta moves to January 10th."), then the relations it stated that ended
    ("ledger-service uses CockroachDB"). The agent is not to take it as the state of
    things now."""
    turns = [key.split(":", 1)[1] for key in order if key.startswith("episode:")]
    for uuid, said in changed_statements(api, turns, at).items():
        pool[f"episode:{uuid}"].provenance["since_changed"] = said


CHANGED_CHARS = 120  # what superseded a turn's fact, as its since_changed shows it


def changed_statements(api: MemoryAPI, turns: list[str], at: float) -> dict[str, list[str]]:
    """For each of ``turns`` (uuids) that stated what had changed by ``at``: what
    superseded the facts formed from it (cut to CHANGED_CHARS: the person's own words
    come first), then its ended relations."""
    # An assistant repeating the date a changed statement gave ("Got it: ... beta due
    # November 20th") carries what changed it, as the person's turn does.
    echoes = api.timeline.echoes(api.owner, turns, sorted(adjust.ASSISTANT_ROLES))
    asked = sorted(set(turns) | set(echoes.values()))
    found_for = api.facts.superseded_statements(api.owner, asked, at)
    for turn, before in echoes.items():
        if before in found_for and turn not in found_for:
            found_for[turn] = found_for[before]
    wanted = set(turns)
    superseded = {uuid: facts for uuid, facts in found_for.items() if uuid in wanted}
    changed: dict[str, list[str]] = {}
    for found in (
        {uuid: [_brief(f) for f in facts] for uuid, facts in superseded.items()},
        endings.ended_statements(api.db, api.owner, turns, at),
    ):
        for uuid, statements in found.items():
            said = changed.setdefault(uuid, [])
            said.extend(s for s in statements if s not in said)
    return changed


def _brief(text: str) -> str:
    return clip(" ".join(text.split()), CHANGED_CHARS)
