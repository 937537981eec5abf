"""The graph read again from the text, after the extractor changed.

Entities and relations are tier-2 truth, but the ones the linker wrote were read from
facts and turns by a given version of ``text/extract.py``; a better extractor finds
names and relations the old one missed and no longer finds some it got wrong. Its
version is recorded (``derived_state``, like the claims'), and when it differs the
consolidate job (or ``doctor --repair``) reads every live fact and turn again, a batch
at a time, extraction outside the write lock: what the text yields now is recorded
(each relation stamped with the version that found it), and afterwards the relations
read from text that no version-current reading found are deleted, each in the audit
log, and so are the entities no text names any more and no relation holds; the people
only an assistant's turns name become concepts (an assistant introduces no people).
Relations stated through ``entity_link`` and entities added by hand are never touched.
The dates each text names are read again too, against the time it was said: the
timeline's ``mentioned_date`` events of the text become what the text gives now (one a
person deleted stays deleted); supersessions were decided when the text was written
and are not redone.

Between extractor changes, ``settle_names`` reads again only the texts of the one-word
people the memory has since learned are common words (text/casing.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hermes_memory.graph.linker import Reading, assistant_voices
from hermes_memory.graph.word_use import WordUse
from hermes_memory.text.casing import is_common
from hermes_memory.text.version import EXTRACTOR_VERSION
from hermes_memory.tier2 import health as tier2_health
from hermes_memory.tier2 import reread, upkeep
from hermes_memory.tier2.records import Owner

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

RELATIONS_STATE = "relations"
BATCH = 500
KINDS = ("fact", "episode")


def adopt_version(api: MemoryAPI) -> None:
    """A store with no text yet has nothing stale: it starts at this extractor version.
    (Not while the graph is off: what is written then is read once it is turned on.)"""
    if api.linker is None or RELATIONS_STATE in tier2_health.derived_status(api.db):
        return
    if not upkeep.any_text(api.db):
        tier2_health.set_derived_status(
            api.db, RELATIONS_STATE, "ok", api.clock(), extractor=EXTRACTOR_VERSION
        )


def stale(api: MemoryAPI) -> bool:
    """Whether the graph's entities and relations were read by another extractor
    version than this one (or never, for text written while the graph was off)."""
    if api.linker is None:
        return False
    state = tier2_health.derived_status(api.db).get(RELATIONS_STATE, {})
    return state.get("extractor") != EXTRACTOR_VERSION


def waiting(api: MemoryAPI) -> int:
    """How many facts and turns ``rederive`` would read."""
    return upkeep.count_texts(api.db) if stale(api) else 0


def rederive(
    api: MemoryAPI,
    *,
    check: Callable[[], None] = lambda: None,
    advance: Callable[[int], None] = lambda n: None,
) -> dict[str, Any]:
    """Read every live fact and turn again if the extractor changed (see the module
    doc); ``check`` may raise to stop between batches, leaving the old relations in
    place and the version stale. What was read, recorded and dropped."""
    out = {
        "texts": 0, "relations": 0, "dates": 0, "dropped": 0, "entities_dropped": 0,
        "entities_retyped": 0,
    }  # fmt: skip
    linker = api.linker
    if linker is None or not stale(api):
        return out
    for kind in KINDS:
        after = 0
        while True:
            check()
            rows = upkeep.texts_to_reread(api.db, kind, after=after, limit=BATCH)
            items: list[tuple[Owner, str, int, str, str, Reading]] = []
            uses: dict[Owner, WordUse] = {}
            for r in rows:  # before the write lock, as at write time
                owner = Owner(r["platform"], r["agent"], r["user_id"], r["session_key"])
                use = uses.setdefault(owner, WordUse(api.db, owner))
                found = api.reading(r["text"], r["t"], speaker=r["speaker"], casing=use)
                assert found is not None  # the linker is on
                items.append((owner, kind, r["id"], r["uuid"], r["text"], found))
            report = linker.rederive(items, now=api.clock(), actor=api.actor)
            out["texts"] += len(rows)
            out["relations"] += len(report.relations)
            out["dates"] += len(report.dates)
            advance(len(rows))
            if len(rows) < BATCH:
                break
            after = rows[-1]["id"]
    check()
    with api.db.transaction() as conn:
        out["dropped"] = reread.drop_underived(
            conn, EXTRACTOR_VERSION, now=api.clock(), actor=api.actor
        )
        out["entities_dropped"] = reread.drop_unread(
            conn, EXTRACTOR_VERSION, now=api.clock(), actor=api.actor
        )
        voices = sorted(assistant_voices(api.config.formation.speakers))
        out["entities_retyped"] = reread.retype_unvouched(
            conn, EXTRACTOR_VERSION, voices, now=api.clock(), actor=api.actor
        )
    tier2_health.set_derived_status(
        api.db, RELATIONS_STATE, "ok", api.clock(), extractor=EXTRACTOR_VERSION, **out
    )
    return out


# People of one word checked per run, and the most texts one may be read from again: a
# name many texts give is left to a full reading (an extractor change).
SETTLE_BATCH = 200
SETTLE_TEXTS = 50
# Where the next run's turn through the older people starts.
NAMES_STATE = "names"


def settle_names(api: MemoryAPI, *, check: Callable[[], None] = lambda: None) -> int:
    """Drop the people of one word that were a sentence's first word, now that the
    memory says they are common words (text/casing.py): a memory's first "Dance is my
    life" is read as a name, since nothing yet says otherwise, and stays one until its
    text is read again. Each such person whose texts (at most ``SETTLE_TEXTS``), read
    again with the memory's counts, no longer name it goes with the relations read with
    it. A run checks the people seen last and the next of the rest in turn
    (``upkeep.guessed_people``). Reads before the write lock, one short transaction per
    person; how many went."""
    if api.linker is None or stale(api):
        return 0  # a full reading is due, and does this too
    dropped = 0
    after = int(tier2_health.derived_status(api.db).get(NAMES_STATE, {}).get("after", 0))
    people, nxt = upkeep.guessed_people(api.db, SETTLE_BATCH, after)
    for e in people:
        check()
        owner = Owner(e["platform"], e["agent"], e["user_id"], e["session_key"])
        # One lookup each: a lookup's budget of store reads is for one batch's words.
        use = WordUse(api.db, owner)
        if not is_common([use(e["name"])]):
            continue
        texts = upkeep.texts_mentioning(api.db, e["id"], SETTLE_TEXTS + 1)
        if len(texts) > SETTLE_TEXTS:
            continue
        name = e["name"].casefold()
        for t in texts:
            found = api.reading(t["text"], t["t"], speaker=t["speaker"], casing=use)
            assert found is not None  # the linker is on
            if any(m.name.casefold() == name for m in found.extraction.mentions):
                break
        else:
            with api.db.transaction() as conn:
                reason = f"a common word in this memory, not a name ('{e['name']}')"
                if reread.drop_misread(
                    conn, e["id"], reason=reason, now=api.clock(), actor=api.actor
                ):
                    dropped += 1
    tier2_health.set_derived_status(api.db, NAMES_STATE, "ok", api.clock(), after=nxt)
    return dropped
