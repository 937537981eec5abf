"""Who a person is to the user ("my brother Tomas"): the words kept as their aliases
(text/relatives.py, tier2/roles.py) and what they find."""

from __future__ import annotations

import json

import pytest

from hermes_memory import MemoryAPI, unwrap
from hermes_memory.api import graph_ops
from hermes_memory.text.extract import extract
from hermes_memory.text.mentions import find_mentions
from hermes_memory.text.relatives import roles

T0 = 1_770_000_000.0  # before the test clock's now
DAY = 86_400.0


@pytest.mark.parametrize(
    ("said", "who", "words"),
    [
        ("My brother Tomas lives in Porto.", "Tomas", ("my brother",)),
        ("Tomas is my younger brother.", "Tomas", ("my brother",)),
        ("Elena, my manager, wants a report.", "Elena", ("my manager", "my boss")),
        ("My manager is Elena.", "Elena", ("my manager", "my boss")),
        ("I met my mum, Rosa, for lunch.", "Rosa", ("my mother", "my mum", "my mom")),
    ],
)
def test_a_relative_or_boss_named_by_the_user(said: str, who: str, words: tuple[str, ...]) -> None:
    found = roles(said, find_mentions(said))
    assert set(words) <= set(found[who])


@pytest.mark.parametrize(
    "said",
    [
        "Elena was my manager.",  # no longer
        "My former manager Elena left.",
        "My friend Bob is here.",  # one of many
        "My brother's friend Tomas called.",
        "Tomas has a brother.",
    ],
)
def test_no_words_where_the_role_is_past_shared_or_someone_elses(said: str) -> None:
    assert roles(said, find_mentions(said)) == {}


def test_a_named_speakers_relatives_are_not_the_users() -> None:
    assert extract("My brother Tomas lives in Porto.").roles == {"Tomas": ("my brother",)}
    assert extract("My brother Tomas lives in Porto.", me="Caroline").roles == {}


def _say(api: MemoryAPI, text: str, at: float, n: int) -> None:
    api.ingest_turn("user", text, session_id="s1", message_id=f"m{n}", timestamp=at)


def test_where_does_my_brother_live_is_answered_through_the_graph(api: MemoryAPI) -> None:
    _say(api, "My brother Tomas lives in Porto.", T0, 1)
    _say(api, "Tomas moved to Coimbra, so we'll visit him there.", T0 + DAY, 2)
    _say(api, "Coimbra has a lovely old university.", T0 + 2 * DAY, 3)
    [first, *_] = unwrap(api.recall("where does my brother live?"))
    assert first["content"].startswith("user: Tomas moved to Coimbra")
    assert first["graph_path"] == "Tomas -lives_in-> Coimbra"
    [tomas] = unwrap(api.entity_query("my brother"))
    assert tomas["name"] == "Tomas"


def _graph_finds(api: MemoryAPI, words: str) -> list[str]:
    graph = graph_ops.ready(api)  # brought up to date with the store
    names = graph.names()
    return [names[uuid] for uuid in graph.find([words])]


def test_the_words_go_to_the_latest_holder(api: MemoryAPI) -> None:
    _say(api, "My manager Elena wants the report by Friday.", T0, 1)
    assert _graph_finds(api, "my manager") == ["Elena"]
    _say(api, "My new manager is Bob.", T0 + DAY, 2)
    [bob] = unwrap(api.entity_query("my manager"))
    assert bob["name"] == "Bob"
    assert _graph_finds(api, "my manager") == ["Bob"]  # the graph, refreshed in place
    [elena] = unwrap(api.entity_query("Elena"))
    assert "my manager" not in elena["aliases"]
    moves = api.db.query("SELECT diff FROM audit_log WHERE action = 'entity_update' ORDER BY id")
    reasons = [json.loads(m["diff"]).get("reason") for m in moves]
    assert reasons.count("my manager") == 3  # given to Elena, taken, given to Bob
    # Read again, nothing moves.
    _say(api, "My new manager is Bob.", T0 + 2 * DAY, 3)
    after = api.db.query("SELECT count(*) AS n FROM audit_log WHERE action = 'entity_update'")
    assert after[0]["n"] == len(moves)
