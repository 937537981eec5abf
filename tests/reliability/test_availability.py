"""What one user sends cannot hold the write lock for long, a busy database is a clear
error, and a turn that could not be stored is kept, never lost."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from hermes_memory import MemoryAPI, load_config, unwrap
from hermes_memory.errors import StorageError
from hermes_memory.graph import linker as linker_module
from hermes_memory.text import extract as extract_module
from hermes_memory.tier2.db import Database
from hermes_memory.tier3.embedder import HashingEmbedder

FIRST = "Alice Bob Carol Dmitri Elena Farid Grace Hiro Ines Jonas Kavya Liam Mei Nadia".split()
LAST = "Smith Jones Brown Garcia Miller Davis Wilson Moore Taylor Anderson Thomas".split()
NAMES = [f"{f} {lname}" for f in FIRST for lname in LAST][:150]


def hostile_messages() -> list[str]:
    """Messages a gateway may see: long lists of names, in one sentence or many."""
    return [
        ", ".join(NAMES) + " met at Acme.",
        " and ".join(NAMES) + " work at Google and use PostgreSQL.",
        ". ".join(f"{n} uses PostgreSQL and works at Spotify" for n in NAMES) + ".",
        ("Alice " * 3000).strip(),
    ]


def test_a_message_of_many_names_links_a_bounded_graph(
    tmp_path: Path, figures: dict[str, Any]
) -> None:
    with MemoryAPI(load_config(tmp_path, env={}), embedder=HashingEmbedder(64)) as api:
        for i, text in enumerate(hostile_messages()):
            api.ingest_turn("user", text, session_id="s", message_id=str(i))
        entities = api.db.scalar("SELECT COUNT(*) FROM entities")
        relations = api.db.scalar("SELECT COUNT(*) FROM relations")
    # Before the bounds, the first message alone linked 150 people and 11,175 "knows"
    # relations (one per pair), inside the write transaction.
    assert entities <= len(hostile_messages()) * extract_module.MAX_ENTITIES
    assert relations <= 400
    figures.setdefault("availability", {})["hostile_name_lists"] = {
        "messages": len(hostile_messages()),
        "names": len(NAMES),
        "entities": entities,
        "relations": relations,
    }


def test_extraction_never_runs_inside_the_write_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    with MemoryAPI(load_config(tmp_path, env={}), embedder=HashingEmbedder(64)) as api:
        real = linker_module.extract

        def watched(text: str, **kwargs: Any) -> Any:
            seen.append(api.db._conn.in_transaction)
            return real(text, **kwargs)

        monkeypatch.setattr(linker_module, "extract", watched)
        api.ingest_turn("user", "Priya moved to Berlin and works at Spotify.",
                        session_id="s", message_id="1")  # fmt: skip
        api.ingest_turns(
            [{"speaker": "user", "text": "We use PostgreSQL.", "session_id": "s",
              "message_id": "2"}]
        )  # fmt: skip
        api.fact_store("The payments service depends on Kafka", category="project")
    # Three writes, and the fact formed from "We use PostgreSQL." is read before too.
    assert seen == [False, False, False, False]


def test_a_busy_database_is_a_storage_error_not_a_raw_one(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    db = Database(path, busy_timeout_ms=20)
    with db.transaction() as conn:
        conn.execute("CREATE TABLE t (x)")
    other = sqlite3.connect(path, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StorageError, match="database busy") as caught, db.transaction():
            pass
        assert caught.value.context.get("busy") is True
    finally:
        other.rollback()
        other.close()
    with db.transaction() as conn:  # usable again once the other writer is done
        conn.execute("INSERT INTO t VALUES (1)")
    db.close()


def test_the_provider_keeps_turns_a_busy_database_turned_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("agent.memory_provider")
    from hermes_memory.hermes.provider import HermesMemoryProvider

    monkeypatch.setenv("HERMES_MEMORY_TIER2__BUSY_TIMEOUT_MS", "20")
    provider = HermesMemoryProvider(
        api_factory=lambda cfg, **kw: MemoryAPI(cfg, embedder=HashingEmbedder(64), **kw)
    )
    provider.initialize("chat-1", hermes_home=str(tmp_path), platform="cli")
    api = provider._api
    assert api is not None
    other = sqlite3.connect(api.config.db_path, timeout=0)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        provider.sync_turn("We deploy on Fly.io", "Noted.", session_id="chat-1")
    finally:
        other.rollback()
        other.close()
    assert api.db.scalar("SELECT COUNT(*) FROM episodes") == 0
    provider.sync_turn("Our database is Postgres", "Good to know.", session_id="chat-1")
    texts = {r["text"] for r in api.db.query("SELECT text FROM episodes")}
    assert texts == {"We deploy on Fly.io", "Noted.", "Our database is Postgres",
                     "Good to know."}  # fmt: skip
    provider.shutdown()


def test_one_side_refused_does_not_drop_the_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("agent.memory_provider")
    from hermes_memory.hermes.provider import HermesMemoryProvider

    provider = HermesMemoryProvider(
        api_factory=lambda cfg, **kw: MemoryAPI(cfg, embedder=HashingEmbedder(64), **kw)
    )
    provider.initialize("chat-1", hermes_home=str(tmp_path), platform="cli")
    api = provider._api
    assert api is not None
    huge = "word " * (api.config.tier2.max_turn_chars // 5 + 10)
    provider.sync_turn(huge, "That is a lot of words.", session_id="chat-1")
    assert [r["text"] for r in api.db.query("SELECT text FROM episodes")] == [
        "That is a lot of words."
    ]
    provider.shutdown()


def test_long_turns_and_invalid_code_points_are_kept(tmp_path: Path) -> None:
    with MemoryAPI(load_config(tmp_path, env={}), embedder=HashingEmbedder(64)) as api:
        long = "The deploy log follows. " + "step ok; " * 4000  # 40k chars, past the fact limit
        assert len(long) > api.config.tier2.max_content_chars
        api.ingest_turn("user", long, session_id="s", message_id="1")
        api.ingest_turn("user", "broken \ud800 surrogate and a NUL\x00", session_id="s",
                        message_id="2")  # fmt: skip
        texts = [r["text"] for r in api.db.query("SELECT text FROM episodes ORDER BY id")]
    assert texts[0] == long.strip()
    assert texts[1] == "broken \ufffd surrogate and a NUL"


def test_extraction_bounds_hold_on_hostile_messages() -> None:
    """Speed is measured by benchmarks/extraction.py; here, the bounds that make it
    linear: distinct names, mentions, and relations read among a sentence's names."""
    for text in hostile_messages():
        found = extract_module.extract(text)
        assert len({m.name for m in found.mentions}) <= extract_module.MAX_ENTITIES
        assert len(found.mentions) <= extract_module.MAX_MENTIONS
        pairs = extract_module.MAX_RELATED_MENTIONS**2
        assert len(found.relations) <= pairs * (text.count(".") + 1)


def test_limits_are_each_owners_and_linking_past_them_keeps_the_write(
    tmp_path: Path, figures: dict[str, Any]
) -> None:
    from hermes_memory.tier2.records import Owner

    cfg = load_config(tmp_path, env={}, overrides={"tier2": {"max_facts": 3, "max_entities": 2}})
    noisy = Owner("telegram", "default", "noisy", "chat:1")
    quiet = Owner("telegram", "default", "quiet", "chat:2")
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=noisy) as api:
        for i in range(3):
            assert api.fact_store(f"Noisy note number {i}", category="general")["success"]
        full = api.fact_store("One more noisy note", category="general")
        assert not full["success"] and "per owner" in full["error"]
        # Past the entity limit, a turn naming new people is still stored.
        stored = api.ingest_turn(
            "user", "Alice, Bob and Carol joined Dmitri at Acme.", session_id="s", message_id="1"
        )
        assert stored["success"]
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=quiet) as api:
        assert api.fact_store("The quiet user's first fact", category="general")["success"]
        assert api.entity_ensure("Quiet Project", "project")["success"]
        episodes = api.db.scalar("SELECT COUNT(*) FROM episodes")
    assert episodes == 1
    figures.setdefault("availability", {})["per_owner_limits"] = "held"


def test_import_sessions_redacts_a_secret_and_goes_on(tmp_path: Path) -> None:
    from hermes_memory.hermes.sessions import import_sessions
    from tests.test_hermes_provider import STATE_SCHEMA

    state = tmp_path / "state.db"
    db = sqlite3.connect(state)
    db.executescript(STATE_SCHEMA)
    db.execute("INSERT INTO sessions VALUES ('a', 'cli', NULL, NULL, NULL, NULL, 1.7e9)")
    for i in range(15):
        text = f"Deploy step {i} went fine"
        if i == 7:
            text = "Here is the env: DB_PASSWORD=hunter2hunter2 and the rest of the config"
        db.execute(
            "INSERT INTO messages(session_id, role, content, timestamp) VALUES (?,?,?,?)",
            ("a", "user" if i % 2 == 0 else "assistant", text, 1.7e9 + i),
        )
    db.commit()
    db.close()
    with MemoryAPI(load_config(tmp_path / "home", env={}), embedder=HashingEmbedder(64)) as api:
        report = import_sessions(api, state).to_dict()
        texts = [r["text"] for r in api.db.query("SELECT text FROM episodes ORDER BY id")]
    assert report["imported"] == 15
    assert "hunter2hunter2" not in "".join(texts)
    assert "[REDACTED:" in texts[7] and texts[7].endswith("and the rest of the config")


def test_recall_answers_when_access_counts_cannot_be_written(tmp_path: Path) -> None:
    with MemoryAPI(load_config(tmp_path, env={}), embedder=HashingEmbedder(64)) as api:
        api.fact_store("The deploy runs on Fridays", category="ops")
        other = sqlite3.connect(api.config.db_path, timeout=0)
        api.db._conn.execute("PRAGMA busy_timeout = 20")
        other.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the budget
        try:
            found = api.recall("when does the deploy run?", tiers=["tier2"])
        finally:
            other.rollback()
            other.close()
    assert found["success"] and found["data"][0]["content"] == "The deploy runs on Fridays"


def test_a_read_only_agents_reads_change_nothing(tmp_path: Path) -> None:
    pytest.importorskip("agent.memory_provider")
    from hermes_memory.hermes.provider import HermesMemoryProvider

    with MemoryAPI(load_config(tmp_path, env={}), embedder=HashingEmbedder(64)) as api:
        api.fact_store("The deploy runs on Fridays", category="ops")
    provider = HermesMemoryProvider(
        api_factory=lambda cfg, **kw: MemoryAPI(cfg, embedder=HashingEmbedder(64), **kw)
    )
    provider.initialize("s", hermes_home=str(tmp_path), platform="cli", agent_context="cron")
    assert provider.prefetch("when does the deploy run?")
    api = provider._api
    assert api is not None
    assert api.db.scalar("SELECT SUM(access_count) FROM facts") == 0
    provider.shutdown()


class _HeldEmbedder(HashingEmbedder):
    """Holds the model on any text marked PASTE until released: a pasted file that
    takes the model seconds, made deterministic."""

    def __init__(self) -> None:
        super().__init__(64)
        self.started = threading.Event()
        self.release = threading.Event()

    def embed_batch(self, texts: list[str]) -> Any:
        if any("PASTE" in t for t in texts):
            self.started.set()
            self.release.wait(30)
        return super().embed_batch(texts)


def _provider(tmp_path: Path, model: HashingEmbedder) -> tuple[Any, MemoryAPI]:
    """A Hermes provider over ``model``, for chat-1, and its memory."""
    pytest.importorskip("agent.memory_provider")
    from hermes_memory.hermes.provider import HermesMemoryProvider

    provider = HermesMemoryProvider(
        api_factory=lambda cfg, **kw: MemoryAPI(cfg, embedder=model, **kw)
    )
    provider.initialize("chat-1", hermes_home=str(tmp_path), platform="cli")
    assert provider._api is not None
    return provider, provider._api


def _prefetch_answers_while_held(
    provider: Any, model: _HeldEmbedder, work: threading.Thread, what: str
) -> None:
    """Start ``work``, which runs the held model, and check that prefetch answers while
    the model still holds it (the lock was free), then let it finish."""
    work.start()
    try:
        assert model.started.wait(10), f"{what} never reached the model"
        answers: list[str] = []
        asking = threading.Thread(target=lambda: answers.append(provider.prefetch("deploy day?")))
        asking.start()
        asking.join(10)
        assert not asking.is_alive() and not model.release.is_set()
        assert "We deploy on Fridays." in answers[0]
    finally:
        model.release.set()
        work.join(30)
    assert not work.is_alive()


def test_prefetch_does_not_wait_while_the_model_embeds_a_long_turn(tmp_path: Path) -> None:
    model = _HeldEmbedder()
    provider, api = _provider(tmp_path, model)
    provider.sync_turn("We deploy on Fridays.", "Noted.", session_id="chat-1")
    paste = "PASTE " + "line of a long log file\n" * 2000
    syncing = threading.Thread(
        target=provider.sync_turn, args=(paste, "Read it."), kwargs={"session_id": "chat-1"}
    )
    _prefetch_answers_while_held(provider, model, syncing, "the paste")
    assert api.stats()["success"]
    pasted = api.db.scalar("SELECT uuid FROM episodes WHERE text LIKE 'PASTE%'")
    assert api.embed_now([pasted]) == 0  # indexed already: nothing left queued for it
    provider.shutdown()


def test_prefetch_does_not_wait_while_the_session_end_flush_embeds(tmp_path: Path) -> None:
    model = _HeldEmbedder()
    provider, api = _provider(tmp_path, model)
    provider.sync_turn("We deploy on Fridays.", "Noted.", session_id="chat-1")
    # Left queued, as turns stored before the model was ready are.
    queued = unwrap(
        api.ingest_turns(
            [{"speaker": "user", "text": f"PASTE {i} " + "a long log line\n" * 2000,
              "session_id": "chat-1", "message_id": f"m{i}"} for i in range(40)],
            embed=False,
        )
    )  # fmt: skip
    assert sorted(api.embed_queue_items(100)) == sorted(queued)
    ending = threading.Thread(target=provider.on_session_end, args=([],))
    _prefetch_answers_while_held(provider, model, ending, "the flush")
    assert api.embed_queue_items(100) == []  # all 40, over more than one round
    assert api.embed_now(queued) == 0
    provider.shutdown()


def test_a_shutdown_while_the_model_embeds_a_turn_is_clean(tmp_path: Path) -> None:
    class FirstHeld(_HeldEmbedder):
        """Holds only the first run on the paste (the turn's own), not the flush's."""

        def embed_batch(self, texts: list[str]) -> Any:
            if self.started.is_set():
                return HashingEmbedder.embed_batch(self, texts)
            return super().embed_batch(texts)

    model = FirstHeld()
    provider, _ = _provider(tmp_path, model)
    failures: list[BaseException] = []

    def sync() -> None:
        try:
            provider.sync_turn("PASTE " + "a long log line\n" * 500, "Read it.")
        except BaseException as exc:  # what Hermes' sync worker would see
            failures.append(exc)

    syncing = threading.Thread(target=sync)
    syncing.start()
    assert model.started.wait(10)
    provider.shutdown()  # its flush embeds the turn; the memory is closed
    model.release.set()  # only now does the turn's own model run end
    syncing.join(30)
    assert not syncing.is_alive() and failures == []
    with MemoryAPI(load_config(tmp_path, env={}), embedder=HashingEmbedder(64)) as api:
        assert api.db.scalar("SELECT COUNT(*) FROM episodes") == 2  # both sides kept
