from __future__ import annotations

import json

from hermes_memory import FrozenClock, MemoryAPI, Owner, load_config, unwrap
from tests.conftest import table_counts


def test_store_get_roundtrip_with_provenance(api: MemoryAPI) -> None:
    env = api.fact_store(
        "We use PostgreSQL for orders",
        category="project",
        importance=0.8,
        scope="/Infrastructure/Database",
        source="session",
        source_id="s1",
    )
    assert env["success"] and env["tier"] == "tier2" and env["error"] is None
    assert set(env["meta"]) >= {"query_time_ms", "results_count", "tiers_queried"}
    fact = env["data"]
    assert fact["scope"] == "/infrastructure/database"
    assert fact["created_at"] == "2026-03-01T12:00:00Z"
    got = unwrap(api.fact_get(fact["uuid"]))
    assert got["content"] == "We use PostgreSQL for orders"
    assert got["source_type"] == "session" and got["source_id"] == "s1"


def test_exact_duplicates_are_merged_by_hash(api: MemoryAPI) -> None:
    first = api.fact_store("We use  PostgreSQL", category="project", importance=0.3)
    second = api.fact_store("we use postgresql", category="project", importance=0.9)
    assert second["meta"]["deduplicated"] is True
    assert second["data"]["uuid"] == first["data"]["uuid"]
    assert second["data"]["importance"] == 0.9  # the stronger signal is kept
    assert api.facts.count() == 1


def test_query_ranks_by_bm25_and_filters(api: MemoryAPI) -> None:
    api.fact_store("The deploy pipeline uses GitHub Actions", category="ops", scope="/ops/ci")
    api.fact_store("Grafana dashboards watch the deploy", category="ops", scope="/ops/monitoring")
    api.fact_store("Alice owns the billing service", category="project")
    hits = unwrap(api.fact_query("deploy pipeline"))
    assert hits[0]["content"].startswith("The deploy pipeline")
    assert len(hits) == 2
    assert [h["scope"] for h in unwrap(api.fact_query("deploy", scope="/ops/ci"))] == ["/ops/ci"]
    assert unwrap(api.fact_query("deploy", category="project")) == []
    listed = unwrap(api.fact_query(""))
    assert len(listed) == 3


def test_update_records_diff_and_requeues_embedding(
    queued_api: MemoryAPI, clock: FrozenClock
) -> None:
    uid = unwrap(queued_api.fact_store("Cache TTL is 60s", category="ops"))["uuid"]
    queued_api.db.query("DELETE FROM embed_queue")
    clock.advance(3600)
    updated = unwrap(queued_api.fact_update(uid, content="Cache TTL is 120s", importance=0.9))
    assert updated["content"] == "Cache TTL is 120s" and updated["importance"] == 0.9
    assert updated["updated_at"] == "2026-03-01T13:00:00Z"
    row = queued_api.db.query_one("SELECT actor, diff FROM audit_log WHERE action = 'fact_update'")
    assert row is not None
    diff = json.loads(row["diff"])
    assert diff["old"]["content"] == "Cache TTL is 60s"
    assert diff["new"]["content"] == "Cache TTL is 120s"
    assert queued_api.db.scalar("SELECT COUNT(*) FROM embed_queue WHERE item_uuid = ?", (uid,)) == 1
    assert unwrap(queued_api.fact_query("120s"))[0]["uuid"] == uid
    assert unwrap(queued_api.fact_query("60s")) == []


def test_update_rejects_unknown_fields_and_duplicates(api: MemoryAPI) -> None:
    a = unwrap(api.fact_store("fact A", category="general"))["uuid"]
    api.fact_store("fact B", category="general")
    env = api.fact_update(a, colour="red")
    assert not env["success"] and "colour" in env["error"]
    env = api.fact_update(a, content="fact b")
    assert not env["success"] and env["meta"]["error_detail"]["field"] == "content"
    assert unwrap(api.fact_get(a))["content"] == "fact A"


def test_soft_delete_hides_but_keeps(api: MemoryAPI) -> None:
    uid = unwrap(api.fact_store("temporary", category="general"))["uuid"]
    unwrap(api.fact_delete(uid))
    assert not api.fact_get(uid)["success"]
    assert unwrap(api.fact_query("temporary")) == []
    assert api.db.scalar("SELECT COUNT(*) FROM facts WHERE uuid = ?", (uid,)) == 1
    # the same content can be stored again after a soft delete
    assert api.fact_store("temporary", category="general")["meta"]["created"] is True
    assert api.fact_delete(uid)["meta"]["error_detail"]["code"] == "not_found"


def test_hard_delete_removes_row_and_fts(api: MemoryAPI) -> None:
    uid = unwrap(api.fact_store("purge me", category="general"))["uuid"]
    unwrap(api.fact_delete(uid, soft=False))
    assert api.db.scalar("SELECT COUNT(*) FROM facts") == 0
    assert api.db.scalar("SELECT COUNT(*) FROM facts_fts WHERE facts_fts MATCH 'purge'") == 0


def test_every_write_is_audited_with_actor(api: MemoryAPI) -> None:
    uid = unwrap(api.fact_store("audited", category="general"))["uuid"]
    api.fact_update(uid, importance=0.1)
    api.fact_delete(uid)
    rows = api.db.query(
        "SELECT action, actor FROM audit_log WHERE target_uuid = ? ORDER BY id", (uid,)
    )
    assert [(r["action"], r["actor"]) for r in rows] == [
        ("fact_store", "api"),
        ("fact_update", "api"),
        ("fact_delete", "api"),
    ]


def test_outbox_gets_one_row_per_item(queued_api: MemoryAPI) -> None:
    uid = unwrap(queued_api.fact_store("queued", category="general"))["uuid"]
    queued_api.fact_update(uid, content="queued again")
    rows = queued_api.db.query("SELECT item_kind, op FROM embed_queue WHERE item_uuid = ?", (uid,))
    assert [(r[0], r[1]) for r in rows] == [("fact", "upsert")]
    queued_api.fact_delete(uid)
    rows = queued_api.db.query("SELECT op FROM embed_queue WHERE item_uuid = ?", (uid,))
    assert [r[0] for r in rows] == ["delete"]


def test_evidence_links_to_episodes(api: MemoryAPI) -> None:
    ep = unwrap(api.ingest_turn("user", "we moved to MySQL", session_id="s1", message_id="m7"))
    fact = unwrap(
        api.fact_store("The team uses MySQL", category="project", evidence_ids=[ep["uuid"]])
    )
    assert fact["evidence_ids"] == ["m7"]
    env = api.fact_store("bad evidence", category="project", evidence_ids=["nope"])
    assert not env["success"]
    assert unwrap(api.fact_query("bad evidence")) == []


def test_rows_of_other_owners_are_invisible(home, clock) -> None:  # type: ignore[no-untyped-def]
    cfg = load_config(home)
    with (
        MemoryAPI(cfg, clock=clock, owner=Owner("discord", "bot", "alice", "chat1")) as alice,
        MemoryAPI(cfg, clock=clock, owner=Owner("discord", "bot", "bob", "chat2")) as bob,
    ):
        uid = unwrap(alice.fact_store("Alice's secret project is Orion", category="project"))[
            "uuid"
        ]
        assert unwrap(bob.fact_query("Orion")) == []
        assert bob.fact_get(uid)["meta"]["error_detail"]["code"] == "not_found"
        assert not bob.fact_delete(uid)["success"]
        assert not bob.fact_update(uid, importance=0.1)["success"]
        assert unwrap(alice.fact_get(uid))["importance"] == 0.5


def test_scratch_is_local_to_its_session(home, clock) -> None:  # type: ignore[no-untyped-def]
    cfg = load_config(home)
    with (
        MemoryAPI(cfg, clock=clock, owner=Owner("tg", "bot", "u1", "groupA")) as a,
        MemoryAPI(cfg, clock=clock, owner=Owner("tg", "bot", "u1", "groupB")) as b,
    ):
        a.fact_store("restart the test bot only here", category="scratch")
        a.fact_store("user's timezone is CET", category="user")
        assert [f["content"] for f in unwrap(b.fact_query("bot timezone"))] == [
            "user's timezone is CET"
        ]
        assert len(unwrap(a.fact_query("bot timezone"))) == 2


def test_capacity_limit_is_enforced_cleanly(home, clock) -> None:  # type: ignore[no-untyped-def]
    cfg = load_config(home, overrides={"tier2": {"max_facts": 2}})
    with MemoryAPI(cfg, clock=clock) as small:
        small.fact_store("one", category="general")
        small.fact_store("two", category="general")
        before = table_counts(small)
        env = small.fact_store("three", category="general")
        assert not env["success"] and "max_facts" in env["error"]
        assert table_counts(small) == before


def test_live_counters_track_inserts_soft_and_hard_deletes(api: MemoryAPI) -> None:
    uids = [unwrap(api.fact_store(f"counted {i}", category="general"))["uuid"] for i in range(4)]
    api.fact_delete(uids[0])
    api.fact_delete(uids[1], soft=False)
    api.fact_delete(uids[2])
    api.fact_delete(uids[2], soft=False)  # already soft-deleted: the count must not drop twice
    live = api.db.scalar("SELECT COUNT(*) FROM facts WHERE deleted_at IS NULL")
    assert api.facts.count() == live == 1


def test_common_words_only_order_what_rare_words_found(api: MemoryAPI) -> None:
    # 1,200 facts share "service": it becomes a common term (above the threshold).
    with api.db.transaction():
        for i in range(1200):
            api.facts.store(
                api.owner,
                content=f"service note {i}",
                category="general",
                scope="/",
                importance=0.5,
                confidence=1.0,
                source_type="user",
                source_id=None,
                now=0.0,
                actor="t",
            )
    api.fact_store("zephyr runs the billing service", category="project")
    api.fact_store("zephyr is a codename", category="project")
    hits = unwrap(api.fact_query("which service does zephyr run", limit=5))
    assert [h["content"] for h in hits[:2]] == [
        "zephyr runs the billing service",
        "zephyr is a codename",
    ]
    # a query of common words only still finds their intersection
    assert unwrap(api.fact_query("service note 7", limit=1))[0]["content"] == "service note 7"
