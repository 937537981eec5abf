"""The Hermes memory provider against the real hermes-agent: loader, MemoryManager,
tool calls, a full AIAgent turn, install/uninstall and session import."""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hermes_memory import MemoryAPI, load_config
from hermes_memory.hermes import install
from hermes_memory.hermes.sessions import import_sessions
from hermes_memory.tier3.embedder import HashingEmbedder

HERMES = importlib.util.find_spec("agent") is not None and (
    importlib.util.find_spec("plugins") is not None
)
needs_hermes = pytest.mark.skipif(
    not HERMES and not os.environ.get("REQUIRE_HERMES_TESTS"),
    reason="hermes-agent is not installed",
)
AGENT_TURN = Path(__file__).parent / "hermes" / "agent_turn.py"


@pytest.fixture
def hermes_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(
        "# my Hermes settings\nmodel:\n  default: some-model  # keep me\n"
        "memory:\n  memory_enabled: true\n  provider: holographic\n"
    )
    install.install(home)
    monkeypatch.setenv("HERMES_HOME", str(home))
    return home


def _load(name: str = "hermes_memory") -> Any:
    from plugins.memory import load_memory_provider

    return load_memory_provider(name)


@pytest.fixture
def manager(hermes_home: Path) -> Iterator[Any]:
    from agent.memory_manager import MemoryManager

    mm = MemoryManager()
    provider = _load()
    assert provider is not None and provider.is_available()
    mm.add_provider(provider)
    mm.initialize_all(
        session_id="s-1",
        platform="cli",
        agent_context="primary",
        hermes_home=str(hermes_home),
        agent_identity="default",
    )
    yield mm
    mm.shutdown_all()


# -- install -------------------------------------------------------------------------------------
def test_install_keeps_config_and_uninstall_restores_it(hermes_home: Path) -> None:
    text = (hermes_home / "config.yaml").read_text()
    assert "provider: hermes_memory" in text
    assert "# my Hermes settings" in text and "default: some-model  # keep me" in text
    assert (hermes_home / "plugins/hermes_memory/__init__.py").exists()
    assert "memory_tiers" in (hermes_home / "skills/memory-recall/SKILL.md").read_text()
    install.install(hermes_home)  # again: nothing forgotten, nothing doubled
    install.uninstall(hermes_home)
    after = (hermes_home / "config.yaml").read_text()
    assert "provider: holographic" in after and "# keep me" in after
    assert not (hermes_home / "plugins/hermes_memory").exists()
    assert not (hermes_home / "skills/memory-recall").exists()


def test_install_refuses_a_broken_config_without_touching_it(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("memory: [unclosed\n")
    from hermes_memory.errors import StorageError

    with pytest.raises(StorageError, match="not valid YAML"):
        install.install(tmp_path)
    assert (tmp_path / "config.yaml").read_text() == "memory: [unclosed\n"


# -- against Hermes ------------------------------------------------------------------------------
@needs_hermes
def test_hermes_loader_discovers_and_loads_the_installed_provider(hermes_home: Path) -> None:
    from plugins.memory import discover_memory_providers

    found = {name: ok for name, _, ok in discover_memory_providers()}
    assert found.get("hermes_memory") is True
    provider = _load()
    assert provider.name == "hermes_memory"
    schema = provider.get_tool_schemas()[0]
    assert schema["name"] == "hermes_memory"
    actions = schema["parameters"]["properties"]["action"]["enum"]
    assert "recall" in actions and "consolidate" not in actions  # operator actions off


@needs_hermes
def test_sync_turn_then_prefetch_through_memory_manager(manager: Any) -> None:
    manager.sync_all(
        "Our staging cluster runs on Hetzner in Falkenstein.", "Noted.", session_id="s-1"
    )
    assert manager.flush_pending(timeout=30)
    block = manager.prefetch_all("where does the staging cluster run?", session_id="s-1")
    assert "Hetzner in Falkenstein" in block
    assert len(block) <= load_config().agent.prefetch_chars + 200
    assert manager.prefetch_all("zebra crossing origami", session_id="s-1") == ""


@needs_hermes
@pytest.mark.slow  # the spec's example needs meaning, not shared words: the real model
def test_recall_tool_call_returns_the_spec_json(manager: Any) -> None:
    stored = json.loads(
        manager.handle_tool_call(
            "hermes_memory",
            {
                "action": "fact_store",
                "content": "We migrated from PostgreSQL to MySQL last week",
                "category": "decision",
                "importance": 0.8,
                "scope": "/infrastructure/database",
            },
        )
    )
    assert stored["success"] is True
    out = json.loads(
        manager.handle_tool_call(
            "hermes_memory",
            {"action": "recall", "content": "What database are we using?", "limit": 5},
        )
    )
    top = out["results"][0]
    assert top["content"] == "We migrated from PostgreSQL to MySQL last week"
    # What "last week" means, worked out from when it was said (the content as stored).
    assert list(top["dates"]) == ["last week"] and top["dates"]["last week"].startswith("week of ")
    for key in ("scope", "importance", "score", "match_reasons", "evidence_gaps", "created_at"):
        assert key in top
    assert top["scope"] == "/infrastructure/database"


@needs_hermes
@pytest.mark.parametrize(
    ("args", "names"),
    [
        ({"action": "recall"}, "content"),
        ({"action": "recall", "content": "x", "limit": "five"}, "limit"),
        ({"action": "recall", "content": "x", "tiers": ["tier9"]}, "tiers"),
        ({"action": "fact_store", "content": "x", "importance": 3}, "importance"),
        ({"action": "fact_update", "id": "nope", "content": "y"}, "fact"),
        ({"action": "explode"}, "action"),
        ({"action": "consolidate"}, "action"),
        ({"action": "graph_path", "from_entity": "a"}, "to_entity"),
        ({"action": "fact_query", "colour": "red"}, "colour"),
    ],
)
def test_bad_tool_arguments_name_the_argument(manager: Any, args: dict, names: str) -> None:
    out = json.loads(manager.handle_tool_call("hermes_memory", args))
    assert out["success"] is False
    assert names in out["error"]


@needs_hermes
def test_curated_write_is_visible_to_the_next_prefetch(manager: Any, hermes_home: Path) -> None:
    api = MemoryAPI(load_config(hermes_home), embedder=HashingEmbedder(256))
    try:
        assert api.curated_add("Deploys go out on Thursdays only", "memory")["success"]
    finally:
        api.close()
    manager.on_memory_write("add", "memory", "Deploys go out on Thursdays only")
    block = manager.prefetch_all("when do deploys go out?")
    assert "Thursdays only" in block


@needs_hermes
def test_non_primary_contexts_never_write(hermes_home: Path) -> None:
    from agent.memory_manager import MemoryManager

    mm = MemoryManager()
    mm.add_provider(_load())
    mm.initialize_all(
        session_id="c-1", platform="cron", agent_context="cron", hermes_home=str(hermes_home)
    )
    mm.sync_all("remember the launch codes are blue", "ok", session_id="c-1")
    assert mm.flush_pending(timeout=30)
    out = json.loads(
        mm.handle_tool_call("hermes_memory", {"action": "fact_store", "content": "cron wrote this"})
    )
    assert out["success"] is False and "cron" in out["error"]
    mm.shutdown_all()
    db = sqlite3.connect(load_config(hermes_home).db_path)
    assert db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == 0


@needs_hermes
def test_a_full_agent_turn_shows_memory_context_and_answers_the_tool(hermes_home: Path) -> None:
    api = MemoryAPI(load_config(hermes_home), embedder=HashingEmbedder(256))
    try:
        api.fact_store("The billing service uses PostgreSQL 16", category="project")
    finally:
        api.close()
    env = {**os.environ, "HERMES_HOME": str(hermes_home)}
    run = subprocess.run(
        [sys.executable, str(AGENT_TURN), "Which database does the billing service use?"],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        cwd=hermes_home,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    chats = [r for r in out["requests"] if "messages" in r]
    first_user = [m for m in chats[0]["messages"] if m["role"] == "user"][-1]["content"]
    assert "<memory-context>" in first_user
    assert "PostgreSQL 16" in first_user
    assert any(t["function"]["name"] == "hermes_memory" for t in chats[0]["tools"])
    tool_msgs = [m for m in chats[-1]["messages"] if m["role"] == "tool"]
    answer = json.loads(tool_msgs[-1]["content"])
    assert answer["results"][0]["content"] == "The billing service uses PostgreSQL 16"
    assert out["final"] == "Billing runs on PostgreSQL 16."
    # The turn itself was stored, both sides, for the next turn's prefetch.
    db = sqlite3.connect(load_config(hermes_home).db_path)
    speakers = {r[0] for r in db.execute("SELECT speaker FROM episodes")}
    assert speakers == {"user", "assistant"}


# -- session import ------------------------------------------------------------------------------
# The two tables of Hermes' state.db that the session import reads.
STATE_SCHEMA = """CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT,
       session_key TEXT, chat_id TEXT, thread_id TEXT, started_at REAL NOT NULL);
   CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT,
       role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);"""


def _state_db(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.executescript(STATE_SCHEMA)
    db.execute("INSERT INTO sessions VALUES ('a', 'cli', NULL, NULL, NULL, NULL, 1.7e9)")
    db.execute(
        "INSERT INTO sessions VALUES ('b', 'telegram', 'u42', 'agent:tg:1', '1', NULL, 1.7e9)"
    )
    rows = [
        ("a", "user", "I adopted a greyhound called Biscuit"),
        ("a", "assistant", "Congratulations on Biscuit!"),
        ("a", "tool", '{"ok": true}'),
        ("a", "user", ""),
        ("b", "user", "Group note: restart the staging bot at noon"),
        ("b", "assistant", json.dumps([{"type": "text", "text": "Will do at noon."}])),
    ]
    for i, (sid, role, text) in enumerate(rows):
        db.execute(
            "INSERT INTO messages(session_id, role, content, timestamp) VALUES (?,?,?,?)",
            (sid, role, text, 1.7e9 + i),
        )
    db.commit()
    db.close()
    return path


def test_import_sessions_is_idempotent_and_keeps_each_chat_its_own(
    api: MemoryAPI, tmp_path: Path
) -> None:
    state = _state_db(tmp_path / "state.db")
    first = import_sessions(api, state).to_dict()
    assert first["imported"] == 4 and first["sessions"] == 2 and first["owners"] == 2
    again = import_sessions(api, state).to_dict()
    assert again["imported"] == 0 and again["skipped"] == again["messages"] == 5
    # The CLI user recalls their CLI history; the Telegram chat's turns stay there.
    hits = api.recall("what is my dog called?")["data"]
    assert any("Biscuit" in h["content"] for h in hits)
    assert not any("staging bot" in h["content"] for h in api.recall("staging bot")["data"])


def test_import_sessions_refuses_what_is_not_a_state_db(api: MemoryAPI, tmp_path: Path) -> None:
    from hermes_memory.errors import StorageError

    bad = tmp_path / "state.db"
    bad.write_text("not sqlite")
    with pytest.raises(StorageError):
        import_sessions(api, bad)
    with pytest.raises(StorageError, match="no Hermes session database"):
        import_sessions(api, tmp_path / "missing.db")


def _chat(hermes_home: Path, chat_id: str, user_id: str) -> Any:
    from agent.memory_manager import MemoryManager

    mm = MemoryManager()
    mm.add_provider(_load())
    mm.initialize_all(
        session_id=f"{user_id}-{chat_id}",
        platform="telegram",
        agent_context="primary",
        hermes_home=str(hermes_home),
        user_id=user_id,
        user_name=f"name-{user_id}",
        chat_id=chat_id,
    )
    return mm


@needs_hermes
def test_what_a_user_states_in_one_chat_is_a_fact_in_their_next(hermes_home: Path) -> None:
    a = _chat(hermes_home, "100", "u1")
    a.sync_all("Cool, thanks. I'm vegetarian, by the way.", "Noted!", session_id="u1-100")
    a.sync_all("haha that recipe looks great", "Enjoy!", session_id="u1-100")
    a.sync_all("I use Neovim for all my coding.", "Nice.", session_id="u1-100")
    assert a.flush_pending(timeout=30)
    a.sync_all("Actually, I switched from Neovim to Helix.", "Got it.", session_id="u1-100")
    assert a.flush_pending(timeout=30)
    a.shutdown_all()

    b = _chat(hermes_home, "200", "u1")  # the same user, another chat
    out = json.loads(
        b.handle_tool_call("hermes_memory", {"action": "fact_query", "formed": True, "limit": 10})
    )
    formed = [f["content"] for f in out["data"]]
    assert "I'm vegetarian, by the way." in formed
    assert not any("recipe" in f for f in formed)  # chit-chat stays a turn
    assert "vegetarian" in b.prefetch_all("what should I cook for dinner? vegetarian ideas")
    editors = json.loads(
        b.handle_tool_call("hermes_memory", {"action": "recall", "content": "Neovim editor"})
    )["results"]
    facts = [r["content"] for r in editors if r["source_type"] == "formation"]
    assert facts[0] == "I switched from Neovim to Helix."
    b.shutdown_all()

    other = _chat(hermes_home, "100", "u2")  # another user, even in the same chat
    out = json.loads(other.handle_tool_call("hermes_memory", {"action": "fact_query"}))
    assert out["data"] == []
    other.shutdown_all()


def test_standing_instructions_reach_every_chats_system_prompt(hermes_home: Path) -> None:
    a = _chat(hermes_home, "100", "u1")
    a.sync_all(
        "Yes, but first a rule: never suggest terraform apply without showing me the plan. "
        "And keep answers short, I read them on my phone.",
        "Understood.",
        session_id="u1-100",
    )
    assert a.flush_pending(timeout=30)
    a.shutdown_all()

    b = _chat(hermes_home, "200", "u1")  # the same user's next chat, about anything
    prompt = b.build_system_prompt()
    assert "standing instructions" in prompt
    assert "Keep answers short" in prompt and "terraform apply" in prompt
    b.shutdown_all()
    other = _chat(hermes_home, "300", "u2")  # another user's are not theirs
    assert "terraform" not in other.build_system_prompt()
    other.shutdown_all()


def test_sessions_of_one_process_share_one_memory(hermes_home: Path) -> None:
    from hermes_memory.hermes import shared
    from hermes_memory.hermes.provider import HermesMemoryProvider

    def session(chat: str, user: str) -> HermesMemoryProvider:
        p = HermesMemoryProvider()
        p.initialize(f"s-{chat}", hermes_home=str(hermes_home), platform="telegram",
                     user_id=user, chat_id=chat)  # fmt: skip
        return p

    before = shared.open_count()
    a, b, c = session("1", "u1"), session("2", "u1"), session("3", "u2")
    assert shared.open_count() == before + 1
    assert a._api is not None and b._api is not None and c._api is not None
    assert a._api.db is b._api.db is c._api.db
    assert a._api.semantic is c._api.semantic  # one model, one vector table
    assert a._api.owner != c._api.owner  # ... seen by each as itself
    a.sync_turn("I prefer dark roast coffee.", "Noted.", session_id="s-1")
    a.shutdown()
    assert shared.open_count() == before + 1  # the others still use it
    assert "dark roast" in b.prefetch("what coffee do I like? dark roast")
    assert c.prefetch("what coffee do I like? dark roast") == ""  # another user
    b.shutdown()
    c.shutdown()
    assert shared.open_count() == before


def test_uninstall_leaves_no_empty_memory_section(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("model:\n  default: some-model\n")
    install.install(tmp_path)
    assert "provider: hermes_memory" in (tmp_path / "config.yaml").read_text()
    install.uninstall(tmp_path)
    assert (tmp_path / "config.yaml").read_text() == "model:\n  default: some-model\n"
