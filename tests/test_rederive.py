"""The graph read again from the text when the extractor changes (api/rederive.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api import graph_ops, rederive
from hermes_memory.api.maintenance import Maintenance
from hermes_memory.cron import consolidate
from hermes_memory.text.version import EXTRACTOR_VERSION
from hermes_memory.tier2 import Database, upkeep
from hermes_memory.tier2 import health as tier2_health
from hermes_memory.tier2.migrations import _LEDGER, MIGRATIONS
from hermes_memory.tier3.embedder import HashingEmbedder

OLD = EXTRACTOR_VERSION - 1


def _relations(api: MemoryAPI) -> dict[tuple[str, str, str], sqlite3.Row]:
    rows = api.db.query(
        """SELECT a.name AS head, r.relation_type AS rel, b.name AS tail, r.derived_by,
                  r.deleted_at, r.uuid FROM relations r
           JOIN entities a ON a.uuid = r.from_entity JOIN entities b ON b.uuid = r.to_entity"""
    )
    return {(r["head"], r["rel"], r["tail"]): r for r in rows}


def _works_on(api: MemoryAPI, name: str) -> set[str]:
    return {e["name"] for e in unwrap(api.graph_traverse(name, 1, "works_on"))}


def _as_if_read_by_an_older_extractor(
    api: MemoryAPI, wrong: tuple[str, str, str], fact: str
) -> None:
    """What an older extractor left: every text-read relation stamped with its version,
    one relation it got wrong (with the fact as its evidence), its version recorded."""
    unwrap(api.entity_link(wrong[0], wrong[2], wrong[1], 0.8, evidence_fact=fact))
    with api.db.transaction() as conn:
        conn.execute("UPDATE relations SET derived_by = ? WHERE derived_by IS NOT NULL", (OLD,))
        row = conn.execute(
            "SELECT r.id FROM relations r JOIN entities a ON a.uuid = r.from_entity "
            "JOIN entities b ON b.uuid = r.to_entity "
            "WHERE a.name = ? AND r.relation_type = ? AND b.name = ?",
            wrong,
        ).fetchone()
        conn.execute("UPDATE relations SET derived_by = ? WHERE id = ?", (OLD, row["id"]))
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=OLD)


def test_a_new_store_starts_at_this_extractor_version(api: MemoryAPI) -> None:
    unwrap(api.fact_store("The payments-api depends on the ledger-service", category="project"))
    assert not rederive.stale(api)
    assert rederive.waiting(api) == 0
    assert rederive.rederive(api) == {
        "texts": 0,
        "relations": 0,
        "dates": 0,
        "dropped": 0,
        "entities_dropped": 0,
        "entities_retyped": 0,
    }


def test_consolidate_reads_the_text_again_and_drops_what_it_no_longer_finds(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    fact = unwrap(api.fact_store("Bob maintains auth-service, which uses Postgres 15"))["uuid"]
    unwrap(
        api.ingest_turns(
            [
                {
                    "speaker": "user",
                    "text": "The billing-api depends on Kafka",
                    "session_id": "s1",
                    "message_id": "m1",
                }
            ]
        )
    )
    wrong = ("Bob", "works_on", "PostgreSQL")
    _as_if_read_by_an_older_extractor(api, wrong, fact)
    unwrap(api.entity_link("Bob", "PostgreSQL", "admires"))  # stated: never touched
    unwrap(api.entity_link("Zed", "Bob", "knows"))
    with api.db.transaction() as conn:  # a name the old extractor saw in the fact
        conn.execute(
            "INSERT INTO mentions(entity_id, item_kind, item_id) "
            "SELECT e.id, 'fact', f.id FROM entities e, facts f "
            "WHERE e.name = 'Zed' AND f.uuid = ?",
            (fact,),
        )
    bob_before = api.db.query_one(
        "SELECT last_seen, occurrence_count FROM entities WHERE name = 'Bob'"
    )
    doctor = unwrap(api.doctor())
    check = next(c for c in doctor["checks"] if c["name"] == "graph_text")
    assert not check["ok"] and "stale" in check["detail"]
    assert "next consolidate" in check["detail"]  # what fixes it, nothing lost meanwhile

    assert _works_on(api, "Bob") == {"auth-service", "PostgreSQL"}
    clock.advance(60)
    report = consolidate.run(Maintenance(api), clock())

    assert report.counts["texts_reread"] == 2
    assert report.counts["relations_dropped"] == 1
    rels = _relations(api)
    assert rels[wrong]["deleted_at"] == clock()
    kept = [("auth-service", "uses", "PostgreSQL"), ("billing-api", "depends_on", "Kafka")]
    for key in kept:
        assert rels[key]["deleted_at"] is None and rels[key]["derived_by"] == EXTRACTOR_VERSION
    stated = rels[("Bob", "admires", "PostgreSQL")]
    assert stated["deleted_at"] is None and stated["derived_by"] is None
    mentioned = api.db.query(
        "SELECT e.name FROM mentions m JOIN entities e ON e.id = m.entity_id "
        "JOIN facts f ON f.id = m.item_id AND m.item_kind = 'fact' WHERE f.uuid = ?",
        (fact,),
    )
    assert {r["name"] for r in mentioned} == {"Bob", "auth-service", "PostgreSQL"}
    # The reading again is no new sighting of Bob.
    bob = api.db.query_one("SELECT last_seen, occurrence_count FROM entities WHERE name = 'Bob'")
    assert tuple(bob) == tuple(bob_before)
    unlinked = api.db.query("SELECT diff FROM audit_log WHERE action = 'entity_unlink'")
    assert len(unlinked) == 1 and "works_on" in unlinked[0]["diff"]
    assert not rederive.stale(api)
    # The graph answers from the truth: the dropped relation is gone from it.
    assert _works_on(api, "Bob") == {"auth-service"}
    # Nothing is read twice.
    assert "texts_reread" not in consolidate.run(Maintenance(api), clock()).counts


def test_text_written_while_extraction_was_off_is_read_once_it_is_on(
    home: Path, clock: FrozenClock
) -> None:
    off = load_config(home, env={}, overrides={"graph": {"extract_on_write": False}})
    with MemoryAPI(off, clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(api.fact_store("The payments-api depends on the ledger-service"))
        assert api.db.scalar("SELECT COUNT(*) FROM entities") == 0
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        assert rederive.waiting(api) == 1
        doctor = unwrap(api.doctor(repair=True))
        assert "graph_text" in doctor["repaired"]
        assert ("payments-api", "depends_on", "ledger-service") in _relations(api)
        assert api.db.scalar("SELECT COUNT(*) FROM mentions") == 2


def test_a_reading_cut_short_keeps_the_old_relations_and_stays_stale(
    api: MemoryAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    fact = unwrap(api.fact_store("Bob maintains auth-service, which uses Postgres 15"))["uuid"]
    unwrap(api.fact_store("Carol maintains the ledger-service"))
    wrong = ("Bob", "works_on", "PostgreSQL")
    _as_if_read_by_an_older_extractor(api, wrong, fact)
    monkeypatch.setattr(rederive, "BATCH", 1)
    calls = iter(range(100))

    def check() -> None:
        if next(calls) == 2:
            raise RuntimeError("lease lost")

    with pytest.raises(RuntimeError):
        rederive.rederive(api, check=check)
    assert _relations(api)[wrong]["deleted_at"] is None
    assert rederive.stale(api)
    assert rederive.rederive(api)["dropped"] == 1
    assert not rederive.stale(api)


def _migrated_up_to(path: Path, before: int) -> sqlite3.Connection:
    """A database at ``path`` with the migrations before ``before`` applied."""
    conn = sqlite3.connect(path)
    conn.execute(_LEDGER)
    for version, name, apply in MIGRATIONS:
        if version >= before:
            break
        apply(conn)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, 0)", (version, name))
    return conn


def test_the_migration_marks_relations_with_text_evidence_as_read_from_text(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.db"
    conn = _migrated_up_to(path, 13)  # the database as it was before relation_derivation
    for uid, fact, episode in (("r1", "f", None), ("r2", None, "e"), ("r3", None, None)):
        conn.execute(
            "INSERT INTO relations(uuid, from_entity, to_entity, relation_type, evidence_fact, "
            "evidence_episode, created_at, updated_at) VALUES (?, 'a', 'b', 'uses', ?, ?, 0, 0)",
            (uid, fact, episode),
        )
    conn.commit()
    conn.close()
    db = Database(path)
    derived = dict(db.query("SELECT uuid, derived_by FROM relations"))
    assert derived == {"r1": 0, "r2": 0, "r3": None}
    db.close()


def _live_entities(api: MemoryAPI) -> dict[str, int | None]:
    rows = api.db.query("SELECT name, derived_by FROM entities WHERE deleted_at IS NULL")
    return {r["name"]: r["derived_by"] for r in rows}


def test_names_no_text_yields_any_more_are_dropped_unless_stated_or_related(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    unwrap(api.fact_store("The payments-api depends on the ledger-service"))
    unwrap(api.entity_ensure("Quartz", "project", description="added by hand"))
    with api.db.transaction() as conn:  # names an older extractor took from the text
        for name in ("Depends", "Ledger", "Kept"):
            conn.execute(
                "INSERT INTO entities(uuid, name, name_norm, entity_type, platform, agent, "
                "user_id, session_key, first_seen, last_seen, derived_by) "
                "SELECT ?, ?, ?, 'concept', platform, agent, user_id, session_key, 0, 0, ? "
                "FROM entities WHERE name = 'payments-api'",
                (name.lower(), name, name.lower(), OLD),
            )
            conn.execute(
                "INSERT INTO entity_aliases SELECT ?, id FROM entities WHERE name = ?",
                (name.lower(), name),
            )
            conn.execute(
                "INSERT INTO mentions(entity_id, item_kind, item_id) "
                "SELECT e.id, 'fact', f.id FROM entities e, facts f "
                "WHERE e.name = ?",
                (name,),
            )
        conn.execute("UPDATE entities SET derived_by = ? WHERE derived_by IS NOT NULL", (OLD,))
    unwrap(api.entity_link("Kept", "Quartz", "part_of"))  # stated: it keeps Kept
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=OLD)
    assert unwrap(api.entity_query("Ledger"))[0]["name"] == "Ledger"

    clock.advance(60)
    report = consolidate.run(Maintenance(api), clock())

    assert report.counts["entities_dropped"] == 2
    live = _live_entities(api)
    assert live == {
        "payments-api": EXTRACTOR_VERSION,
        "ledger-service": EXTRACTOR_VERSION,
        "Quartz": None,
        "Kept": OLD,
    }
    assert "Ledger" not in {e["name"] for e in unwrap(api.entity_query("Ledger"))}
    deleted = api.db.query("SELECT diff FROM audit_log WHERE action = 'entity_delete'")
    assert len(deleted) == 2 and all("extractor version" in r["diff"] for r in deleted)
    gone = api.db.scalar(
        "SELECT COUNT(*) FROM mentions m JOIN entities e ON e.id = m.entity_id "
        "WHERE e.deleted_at IS NOT NULL"
    )
    assert gone == 0
    queued = api.db.query(
        "SELECT item_uuid FROM embed_queue WHERE item_kind = 'entity' AND op = 'delete'"
    )
    assert {r["item_uuid"] for r in queued} == {"depends", "ledger"}
    # The graph is read from the truth: the dropped names are not in it.
    assert "Ledger" not in graph_ops.ready(api).names().values()
    assert {e["name"] for e in unwrap(api.graph_traverse("Kept", 1))} == {"Quartz"}


def test_reading_again_knows_the_words_written_since(api: MemoryAPI, clock: FrozenClock) -> None:
    """A sentence's first word read as a name when nothing said otherwise is read again
    with what the memory wrote after it."""

    def say(text: str, n: str) -> None:
        unwrap(api.ingest_turn("Mel", text, session_id="s", message_id=n))

    say("Pottery is my escape.", "1")
    assert "Pottery" in _live_entities(api)
    say("I signed up for a pottery class.", "2")
    say("The pottery studio is close by.", "3")
    assert "Pottery" in _live_entities(api)  # what was read stays read ...
    with api.db.transaction() as conn:
        conn.execute("UPDATE entities SET derived_by = ? WHERE derived_by IS NOT NULL", (OLD,))
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=OLD)
    clock.advance(60)
    consolidate.run(Maintenance(api), clock())  # ... until the text is read again
    assert set(_live_entities(api)) == {"Mel"}


def test_consolidate_drops_a_name_the_memory_has_since_written_as_a_common_word(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    def say(text: str, n: str) -> None:
        unwrap(api.ingest_turn("Mel", text, session_id="s", message_id=n))

    say("Pottery is my escape, Caroline.", "1")  # nothing says yet what "Pottery" is
    say("Max is my dog.", "2")
    unwrap(api.entity_link("Caroline", "Max", "knows"))  # stated: never touched
    assert {"Pottery", "Max", "Caroline"} <= set(_live_entities(api))
    read_before = {k for k in _relations(api) if "Pottery" in k}
    assert read_before  # "Pottery" and "Caroline", named together
    say("I signed up for a pottery class.", "3")
    say("The pottery studio is close by. I took Max out.", "4")
    clock.advance(60)
    report = consolidate.run(Maintenance(api), clock())

    assert report.counts["names_dropped"] == 1
    live = _live_entities(api)
    assert "Pottery" not in live and {"Max", "Caroline", "Mel"} <= set(live)
    rels = _relations(api)
    assert all(rels[k]["deleted_at"] == clock() for k in read_before)
    assert rels[("Caroline", "knows", "Max")]["deleted_at"] is None
    deleted = api.db.query("SELECT diff FROM audit_log WHERE action = 'entity_delete'")
    assert len(deleted) == 1 and "common word" in deleted[0]["diff"]
    # Settled: the next run finds nothing more to drop.
    assert "names_dropped" not in consolidate.run(Maintenance(api), clock()).counts


def test_an_entity_added_by_hand_stays_stated_when_text_names_it_too(api: MemoryAPI) -> None:
    unwrap(api.fact_store("The payments-api depends on the ledger-service"))
    assert _live_entities(api)["ledger-service"] == EXTRACTOR_VERSION
    unwrap(api.entity_ensure("ledger-service", "service", description="the books"))
    unwrap(api.fact_store("The ledger-service uses CockroachDB"))
    assert _live_entities(api)["ledger-service"] is None


def test_the_migration_marks_entities_some_text_mentions_as_read_from_text(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.db"
    conn = _migrated_up_to(path, 15)  # the database as it was before entity_derivation
    for i, uid in enumerate(("e1", "e2"), start=1):
        conn.execute(
            "INSERT INTO entities(id, uuid, name, name_norm, entity_type, first_seen, "
            "last_seen) VALUES (?, ?, ?, ?, 'concept', 0, 0)",
            (i, uid, uid, uid),
        )
    conn.execute("INSERT INTO mentions VALUES (1, 'fact', 7)")
    conn.commit()
    conn.close()
    db = Database(path)
    assert dict(db.query("SELECT uuid, derived_by FROM entities")) == {"e1": 0, "e2": None}
    db.close()


def test_settling_turns_through_every_older_guessed_person(
    api: MemoryAPI, clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the people seen last, each run checks the next of the rest, wrapping round:
    an early misread is reached however many people came after it."""
    names = [f"Zed{chr(97 + k)}" for k in range(7)]
    for k, name in enumerate(names):
        unwrap(api.ingest_turn("Mel", f"I met {name} today.", session_id="s", message_id=str(k)))
        clock.advance(60)
    visited: list[set[str]] = []
    after = 0
    for _ in range(4):
        people, after = upkeep.guessed_people(api.db, 4, after)
        visited.append({p["name"] for p in people})
    newest = {"Mel", names[-1]}  # the speaker is seen with every turn
    assert all(newest <= v and len(v) <= 4 for v in visited)  # seen last: every run
    assert set().union(*visited) >= set(names)
    turns = [v - newest for v in visited]
    assert not turns[0] & turns[1] and not turns[1] & turns[2]  # the turn moves on
    # settle_names keeps its place between runs.
    monkeypatch.setattr(rederive, "SETTLE_BATCH", 4)
    places = []
    for _ in range(5):  # eight people, two in turn a run
        Maintenance(api).settle_names()
        places.append(tier2_health.derived_status(api.db)["names"]["after"])
    assert places[:4] == sorted(set(places[:4])) and places[4] < places[3]  # round again


def test_reading_again_makes_concepts_of_the_people_only_an_assistant_named(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    said = "My friend Meghan recommended the Pixel 8."
    unwrap(api.ingest_turn("user", said, session_id="s1", message_id="m1"))
    said = "Meghan is right: it has Gorilla Glass Victus, as Lorna said."
    unwrap(api.ingest_turn("assistant", said, session_id="s1", message_id="m2"))
    with api.db.transaction() as conn:  # an older extractor took them all for people
        conn.execute(
            "UPDATE entities SET entity_type = 'person' "
            "WHERE name IN ('Gorilla Glass Victus', 'Lorna')"
        )
        conn.execute("UPDATE entities SET derived_by = ? WHERE derived_by IS NOT NULL", (OLD,))
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=OLD)

    clock.advance(60)
    report = consolidate.run(Maintenance(api), clock())

    assert report.counts["entities_retyped"] == 2
    kinds = {e["name"]: e["entity_type"] for e in unwrap(api.entity_query(limit=50))}
    assert kinds["Meghan"] == "person"  # the user named her
    assert kinds["Gorilla Glass Victus"] == kinds["Lorna"] == "concept"
    audited = api.db.query("SELECT diff FROM audit_log WHERE action = 'entity_update'")
    assert sum('"concept"' in r["diff"] for r in audited) == 2


def test_reading_again_gives_an_entity_the_type_its_texts_now_give(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    said = "We deploy the api on Northflank. Priya set it up."
    unwrap(api.ingest_turn("user", said, session_id="s1", message_id="m1"))
    with api.db.transaction() as conn:  # an older extractor took Northflank for a person
        conn.execute("UPDATE entities SET entity_type = 'person' WHERE name = 'Northflank'")
        conn.execute("UPDATE mentions SET entity_type = NULL")
        conn.execute("UPDATE entities SET derived_by = ? WHERE derived_by IS NOT NULL", (OLD,))
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=OLD)

    clock.advance(60)
    consolidate.run(Maintenance(api), clock())

    kinds = {e["name"]: e["entity_type"] for e in unwrap(api.entity_query(limit=50))}
    assert kinds == {"Northflank": "tech", "Priya": "person"}
    votes = api.db.query("SELECT entity_type FROM mentions WHERE entity_type IS NULL")
    assert votes == []
