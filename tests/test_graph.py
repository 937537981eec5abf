"""The NetworkX knowledge graph: derived from SQLite, kept in step, persisted, queried."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api import graph_ops
from hermes_memory.api.graph_recall import QUERY_NAME_CHARS
from hermes_memory.config import MemoryConfig
from hermes_memory.errors import HermesMemoryError
from hermes_memory.graph import word_use
from hermes_memory.graph.chain import MAX_CLAUSES, chains
from hermes_memory.graph.export import TYPE_COLOURS, packed_layout
from hermes_memory.graph.knowledge_graph import KnowledgeGraph, hub_damping
from hermes_memory.graph.word_use import WordUse
from hermes_memory.tier2 import Owner
from hermes_memory.tier3.embedder import HashingEmbedder

FACTS = [
    "Alice Chen owns the billing service",
    "The billing service depends on Kafka",
    "Bob works on the checkout project",
    "The checkout project depends on Redis",
]


def _store(api: MemoryAPI, facts: list[str] = FACTS) -> None:
    for text in facts:
        unwrap(api.fact_store(text))


def _shape(g: nx.MultiDiGraph) -> tuple[dict[str, str], set[tuple[str, str, str, str]]]:
    nodes = {u: d["name"] for u, d in g.nodes(data=True)}
    edges = {(u, v, k, d["relation_type"]) for u, v, k, d in g.edges(keys=True, data=True)}
    return nodes, edges


def test_incremental_sync_equals_a_rebuild(api: MemoryAPI) -> None:
    _store(api, FACTS[:2])
    unwrap(api.graph_traverse("Alice Chen", 1))  # graph built now
    _store(api, FACTS[2:])
    unwrap(api.entity_link("Bob", "Alice Chen", "knows"))
    live = api.knowledge_graph
    assert live is not None
    live.sync()
    fresh = KnowledgeGraph(api.db, api.owner, api.config.graph_path / "fresh")
    fresh.rebuild()
    assert _shape(live.g) == _shape(fresh.g)
    assert {"Alice Chen", "billing", "Kafka", "Bob", "checkout", "Redis"} <= set(
        _shape(live.g)[0].values()
    )


def test_writes_of_another_process_reach_the_graph(home: Path, clock: FrozenClock) -> None:
    cfg = load_config(home, env={})
    with (
        MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as reader,
        MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as writer,
    ):
        _store(writer, FACTS[:1])
        assert [r["name"] for r in unwrap(reader.graph_traverse("Alice Chen", 1))] == ["billing"]
        _store(writer, FACTS[1:2])
        reached = {r["name"]: r["depth"] for r in unwrap(reader.graph_traverse("Alice Chen", 2))}
        assert reached == {"billing": 1, "Kafka": 2}


def _rebuilt(cfg: MemoryConfig, clock: FrozenClock) -> tuple[dict[str, Any], KnowledgeGraph]:
    """The facts stored and the graph rebuilt (and saved) in a profile that is then
    closed: what ``graph_rebuild`` said, and the graph it built."""
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        _store(api)
        done = unwrap(api.graph_rebuild())
        assert api.knowledge_graph is not None
        return done, api.knowledge_graph


def test_graph_is_persisted_atomically_and_survives_a_corrupt_file(
    home: Path, clock: FrozenClock
) -> None:
    cfg = load_config(home, env={})
    built, _ = _rebuilt(cfg, clock)
    path = Path(built["path"])
    assert path.exists()
    assert not list(path.parent.glob(".graph-*"))  # no temp file left behind
    cached = json.loads(path.read_bytes())
    assert cached["seq"] > 0 and len(cached["nodes"]) == built["nodes"]
    path.write_text('{"format_version": 2, "nodes": [', encoding="utf-8")
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        reached = unwrap(api.graph_traverse("Alice Chen", 2))
        assert {r["name"] for r in reached} == {"billing", "Kafka"}
    assert len(json.loads(path.read_bytes())["nodes"]) == built["nodes"]  # rewritten on close


def test_the_cache_loads_the_same_graph_and_replaces_the_graphml_one(
    home: Path, clock: FrozenClock
) -> None:
    cfg = load_config(home, env={})
    done, built = _rebuilt(cfg, clock)
    path = Path(done["path"])
    # Format 1's GraphML cache, beside the new one.
    legacy = path.with_name(path.name.replace("graph-cache", "knowledge_graph")).with_suffix(
        ".graphml"
    )
    legacy.write_text("<graphml/>", encoding="utf-8")
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        loaded = KnowledgeGraph(api.db, api.owner, path.parent)
        assert loaded._load() and loaded.seq == built.seq
        assert nx.utils.graphs_equal(loaded.g, built.g)
        assert loaded.find(["alice chen"]) == built.find(["Alice Chen"])
        loaded.save()
    assert not legacy.exists()


def test_a_deleted_relation_and_a_hard_deleted_entity_leave_the_graph(api: MemoryAPI) -> None:
    rel = unwrap(api.entity_link("Carol", "Dave", "knows"))
    unwrap(api.entity_link("Dave", "Erin", "knows"))
    assert {r["name"] for r in unwrap(api.graph_traverse("Carol", 2))} == {"Dave", "Erin"}
    with api.db.transaction() as conn:
        conn.execute("UPDATE relations SET deleted_at = 1 WHERE uuid = ?", (rel["uuid"],))
        conn.execute(
            "DELETE FROM relations WHERE to_entity = (SELECT uuid FROM entities "
            "WHERE name = 'Erin')"
        )
        conn.execute(
            "DELETE FROM entity_aliases WHERE entity_id = "
            "(SELECT id FROM entities WHERE name = 'Erin')"
        )
        conn.execute("DELETE FROM entities WHERE name = 'Erin'")
    assert unwrap(api.graph_traverse("Carol", 2)) == []
    assert "Erin" not in {d["name"] for _, d in api.knowledge_graph.g.nodes(data=True)}  # type: ignore[union-attr]


def test_traverse_filters_relations_and_skips_ended_ones(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    _store(api)
    only_deps = unwrap(api.graph_traverse("billing", 1, relation_filter="depends_on"))
    assert [r["name"] for r in only_deps] == ["Kafka"]
    path = only_deps[0]["path"][0]
    assert path["from"] == "billing" and path["to"] == "Kafka" and path["relation"] == "depends_on"
    assert path["evidence"].startswith("fact:")
    unwrap(api.fact_store("The orders service uses PostgreSQL"))
    clock.advance(30 * 86_400)
    unwrap(api.fact_store("We migrated the orders service from PostgreSQL to MySQL"))
    now = {r["name"] for r in unwrap(api.graph_traverse("orders", 1, "uses"))}
    ever = {
        r["name"] for r in unwrap(api.graph_traverse("orders", 1, "uses", include_invalid=True))
    }
    assert "PostgreSQL" not in now and "PostgreSQL" in ever


def test_shortest_path_and_its_errors(api: MemoryAPI) -> None:
    _store(api)
    unwrap(api.entity_link("Bob", "Alice Chen", "knows"))
    path = unwrap(api.graph_shortest_path("Kafka", "Redis"))
    names = ["Kafka", "billing", "Alice Chen", "Bob", "checkout", "Redis"]
    assert [p["name"] for p in path] == names
    assert path[0]["via"] is None and path[1]["via"]["relation"] == "depends_on"
    unwrap(api.entity_ensure("Zed", "person"))
    lonely = api.graph_shortest_path("Kafka", "Zed")
    assert lonely["data"] == [] and lonely["meta"]["connected"] is False
    missing = api.graph_shortest_path("Kafka", "Nobody Known")
    assert not missing["success"] and "Nobody Known" in missing["error"]
    assert not api.graph_traverse("Kafka", depth=9)["success"]


def test_an_entity_is_found_by_the_words_a_fact_used_for_it(api: MemoryAPI) -> None:
    # The write path stores "the billing service" as "billing"; the words as written
    # must reach it from every entry point, not create a second entity.
    _store(api)
    unwrap(api.entity_link("billing service", "Postgres", "depends_on"))
    billing = [e for e in unwrap(api.entity_query("billing")) if e["name"] == "billing"]
    assert len(billing) == 1 and "billing service" in billing[0]["aliases"]
    assert not [e for e in unwrap(api.entity_query("billing service")) if e["name"] != "billing"]
    reached = {r["name"] for r in unwrap(api.graph_traverse("the billing service", depth=1))}
    assert {"Alice Chen", "Kafka", "Postgres"} <= reached
    missing = api.graph_traverse("Nobody Known", depth=1)
    assert missing["error"].endswith("no entity named 'Nobody Known'")


def test_an_entity_is_found_by_a_word_of_its_name_when_only_one_has_it(api: MemoryAPI) -> None:
    _store(api, [*FACTS, "The payments-api depends on the ledger-service"])
    # a first name for the whole, a part of an identifier
    assert unwrap(api.graph_traverse("Alice", depth=1))[0]["name"] == "billing"
    path = unwrap(api.graph_shortest_path("payments", "ledger"))
    assert [p["name"] for p in path] == ["payments-api", "ledger-service"]
    unwrap(api.entity_ensure("Alice Park", "person"))
    both = api.graph_traverse("Alice", depth=1)
    assert not both["success"] and both["meta"]["error_detail"]["code"] == "ambiguous"
    assert "Alice Chen" in both["error"] and "Alice Park" in both["error"]


def test_centrality_and_communities(api: MemoryAPI) -> None:
    _store(api)
    unwrap(api.entity_link("Bob", "Alice Chen", "knows"))
    for algorithm in ("betweenness", "pagerank", "degree"):
        top = unwrap(api.graph_central_entities(3, algorithm=algorithm))
        assert len(top) == 3 and top[0]["score"] >= top[-1]["score"]
    assert unwrap(api.graph_central_entities(1))[0]["name"] in {"Alice Chen", "Bob"}
    assert not api.graph_central_entities(3, algorithm="magic")["success"]
    groups = unwrap(api.graph_communities())
    assert groups == unwrap(api.graph_communities())  # fixed seed: stable
    members = [set(g["members"]) for g in groups]
    assert any({"billing", "Kafka"} <= m for m in members)
    assert not any({"Kafka", "Redis"} <= m for m in members)  # two separate stacks
    assert sum(g["size"] for g in groups) == 6


def test_hub_damping_falls_with_degree() -> None:
    assert hub_damping(1) == hub_damping(2) == 1.0
    assert 1.0 > hub_damping(5) > hub_damping(50) > hub_damping(500) > 0.1


def test_exports_are_complete_and_escape_names(api: MemoryAPI, tmp_path: Path) -> None:
    _store(api)
    unwrap(api.entity_ensure("</script><b>x</b>", "concept"))
    unwrap(api.entity_link("</script><b>x</b>", "Kafka", "related_to"))
    out = {}
    for fmt in ("graphml", "json", "html"):
        out[fmt] = unwrap(api.graph_export(fmt, tmp_path / f"g.{fmt}"))
    nodes = out["json"]["nodes"]
    doc = json.loads((tmp_path / "g.json").read_text())
    assert len(doc["nodes"]) == nodes == nx.read_graphml(tmp_path / "g.graphml").number_of_nodes()
    html = (tmp_path / "g.html").read_text()
    assert "</script><b>" not in html and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    ).replace('"http://www.w3.org/2000/svg"', "")
    assert not api.graph_export("pdf")["success"]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _browser() -> str:
    browser = _chromium()
    if browser is None:
        if os.environ.get("REQUIRE_CHROMIUM_TESTS"):
            pytest.fail("chromium is required (CI installs it) but was not found")
        pytest.skip("chromium is not installed")
    return browser


def _headless(page: Path, tmp_path: Path, *args: str) -> str:
    """Run headless Chromium on ``page`` with ``args``; its stdout."""
    return subprocess.run(
        [
            _browser(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=3000",
            *args,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout


def test_html_export_draws_every_node_in_headless_chromium(api: MemoryAPI, tmp_path: Path) -> None:
    _browser()
    _store(api)
    page = tmp_path / "graph.html"
    exported = unwrap(api.graph_export("html", page))
    dom = _headless(page, tmp_path, "--dump-dom")
    assert 'data-ready="true"' in dom
    assert f'data-drawn-nodes="{exported["nodes_shown"]}"' in dom
    assert dom.count('class="node"') == exported["nodes"] == 6
    assert "Alice Chen" in dom and dom.count('class="edge') == 4


def _two_hundred(api: MemoryAPI) -> None:
    """A 200-entity graph: one cluster of 120 around a few hubs, 25 small groups of
    2-4, and the rest alone."""
    for i in range(120):
        unwrap(api.entity_ensure(f"service-{i:03d}", "service"))
        if i:
            hub = f"service-{(i - 1) // 6:03d}" if i % 3 else f"service-{i // 2:03d}"
            unwrap(api.entity_link(f"service-{i:03d}", hub, "depends_on"))
    n = 120
    for group in range(25):
        size = 2 + group % 3
        names = [f"Team {group} member {k}" for k in range(size)]
        for name in names:
            unwrap(api.entity_ensure(name, "person"))
        for a, b in zip(names, names[1:], strict=False):
            unwrap(api.entity_link(a, b, "knows"))
        n += size
    for i in range(200 - n):
        unwrap(api.entity_ensure(f"Lonely tool {i}", "tech"))


def test_a_200_node_graph_page_is_readable_in_headless_chromium(
    api: MemoryAPI, tmp_path: Path
) -> None:
    """Labels never overprint (the browser measures them), every node is on the page,
    and the screenshot shows the drawing spread over the canvas, not in a corner."""
    from PIL import Image

    _browser()
    _two_hundred(api)
    page = tmp_path / "graph.html"
    exported = unwrap(api.graph_export("html", page))
    assert exported["nodes"] == 200
    dom = _headless(page, tmp_path, "--dump-dom")
    assert 'data-ready="true"' in dom and 'data-drawn-nodes="200"' in dom
    assert 'data-label-overlaps="0"' in dom
    shown = int(dom.split('data-labels-shown="')[1].split('"')[0])
    assert 40 <= shown < 200  # many named, the crowded ones left to hover
    xs = [float(v) for v in re.findall(r'class="node" cx="([\d.]+)"', dom)]
    assert len(xs) == 200 and all(0 < x < 1000 for x in xs)
    shot = tmp_path / "graph.png"
    _headless(page, tmp_path, f"--screenshot={shot}", "--window-size=1400,900")
    image = Image.open(shot).convert("RGB")
    width, height = image.size
    # The drawing is the canvas right of the 280-pixel side panel; find the pixels
    # in the colours the page gives node types.
    colours = {tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in TYPE_COLOURS.values()}
    hits = [
        (x, y)
        for x in range(300, width, 3)
        for y in range(0, height, 3)
        if image.getpixel((x, y)) in colours
    ]
    assert len(hits) > 500
    span_x = (max(x for x, _ in hits) - min(x for x, _ in hits)) / (width - 300)
    span_y = (max(y for _, y in hits) - min(y for _, y in hits)) / height
    assert span_x > 0.6 and span_y > 0.6


def test_components_are_packed_not_flung_apart() -> None:
    g = nx.Graph()
    nx.add_path(g, range(60))
    g.add_edges_from([(100, 101), (102, 103), (103, 104)])
    g.add_nodes_from(range(200, 230))
    pos = packed_layout(g)
    assert set(pos) == set(g) and all(-1 <= x <= 1 and -1 <= y <= 1 for x, y in pos.values())

    def nearest(u: int) -> float:
        return min(math.dist(pos[u], pos[v]) for v in g if v != u)

    # A node alone sits near other nodes, not at the edge of an empty page ...
    assert max(nearest(u) for u in range(200, 230)) < 0.5
    # ... and no two components share ground.
    boxes = [
        [min(pos[u][k] for u in c) for k in (0, 1)] + [max(pos[u][k] for u in c) for k in (0, 1)]
        for c in nx.connected_components(g)
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1]


def test_cli_graph_commands(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_cli import call

    for text in FACTS:
        assert call(home, capsys, "remember", text)[0] == 0
    code, out, _ = call(home, capsys, "graph", "traverse", "Alice Chen", "--depth", "2")
    assert code == 0 and "Kafka" in out and "depends_on" in out
    code, out, _ = call(home, capsys, "graph", "path", "Alice Chen", "Kafka")
    assert code == 0 and out.splitlines() == [
        "Alice Chen -owns-> billing",
        "billing -depends_on-> Kafka",
    ]
    for args in (["central", "--algorithm", "pagerank"], ["communities"], ["rebuild"]):
        assert call(home, capsys, "graph", *args)[0] == 0
    target = home / "g.html"
    code, out, _ = call(home, capsys, "graph", "export", "--format", "html", "-o", str(target))
    assert code == 0 and target.exists()
    code, out, err = call(home, capsys, "graph", "path", "Alice Chen", "Nobody")
    assert code == 1 and err.count("\n") == 1 and "Nobody" in err


def test_multi_hop_recall_reaches_a_fact_linked_only_through_an_entity(api: MemoryAPI) -> None:
    _store(
        api,
        [
            "Alice Chen owns the billing service",
            "The billing service depends on Kafka",
            "Lunch on Friday is pizza",
        ],
    )
    results = unwrap(api.recall("What do we know about Alice Chen?", limit=5))
    contents = [r["content"] for r in results]
    assert contents[:2] == [
        "Alice Chen owns the billing service",
        "The billing service depends on Kafka",
    ]
    assert "graph" in results[1]["match_reasons"] and "lexical" not in results[1]["match_reasons"]
    assert "Lunch on Friday is pizza" not in contents
    plain = unwrap(api.recall("What do we know about Alice Chen?", ["tier2", "tier3"], limit=5))
    assert "The billing service depends on Kafka" not in [r["content"] for r in plain]


TWO_HOPS = [
    "The payments-api depends on the ledger-service.",
    "The ledger-service stores its data in CockroachDB.",
    "The ledger-service is written in Go.",
    "The billing database runs PostgreSQL 14.",
    "The search-service keeps its index in Elasticsearch.",
    "payments-api is deployed with ArgoCD.",
    "The notification-service depends on Kafka.",
    "The analytics warehouse uses Snowflake for storage.",
    "We use S3 for object storage of invoices.",
]


def test_a_chained_question_is_answered_through_its_bridge(
    api: MemoryAPI, home: Path, clock: FrozenClock
) -> None:
    _store(api, TWO_HOPS)
    query = "Where does the service that payments-api depends on store its data?"
    results = unwrap(api.recall(query, limit=5))
    assert [r["content"] for r in results[:2]] == TWO_HOPS[1::-1]  # answer, then its link
    assert results[0]["graph_path"] == (
        "payments-api -depends_on-> ledger-service -uses-> CockroachDB"
    )
    assert results[1]["graph_path"] == "payments-api -depends_on-> ledger-service"
    # Asked of the graph alone, what is stated about the bridge comes first.
    alone = unwrap(api.recall(query, ["graph"], limit=5))
    assert {r["content"] for r in alone[:2]} == {TWO_HOPS[1], TWO_HOPS[2]}
    # The same clause without its "that", as people ask it; a clause naming its object
    # ("depend on the ledger-service", "depend on ledger") asks no chain.
    for bare in (
        "Where does the service payments-api depends on store its data?",
        "Where is the data of the service payments-api depends on stored?",
    ):
        assert unwrap(api.recall(bare, limit=5))[0]["graph_path"] == (
            "payments-api -depends_on-> ledger-service -uses-> CockroachDB"
        )
    for named in (
        "Does the new payments-api depend on the ledger-service?",
        "Does the new payments-api depend on ledger?",
    ):
        assert not any("-uses->" in r.get("graph_path", "") for r in unwrap(api.recall(named)))
    # The chain follows the relation the clause names, in its direction: nothing
    # depends on payments-api, so this question has no bridge.
    other = unwrap(api.recall("What does the service that depends on payments-api use?"))
    assert not any("graph_path" in r for r in other)
    inward = unwrap(api.recall("How is the service that depends on the ledger-service deployed?"))
    assert inward[0]["content"] == TWO_HOPS[5]  # payments-api, reached through its link
    # Asked after a long paste, the question's names are still read (a long query's
    # opening and close are).
    paste = "INFO worker finished the nightly batch without errors. " * 300
    pasted = unwrap(api.recall(f"{paste}\n{query}", limit=5))
    assert len(paste) > 4 * QUERY_NAME_CHARS
    assert pasted[0]["graph_path"] == (
        "payments-api -depends_on-> ledger-service -uses-> CockroachDB"
    )
    # "The person who ...": the bridge is whoever stands in the relation.
    _store(api, ["Alice owns the billing-service.", "Alice works at Stripe.", "Bob works at Acme."])
    who = unwrap(api.recall("Where does the person who owns the billing-service work?"))
    assert who[0]["content"] == "Alice works at Stripe."
    assert who[0]["graph_path"] == "billing-service <-owns- Alice -works_at-> Stripe"
    # The seed must be the verb's own object: a name further on is not related by it.
    loose = "Is there an app that needs to run fast without the ledger-service?"
    assert not any("graph_path" in r for r in unwrap(api.recall(loose)))
    env = {"HERMES_MEMORY_RECALL__CHAIN_BOOST": "0"}  # the ablation is a setting
    with MemoryAPI(load_config(home, env=env), clock=clock, embedder=HashingEmbedder()) as off:
        plain = unwrap(off.recall(query, limit=5))
    assert plain[0]["content"] != TWO_HOPS[1]


ABOUT_ME = [
    "I lived in Lisbon for six years.",
    "I moved to Berlin last March and now work at Spotify.",
    "The Lisbon office had a great view of the river.",
    "Berlin winters are long; I bought a heavier coat.",
    "Priya's manager is Tomasz.",
    "Priya works at Zalando.",
    "I work on the recommendations team with Priya.",
    "The team lives by its on-call rota.",
]


def test_a_direct_question_is_answered_by_the_relation_it_names(api: MemoryAPI) -> None:
    _store(api, ABOUT_ME)

    def first(query: str) -> dict[str, Any]:
        return unwrap(api.recall(query, limit=5))[0]

    assert first("Where did I say I live?")["graph_path"] == "the user -lives_in-> Berlin"
    home = first("Where do I live now?")
    assert home["content"] == ABOUT_ME[1] and "graph" in home["match_reasons"]
    assert home["graph_path"] == "the user -lives_in-> Berlin"
    assert not home["evidence_gaps"]  # the relation followed says "lives"
    assert first("Which company am I working for?")["graph_path"] == "the user -works_at-> Spotify"
    assert first("Who is Priya's manager?")["graph_path"] == "Priya -reports_to-> Tomasz"
    assert first("Where does Priya work?")["graph_path"] == "Priya -works_at-> Zalando"
    # Working *with* someone, or moving *from* somewhere, names no such relation.
    for query in ("Who do I work with?", "Where did I move from?"):
        assert not any("graph_path" in r for r in unwrap(api.recall(query, limit=5)))
    # A later move ends the earlier one: the question is answered by the new home.
    _store(api, ["I relocated to Munich this week."])
    assert first("Where do I live?")["graph_path"] == "the user -lives_in-> Munich"
    # A home said in passing, in a phrase before the "I" it belongs to.
    _store(api, ["As someone living in Porto, Portugal, I want a quiet laptop."])
    assert first("Where do I live?")["graph_path"] == "the user -lives_in-> Porto"
    # A place of study is a role held there ("a PhD student at TU Delft").
    _store(api, ["Ana is a second-year PhD student at TU Delft."])
    for query in ("Where does Ana study?", "Which university does Ana attend?"):
        assert first(query)["graph_path"] == "Ana -works_at-> TU Delft"


def test_a_possessed_role_is_a_bridge_when_the_question_asks_on(api: MemoryAPI) -> None:
    _store(
        api,
        [
            "Priya's manager is Tomasz.",
            "Tomasz works at Zalando.",
            "Tomasz lives in Warsaw.",
            "My manager is Dana.",
            "Dana works on the search-service.",
            "Zalando sells shoes online.",
        ],
    )

    def first(query: str) -> dict[str, Any]:
        return unwrap(api.recall(query, limit=5))[0]

    # The relation the question's verb names answers; the bridge's others come after
    # the link.
    for verb, answer in (("work", "-works_at-> Zalando"), ("live", "-lives_in-> Warsaw")):
        ranked = unwrap(api.recall(f"Where does Priya's manager {verb}?", limit=5))
        paths = [r.get("graph_path") for r in ranked[:3]]
        other = "-lives_in-> Warsaw" if verb == "work" else "-works_at-> Zalando"
        assert paths == [
            f"Priya -reports_to-> Tomasz {answer}",
            "Priya -reports_to-> Tomasz",
            f"Priya -reports_to-> Tomasz {other}",
        ]
    assert first("What does my manager work on?")["graph_path"] == (
        "the user -reports_to-> Dana -works_on-> search-service"
    )
    # A question asked over and over (a runaway prompt) is answered once; of a long
    # run of clauses only the first and last few are read.
    graph = graph_ops.ready(api)
    asked_twice = chains(graph, "Where does Priya's manager work? " * 50)
    assert len(asked_twice) == len(set(asked_twice)) == 3  # two answers and their link
    filler = "Where does Zed's manager work? " * (2 * MAX_CLAUSES)  # no Zed is known
    middle = f"{filler}Where does Priya's manager work? {filler}"
    assert chains(graph, middle) == []
    assert chains(graph, f"{filler}Where does Priya's manager work?") == asked_twice
    # Asking who holds the role goes no further than the role.
    assert first("Who is Priya's manager?")["graph_path"] == "Priya -reports_to-> Tomasz"
    assert not any(
        "-works_at->" in r.get("graph_path", "")
        for r in unwrap(api.recall("Who is Priya's manager?", limit=5))
    )


@pytest.mark.slow
def test_the_two_hop_question_is_answered_first_with_the_real_model(tmp_path: Path) -> None:
    with MemoryAPI(load_config(tmp_path / "h"), clock=FrozenClock("2026-03-01T12:00:00Z")) as api:
        _store(api, [*TWO_HOPS, *ABOUT_ME])
        query = "What storage does the service that payments-api depends on use?"
        results = unwrap(api.recall(query, limit=5))
        home = unwrap(api.recall("Where do I live now?", limit=5))
    assert [r["content"] for r in results[:2]] == TWO_HOPS[1::-1]
    assert home[0]["content"] == ABOUT_ME[1]


def test_recall_of_the_graph_alone_ranks_by_path(api: MemoryAPI) -> None:
    # Asked for the graph tier only, recall answers with the memories stating the
    # named entity's relations, nearest first, explained by the graph alone.
    _store(api, [*FACTS, "Lunch on Friday is pizza"])
    results = unwrap(api.recall("What do we know about Alice Chen?", ["graph"], limit=5))
    contents = [r["content"] for r in results]
    assert contents[:2] == [
        "Alice Chen owns the billing service",
        "The billing service depends on Kafka",
    ]
    assert results[0]["similarity"] > results[1]["similarity"] > 0
    assert "Lunch on Friday is pizza" not in contents
    assert all(r["match_reasons"][-1] == "graph" for r in results)
    assert all("semantic" not in r["match_reasons"] for r in results)


def test_a_turns_speaker_is_linked_as_a_person(api: MemoryAPI) -> None:
    unwrap(
        api.ingest_turn("Caroline", "I went to the support group", session_id="s", message_id="1")
    )
    unwrap(api.ingest_turn("assistant", "Noted.", session_id="s", message_id="2"))
    people = unwrap(api.entity_query(entity_type="person"))
    assert [p["name"] for p in people] == ["Caroline"]


def test_an_opening_word_the_memory_writes_in_lower_case_is_no_person(api: MemoryAPI) -> None:
    def people(memory: MemoryAPI) -> list[str]:
        return sorted(p["name"] for p in unwrap(memory.entity_query(entity_type="person")))

    def say(text: str, n: str, memory: MemoryAPI = api) -> None:
        unwrap(memory.ingest_turn("Caroline", text, session_id="s", message_id=n))

    say("I go to yoga on Mondays.", "1")
    say("Yoga keeps me calm.", "2")  # a turn already stored says how the word is used
    unwrap(
        api.ingest_turns(  # so does a turn of the same batch, not yet stored
            [
                {"speaker": "Caroline", "text": t, "session_id": "s", "message_id": n}
                for n, t in (("3", "Pottery is my passion."), ("4", "I teach pottery now."))
            ]
        )
    )
    unwrap(api.fact_store("Caroline took a painting class."))
    unwrap(api.fact_store("Painting relaxes Caroline."))  # and a stored fact
    say("Max is my dog.", "5")
    say("I walk Max daily; max pace!", "6")  # a name is written capitalised inside too
    say("My tilly lamp broke.", "7")
    assert people(api) == ["Caroline", "Max"]
    # Another person's memory is not consulted: their "tilly" says nothing of this cat.
    other = api.as_owner(Owner("cli", "hermes", "someone-else", ""))
    say("Tilly is my cat.", "1", other)
    assert "Tilly" in people(other)
    say("Tilly is my cat.", "8")
    assert "Tilly" not in people(api)


def test_graph_disabled_is_a_clear_error_and_recall_goes_on(home: Path, clock: FrozenClock) -> None:
    cfg = load_config(home, env={}, overrides={"graph": {"enabled": False}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        _store(api)
        out = api.graph_traverse("Alice Chen")
        assert not out["success"] and "graph.enabled" in out["error"]
        assert unwrap(api.recall("Alice Chen"))
        with pytest.raises(HermesMemoryError):
            unwrap(api.graph_rebuild())


def test_stats_and_doctor_report_graph_drift_and_repair_it(api: MemoryAPI) -> None:
    _store(api)
    assert unwrap(api.stats())["graph"]["status"] == "ok"
    graph = api.knowledge_graph
    assert graph is not None
    graph.g.remove_node(graph.resolve("Kafka"))  # the projection drifts from SQLite
    stats = unwrap(api.stats())["graph"]
    assert stats["status"] == "needs_repair" and stats["nodes"] == stats["truth"]["nodes"] - 1
    report = unwrap(api.doctor())
    check = next(c for c in report["checks"] if c["name"] == "graph")
    assert not report["ok"] and not check["ok"]
    repaired = unwrap(api.doctor(repair=True))
    assert "graph" in repaired["repaired"] and repaired["ok"]
    assert "Kafka" in [n["name"] for n in unwrap(api.graph_traverse("billing", depth=1))]
    assert unwrap(api.stats())["graph"]["status"] == "ok"


def test_a_batch_reads_a_bounded_number_of_words_from_the_store(api: MemoryAPI) -> None:
    unwrap(api.fact_store("we dance and we sing"))
    use = WordUse(api.db, api.owner, ["I sing a lot"])
    assert use("Dance") == (1, 0) and use("sing") == (2, 0)
    for n in range(word_use.LOOKUPS):
        use(f"word{n}")
    assert use("we") == (0, 0)  # past the budget: the batch's own text alone
    assert WordUse(api.db, api.owner)("we") == (2, 0)
