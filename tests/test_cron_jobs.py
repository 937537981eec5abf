"""Each maintenance job on a real store with planted problems."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_memory import FrozenClock, MemoryAPI, unwrap
from hermes_memory.api.maintenance import Maintenance
from hermes_memory.cron import consolidate, embed_queue, graph_refresh, prune, verify
from hermes_memory.cron.near_duplicates import (
    candidate_pairs,
    duplicate_groups,
    jaccard,
    near_duplicate,
    signature,
)
from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2 import health

DAY = 86_400.0


# -- near-duplicate detection (pure) -------------------------------------------------------
def test_near_duplicates_respect_numbers_negations_and_names() -> None:
    same = [
        ("The user prefers dark mode.", "User prefers dark mode"),
        ("The staging database runs on Postgres 16", "Staging database runs on Postgres 16."),
    ]
    different = [
        ("We deploy on Fridays", "We never deploy on Fridays"),
        ("Server port is 8080", "Server port is 8081"),
        ("Alice prefers tea in the morning", "Bob prefers tea in the morning"),
        ("We use Redis for caching sessions", "We used Redis for caching sessions"),
        ("Moved to Berlin", "Moved from Berlin"),
    ]
    for a, b in same:
        assert near_duplicate(signature(a), signature(b), 0.8), (a, b)
    for a, b in different:
        assert not near_duplicate(signature(a), signature(b), 0.8), (a, b)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.frozensets(st.sampled_from("abcdefghijkl"), min_size=1, max_size=7), max_size=30),
    st.sampled_from([0.5, 0.7, 0.8, 0.9]),
)
def test_prefix_filter_finds_every_pair_brute_force_finds(
    sets: list[frozenset[str]], threshold: float
) -> None:
    found = set(candidate_pairs(sets, threshold))
    for i, j in itertools.combinations(range(len(sets)), 2):
        if jaccard(sets[i], sets[j]) >= threshold:
            assert (i, j) in found


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(["Ada", "ada", "Bo", "bo", "7", "not", "x", "y", "z", "w"]),
            max_size=6,
        ),
        max_size=25,
    )
)
def test_duplicate_groups_match_brute_force(texts: list[list[str]]) -> None:
    sigs = [signature(" ".join(t)) for t in texts]
    # Connected components of the brute-force pair graph, singletons left out.
    parent = list(range(len(sigs)))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for i, j in itertools.combinations(range(len(sigs)), 2):
        if near_duplicate(sigs[i], sigs[j], 0.8):
            parent[find(i)] = find(j)
    components: dict[int, list[int]] = {}
    for i in range(len(sigs)):
        components.setdefault(find(i), []).append(i)
    expected = sorted(g for g in components.values() if len(g) > 1)
    assert sorted(duplicate_groups(sigs, 0.8)) == expected


def test_duplicate_groups_cluster_chains() -> None:
    sigs = [signature(t) for t in ["deploy window friday", "x y z", "deploy window friday"]]
    assert duplicate_groups(sigs, 0.8) == [[0, 2]]


# -- consolidate -------------------------------------------------------------------------
def _live_contents(api: MemoryAPI) -> set[str]:
    return {r[0] for r in api.db.query("SELECT content FROM facts WHERE deleted_at IS NULL")}


def test_consolidate_merges_near_duplicates_keeping_evidence(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    ep = api.ingest_turn("user", "remember: dark mode", session_id="s1", message_id="m1")
    first = api.fact_store("The user prefers dark mode.", importance=0.4)["data"]
    clock.advance(60)
    second = api.fact_store(
        "User prefers dark mode", importance=0.9, evidence_ids=[ep["data"]["uuid"]]
    )["data"]
    api.fact_store("Deploys never happen on Fridays")
    api.fact_store("Deploys happen on Fridays")
    api.fact_store("User prefers dark mode", scope="/other")  # another scope: kept

    report = consolidate.run(Maintenance(api), clock())
    assert report.counts["facts_merged"] == 1
    survivor = api.fact_get(second["uuid"])["data"]
    assert survivor["importance"] == 0.9 and survivor["evidence_ids"] == ["m1"]
    merged = api.fact_get(first["uuid"])
    assert merged["data"]["uuid"] == second["uuid"]
    assert merged["meta"]["merged_from"] == first["uuid"]
    assert {"Deploys never happen on Fridays", "Deploys happen on Fridays"} <= _live_contents(api)
    audit = api.db.query("SELECT * FROM audit_log WHERE action = 'fact_merge'")
    assert len(audit) == 1 and first["uuid"] in audit[0]["diff"]
    # the merged-away fact's vector is gone; a second run changes nothing
    assert verify.run(Maintenance(api), clock()).counts["drift"] == 0
    again = consolidate.run(Maintenance(api), clock())
    assert again.counts.get("facts_merged", 0) == 0
    assert again.counts.get("conflicts_resolved", 0) == 0


def test_consolidate_resolves_conflicts_written_out_of_order(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    # The newer statement arrives first; write-time linking cannot end the older one.
    berlin = api.fact_store("Alice moved to Berlin", valid_at="2025-06-01")["data"]
    lisbon = api.fact_store("Alice lives in Lisbon", valid_at="2024-01-01")["data"]
    assert api.fact_get(lisbon["uuid"])["data"]["invalid_at"] is None
    api.fact_store("We use Redis for caching", valid_at="2024-02-01")
    ended = api.fact_store("We stopped using Redis", valid_at="2024-09-01")["data"]
    assert ended["superseded_by"] is None
    dislike = api.fact_store("The user dislikes long answers", valid_at="2025-03-01")["data"]
    liking = api.fact_store("The user prefers long answers", valid_at="2024-05-01")["data"]
    assert api.fact_get(liking["uuid"])["data"]["invalid_at"] is None
    spaces = api.fact_store("The user prefers spaces", valid_at="2025-04-01")["data"]
    tabs = api.fact_store("The user prefers tabs over spaces", valid_at="2024-04-01")["data"]
    assert api.fact_get(tabs["uuid"])["data"]["invalid_at"] is None
    moved = api.fact_store("We moved the billing database to CockroachDB", valid_at="2025-05-01")
    runs = api.fact_store("The billing database runs PostgreSQL 14", valid_at="2024-03-01")
    assert api.fact_get(runs["data"]["uuid"])["data"]["invalid_at"] is None
    bob = api.fact_store("Bob now owns the billing-service", valid_at="2025-07-01")["data"]
    alice = api.fact_store("Alice owns the billing-service", valid_at="2024-07-01")["data"]
    carol = api.fact_store("Carol also owns the billing-service", valid_at="2025-08-01")["data"]
    left = api.fact_store("I resigned from Initech", valid_at="2025-02-01")["data"]
    work = api.fact_store("I work at Initech", valid_at="2024-02-01")["data"]
    boss = api.fact_store("Dana is my manager", valid_at="2024-02-01")["data"]
    api.fact_store("Dana is no longer my manager", valid_at="2025-02-01")
    assert api.fact_get(work["uuid"])["data"]["invalid_at"] is None

    report = consolidate.run(Maintenance(api), clock())
    old = api.fact_get(lisbon["uuid"])["data"]
    assert old["invalid_at"] == "2025-06-01T00:00:00Z"
    assert old["superseded_by"] == berlin["uuid"]
    assert api.fact_get(berlin["uuid"])["data"]["invalid_at"] is None
    assert api.fact_get(liking["uuid"])["data"]["superseded_by"] == dislike["uuid"]
    assert api.fact_get(dislike["uuid"])["data"]["invalid_at"] is None
    assert api.fact_get(tabs["uuid"])["data"]["superseded_by"] == spaces["uuid"]
    assert api.fact_get(spaces["uuid"])["data"]["invalid_at"] is None
    billing = api.fact_get(runs["data"]["uuid"])["data"]
    assert billing["superseded_by"] == moved["data"]["uuid"]
    assert billing["invalid_at"] == "2025-05-01T00:00:00Z"
    assert api.fact_get(alice["uuid"])["data"]["superseded_by"] == bob["uuid"]
    # a co-owner added later ("also") ends nobody, and nobody ends the new holder
    assert api.fact_get(bob["uuid"])["data"]["invalid_at"] is None
    assert api.fact_get(carol["uuid"])["data"]["invalid_at"] is None
    assert api.fact_get(work["uuid"])["data"]["superseded_by"] == left["uuid"]
    assert api.fact_get(boss["uuid"])["data"]["invalid_at"] == "2025-02-01T00:00:00Z"
    assert api.fact_query("Lisbon", include_archived=True)["data"][0]["uuid"] == lisbon["uuid"]
    assert report.counts["conflicts_resolved"] >= 1
    audit = api.db.query("SELECT actor FROM audit_log WHERE action = 'fact_supersede'")
    assert any(a["actor"] == "cron:consolidate" for a in audit)
    assert consolidate.run(Maintenance(api), clock()).counts.get("conflicts_resolved", 0) == 0


def test_a_move_still_to_come_ends_the_home_held_on_its_day(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    lisbon = unwrap(api.fact_store("I live in Lisbon."))
    berlin = unwrap(api.fact_store("I'm moving to Berlin in June."))
    june = "2026-06-01T00:00:00Z"
    assert berlin["valid_at"] == june
    unwrap(api.fact_store("I work at Acme until June."))  # a bound, not a change: no date
    assert consolidate.run(Maintenance(api), clock()).counts.get("conflicts_resolved", 0) == 0
    assert unwrap(api.fact_get(lisbon["uuid"]))["invalid_at"] is None  # still home in March
    clock.set("2026-06-02T03:00:00Z")
    assert consolidate.run(Maintenance(api), clock()).counts["conflicts_resolved"] == 1
    ended = unwrap(api.fact_get(lisbon["uuid"]))
    assert (ended["invalid_at"], ended["superseded_by"]) == (june, berlin["uuid"])


def test_facts_without_stored_claims_are_read_once_by_consolidate(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    lisbon = api.fact_store("Alice lives in Lisbon", valid_at="2024-01-01")["data"]
    # As if stored before migration 7: no claims recorded for it.
    with api.db.transaction() as conn:
        conn.execute("DELETE FROM fact_claims")
        conn.execute("UPDATE facts SET claims_read = 0")
    api.fact_store("Alice moved to Berlin", valid_at="2025-06-01")
    assert api.fact_get(lisbon["uuid"])["data"]["invalid_at"] is None  # not known yet
    report = consolidate.run(Maintenance(api), clock())
    assert report.counts["claims_read"] == 1
    assert api.fact_get(lisbon["uuid"])["data"]["invalid_at"] == "2025-06-01T00:00:00Z"
    assert consolidate.run(Maintenance(api), clock()).counts.get("claims_read", 0) == 0
    # An edit makes the fact's claims be read again.
    api.fact_update(lisbon["uuid"], content="Alice lives in Porto")
    assert api.db.scalar("SELECT claims_read FROM facts WHERE uuid = ?", (lisbon["uuid"],)) == 0
    assert consolidate.run(Maintenance(api), clock()).counts["claims_read"] == 1


def test_claims_read_by_another_extractor_version_are_read_again(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    """An extractor change needs no schema migration: the claims' version record says
    they are stale, doctor says so, and consolidate or doctor --repair reads them."""
    from hermes_memory.api import fact_ops
    from hermes_memory.tier2 import health as tier2_health

    assert unwrap(api.doctor())["ok"]  # a store made by this version is current
    old = unwrap(api.fact_store("The billing database runs PostgreSQL 14", valid_at="2024-01-01"))
    with api.db.transaction() as conn:  # as the previous extractor left them
        conn.execute("DELETE FROM fact_claims WHERE predicate LIKE '%@%'")
    tier2_health.set_derived_status(api.db, fact_ops.CLAIMS_STATE, "ok", clock(), extractor=2)
    moved = unwrap(api.fact_store("We moved the billing database to CockroachDB"))
    assert unwrap(api.fact_get(old["uuid"]))["invalid_at"] is None  # not known yet
    checks = {c["name"]: c for c in unwrap(api.doctor())["checks"]}
    assert not checks["claims"]["ok"] and "stale" in checks["claims"]["detail"]
    report = consolidate.run(Maintenance(api), clock())
    assert report.counts["claims_read"] == 2
    assert unwrap(api.fact_get(old["uuid"]))["superseded_by"] == moved["uuid"]
    assert consolidate.run(Maintenance(api), clock()).counts.get("claims_read", 0) == 0
    tier2_health.set_derived_status(api.db, fact_ops.CLAIMS_STATE, "ok", clock(), extractor=2)
    repaired = unwrap(api.doctor(repair=True))
    assert "claims" in repaired["repaired"] and repaired["ok"]


def test_consolidate_merges_entity_spellings_and_first_names(api: MemoryAPI) -> None:
    api.entity_ensure("Node.js", "tech")
    api.entity_ensure("NodeJS", "concept")
    api.entity_link("NodeJS", "api-gateway", "part_of")
    api.entity_ensure("Alice", "person")
    api.entity_ensure("Alice Chen", "person")
    for name in ("Sam", "Sam Lee", "Sam Park"):
        api.entity_ensure(name, "person")
    # A component said both ways, more often in prose: the name code gives it stays.
    for said in ("the ledger client", "the ledger client", "the ledger-client"):
        api.entity_ensure(said.removeprefix("the "), "project")
    api.entity_ensure("ledger client", "project")  # seen again
    report = consolidate.run(Maintenance(api), api.clock())
    assert report.counts["entities_merged"] == 3
    ledger = api.entity_query("ledger client", entity_type="project")["data"][0]
    assert ledger["name"] == "ledger-client" and "ledger client" in ledger["aliases"]
    node = api.entity_query("NodeJS")["data"][0]
    assert node["name"] == "Node.js" and node["entity_type"] == "tech"
    assert "NodeJS" in node["aliases"]
    assert any(r["relation"] == "part_of" for r in node["relations"])
    alice = api.entity_query("Alice", entity_type="person")["data"][0]
    assert alice["name"] == "Alice Chen" and "Alice" in alice["aliases"]
    names = {e["name"] for e in api.entity_query(None, limit=50)["data"]}
    assert {"Sam", "Sam Lee", "Sam Park"} <= names  # which Sam? left alone
    # the graph follows the merge
    assert api.graph_traverse("Node.js", 1)["data"][0]["name"] == "api-gateway"
    assert verify.run(Maintenance(api), api.clock()).counts["drift"] == 0


def test_consolidate_reinforces_importance_once_per_access(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    fact = api.fact_store("The release train leaves every second Tuesday", importance=0.5)
    for _ in range(4):
        api.recall("release train Tuesday")
    consolidate.run(Maintenance(api), clock())
    boosted = api.fact_get(fact["data"]["uuid"])["data"]["importance"]
    assert boosted == round(consolidate.reinforced(0.5, 4), 6) and boosted > 0.5
    consolidate.run(Maintenance(api), clock())
    assert api.fact_get(fact["data"]["uuid"])["data"]["importance"] == boosted


# -- embed queue -----------------------------------------------------------------------------
def test_embed_queue_drains_backlog_in_budget(queued_api: MemoryAPI) -> None:
    api = queued_api
    api.ingest_turns(
        [
            {
                "speaker": "u",
                "text": f"note {i} about the build",
                "session_id": "s",
                "message_id": str(i),
            }
            for i in range(30)
        ]  # fmt: skip
    )
    assert health.queue_depth(api.db)["pending"] >= 30
    report = embed_queue.run(Maintenance(api), api.clock())
    assert report.counts["indexed"] >= 30 and report.counts["still_pending"] == 0
    assert api.semantic is not None and api.semantic.counts()["missing"] == 0


class _FailOn:
    """Wraps an embedder: texts containing a marker make the whole batch fail."""

    def __init__(self, inner: object, marker: str) -> None:
        self.inner, self.marker = inner, marker
        self.name, self.dim, self.degraded = "hashing-256", 256, True

    def embed_batch(self, texts: list[str]):  # type: ignore[no-untyped-def]
        if any(self.marker in t for t in texts):
            raise RuntimeError("model crashed")
        return self.inner.embed_batch(texts)  # type: ignore[attr-defined]


def test_embed_queue_retries_with_backoff_then_parks_poison(
    queued_api: MemoryAPI, clock: FrozenClock
) -> None:
    api = queued_api
    assert api.semantic is not None
    api.semantic.embedder = _FailOn(api.semantic.embedder, "POISON")  # type: ignore[assignment]
    api.fact_store("a healthy fact about caching")
    bad = api.fact_store("a POISON fact")["data"]["uuid"]
    report = embed_queue.run(Maintenance(api), clock())
    assert report.counts["indexed"] >= 1 and report.counts["failed"] == 1
    row = api.db.query_one("SELECT * FROM embed_queue WHERE item_uuid = ?", (bad,))
    assert row is not None and row["attempts"] == 1 and row["next_attempt_at"] > clock()
    # not retried before its backoff is over
    assert embed_queue.run(Maintenance(api), clock()).counts.get("failed", 0) == 0
    for _ in range(6):
        clock.advance(DAY)
        embed_queue.run(Maintenance(api), clock())
    row = api.db.query_one("SELECT * FROM embed_queue WHERE item_uuid = ?", (bad,))
    assert row is not None and row["status"] == "poison" and row["attempts"] == 5
    assert embed_queue.run(Maintenance(api), clock()).counts["poison"] == 1


# -- graph refresh ------------------------------------------------------------------------
def test_graph_refresh_repairs_a_stale_graph(api: MemoryAPI, clock: FrozenClock) -> None:
    api.entity_link("billing", "postgres", "depends_on")
    graph_refresh.run(Maintenance(api), clock())
    # Plant drift: a relation vanishes from SQLite behind the triggers' back.
    api.db.query("SELECT 1")
    with api.db.transaction() as conn:
        conn.execute("DROP TRIGGER relations_seq_ad")
        conn.execute("DELETE FROM relations")
    report = graph_refresh.run(Maintenance(api), clock())
    assert report.counts["drift_repaired"] == 1
    assert api.knowledge_graph is not None and api.knowledge_graph.g.number_of_edges() == 0
    status = health.derived_status(api.db)["graph"]
    assert status["status"] == "ok" and status["refreshed_at"] == clock()


def test_graph_refresh_rebuilds_when_marked_or_overdue(api: MemoryAPI, clock: FrozenClock) -> None:
    api.entity_link("a-service", "b-service", "calls")
    first = graph_refresh.run(Maintenance(api), clock())
    assert first.counts["rebuilt"] == 1  # never rebuilt before
    clock.advance(3600)
    assert graph_refresh.run(Maintenance(api), clock()).counts.get("rebuilt", 0) == 0
    health.set_derived_status(api.db, "graph", "needs_repair", clock())
    assert graph_refresh.run(Maintenance(api), clock()).counts["rebuilt"] == 1
    clock.advance(api.config.graph.auto_rebuild_interval_hours * 3600)
    assert graph_refresh.run(Maintenance(api), clock()).counts["rebuilt"] == 1


# -- prune --------------------------------------------------------------------------------
def test_prune_archives_expired_and_stale_keeps_history(api: MemoryAPI, clock: FrozenClock) -> None:
    expiring = api.fact_store("Standup moved to 10:30 this week", expires_at=clock() + DAY)
    trivial = api.fact_store("The coffee machine on floor 2 is slow", importance=0.2)
    kept = api.fact_store("Never force-push to main", importance=0.9)
    old = api.fact_store("Alice lives in Lisbon")["data"]
    clock.advance(DAY)
    api.fact_store("Alice moved to Berlin")
    api.ingest_turn("user", "an old turn about the deploy", session_id="s", message_id="1")
    clock.advance(400 * DAY)
    report = prune.run(Maintenance(api), clock())
    assert report.counts["facts_archived"] == 2
    for env in (expiring, trivial):
        got = api.fact_get(env["data"]["uuid"])["data"]
        assert got["is_archived"] is True  # still readable by id
    listed = {f["uuid"] for f in api.fact_query("", limit=50)["data"]}
    assert kept["data"]["uuid"] in listed and expiring["data"]["uuid"] not in listed
    assert api.fact_get(old["uuid"])["data"]["invalid_at"] is not None  # history stays
    assert not api.fact_get(old["uuid"])["data"]["is_archived"]
    assert report.counts["turns_unindexed"] == 1
    assert api.episodes.count() == 1
    assert api.semantic is not None
    api.semantic.drain()  # entities wait in the outbox for the embed job
    counts = api.semantic.counts()
    assert counts["missing"] == 0 and counts["orphans"] == 0
    assert not any(kind == "episode" for kind in _vector_kinds(api))
    again = prune.run(Maintenance(api), clock())
    assert not again.counts.get("facts_archived") and not again.counts.get("turns_unindexed")


def _vector_kinds(api: MemoryAPI) -> list[str]:
    assert api.semantic is not None
    table = api.semantic.store.table().to_arrow()
    return [str(k) for k in table.column("kind").to_pylist()]


def test_prune_vacuums_when_much_space_is_free(api: MemoryAPI, clock: FrozenClock) -> None:
    rng = random.Random(3)
    api.ingest_turns(
        [
            {
                "speaker": "u",
                "text": " ".join(rng.choice("abcdefgh") * 40 for _ in range(60)),
                "session_id": "s",
                "message_id": str(i),
            }
            for i in range(600)
        ],  # fmt: skip
        embed=False,
    )
    with api.db.transaction() as conn:
        conn.execute("DELETE FROM episodes")
        conn.execute("DELETE FROM embed_queue")
    report = prune.run(Maintenance(api), clock())
    assert report.counts.get("vacuumed_bytes", 0) > 0
    assert int(api.db.scalar("PRAGMA freelist_count")) == 0


# -- verify -----------------------------------------------------------------------------------
def test_verify_reports_orphans_and_doctor_repairs(api: MemoryAPI, clock: FrozenClock) -> None:
    fact = api.fact_store("The VPN gateway lives in rack 4")["data"]
    with api.db.transaction() as conn:  # a hard delete that skipped the outbox
        conn.execute("DELETE FROM facts WHERE uuid = ?", (fact["uuid"],))
    report = verify.run(Maintenance(api), clock())
    assert report.counts["vector_orphans"] == 1 and report.counts["drift"] >= 1
    assert health.derived_status(api.db)["tier3"]["status"] == "needs_repair"
    doctor = api.doctor(repair=True)["data"]
    assert "tier3" in doctor["repaired"]
    assert verify.run(Maintenance(api), clock()).counts["drift"] == 0


def test_verify_survives_an_unreadable_vector_table(api: MemoryAPI, clock: FrozenClock) -> None:
    api.fact_store("Metrics retention is 30 days")
    assert api.semantic is not None

    def broken(*, from_copy: bool = False) -> list[tuple[str, str]]:
        raise DerivedTierError("table is gone")

    api.semantic.store.row_keys = broken  # type: ignore[method-assign]
    report = verify.run(Maintenance(api), clock())
    assert report.counts["vectors_missing"] >= 1
    assert "cannot be read" in " ".join(report.notes)
