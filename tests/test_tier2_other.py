from __future__ import annotations

from typing import Any

from hermes_memory import FrozenClock, MemoryAPI, unwrap
from hermes_memory.tier2.records import Owner


def test_ingest_turn_is_lossless_and_idempotent(api: MemoryAPI) -> None:
    text = "  Line one\n\n  indented line — ünïcode ✓  "
    env = api.ingest_turn(
        "user",
        text,
        session_id="s1",
        message_id="1",
        timestamp="2026-02-01T10:00:00Z",
        metadata={"caption": "a cat"},
    )
    ep = unwrap(env)
    assert env["meta"]["created"] is True
    assert ep["text"] == text.strip() and ep["metadata"] == {"caption": "a cat"}
    again = api.ingest_turn("user", text, session_id="s1", message_id="1")
    assert again["meta"]["created"] is False and again["data"]["uuid"] == ep["uuid"]
    assert api.episodes.count() == 1


def test_episodes_page_back_in_order(api: MemoryAPI) -> None:
    turns = [
        {
            "speaker": "a" if i % 2 else "b",
            "text": f"turn {i}",
            "session_id": "s",
            "message_id": str(i),
            "timestamp": 1_700_000_000 + i,
        }
        for i in range(7)
    ]
    env = api.ingest_turns(turns)
    assert env["meta"]["created"] == 7
    texts, after = [], 0
    while True:
        page = api.episodes_page("s", after=after, limit=3)
        texts += [e["text"] for e in unwrap(page)]
        after = page["meta"]["next_after"]
        if after is None:
            break
    assert texts == [f"turn {i}" for i in range(7)]


def test_bulk_ingest_is_all_or_nothing(api: MemoryAPI) -> None:
    turns = [
        {"speaker": "a", "text": "fine", "session_id": "s", "message_id": "1"},
        {"speaker": "a", "text": "", "session_id": "s", "message_id": "2"},
    ]
    env = api.ingest_turns(turns)
    assert not env["success"] and "text" in env["error"]
    assert api.episodes.count() == 0


def test_entity_ensure_is_idempotent_and_merges_aliases(api: MemoryAPI) -> None:
    first = api.entity_ensure("PostgreSQL", "tech", aliases=["Postgres"])
    assert first["meta"]["created"] is True
    again = api.entity_ensure("postgres", "tech", aliases=["pg"])
    assert again["meta"]["created"] is False
    assert again["data"]["uuid"] == first["data"]["uuid"]
    assert again["data"]["aliases"] == ["Postgres", "pg"]
    assert api.entities.count() == 1
    found = unwrap(api.entity_query("pg"))
    assert found[0]["name"] == "PostgreSQL"


def test_entity_link_creates_and_strengthens(api: MemoryAPI) -> None:
    api.entity_ensure("billing-service", "project")
    env = api.entity_link("billing-service", "Redis", "depends_on", 0.5)
    assert env["meta"]["created_entities"] == ["Redis"]
    api.entity_link("billing-service", "redis", "depends_on", 0.9)
    assert api.entities.relation_count() == 1
    ent = unwrap(api.entity_query("billing-service"))[0]
    assert ent["relations"][0]["strength"] == 0.9
    assert ent["relations"][0]["to"] == "Redis"
    bad = api.entity_link("a", "b", "Depends On!")
    assert not bad["success"] and bad["meta"]["error_detail"]["field"] == "relation"


def test_entity_query_by_type(api: MemoryAPI) -> None:
    api.entity_ensure("Alice", "person")
    api.entity_ensure("Kubernetes", "tech", aliases=["k8s"])
    assert [e["name"] for e in unwrap(api.entity_query(entity_type="person"))] == ["Alice"]
    assert unwrap(api.entity_query("k8s"))[0]["name"] == "Kubernetes"


def test_timeline_add_and_query_by_range(api: MemoryAPI, clock: FrozenClock) -> None:
    api.timeline_add("decision", "Adopt MySQL", importance=0.9, timestamp="2026-02-01")
    api.timeline_add("milestone", "v1.0 shipped", timestamp="2026-02-15")
    api.timeline_add("error", "Outage in eu-west", timestamp="2026-02-20")
    events = unwrap(api.timeline_query(start="2026-02-10", end="2026-02-28"))
    assert [e["title"] for e in events] == ["Outage in eu-west", "v1.0 shipped"]
    assert [e["title"] for e in unwrap(api.timeline_query(event_type="decision"))] == [
        "Adopt MySQL"
    ]
    assert [e["title"] for e in unwrap(api.timeline_query(query="outage"))] == ["Outage in eu-west"]
    default = unwrap(api.timeline_add("insight", "now-ish"))
    assert default["timestamp"] == "2026-03-01T12:00:00Z"


def test_stats_and_doctor(queued_api: MemoryAPI) -> None:
    queued_api.fact_store("a fact", category="general")
    queued_api.curated_add("curated entry")
    stats = unwrap(queued_api.stats())
    assert stats["tier2"]["facts"] == 1
    assert stats["tier1"]["memory"]["entries"] == 1
    assert stats["embed_queue"]["pending"] == 1
    report = unwrap(queued_api.doctor())
    tier3 = next(c for c in report["checks"] if c["name"] == "tier3")
    # Waiting in the outbox is the embed job's work, not drift...
    assert report["ok"] is True and "0/1 items indexed" in tier3["detail"]
    assert "1 waiting for the embed job" in tier3["detail"]
    assert "degraded" in tier3["detail"]  # the hashing embedder is declared, plainly
    with queued_api.db.transaction() as conn:  # ... an item nothing will index is
        conn.execute("DELETE FROM embed_queue")
    assert unwrap(queued_api.doctor())["ok"] is False
    report = unwrap(queued_api.doctor(repair=True))
    assert report["ok"] is True and "tier3" in report["repaired"]
    assert {c["name"] for c in report["checks"]} >= {"schema", "sqlite_integrity", "fts:facts_fts"}


def test_doctor_repairs_a_broken_fts_index(api: MemoryAPI) -> None:
    api.fact_store("findable text", category="general")
    # Corrupt the index the way a crash between writers could: drop its rows.
    with api.db.transaction() as conn:
        conn.execute("INSERT INTO facts_fts(facts_fts) VALUES ('delete-all')")
    assert unwrap(api.fact_query("findable")) == []
    report = unwrap(api.doctor())
    assert report["ok"] is False
    repaired = unwrap(api.doctor(repair=True))
    assert repaired["ok"] is True and "facts_fts" in repaired["repaired"]
    assert len(unwrap(api.fact_query("findable"))) == 1


def test_curated_through_the_api_is_never_mirrored(api: MemoryAPI) -> None:
    assert unwrap(api.curated_add("User likes green tea", "user"))["changed"] is True
    assert unwrap(api.curated_get("user")) == ["User likes green tea"]
    assert api.db.scalar("SELECT COUNT(*) FROM facts") == 0
    assert unwrap(api.curated_replace("green", "User likes black tea", "user"))
    assert unwrap(api.curated_remove("black", "user"))["entry_count"] == 0
    env = api.curated_remove("nothing", "user")
    assert env["meta"]["error_detail"]["code"] == "not_found"


def test_neighbours_stay_inside_a_session_and_an_owner(api: MemoryAPI) -> None:
    turns = [
        {"speaker": "a", "text": f"turn {i}", "session_id": sid, "message_id": f"{sid}:{i}"}
        for sid in ("s1", "s2")
        for i in range(3)
    ]
    eps = {e["message_id"]: e for e in _episodes(api, turns)}
    rows = {mid: api.episodes.page(api.owner, mid.split(":")[0])[int(mid[-1])].rowid for mid in eps}
    near = api.episodes.neighbours(api.owner, [rows["s1:0"], rows["s1:2"], rows["s2:0"]])
    assert near[rows["s1:0"]] == (0, rows["s1:1"])
    assert near[rows["s1:2"]] == (rows["s1:1"], 0)  # s2:0 follows by row id but not by session
    assert near[rows["s2:0"]] == (0, rows["s2:1"])
    stranger = api.owner.__class__(platform="other", agent="x", user_id="u", session="")
    assert api.episodes.neighbours(stranger, [rows["s1:1"]])[rows["s1:1"]] == (0, 0)


def _episodes(api: MemoryAPI, turns: list[dict[str, str]]) -> list[dict[str, object]]:
    uuids = unwrap(api.ingest_turns(turns))
    return [api.episodes.get_many(api.owner, [u])[u].to_dict() for u in uuids]


def test_ensuring_a_known_entity_returns_what_the_store_now_holds(api: MemoryAPI) -> None:
    owner = Owner(platform="cli", agent="default", user_id="", session="")
    kw: dict[str, Any] = {"actor": "test"}
    api.entities.ensure(
        owner, name="Ada Lovelace", entity_type="concept", aliases=[], description=None,
        now=1.0, **kw,
    )  # fmt: skip
    again, created = api.entities.ensure(
        owner, name="Ada Lovelace", entity_type="person", aliases=["Countess"],
        description="mathematician", now=2.0, **kw,
    )  # fmt: skip
    assert not created
    assert again == api.entities.find(owner, "Countess")
    assert (again.entity_type, again.occurrence_count, again.last_seen) == ("person", 2, 2.0)
