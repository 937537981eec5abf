"""The knowledge graph: a NetworkX projection of tier-2 entities and relations.

SQLite is the truth; this graph is derived. It is built from the tables, kept in step
by pulling only rows whose change sequence (``graph_seq``, migration 3) is newer than
the one it last saw, so writes from any process reach it, and cached as compact JSON
with an atomic replace so a crash never leaves a half-written file. A missing,
unreadable or foreign file is simply rebuilt from SQLite. (The cache loads about five
times faster than GraphML, which stays an export format: 0.3 s against 1.7 s for 40k
relations, where a rebuild from SQLite takes 0.55 s.)
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sqlite3
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import networkx as nx

from hermes_memory.errors import AmbiguousMatchError, DerivedTierError, NotFoundError
from hermes_memory.fileio import write_atomic
from hermes_memory.text.extract import extract
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.entities import normalize_name
from hermes_memory.tier2.records import Owner

FORMAT_VERSION = 2  # 1 was GraphML
CENTRALITY = ("betweenness", "pagerank", "degree")
# Above this many nodes betweenness is estimated from a fixed sample of sources.
EXACT_BETWEENNESS_MAX = 1_000
BETWEENNESS_PIVOTS = 100  # sampled sources above that: ~8 s at 10k nodes / 20k edges


@dataclass(frozen=True)
class Step:
    """One edge walked in a traversal or path, in the direction it was stated."""

    source: str
    relation: str
    target: str
    strength: float
    valid: bool
    evidence: str | None
    valid_at: float | None = None
    invalid_at: float | None = None

    def to_dict(self, names: dict[str, str]) -> dict[str, Any]:
        return {
            "from": names.get(self.source, self.source),
            "relation": self.relation,
            "to": names.get(self.target, self.target),
            "strength": self.strength,
            "valid": self.valid,
            "evidence": self.evidence,
        }


class KnowledgeGraph:
    """Entities as nodes (keyed by uuid), relations as keyed multi-edges."""

    def __init__(self, db: Database, owner: Owner, directory: Path) -> None:
        self.db = db
        self.owner = owner
        self.path = directory / graph_filename(owner)
        self.g: nx.MultiDiGraph = nx.MultiDiGraph()
        self.seq = -1  # no state yet
        self.dirty = False
        self._undirected: nx.Graph | None = None
        self._by_alias: dict[str, str] = {}
        self._edge_ends: dict[str, tuple[str, str]] = {}  # removal by key without a scan
        # Each walked node's edges as Steps, kept until the graph changes: recall's walk
        # passes the same hubs on every query.
        self._steps: dict[str, list[tuple[str, Step]]] = {}

    # -- keeping in step with SQLite ---------------------------------------------------
    def sync(self) -> dict[str, int]:
        """Pull what changed since the last look; load or rebuild on first use."""
        if self.seq < 0 and not self._load():
            return self.rebuild()
        current = self._current_seq()
        if current == self.seq:
            return {"entities": 0, "relations": 0, "removed": 0}
        with self.db.snapshot() as conn:
            current = self._current_seq(conn)
            counts = self._apply_since(conn, self.seq)
        self.seq = current
        if any(counts.values()):
            self._changed()
        return counts

    def rebuild(self) -> dict[str, int]:
        """Re-derive the whole graph from SQLite and persist it."""
        self.g = nx.MultiDiGraph()
        self._by_alias = {}
        self._edge_ends = {}
        with self.db.snapshot() as conn:
            self.seq = self._current_seq(conn)
            self._apply_since(conn, -1)
        self._changed()
        self.save()
        return {"nodes": self.g.number_of_nodes(), "edges": self.g.number_of_edges()}

    def truth_counts(self) -> dict[str, int]:
        """What the graph should hold, counted in SQLite: live entities, and live
        relations between two of them."""
        clause, params = self.owner.durable_clause("r")
        live_end, end_params = self.owner.durable_clause("e")
        nodes = self.db.scalar(
            f"SELECT COUNT(*) FROM entities r WHERE deleted_at IS NULL AND {clause}", params
        )
        edges = self.db.scalar(
            f"""SELECT COUNT(*) FROM relations r
                WHERE r.deleted_at IS NULL AND {clause}
                  AND EXISTS (SELECT 1 FROM entities e WHERE e.uuid = r.from_entity
                              AND e.deleted_at IS NULL AND {live_end})
                  AND EXISTS (SELECT 1 FROM entities e WHERE e.uuid = r.to_entity
                              AND e.deleted_at IS NULL AND {live_end})""",
            (*params, *end_params, *end_params),
        )
        return {"nodes": int(nodes), "edges": int(edges)}

    def _apply_since(self, conn: sqlite3.Connection, since: int) -> dict[str, int]:
        clause, params = self.owner.durable_clause()
        removed = 0
        for row in conn.execute(
            "SELECT kind, uuid FROM graph_tombstones WHERE seq > ?", (since,)
        ).fetchall():
            removed += self._remove(row["kind"], row["uuid"])
        entities = conn.execute(
            f"SELECT uuid, name, entity_type, aliases, description, first_seen, last_seen, "
            f"occurrence_count, deleted_at FROM entities WHERE graph_seq > ? AND {clause}",
            (since, *params),
        ).fetchall()
        for row in entities:
            if row["deleted_at"] is not None:
                removed += self._remove("entities", row["uuid"])
                continue
            aliases = json.loads(row["aliases"] or "[]")
            self._unindex(row["uuid"])  # an updated entity may have lost a name
            self.g.add_node(
                row["uuid"],
                name=row["name"],
                entity_type=row["entity_type"],
                aliases=aliases,
                description=row["description"] or "",
                first_seen=row["first_seen"],
                last_seen=row["last_seen"],
                occurrences=row["occurrence_count"],
            )
            self._index(row["uuid"])
        relations = conn.execute(
            f"SELECT uuid, from_entity, to_entity, relation_type, strength, evidence_fact, "
            f"evidence_episode, created_at, updated_at, valid_at, invalid_at, expired_at, "
            f"deleted_at FROM relations WHERE graph_seq > ? AND {clause}",
            (since, *params),
        ).fetchall()
        for row in relations:
            self._remove("relations", row["uuid"])
            if row["deleted_at"] is not None:
                removed += 1
                continue
            ends = (row["from_entity"], row["to_entity"])
            if not all(e in self.g for e in ends):
                continue  # an end was deleted or belongs to another owner
            self.g.add_edge(
                *ends,
                key=row["uuid"],
                relation_type=row["relation_type"],
                strength=row["strength"],
                evidence=_evidence(row["evidence_fact"], row["evidence_episode"]),
                created_at=row["created_at"],
                updated_at=row["updated_at"],
                valid_at=row["valid_at"],
                invalid_at=row["invalid_at"] or row["expired_at"],
            )
            self._edge_ends[row["uuid"]] = ends
        return {"entities": len(entities), "relations": len(relations), "removed": removed}

    def _remove(self, kind: str, uuid: str) -> int:
        if kind == "entities" and uuid in self.g:
            for _, _, key in self.g.edges(uuid, keys=True):
                self._edge_ends.pop(key, None)
            for _, _, key in self.g.in_edges(uuid, keys=True):
                self._edge_ends.pop(key, None)
            self._unindex(uuid)
            self.g.remove_node(uuid)
            return 1
        if kind == "relations":
            ends = self._edge_ends.pop(uuid, None)
            if ends is not None and self.g.has_edge(ends[0], ends[1], uuid):
                self.g.remove_edge(ends[0], ends[1], uuid)
                return 1
        return 0

    def _index(self, uuid: str) -> None:
        """Make a node findable by its name and aliases (the first entity keeps a name)."""
        data = self.g.nodes[uuid]
        for alias in [data["name"], *data.get("aliases", [])]:
            self._by_alias.setdefault(normalize_name(alias), uuid)

    def _unindex(self, uuid: str) -> None:
        if uuid not in self.g:
            return
        data = self.g.nodes[uuid]
        for alias in [data["name"], *data.get("aliases", [])]:
            key = normalize_name(alias)
            if self._by_alias.get(key) == uuid:
                del self._by_alias[key]

    def _changed(self) -> None:
        self.dirty = True
        self._undirected = None
        self._steps = {}

    def _current_seq(self, conn: sqlite3.Connection | None = None) -> int:
        if conn is None:
            return int(self.db.scalar("SELECT n FROM graph_seq"))
        return int(conn.execute("SELECT n FROM graph_seq").fetchone()[0])

    # -- persistence ---------------------------------------------------------------------
    def save(self) -> Path:
        """Write the cache atomically (temp file in the same directory, then replace)."""
        doc = {
            "format_version": FORMAT_VERSION,
            "seq": self.seq,
            "owner": _owner_key(self.owner),
            "nodes": [[node, data] for node, data in self.g.nodes(data=True)],
            "edges": [[u, v, k, data] for u, v, k, data in self.g.edges(keys=True, data=True)],
        }
        data = json.dumps(doc, separators=(",", ":")).encode()
        write_atomic(self.path, lambda fh: fh.write(data), prefix=".graph-")
        legacy = self.path.with_name(export_filename(self.owner, "graphml"))
        legacy.unlink(missing_ok=True)  # the GraphML cache of format 1
        self.dirty = False
        return self.path

    def write_graphml(self, fh: BinaryIO) -> None:
        """GraphML of the graph, with the sequence and owner it was built for."""
        out = nx.MultiDiGraph(
            format_version=FORMAT_VERSION, seq=self.seq, owner=_owner_key(self.owner)
        )
        for node, data in self.g.nodes(data=True):
            out.add_node(node, **_graphml_attrs(data))
        for u, v, k, data in self.g.edges(keys=True, data=True):
            out.add_edge(u, v, key=k, **_graphml_attrs(data))
        nx.write_graphml(out, fh)

    def _load(self) -> bool:
        """Read the cache; False (rebuild instead) if it is missing or not ours."""
        try:
            doc = json.loads(self.path.read_bytes())
            if (
                doc["format_version"] != FORMAT_VERSION
                or doc["owner"] != _owner_key(self.owner)
                or int(doc["seq"]) > self._current_seq()
            ):
                return False  # another format, another owner, or a database that was reset
            g = nx.MultiDiGraph()
            g.add_nodes_from((node, data) for node, data in doc["nodes"])
            g.add_edges_from((u, v, k, data) for u, v, k, data in doc["edges"])
        except (OSError, ValueError, KeyError, TypeError):
            return False  # missing or unreadable: derived state, so re-derive it
        self.g = g
        self._by_alias = {}
        self._steps = {}
        self._edge_ends = {k: (u, v) for u, v, k in g.edges(keys=True)}
        for node in g:
            self._index(node)
        self.seq = int(doc["seq"])
        self._changed()
        self.dirty = False
        return True

    # -- lookups -------------------------------------------------------------------------
    def resolve(self, name: str) -> str:
        """The node uuid of an entity given by uuid, name or alias, or by the name the
        write path would have stored for it ("the billing service" is "billing")."""
        if name in self.g:
            return name
        uuid = self._by_alias.get(normalize_name(name))
        if uuid is None or uuid not in self.g:
            found = self.find(m.name for m in extract(name).mentions)
            if len(found) != 1:
                found = self._by_words(name)  # "Grace" for "Grace Liu"
            if len(found) > 1:
                raise AmbiguousMatchError(name, sorted(self.g.nodes[u]["name"] for u in found))
            if not found:
                raise NotFoundError("entity", name, by="named")
            uuid = found[0]
        return uuid

    def _by_words(self, name: str) -> list[str]:
        """The nodes a name or alias of which holds ``name`` as whole words, as people
        say a first name or a part for the whole ("Grace" for "Grace Liu")."""
        key = normalize_name(name)
        if not key:
            return []
        # a word of a name, or a part of an identifier ("inventory" for "inventory-api")
        words = re.compile(rf"(?<!\w){re.escape(key)}(?!\w)")
        out: dict[str, None] = {}
        for alias, uuid in self._by_alias.items():
            if uuid in self.g and words.search(alias):
                out.setdefault(uuid)
        return list(out)

    def find(self, names: Iterable[str]) -> list[str]:
        """Node uuids of the names that are known (unknown ones are skipped)."""
        out: dict[str, None] = {}  # ordered, and a long query's many names stay linear
        for name in names:
            uuid = self._by_alias.get(normalize_name(name))
            if uuid is not None and uuid in self.g:
                out.setdefault(uuid)
        return list(out)

    def node(self, uuid: str) -> dict[str, Any]:
        data = self.g.nodes[uuid]
        return {
            "uuid": uuid,
            "name": data["name"],
            "entity_type": data["entity_type"],
            "degree": self.g.degree(uuid),
        }

    def names(self) -> dict[str, str]:
        return {n: d["name"] for n, d in self.g.nodes(data=True)}

    # -- traversal -----------------------------------------------------------------------
    def steps(
        self,
        uuid: str,
        *,
        relation_filter: Iterable[str] | None = None,
        include_invalid: bool = False,
    ) -> list[tuple[str, Step]]:
        """Every edge touching ``uuid`` (either direction), with the node across it."""
        wanted = set(relation_filter) if relation_filter else None
        out = self._steps.get(uuid)
        if out is None:
            out = [(v, _step(u, v, d)) for u, v, d in self.g.out_edges(uuid, data=True)]
            out += [(u, _step(u, v, d)) for u, v, d in self.g.in_edges(uuid, data=True)]
            self._steps[uuid] = out
        return [
            (other, s)
            for other, s in out
            if (wanted is None or s.relation in wanted) and (include_invalid or s.valid)
        ]

    def traverse(
        self,
        start: str,
        depth: int = 2,
        relation_filter: Iterable[str] | None = None,
        *,
        include_invalid: bool = False,
    ) -> list[dict[str, Any]]:
        """Breadth-first from ``start`` up to ``depth`` hops, edges in either direction;
        each reached entity once, at its nearest depth, with the path that reached it."""
        root = self.resolve(start)
        seen: dict[str, tuple[int, list[Step]]] = {root: (0, [])}
        queue = deque([root])
        while queue:
            here = queue.popleft()
            hops, path = seen[here]
            if hops >= depth:
                continue
            for other, step in self.steps(
                here, relation_filter=relation_filter, include_invalid=include_invalid
            ):
                if other not in seen:
                    seen[other] = (hops + 1, [*path, step])
                    queue.append(other)
        names = self.names()
        return [
            {**self.node(uuid), "depth": hops, "path": [s.to_dict(names) for s in path]}
            for uuid, (hops, path) in seen.items()
            if uuid != root
        ]

    def shortest_path(self, source: str, target: str) -> list[dict[str, Any]]:
        """Entities from ``source`` to ``target`` over valid relations, either direction;
        empty when they are not connected."""
        a, b = self.resolve(source), self.resolve(target)
        try:
            nodes = nx.shortest_path(self.undirected(), a, b)
        except nx.NetworkXNoPath:
            return []
        names = self.names()
        out = [{**self.node(nodes[0]), "via": None}]
        for prev, here in zip(nodes, nodes[1:], strict=False):
            step = max(
                (s for other, s in self.steps(prev) if other == here),
                key=lambda s: s.strength,
            )
            out.append({**self.node(here), "via": step.to_dict(names)})
        return out

    def undirected(self) -> nx.Graph:
        """Valid relations as a simple undirected graph, weight = strongest relation."""
        if self._undirected is None:
            simple = nx.Graph()
            simple.add_nodes_from(self.g.nodes)
            for u, v, d in self.g.edges(data=True):
                if d.get("invalid_at") is not None or u == v:
                    continue
                w = float(d.get("strength", 1.0))
                if not simple.has_edge(u, v) or simple[u][v]["weight"] < w:
                    simple.add_edge(u, v, weight=w)
            self._undirected = simple
        return self._undirected

    # -- analytics -----------------------------------------------------------------------
    def central(self, algorithm: str = "betweenness", limit: int = 10) -> list[dict[str, Any]]:
        if algorithm not in CENTRALITY:
            raise DerivedTierError(f"unknown centrality {algorithm!r}; use one of {CENTRALITY}")
        g = self.undirected()
        if g.number_of_nodes() == 0:
            return []
        if algorithm == "degree":
            scores = nx.degree_centrality(g)
        elif algorithm == "pagerank":
            scores = nx.pagerank(g, weight="weight")
        else:
            n = g.number_of_nodes()
            k = None if n <= EXACT_BETWEENNESS_MAX else BETWEENNESS_PIVOTS
            scores = nx.betweenness_centrality(g, k=k, seed=7)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], self.g.nodes[kv[0]]["name"]))
        return [{**self.node(u), "score": round(s, 6)} for u, s in ranked[:limit]]

    def communities(self, *, min_size: int = 2, seed: int = 7) -> list[dict[str, Any]]:
        """Louvain communities over valid relations (fixed seed: stable across runs)."""
        g = self.undirected()
        if g.number_of_edges() == 0:
            return []
        groups = nx.community.louvain_communities(g, weight="weight", seed=seed)
        out: list[dict[str, Any]] = []
        for members in sorted(groups, key=lambda m: (-len(m), min(m))):
            if len(members) < min_size:
                continue
            sub = g.subgraph(members)
            by_degree = sorted(members, key=lambda u: (-sub.degree(u), self.g.nodes[u]["name"]))
            out.append(
                {
                    "id": len(out),
                    "size": len(members),
                    "hubs": [self.g.nodes[u]["name"] for u in by_degree[:3]],
                    "members": sorted(self.g.nodes[u]["name"] for u in members),
                }
            )
        return out

    def stats(self) -> dict[str, Any]:
        return {
            "nodes": self.g.number_of_nodes(),
            "edges": self.g.number_of_edges(),
            "valid_edges": self.undirected().number_of_edges(),
            "seq": self.seq,
            "path": str(self.path),
        }


def graph_owners(db: Database) -> list[Owner]:
    """Every owner with a graph: those holding live durable entities."""
    rows = db.query(
        "SELECT DISTINCT platform, agent, user_id FROM entities "
        "WHERE deleted_at IS NULL AND session_key = ''"
    )
    return [Owner(r["platform"], r["agent"], r["user_id"]) for r in rows]


def hub_damping(degree: int) -> float:
    """How much of a neighbour's weight passes through a node of this degree: a hub
    (a person in every conversation) must not pull in everything it touches; a link
    in a chain (degree 2) passes everything."""
    return 1.0 / (1.0 + math.log1p(max(0, degree - 2) / 4))


def graph_filename(owner: Owner) -> str:
    """The cache's file name."""
    return f"graph-cache{_owner_tag(owner)}.json"


def export_filename(owner: Owner, kind: str) -> str:
    """The name ``graph export`` gives a file (under ``export/``); format 1 kept its
    GraphML cache under this name beside the cache."""
    return f"knowledge_graph{_owner_tag(owner)}.{kind}"


def _owner_tag(owner: Owner) -> str:
    key = _owner_key(owner)
    return "" if key == "||" else f"-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def _owner_key(owner: Owner) -> str:
    return f"{owner.platform}|{owner.agent}|{owner.user_id}"


def _evidence(fact: str | None, episode: str | None) -> str:
    """The memory stating a relation, as ``fact:<uuid>`` or ``episode:<uuid>``."""
    if fact:
        return f"fact:{fact}"
    return f"episode:{episode}" if episode else ""


def _step(u: str, v: str, d: dict[str, Any]) -> Step:
    return Step(
        source=u,
        relation=d["relation_type"],
        target=v,
        strength=float(d.get("strength", 1.0)),
        valid=d.get("invalid_at") is None,
        evidence=d.get("evidence") or None,
        valid_at=d.get("valid_at"),
        invalid_at=d.get("invalid_at"),
    )


def _graphml_attrs(data: dict[str, Any]) -> dict[str, Any]:
    """GraphML holds scalars only: lists become JSON, missing values are left out."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if value is None:
            continue
        out[key] = json.dumps(value) if isinstance(value, list | dict) else value
    return out
