"""Stats and doctor: counts and health of every tier, and their repair."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_memory.api import fact_ops, graph_ops, rederive
from hermes_memory.api.envelope import Envelope, run
from hermes_memory.errors import HermesMemoryError, ValidationError
from hermes_memory.tier2 import claims
from hermes_memory.tier2 import health as tier2_health

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI


def stats(api: MemoryAPI) -> Envelope:
    def work() -> dict[str, Any]:
        curated = {}
        for store in ("memory", "user"):
            used, limit = api.curated.usage(store)
            curated[store] = {
                "entries": len(api.curated.entries(store)),
                "usage": f"{used:,}/{limit:,}",
            }
        db_bytes = sum(
            p.stat().st_size for p in api.db.path.parent.glob(api.db.path.name + "*") if p.is_file()
        )
        return {
            "profile": api.config.profile,
            "tier1": curated,
            "tier2": {
                "facts": api.facts.count(),
                "episodes": api.episodes.count(),
                "entities": api.entities.count(),
                "relations": api.entities.relation_count(),
                "timeline": api.timeline.count(),
                "db_path": str(api.db.path),
                "db_bytes": db_bytes,
            },
            "embed_queue": tier2_health.queue_depth(api.db),
            "derived": tier2_health.derived_status(api.db),
            "tier3": tier3_stats(api, quick=True),
            "graph": graph_ops.status(api),
        }

    return run("multi", ["tier1", "tier2"], work)


def owner_stats(api: MemoryAPI) -> Envelope:
    """What an agent may see of the store: its own owner's counts and the tiers'
    health, never another tenant's numbers, the store's totals or its paths."""

    def work() -> dict[str, Any]:
        counts = tier2_health.owner_counts(api.db, api.owner)
        derived = tier2_health.derived_status(api.db)
        return {
            "profile": api.config.profile,
            "tier1": {s: len(api.curated.entries(s)) for s in ("memory", "user")},
            "tier2": counts,
            "health": {name: d.get("status", "ok") for name, d in derived.items()},
        }

    return run("multi", ["tier1", "tier2"], work)


def tier3_stats(api: MemoryAPI, *, quick: bool = False) -> dict[str, Any]:
    """Tier 3's counts against the truth (``quick``: from the saved exact-search copy,
    for stats; doctor reads the table)."""
    if api.semantic is None:
        return {"status": "disabled"}
    counts = api.semantic.counts(quick=quick)
    counts.pop("detail", None)
    if api.semantic.embedder.degraded:
        counts["warning"] = (
            f"degraded: {api.semantic.embedder.name} is a hashing embedder, "
            "not a semantic model; recall matches shared words only"
        )
    return counts


def _tier3_check(api: MemoryAPI) -> tier2_health.Check:
    t3 = tier3_stats(api)
    # Items waiting in the outbox (CLI writes, bulk imports) are pending for the embed
    # job, not drift (as in the verify job).
    pending = min(tier2_health.queue_depth(api.db)["pending"], t3["missing"])
    drift = (t3["missing"] - pending) or t3["orphans"] or t3["duplicates"]
    ok = t3["status"] in ("ok", "empty") and not drift
    state = (
        f"{t3['status']}, {t3['indexed_items']}/{t3['truth_items']} items "
        f"indexed ({t3['embedder']})"
    )
    if pending:
        state += f", {pending} waiting for the embed job"
    if t3["orphans"] or t3["duplicates"]:
        state += f"; {t3['orphans']} orphan item(s), {t3['duplicates']} duplicate row(s)"
    if "warning" in t3:
        state += f"; {t3['warning']}"
    if api.semantic is not None and t3["status"] in ("ok", "empty"):
        try:
            state += f"; searched by {api.semantic.store.search_path()}"
        except HermesMemoryError as exc:  # the table itself is damaged: said above
            state += f"; search unavailable: {exc}"
            ok = False
    return tier2_health.Check("tier3", ok, state)


def _graph_check(api: MemoryAPI) -> tier2_health.Check:
    g = graph_ops.status(api)
    if "nodes" not in g:
        return tier2_health.Check("graph", False, f"{g['status']}: {g.get('error', '')}")
    truth = g["truth"]
    state = (
        f"{g['status']}, {g['nodes']}/{truth['nodes']} entities and "
        f"{g['edges']}/{truth['edges']} relations in the graph"
    )
    return tier2_health.Check("graph", g["status"] == "ok", state)


# What an upgraded extractor's stale checks say to do: nothing is lost meanwhile.
_AGAIN = " (the next consolidate reads them again; now: doctor --repair)"


def _claims_check(api: MemoryAPI) -> tier2_health.Check:
    """The claims supersession reads: stale when another extractor version read them
    (consolidate or `doctor --repair` reads them again)."""
    unread = claims.count_unread(api.db)
    if fact_ops.claims_stale(api) and api.facts.count():
        stale = f"stale: read by another extractor version{_AGAIN}"
        return tier2_health.Check("claims", False, stale)
    return tier2_health.Check("claims", True, f"{unread} facts waiting to be read")


def _relations_check(api: MemoryAPI) -> tier2_health.Check:
    """The graph's entities and relations as the text yields them: stale when another
    extractor version read them (consolidate or `doctor --repair` reads them again)."""
    if api.linker is None:
        return tier2_health.Check("graph_text", True, "not read: graph.extract_on_write is off")
    waiting = rederive.waiting(api)
    if waiting:
        return tier2_health.Check(
            "graph_text",
            False,
            f"stale: {waiting} facts and turns read by another extractor version{_AGAIN}",
        )
    return tier2_health.Check("graph_text", True, "read by this extractor version")


def doctor(api: MemoryAPI, *, repair: bool = False) -> Envelope:
    """Schema, integrity, FTS, queue depth and derived-tier health; optionally repair."""

    def work() -> tuple[Any, dict[str, Any]]:
        checks = tier2_health.check(api.db)
        repaired: list[str] = []
        if repair and any(not c.ok and c.repairable for c in checks):
            repaired = tier2_health.rebuild_fts(api.db)
            checks = tier2_health.check(api.db)
        for store in ("memory", "user"):
            try:
                api.curated.entries(store)
                checks.append(tier2_health.Check(f"curated:{store}", True, "readable"))
            except ValidationError as exc:
                checks.append(tier2_health.Check(f"curated:{store}", False, str(exc)))
            except Exception as exc:  # a broken curated file is reported, not raised
                checks.append(tier2_health.Check(f"curated:{store}", False, str(exc)))
        if api.semantic is not None:
            check = _tier3_check(api)
            waiting = tier2_health.queue_depth(api.db)["pending"]
            if repair and (not check.ok or waiting):
                # A repair also embeds what waits: after it, nothing is missing.
                api.repair()
                repaired.append("tier3")
                check = _tier3_check(api)
            checks.append(check)
        if api.config.graph.enabled:
            check = _graph_check(api)
            if repair and not check.ok:
                graph_ops.rebuild(api)
                repaired.append("graph")
                check = _graph_check(api)
            checks.append(check)
        checks.append(_claims_check(api))
        if repair and not checks[-1].ok:
            fact_ops.read_claims(api)
            repaired.append("claims")
            checks[-1] = _claims_check(api)
        checks.append(_relations_check(api))
        if repair and not checks[-1].ok:
            rederive.rederive(api)
            repaired.append("graph_text")
            checks[-1] = _relations_check(api)
        depth = tier2_health.queue_depth(api.db)
        derived = tier2_health.derived_status(api.db)
        data = {
            "ok": all(c.ok for c in checks),
            "checks": [c.to_dict() for c in checks],
            "embed_queue": depth,
            "derived": derived,
            "repaired": repaired,
        }
        return data, {}

    return run("multi", ["tier1", "tier2"], work)
