"""What a later turn says ends what an earlier turn of the chat stated (graph/linker)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api import rederive
from hermes_memory.text.version import EXTRACTOR_VERSION
from hermes_memory.tier2 import health as tier2_health
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3.embedder import HashingEmbedder
from hermes_memory.tools.context import result_line
from hermes_memory.tools.memory_tool import handle

T0 = 1_770_000_000.0  # 2026-02-02, before the test clock's now
DAY = 86_400.0


def _relation(api: MemoryAPI, head: str, rel: str, tail: str) -> list[dict[str, object]]:
    rows = api.db.query(
        """SELECT r.uuid, r.invalid_at, r.deleted_at FROM relations r
           JOIN entities a ON a.uuid = r.from_entity JOIN entities b ON b.uuid = r.to_entity
           WHERE a.name = ? AND r.relation_type = ? AND b.name = ? ORDER BY r.id""",
        (head, rel, tail),
    )
    return [dict(r) for r in rows]


def _say(api: MemoryAPI, text: str, at: float, n: int, session: str = "s1") -> dict[str, object]:
    said = api.ingest_turn("user", text, session_id=session, message_id=f"m{n}", timestamp=at)
    return dict(unwrap(said))


def test_a_move_off_a_tool_ends_the_earlier_turns_use_of_it(api: MemoryAPI) -> None:
    _say(api, "The ledger-service stores its data in CockroachDB.", T0, 1)
    [used] = _relation(api, "ledger-service", "uses", "CockroachDB")
    assert used["invalid_at"] is None
    _say(api, "We moved the ledger-service off CockroachDB onto Postgres.", T0 + DAY, 2)
    [used] = _relation(api, "ledger-service", "uses", "CockroachDB")
    assert used["invalid_at"] == T0 + DAY  # when it was said, kept as history
    audit = api.db.query(
        "SELECT diff FROM audit_log WHERE action = 'relation_end' AND target_uuid = ?",
        (used["uuid"],),
    )
    assert json.loads(audit[0]["diff"])["reason"] == "migrated_from CockroachDB"
    now = {e["name"] for e in unwrap(api.graph_traverse("ledger-service", 1, "uses"))}
    assert "CockroachDB" not in now
    ever = unwrap(api.graph_traverse("ledger-service", 1, "uses", include_invalid=True))
    assert "CockroachDB" in {e["name"] for e in ever}
    # A chained question answers with what holds now, by the relation it asks.
    _say(api, "The payments-api depends on the ledger-service.", T0 + 2 * DAY, 3)
    chained = unwrap(api.recall("What database does the service payments-api depends on use?"))
    paths = [r.get("graph_path", "") for r in chained]
    assert "payments-api -depends_on-> ledger-service -migrated_to-> PostgreSQL" in paths
    assert not any(p.endswith("-uses-> CockroachDB") for p in paths)


def test_a_new_home_ends_the_old_one(api: MemoryAPI) -> None:
    # Both durable statements: the fact formed from the second supersedes the first's.
    _say(api, "I live in Berlin.", T0, 1)
    _say(api, "I moved to Lisbon last month.", T0 + 30 * DAY, 2)
    [berlin] = _relation(api, "the user", "lives_in", "Berlin")
    assert berlin["invalid_at"] == T0 + 30 * DAY
    assert _relation(api, "the user", "lives_in", "Lisbon")[0]["invalid_at"] is None
    [old] = api.db.query("SELECT superseded_by FROM facts WHERE content = 'I live in Berlin.'")
    assert old["superseded_by"] is not None
    # Said in passing, a new base is a home too.
    _say(api, "Since I'm based in Porto these days, remote is fine.", T0 + 60 * DAY, 3)
    [lisbon] = _relation(api, "the user", "lives_in", "Lisbon")
    assert lisbon["invalid_at"] == T0 + 60 * DAY


def test_leaving_a_workplace_or_a_manager_ends_the_tie(api: MemoryAPI) -> None:
    _say(api, "I work at Initech as a data engineer.", T0, 1)
    _say(api, "Priya works at Initech too.", T0, 2)
    _say(api, "I resigned from Initech last month.", T0 + 30 * DAY, 3)
    [mine] = _relation(api, "the user", "works_at", "Initech")
    assert mine["invalid_at"] == T0 + 30 * DAY
    [old] = api.db.query("SELECT superseded_by FROM facts WHERE content LIKE 'I work at%'")
    assert old["superseded_by"] is not None
    [hers] = _relation(api, "Priya", "works_at", "Initech")
    assert hers["invalid_at"] is None  # the user left, not Priya
    # Wanting to leave, or a relative leaving, ends nothing.
    _say(api, "Priya wants to quit Initech.", T0 + 31 * DAY, 4)
    _say(api, "My sister left Initech.", T0 + 32 * DAY, 5)
    assert _relation(api, "Priya", "works_at", "Initech")[0]["invalid_at"] is None
    # A manager one has no more: the tie ends, and the fact that stated it.
    _say(api, "Dana is my manager.", T0 + 40 * DAY, 6)
    _say(api, "Dana isn't my manager anymore.", T0 + 50 * DAY, 7)
    [boss] = _relation(api, "the user", "reports_to", "Dana")
    assert boss["invalid_at"] == T0 + 50 * DAY
    [old] = api.db.query("SELECT superseded_by FROM facts WHERE content = 'Dana is my manager.'")
    assert old["superseded_by"] is not None
    # A service one holds no more: Bob's hold ends, Carol's stays.
    _say(api, "Bob owns the billing-service; Carol owns the ledger-service.", T0 + 60 * DAY, 8)
    _say(api, "Bob no longer owns the billing-service.", T0 + 70 * DAY, 9)
    assert _relation(api, "Bob", "owns", "billing-service")[0]["invalid_at"] == T0 + 70 * DAY
    assert _relation(api, "Carol", "owns", "ledger-service")[0]["invalid_at"] is None
    # A service handed over: the new holder owns it, the old one's hold ends.
    _say(api, "Kenji owns the search-api.", T0 + 80 * DAY, 10)
    _say(api, "Kenji handed the search-api over to Lena.", T0 + 90 * DAY, 11)
    assert _relation(api, "Kenji", "owns", "search-api")[0]["invalid_at"] == T0 + 90 * DAY
    assert _relation(api, "Lena", "owns", "search-api")[0]["invalid_at"] is None
    _say(api, "Tom leads the checkout-service.", T0 + 100 * DAY, 12)
    _say(api, "Lena replaced Tom as the lead for the checkout-service.", T0 + 110 * DAY, 13)
    assert _relation(api, "Tom", "manages", "checkout-service")[0]["invalid_at"] == T0 + 110 * DAY
    assert _relation(api, "Lena", "manages", "checkout-service")[0]["invalid_at"] is None
    # A job lost ends the work there, and states none anew.
    _say(api, "Gina works at Door Dash.", T0 + 120 * DAY, 14)
    _say(api, "Gina lost her job at Door Dash this month.", T0 + 130 * DAY, 15)
    [gina] = _relation(api, "Gina", "works_at", "Door Dash")
    assert gina["invalid_at"] == T0 + 130 * DAY


def test_a_new_holder_ends_the_others_hold(api: MemoryAPI) -> None:
    _say(api, "Sam owns the ingestion-job's alerting.", T0, 1)
    _say(api, "Dana owns the billing-service.", T0, 2)
    _say(api, "Sam left the team, so Lee now owns the alerting for the ingestion-job.", T0 + DAY, 3)
    [sam] = _relation(api, "Sam", "owns", "ingestion-job")
    assert sam["invalid_at"] == T0 + DAY
    assert _relation(api, "Lee", "owns", "ingestion-job")[0]["invalid_at"] is None
    assert _relation(api, "Dana", "owns", "billing-service")[0]["invalid_at"] is None
    # A second owner named as such ends nobody's.
    _say(api, "Priya also owns the billing-service.", T0 + 2 * DAY, 4)
    assert _relation(api, "Dana", "owns", "billing-service")[0]["invalid_at"] is None


def test_what_a_turn_ends_is_only_what_earlier_turns_of_its_chat_stated(
    home: Path, clock: FrozenClock
) -> None:
    cfg = load_config(home, env={})
    chat_a = Owner("telegram", "default", "u1", "chat:1")
    chat_b = Owner("telegram", "default", "u1", "chat:2")
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder(), owner=chat_b) as other:
        _say(other, "The billing-service uses Redis.", T0, 1)
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder(), owner=chat_a) as api:
        # A fact's relation is supersession's; a relation linked by hand is the person's.
        unwrap(api.fact_store("The search-api uses Elasticsearch."))
        unwrap(api.entity_ensure("Kafka", "tech"))
        unwrap(api.entity_ensure("events-api", "project"))
        unwrap(api.entity_link("events-api", "Kafka", "uses"))
        # Said later than the move (a turn imported out of order): it holds.
        _say(api, "The auth-service stores sessions in Memcached.", T0 + 5 * DAY, 2)
        # The same chat, earlier: ended.
        _say(api, "The ledger-service stores its data in CockroachDB.", T0, 3)
        for n, (head, tail) in enumerate(
            [
                ("search-api", "Elasticsearch"),
                ("events-api", "Kafka"),
                ("billing-service", "Redis"),
                ("auth-service", "Memcached"),
                ("ledger-service", "CockroachDB"),
            ]
        ):
            _say(api, f"We moved the {head} off {tail}.", T0 + DAY, 10 + n)
        for head, tail in [
            ("search-api", "Elasticsearch"),
            ("events-api", "Kafka"),
            ("billing-service", "Redis"),
            ("auth-service", "Memcached"),
        ]:
            rows = _relation(api, head, "uses", tail)
            assert rows and all(r["invalid_at"] is None for r in rows), head
        [ended] = _relation(api, "ledger-service", "uses", "CockroachDB")
        assert ended["invalid_at"] == T0 + DAY


def _moved_and_read_again(api: MemoryAPI, *, ended_then: bool) -> list[dict[str, object]]:
    """A use and the move off it, as extractor version 1 left them (the use still valid
    unless ``ended_then``), read again by this version: the use's rows after."""
    _say(api, "The ledger-service stores its data in CockroachDB.", T0, 1)
    _say(api, "We moved the ledger-service off CockroachDB onto Postgres.", T0 + DAY, 2)
    with api.db.transaction() as conn:
        reset = "" if ended_then else "invalid_at = NULL, "
        # that version kept no ``ended_by``
        conn.execute(f"UPDATE relations SET {reset}derived_by = ?, metadata = '{{}}'", (1,))
    tier2_health.set_derived_status(api.db, "relations", "ok", 0.0, extractor=1)
    assert rederive.stale(api) and EXTRACTOR_VERSION > 1
    rederive.rederive(api)
    return _relation(api, "ledger-service", "uses", "CockroachDB")


def test_a_store_read_again_ends_what_it_ends_again(api: MemoryAPI) -> None:
    rows = _moved_and_read_again(api, ended_then=False)
    assert [r["invalid_at"] for r in rows if r["deleted_at"] is None] == [T0 + DAY]


def test_an_ended_relation_read_again_stays_one_row(api: MemoryAPI) -> None:
    rows = _moved_and_read_again(api, ended_then=True)
    assert [(r["invalid_at"], r["deleted_at"]) for r in rows] == [(T0 + DAY, None)]
    # and is given the turn that ended it, once: one audit of the end, none of the fill
    [ended_by] = api.db.query(
        "SELECT json_extract(metadata, '$.ended_by') AS by FROM relations WHERE uuid = ?",
        (rows[0]["uuid"],),
    )
    moved = api.db.scalar("SELECT uuid FROM episodes WHERE text LIKE '%onto Postgres%'")
    assert ended_by["by"] == moved
    ends = api.db.scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'relation_end'")
    assert ends == 1


def test_a_turn_whose_statement_changed_says_so_in_recall_and_the_block(api: MemoryAPI) -> None:
    _say(api, "The ledger-service stores its data in CockroachDB.", T0, 1)
    before = unwrap(api.recall("Where does the ledger-service store its data?"))
    assert all("since_changed" not in r for r in before)
    _say(api, "We moved the ledger-service off CockroachDB onto Postgres.", T0 + DAY, 2)
    results = unwrap(api.recall("Where does the ledger-service store its data?"))
    old = next(r for r in results if "stores its data" in r["content"])
    # What held, until when, and what the turn that ended it said instead.
    day = time.strftime("%Y-%m-%d", time.gmtime(T0 + DAY))
    changed = (
        f"ledger-service uses CockroachDB until {day}, then ledger-service migrated to PostgreSQL"
    )
    assert old["since_changed"] == [changed]
    new = next(r for r in results if "onto Postgres" in r["content"])
    assert "since_changed" not in new
    line = result_line(old)
    assert f"since changed: {changed}" in line
    # The agent's tool shows it too.
    asked = {"action": "recall", "content": "Where does the ledger-service store data?"}
    said = json.loads(handle(api, asked))
    shown = next(r for r in said["results"] if "stores its data" in r["content"])
    assert shown["since_changed"] == [changed]
    # Asked as of a time before the move, it still held.
    then = unwrap(api.recall("Where does the ledger-service store its data?", as_of=T0 + 1))
    assert all("since_changed" not in r for r in then)


def _ranked(home: Path, lift: float, old: str, new: str, query: str) -> list[dict[str, object]]:
    """``query`` recalled, with ``recall.successor_lift`` at ``lift``, from a store
    where ``old`` was said, then an unrelated turn, then ``new`` a day later."""
    where = home / f"{lift}-{len(old)}-{len(query)}"
    cfg = load_config(where, env={}, overrides={"recall": {"successor_lift": lift}})
    with MemoryAPI(cfg, clock=FrozenClock(T0 + 30 * DAY), embedder=HashingEmbedder()) as api:
        _say(api, old, T0, 1)
        _say(api, "Unrelated: the office moves on Friday.", T0 + 1, 2)
        _say(api, new, T0 + DAY, 3)
        return [dict(r) for r in unwrap(api.recall(query))]


def test_the_turn_that_changed_a_statement_answers_where_that_did(home: Path) -> None:
    def ranked(lift: float, query: str) -> list[dict[str, object]]:
        said = "The ledger-service stores its data in CockroachDB, and Maria owns billing-api."
        moved = "We moved the ledger-service off CockroachDB onto Postgres."
        return _ranked(home, lift, said, moved, query)

    lifted = ranked(1.0, "Where does the ledger-service store its data?")[0]
    assert "onto Postgres" in str(lifted["content"])
    assert "supersedes" in lifted["match_reasons"]  # type: ignore[operator]
    off = ranked(0.0, "Where does the ledger-service store its data?")[0]
    assert "onto Postgres" not in str(off["content"])  # the stage off: the old turn first
    # Asked of what did not change, the old turn is the answer and nothing rises.
    owner = ranked(1.0, "Who owns billing-api?")
    assert "Maria owns" in str(owner[0]["content"])
    assert all("supersedes" not in r["match_reasons"] for r in owner)  # type: ignore[operator]


def test_the_move_of_a_plan_answers_where_the_turn_that_set_it_did(home: Path) -> None:
    def ranked(lift: float, query: str) -> list[dict[str, object]]:
        said = (
            "I'm starting a contract with Harbor Fitness to build their member app. "
            "Deadline for the beta is November 20th."
        )
        # Who moved it is not what moved: the deadline is (text/schedules.py).
        moved = "Marcus moved the beta deadline to December 4th, the vendor is late."
        return _ranked(home, lift, said, moved, query)

    query = "When is the beta of the member app due?"
    lifted = ranked(1.0, query)[0]
    assert "December 4th" in str(lifted["content"])
    assert "supersedes" in lifted["match_reasons"]  # type: ignore[operator]
    off = ranked(0.0, query)
    assert "December 4th" not in str(off[0]["content"])  # the stage off: the old turn first
    # Asked of what the move did not touch, nothing rises.
    contract = ranked(1.0, "Which company is my contract with?")
    assert "Harbor Fitness" in str(contract[0]["content"])
    assert all("supersedes" not in r["match_reasons"] for r in contract)  # type: ignore[operator]
