"""Scope isolation, property-tested: whatever is stored by whom, no read, search,
update or delete by another user, agent or chat ever sees or touches it."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_memory import FrozenClock, MemoryAPI, load_config
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3.embedder import HashingEmbedder
from hermes_memory.tools import memory_tool

OWNERS = [
    Owner("cli", "default", "", ""),
    Owner("telegram", "default", "u1", "chat:1"),
    Owner("telegram", "default", "u1", "chat:2"),  # the same user in another chat
    Owner("telegram", "default", "u1", ""),  # ...and outside any chat
    Owner("telegram", "default", "u2", "chat:1"),  # another user in the same chat
    Owner("telegram", "coder", "u1", "chat:1"),  # another agent (profile)
    Owner("discord", "default", "u1", "chat:1"),  # another platform
]

KINDS = ("durable_fact", "scratch_fact", "turn", "event", "link")


@dataclass(frozen=True)
class Stored:
    owner: Owner
    kind: str
    marker: str
    uuid: str | None

    def visible_to(self, reader: Owner) -> bool:
        same = (self.owner.platform, self.owner.agent, self.owner.user_id) == (
            reader.platform,
            reader.agent,
            reader.user_id,
        )
        local = self.kind in ("scratch_fact", "turn") and self.owner.session != ""
        return same and (not local or self.owner.session == reader.session)


ops = st.lists(
    st.tuples(st.integers(0, len(OWNERS) - 1), st.sampled_from(KINDS)), min_size=1, max_size=10
)


def _store(view: MemoryAPI, kind: str, marker: str, n: int) -> str | None:
    text = f"Kestrel note {marker} about the orchard pump"
    if kind in ("durable_fact", "scratch_fact"):
        category = "project" if kind == "durable_fact" else "scratch"
        env = view.fact_store(text, category=category)
        assert env["success"], env["error"]
        return str(env["data"]["uuid"])
    if kind == "turn":
        env = view.ingest_turn("user", text, session_id=f"s{n}", message_id=f"m{n}")
        assert env["success"], env["error"]
        return str(env["data"]["uuid"])
    if kind == "event":
        env = view.timeline_add("decision", text)
        assert env["success"], env["error"]
        return None
    env = view.entity_link(f"Orchard{marker}", f"Pump{marker}", "depends_on")
    assert env["success"], env["error"]
    return None


def _markers(texts: list[str]) -> set[str]:
    return {w for t in texts for w in t.replace(",", " ").split() if w.startswith("mk")}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_no_reader_sees_or_touches_another_scopes_rows(plan: list[tuple[int, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = load_config(Path(tmp), env={})
        clock = FrozenClock("2026-03-01T12:00:00Z")
        base = MemoryAPI(config, clock=clock, embedder=HashingEmbedder(256))
        try:
            stored = []
            for n, (who, kind) in enumerate(plan):
                marker = f"mk{n}x"
                uuid = _store(base.as_owner(OWNERS[who]), kind, marker, n)
                stored.append(Stored(OWNERS[who], kind, marker, uuid))
            for reader in OWNERS:
                view = base.as_owner(reader)
                allowed = {s.marker for s in stored if s.visible_to(reader)}
                seen: list[str] = []
                seen += [
                    r["content"] for r in view.recall("Kestrel orchard pump", limit=50)["data"]
                ]
                seen += [f["content"] for f in view.fact_query("Kestrel", limit=50)["data"]]
                seen += [h["content"] for h in view.semantic_search("Kestrel orchard", 50)["data"]]
                seen += [e["title"] for e in view.timeline_query(query="Kestrel")["data"]]
                for ent in view.entity_query(limit=50)["data"]:
                    seen.append(ent["name"].replace("Orchard", "").replace("Pump", ""))
                tool = json.loads(
                    memory_tool.handle(view, {"action": "recall", "content": "Kestrel pump"})
                )
                seen += [r["content"] for r in tool["results"]]
                leaked = _markers(seen) - allowed
                assert not leaked, f"{reader} saw {leaked}"
                for s in stored:
                    if s.uuid is None or s.visible_to(reader) or s.kind == "turn":
                        continue
                    assert not view.fact_get(s.uuid)["success"]
                    assert not view.fact_update(s.uuid, content="hijacked")["success"]
                    assert not view.fact_delete(s.uuid)["success"]
            # ...and nothing was changed by those attempts.
            facts = base.db.query("SELECT content, deleted_at FROM facts")
            assert all(r["deleted_at"] is None and "hijacked" not in r["content"] for r in facts)
        finally:
            base.close()


def test_a_fact_moved_to_scratch_stays_in_its_chat(tmp_path: Path) -> None:
    cfg = load_config(tmp_path, env={})
    chat_a = Owner("telegram", "default", "u1", "chat:1")
    chat_b = Owner("telegram", "default", "u1", "chat:2")
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=chat_a) as api:
        fact = api.fact_store("The staging password rotates on Mondays", category="ops")["data"]
        moved = api.fact_update(fact["uuid"], category="scratch")
        assert moved["success"]
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=chat_b) as api:
        assert not api.fact_get(fact["uuid"])["success"]
        assert api.fact_query("staging password")["data"] == []
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=chat_a) as api:
        assert api.fact_get(fact["uuid"])["success"]
        api.fact_update(fact["uuid"], category="ops")  # and back: the owner's again
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=chat_b) as api:
        assert api.fact_get(fact["uuid"])["success"]


def test_the_tools_stats_show_only_the_owners_own_memory(tmp_path: Path) -> None:
    cfg = load_config(tmp_path, env={})
    other = Owner("telegram", "default", "u2", "chat:9")
    me = Owner("telegram", "default", "u1", "chat:1")
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=other) as api:
        for i in range(5):
            api.fact_store(f"Someone else's fact {i}", category="general")
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=me) as api:
        api.fact_store("My only fact", category="general")
        shown = json.loads(memory_tool.handle(api, {"action": "stats"}))
    text = json.dumps(shown)
    assert shown["success"] and shown["data"]["tier2"]["facts"] == 1
    assert str(tmp_path) not in text and "db_path" not in text


def test_a_name_first_said_in_one_chat_stays_in_that_chat_until_stated_durably(
    tmp_path: Path,
) -> None:
    cfg = load_config(tmp_path, env={})
    a_owner = Owner("telegram", "default", "u1", "chat:1")
    b_owner = Owner("telegram", "default", "u1", "chat:2")
    with MemoryAPI(cfg, embedder=HashingEmbedder(64), owner=a_owner) as a:
        b = a.as_owner(b_owner)
        a.ingest_turn("user", "Zephyrine Okafor reviewed the Quillmark rollout.",
                      session_id="s1", message_id="1")  # fmt: skip
        a.fact_store("Brontide Labs owes us the invoice.", category="scratch")

        def names(view: MemoryAPI) -> set[str]:
            return {e["name"] for e in json.loads(json.dumps(view.entity_query("")["data"]))}

        assert {"Zephyrine Okafor", "Quillmark", "Brontide Labs"} <= names(a)
        assert not {"Zephyrine Okafor", "Quillmark", "Brontide Labs"} & names(b)
        # Said durably (a project fact) in chat 1: the owner's from now on, in every chat.
        a.fact_store("Quillmark is our release tool.", category="project")
        assert "Quillmark" in names(b)
        assert "Zephyrine Okafor" not in names(b)
        b.ingest_turn("user", "Zephyrine Okafor joined today.", session_id="s2",
                      message_id="1")  # fmt: skip
        assert "Zephyrine Okafor" in names(b)  # chat 2's own now, and still chat 1's


def test_another_owners_better_matches_do_not_crowd_out_a_search(tmp_path: Path) -> None:
    # Another user's 150 turns outrank this owner's two: the lexical search widens its
    # window past them instead of answering short.
    cfg = load_config(tmp_path, env={}, overrides={"tier3": {"enabled": False}})
    other = Owner("telegram", "default", "u2", "chat:9")
    me = Owner("telegram", "default", "u1", "chat:1")
    with MemoryAPI(cfg, owner=other) as api:
        for i in range(150):
            api.ingest_turn(
                "user", f"orchard pump orchard pump {i}", session_id="s", message_id=f"o{i}"
            )
    with MemoryAPI(cfg, owner=me) as api:
        for i in range(2):
            text = f"the orchard pump needs a new seal, note {i} of many words here"
            api.ingest_turn("user", text, session_id="s", message_id=f"m{i}")
        found = api.episodes.search(api.owner, "orchard pump", limit=2)
    assert sorted(h.episode.text[-22:] for h in found) == [
        "note 0 of many words here"[-22:],
        "note 1 of many words here"[-22:],
    ]
